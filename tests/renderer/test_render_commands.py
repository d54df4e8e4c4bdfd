"""`jongg render-demo` writes every picture; `jongg bench render` measures them."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.bench.render import run as bench_run
from bot.cli import render_demo


def test_render_demo_writes_every_picture_and_page_with_its_phone_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    render_demo.register(parser.add_subparsers())
    args = parser.parse_args(["render-demo", "--out", str(tmp_path / "demo"), "--measure"])
    assert args.handler(args) == 0
    written = sorted(p.name for p in (tmp_path / "demo").iterdir())
    for name in render_demo.DEMOS:
        pages = [f for f in written if f == f"{name}.png" or re.fullmatch(rf"{name}-\d+\.png", f)]
        assert pages, f"{name} was not written"
    assert len(written) > len(render_demo.DEMOS), "the card sheets are in pages"
    for name in written:
        with Image.open(tmp_path / "demo" / name) as image:
            assert image.format == "PNG"
    # Every picture the bot can send, the Royale table, hint, series and standings too.
    assert {"table-royale", "hint", "series", "standings"} <= render_demo.DEMOS.keys()
    figures = [line for line in capsys.readouterr().out.splitlines() if "at 400 px" in line]
    assert len(figures) == len(written)
    assert all(line.endswith("legible") for line in figures), figures
    # Sizes as the phone shows them, 400 px wide, not the picture's own.
    assert all(re.search(r"at 400 px: 400x\d+,", line) for line in figures), figures


def test_bench_render_reports_time_and_size_figures() -> None:
    result = bench_run(quick=True)
    names = [figure.name for figure in result.figures]
    assert names == ["rack, median", "table, median", "card sheet, median", "rack PNG",
                     "table PNG", "card sheet PNG"]
    assert all(figure.value > 0 for figure in result.figures)
    assert result.as_json()["target"] == "render"
