"""What a database backend does for the store, and which one a target names.

The topic modules (games, actions, leagues, …) write their SQL once, as for SQLite, and run
it through a `Tx`. A backend owns everything that differs between databases: connecting,
BEGIN/COMMIT, placeholders, row ids, its errors (mapped to the store's own), migrations and
the per-game lock. Two exist: SQLite (the default: a file, one process) and PostgreSQL
(several processes sharing one server), chosen by the database target alone:
`postgresql://…` (or `postgres://…`) is a PostgreSQL server, anything else a file path.
"""

from __future__ import annotations

import asyncio
import os
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot.store.errors import BadTarget

if TYPE_CHECKING:
    from bot.store.migrate import Migration
    from bot.store.tx import Conn

#: Where `jongg run` and the tools keep their database when JONGG_DB is not set.
DEFAULT_TARGET = "jongg.sqlite3"

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str) -> bool:
    """Whether a database target names a PostgreSQL server (a `postgresql://` URL)."""
    return target.startswith(_POSTGRES_SCHEMES)


def database_target(value: str | os.PathLike[str] | None = None) -> str:
    """The database the bot uses: `value` if given, else JONGG_DB, else `DEFAULT_TARGET`.
    The one place the choice is made (`jongg run`, the tools and the benchmarks ask here), so
    a malformed one is refused here (`check_target`), before anything connects."""
    named = "The database"
    if value is None:
        named = "JONGG_DB"
        value = os.environ.get("JONGG_DB", "").strip() or DEFAULT_TARGET
    target = os.fspath(value)
    check_target(target, named)
    if not is_postgres(target):
        check_file_target(target, named)
    return target


def check_file_target(target: str, named: str) -> None:
    """Refuse (`BadTarget`) an SQLite path that can never hold the database, before anything
    connects (for `jongg run`, before it logs in to Discord): a folder, something that is not
    a regular file (a device such as /dev/zero, a pipe), or a file in a folder that does not
    exist. A file that exists but can't be opened is still found when it is opened."""
    path = Path(target)
    if path.is_dir():
        raise BadTarget(f"{named} {target} is a folder. Name a database file, like "
                        f"{path / DEFAULT_TARGET}.")
    if path.exists() and not path.is_file():
        raise BadTarget(f"{named} {target} is not a regular file (a device or a pipe). Name "
                        f"a database file, like {DEFAULT_TARGET}.")
    if not path.parent.is_dir():
        raise BadTarget(f"{named} {target} is in {path.parent}, which is not a folder that "
                        "exists. Create the folder first, or name a file in one.")


def check_target(target: str, named: str) -> None:
    """Refuse (`BadTarget`) a target that is neither a file path nor a PostgreSQL URL with a
    valid port and a database; `named` starts the message ("JONGG_DB", "The source")."""
    if is_postgres(target):
        parts = urlsplit(target)
        try:
            parts.port  # noqa: B018 (reading it is the check: a bad port raises)
        except ValueError as error:
            raise BadTarget(f"{named} {shown_target(target)} is not a valid PostgreSQL URL "
                            f"({error}). Write it as postgresql://USER:PASSWORD@HOST:PORT/"
                            "DATABASE.") from error
        if not parts.path.strip("/"):
            raise BadTarget(f"{named} {shown_target(target)} names no database. Write it as "
                            "postgresql://USER:PASSWORD@HOST:PORT/DATABASE.")
    elif "://" in target:
        scheme = target.split("://", 1)[0]
        raise BadTarget(f"{named} {shown_target(target)} is neither a file path nor a "
                        f"postgresql:// URL: Jongg keeps its data in SQLite (a file) or "
                        f"PostgreSQL, not {scheme}.")


def shown_target(target: str) -> str:
    """A target as messages show it: a URL without its password."""
    if "://" not in target or "@" not in target:
        return target
    scheme, rest = target.split("://", 1)
    credentials, host = rest.rsplit("@", 1)
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}@{host}"


@dataclass(frozen=True)
class Found:
    """What a database target holds, looked at before Jongg opens it: its schema version (0:
    empty) and what makes it this database and no other (`identity`: two targets with the
    same identity are one database, whatever paths or URLs name them)."""

    version: int
    identity: str


class Backend(ABC):
    """One database: its connections, transactions, migrations and game locks."""

    #: "sqlite" or "postgresql".
    name: str

    def __init__(self, target: str) -> None:
        self.target = target

    @property
    def shown(self) -> str:
        """The target for messages (no password)."""
        return shown_target(self.target)

    @abstractmethod
    async def connect(self, migrations: Sequence[Migration]) -> int:
        """Connect and apply the migrations the database lacks; returns its schema version.
        Leaves nothing open if it fails."""

    @abstractmethod
    async def look(self) -> Found | None:
        """What the target holds, read without creating, migrating or changing anything;
        None when there is nothing there (an SQLite file that does not exist)."""

    @abstractmethod
    async def close(self) -> None:
        """Close every connection; safe to call twice."""

    @property
    @abstractmethod
    def is_open(self) -> bool:
        """Whether the backend is connected."""

    @abstractmethod
    def session(self, *, writable: bool) -> AbstractAsyncContextManager[Conn]:
        """One transaction (a write, or a read that sees one committed snapshot): committed
        when the block ends, rolled back if it raises or is cancelled."""

    @abstractmethod
    async def settle(self) -> None:
        """After bulk writes (a made-up season, a copied database): bring the database to
        the state one that has lived a while is in, so queries measured on it plan as they
        will in use."""

    @abstractmethod
    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Hold game `game_id` for the length of the block: one move at a time, in every
        process that shares the database."""


def open_backend(target: str) -> Backend:
    """The backend for a database target (see the module's docstring)."""
    if is_postgres(target):
        from bot.store.pg_backend import PostgresBackend

        return PostgresBackend(target)
    from bot.store.sqlite_backend import SqliteBackend

    return SqliteBackend(target)


class GameLocks:
    """One `asyncio.Lock` per game, made when first asked for and dropped when nobody holds
    or waits for it (so a long-running bot keeps no lock per game it ever saw)."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[None]:
        """The block runs while this process holds game `game_id`."""
        lock, users = self._locks.get(game_id, (asyncio.Lock(), 0))
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[game_id]
            if users == 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (lock, users - 1)
