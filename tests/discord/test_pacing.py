"""How the bot counts its requests against a limit of the bot token (`bot.discord.pacing`):
a request counts from when it leaves until a window after its answer, requests that wait at
once share one take, a busy process takes what an idle one leaves of a budget they share
(never more than the whole), and a count that fails fails the requests waiting for it.
(Against the fake Discord: `test_jongg_pacing.py`, `test_jongg_shards.py`.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.discord.pacing import OUTAGE_PART, PENDING_SECONDS, Counted, GlobalLimit, Sharing
from bot.store import Database, DatabaseUnavailable, StoreClosed
from bot.tables.storage import SharedBudgets


def test_a_request_counts_until_a_window_after_its_answer() -> None:
    request = Counted(at=1000.0, asked=5.0)
    assert request.until(1.1) == 1000.0 + PENDING_SECONDS + 1.1  # not answered yet
    request.answered = 5.25  # at most 0.25 s after it left
    assert request.until(1.1) == pytest.approx(1000.25 + 1.1)
    request.lasts = 0.05  # Discord said when its window resets
    assert request.until(1.1) == pytest.approx(1000.25 + 0.05)


async def settle(until: Callable[[], bool]) -> None:
    """Let the event loop run until `until()` holds (the takes are quick: no wait for time)."""
    for _ in range(1000):
        if until():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the pacing never got there")


@pytest.fixture
async def databases(tmp_path: Path) -> AsyncIterator[tuple[Database, Database]]:
    """Two processes' handles on one database."""
    async with (Database(tmp_path / "j.db", owner="first") as first,
                Database(tmp_path / "j.db", owner="second") as second):
        yield first, second


def shared(db: Database, limit: int) -> GlobalLimit:
    """A limit counted in `db` with the other processes', whose requests count a minute."""
    return GlobalLimit(limit=limit, per=60.0, margin=0.0,
                       sharing=Sharing(budgets=SharedBudgets(db.budgets)))


def counting_takes(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The `wanted` of each take `db` is asked for, from here on."""
    wanted: list[int] = []
    take = db.budgets.take

    def counted(budget: str, **options: Any) -> Awaitable[Any]:
        wanted.append(options["wanted"])
        return take(budget, **options)

    monkeypatch.setattr(db.budgets, "take", counted)
    return wanted


async def test_a_busy_process_takes_what_an_idle_one_leaves_and_no_more(
        databases: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = databases
    busy, idle = shared(first, 10), shared(second, 10)
    takes = counting_takes(first, monkeypatch)
    turns = [asyncio.create_task(busy.turn()) for _ in range(12)]
    await settle(lambda: sum(turn.done() for turn in turns) == 10 and len(busy._waiting) == 2)
    assert takes[0] == 12  # the requests that waited at once: one take
    late = asyncio.create_task(idle.turn())
    await settle(lambda: idle._held_back != set())
    assert not late.done()  # the busy process holds the whole limit: none is left
    for turn in [*turns, late]:
        turn.cancel()
    await asyncio.gather(*turns, late, return_exceptions=True)
    assert busy.held == 0 and busy.longest_wait == 0.0


async def test_an_answered_request_frees_its_place_a_window_later(
        databases: tuple[Database, Database]) -> None:
    first, second = databases
    pace, other = (GlobalLimit(limit=1, per=0.0, margin=0.0,
                               sharing=Sharing(budgets=SharedBudgets(db.budgets)))
                   for db in (first, second))
    request = await pace.turn()
    waiting = asyncio.create_task(other.turn())
    await settle(lambda: other._held_back != set())
    pace.answered(request)  # a window of 0 s after its answer: it stops counting now
    await asyncio.wait_for(waiting, timeout=5)  # the other process hears of it and goes
    assert other.held == 1


async def test_a_count_that_fails_fails_the_requests_waiting(
        databases: tuple[Database, Database]) -> None:
    first, _ = databases
    pace = shared(first, 10)
    await first.close()
    failed = await asyncio.wait_for(  # a guard: waiting requests must not wait for ever
        asyncio.gather(pace.turn(), pace.turn(), return_exceptions=True), timeout=10)
    assert [type(error) for error in failed] == [StoreClosed, StoreClosed]


async def test_while_the_shared_count_is_out_of_reach_a_process_keeps_to_a_small_part(
        databases: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch) -> None:
    # Counting every request in the database made the bot unable to answer anyone while the
    # database was away, even to say so.
    first, _ = databases
    pace = shared(first, 50)

    def unreachable(budget: str, **options: Any) -> Awaitable[Any]:
        raise DatabaseUnavailable("the database went away")

    monkeypatch.setattr(first.budgets, "take", unreachable)
    part = int(50 * OUTAGE_PART)
    let_out = [await asyncio.wait_for(pace.turn(), timeout=5) for _ in range(part)]
    assert len(let_out) == part
    with pytest.raises(TimeoutError):  # the next waits for one of those to stop counting
        await asyncio.wait_for(pace.turn(), timeout=0.3)
