"""The bot's database: its backend, migrations, transactions, and the typed API.

The typed API (`db.games`, `db.actions`, …) is the same whichever database holds the data;
the backend (`backend.py`) is chosen by the target: a file path is SQLite (the default, one
process), a `postgresql://` URL is a PostgreSQL server (several processes). Each command is
one transaction: `transaction()` hands out a `Tx` for a write, `read()` one for a consistent
snapshot, and both roll back if anything raises inside. Transactions do not nest.

An open connection keeps the process alive (aiosqlite's thread, asyncpg's sockets), so
`Database` is an async context manager and `close()` is safe to call any number of times.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Self

from bot.store.actions import Actions
from bot.store.backend import Backend, database_target, open_backend
from bot.store.budgets import RequestBudgets
from bot.store.cards import ServerCards
from bot.store.clocks import Clocks
from bot.store.errors import DatabaseUnavailable, StoreClosed, StoreError
from bot.store.games import Games
from bot.store.guilds import Guilds
from bot.store.league_games import LeagueGames
from bot.store.league_rounds import LeagueRounds
from bot.store.league_stats import LeagueStats
from bot.store.leagues import Leagues
from bot.store.migrate import Migration, shipped_migrations
from bot.store.outbox import Outbox
from bot.store.players import Players
from bot.store.seats import Seats
from bot.store.series import SeriesStore
from bot.store.tx import Tx
from bot.store.vacations import Vacations


class Database:
    """The bot's database: connection, migrations, transactions, and the typed API.

        async with Database(target) as db:    # a file path, or a postgresql:// URL
            game = await db.games.create_game(...)
            seq = await db.actions.append_action(game.id, 0, "…", actor=123)

    The API lives in topic objects: `games` (games and results), `seats`, `actions` (the
    action log), `clocks`, `outbox` (the messages games owe), `cards` (server cards) and
    `guilds` (server settings), `players` (each person's own options), `vacations`
    (players away from a league season), `series` (games a table plays in a row, and
    bettors); leagues
    have `leagues` (leagues, seasons, players, audit log), `league_games` (recorded games,
    corrections, ratings), `league_stats` (standings, stats, exports) and `league_rounds`;
    `budgets` holds the Discord request budgets the bot's processes share.
    """

    def __init__(self, target: str | os.PathLike[str] | None = None, *,
                 migrations: Sequence[Migration] | None = None,
                 clock: Callable[[], float] = time.time, owner: str | None = None) -> None:
        #: The database: a file path or a `postgresql://` URL (None: `database_target()`).
        self.path = database_target(target)
        self._migrations = migrations
        self._clock = clock
        self._backend: Backend = open_backend(self.path)
        self._connected = False
        #: Who this is among the processes that share the database (clock and outbox
        #: claims name it): `owner` if given, else host, process id and a random part, new
        #: at every start. A bot process names the shards it runs, so the process started
        #: in its place after a crash takes its claims back at once instead of waiting for
        #: their leases to lapse.
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        #: Tasks inside a transaction (they must not begin another).
        self._in_transaction: set[asyncio.Task[Any]] = set()
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
        self.budgets = RequestBudgets(self)

    @classmethod
    async def open(cls, target: str | os.PathLike[str] | None = None, *,
                   migrations: Sequence[Migration] | None = None,
                   clock: Callable[[], float] = time.time,
                   owner: str | None = None) -> Database:
        """Open (creating if needed) and migrate the database at `target`."""
        return await cls(target, migrations=migrations, clock=clock, owner=owner).connect()

    async def connect(self) -> Self:
        """Connect and apply missing migrations. On any failure nothing is left open before
        the error propagates."""
        if self._connected:
            return self
        migrations = shipped_migrations() if self._migrations is None else self._migrations
        self.schema_version = await self._backend.connect(migrations)
        self._connected = True
        return self

    @property
    def backend(self) -> str:
        """Which database holds the data: "sqlite" or "postgresql"."""
        return self._backend.name

    @property
    def shared(self) -> bool:
        """Whether other processes may use the database at the same time: a PostgreSQL
        server may serve several bot processes; a SQLite file serves one."""
        return self._backend.name == "postgresql"

    async def close(self) -> None:
        """Close the connection, once the appends asked for are written and this process's
        clock and outbox claims are given up. Safe to call twice, or on a database never
        connected. The connection is closed however that wait ends (a Ctrl-C, a
        cancellation): SQLite's is served by a thread that would keep the process alive."""
        try:
            await self.actions.wait_written()
            if self.is_open:
                # What this process claimed is free for the others (or its next start) at
                # once, instead of when the leases lapse; with the database out of reach, the
                # leases lapse on their own and the connections are closed all the same.
                with contextlib.suppress(DatabaseUnavailable):
                    await self.clocks.release_claims()
                    await self.outbox.release_claims()
        finally:
            self._connected = False
            await self._backend.close()

    async def __aenter__(self) -> Self:
        return await self.connect()

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.close()

    @property
    def is_open(self) -> bool:
        """Whether the connection is open."""
        return self._connected and self._backend.is_open

    def now(self) -> float:
        """The current time as the store records it (UTC epoch seconds)."""
        return self._clock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One write transaction: the block, then `COMMIT`; rolled back if the block raises.
        Do not await anything slow (Discord, rendering) inside: other database users wait
        for it. Transactions do not nest."""
        async with self._session(writable=True) as tx:
            yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A read-only snapshot: every query in the block sees the same committed state."""
        async with self._session(writable=False) as tx:
            yield tx

    @asynccontextmanager
    async def _session(self, *, writable: bool) -> AsyncIterator[Tx]:
        """A backend transaction for this task, handed out as a `Tx` that dies with it."""
        task = asyncio.current_task()
        if task is not None and task in self._in_transaction:
            raise StoreError("Database transactions do not nest; finish the first one.")
        if not self._connected:
            raise StoreClosed(f"The database {self._backend.shown} is closed.")
        if task is not None:
            self._in_transaction.add(task)
        try:
            async with self._backend.session(writable=writable) as conn:
                tx = Tx(conn, writable=writable)
                try:
                    yield tx
                finally:
                    tx.close()
        finally:
            if task is not None:
                self._in_transaction.discard(task)

    async def settle(self) -> None:
        """After bulk writes, let the database catch up with them as it would in time
        (PostgreSQL: VACUUM ANALYZE; SQLite: nothing), so what is measured next is what a
        long-running bot sees (see `Backend.settle`)."""
        if not self._connected:
            raise StoreClosed(f"The database {self._backend.shown} is closed.")
        await self._backend.settle()

    @asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold game `game_id` for the block, in every process that shares the database: a
        PostgreSQL advisory lock there, an in-process lock on SQLite (a file serves one
        process). Moves of a game are made under it, so they are applied one at a time and
        in order whichever process a click reaches."""
        if not self._connected:
            raise StoreClosed(f"The database {self._backend.shown} is closed.")
        async with self._backend.game_lock(game_id):
            yield
