"""Numbered schema migrations: finding them, and applying the ones a database lacks.

Migrations are SQL files shipped inside the package and read with importlib.resources, so
they are found from a checkout and from an installed wheel alike. Their names:

* `migrations/NNNN_name.sql`: one script, portable, run on both databases;
* `migrations/NNNN_name.sqlite.sql` and `migrations/NNNN_name.postgresql.sql`: the same step
  written for each database, where the SQL is not portable (types, triggers, STRICT
  tables). A number has either the one file or both of these.

A migration's checksum (`Migration.checksum`) covers every file of its number (the portable
one, or the SQLite one and then the PostgreSQL one), so it is the same on both databases: a
step is one step of the schema whichever database it ran on, and a change to either text is
a change to the step. Each database records the checksum of every migration it applies
(`schema_migrations`) and refuses to open with code whose recorded migrations differ
(`MigrationChanged`). Files migrated before checksums were recorded have no row for those
steps, and upgrade exactly as before.

On SQLite the schema version is `PRAGMA user_version`: migration N sets it to N in the same
transaction as its statements, so a migration either happens completely or not at all. Each
migration runs in its own `BEGIN IMMEDIATE` transaction with foreign keys off (SQLite's
recommended way to change tables) and ends with `PRAGMA foreign_key_check`; any failure rolls
back to the state before that migration. The version is read again inside the transaction, so
two processes opening the same new file at once do not both apply the same migration. (The
PostgreSQL runner is in `pg_backend.py`.)
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from bot.store.errors import (
    MigrationChanged,
    MigrationFailed,
    NotAJonggDatabase,
    SchemaTooNew,
)

#: Marks the file as a Jongg database (`PRAGMA application_id`); "Jngg" in ASCII.
APPLICATION_ID = 0x4A6E6767

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)(?:\.(sqlite|postgresql))?\.sql$")

#: The table where each database records the migrations it applied.
RECORD_TABLE = "schema_migrations"


@dataclass(frozen=True)
class Migration:
    """One schema step: its version number (1, 2, …), a short name and its SQL: `sql` is
    the portable script, or SQLite's when `postgresql` holds PostgreSQL's own."""

    version: int
    name: str
    sql: str
    postgresql: str | None = None

    def script(self, backend: str) -> str:
        """The SQL to run on `backend` ("sqlite" or "postgresql")."""
        if backend == "postgresql" and self.postgresql is not None:
            return self.postgresql
        return self.sql

    @property
    def checksum(self) -> str:
        """SHA-256 of every text of the step (see the module's docstring), in hex."""
        digest = hashlib.sha256(self.sql.encode("utf-8"))
        if self.postgresql is not None:
            digest.update(b"\0" + self.postgresql.encode("utf-8"))
        return digest.hexdigest()


def shipped_migrations() -> tuple[Migration, ...]:
    """The migrations that ship with this version of the bot, in order."""
    folder = resources.files("bot.store").joinpath("migrations")
    texts: dict[tuple[int, str], dict[str | None, str]] = {}
    for entry in folder.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            key = (int(match.group(1)), match.group(2))
            texts.setdefault(key, {})[match.group(3)] = entry.read_text(encoding="utf-8")
    found = []
    for (version, name), variants in texts.items():
        if set(variants) not in ({None}, {"sqlite", "postgresql"}):
            raise ValueError(f"migration {version:04d}_{name} needs either one portable "
                             "file or both a .sqlite.sql and a .postgresql.sql file")
        portable = variants.get(None)
        if portable is not None:
            found.append(Migration(version, name, portable))
        else:
            found.append(Migration(version, name, variants["sqlite"], variants["postgresql"]))
    return check_sequence(found)


def check_recorded(recorded: Iterable[tuple[int, str, str | None]],
                   migrations: Sequence[Migration], target: str) -> None:
    """Refuse a database whose recorded migrations (version, name, checksum) are not the
    ones in `migrations` (`MigrationChanged`); a step recorded without a checksum, or newer
    than the code (refused elsewhere as `SchemaTooNew`), is not compared."""
    known = {m.version: m for m in migrations}
    for version, name, checksum in recorded:
        migration = known.get(version)
        if migration is not None and checksum is not None and checksum != migration.checksum:
            raise MigrationChanged(target, version, name)


def check_sequence(migrations: Iterable[Migration]) -> tuple[Migration, ...]:
    """The migrations sorted by version, refusing gaps or repeats (they would leave some
    databases without a step)."""
    ordered = tuple(sorted(migrations, key=lambda m: m.version))
    versions = [m.version for m in ordered]
    if versions != list(range(1, len(ordered) + 1)):
        raise ValueError(f"migrations must be numbered 1, 2, 3, … with no gaps; got {versions}")
    return ordered


def split_statements(script: str) -> list[str]:
    """The statements of an SQL script, one string each.

    `executescript` cannot be used inside our own transaction (it commits first), so the
    script is cut at the semicolons where SQLite itself says a statement is complete; that
    keeps semicolons inside strings, comments and trigger bodies in their statement.
    """
    statements: list[str] = []
    pending = ""
    pieces = script.split(";")
    for index, piece in enumerate(pieces):
        pending += piece if index == len(pieces) - 1 else piece + ";"
        if sqlite3.complete_statement(pending):
            if _has_code(pending):
                statements.append(pending.strip())
            pending = ""
    if _has_code(pending):
        statements.append(pending.strip())
    return statements


def _has_code(sql: str) -> bool:
    """Whether some text is more than whitespace, `--` comments and semicolons."""
    lines = (line.split("--", 1)[0] for line in sql.splitlines())
    return any(line.strip().strip(";").strip() for line in lines)


def check_application_id(app_id: int, path: str) -> None:
    """Refuse an SQLite file that another program marked as its own (`NotAJonggDatabase`);
    0 is a file nobody marked yet."""
    if app_id not in (0, APPLICATION_ID):
        raise NotAJonggDatabase(
            f"{path} is an SQLite database of some other program (application id "
            f"{app_id:#x}). Give Jongg its own database file."
        )


async def _pragma_int(conn: aiosqlite.Connection, name: str) -> int:
    rows = list(await conn.execute_fetchall(f"PRAGMA {name}"))
    return int(rows[0][0])


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The schema version stored in the file (0 for a new file)."""
    return await _pragma_int(conn, "user_version")


async def apply_migrations(conn: aiosqlite.Connection, migrations: Sequence[Migration],
                           path: str) -> int:
    """Bring the database up to the last of `migrations` and return its schema version.

    Refuses a file whose version is newer than the code (`SchemaTooNew`) or that another
    program owns (`NotAJonggDatabase`). Applying to an up-to-date database changes nothing.
    The connection must be in autocommit mode (`isolation_level=None`) with no open
    transaction.
    """
    ordered = check_sequence(migrations)
    latest = ordered[-1].version if ordered else 0
    check_application_id(await _pragma_int(conn, "application_id"), path)
    current = await schema_version(conn)
    if current > latest:
        raise SchemaTooNew(path, current, latest)
    recorded = list(await conn.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", (RECORD_TABLE,)))
    if recorded:
        rows = await conn.execute_fetchall(
            f"SELECT version, name, checksum FROM {RECORD_TABLE}")
        check_recorded([(int(r[0]), str(r[1]), r[2]) for r in rows], ordered, path)
    pending = [m for m in ordered if m.version > current]
    if not pending:
        return current

    await conn.execute("PRAGMA foreign_keys = OFF")
    try:
        for migration in pending:
            await _apply_one(conn, migration)
    finally:
        await conn.execute("PRAGMA foreign_keys = ON")
    return await schema_version(conn)


async def _apply_one(conn: aiosqlite.Connection, migration: Migration) -> None:
    """Apply one migration in its own transaction, or leave the file as it was."""
    try:
        await conn.execute("BEGIN IMMEDIATE")
        current = await schema_version(conn)
        if current >= migration.version:  # another process got there first
            await conn.rollback()
            return
        for statement in split_statements(migration.sql):
            await conn.execute(statement)
        problems = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
        if problems:
            table, rowid, parent, _ = problems[0]
            raise MigrationFailed(
                migration.version, migration.name,
                f"{len(problems)} rows break foreign keys (first: {table} row {rowid} "
                f"points at a missing {parent})",
            )
        await conn.execute(
            f"CREATE TABLE IF NOT EXISTS {RECORD_TABLE} (version INTEGER PRIMARY KEY, "
            "name TEXT NOT NULL, checksum TEXT, applied_at REAL NOT NULL) STRICT")
        await conn.execute(
            f"INSERT INTO {RECORD_TABLE} (version, name, checksum, applied_at) "
            "VALUES (?, ?, ?, ?)",
            (migration.version, migration.name, migration.checksum, time.time()))
        await conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        await conn.execute(f"PRAGMA user_version = {migration.version:d}")
        await conn.commit()
    except BaseException as error:
        await conn.rollback()
        if isinstance(error, MigrationFailed) or not isinstance(error, Exception):
            raise
        raise MigrationFailed(migration.version, migration.name, str(error)) from error
