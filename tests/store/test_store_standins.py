"""Stand-ins in the store (migration 0008): the log marks the moves the table made for a
person, a seat taken back is kept with the log length it was taken back at, and a version 7
file upgrades with every action, seat and season as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_helpers import new_game

from bot.store import (
    AlreadySeated,
    Database,
    PlayedFor,
    StandInGames,
    shipped_migrations,
)


async def test_marks_round_trip_with_their_actions(db: Database) -> None:
    game = await new_game(db)
    await db.actions.append_actions(
        game.id, 0, [("East: discard 3B", 1000), ("South: pass", None),
                     ("West: pass", None), ("North: pass", None)],
        played_for={1: PlayedFor.TIMEOUT, 3: PlayedFor.STAND_IN})
    logged = await db.actions.actions(game.id)
    assert [a.played_for for a in logged] == [None, PlayedFor.TIMEOUT, None,
                                              PlayedFor.STAND_IN]
    assert [a.actor_user_id for a in logged] == [1000, None, None, None]


@pytest.mark.parametrize("marks", [{4: PlayedFor.TIMEOUT}, {-1: PlayedFor.TIMEOUT},
                                   {0: "timeout"}])
async def test_a_mark_must_name_an_action_of_the_append(db: Database, marks: object) -> None:
    game = await new_game(db)
    with pytest.raises(ValueError, match="played_for"):
        await db.actions.append_actions(game.id, 0, [("East: discard 3B", None)],
                                        played_for=marks)  # type: ignore[arg-type]
    assert await db.actions.next_seq(game.id) == 0


async def test_a_reclaim_is_kept_at_the_log_length_of_its_moment(db: Database) -> None:
    game = await new_game(db)
    assert await db.seats.reclaims(game.id) == {}
    await db.actions.append_actions(game.id, 0, [("East: discard 3B", None)])
    assert await db.seats.record_reclaim(game.id, 2, 1002) == 1
    await db.actions.append_actions(game.id, 1, [("South: pass", None)] * 3)
    assert await db.seats.record_reclaim(game.id, 2, 1002) == 4
    assert await db.seats.reclaims(game.id) == {2: 4}
    with pytest.raises(AlreadySeated):  # only the seat's holder takes it back
        await db.seats.record_reclaim(game.id, 2, 1001)


async def test_a_version_7_file_upgrades_keeping_its_log_and_seasons(db_path: Path) -> None:
    async with Database(db_path, migrations=shipped_migrations()[:7]) as old:
        game = await new_game(old)
        league = await old.leagues.create_league(111, "Friday", 222, created_by=1000)
    # Written as version 7 wrote them (this version's store writes the 0008 columns).
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            conn.executemany(
                "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at) "
                "VALUES (?, ?, ?, ?, 1.0)",
                [(game.id, 0, "East: discard 3B", 1000), (game.id, 1, "South: pass", None)])
            conn.execute(
                "INSERT INTO league_seasons (league_id, number, name, players, card_name, "
                "scoring, rules, started_at, started_by) VALUES (?, 1, 'Spring', 4, "
                "'sample-2026', 'nmjl', '{}', 1.0, 1000)", (league.id,))
    finally:
        conn.close()
    async with Database(db_path) as db:
        assert db.schema_version == len(shipped_migrations())
        logged = await db.actions.actions(game.id)
        assert [(a.text, a.actor_user_id, a.played_for) for a in logged] == [
            ("East: discard 3B", 1000, None), ("South: pass", None, None)]
        season = await db.leagues.current_season(league.id)
        assert season is not None and season.settings.stand_in_games is StandInGames.COUNT
        await db.actions.append_actions(game.id, 2, [("West: pass", None)],
                                        played_for={0: PlayedFor.TIMEOUT})
        assert (await db.actions.actions(game.id, since=2))[0].played_for is PlayedFor.TIMEOUT
    conn = sqlite3.connect(db_path)
    try:
        assert {name for (name,) in conn.execute("SELECT name FROM played_for_kinds")} == {
            kind.value for kind in PlayedFor}
    finally:
        conn.close()
