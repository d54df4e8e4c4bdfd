"""The phone rule, measured on what each picture really drew: every text and tile index
at least `MIN_CAP` pixels tall and every tile at least `MIN_TILE` wide once the picture is
shown `PHONE_WIDTH` pixels wide, for every kind of picture in the moments of a game that
matter; and nothing a player needs cut short with an ellipsis."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest
from gallery import pictures

import renderer
from bot.demo import demo_finished_royale_table, demo_finished_table
from renderer import render_table
from renderer.measure import MIN_CAP, MIN_TILE, PHONE_WIDTH, Drawing, recording
from renderer.text import ELLIPSIS

GALLERY = pictures()


@cache
def _drawings(name: str) -> tuple[Drawing, ...]:
    with recording() as drawings:
        pages = GALLERY[name]()
    assert len(drawings) == len(pages), "one drawing per picture or page"
    return tuple(drawings)


def test_the_gallery_has_every_kind_of_picture_at_every_table_size() -> None:
    kinds = {name.split(",")[0] for name in GALLERY}
    assert kinds == {"table", "rack", "analysis", "result", "card", "standings", "series"}
    for players in ("4p", "3p", "2p", "4p royale", "3p royale"):
        for moment in ("claim", "called", "own turn", "over"):
            assert f"table, {players} {moment}" in GALLERY
    assert "table, 4p charleston" in GALLERY and "table, 2p mah jongg shown" in GALLERY
    assert "table, 4p royale mah jongg shown" in GALLERY


@pytest.mark.parametrize("name", GALLERY)
def test_every_picture_reads_at_phone_width(name: str) -> None:
    for drawing in _drawings(name):
        assert drawing.texts, "the measure saw the picture's text"
        assert drawing.problems() == [], (
            f"{name} at {PHONE_WIDTH} px: text and tile indexes at least {MIN_CAP} px, "
            f"tiles at least {MIN_TILE} px wide")
        if name.startswith(("rack", "analysis")):
            assert drawing.tiles, "the measure saw the picture's tiles"


@pytest.mark.parametrize("name", GALLERY)
def test_nothing_is_cut_short(name: str) -> None:
    for drawing in _drawings(name):
        cut = [run.text for run in drawing.texts if ELLIPSIS in run.text]
        assert cut == [], f"{name} cuts {cut}"


def test_every_text_is_drawn_where_the_measure_sees_it() -> None:
    """Pictures draw text only through `Canvas.write` (tiles draw their own faces), so the
    legibility measure cannot miss a text."""
    folder = Path(renderer.__file__).parent
    for path in sorted(folder.glob("*.py")):
        if path.name in ("canvas.py", "tiles.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("text", "multiline_text"):
                assert not (isinstance(node.value, ast.Attribute)
                            and node.value.attr == "draw"), (
                    f"{path.name}:{node.lineno} draws text around the measure")


def test_a_finished_royale_table_is_about_as_tall_as_a_standard_one_on_a_phone() -> None:
    """Four seats of two racks each, with Mah Jonggs laid out and exposures on other racks:
    on a phone at most a quarter taller than the standard four-player table at the end of
    its game, with tiles as wide and indexes as tall as the phone rule asks."""
    royale_scene = demo_finished_royale_table()
    several = [rack for seat in royale_scene.seats for rack in seat.racks
               if len(rack.exposures) > 1 and not rack.mahjong]
    assert len(several) >= 2 and sum(bool(r.mahjong) for s in royale_scene.seats
                                     for r in s.racks) >= 3, "a full finished table"
    with recording() as drawings:
        render_table(demo_finished_table())
        render_table(royale_scene)
    standard, royale = drawings
    phone_height = royale.height * royale.phone_scale
    assert phone_height <= 1.25 * standard.height * standard.phone_scale, phone_height
    narrowest = royale.narrowest_tile()
    assert narrowest is not None and narrowest.width * royale.phone_scale >= MIN_TILE
    assert royale.problems() == [], "tile indexes and text legible at 400 px"
