"""Benchmarks run by `jongg bench TARGET`: figures with their goals, never timed tests.

Each target module has `run(quick, progress) -> BenchResult`; those that use the store
(`DATABASE_TARGETS`) take `database` too, "sqlite", "postgresql" or a URL (see
`bot.bench.databases`). A figure carries its goal and whether lower or higher is better, so
the report can print the ratio to the goal; `side_by_side` puts one target's runs on two
backends together, with each figure's ratio between them.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

ProgressCallback = Callable[[int, int], None]

#: target name -> module path; each module defines `run`.
TARGETS = {
    "cards": "bot.bench.cards",
    "discord": "bot.bench.discord",
    "engine": "bot.bench.engine",
    "hints": "bot.bench.hints",
    "league": "bot.bench.league",
    "loop": "bot.bench.loop",
    "prompts": "bot.bench.prompts",
    "render": "bot.bench.render",
    "store": "bot.bench.store",
}
#: The targets that measure the store, on the database `--database` names.
DATABASE_TARGETS = frozenset({"discord", "league", "store"})


@dataclass(frozen=True)
class Figure:
    """One measured number, with its unit and goal."""

    name: str
    value: float
    unit: str
    goal: float | None = None
    lower_is_better: bool = True

    @property
    def ratio(self) -> float | None:
        """How many times better than the goal (above 1 meets it), or None with no goal."""
        if self.goal is None or self.value == 0:
            return None
        return self.goal / self.value if self.lower_is_better else self.value / self.goal

    @property
    def meets_goal(self) -> bool | None:
        """Whether the figure reaches its goal (None with no goal); a figure of 0 against a
        ceiling meets it, though its ratio is not a number."""
        if self.goal is None:
            return None
        return self.value <= self.goal if self.lower_is_better else self.value >= self.goal


@dataclass(frozen=True)
class BenchResult:
    """A target's figures plus facts about what was measured."""

    target: str
    figures: tuple[Figure, ...]
    info: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict, with each figure's ratio and verdict."""
        return {
            "target": self.target,
            "info": self.info,
            "figures": [
                {**asdict(f), "ratio": f.ratio, "meets_goal": f.meets_goal}
                for f in self.figures
            ],
        }

    def as_text(self) -> str:
        """A readable table: figure, value, goal, ratio."""
        lines = [f"jongg bench {self.target}"]
        lines += [f"  {key}: {value}" for key, value in self.info.items()]
        for f in self.figures:
            goal = ""
            if f.goal is not None:
                sign = "<" if f.lower_is_better else ">"
                verdict = "meets goal" if f.meets_goal else "MISSES goal"
                ratio = "" if f.ratio is None else f"   x{f.ratio:.1f}"
                goal = f"   goal {sign} {f.goal:g} {f.unit}{ratio} {verdict}"
            lines.append(f"  {f.name:<34} {f.value:>12,.1f} {f.unit}{goal}")
        return "\n".join(lines)


@dataclass(frozen=True)
class SideBySide(BenchResult):
    """One target run on two backends: `figures` (what `--json` prints) are each figure of
    the first run, the same of the second, and the second's value over the first's (unit
    "x"); `pairs` keeps them paired, for the text's one line per figure."""

    labels: tuple[str, str] = ("", "")
    pairs: tuple[tuple[Figure, Figure], ...] = ()

    def as_text(self) -> str:
        """A table: figure, unit, each run's value, their ratio, each run's verdict."""
        first, second = self.labels
        width = max((len(a.name) for a, _ in self.pairs), default=0)
        lines = [f"jongg bench {self.target}: {first} and {second}"]
        lines += [f"  {key}: {value}" for key, value in self.info.items()]
        lines.append(f"  {'':<{width}} {'':<6} {first:>12} {second:>12} "
                     f"{second + ' / ' + first:>22}")
        for a, b in self.pairs:
            ratio = f"x{b.value / a.value:.2f}" if a.value else "-"
            goal = ""
            if a.goal is not None:
                sign = "<" if a.lower_is_better else ">"
                goal = (f"   goal {sign} {a.goal:g} {a.unit}: " + ", ".join(
                    "meets" if f.meets_goal else "MISSES" for f in (a, b)))
            lines.append(f"  {a.name:<{width}} {a.unit:<6} {a.value:>12,.1f} "
                         f"{b.value:>12,.1f} {ratio:>22}{goal}")
        return "\n".join(lines)


def side_by_side(first: tuple[str, BenchResult], second: tuple[str, BenchResult]
                 ) -> SideBySide:
    """One target's two runs, each with its label ("SQLite", "PostgreSQL"), as one result:
    figures paired by position (the same bench makes the same figures); info shared once,
    the rest by label."""
    (first_label, a), (second_label, b) = first, second
    info = {key: value for key, value in a.info.items() if b.info.get(key) == value}
    info.update({f"{label}: {key}": value for label, result in (first, second)
                 for key, value in result.info.items() if key not in info})
    pairs = tuple(zip(a.figures, b.figures, strict=True))
    figures: list[Figure] = []
    for x, y in pairs:
        figures += [replace(x, name=f"{x.name} [{first_label}]"),
                    replace(y, name=f"{y.name} [{second_label}]")]
        if x.value:
            figures.append(Figure(f"{x.name} [{second_label} / {first_label}]",
                                  y.value / x.value, "x"))
    return SideBySide(a.target, tuple(figures), info, (first_label, second_label), pairs)


class Steps:
    """A bench run's progress: each call counts one finished step and reports it. Arguments
    are ignored, so it also stands in where a part's own progress callback is expected."""

    def __init__(self, progress: ProgressCallback | None, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def __call__(self, *_: object) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total)


def percentile(samples: Sequence[float], q: float) -> float:
    """Nearest-rank percentile `q` (0-100) of `samples` (0 with no samples)."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def median_micros(calls: Iterable[Callable[[], object]],
                  progress: ProgressCallback | None = None, total: int = 0) -> float:
    """The median wall time of each call, in microseconds (one call per item)."""
    samples: list[float] = []
    for done, call in enumerate(calls, start=1):
        start = time.perf_counter_ns()
        call()
        samples.append((time.perf_counter_ns() - start) / 1000)
        if progress is not None and total:
            progress(done, total)
    return statistics.median(samples)
