"""A loop-lag watchdog: how late the event loop wakes a task that asked to sleep.

A task sleeps `interval` (20 ms) over and over and records how much later than asked it woke.
That delay is time the loop spent in something that did not yield (a blocking call, a long
computation), or was not run at all: meanwhile no interaction was answered, no message sent, in
any server. The watch
keeps the worst lag and a histogram (1 ms buckets, so memory stays small however long it runs)
for percentiles, and reports stalls over `threshold` (250 ms) to `on_stall` at most once every
`report_every` seconds, with the worst lag since the last report. `jongg run` logs them as
warnings; the end-to-end tests fail a test whose code held the loop past the threshold (the
code's share of a lag, below).

A lag is made of two shares. The machine's: time the loop's thread was runnable but waited for
a CPU because the machine ran something else (a busy CI runner). Linux counts it per thread
(`RunQueue`: the second field of /proc/self/task/<tid>/schedstat), and the watch reads it when
each sleep starts and when it wakes, so a late wake-up knows how much of its lag was spent
waiting for a CPU. The code's share is the rest: running our callbacks, or blocking in them (a
thread asleep in `time.sleep`, or waiting for a lock, is not waiting for a CPU). `worst_held`
is the worst code's share, what the end-to-end tests hold to the threshold: code is judged,
not the machine it runs on. Where the kernel keeps no such count (not Linux), the watch judges
by the wall clock, and leaves out only a stall the sampler (below) found `idle`.

A lag says that the loop was held, not by what. With `where=True` a thread (`Sampler`) looks at
the loop's thread whenever the watch is overdue by half the threshold, and a stall carries where
the loop was most often while it was held: a line of the bot's code (the culprit), or, when
every look found it in the selector's `select`, that it was idle: nothing of its own held it,
the process was not given the CPU. So is a stall the sampler could not look into while the
process used next to no CPU (all of it was stopped).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType

log = logging.getLogger(__name__)

#: How often the watch wakes, and the lag it reports (seconds).
INTERVAL = 0.02
THRESHOLD = 0.25
#: At most one report in this many seconds.
REPORT_EVERY = 5.0
#: How many of the innermost frames say where the loop was.
DEPTH = 4
#: Paths under this (the project's root) are shown from it.
ROOT = Path(__file__).resolve().parent.parent
#: Where Linux keeps a thread's scheduling counts: ns on a CPU, ns waiting for one, time slices.
SCHEDSTAT = "/proc/self/task/{tid}/schedstat"
#: This process's threads, and where in the kernel one of them is blocked.
TASKS = "/proc/self/task"
WCHAN = "/proc/self/task/{tid}/wchan"


@dataclass(frozen=True)
class Stall:
    """Stalls seen since the last report: how many lags passed the threshold, the worst, how
    much of the worst was the machine's share (see the module docstring), and (from a watch
    with `where=True`) where the loop was during the worst."""

    worst: float
    count: int
    where: str | None = None
    machine: float = 0.0


@dataclass(frozen=True)
class Seen:
    """Where the sampler found the loop during one overdue sleep: the stack it was at most
    often ("… (k of n looks)"), whether every look found it idle in the selector, and whether
    most looks found its thread waiting for another thread (in the kernel's futex wait: a
    lock, an event, the interpreter's lock), not asleep or running."""

    where: str
    idle: bool
    on_thread: bool = False


def log_stall(stall: Stall) -> None:
    """The default report: a warning in the log."""
    held = stall.worst - stall.machine
    cause = (f"{held * 1000:.0f} ms of it something ran on it without yielding, "
             f"{stall.machine * 1000:.0f} ms the machine did not run it (its thread was not "
             "given a CPU)")
    if stall.where is not None:
        cause += f"; it was held at {stall.where}"
    log.warning("the event loop was blocked for up to %.0f ms (%d time%s over %.0f ms since "
                "the last warning): %s", stall.worst * 1000, stall.count,
                "" if stall.count == 1 else "s", THRESHOLD * 1000, cause)


class RunQueue:
    """How long one thread of this process has waited for a CPU: runnable, but not run because
    the machine ran something else. A blocked thread (asleep, waiting for a lock or in
    `select`) is not waiting for a CPU. Reads the kernel's count afresh each time, from a file
    kept open (a read costs about a microsecond)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    @classmethod
    def open(cls, tid: int) -> RunQueue | None:
        """The count of the thread whose native id is `tid`, or None where the kernel keeps
        none (not Linux, or a kernel built without it: its counts read zero)."""
        try:
            fd = os.open(SCHEDSTAT.format(tid=tid), os.O_RDONLY)
        except OSError:
            return None
        run_queue = cls(fd)
        try:
            on_cpu, _ = run_queue._read()
        except (OSError, ValueError):
            on_cpu = 0
        if on_cpu == 0:  # a thread that has run has been on a CPU
            run_queue.close()
            return None
        return run_queue

    def waited(self) -> float:
        """Seconds the thread has waited for a CPU since it started."""
        return self._read()[1] / 1e9

    def times(self) -> tuple[float, float]:
        """Seconds the thread has run on a CPU, and waited for one, since it started."""
        on_cpu, waiting = self._read()
        return on_cpu / 1e9, waiting / 1e9

    def close(self) -> None:
        os.close(self._fd)

    def _read(self) -> tuple[int, int]:
        """Nanoseconds on a CPU and waiting for one (the file's first two fields)."""
        on_cpu, waiting = os.pread(self._fd, 128, 0).split()[:2]
        return int(on_cpu), int(waiting)


class Threads:
    """How long each thread of this process has waited for a CPU, by native id, from files
    kept open (threads that start are opened as they are found, those gone are closed). Used
    beside `RunQueue` for the loop waiting on another of the process's threads that itself
    waits for a CPU (a thread being started, a lock or the interpreter's lock held by a
    thread the machine did not run): that wait is the machine's too."""

    def __init__(self) -> None:
        self._open: dict[int, RunQueue] = {}

    def waits(self) -> dict[int, float]:
        """Each living thread's seconds waited for a CPU since it started."""
        try:
            alive = {int(tid) for tid in os.listdir(TASKS)}
        except OSError:
            return {}
        for tid in self._open.keys() - alive:
            self._open.pop(tid).close()
        for tid in alive - self._open.keys():
            if (run_queue := RunQueue.open(tid)) is not None:
                self._open[tid] = run_queue
        waits: dict[int, float] = {}
        for tid, run_queue in list(self._open.items()):
            try:
                waits[tid] = run_queue.waited()
            except (OSError, ValueError):  # it ended since the listing
                self._open.pop(tid).close()
        return waits

    def close(self) -> None:
        for run_queue in self._open.values():
            run_queue.close()
        self._open.clear()


def waiting_on_a_thread(tid: int) -> bool:
    """Whether the thread `tid` is blocked in the kernel's futex wait (what a lock, an event
    or the interpreter's lock waits in), from /proc's `wchan`; False where that can't be
    read."""
    try:
        with open(WCHAN.format(tid=tid), encoding="ascii") as file:
            return file.read().startswith("futex")
    except OSError:
        return False


def place(frame: FrameType) -> str:
    """The innermost `DEPTH` frames of a stack, innermost first ("file:line in function"),
    with the project's files from its root and an installed package's from its package."""
    frames = traceback.extract_stack(frame)[-DEPTH:]
    return " < ".join(f"{_short(summary.filename)}:{summary.lineno} in {summary.name}"
                      for summary in reversed(frames))


def _short(filename: str) -> str:
    path = Path(filename)
    if path.is_relative_to(ROOT) and ".venv" not in path.parts:
        return path.relative_to(ROOT).as_posix()
    if "site-packages" in path.parts:
        return Path(*path.parts[path.parts.index("site-packages") + 1:]).as_posix()
    return path.name


class Sampler(threading.Thread):
    """Notes where the loop's thread is while the watch is overdue (see the module docstring).
    Its tally is taken, and cleared, by the watch each time it wakes."""

    def __init__(self, watch: LoopWatch, loop_thread: int, loop_native: int) -> None:
        super().__init__(name="loop-watch-sampler", daemon=True)
        self.watch = watch
        self.loop_thread = loop_thread
        self.loop_native = loop_native
        self.halt = threading.Event()
        self._lock = threading.Lock()
        self._seen: Counter[str] = Counter()
        self._busy = 0
        self._on_thread = 0

    def run(self) -> None:
        watch = self.watch
        while not self.halt.wait(watch.interval):
            due = watch.due_at
            if due is None or time.monotonic() - due < watch.threshold / 2:
                continue
            frame = sys._current_frames().get(self.loop_thread)
            if frame is not None:
                self.look(frame, waiting_on_a_thread(self.loop_native))
            del frame

    def look(self, frame: FrameType, on_thread: bool = False) -> None:
        """Count one look at the loop's thread, found at `frame`, and `on_thread` if it was
        waiting for another thread there."""
        where = place(frame)
        idle = frame.f_code.co_name == "select" and frame.f_code.co_filename.endswith(
            "selectors.py")
        with self._lock:
            self._seen[where] += 1
            self._busy += not idle
            self._on_thread += on_thread

    def take(self) -> Seen | None:
        """What the looks since the last take saw, or None if there were none."""
        with self._lock:
            seen, busy, on_thread = self._seen, self._busy, self._on_thread
            self._seen, self._busy, self._on_thread = Counter(), 0, 0
        if not seen:
            return None
        where, count = seen.most_common(1)[0]
        return Seen(f"{where} ({count} of {seen.total()} looks)", idle=busy == 0,
                    on_thread=2 * on_thread > seen.total())


class LoopWatch:
    """Watches the running event loop it is started on; see the module docstring."""

    def __init__(self, *, interval: float = INTERVAL, threshold: float = THRESHOLD,
                 report_every: float = REPORT_EVERY,
                 on_stall: Callable[[Stall], None] | None = log_stall,
                 where: bool = False) -> None:
        self.interval = interval
        self.threshold = threshold
        self.report_every = report_every
        self.on_stall = on_stall
        self.where = where
        self.worst = 0.0
        #: The machine's share of the worst lag (see the module docstring).
        self.worst_machine = 0.0
        #: The worst code's share of a lag: the longest that code held the loop, and where
        #: (if that lag passed the threshold and the sampler looked).
        self.worst_held = 0.0
        self.worst_where: str | None = None
        #: When (`time.monotonic()`) the watch should next wake; None while it is not asleep.
        self.due_at: float | None = None
        self._sampler: Sampler | None = None
        self._cpu = 0.0
        #: The loop's thread's wait for a CPU: its count (None where there is none), and what
        #: the count was when the sleep in flight started.
        self._run_queue: RunQueue | None = None
        self._waited = 0.0
        self._ran = 0.0
        #: Every thread's wait for a CPU (with `where`: see `Threads`), as when the sleep in
        #: flight started, and the threads left out of it (the loop's, the sampler's).
        self._threads: Threads | None = None
        self._others: dict[int, float] = {}
        self._not_others: set[int] = set()
        self.samples = 0
        self._histogram: Counter[int] = Counter()
        self._epoch = 0
        self._due: float | None = None
        self._clock: Callable[[], float] | None = None
        self._pending: Stall | None = None
        self._reported_at = -math.inf
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start watching the running loop (call it on that loop)."""
        if self._task is None:
            native = threading.get_native_id()
            self._run_queue = RunQueue.open(native)
            if self.where:
                self._sampler = Sampler(self, threading.get_ident(), native)
                self._sampler.start()
                if self._run_queue is not None:
                    self._threads = Threads()
                    self._not_others = {native, self._sampler.native_id or 0}
            self._task = asyncio.get_running_loop().create_task(self._watch(),
                                                                name="loop-watch")

    async def stop(self) -> None:
        """Stop watching; a stall not yet reported is reported now."""
        task, self._task = self._task, None
        sampler, self._sampler = self._sampler, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if sampler is not None:
            sampler.halt.set()
            await asyncio.to_thread(sampler.join)
        run_queue, self._run_queue = self._run_queue, None
        if run_queue is not None:
            run_queue.close()
        threads, self._threads = self._threads, None
        if threads is not None:
            threads.close()
        self._report()

    def reset(self) -> None:
        """Count afresh from now: figures are cleared and the sleep in flight, which may have
        started before (say, while the loop was not running at all), is not counted."""
        self.worst = 0.0
        self.worst_machine = 0.0
        self.worst_where = None
        self.worst_held = 0.0
        self.samples = 0
        self._histogram.clear()
        self._pending = None
        self._epoch += 1
        if self._sampler is not None:
            self._sampler.take()

    def count_in_flight(self) -> None:
        """Count the sleep in flight as if it woke now. For a loop that has stopped running
        (pytest-asyncio stops it when the test returns): a stall just before it stopped is
        counted, although the watch will only wake once the loop runs again."""
        if self._due is None or self._clock is None:
            return
        now = self._clock()
        self._epoch += 1  # when it does wake, it is not counted twice
        lag = max(0.0, now - self._due)
        self.record(lag, now, self._where(lag), *self._waited_since())

    def percentile(self, q: float) -> float:
        """The `q`-th percentile of the lags seen (seconds, to the millisecond above, but
        never above the worst)."""
        rank = math.ceil(q / 100 * self.samples)
        seen = 0
        for millis in sorted(self._histogram):
            seen += self._histogram[millis]
            if seen >= rank:
                return min(millis / 1000, self.worst)
        return 0.0

    def record(self, lag: float, now: float, seen: Seen | None = None,
               waited: float | None = None, ran: float = 0.0, others: float = 0.0) -> None:
        """Count one wake-up `lag` seconds late, seen at loop time `now`, with what the sampler
        saw of the loop meanwhile (if it looked), how long the loop's thread waited for a CPU
        meanwhile (None where that is not counted: the lag is then the code's, unless the
        sampler found the loop idle) and ran on one, and how long the process's other threads
        waited for a CPU. A loop found waiting on another thread (`Seen.on_thread`) was held
        by the machine too for as long as it was blocked, up to what the others waited."""
        self.samples += 1
        over = lag > self.threshold
        where = seen.where if seen is not None and over else None
        if waited is not None:
            machine = waited
            if seen is not None and seen.on_thread:
                machine += min(max(0.0, lag - waited - ran), others)
            machine = min(lag, machine)
        else:
            machine = lag if seen is not None and seen.idle and over else 0.0
        if lag > self.worst:
            self.worst, self.worst_machine = lag, machine
        if lag - machine > self.worst_held:
            self.worst_held, self.worst_where = lag - machine, where
        self._histogram[math.ceil(lag * 1000)] += 1
        if over:
            pending = self._pending
            self._pending = (Stall(lag, 1 if pending is None else pending.count + 1, where,
                                   machine)
                             if pending is None or lag > pending.worst
                             else replace(pending, count=pending.count + 1))
        if now - self._reported_at >= self.report_every:
            self._report(now)

    def _report(self, now: float | None = None) -> None:
        stall, self._pending = self._pending, None
        if stall is None:
            return
        if now is not None:
            self._reported_at = now
        if self.on_stall is not None:
            self.on_stall(stall)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        self._clock = loop.time
        while True:
            epoch = self._epoch
            self._due = due = loop.time() + self.interval
            self.due_at = time.monotonic() + self.interval
            self._cpu = time.process_time()
            if self._run_queue is not None:
                self._ran, self._waited = self._run_queue.times()
            if self._threads is not None:
                self._others = self._threads.waits()
            await asyncio.sleep(self.interval)
            now = loop.time()
            lag = max(0.0, now - due)
            seen = self._where(lag)
            if epoch == self._epoch:
                self.record(lag, now, seen, *self._waited_since())

    def _waited_since(self) -> tuple[float | None, float, float]:
        """Since the sleep in flight started: how long the loop's thread waited for a CPU
        (None where that is not counted) and ran on one, and how long the other threads
        waited for one (a thread started since counts from its start)."""
        if self._run_queue is None:
            return None, 0.0, 0.0
        ran, waited = self._run_queue.times()
        others = 0.0
        if self._threads is not None:
            before = self._others
            others = sum(wait - before.get(tid, 0.0)
                         for tid, wait in self._threads.waits().items()
                         if tid not in self._not_others)
        return waited - self._waited, ran - self._ran, others

    def _where(self, lag: float) -> Seen | None:
        """What the sampler saw during the sleep that ended `lag` seconds late. If it had no
        look, yet the process hardly used the CPU meanwhile, no thread of the process ran (it
        was stopped, or not scheduled): idle. (Code that held the GIL all along, so that the
        sampler could not look, would have used the CPU.)"""
        if self._sampler is None:
            return None
        seen = self._sampler.take()
        if (seen is None and lag > self.threshold
                and time.process_time() - self._cpu < lag / 4):
            seen = Seen(f"nowhere: the process was not run for {lag * 1000:.0f} ms", idle=True)
        return seen
