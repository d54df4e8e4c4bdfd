"""The loop-lag watchdog: it sees a blocked loop, reports stalls at most once a period with the
worst since the last report, and gives percentiles."""

from __future__ import annotations

import asyncio
import selectors
import sys
import threading
import time
from collections.abc import Callable

from bot.loopwatch import LoopWatch, Sampler, Seen, Stall

#: Longer than the watchdog's 250 ms threshold.
STALL = 0.4


async def test_a_blocked_loop_is_seen_and_reported() -> None:
    reports: list[Stall] = []
    watch = LoopWatch(on_stall=reports.append)
    watch.start()
    await asyncio.sleep(0.05)
    time.sleep(STALL)  # blocks the loop the watch runs on
    await asyncio.sleep(0.05)
    await watch.stop()
    assert watch.worst > watch.threshold
    assert reports == [Stall(watch.worst, 1)]


async def test_reset_does_not_count_the_sleep_in_flight() -> None:
    """pytest-asyncio stops the loop between a fixture and the test: that pause is not lag."""
    counted, reset = LoopWatch(on_stall=None), LoopWatch(on_stall=None)
    counted.start()
    reset.start()
    await asyncio.sleep(0)
    time.sleep(STALL)  # as if the loop were not running
    reset.reset()
    await asyncio.sleep(0.1)
    await counted.stop()
    await reset.stop()
    assert counted.worst > counted.threshold
    assert reset.worst < reset.threshold


async def test_a_stall_just_before_the_loop_stops_is_counted_once() -> None:
    """pytest-asyncio stops the loop when the test returns: a stall at its very end must
    count, and only once."""
    reports: list[Stall] = []
    watch = LoopWatch(on_stall=reports.append)
    watch.start()
    await asyncio.sleep(0)
    time.sleep(STALL)
    watch.count_in_flight()
    assert watch.worst > watch.threshold
    await asyncio.sleep(0.01)  # the late sleep wakes now: not counted again
    await watch.stop()
    assert reports == [Stall(watch.worst, 1)]


def test_stalls_are_reported_at_most_once_a_period_with_the_worst_since() -> None:
    reports: list[Stall] = []
    watch = LoopWatch(report_every=5.0, on_stall=reports.append)
    watch.record(0.3, now=100.0)  # the first stall is reported at once
    watch.record(0.5, now=101.0)
    watch.record(0.4, now=102.0)
    watch.record(0.001, now=104.9)
    assert reports == [Stall(0.3, 1)]
    watch.record(0.001, now=105.0)  # the period is over: what it held is reported
    assert reports == [Stall(0.3, 1), Stall(0.5, 2)]
    watch.record(0.001, now=200.0)  # nothing over the threshold: nothing to report
    assert len(reports) == 2


def test_percentiles_and_worst() -> None:
    watch = LoopWatch(on_stall=None)
    for _ in range(99):
        watch.record(0.0012, now=0.0)
    watch.record(0.3, now=0.0)
    assert watch.samples == 100 and watch.worst == 0.3
    assert watch.percentile(99) == 0.002  # to the millisecond above
    assert watch.percentile(100) == 0.3


def _hold_the_loop() -> None:
    time.sleep(STALL)


async def test_a_stall_says_where_the_loop_was_held() -> None:
    """With `where`, the report names the line that held the loop, and an idle loop is
    seen waiting in the selector (so a lag with no culprit says so)."""
    reports: list[Stall] = []
    watch = LoopWatch(on_stall=reports.append, where=True)
    watch.start()
    await asyncio.sleep(0.05)
    _hold_the_loop()
    await asyncio.sleep(0.05)
    await watch.stop()
    assert len(reports) == 1 and reports[0].where is not None and not reports[0].idle
    held = reports[0].where
    assert held.startswith("tests/test_loopwatch.py:") and "in _hold_the_loop <" in held
    assert watch.worst_where == held and watch.worst_held == watch.worst


def _looks_at(wait: Callable[[], object]) -> Seen | None:
    """What a sampler sees of a thread that runs `wait` (a callable) for 0.3 s."""
    started = threading.Event()

    def run() -> None:
        started.set()
        wait()

    thread = threading.Thread(target=run)
    thread.start()
    started.wait()
    time.sleep(0.05)
    assert thread.ident is not None
    sampler = Sampler(LoopWatch(), thread.ident)
    for _ in range(3):
        sampler.look(sys._current_frames()[thread.ident])
    thread.join()
    return sampler.take()


def test_a_loop_seen_only_in_select_is_idle_and_one_seen_elsewhere_is_not() -> None:
    """A thread waiting in a selector is idle (its lag is the machine's); one sleeping in a
    function of ours is held by that function."""
    idle = _looks_at(lambda: selectors.DefaultSelector().select(0.3))
    held = _looks_at(_hold_the_loop)
    assert idle is not None and idle.idle and idle.where.startswith("selectors.py:")
    assert held is not None and not held.idle and "in _hold_the_loop" in held.where


def test_an_idle_stall_is_reported_as_idle_and_left_out_of_worst_held() -> None:
    reports: list[Stall] = []
    watch = LoopWatch(on_stall=reports.append)
    watch.record(0.4, now=100.0, seen=Seen("selectors.py:1 in select (3 of 3 looks)", True))
    watch.record(0.3, now=106.0, seen=Seen("bot/x.py:1 in f (3 of 3 looks)", False))
    assert watch.worst == 0.4 and watch.worst_held == 0.3
    assert watch.worst_where == "bot/x.py:1 in f (3 of 3 looks)"
    assert [report.idle for report in reports] == [True, False]


async def test_a_watch_without_where_does_not_look() -> None:
    reports: list[Stall] = []
    watch = LoopWatch(on_stall=reports.append)
    watch.start()
    await asyncio.sleep(0.05)
    _hold_the_loop()
    await asyncio.sleep(0.05)
    await watch.stop()
    assert reports == [Stall(watch.worst, 1)] and watch.worst_where is None
