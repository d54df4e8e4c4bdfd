"""A loop-lag watchdog: how late the event loop wakes a task that asked to sleep.

A task sleeps `interval` (20 ms) over and over and records how much later than asked it woke.
That delay is time the loop spent in something that did not yield (a blocking call, a long
computation): meanwhile no interaction was answered, no message sent, in any server. The watch
keeps the worst lag and a histogram (1 ms buckets, so memory stays small however long it runs)
for percentiles, and reports stalls over `threshold` (250 ms) to `on_stall` at most once every
`report_every` seconds, with the worst lag since the last report. `jongg run` logs them as
warnings; the end-to-end tests fail a test whose worst lag passes the threshold.

A lag says that the loop was held, not by what. With `where=True` a thread (`_Sampler`) looks at
the loop's thread whenever the watch is overdue by half the threshold, and a stall carries where
the loop was most often while it was held: a line of the bot's code (the culprit), or the
selector's `select` (the loop was idle: the process was not given the CPU, or another thread
held the GIL).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Stall:
    """Stalls seen since the last report: how many lags passed the threshold, the worst, and
    (from a watch with `where=True`) where the loop was during the worst."""

    worst: float
    count: int
    where: str | None = None


def log_stall(stall: Stall) -> None:
    """The default report: a warning in the log."""
    at = "" if stall.where is None else f"; it was held at {stall.where}"
    log.warning("the event loop was blocked for up to %.0f ms (%d time%s over %.0f ms since "
                "the last warning): something ran on it without yielding%s",
                stall.worst * 1000, stall.count, "" if stall.count == 1 else "s",
                THRESHOLD * 1000, at)


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


class _Sampler(threading.Thread):
    """Notes where the loop's thread is while the watch is overdue (see the module docstring).
    Its tally is taken, and cleared, by the watch each time it wakes."""

    def __init__(self, watch: LoopWatch, loop_thread: int) -> None:
        super().__init__(name="loop-watch-sampler", daemon=True)
        self.watch = watch
        self.loop_thread = loop_thread
        self.halt = threading.Event()
        self._lock = threading.Lock()
        self._seen: Counter[str] = Counter()

    def run(self) -> None:
        watch = self.watch
        while not self.halt.wait(watch.interval):
            due = watch.due_at
            if due is None or time.monotonic() - due < watch.threshold / 2:
                continue
            frame = sys._current_frames().get(self.loop_thread)
            if frame is not None:
                where = place(frame)
                with self._lock:
                    self._seen[where] += 1
            del frame

    def take(self) -> str | None:
        """Where the loop was most often since the last take ("… (k of n looks)"), or None
        if the sampler did not look."""
        with self._lock:
            seen, self._seen = self._seen, Counter()
        if not seen:
            return None
        where, count = seen.most_common(1)[0]
        return f"{where} ({count} of {seen.total()} looks)"


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
        #: Where the loop was during the worst lag, if it passed the threshold and was seen.
        self.worst_where: str | None = None
        #: When (`time.monotonic()`) the watch should next wake; None while it is not asleep.
        self.due_at: float | None = None
        self._sampler: _Sampler | None = None
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
            self._task = asyncio.get_running_loop().create_task(self._watch(),
                                                                name="loop-watch")
            if self.where:
                self._sampler = _Sampler(self, threading.get_ident())
                self._sampler.start()

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
        self._report()

    def reset(self) -> None:
        """Count afresh from now: figures are cleared and the sleep in flight, which may have
        started before (say, while the loop was not running at all), is not counted."""
        self.worst = 0.0
        self.worst_where = None
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
        self.record(max(0.0, now - self._due), now, self._where())

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

    def record(self, lag: float, now: float, where: str | None = None) -> None:
        """Count one wake-up `lag` seconds late, seen at loop time `now`, with where the loop
        was meanwhile (if it was seen)."""
        self.samples += 1
        if lag > self.worst:
            self.worst = lag
            self.worst_where = where if lag > self.threshold else None
        self._histogram[math.ceil(lag * 1000)] += 1
        if lag > self.threshold:
            pending = self._pending
            if pending is None or lag > pending.worst:
                self._pending = Stall(lag, 1 if pending is None else pending.count + 1, where)
            else:
                self._pending = Stall(pending.worst, pending.count + 1, pending.where)
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
            await asyncio.sleep(self.interval)
            now = loop.time()
            where = self._where()
            if epoch == self._epoch:
                self.record(max(0.0, now - due), now, where)

    def _where(self) -> str | None:
        return None if self._sampler is None else self._sampler.take()
