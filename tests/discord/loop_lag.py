"""The loop-lag watchdog in every end-to-end test (a pytest plugin the conftest takes in).

`loop_lag`, automatic for every end-to-end test (a coroutine using `fake_discord`), runs
`bot.loopwatch.LoopWatch` on the test's own event loop, which is the bot's too (the fake
Discord has a loop of its own), and counts
the lags of the test's call only: pytest-asyncio stops that loop between fixtures and the
test, so the sleep in flight when the call starts is not counted (`LoopWatch.reset`), and the
one in flight when it ends is counted up to then (`LoopWatch.count_in_flight`). A test
whose code held the loop over `LIMIT` (250 ms) fails, with the lag in the message and where
the loop was held (the watch's `where`). The machine's share of a lag is not the code's: on
Linux, the time the loop's thread waited for a CPU (CI's two cores under a parallel suite);
elsewhere, a lag during which the loop was idle in `select`. It fails nothing; the summary
lists a lag over the limit that its machine's share took there. Each test's worst
lag and p99 go with the test's report (its `user_properties`, which pytest-xdist carries from
a worker to the controller), and pytest's terminal summary gives the largest over the run and
where, for a run in one process or in several.

A test that stalls the loop on purpose (to show what a stall does) is marked
`@pytest.mark.stalls_loop`: its lag is measured and listed apart, and never fails it.
"""

from __future__ import annotations

import gc
import inspect
from collections.abc import AsyncIterator, Generator
from dataclasses import dataclass

import pytest

from bot.loopwatch import THRESHOLD, LoopWatch

#: The worst loop lag an end-to-end test may show (seconds): `jongg run`'s warning threshold.
LIMIT = THRESHOLD
#: How many of the largest lags the summary lists.
SHOWN = 5
#: The fixture that makes a test end-to-end: a bot may run on its loop. (Other coroutine
#: tests here, of prompt layouts say, run no loop worth watching.)
FAKE = "fake_discord"


@dataclass(frozen=True)
class Lag:
    """One test's loop lag: the worst and the 99th percentile (seconds), where the loop was
    held during the worst (if that passed the limit), the worst that code held it, and the
    machine's share of the worst lag."""

    worst: float
    p99: float
    on_purpose: bool
    where: str | None
    held: float
    machine: float


WATCH = pytest.StashKey[LoopWatch]()
LAGS = pytest.StashKey[dict[str, Lag]]()
#: The name of a test report's user property that carries its loop lag.
PROPERTY = "loop_lag"


class _Collector:
    """Keeps each watched test's lag as its call's report arrives (in the process that
    reports: the only one, or pytest-xdist's controller)."""

    def __init__(self, lags: dict[str, Lag]) -> None:
        self.lags = lags

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call":
            return
        for name, value in report.user_properties:
            if name == PROPERTY:
                worst, p99, on_purpose, where, held, machine = value
                self.lags[report.nodeid] = Lag(float(worst), float(p99), bool(on_purpose),
                                               None if where is None else str(where),
                                               float(held), float(machine))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "stalls_loop: the test blocks the event loop on "
                                       "purpose; its loop lag is reported but not held to "
                                       "the limit")
    config.stash[LAGS] = {}
    config.pluginmanager.register(_Collector(config.stash[LAGS]), "jongg-loop-lags")


@pytest.fixture(autouse=True)
async def loop_lag(request: pytest.FixtureRequest) -> AsyncIterator[LoopWatch | None]:
    """The watchdog on the test's loop (None for a test that is not end-to-end)."""
    if not inspect.iscoroutinefunction(request.function) or FAKE not in request.fixturenames:
        yield None
        return
    # What earlier tests left behind (hundreds of thousands of objects late in the suite,
    # several times a bot process's heap) is left out of garbage collection while this test
    # runs: a full collection walks every tracked object with the GIL held, and would stall
    # the loop 300-400 ms for reasons that are not this test's. (`jongg run` freezes its
    # start-up heap the same way.)
    gc.collect()
    gc.freeze()
    watch = LoopWatch(threshold=LIMIT, on_stall=None, where=True)
    watch.start()
    request.node.stash[WATCH] = watch
    try:
        yield watch
    finally:
        await watch.stop()
        gc.unfreeze()


def verdict(watch: LoopWatch) -> str | None:
    """Why a test with these lags fails, or None if it passes."""
    if watch.worst_held <= LIMIT:
        return None
    at = ("" if watch.worst_where is None
          else f"; the loop was held at {watch.worst_where}")
    return (f"the event loop stalled for {watch.worst_held * 1000:.0f} ms (limit "
            f"{LIMIT * 1000:.0f} ms; p99 {watch.percentile(99) * 1000:.0f} ms): something "
            f"ran on the loop the bot and the test share without yielding{at}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    watch = item.stash.get(WATCH, None)
    if watch is None:
        return (yield)
    on_purpose = item.get_closest_marker("stalls_loop") is not None
    watch.reset()
    try:
        outcome = yield
    finally:
        watch.count_in_flight()  # a stall that ended the test
        item.user_properties.append((PROPERTY, (watch.worst, watch.percentile(99),
                                                on_purpose, watch.worst_where,
                                                watch.worst_held, watch.worst_machine)))
    failure = None if on_purpose else verdict(watch)
    if failure is not None:
        pytest.fail(failure, pytrace=False)
    return outcome


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    lags = terminalreporter.config.stash.get(LAGS, {})
    if not lags:
        return
    write = terminalreporter.write_line
    terminalreporter.section("event loop lag (end-to-end tests)")
    # Ranked by how long code held the loop; a lag the machine's share took over the limit
    # is listed after.
    held = {test: lag for test, lag in lags.items() if not lag.on_purpose}
    if held:
        ranked = sorted(held, key=lambda test: held[test].held, reverse=True)
        worst = ranked[0]
        p99 = max(held, key=lambda test: held[test].p99)
        write(f"largest loop lag: {held[worst].held * 1000:.0f} ms in {worst}")
        if held[worst].where is not None:
            write(f"  held at {held[worst].where}")
        write(f"largest p99: {held[p99].p99 * 1000:.0f} ms in {p99}")
        write(f"{len(held)} tests watched, limit {LIMIT * 1000:.0f} ms; the largest lags:")
        for test in ranked[:SHOWN]:
            write(f"  {held[test].held * 1000:4.0f} ms  {test}")
    for test, lag in lags.items():
        if not lag.on_purpose and lag.worst > LIMIT >= lag.worst - lag.machine:
            write(f"the machine's share (the loop not given a CPU, not failed): "
                  f"{lag.machine * 1000:.0f} ms of a {lag.worst * 1000:.0f} ms lag in {test}")
        if lag.on_purpose:
            write(f"stalls on purpose (not held to the limit): {lag.worst * 1000:.0f} ms in "
                  f"{test}" + ("" if lag.where is None else f", held at {lag.where}"))


__all__ = ["loop_lag", "pytest_configure", "pytest_runtest_call", "pytest_terminal_summary"]
