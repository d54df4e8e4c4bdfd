"""Migration 0002 on a copy of a version-1 database holding games: the upgrade keeps every
row, and a failing upgrade leaves the file exactly as it was."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from league_helpers import (
    CHANNEL,
    GUILD,
    FakeClock,
    finished_game,
    season_settings,
    stored_game,
)

from bot.league.ratings import RATING_MODEL
from bot.store import (
    Database,
    Migration,
    MigrationFailed,
    Pace,
    ShippedCardChoice,
    shipped_migrations,
)

OLD_TABLES = ("guilds", "server_cards", "games", "seats", "actions", "clocks", "results",
              "result_seats", "game_statuses", "clock_kinds", "finish_reasons")
NEW_TABLES = ("leagues", "league_seasons", "league_players", "league_rounds", "league_round_seats",
              "league_games", "league_results", "league_ratings", "league_audit",
              "scoring_profiles", "audit_actions")


def rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(path)
    try:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
                for table in OLD_TABLES}
    finally:
        conn.close()


def snapshot(path: Path) -> tuple[int, list[str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0], list(conn.iterdump())
    finally:
        conn.close()


def tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


@pytest.fixture
async def version_1(tmp_path: Path) -> Path:
    """A database made by the version-1 code, with finished, playing and lobby games."""
    path = tmp_path / "v1.db"
    first = shipped_migrations()[:1]
    async with Database(path, migrations=first, clock=FakeClock()) as db:
        assert db.schema_version == 1
        await finished_game(db, [1, 2, 3, None], [25, 0, -10, 0], winner=0)
        await finished_game(db, [1, 2, 3, 4], [10, 10, 10, 10])
        playing = await stored_game(db, [1, 2, 3, 4])
        await db.games.create_game(
            guild_id=GUILD, channel_id=CHANNEL, host_user_id=1, rules="{}",
            card=ShippedCardChoice("c", "text"), seed=1, pace=Pace("live"), hints=False)
    # Logged as version 1 logged it (this version's store writes later columns too).
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute("INSERT INTO actions (game_id, seq, action, actor_user_id, created_at) "
                         "VALUES (?, 0, 'East: discard 3B', 1, 1.0)", (playing.id,))
    finally:
        conn.close()
    return path


async def test_a_copy_of_a_version_1_file_upgrades_to_2_keeping_every_row(
        version_1: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    shutil.copy(version_1, copy)
    before = rows(copy)
    assert before["games"] and before["result_seats"] and before["actions"]
    async with Database(copy, migrations=shipped_migrations()[:2]) as db:
        assert db.schema_version == 2
        # The old games are untouched and the new tables work with them.
        league = await db.leagues.create_league(GUILD, "After the upgrade", CHANNEL,
                                                created_by=9)
        assert await db.league_games.unrecorded() == []  # no season was open back then
        assert (await db.games.result(1)) is not None
        assert league.id == 1
    after = rows(copy)
    assert after.pop("clock_kinds") == sorted([*before.pop("clock_kinds"), ("game_limit",)])
    assert after == before
    assert set(NEW_TABLES) <= tables(copy)
    conn = sqlite3.connect(copy)
    try:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    assert snapshot(version_1)[0] == 1  # the original file was not touched


async def test_a_failing_upgrade_leaves_the_file_as_it_was(version_1: Path) -> None:
    before = snapshot(version_1)
    first, second = shipped_migrations()[:2]
    broken = Migration(2, second.name, second.sql + "\nINSERT INTO leagues (id) VALUES (1);\n")
    with pytest.raises(MigrationFailed, match="0002"):
        await Database(version_1, migrations=[first, broken]).connect()
    assert snapshot(version_1) == before
    assert not set(NEW_TABLES) & tables(version_1)
    # The real migration still applies afterwards.
    async with Database(version_1, migrations=[first, second]) as db:
        assert db.schema_version == 2


async def test_upgraded_database_records_league_games(version_1: Path) -> None:
    async with Database(version_1, clock=FakeClock(1_800_000_000.0)) as db:
        league = await db.leagues.create_league(GUILD, "L", CHANNEL, created_by=9)
        season = await db.leagues.start_season(league.id, season_settings(), by=9)
        game = await finished_game(db, [1, 2, 3, 4], [25, 0, 0, -10], winner=0)
        recorded = await db.league_games.record(game.id, [], counted=True, model=RATING_MODEL)
        assert recorded is not None and recorded.season_id == season.id
