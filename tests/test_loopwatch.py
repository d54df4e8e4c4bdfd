"""The loop-lag watchdog: it sees a blocked loop, reports stalls at most once a period with the
worst since the last report, gives percentiles, and judges the code's share of a lag, not the
machine's (time the loop's thread waited for a CPU)."""

from __future__ import annotations

import asyncio
import os
import selectors
import sys
import threading
import time
from collections.abc import Callable

import pytest

from bot import loopwatch
from bot.loopwatch import LoopWatch, RunQueue, Sampler, Seen, Stall, waiting_on_a_thread
from tests.cpu_hogs import needs_schedstat, sharing_one_core, spin, threads

#: Longer than the watchdog's 250 ms threshold.
STALL = 0.4
#: CPU time a callback takes while the machine is busy: well under the threshold, although
#: the lag it makes (waiting for a CPU as well) is well over it.
CONTENDED = 0.1


async def test_a_blocked_loop_is_seen_and_reported() -> None:
    reports: list[Stall] = []
    watch = LoopWatch(on_stall=reports.append)
    watch.start()
    await asyncio.sleep(0.05)
    time.sleep(STALL)  # blocks the loop the watch runs on
    await asyncio.sleep(0.05)
    await watch.stop()
    assert watch.worst > watch.threshold
    assert reports == [Stall(watch.worst, 1, machine=watch.worst_machine)]


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
    assert reports == [Stall(watch.worst, 1, machine=watch.worst_machine)]


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
    assert len(reports) == 1 and reports[0].where is not None
    held = reports[0].where
    assert held.startswith("tests/test_loopwatch.py:") and "in _hold_the_loop <" in held
    assert watch.worst_where == held and watch.worst_held > watch.threshold


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
    assert thread.native_id is not None
    sampler = Sampler(LoopWatch(), thread.ident, thread.native_id)
    for _ in range(3):
        sampler.look(sys._current_frames()[thread.ident], waiting_on_a_thread(thread.native_id))
    thread.join()
    return sampler.take()


def test_a_loop_seen_only_in_select_is_idle_and_one_seen_elsewhere_is_not() -> None:
    """A thread waiting in a selector is idle (its lag is the machine's); one sleeping in a
    function of ours is held by that function."""
    idle = _looks_at(lambda: selectors.DefaultSelector().select(0.3))
    held = _looks_at(_hold_the_loop)
    assert idle is not None and idle.idle and idle.where.startswith("selectors.py:")
    assert held is not None and not held.idle and "in _hold_the_loop" in held.where


def test_without_a_count_of_the_wait_for_a_cpu_an_idle_stall_is_the_machines() -> None:
    """Where the wait for a CPU is not counted (`waited` None), a stall the sampler found idle
    is all the machine's share, and one it found elsewhere all the code's."""
    reports: list[Stall] = []
    watch = LoopWatch(on_stall=reports.append)
    watch.record(0.4, now=100.0, seen=Seen("selectors.py:1 in select (3 of 3 looks)", True))
    watch.record(0.3, now=106.0, seen=Seen("bot/x.py:1 in f (3 of 3 looks)", False))
    assert watch.worst == 0.4 and watch.worst_machine == 0.4 and watch.worst_held == 0.3
    assert watch.worst_where == "bot/x.py:1 in f (3 of 3 looks)"
    assert [report.machine for report in reports] == [0.4, 0.0]


def test_the_machines_share_is_the_wait_for_a_cpu_and_the_rest_is_the_codes() -> None:
    """Counted, the wait for a CPU is the machine's share (never more than the lag) and
    decides alone: a loop found idle in `select` that did not wait for a CPU was held."""
    reports: list[Stall] = []
    watch = LoopWatch(on_stall=reports.append, report_every=0.0)
    watch.record(0.4, now=100.0, waited=0.3)
    assert watch.worst_machine == 0.3 and round(watch.worst_held, 9) == 0.1
    watch.record(0.5, now=101.0, waited=0.7)
    assert watch.worst == 0.5 and watch.worst_machine == 0.5
    assert round(watch.worst_held, 9) == 0.1
    watch.record(0.45, now=102.0, seen=Seen("selectors.py:1 in select (3 of 3 looks)", True),
                 waited=0.0)
    assert watch.worst_held == 0.45
    assert [report.machine for report in reports] == [0.3, 0.5, 0.0]


async def _judged(hold: Callable[[], object]) -> LoopWatch:
    """A watch (with `where`, as the end-to-end tests run it) over a loop that `hold` holds."""
    watch = LoopWatch(on_stall=None, where=True)
    watch.start()
    await asyncio.sleep(0.05)
    hold()
    await asyncio.sleep(0.05)
    await watch.stop()
    return watch


@pytest.mark.parametrize("hold", [lambda: spin(STALL), lambda: time.sleep(STALL)],
                         ids=["busy", "asleep"])
async def test_code_that_holds_the_loop_is_judged_whether_it_runs_or_blocks(
        hold: Callable[[], object]) -> None:
    """Running on a CPU or blocked (asleep, waiting for a lock), the loop's thread is not
    waiting for a CPU: all of it is the code's share."""
    watch = await _judged(hold)
    assert watch.worst_held > watch.threshold


@needs_schedstat
async def test_a_lag_of_waiting_for_a_cpu_is_the_machines_share() -> None:
    """A callback of 100 ms of CPU, while CPU-bound processes share the one core this process
    may use: the loop is late far past the threshold, yet the code held it 100 ms."""
    with sharing_one_core(hogs=4):
        watch = await _judged(lambda: spin(CONTENDED))
    assert watch.worst > watch.threshold, "the hogs did not make the loop wait for a CPU"
    assert watch.worst_held < watch.threshold
    assert watch.worst_machine > watch.worst - watch.threshold


async def test_without_schedstat_the_wall_clock_judges(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loopwatch, "SCHEDSTAT", "/nonexistent/{tid}/schedstat")
    assert RunQueue.open(threading.get_native_id()) is None
    watch = await _judged(lambda: time.sleep(STALL))
    assert watch.worst > watch.threshold
    assert watch.worst_held == watch.worst and watch.worst_machine == 0.0


@needs_schedstat
def test_the_hogs_end_and_the_cpus_come_back_however_the_test_ends() -> None:
    cpus = {tid: os.sched_getaffinity(tid) for tid in threads()}
    with pytest.raises(RuntimeError), sharing_one_core(hogs=2) as hogs:
        assert all(len(os.sched_getaffinity(tid)) == 1 for tid in threads())
        raise RuntimeError("the test failed")
    assert [hog.poll() for hog in hogs] == [-9, -9]
    # Every thread still alive (one of an earlier test may have ended meanwhile) has its CPUs.
    after = {tid: os.sched_getaffinity(tid) for tid in threads() if tid in cpus}
    assert after == {tid: cpus[tid] for tid in after}


async def test_a_watch_without_where_does_not_look() -> None:
    reports: list[Stall] = []
    watch = LoopWatch(on_stall=reports.append)
    watch.start()
    await asyncio.sleep(0.05)
    _hold_the_loop()
    await asyncio.sleep(0.05)
    await watch.stop()
    assert reports == [Stall(watch.worst, 1, machine=watch.worst_machine)]
    assert watch.worst_where is None


@needs_schedstat
def test_a_loop_waiting_for_another_thread_is_seen_so_and_a_sleeping_one_is_not() -> None:
    event = threading.Event()
    waiting = _looks_at(lambda: event.wait(0.3))
    asleep = _looks_at(lambda: time.sleep(0.3))
    assert waiting is not None and waiting.on_thread
    assert asleep is not None and not asleep.on_thread


def test_a_loop_blocked_on_a_thread_that_waited_for_a_cpu_was_held_by_the_machine() -> None:
    """Blocked on another thread (a thread starting, a lock, the interpreter's lock), the loop
    was held by the machine for as long as that thread waited for a CPU, up to the time it
    was blocked; blocked otherwise, or asleep, it was held by the code."""
    on_thread = Seen("threading.py:1 in start (3 of 3 looks)", idle=False, on_thread=True)
    asleep = Seen("bot/x.py:1 in f (3 of 3 looks)", idle=False)
    watch = LoopWatch(on_stall=None)
    watch.record(0.4, now=1.0, seen=on_thread, waited=0.05, ran=0.01, others=0.5)
    assert round(watch.worst_machine, 9) == 0.39 and round(watch.worst_held, 9) == 0.01
    watch = LoopWatch(on_stall=None)
    watch.record(0.4, now=1.0, seen=on_thread, waited=0.05, ran=0.01, others=0.1)
    assert round(watch.worst_machine, 9) == 0.15
    watch = LoopWatch(on_stall=None)
    watch.record(0.4, now=1.0, seen=asleep, waited=0.05, ran=0.01, others=0.5)
    assert round(watch.worst_machine, 9) == 0.05


def _waits_for_a_worker(work: Callable[[], object]) -> None:
    """Block the loop until a new thread has run `work`. The thread lives on a moment after
    (as a started thread or a lock's holder does): the watch counts the wait for a CPU of the
    threads alive when it wakes."""
    done = threading.Event()

    def run() -> None:
        work()
        done.set()
        time.sleep(0.2)

    threading.Thread(target=run).start()
    done.wait()


@needs_schedstat
async def test_a_loop_waiting_on_a_thread_the_machine_did_not_run_is_not_the_codes() -> None:
    """The loop waits on a thread that needs 0.1 s of CPU while CPU-bound processes share the
    one core: late far past the threshold, yet held by the code only as long as a thread
    needed to run; waiting on a thread that sleeps 0.4 s is the code's."""
    with sharing_one_core(hogs=4):
        watch = await _judged(lambda: _waits_for_a_worker(lambda: spin(CONTENDED)))
    assert watch.worst > watch.threshold, "the hogs did not make the worker wait for a CPU"
    assert watch.worst_held < watch.threshold
    watch = await _judged(lambda: _waits_for_a_worker(lambda: time.sleep(STALL)))
    assert watch.worst_held > watch.threshold
