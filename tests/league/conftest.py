"""Fixtures for the league tests: a real database file per test and a clock the tests move."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from league_helpers import FakeClock

from bot.store import Database


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "league.db"


@pytest.fixture
async def db(db_path: Path, clock: FakeClock) -> AsyncIterator[Database]:
    async with Database(db_path, clock=clock) as database:
        yield database
