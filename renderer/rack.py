"""A player's private rack picture: the concealed tiles sorted on a wooden rack with each
tile's code under it, the drawn tile set apart and ringed, then what each of the player's
racks shows face up, labelled.

This is the picture a player looks at most, usually on a phone where a 14-tile rack shows
about 400 pixels wide, so tiles are large and each carries its code (`3B`, `N`, `J`) to name
it in a command. In the Siamese-style game the concealed tiles are one pool serving both
racks, as the game holds them; they are laid out in rows of 14 and said to serve both racks,
and each rack's exposures or Mah Jongg are shown under its own name.
"""

from __future__ import annotations

from dataclasses import dataclass

from renderer.canvas import (
    FELT,
    HIGHLIGHT,
    LIGHT,
    MUTED,
    WOOD,
    WOOD_EDGE,
    Canvas,
    Scale,
    TileRow,
)
from renderer.codes import sort_tiles
from renderer.faceup import draw_faceup, faceup_height
from renderer.fonts import Face
from renderer.scenes import RackScene
from renderer.text import fit, wrap

#: The tile width at scale 1.
BASE_TILE = 64
#: Tiles on one row of the rack; the picture keeps room for a full row and a drawn tile,
#: so it keeps its width from turn to turn.
FULL_RACK = 14


@dataclass(frozen=True)
class _Metrics:
    """Every size in the rack picture, derived from the scale."""

    px: Scale

    @property
    def row(self) -> TileRow:
        return TileRow(self.px(BASE_TILE), self.px(4), self.px(14))

    @property
    def exposed_row(self) -> TileRow:
        return TileRow(self.px(60), self.px(3), self.px(16))

    @property
    def drawn_gap(self) -> int:
        return self.px(30)

    @property
    def margin(self) -> int:
        return self.px(22)

    @property
    def text(self) -> int:
        """Labels, the caption and the code under each tile: the smallest text."""
        return self.px(29)

    @property
    def title(self) -> int:
        return self.px(36)

    @property
    def ledge(self) -> int:
        """Height of the wooden ledge under the tiles, which carries the codes."""
        return self.px(42)

    @property
    def inner(self) -> int:
        """The width of the rack."""
        return self.row.tiles_width(FULL_RACK - 1) + self.drawn_gap + self.row.width

    @property
    def line_gap(self) -> int:
        return self.px(16)


def _places(scene: RackScene, m: _Metrics) -> list[tuple[str, int, int, bool]]:
    """Where each concealed tile goes: (code, x offset, row, is it the drawn tile), in rows
    of at most `FULL_RACK`, the drawn tile set apart after the last one."""
    row = m.row
    places = [(code, (i % FULL_RACK) * (row.width + row.gap), i // FULL_RACK, False)
              for i, code in enumerate(sort_tiles(scene.concealed))]
    if scene.drawn is not None:
        last = places[-1][2] if places else 0
        used = sum(1 for place in places if place[2] == last)
        x = row.tiles_width(used) + m.drawn_gap if used else 0
        if x + row.width > m.inner:
            last, x = last + 1, 0
        places.append((scene.drawn, x, last, True))
    return places


def _rows(scene: RackScene, m: _Metrics) -> int:
    places = _places(scene, m)
    return places[-1][2] + 1 if places else 1


def _caption_lines(scene: RackScene, m: _Metrics) -> list[str]:
    return wrap(scene.caption, m.text, m.inner, max_lines=3) if scene.caption else []


def pool_label(scene: RackScene) -> str:
    """The line that says a Siamese player's concealed tiles serve both racks ("" for one
    rack)."""
    if len(scene.racks) < 2:
        return ""
    count = len(scene.concealed) + (scene.drawn is not None)
    return f"Your {count} concealed tiles serve both racks"


def _header_height(scene: RackScene, m: _Metrics) -> int:
    height = m.title + m.px(10) if scene.name else 0
    height += len(_caption_lines(scene, m)) * (m.text + m.px(8))
    height += m.text + m.px(10) if pool_label(scene) else 0
    return height + m.px(14) if height else 0


def _rack_height(m: _Metrics) -> int:
    return m.row.height + m.ledge


def render_rack(scene: RackScene, *, scale: float = 1.0) -> bytes:
    """The rack picture as PNG bytes. `scale` 1 draws tiles 64 pixels wide."""
    m = _Metrics(Scale(scale))
    rows = _rows(scene, m)
    row = m.row
    faceup = faceup_height(scene.racks, m.exposed_row, m.text, m.inner)
    top = m.margin + m.px(8)
    height = (top + _header_height(scene, m) + rows * _rack_height(m)
              + (rows - 1) * m.line_gap + m.px(24) + faceup + m.margin)
    canvas = Canvas(m.inner + 2 * m.margin, height, FELT)
    x, y = m.margin, top
    if scene.name:
        canvas.text((x, y), scene.name, m.title, LIGHT, max_width=m.inner, face=Face.BOLD,
                    min_size=m.text)
        y += m.title + m.px(10)
    for caption in _caption_lines(scene, m):
        canvas.text((x, y), caption, m.text, HIGHLIGHT, max_width=m.inner, min_size=m.text)
        y += m.text + m.px(8)
    if pool_label(scene):
        canvas.text((x, y), pool_label(scene), m.text, MUTED, max_width=m.inner,
                    face=Face.BOLD, min_size=m.text)
        y += m.text + m.px(10)
    y += m.px(14) if _header_height(scene, m) else 0
    for line in range(rows):
        line_y = y + line * (_rack_height(m) + m.line_gap)
        ledge_top = line_y + row.height - m.px(10)
        canvas.draw.rounded_rectangle(
            (x - m.px(12), ledge_top, x + m.inner + m.px(12), line_y + _rack_height(m)),
            radius=m.px(10), fill=WOOD, outline=WOOD_EDGE, width=m.px(2))
    for code, offset, line, is_drawn in _places(scene, m):
        tile_x = x + offset
        line_y = y + line * (_rack_height(m) + m.line_gap)
        tile_y = line_y - m.px(8) if is_drawn else line_y
        if is_drawn:
            canvas.ring((tile_x, tile_y, tile_x + row.width, tile_y + row.height), HIGHLIGHT,
                        m.px(4), radius=m.px(9), meaning="drawn")
        canvas.tile(code, tile_x, tile_y, row.width)
        label = fit(code, m.text, row.width, face=Face.BOLD)
        canvas.write((tile_x + row.width / 2, line_y + row.height + m.ledge // 2 - m.px(2)),
                     label.text, label.font, HIGHLIGHT if is_drawn else LIGHT, "mm")
    y += rows * _rack_height(m) + (rows - 1) * m.line_gap + m.px(24)
    draw_faceup(canvas, scene.racks, x, y, m.exposed_row, m.text, m.inner)
    return canvas.png()
