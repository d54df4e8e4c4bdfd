"""Deadlines in a quiet machine's seconds, for tests whose processes a busy machine slows down.

A test that waits for processes it started (`jongg run`, a worker) gives each wait a limit.
On a quiet machine the limit is the wall clock's; on a busy one (CI's two cores under a
parallel suite, other jobs) the processes wait for a CPU as well as run, and the same work
takes several times as long: a wall-clock limit would fail the test for the machine, not the
code. So the limit is counted in a quiet machine's time, the wall clock less the machine's
share, as the loop-lag watch (`bot.loopwatch`) tells the machine's share of a lag from the
code's:

* Linux counts, for each thread, the time it waited for a CPU while it could have run
  (`/proc/<pid>/task/<tid>/schedstat`, the count `bot.loopwatch.RunQueue` reads).
* The test's processes are this one and those it asks to be watched (`watch(pid)`: the
  processes `jongg_process.start` starts). What all their threads waited for a CPU since a
  wait began is time the machine, not the code, took: a `Deadline` of `seconds` passes once
  the wall clock since it was set, less that, is over `seconds`.
* Threads that wait at the same time count each: the quiet time so measured may run slow,
  never fast. A wait is ended in any case at `MAX_STRETCH` times its limit on the wall
  clock, so a test whose processes are starved and busy for ever still ends. Processes that
  idle, waiting for what never comes (a test that is broken), wait for no CPU: their
  deadline passes in its own time however busy the machine.

Where the kernel keeps no such count (not Linux), the wall clock judges. Reading the counts
costs a file read a thread; they are read at most every `FRESH` seconds, and a deadline only
reads them once its limit has gone by on the wall clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

#: The most a deadline is stretched on the wall clock: a wait ends within this many times its
#: limit however busy the machine.
MAX_STRETCH = 8.0
#: Counts read less than this many seconds ago are fresh enough.
FRESH = 0.25
TASKS = "/proc/{pid}/task"
SCHEDSTAT = "/proc/{pid}/task/{tid}/schedstat"

#: Each thread's (process, thread) seconds waiting for a CPU since it started.
Counts = dict[tuple[int, int], float]


@dataclass(frozen=True)
class Reading:
    """The counts of every thread of the watched processes, and when they were read."""

    at: float
    counts: Counts


def waited_between(before: Reading, after: Reading) -> float:
    """Seconds the watched processes' threads waited for a CPU between two readings, summed
    (a thread not in `before` started since, and counts from its start)."""
    return sum(max(0.0, waiting - before.counts.get(key, 0.0))
               for key, waiting in after.counts.items())


class Meter:
    """Reads the counts of this process's threads and of the processes `watch`ed."""

    def __init__(self) -> None:
        self._pids = {os.getpid()}
        self._last: Reading | None = None

    def watch(self, pid: int) -> None:
        """Count the threads of process `pid` too (one the test started); a process that
        ends drops out."""
        self._pids.add(pid)

    def read(self) -> Reading:
        """The counts now, or as read less than `FRESH` seconds ago."""
        now = time.monotonic()
        if self._last is None or now - self._last.at >= FRESH:
            self._last = Reading(now, self._counts())
        return self._last

    def _counts(self) -> Counts:
        counts: Counts = {}
        for pid in list(self._pids):
            try:
                tids = os.listdir(TASKS.format(pid=pid))
            except OSError:  # it ended (and was waited for)
                if pid != os.getpid():
                    self._pids.discard(pid)
                continue
            for tid in tids:
                try:
                    with open(SCHEDSTAT.format(pid=pid, tid=tid), "rb") as file:
                        waiting = file.read().split()[1]
                except (OSError, IndexError):  # the thread ended meanwhile
                    continue
                counts[pid, int(tid)] = int(waiting) / 1e9
        return counts


#: The one meter of this test process.
METER = Meter()


def watch(pid: int) -> None:
    """Count process `pid` (started by the test) among the test's processes."""
    METER.watch(pid)


class Deadline:
    """`seconds` of a quiet machine's time from now (see the module docstring)."""

    def __init__(self, seconds: float, meter: Meter = METER) -> None:
        self.seconds = seconds
        self.meter = meter
        self.started = time.monotonic()
        self._mark = meter.read()
        #: What the watched threads had waited for a CPU since, when last read.
        self.waited = 0.0

    def elapsed(self) -> float:
        """Wall-clock seconds since it was set."""
        return time.monotonic() - self.started

    def passed(self) -> bool:
        """Whether `seconds` of a quiet machine's time have gone by since it was set."""
        elapsed = self.elapsed()
        if elapsed <= self.seconds:
            return False
        if elapsed > self.seconds * MAX_STRETCH:
            return True
        self.waited = waited_between(self._mark, self.meter.read())
        return elapsed - self.waited > self.seconds

    def remaining(self) -> float:
        """Wall-clock seconds until it may pass (it is looked at again then)."""
        return max(0.0, min(self.seconds + self.waited, self.seconds * MAX_STRETCH)
                   - self.elapsed())

    def describe(self) -> str:
        """The limit, and how the machine stretched it (for a failure's message)."""
        return (f"{self.seconds:g} s of a quiet machine's time ({self.elapsed():.1f} s on the "
                f"wall clock, {self.waited:.1f} s of which the test's processes waited for a "
                f"CPU)")


class DeadlineExceeded(TimeoutError):
    """A wait took longer than its `Deadline`."""


#: How often a stretched timeout looks again once its wall-clock limit has gone by.
RECHECK = 0.25


@contextlib.asynccontextmanager
async def within(seconds: float, what: str = "the wait") -> AsyncIterator[Deadline]:
    """`asyncio.timeout`, in a quiet machine's seconds: the block is cancelled, and
    `DeadlineExceeded` raised, once its `Deadline` has passed."""
    deadline = Deadline(seconds)
    loop = asyncio.get_running_loop()
    expired = False
    try:
        async with asyncio.timeout(None) as scope:

            def check() -> None:
                nonlocal handle, expired
                if deadline.passed():
                    expired = True
                    scope.reschedule(loop.time())
                else:
                    handle = loop.call_later(max(RECHECK, deadline.remaining()), check)

            handle = loop.call_later(seconds, check)
            try:
                yield deadline
            finally:
                handle.cancel()
    except TimeoutError as error:
        if expired:
            raise DeadlineExceeded(f"{what} took over {deadline.describe()}") from error
        raise


async def wait_for(awaitable: Awaitable[T], seconds: float, what: str = "the wait") -> T:
    """`asyncio.wait_for` in a quiet machine's seconds (see `within`)."""
    async with within(seconds, what):
        return await awaitable
