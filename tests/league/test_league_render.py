"""The standings picture: PNG bytes, the same for the same scene, any names."""

from __future__ import annotations

import io

from PIL import Image

from renderer.standings import StandingsRow, StandingsScene, render_standings


def scene(rows: int, name: str = "Player") -> StandingsScene:
    return StandingsScene(
        title="Tuesday Club · Season 1", subtitle="4 players · tournament scoring",
        rows=tuple(StandingsRow(None if i > 5 else i + 1, f"{name} {i}", 10, 2, 100 - 40 * i,
                                round((100 - 40 * i) / 10, 1), None if i == 0 else 3.25)
                   for i in range(rows)),
        footer="Rating = skill estimate")


def test_the_picture_is_a_png_sized_by_its_rows() -> None:
    small = Image.open(io.BytesIO(render_standings(scene(3))))
    big = Image.open(io.BytesIO(render_standings(scene(30))))
    assert small.format == "PNG" and small.width == big.width == 640
    assert big.height > small.height
    assert render_standings(scene(3)) == render_standings(scene(3))
    assert Image.open(io.BytesIO(render_standings(scene(3), scale=2))).width == 1280


def test_empty_standings_and_odd_names_still_draw() -> None:
    empty = StandingsScene("T", "S", ())
    assert render_standings(empty).startswith(b"\x89PNG")
    odd = scene(4, name="\u202eאבג 🀄\x00" + "W" * 300)
    assert render_standings(odd).startswith(b"\x89PNG")
