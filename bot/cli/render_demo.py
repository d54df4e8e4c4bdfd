"""`jongg render-demo --out DIR`: write one of each picture the bot can send, from seeded
games.

Every picture comes the way the bot makes it, from seeded games (`bot.demo`): the same
pictures on every run, what `jongg bench render` times and what to look at after changing the
art. `--measure` also prints, per picture, its size, smallest text and tile as a
phone shows it, 400 pixels wide (see `renderer.measure`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from bot.cli.options import output_folder
from bot.demo import (
    demo_analysis,
    demo_called_table,
    demo_card,
    demo_charleston_table,
    demo_finished_royale_table,
    demo_finished_table,
    demo_hint,
    demo_rack,
    demo_result,
    demo_royale_table,
    demo_series,
    demo_siamese_hint,
    demo_siamese_rack,
    demo_siamese_table,
    demo_standings,
    demo_table,
    demo_three_player_table,
    demo_wall_game,
)
from bot.scenes import (
    page_names,
)
from renderer import (
    render_analysis,
    render_card_pages,
    render_rack,
    render_result,
    render_table,
)
from renderer.measure import PHONE_WIDTH, Drawing, recording
from renderer.series import render_series
from renderer.standings import render_standings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg render-demo`."""
    parser = subparsers.add_parser("render-demo", help="write one of each picture to a folder")
    parser.add_argument("--out", required=True, metavar="DIR", type=output_folder,
                        help="the folder to write the PNG files to (created if missing)")
    parser.add_argument("--measure", action="store_true",
                        help="also print each picture's smallest text and tile at 400 px wide")
    parser.set_defaults(handler=run)


def _one(png: bytes) -> tuple[bytes, ...]:
    return (png,)


#: Picture name -> the function that renders it: one PNG, or the pages of a card sheet.
DEMOS: dict[str, Callable[[], tuple[bytes, ...]]] = {
    "rack": lambda: _one(render_rack(demo_rack())),
    "rack-siamese": lambda: _one(render_rack(demo_siamese_rack())),
    "table": lambda: _one(render_table(demo_table())),
    "table-called": lambda: _one(render_table(demo_called_table())),
    "table-charleston": lambda: _one(render_table(demo_charleston_table())),
    "table-3-players": lambda: _one(render_table(demo_three_player_table())),
    "table-siamese": lambda: _one(render_table(demo_siamese_table())),
    "table-royale": lambda: _one(render_table(demo_royale_table())),
    "table-over": lambda: _one(render_table(demo_finished_table())),
    "table-royale-over": lambda: _one(render_table(demo_finished_royale_table())),
    "card": lambda: render_card_pages(demo_card()),
    "card-private": lambda: render_card_pages(demo_card(private=True)),
    "analysis": lambda: _one(render_analysis(demo_analysis())),
    "hint": lambda: _one(render_analysis(demo_hint())),
    "hint-siamese": lambda: _one(render_analysis(demo_siamese_hint())),
    "result": lambda: _one(render_result(demo_result())),
    "wall-game": lambda: _one(render_result(demo_wall_game())),
    "series": lambda: _one(render_series(demo_series())),
    "standings": lambda: _one(render_standings(demo_standings())),
}


def _figures(drawing: Drawing) -> str:
    """A picture's size, smallest text and tile when shown `PHONE_WIDTH` pixels wide."""
    scale = drawing.phone_scale
    text, index, tile = (drawing.smallest_text(), drawing.smallest_index(),
                         drawing.narrowest_tile())
    parts = [f"{PHONE_WIDTH}x{round(drawing.height * scale)}"]
    if text is not None:
        parts.append(f"text {text.cap * scale:.1f} px ({text.text[:20]!r})")
    if index is not None and index.index_cap is not None:
        parts.append(f"tile index {index.index_cap * scale:.1f} px")
    if tile is not None:
        parts.append(f"tile {tile.width * scale:.1f} px wide")
    problems = drawing.problems()
    parts.append(f"{len(problems)} below the rule" if problems else "legible")
    return ", ".join(parts)


def run(args: argparse.Namespace) -> int:
    """Write every demo picture and list them (with their phone figures if asked)."""
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for name, render in DEMOS.items():
        with recording() as drawings:
            pages = render()
        for path, data, drawing in zip([out / f for f in page_names(name, len(pages))],
                                       pages, drawings, strict=True):
            path.write_bytes(data)
            print(f"{path}  ({len(data) // 1024} KB)")
            if args.measure:
                print(f"    at {PHONE_WIDTH} px: {_figures(drawing)}")
    return 0
