"""`jongg bench loop`: does checking and compiling a card stall the event loop?

The bot serves every server from one event loop, so work that holds it holds every answer.
This runs the check and compile of the most expensive card the compile budget accepts
(`costliest_card_text`: fourteen singles with alternatives, every combination distinct)

* (a) on the loop, as a plain call;
* (b) in a thread (`asyncio.to_thread`), which competes with the loop for the GIL, with the
  interpreter's GIL switch interval (5 ms) and (b1) with 1 ms;
* (c) in a process pool, whose matcher must come back pickled (measured on its own too),

while two probes watch the loop: a task sleeping 10 ms again and again (its lag is how late
it wakes) and another thread submitting a trivial coroutine every 10 ms (its round trip is
what an arriving interaction waits before the bot starts on it). It also times the shipped
card, and how fast a card of the old upload limits (250 hands near 5,000 combinations each)
is now refused.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import pickle
import statistics
import sys
import threading
import time
from collections.abc import Awaitable, Callable

from bot.bench import BenchResult, Figure, ProgressCallback, Steps
from bot.engine.cards import load_card
from bot.engine.cards.compile import MAX_VARIATIONS_PER_HAND
from bot.engine.cards.cost import MAX_CARD_COMBINATIONS, costliest_card_text
from bot.engine.cards.parser import MAX_HANDS
from bot.engine.errors import CardError
from bot.engine.matcher import CardMatcher
from bot.library import DEFAULT_CARD, shipped_card_paths
from bot.loopwatch import LoopWatch

#: How long the lag sampler sleeps between wake-ups, and how often the prober submits.
SLEEP = 0.010
#: Nothing over this should hold the loop (the design's budget for work on the loop).
LOOP_BUDGET_MS = 20.0


def compile_card(text: str) -> CardMatcher:
    """Check and compile a card from its text, with no cache (what a first use costs)."""
    return CardMatcher(load_card(text))


class Probes:
    """Watches a running loop two ways: `watch` (the bot's own `LoopWatch`, with a 10 ms
    sleeper: how late it wakes) and `trips` (seconds from another thread submitting a
    trivial coroutine to its result: what an arriving interaction waits)."""

    def __init__(self) -> None:
        self.watch = LoopWatch(interval=SLEEP, on_stall=None)
        self.trips: list[float] = []
        self._stop = threading.Event()
        self._prober: threading.Thread | None = None

    async def __aenter__(self) -> Probes:
        self.watch.start()
        self._prober = threading.Thread(target=self._probe, args=(asyncio.get_running_loop(),),
                                        daemon=True)
        self._prober.start()
        await asyncio.sleep(SLEEP)  # both probes are running before the work starts
        return self

    async def __aexit__(self, *_: object) -> None:
        self._stop.set()
        await self.watch.stop()
        if self._prober is not None:
            await asyncio.to_thread(self._prober.join)

    def _probe(self, loop: asyncio.AbstractEventLoop) -> None:
        async def nothing() -> None:
            return None

        while not self._stop.wait(SLEEP):
            start = time.perf_counter()
            future = asyncio.run_coroutine_threadsafe(nothing(), loop)
            try:
                future.result()
            except concurrent.futures.CancelledError:
                return  # the loop is closing
            self.trips.append(time.perf_counter() - start)


def _ms_max(samples: list[float]) -> float:
    return max(samples, default=0.0) * 1000


def _ms_p99(samples: list[float]) -> float:
    if len(samples) < 2:
        return _ms_max(samples)
    return statistics.quantiles(samples, n=100, method="inclusive")[98] * 1000


def _watched(job: Callable[[], Awaitable[object]], runs: int,
             tick: Callable[[], None]) -> tuple[Probes, float]:
    """Run `job` `runs` times on a fresh loop under the `Probes`; the probes and the
    slowest run's wall time in ms."""
    async def main() -> tuple[Probes, float]:
        slowest = 0.0
        async with Probes() as watch:
            for _ in range(runs):
                start = time.perf_counter()
                await job()
                slowest = max(slowest, time.perf_counter() - start)
                tick()
                await asyncio.sleep(SLEEP * 3)  # let the probes see the loop free again
        return watch, slowest * 1000

    return asyncio.run(main())


def _cpu_ms(call: Callable[[], object]) -> float:
    """The CPU time of one call, in ms (other load on the machine does not count)."""
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def run(quick: bool = False, progress: ProgressCallback | None = None) -> BenchResult:
    """Card compile on the loop, in a thread, in a process: the loop's lag and round trip."""
    costliest = costliest_card_text(MAX_CARD_COMBINATIONS)
    shipped = next(p for p in shipped_card_paths() if p.stem == DEFAULT_CARD).read_text()
    old_limit = costliest_card_text(MAX_HANDS * 2 ** (MAX_VARIATIONS_PER_HAND.bit_length() - 1))
    runs = 1 if quick else 3
    tick = Steps(progress, 5 * runs + 3)
    figures: list[Figure] = []
    info: dict[str, object] = {"quick": quick, "runs": runs, "sleeper_ms": SLEEP * 1000,
                               "budget_combinations": MAX_CARD_COMBINATIONS}

    for name, text in (("shipped card", shipped), ("costliest card", costliest)):
        check_ms = _cpu_ms(lambda text=text: load_card(text))
        matcher = compile_card(text)
        compile_ms = _cpu_ms(lambda text=text: compile_card(text)) - check_ms
        data = pickle.dumps(matcher, protocol=pickle.HIGHEST_PROTOCOL)
        figures += [Figure(f"{name}: check", check_ms, "CPU ms"),
                    Figure(f"{name}: compile", compile_ms, "CPU ms"),
                    Figure(f"{name}: matcher pickle", len(data) / 2**20, "MB"),
                    Figure(f"{name}: matcher unpickle", _cpu_ms(lambda d=data: pickle.loads(d)),
                           "CPU ms")]
        info[f"{name} variations"] = len(matcher.variations)
        tick()
    refuse_ms, refusal = _refusal(old_limit)
    figures.append(Figure("old-limit card: refused in", refuse_ms, "CPU ms"))
    info["old-limit card"] = refusal
    tick()

    async def idle() -> None:
        await asyncio.sleep(0.5)

    async def on_loop() -> None:
        compile_card(costliest)

    async def in_thread() -> None:
        await asyncio.to_thread(compile_card, costliest)

    spawn = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn) as pool:
        start = time.perf_counter()
        pool.submit(compile_card, shipped).result()
        info["process pool start, wall ms"] = round((time.perf_counter() - start) * 1000)

        async def in_process() -> None:
            await asyncio.get_running_loop().run_in_executor(pool, compile_card, costliest)

        # (mode, job, the interpreter's GIL switch interval while it runs)
        default = sys.getswitchinterval()
        modes: tuple[tuple[str, Callable[[], Awaitable[None]], float], ...] = (
            ("idle", idle, default), ("(a) on the loop", on_loop, default),
            ("(b) in a thread", in_thread, default),
            ("(b1) in a thread, 1 ms GIL switch", in_thread, 0.001),
            ("(c) in a process", in_process, default))
        for mode, job, interval in modes:
            sys.setswitchinterval(interval)
            try:
                watch, wall_ms = _watched(job, runs, tick)
            finally:
                sys.setswitchinterval(default)
            goal = None if mode == "(a) on the loop" else LOOP_BUDGET_MS
            figures += [
                Figure(f"{mode}: wall time", wall_ms, "ms"),
                Figure(f"{mode}: loop lag max", watch.watch.worst * 1000, "ms", goal=goal),
                Figure(f"{mode}: loop lag p99", watch.watch.percentile(99) * 1000, "ms",
                       goal=goal),
                Figure(f"{mode}: round trip max", _ms_max(watch.trips), "ms", goal=goal),
                Figure(f"{mode}: round trip p99", _ms_p99(watch.trips), "ms", goal=goal),
            ]
    return BenchResult("loop", tuple(figures), info)


def _refusal(text: str) -> tuple[float, str]:
    """How long the checker takes to refuse a card (ms), and the start of what it says."""
    start = time.process_time()
    try:
        load_card(text)
    except CardError as error:
        return (time.process_time() - start) * 1000, str(error.problems[-1])[:160] + "…"
    raise AssertionError("the card was accepted")
