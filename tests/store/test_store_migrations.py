"""Schema migrations on real files: from empty, re-opening, failures that change nothing, and
files the code must refuse; and on both databases (SQLite and PostgreSQL): a failing step
rolled back, a changed or newer schema refused, several processes migrating one empty
database at once."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from store_helpers import FakeClock, new_game

from bot.store import (
    Database,
    Migration,
    MigrationChanged,
    MigrationFailed,
    NotAJonggDatabase,
    SchemaTooNew,
    shipped_migrations,
)
from bot.store.migrate import APPLICATION_ID, check_sequence, split_statements

TABLES = {"guilds", "server_cards", "games", "seats", "actions", "clocks", "results",
          "result_seats", "game_statuses", "clock_kinds", "finish_reasons"}


def snapshot(path: Path) -> tuple[int, int, list[str]]:
    """Everything about a database file that matters: version, owner, schema and data."""
    conn = sqlite3.connect(path)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        return version, app_id, list(conn.iterdump())
    finally:
        conn.close()


def set_pragma(path: Path, pragma: str) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute(f"PRAGMA {pragma}")
        conn.commit()
    finally:
        conn.close()


def broken(version: int, sql: str) -> list[Migration]:
    return [*shipped_migrations(), Migration(version, "broken", sql)]


def test_shipped_migrations_are_found_as_package_data() -> None:
    migrations = shipped_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "games"
    assert "CREATE TABLE games" in migrations[0].sql


async def test_migrates_an_empty_file(db_path: Path) -> None:
    async with Database(db_path) as db:
        assert db.schema_version == len(shipped_migrations())
    version, app_id, _ = snapshot(db_path)
    assert version == len(shipped_migrations())
    assert app_id == APPLICATION_ID
    conn = sqlite3.connect(db_path)
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert names >= TABLES
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_connection_settings(sqlite_db: Database) -> None:
    expected = {"foreign_keys": 1, "busy_timeout": 5000, "journal_mode": "wal",
                "synchronous": 1}
    async with sqlite_db.read() as tx:
        found = {name: (await tx.fetchall(f"PRAGMA {name}"))[0][0] for name in expected}
    assert found == expected


async def test_reopening_is_idempotent(db_path: Path) -> None:
    async with Database(db_path, clock=FakeClock()) as db:
        game = await new_game(db)
        await db.actions.append_action(game.id, 0, "one", 1000)
    before = snapshot(db_path)
    for _ in range(3):
        async with Database(db_path) as db:
            assert [a.text for a in await db.actions.actions(game.id)] == ["one"]
    assert snapshot(db_path) == before


@pytest.mark.parametrize("sql", [
    # fails on a later statement, after earlier ones changed schema and data
    "CREATE TABLE leagues (id INTEGER PRIMARY KEY);\n"
    "INSERT INTO guilds (id, created_at, updated_at) VALUES (9, 0, 0);\n"
    "UPDATE games SET hints = 0;\n"
    "ALTER TABLE games ADD COLUMN league_id INTEGER;\n"
    "SELECT * FROM no_such_table;",
    # breaks a foreign key (caught by the foreign_key_check before commit)
    "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at) "
    "VALUES (999, 0, 'ghost', NULL, 0);",
    # a syntax error in the middle
    "CREATE TABLE fine (x INTEGER);\nCREATE TABL oops (y);",
])
async def test_a_failing_migration_leaves_the_file_as_it_was(db_path: Path, sql: str) -> None:
    async with Database(db_path, clock=FakeClock()) as db:
        game = await new_game(db)
        await db.actions.append_action(game.id, 0, "one", 1000)
    before = snapshot(db_path)
    with pytest.raises(MigrationFailed) as caught:
        await Database.open(db_path, migrations=broken(len(shipped_migrations()) + 1, sql))
    assert caught.value.version == len(shipped_migrations()) + 1
    assert snapshot(db_path) == before
    async with Database(db_path) as db:  # the good code still opens it
        assert [a.text for a in await db.actions.actions(game.id)] == ["one"]


async def test_a_failing_first_migration_leaves_an_empty_file_empty(db_path: Path) -> None:
    with pytest.raises(MigrationFailed):
        await Database.open(db_path, migrations=[
            Migration(1, "broken", "CREATE TABLE a (x INTEGER); INSERT INTO nowhere VALUES (1);"),
        ])
    assert snapshot(db_path) == (0, 0, ["BEGIN TRANSACTION;", "COMMIT;"])


async def test_migrations_before_the_failing_one_stay_applied(db_path: Path) -> None:
    migrations = [*shipped_migrations()]
    good = Migration(len(migrations) + 1, "good", "CREATE TABLE seasons (id INTEGER PRIMARY KEY);")
    bad = Migration(len(migrations) + 2, "bad", "CREATE TABLE x (y); SELECT nope();")
    with pytest.raises(MigrationFailed):
        await Database.open(db_path, migrations=[*migrations, good, bad])
    version, _, dump = snapshot(db_path)
    assert version == good.version
    assert any("seasons" in line for line in dump)
    assert not any('"x"' in line or "TABLE x" in line for line in dump)


async def test_a_newer_database_is_refused(db_path: Path) -> None:
    async with Database(db_path):
        pass
    set_pragma(db_path, "user_version = 99")
    threads = set(threading.enumerate())
    with pytest.raises(SchemaTooNew) as caught:
        await Database.open(db_path)
    assert caught.value.found == 99
    assert caught.value.known == len(shipped_migrations())
    assert "Upgrade Jongg" in caught.value.message
    await asyncio.sleep(0.05)
    assert not set(threading.enumerate()) - threads  # the refused connection was closed


async def test_another_programs_database_is_refused(db_path: Path) -> None:
    set_pragma(db_path, "application_id = 1234")
    with pytest.raises(NotAJonggDatabase):
        await Database.open(db_path)


async def test_two_processes_opening_a_new_file_at_once(db_path: Path) -> None:
    first, second = await asyncio.gather(Database.open(db_path), Database.open(db_path))
    try:
        assert first.schema_version == second.schema_version == len(shipped_migrations())
    finally:
        await first.close()
        await second.close()


async def test_opening_waits_for_a_writer_of_a_new_file(db_path: Path) -> None:
    # Another process writes the file, not yet in WAL mode: switching to WAL then answers
    # "database is locked" at once, without the busy timeout (what made two processes
    # opening a new file at once fail now and then); opening tries again until it is free.
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("CREATE TABLE other_program_was_here (x)")
        other.execute("BEGIN IMMEDIATE")
        opening = asyncio.create_task(Database.open(db_path))
        await asyncio.sleep(0.2)
        assert not opening.done()
        other.execute("COMMIT")
    finally:
        other.close()
    db = await opening
    await db.close()


def test_statements_are_split_where_sqlite_says_they_end() -> None:
    script = """
        -- a comment; with a semicolon
        CREATE TABLE t (x TEXT DEFAULT ';');
        CREATE TRIGGER tr BEFORE INSERT ON t BEGIN
            SELECT RAISE(ABORT, 'no; never');
        END;
        INSERT INTO t VALUES ('a;b'); INSERT INTO t VALUES ('c')
    """
    statements = split_statements(script)
    assert len(statements) == 4
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    assert statements[3] == "INSERT INTO t VALUES ('c')"


def test_migration_numbers_must_not_skip() -> None:
    with pytest.raises(ValueError, match="no gaps"):
        check_sequence([Migration(1, "a", ""), Migration(3, "c", "")])
    with pytest.raises(ValueError, match="no gaps"):
        check_sequence([Migration(1, "a", ""), Migration(1, "b", "")])


# -- on both databases -------------------------------------------------------------------------


async def stored_state(target: str, migrations: Sequence[Migration] | None = None
                       ) -> tuple[list[tuple[Any, ...]], set[str], int]:
    """What a migration must leave alone when it fails: the recorded migrations, the tables
    and the data (here, the servers). Opened with `migrations` (default: the shipped ones),
    which must have nothing left to apply."""
    async with Database(target, migrations=migrations) as db, db.read() as tx:
        recorded = [tuple(row) for row in await tx.fetchall(
            "SELECT version, name, checksum, applied_at FROM schema_migrations "
            "ORDER BY version")]
        tables = {shape.name for shape in await tx.tables()}
        row = await tx.fetchone("SELECT count(*) AS n FROM guilds")
    assert row is not None
    return recorded, tables, int(row["n"])


async def test_a_failing_step_rolls_back_on_either_database(db_target: str) -> None:
    async with Database(db_target, clock=FakeClock()) as db:
        await new_game(db)
    before = await stored_state(db_target)
    latest = len(shipped_migrations())
    good = Migration(latest + 1, "good", "CREATE TABLE good_step (x INTEGER);")
    bad = Migration(latest + 2, "bad",
                    "CREATE TABLE half_done (x INTEGER);\n"
                    "INSERT INTO guilds (id, created_at, updated_at) VALUES (9, 0, 0);\n"
                    "SELECT * FROM no_such_table;")
    with pytest.raises(MigrationFailed) as caught:
        await Database.open(db_target, migrations=[*shipped_migrations(), good, bad])
    assert caught.value.version == bad.version
    recorded, tables, guilds = await stored_state(db_target, [*shipped_migrations(), good])
    # The step before the failing one stays applied; nothing of the failing one does.
    assert [r[0] for r in recorded] == [r[0] for r in before[0]] + [good.version]
    assert recorded[:-1] == before[0]
    assert tables == before[1] | {"good_step"}
    assert guilds == before[2]


def edited(migrations: Sequence[Migration], version: int) -> list[Migration]:
    """The migrations with step `version`'s text changed (a comment added)."""
    return [replace(m, sql=m.sql + "\n-- edited",
                    postgresql=None if m.postgresql is None else m.postgresql + "\n-- edited")
            if m.version == version else m for m in migrations]


async def test_a_changed_migration_is_refused(db_target: str) -> None:
    async with Database(db_target):
        pass
    before = await stored_state(db_target)
    with pytest.raises(MigrationChanged) as caught:
        await Database.open(db_target, migrations=edited(shipped_migrations(), 4))
    assert caught.value.version == 4
    assert "different text than this Jongg ships" in caught.value.message
    assert await stored_state(db_target) == before


async def mark_newer(target: str, version: int) -> None:
    """Make the database look migrated by a newer Jongg (step `version` recorded)."""
    if target.startswith("postgresql://"):
        conn = await asyncpg.connect(target)
        try:
            await conn.execute("INSERT INTO schema_migrations (version, name, checksum, "
                               "applied_at) VALUES ($1, 'future', NULL, 0)", version)
        finally:
            await conn.close()
        return
    conn = sqlite3.connect(target)
    try:
        conn.execute("INSERT INTO schema_migrations (version, name, checksum, applied_at) "
                     "VALUES (?, 'future', NULL, 0)", (version,))
        conn.execute(f"PRAGMA user_version = {version:d}")
        conn.commit()
    finally:
        conn.close()


async def test_a_database_newer_than_the_code_is_refused(db_target: str) -> None:
    async with Database(db_target):
        pass
    latest = len(shipped_migrations())
    await mark_newer(db_target, latest + 1)
    with pytest.raises(SchemaTooNew) as caught:
        await Database.open(db_target)
    assert (caught.value.found, caught.value.known) == (latest + 1, latest)
    assert "Upgrade Jongg" in caught.value.message


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_target(request: pytest.FixtureRequest, db_path: Path) -> str:
    """An empty database, never migrated: a new SQLite file, or an empty PostgreSQL one."""
    if request.param == "sqlite":
        return str(db_path)
    return str(request.getfixturevalue("pg_empty_url"))


async def test_processes_migrating_one_empty_database_at_once(empty_target: str) -> None:
    # Each Database is a process of its own as far as the database can tell (connections of
    # their own); on PostgreSQL the migration lock makes them take turns, each step once.
    opened = await asyncio.gather(*(Database.open(empty_target) for _ in range(4)),
                                  return_exceptions=True)
    try:
        failures = [o for o in opened if not isinstance(o, Database)]
        assert not failures
        latest = len(shipped_migrations())
        assert {o.schema_version for o in opened if isinstance(o, Database)} == {latest}
    finally:
        for database in opened:
            if isinstance(database, Database):
                await database.close()
    recorded, _, _ = await stored_state(empty_target)
    assert [r[0] for r in recorded] == list(range(1, latest + 1))
    assert [r[2] for r in recorded] == [m.checksum for m in shipped_migrations()]
