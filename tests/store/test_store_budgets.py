"""Request budgets the bot's processes share (`bot.store.budgets`, migration 0018): a take
grants what fits under the limit counting every process's requests, a process's own list
replaces what it kept, entries stop counting at their times, and processes taking at once
never grant more than the limit between them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from store_helpers import FakeClock

from bot.store import Database

GLOBAL = "global"


@pytest.fixture
async def other(db_target: str, clock: FakeClock) -> AsyncIterator[Database]:
    """A second process on the same database (another owner)."""
    async with Database(db_target, clock=clock, owner="other process") as database:
        yield database


async def test_a_take_grants_what_fits_and_says_when_more_will(
        db: Database, clock: FakeClock) -> None:
    first = await db.budgets.take(GLOBAL, wanted=3, limit=5, held=[], lasts=1.0)
    assert (first.granted, first.at, first.retry_after) == (3, clock.now, 0.0)
    held = [clock.now + 1.0] * 3
    clock.advance(0.25)
    second = await db.budgets.take(GLOBAL, wanted=4, limit=5, held=held, lasts=1.0)
    assert second.granted == 2
    assert second.retry_after == pytest.approx(0.75)  # when the first three stop counting
    held += [clock.now + 1.0] * 2
    clock.advance(0.75)  # the first three stop counting; the last two still count
    third = await db.budgets.take(GLOBAL, wanted=4, limit=5, held=held, lasts=1.0)
    assert third.granted == 3
    assert third.retry_after == pytest.approx(0.25)


async def test_what_a_process_hands_in_replaces_what_it_kept(
        db: Database, clock: FakeClock) -> None:
    """A process that learns its requests were answered says they stop counting sooner."""
    await db.budgets.take(GLOBAL, wanted=5, limit=5, held=[], lasts=10.0)
    full = await db.budgets.take(GLOBAL, wanted=1, limit=5, held=[clock.now + 10.0] * 5,
                                 lasts=10.0)
    assert full.granted == 0
    assert full.retry_after == pytest.approx(10.0)
    answered = [clock.now + 1.0] * 2 + [clock.now + 10.0] * 3
    handed = await db.budgets.take(GLOBAL, wanted=0, limit=5, held=answered, lasts=10.0)
    assert handed.granted == 0
    clock.advance(1.0)
    freed = await db.budgets.take(GLOBAL, wanted=5, limit=5, held=answered[2:], lasts=10.0)
    assert freed.granted == 2


async def test_a_busy_process_takes_what_an_idle_one_leaves_and_no_more(
        db: Database, other: Database, clock: FakeClock) -> None:
    busy = await db.budgets.take(GLOBAL, wanted=60, limit=50, held=[], lasts=1.0)
    assert busy.granted == 50  # the whole limit: the other process holds none of it
    refused = await other.budgets.take(GLOBAL, wanted=1, limit=50, held=[], lasts=1.0)
    assert refused.granted == 0
    assert refused.retry_after == pytest.approx(1.0)
    clock.advance(0.5)
    # The busy process says 40 of its requests stop counting now: the other may take them.
    mine = [clock.now] * 40 + [clock.now + 0.5] * 10
    await db.budgets.take(GLOBAL, wanted=0, limit=50, held=mine, lasts=1.0)
    clock.advance(0.001)
    taken = await other.budgets.take(GLOBAL, wanted=45, limit=50, held=[], lasts=1.0)
    assert taken.granted == 40
    # Budgets are apart: a bucket's count is not the global limit's.
    bucket = await other.budgets.take("bucket x", wanted=5, limit=5, held=[], lasts=1.0)
    assert bucket.granted == 5


async def test_processes_taking_at_once_never_grant_more_than_the_limit(
        db: Database, other: Database) -> None:
    """Each process takes one at a time and hands in what it holds (as `bot.discord.pacing`
    does); the two processes take at once, more than the limit between them."""

    async def takes(process: Database) -> int:
        held: list[float] = []
        for _ in range(30):
            grant = await process.budgets.take(GLOBAL, wanted=1, limit=20, held=held,
                                               lasts=60.0)
            held += [grant.at + 60.0] * grant.granted
        return len(held)

    taken = await asyncio.gather(takes(db), takes(other))
    assert sum(taken) == 20
