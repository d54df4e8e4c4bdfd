"""The SQLite backend: one aiosqlite connection to the bot's file, for one process.

One connection per process, in WAL mode with foreign keys on and a busy timeout. Each write
is a single `BEGIN IMMEDIATE … COMMIT` transaction, which also makes writers of other
processes wait (SQLite's write lock): that is what keeps an append's `(game, seq)` check and
a clock's claim true across processes. An `asyncio.Lock` lets one transaction run at a time,
because every task shares the connection: without the lock a second task's statements would
land inside the first task's transaction.

Reads take the same lock (in a plain `BEGIN … COMMIT`, which gives them one consistent
snapshot). That is deliberate: a read interleaved with an open write transaction on the same
connection would see its uncommitted rows, and the bot must only announce what is committed.
Transactions are a few statements long, so readers wait microseconds.

The connection's worker thread keeps the process alive until it is closed, so `close()` must
be called (the `Database` does it) and is safe to call any number of times.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
import urllib.parse
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager

import aiosqlite

from bot.store.backend import Backend, Found, GameLocks
from bot.store.errors import (
    ConstraintViolation,
    DatabaseUnavailable,
    NotAJonggDatabase,
    StoreClosed,
    StoreError,
)
from bot.store.migrate import Migration, apply_migrations, check_application_id
from bot.store.tx import Conn, Params, Reference, Row, TableShape

#: STRICT tables need SQLite 3.37 (2021).
MIN_SQLITE = (3, 37, 0)


class SqliteConn:
    """`Conn` for the one aiosqlite connection (statements are SQLite's own)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params) -> int:
        with _mapped():
            async with self._conn.execute(sql, params) as cursor:
                return cursor.rowcount

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        with _mapped():
            await self._conn.executemany(sql, rows)

    async def insert(self, sql: str, params: Params) -> int:
        with _mapped():
            row = await self._conn.execute_insert(sql, params)
        if row is None:
            raise StoreError("The insert did not report a row id.")
        return int(row[0])

    async def fetchall(self, sql: str, params: Params) -> list[Row]:
        with _mapped():
            return list(await self._conn.execute_fetchall(sql, params))

    async def reserve_ids(self, table: str, count: int) -> list[int]:
        # AUTOINCREMENT's counter; inserting the rows with these ids moves it on.
        rows = await self.fetchall("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
        first = (int(rows[0]["seq"]) if rows else 0) + 1
        return list(range(first, first + count))

    async def lock_games(self, game_ids: Sequence[int]) -> None:
        """Nothing to do: `BEGIN IMMEDIATE` already holds the whole file's write lock."""

    async def tables(self) -> list[TableShape]:
        names = await self.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite^_%' "
            "ESCAPE '^' ORDER BY name", ())
        shapes = []
        for (name,) in names:
            columns = await self.fetchall(
                'SELECT name, "notnull", pk FROM pragma_table_info(?) ORDER BY cid', (name,))
            keys = await self.fetchall(
                'SELECT id, "table", "from" FROM pragma_foreign_key_list(?) ORDER BY id, seq',
                (name,))
            grouped: dict[int, tuple[str, list[str]]] = {}
            for key_id, parent, column in keys:
                grouped.setdefault(int(key_id), (str(parent), []))[1].append(str(column))
            shapes.append(TableShape(
                name=str(name), columns=tuple(str(c["name"]) for c in columns),
                nullable=frozenset(str(c["name"]) for c in columns
                                   if not c["notnull"] and not c["pk"]),
                key=tuple(str(c["name"]) for c in sorted(columns, key=lambda c: int(c["pk"]))
                          if c["pk"]),
                references=tuple(Reference(parent, tuple(cols))
                                 for parent, cols in grouped.values())))
        return shapes

    async def _autoincrement(self, table: str) -> bool:
        """Whether `table` numbers its ids with AUTOINCREMENT (an id is never handed out
        twice; other tables take the largest id plus one)."""
        rows = await self.fetchall(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
        return bool(rows) and "AUTOINCREMENT" in str(rows[0]["sql"]).upper()

    async def id_counter(self, table: str) -> int | None:
        if not await self._autoincrement(table):
            return None
        rows = await self.fetchall("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
        return int(rows[0]["seq"]) if rows else 0

    async def set_id_counter(self, table: str, last: int) -> None:
        if await self._autoincrement(table):
            await self.execute("DELETE FROM sqlite_sequence WHERE name = ?", (table,))
            await self.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)",
                               (table, last))


#: SQLite's result codes (the primary ones, the low byte of an extended code) for a file
#: out of reach: locked by another connection past the busy timeout, unreadable or
#: unwritable (an I/O error), or impossible to open.
_UNREACHABLE = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR,
                          sqlite3.SQLITE_CANTOPEN})


def file_unreachable(error: BaseException) -> bool:
    """Whether `error` says the file can't be used just now (not that a statement was
    wrong): one of `_UNREACHABLE`'s codes."""
    code = getattr(error, "sqlite_errorcode", None)
    return (isinstance(error, sqlite3.OperationalError) and code is not None
            and code & 0xFF in _UNREACHABLE)


@contextmanager
def _mapped() -> Iterator[None]:
    """Turns SQLite's constraint errors into the store's `ConstraintViolation`, and a file
    out of reach (`file_unreachable`) into `DatabaseUnavailable`."""
    try:
        yield
    except sqlite3.IntegrityError as error:
        raise ConstraintViolation(str(error)) from error
    except sqlite3.OperationalError as error:
        if file_unreachable(error):
            raise DatabaseUnavailable(
                f"The database file can't be used just now: {error}") from error
        raise


class SqliteBackend(Backend):
    """The bot's SQLite file (see the module's docstring)."""

    name = "sqlite"

    def __init__(self, target: str, *, busy_timeout_ms: int = 5000) -> None:
        super().__init__(target)
        self._busy_timeout_ms = busy_timeout_ms
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._needs_rollback = False
        self._games = GameLocks()

    async def connect(self, migrations: Sequence[Migration]) -> int:
        """Open the connection, set it up and apply missing migrations. On any failure the
        connection is closed again before the error propagates."""
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StoreError(
                f"Jongg needs SQLite {'.'.join(map(str, MIN_SQLITE))} or newer; this Python "
                f"has {sqlite3.sqlite_version}."
            )
        connecting = aiosqlite.connect(self.target, isolation_level=None)
        try:
            conn = await connecting
        except BaseException:
            # aiosqlite stops its worker thread when the file can't be opened, but does not
            # wait for it; the thread then reports to the event loop, which may be closed by
            # then (a traceback at exit, after `jongg run` said what was wrong). Wait for it.
            await asyncio.to_thread(connecting._thread.join)
            raise
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            await self._enter_wal(conn)
            # WAL with NORMAL sync: a committed move survives the bot process crashing or
            # restarting (it is in the WAL, in the OS's hands); only a power loss or an OS
            # crash can lose the last few commits. That is what a chat bot needs, and it saves
            # an fsync on every one of the several transactions each move makes.
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            version = await apply_migrations(conn, migrations, self.target)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        return version

    async def look(self) -> Found | None:
        """The file's schema version (`PRAGMA user_version`), read through a read-only
        connection so nothing is created or changed; None when there is no such file."""
        return await asyncio.to_thread(self._look)

    def _look(self) -> Found | None:
        try:
            stat = os.stat(self.target)
        except FileNotFoundError:
            return None
        uri = f"file:{urllib.parse.quote(os.path.abspath(self.target))}?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True)
            try:
                app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            finally:
                conn.close()
        except sqlite3.DatabaseError as error:
            if file_unreachable(error):  # locked by another program, not another kind of file
                raise DatabaseUnavailable(
                    f"The database {self.target} can't be used just now ({error}): another "
                    "program holds it. Try again once it is done.") from error
            raise NotAJonggDatabase(
                f"{self.target} is not an SQLite database Jongg can read ({error}).") from error
        check_application_id(app_id, self.target)
        return Found(version, f"sqlite:{stat.st_dev}:{stat.st_ino}")

    async def _enter_wal(self, conn: aiosqlite.Connection) -> None:
        """Switch the file to WAL mode. Switching takes an exclusive lock for which SQLite
        does not call the busy handler, so when another process opens the same new file at
        the same moment this answers "database is locked" at once, whatever the busy timeout:
        try again, within that timeout."""
        deadline = time.monotonic() + self._busy_timeout_ms / 1000
        while True:
            try:
                await conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            async with self._lock:
                await conn.close()

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    @asynccontextmanager
    async def _session(self, writable: bool) -> AsyncIterator[Conn]:
        async with self._lock:
            conn = self._conn
            if conn is None:
                raise StoreClosed(f"The database {self.shown} is closed.")
            if self._needs_rollback:  # an earlier rollback was cancelled part way
                with _mapped():
                    await conn.rollback()
                self._needs_rollback = False
            # Commit after the block, roll back if anything raises — including a
            # cancellation that lands while BEGIN itself is still running. A rollback that
            # fails too (the file is out of reach) is tried again by the next transaction.
            with _mapped():
                try:
                    await conn.execute("BEGIN IMMEDIATE" if writable else "BEGIN")
                    yield SqliteConn(conn)
                    await conn.commit()
                except BaseException:
                    self._needs_rollback = True
                    await conn.rollback()
                    self._needs_rollback = False
                    raise

    def session(self, *, writable: bool) -> AbstractAsyncContextManager[Conn]:
        """`BEGIN IMMEDIATE` to write, `BEGIN` to read, on the one connection."""
        return self._session(writable)

    async def settle(self) -> None:
        """Nothing: SQLite keeps no statistics unless told to (ANALYZE), and the bot never
        tells it, so a fresh file plans as a long-used one does."""

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """An in-process lock: an SQLite file serves one bot process."""
        return self._games.hold(game_id)
