"""Fixtures for the store tests: a database per test on each backend, and a clock the tests
move.

`db` runs every test that takes it twice: on an SQLite file and on a PostgreSQL database
(of a throw-away server the run starts; see pg_server.py and bot/store/throwaway.py). The
PostgreSQL case is skipped, with one message saying how to install the server, where its
binaries are absent. Tests about SQLite files themselves take `db_path`, or `sqlite_db` for
a connected one.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from pg_server import MISSING, TEMPLATE, PgServer, find_binaries
from store_helpers import FakeClock

from bot.store import Database


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "jongg.db"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The run's PostgreSQL server, with the template every test database copies."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip(MISSING)
    server = PgServer(binaries)
    server.start()
    try:
        asyncio.run(_make_template(server))
        yield server
    finally:
        server.stop()


async def _make_template(server: PgServer) -> None:
    url = await server.create_database(template=None)
    async with Database(url):  # migrated, then copied by every test's database
        pass
    name = url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(server.url("postgres"))
    try:
        await conn.execute(f"ALTER DATABASE {name} RENAME TO {TEMPLATE}")
    finally:
        await conn.close()


@pytest.fixture
async def pg_url(pg_server: PgServer) -> str:
    """A fresh, migrated PostgreSQL database of its own for one test."""
    return await pg_server.create_database(template=TEMPLATE)


@pytest.fixture
async def pg_empty_url(pg_server: PgServer) -> str:
    """A fresh, empty PostgreSQL database (never migrated)."""
    return await pg_server.create_database(template=None)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, db_path: Path) -> str:
    """Where the test's database lives: an SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return str(db_path)
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def db(db_target: str, clock: FakeClock) -> AsyncIterator[Database]:
    async with Database(db_target, clock=clock) as database:
        yield database


@pytest.fixture
async def sqlite_db(db_path: Path, clock: FakeClock) -> AsyncIterator[Database]:
    """A connected SQLite database, for tests about SQLite files themselves."""
    async with Database(db_path, clock=clock) as database:
        yield database
