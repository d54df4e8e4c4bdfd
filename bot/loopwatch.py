"""A loop-lag watchdog: how late the event loop wakes a task that asked to sleep.

A task sleeps `interval` (20 ms) over and over and records how much later than asked it woke.
That delay is time the loop spent in something that did not yield (a blocking call, a long
computation): meanwhile no interaction was answered, no message sent, in any server. The watch
keeps the worst lag and a histogram (1 ms buckets, so memory stays small however long it runs)
for percentiles, and reports stalls over `threshold` (250 ms) to `on_stall` at most once every
`report_every` seconds, with the worst lag since the last report. `jongg run` logs them as
warnings; the end-to-end tests fail a test whose worst lag passes the threshold.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

#: How often the watch wakes, and the lag it reports (seconds).
INTERVAL = 0.02
THRESHOLD = 0.25
#: At most one report in this many seconds.
REPORT_EVERY = 5.0


@dataclass(frozen=True)
class Stall:
    """Stalls seen since the last report: how many lags passed the threshold, and the worst."""

    worst: float
    count: int


def log_stall(stall: Stall) -> None:
    """The default report: a warning in the log."""
    log.warning("the event loop was blocked for up to %.0f ms (%d time%s over %.0f ms since "
                "the last warning): something ran on it without yielding",
                stall.worst * 1000, stall.count, "" if stall.count == 1 else "s",
                THRESHOLD * 1000)


class LoopWatch:
    """Watches the running event loop it is started on; see the module docstring."""

    def __init__(self, *, interval: float = INTERVAL, threshold: float = THRESHOLD,
                 report_every: float = REPORT_EVERY,
                 on_stall: Callable[[Stall], None] | None = log_stall) -> None:
        self.interval = interval
        self.threshold = threshold
        self.report_every = report_every
        self.on_stall = on_stall
        self.worst = 0.0
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

    async def stop(self) -> None:
        """Stop watching; a stall not yet reported is reported now."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._report()

    def reset(self) -> None:
        """Count afresh from now: figures are cleared and the sleep in flight, which may have
        started before (say, while the loop was not running at all), is not counted."""
        self.worst = 0.0
        self.samples = 0
        self._histogram.clear()
        self._pending = None
        self._epoch += 1

    def count_in_flight(self) -> None:
        """Count the sleep in flight as if it woke now. For a loop that has stopped running
        (pytest-asyncio stops it when the test returns): a stall just before it stopped is
        counted, although the watch will only wake once the loop runs again."""
        if self._due is None or self._clock is None:
            return
        now = self._clock()
        self._epoch += 1  # when it does wake, it is not counted twice
        self.record(max(0.0, now - self._due), now)

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

    def record(self, lag: float, now: float) -> None:
        """Count one wake-up `lag` seconds late, seen at loop time `now`."""
        self.samples += 1
        self.worst = max(self.worst, lag)
        self._histogram[math.ceil(lag * 1000)] += 1
        if lag > self.threshold:
            pending = self._pending
            self._pending = Stall(lag, 1) if pending is None else Stall(
                max(pending.worst, lag), pending.count + 1)
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
            await asyncio.sleep(self.interval)
            now = loop.time()
            if epoch == self._epoch:
                self.record(max(0.0, now - due), now)
