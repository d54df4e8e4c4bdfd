"""`jongg render-demo` writes every picture; `jongg bench render` measures them."""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from bot.bench.render import run as bench_run
from bot.commands import render_demo


def test_render_demo_writes_one_png_per_picture(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    render_demo.register(parser.add_subparsers())
    args = parser.parse_args(["render-demo", "--out", str(tmp_path / "demo")])
    assert args.handler(args) == 0
    written = sorted(p.name for p in (tmp_path / "demo").iterdir())
    assert written == sorted(render_demo.DEMOS)
    for name in written:
        with Image.open(tmp_path / "demo" / name) as image:
            assert image.format == "PNG"


def test_bench_render_reports_time_and_size_figures() -> None:
    result = bench_run(quick=True)
    names = [figure.name for figure in result.figures]
    assert names == ["rack, median", "table, median", "card sheet, median", "rack PNG",
                     "table PNG", "card sheet PNG"]
    assert all(figure.value > 0 for figure in result.figures)
    assert result.as_json()["target"] == "render"
