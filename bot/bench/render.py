"""`jongg bench render`: how long the renderer takes and how big its PNGs are.

It times the demo scenes of `jongg render-demo` (a 14-tile rack with exposures, a four-seat
table mid-game, our card's sheet in all its pages). Tile sprites are cached per size, so the
first picture pays for drawing them; that warm-up is reported separately and the figures are
medians of the calls after it, as a bot serving a table sees them. The card sheet's size is
that of its largest page.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.bench import BenchResult, Figure, ProgressCallback, Steps, median_micros
from bot.demo import demo_card, demo_rack, demo_table
from renderer import render_card_pages, render_rack, render_table

#: The largest PNG we are willing to send to Discord, in KB.
MAX_PNG_KB = 250


def run(quick: bool = False, progress: ProgressCallback | None = None) -> BenchResult:
    """Measure median render time and PNG size of a rack, a table and a card sheet."""
    rack, table, card = demo_rack(), demo_table(), demo_card()
    jobs: list[tuple[str, Callable[[], tuple[bytes, ...]], float | None]] = [
        ("rack", lambda: (render_rack(rack),), 15),
        ("table", lambda: (render_table(table),), 40),
        ("card sheet", lambda: render_card_pages(card), None),
    ]
    start = time.perf_counter()
    sizes = {name: max(len(png) for png in job()) for name, job, _ in jobs}
    warm_ms = (time.perf_counter() - start) * 1000
    runs = 5 if quick else 40
    steps = runs * len(jobs)
    tick = Steps(progress, steps)

    figures: list[Figure] = []
    for name, job, goal_ms in jobs:
        micros = median_micros((job for _ in range(runs)), tick, steps)
        figures.append(Figure(f"{name}, median", micros / 1000, "ms", goal=goal_ms))
    for name, _, _ in jobs:
        figures.append(Figure(f"{name} PNG", sizes[name] / 1024, "KB", goal=MAX_PNG_KB))
    info = {
        "scenes": "jongg render-demo: rack (13 tiles + drawn), table (4 seats, 25 discards), "
                  "card sheet (our card, every page)",
        "first_render_ms": round(warm_ms, 1),
        "runs_per_picture": runs,
        "quick": quick,
    }
    return BenchResult("render", tuple(figures), info)
