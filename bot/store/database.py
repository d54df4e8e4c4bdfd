"""The one connection to the bot's SQLite file, and how work on it is done.

One aiosqlite connection per process, in WAL mode with foreign keys on and a busy timeout. Each
write is a single `BEGIN IMMEDIATE … COMMIT` transaction: `transaction()` hands out a `Tx`
for it and rolls back if anything raises inside. An `asyncio.Lock` lets one transaction run at
a time, because every task shares the connection: without the lock a second task's statements
would land inside the first task's transaction.

Reads take the same lock (in a plain `BEGIN … COMMIT`, which gives them one consistent
snapshot). That is deliberate: a read interleaved with an open write transaction on the same
connection would see its uncommitted rows, and the bot must only announce what is committed.
Transactions are a few statements long, so readers wait microseconds.

The connection's worker thread keeps the process alive until it is closed, so `Database` is an
async context manager and `close()` is safe to call any number of times.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Self

import aiosqlite

from bot.store.actions import Actions, Clocks
from bot.store.cards import ServerCards
from bot.store.errors import StoreClosed, StoreError
from bot.store.games import Games
from bot.store.guilds import Guilds
from bot.store.league_games import LeagueGames
from bot.store.league_rounds import LeagueRounds
from bot.store.league_stats import LeagueStats
from bot.store.leagues import Leagues
from bot.store.migrate import Migration, apply_migrations, shipped_migrations
from bot.store.outbox import Outbox
from bot.store.players import Players
from bot.store.seats import Seats
from bot.store.series import SeriesStore
from bot.store.tx import Tx
from bot.store.vacations import Vacations

#: STRICT tables need SQLite 3.37 (2021).
MIN_SQLITE = (3, 37, 0)


class Database:
    """The bot's database: connection, migrations, transactions, and the typed API.

        async with Database(path) as db:
            game = await db.games.create_game(...)
            seq = await db.actions.append_action(game.id, 0, "…", actor=123)

    The API lives in topic objects: `games` (games and results), `seats`, `actions` (the
    action log), `clocks`, `outbox` (the messages games owe), `cards` (server cards) and
    `guilds` (server settings), `players` (each person's own options), `vacations`
    (players away from a league season), `series` (games a table plays in a row, and
    bettors); leagues
    have `leagues` (leagues, seasons, players, audit log), `league_games` (recorded games,
    corrections, ratings), `league_stats` (standings, stats, exports) and `league_rounds`.
    """

    def __init__(self, path: str | os.PathLike[str], *,
                 migrations: Sequence[Migration] | None = None,
                 clock: Callable[[], float] = time.time,
                 busy_timeout_ms: int = 5000) -> None:
        self.path = os.fspath(path)
        self._migrations = migrations
        self._clock = clock
        self._busy_timeout_ms = busy_timeout_ms
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._needs_rollback = False
        self.schema_version = 0
        self.games = Games(self)
        self.seats = Seats(self)
        self.series = SeriesStore(self)
        self.actions = Actions(self)
        self.clocks = Clocks(self)
        self.outbox = Outbox(self)
        self.cards = ServerCards(self)
        self.guilds = Guilds(self)
        self.players = Players(self)
        self.vacations = Vacations(self)
        self.leagues = Leagues(self)
        self.league_games = LeagueGames(self)
        self.league_stats = LeagueStats(self)
        self.league_rounds = LeagueRounds(self)

    @classmethod
    async def open(cls, path: str | os.PathLike[str], *,
                   migrations: Sequence[Migration] | None = None,
                   clock: Callable[[], float] = time.time) -> Database:
        """Open (creating if needed) and migrate the database at `path`."""
        return await cls(path, migrations=migrations, clock=clock).connect()

    async def connect(self) -> Self:
        """Open the connection, set it up and apply missing migrations. On any failure the
        connection is closed again before the error propagates."""
        if self._conn is not None:
            return self
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StoreError(
                f"Jongg needs SQLite {'.'.join(map(str, MIN_SQLITE))} or newer; this Python "
                f"has {sqlite3.sqlite_version}."
            )
        connecting = aiosqlite.connect(self.path, isolation_level=None)
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
            migrations = (shipped_migrations() if self._migrations is None
                          else self._migrations)
            self.schema_version = await apply_migrations(conn, migrations, self.path)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        return self

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
        """Close the connection, once the appends asked for are written. Safe to call twice,
        or on a database never connected."""
        await self.actions.wait_written()
        conn, self._conn = self._conn, None
        if conn is not None:
            async with self._lock:
                await conn.close()

    async def __aenter__(self) -> Self:
        return await self.connect()

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    @property
    def is_open(self) -> bool:
        """Whether the connection is open."""
        return self._conn is not None

    def now(self) -> float:
        """The current time as the store records it (UTC epoch seconds)."""
        return self._clock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One write transaction: `BEGIN IMMEDIATE`, the block, `COMMIT`; rolled back if the
        block raises. Do not await anything slow (Discord, rendering) inside: every other
        database user waits for it. Transactions do not nest."""
        async with self._exclusive() as conn, self._handle(conn, "BEGIN IMMEDIATE") as tx:
            yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A read-only snapshot: every query in the block sees the same committed state."""
        async with self._exclusive() as conn, self._handle(conn, "BEGIN") as tx:
            yield tx

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, for this task alone until the block ends."""
        task = asyncio.current_task()
        if task is not None and task is self._owner:
            raise StoreError("Database transactions do not nest; finish the first one.")
        async with self._lock:
            conn = self._conn
            if conn is None:
                raise StoreClosed(f"The database {self.path} is closed.")
            if self._needs_rollback:  # an earlier rollback was cancelled part way
                await conn.rollback()
                self._needs_rollback = False
            self._owner = task
            try:
                yield conn
            finally:
                self._owner = None

    @asynccontextmanager
    async def _handle(self, conn: aiosqlite.Connection, begin: str) -> AsyncIterator[Tx]:
        """Begin a transaction (`BEGIN IMMEDIATE` to write, `BEGIN` to read) and hand out its
        `Tx`; commit after the block, roll back if anything raises — including a cancellation
        that lands while BEGIN itself is still running."""
        tx = Tx(conn, writable=begin != "BEGIN")
        try:
            await conn.execute(begin)
            yield tx
            await conn.commit()
        except BaseException:
            self._needs_rollback = True
            await conn.rollback()
            self._needs_rollback = False
            raise
        finally:
            tx.close()
