"""Where a benchmark keeps its databases: `jongg bench … --database sqlite|postgresql|URL`.

* `sqlite` (the default): files in a temporary folder, removed after the run.
* `postgresql`: a throw-away server started for the run (`bot.store.throwaway`: initdb in a
  temporary folder, a free port on 127.0.0.1, durability off), stopped and removed after.
* a `postgresql://` URL: that server; each database the bench needs is created on it beside
  the URL's database (its user needs the CREATEDB right) and dropped after the run.

A bench asks `Databases.new(name)` for each fresh database it needs (the discord bench, one
per world); every target it gets is empty and migrated by the `Database` that opens it.
`new` runs its own event loop, so it is called between a bench's `asyncio.run`s.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.engine.errors import InvalidInput
from bot.store.backend import is_postgres, shown_target
from bot.store.errors import DatabaseUnavailable
from bot.store.throwaway import (
    INSTALL,
    NOT_FOUND,
    ThrowawayServer,
    create_database,
    drop_database,
    find_binaries,
)

SQLITE, POSTGRESQL = "sqlite", "postgresql"
#: What `--database` takes besides a URL; `both` runs the bench on each backend in turn.
BOTH = "both"
CHOICES = (SQLITE, POSTGRESQL, BOTH)

#: Exit 2's message when `--database postgresql` finds no server binaries.
NO_SERVER = (f"{NOT_FOUND}, so `--database postgresql` can't start a throw-away server. "
             f"Install them ({INSTALL}), or pass the URL of a server you run "
             "(`--database postgresql://USER@HOST/DB`, a user allowed to create databases).")


def check_choice(choice: str) -> str:
    """`choice` if `--database` takes it, else `InvalidInput` saying what it takes."""
    if choice in CHOICES or is_postgres(choice):
        return choice
    raise InvalidInput(f"--database takes sqlite, postgresql, both or a postgresql:// URL; "
                       f"got `{choice}`.")


def backends(choice: str) -> tuple[str, ...]:
    """The runs `choice` stands for: `both` is SQLite then PostgreSQL, anything else itself."""
    return (SQLITE, POSTGRESQL) if choice == BOTH else (choice,)


class Databases(ABC):
    """Fresh databases for one bench run (see the module's docstring)."""

    def __init__(self, backend: str, shown: str) -> None:
        #: "sqlite" or "postgresql".
        self.backend = backend
        #: Where they are, for the bench's info.
        self.shown = shown
        #: The server's main process when it is the bench's own (a throw-away server), so
        #: that its CPU can be read; None otherwise.
        self.server_pid: int | None = None

    @abstractmethod
    def new(self, name: str) -> str:
        """The target of a fresh, empty database (`name` says what it is for)."""


class _Files(Databases):
    def __init__(self, folder: Path) -> None:
        super().__init__(SQLITE, "SQLite: files in a temporary folder")
        self._folder = folder
        self._count = itertools.count(1)

    def new(self, name: str) -> str:
        return str(self._folder / f"{name}-{next(self._count)}.sqlite3")


class _Server(Databases):
    """Databases created on a server through `admin`, a URL of one of its databases."""

    def __init__(self, admin: str, shown: str) -> None:
        super().__init__(POSTGRESQL, shown)
        self._admin = admin
        self._count = itertools.count(1)
        self.made: list[str] = []

    def new(self, name: str) -> str:
        database = f"jongg_bench_{os.getpid()}_{next(self._count)}_{name}"
        try:
            url = asyncio.run(create_database(self._admin, database))
        except DatabaseUnavailable as error:
            raise InvalidInput(f"can't create a database for the bench on "
                               f"{shown_target(self._admin)}: {error}. Check that the server "
                               "runs and that the URL's user may create databases (ALTER "
                               "ROLE … CREATEDB).") from None
        self.made.append(database)
        return url

    def drop_all(self) -> None:
        """Drop every database `new` made."""
        for database in self.made:
            asyncio.run(drop_database(self._admin, database))


@contextmanager
def bench_databases(choice: str) -> Iterator[Databases]:
    """The databases of one run on `choice` (sqlite, postgresql or a URL; not `both`), and
    whatever holds them (a folder, a server) removed afterwards."""
    if choice == SQLITE:
        with tempfile.TemporaryDirectory(prefix="jongg-bench-") as folder:
            yield _Files(Path(folder))
        return
    if not is_postgres(choice):
        if choice != POSTGRESQL:
            raise ValueError(f"not one run's database: {choice!r}")
        binaries = find_binaries()
        if binaries is None:
            raise InvalidInput(NO_SERVER)
        with ThrowawayServer(binaries) as server:
            databases = _Server(server.url("postgres"),
                                f"PostgreSQL: a throw-away server on 127.0.0.1:{server.port} "
                                f"({binaries}; fsync and synchronous_commit off)")
            databases.server_pid = server.pid()
            yield databases
        return
    databases = _Server(choice, f"PostgreSQL: new databases on {shown_target(choice)}")
    try:
        yield databases
    finally:
        databases.drop_all()
