"""A small progress reporter for long commands (benchmarks, simulations, card balance).

On a terminal it redraws one line; elsewhere (CI logs, pipes) it prints a line every tenth of
the way, so logs show progress without thousands of lines.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Report `done` out of `total` steps of a named task on stderr."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None) -> None:
        self.label = label
        self.total = max(total, 1)
        self.stream = stream if stream is not None else sys.stderr
        self.interactive = self.stream.isatty()
        self.started = time.perf_counter()
        self._last_tenth = -1

    def __call__(self, done: int, total: int | None = None) -> None:
        """Record progress; usable directly as a `(done, total)` callback."""
        if total is not None:
            self.total = max(total, 1)
        fraction = min(done / self.total, 1.0)
        elapsed = time.perf_counter() - self.started
        if self.interactive:
            filled = int(fraction * 30)
            bar = "#" * filled + "-" * (30 - filled)
            self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total} {elapsed:5.1f}s")
            if done >= self.total:
                self.stream.write("\n")
            self.stream.flush()
            return
        tenth = int(fraction * 10)
        if tenth > self._last_tenth:
            self._last_tenth = tenth
            self.stream.write(f"{self.label}: {done}/{self.total} ({elapsed:.1f}s)\n")
            self.stream.flush()
