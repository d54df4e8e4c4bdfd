"""Series and bettors in the store: a series begins once per game, each next game is a copy
of the one before with its own seed, pot and seats, a second next game after the same one is
refused, and a bettor is a person without a seat who chooses before play."""

from __future__ import annotations

import pytest
from store_helpers import new_game

from bot.store import (
    AlreadySeated,
    Database,
    FinishReason,
    NotFound,
    Outcome,
    Person,
    WrongStatus,
)

PEOPLE = tuple(Person(1000 + seat, f"Player {seat}") for seat in range(4))


async def _finished(db: Database) -> int:
    game = await new_game(db)
    await db.games.finish_game(game.id, Outcome(FinishReason.WALL))
    return game.id


async def test_a_series_begins_once_and_adds_rotated_copies(db: Database) -> None:
    first = await _finished(db)
    series = await db.series.begin(first, PEOPLE)
    assert await db.series.begin(first, PEOPLE[:1]) == series  # the same series, unchanged
    assert series.people == PEOPLE and series.games == (first,)
    nxt = await db.series.add_game(series.id, first, seed=99, pot=75, seats=(1, 2, 3, 0),
                                   bettor=None)
    old = await db.games.game(first)
    assert (nxt.seed, nxt.rules, nxt.card, nxt.channel_id, nxt.host_user_id) == (
        99, old.rules, old.card, old.channel_id, old.host_user_id)
    record = await db.games.load_game(nxt.id)
    assert record.pot == 75 and record.bettor is None
    assert [s.user_id for s in record.seats] == [1001, 1002, 1003, 1000]
    assert (await db.games.load_game(first)).pot == 0
    with pytest.raises(WrongStatus, match="already begun"):
        await db.series.add_game(series.id, first, seed=1, pot=0, seats=(0, 1, 2, 3),
                                 bettor=None)
    with pytest.raises(WrongStatus):  # the next game is not finished yet
        await db.series.add_game(series.id, nxt.id, seed=1, pot=0, seats=(0, 1, 2, 3),
                                 bettor=None)
    with pytest.raises(WrongStatus, match="already begun"):  # ended only after its last
        await db.series.end(series.id, first)
    assert (await db.series.series_of(nxt.id)).ended_at is None  # type: ignore[union-attr]
    ended = await db.series.end(series.id, nxt.id)
    assert ended.ended_at is not None
    with pytest.raises(WrongStatus, match="has ended"):  # one end, so one summary
        await db.series.end(series.id, nxt.id)
    assert await db.series.series_of(nxt.id) == ended


async def test_a_bettor_is_a_person_without_a_seat_who_chooses_before_play(
        db: Database) -> None:
    game = await new_game(db, start=False)
    with pytest.raises(AlreadySeated):
        await db.series.add_bettor(game.id, 1000, "Player 0")
    bettor = await db.series.add_bettor(game.id, 2000, "Di")
    assert bettor.seat is None
    with pytest.raises(WrongStatus, match="bettor already"):
        await db.series.add_bettor(game.id, 2001, "Ed")
    with pytest.raises(NotFound):
        await db.series.set_bet(game.id, 1000, 1)
    assert (await db.series.set_bet(game.id, 2000, 3)).seat == 3
    assert (await db.games.load_game(game.id)).bettor == (await db.series.bettor(game.id))
    await db.games.start_game(game.id, 4)
    with pytest.raises(WrongStatus):
        await db.series.set_bet(game.id, 2000, 1)
    with pytest.raises(WrongStatus):
        await db.series.remove_bettor(game.id, 2000)
