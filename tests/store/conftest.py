"""Fixtures for the store tests: a database per test on each backend, and a clock the tests
move.

`db` runs every test that takes it twice: on an SQLite file and on a PostgreSQL database
(of a throw-away server the run starts; see pg_server.py and pg_fixtures.py, the fixtures
every test folder may use). The PostgreSQL case is skipped, with one message saying how to
install the server, where its binaries are absent. Tests about SQLite files themselves take
`db_path`, or `sqlite_db` for a connected one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from store_helpers import FakeClock

from bot.store import Database


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "jongg.db"


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
