"""PostgreSQL fixtures for every test folder (a plugin the top-level conftest loads): the
run's throw-away server (`pg_server.py`, over `bot.store.throwaway`), skipped with one
message saying how to install it where its binaries are absent, and a database of its own
per test."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest
from pg_server import MISSING, TEMPLATE, PgServer, find_binaries

from bot.store import Database


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
def either_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test that must hold on both stores keeps its data, once each: an SQLite file
    in the test's folder, or a fresh PostgreSQL database (`pg_url`). Connect to it more than
    once for two processes sharing it."""
    if request.param == "sqlite":
        return str(tmp_path / "jongg.db")
    return str(request.getfixturevalue("pg_url"))
