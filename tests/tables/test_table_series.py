"""Series of games through the table service: Play again rotates the seats to the right
(and the bettor's place with them), carries the quarters pot, keeps running totals, survives
restarts, refuses league tables, and every game still replays from its own inputs."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from table_helpers import (
    ANN,
    BO,
    CARD_TEXT,
    CY,
    HOST,
    Clock,
    Recorder,
    league_season,
    make_service,
    open_game,
    play_out,
)

from bot.engine.errors import IllegalAction
from bot.engine.game import STANDARD, THREE_PLAYER, TOURNAMENT, RuleSet, parse_action, replay
from bot.server_cards import parse_card
from bot.store import AlreadySeated, Database, GameStatus
from bot.tables.options import TableOptions, read_table_options
from bot.tables.series import seating, series_totals
from bot.tables.service import TableService

DI = 1005


@pytest.fixture
def clock() -> Clock:
    return Clock()


@given(players=st.sampled_from((2, 3, 4)), bettor=st.booleans(), number=st.integers(0, 40))
def test_the_deal_passes_to_the_right_and_the_bettor_sits_out_in_turn(
        players: int, bettor: bool, number: int) -> None:
    people = players + int(bettor)
    now, after = seating(people, players, number), seating(people, players, number + 1)
    # Whoever sat South is East; everyone else moves one wind, and whoever was East moves
    # to the last seat (or, with a bettor, sits out; the bettor comes back last).
    assert after.seats[:-1] == now.seats[1:]
    if bettor:
        assert after.bettor == now.seats[0] and after.seats[-1] == now.bettor
    else:
        assert after.bettor is None and after.seats[-1] == now.seats[0]
    # Over a whole turn of the ring each person deals once (and bets once).
    ring = [seating(people, players, number + k) for k in range(people)]
    assert sorted(s.seats[0] for s in ring) == list(range(people))
    if bettor:
        assert sorted(s.bettor for s in ring if s.bettor is not None) == list(range(people))
    assert sorted(now.seats + ((now.bettor,) if bettor else ())) == list(range(people))


async def _replays(db: Database, game_id: int) -> None:
    """The stored game replays from its own seed, pot, bet and log to its stored result."""
    record = await db.games.load_game(game_id)
    rules = read_table_options(record.game.rules).rules
    card = parse_card(record.game.card.text)
    first: dict[int, str] = {}
    for holder in record.history:
        first.setdefault(holder.seat, holder.display_name)
    bet = None if record.bettor is None else record.bettor.seat
    state, _ = replay(rules, card, record.game.seed, [first[s] for s in range(rules.players)],
                      [parse_action(a.text, rules.players) for a in record.actions],
                      record.pot, bet)
    result = await db.games.result(game_id)
    assert state.result is not None and result is not None
    assert [s.points for s in result.seats] == list(state.result.totals)
    details = json.loads(result.details)
    assert details["pot"] == state.result.pot and details["bettor"] == state.result.bettor


async def _names(service: TableService, game_id: int) -> tuple[str, ...]:
    return tuple(s.display_name for s in await service.db.seats.seats(game_id))


async def test_play_again_rotates_the_table_and_keeps_running_totals(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        first = await open_game(service, STANDARD, [HOST, ANN])
        await play_out(service, first, [HOST, ANN])
        assert await _names(service, first) == ("Host", "Player 1", "Bot 1", "Bot 2")
        with pytest.raises(IllegalAction, match="Only the table's host"):
            await service.play_again(first, ANN)

        second, table = await service.play_again(first, HOST)
        assert table is not None and service.in_play(second.id)
        # South is East now; the host, who was East, sits North. Bots stay bots.
        assert await _names(service, second.id) == ("Player 1", "Bot 1", "Bot 2", "Host")
        assert table.user_ids == (ANN, None, None, HOST)
        assert (second.thread_id, second.channel_id) == (None, 2)
        assert second.seed != (await db.games.game(first)).seed
        with pytest.raises(IllegalAction, match="already begun"):
            await service.play_again(first, HOST)
        await play_out(service, second.id, [HOST, ANN])

        totals = await series_totals(db, second.id)
        assert totals is not None and totals.games == 2
        settled = [0, 0, 0, 0]
        for game_id, seats in ((first, (0, 1, 2, 3)), (second.id, (1, 2, 3, 0))):
            result = await db.games.result(game_id)
            assert result is not None
            for seat in result.seats:
                settled[seats[seat.seat]] += json.loads(seat.breakdown)["settlement"]
            await _replays(db, game_id)
        assert list(totals.totals) == settled
        assert sum(totals.totals) == 0
        await service.close()


async def test_a_restart_between_games_still_rotates_right(tmp_path: Path,
                                                           clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        first = await open_game(service, THREE_PLAYER, [HOST, ANN])
        await play_out(service, first, [HOST, ANN])
        second, _ = await service.play_again(first, HOST)
        await play_out(service, second.id, [HOST, ANN])
        await service.close()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        await service.start(run_clocks=False)
        third, table = await service.play_again(second.id, HOST)
        assert table is not None
        assert await _names(service, third.id) == ("Bot 1", "Host", "Player 1")
        await play_out(service, third.id, [HOST, ANN])
        series = await db.series.series_of(third.id)
        assert series is not None and series.games == (first, second.id, third.id)
        for game_id in series.games:
            await _replays(db, game_id)
        await service.close()


async def test_the_quarters_pot_carries_into_the_next_game(tmp_path: Path,
                                                           clock: Clock) -> None:
    rules = replace(STANDARD, quarters_pot=True)
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, rules, [HOST])
        carried = []
        for _ in range(4):
            await play_out(service, game_id, [HOST])
            result = await db.games.result(game_id)
            assert result is not None
            pot = json.loads(result.details)["pot"]
            game, _ = await service.play_again(game_id, HOST)
            assert (await db.games.load_game(game.id)).pot == pot
            carried.append(pot)
            await _replays(db, game_id)
            game_id = game.id
        await service.close()
    assert any(carried), "no wall game put anything into the pot"


async def test_the_bettor_chooses_a_seat_and_sits_out_in_turn(tmp_path: Path,
                                                              clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        lobby = await service.open_table(guild_id=1, channel_id=2, host_id=HOST,
                                         host_name="Host", options=_options(STANDARD))
        for user, name in ((ANN, "Ann"), (BO, "Bo"), (CY, "Cy")):
            await service.join(lobby.id, user, name)
        await service.join_as_bettor(lobby.id, DI, "Di")
        with pytest.raises(AlreadySeated, match="bettor"):
            await service.join(lobby.id, DI, "Di")
        with pytest.raises(IllegalAction, match="hasn't chosen"):
            await service.start_game(lobby.id, HOST)
        assert await service.choose_bet(lobby.id, DI, 2) is None  # the host starts it
        table = await service.start_game(lobby.id, HOST)
        assert (table.bettor_id, table.bettor_name) == (DI, "Di")
        assert service.spectator(lobby.id).bet == 2
        with pytest.raises(IllegalAction, match="bettor"):  # nor handed one during play
            await service.replace_seat(lobby.id, HOST, 1, DI, "Di")
        people = [HOST, ANN, BO, CY]
        await play_out(service, lobby.id, people)
        await _replays(db, lobby.id)

        second, started = await service.play_again(lobby.id, HOST)
        assert started is None  # it waits for its bettor: the host, who was East
        assert await _names(service, second.id) == ("Ann", "Bo", "Cy", "Di")
        bettor = await db.series.bettor(second.id)
        assert bettor is not None and (bettor.user_id, bettor.seat) == (HOST, None)
        with pytest.raises(IllegalAction, match="Only the table's host"):
            await service.start_game(second.id, ANN)
        table = await service.choose_bet(second.id, HOST, 0)
        assert table is not None and table.bettor_id == HOST
        await play_out(service, second.id, [ANN, BO, CY, DI])
        await _replays(db, second.id)

        totals = await series_totals(db, second.id)
        assert totals is not None and totals.games == 2
        assert [p.display_name for p in totals.people] == ["Host", "Ann", "Bo", "Cy", "Di"]
        assert sum(totals.totals) == 0
        await service.close()


async def test_no_bettor_at_tables_that_take_none(tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        for rules in (TOURNAMENT, THREE_PLAYER):
            lobby = await service.open_table(guild_id=1, channel_id=2, host_id=HOST,
                                             host_name="Host", options=_options(rules))
            with pytest.raises(IllegalAction, match="bettor"):
                await service.join_as_bettor(lobby.id, DI, "Di")
        await service.close()


async def test_a_league_table_keeps_its_seating(tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        await league_season(db, minutes=600)
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST])
        await play_out(service, game_id, [HOST])
        assert (await db.games.game(game_id)).status is GameStatus.FINISHED
        with pytest.raises(IllegalAction, match="league table"):
            await service.play_again(game_id, HOST)
        assert await db.series.series_of(game_id) is None
        await service.close()


def _options(rules: RuleSet) -> TableOptions:
    return TableOptions(rules, "jongg-original", CARD_TEXT)


async def test_a_bot_whose_turn_it_is_to_sit_out_does_not_bet(tmp_path: Path,
                                                               clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        lobby = await service.open_table(guild_id=1, channel_id=2, host_id=HOST,
                                         host_name="Host", options=_options(STANDARD))
        await service.join_as_bettor(lobby.id, DI, "Di")
        await service.choose_bet(lobby.id, DI, 0)
        await service.start_game(lobby.id, HOST)  # bots fill South, West and North
        await play_out(service, lobby.id, [HOST])
        second, _ = await service.play_again(lobby.id, HOST)
        await service.choose_bet(second.id, HOST, 3)
        await play_out(service, second.id, [DI])
        # Game 3: Bot 1 (the first game's South) would bet; a bot just sits out.
        third, table = await service.play_again(second.id, HOST)
        assert table is not None and await db.series.bettor(third.id) is None
        assert await _names(service, third.id) == ("Bot 2", "Bot 3", "Di", "Host")
        await play_out(service, third.id, [HOST, DI])
        totals = await series_totals(db, third.id)
        assert totals is not None and totals.rounds[2][1] is None
        assert sum(totals.totals) == 0
        await service.close()


async def test_join_and_bet_pressed_together_give_one_person_one_place(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        lobby = await service.open_table(guild_id=1, channel_id=2, host_id=HOST,
                                         host_name="Host", options=_options(STANDARD))
        # Join and Bet at the same moment: whichever lands first wins, the other is refused.
        joined, bet = await asyncio.gather(service.join(lobby.id, DI, "Di"),
                                           service.join_as_bettor(lobby.id, DI, "Di"),
                                           return_exceptions=True)
        assert isinstance(joined, Exception) != isinstance(bet, Exception), (joined, bet)
        seated = [seat.user_id for seat in await db.seats.seats(lobby.id)]
        bettor = await db.series.bettor(lobby.id)
        assert (DI in seated) != (bettor is not None), (seated, bettor)
        await service.close()
