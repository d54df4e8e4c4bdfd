"""Benchmarks run by `jongg bench TARGET`: figures with their goals, never timed tests.

Each target module has `run(quick, progress) -> BenchResult`; those that use the store
(`DATABASE_TARGETS`) take `database` too, "sqlite", "postgresql" or a URL (see
`bot.bench.databases`). A figure carries its goal and whether lower or higher is better, so
the report can print the ratio to the goal; `side_by_side` puts one target's runs on two
backends together, with each figure's ratio between them.
"""

from __future__ import annotations

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
        """Whether the figure reaches its goal (None with no goal)."""
        ratio = self.ratio
        return None if ratio is None else ratio >= 1


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


def side_by_side(runs: Sequence[tuple[str, BenchResult]]) -> BenchResult:
    """One target's runs, each with its label ("SQLite", "PostgreSQL"), as one result: each
    figure of each run under its label, then (for two runs) the second's value over the
    first's ("PostgreSQL / SQLite", above 1 when the second is the larger); info by label."""
    (first_label, first), *others = runs
    figures: list[Figure] = []
    info: dict[str, Any] = {}
    for label, result in runs:
        info.update({f"{label}: {key}": value for key, value in result.info.items()})
    for index, figure in enumerate(first.figures):
        figures.append(replace(figure, name=f"{figure.name} [{first_label}]"))
        for label, result in others:
            other = result.figures[index]
            figures.append(replace(other, name=f"{other.name} [{label}]"))
            if figure.value:
                figures.append(Figure(f"{other.name} [{label} / {first_label}]",
                                      other.value / figure.value, "x"))
    return BenchResult(first.target, tuple(figures), info)


class Steps:
    """A bench run's progress: each call counts one finished step and reports it. Arguments
    are ignored, so it also stands in where a part's own progress callback is expected."""

    def __init__(self, progress: ProgressCallback | None, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def __call__(self, *_: object) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total)


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
