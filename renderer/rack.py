"""A player's private rack picture: concealed tiles sorted on a wooden rack with each tile's
code under it, the drawn tile set apart, and the exposures on a row above.

This is the picture a player looks at most, usually on a phone where a 14-tile rack shows
about 400 pixels wide, so tiles are large and each carries its code (`3B`, `N`, `J`) to name
it in a command.
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
    plain_groups,
)
from renderer.codes import sort_tiles
from renderer.fonts import Face
from renderer.scenes import Rack, RackScene
from renderer.text import fit

#: The tile width at scale 1.
BASE_TILE = 64
#: Room for a full rack, so a rack picture keeps its width from turn to turn.
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
        return TileRow(self.px(BASE_TILE * 0.78), self.px(3), self.px(14))

    @property
    def drawn_gap(self) -> int:
        return self.px(30)

    @property
    def margin(self) -> int:
        return self.px(22)

    @property
    def label_size(self) -> int:
        return self.px(20)

    @property
    def code_size(self) -> int:
        """Text size of the code under each tile."""
        return self.px(24)

    @property
    def caption_size(self) -> int:
        return self.px(24)

    @property
    def ledge(self) -> int:
        """Height of the wooden ledge under the tiles, which carries the codes."""
        return self.px(38)


def _rack_width(rack: Rack, m: _Metrics) -> int:
    count = len(rack.concealed)
    tiles = m.row.tiles_width(count)
    if rack.drawn is not None:
        tiles += m.drawn_gap + m.row.width
    full = m.row.tiles_width(FULL_RACK - 1) + m.drawn_gap + m.row.width
    exposed = m.exposed_row.groups_width([len(g) for g in rack.exposures])
    return max(tiles, full, exposed)


def _rack_height(rack: Rack, m: _Metrics) -> int:
    height = m.row.height + m.ledge
    if rack.label:
        height += m.label_size + m.px(10)
    if rack.exposures:
        height += m.label_size + m.px(6) + m.exposed_row.height + m.px(14)
    return height


def _draw_rack(canvas: Canvas, rack: Rack, x: int, y: int, width: int, m: _Metrics) -> None:
    small = m.label_size
    if rack.label:
        canvas.text((x, y), rack.label, small, MUTED, max_width=width, face=Face.BOLD)
        y += small + m.px(10)
    if rack.exposures:
        canvas.text((x, y), "Exposed", small, MUTED, max_width=width)
        y += small + m.px(6)
        canvas.laid(plain_groups(rack.exposures), x, y, m.exposed_row)
        y += m.exposed_row.height + m.px(14)
    row = m.row
    ledge_top = y + row.height - m.px(10)
    canvas.draw.rounded_rectangle(
        (x - m.px(12), ledge_top, x + width + m.px(12), y + row.height + m.ledge),
        radius=m.px(10), fill=WOOD, outline=WOOD_EDGE, width=m.px(2))
    codes = list(sort_tiles(rack.concealed))
    positions = [x + i * (row.width + row.gap) for i in range(len(codes))]
    if rack.drawn is not None:
        drawn_x = x + max(row.tiles_width(len(codes)), 0) + m.drawn_gap
        codes.append(rack.drawn)
        positions.append(drawn_x)
    label_y = y + row.height + m.ledge // 2 - m.px(2)
    for index, (code, tile_x) in enumerate(zip(codes, positions, strict=True)):
        is_drawn = rack.drawn is not None and index == len(codes) - 1
        tile_y = y - m.px(8) if is_drawn else y
        if is_drawn:
            canvas.ring((tile_x, tile_y, tile_x + row.width, tile_y + row.height), HIGHLIGHT,
                        m.px(4), radius=m.px(9))
        canvas.tile(code, tile_x, tile_y, row.width)
        label = fit(code, m.code_size, row.width, face=Face.BOLD)
        canvas.draw.text((tile_x + row.width / 2, label_y), label.text, font=label.font,
                         fill=HIGHLIGHT if is_drawn else LIGHT, anchor="mm")


def render_rack(scene: RackScene, *, scale: float = 1.0) -> bytes:
    """The rack picture as PNG bytes. `scale` 1 draws tiles 64 pixels wide."""
    m = _Metrics(Scale(scale))
    inner = max(_rack_width(rack, m) for rack in scene.racks)
    title_size = m.px(34)
    header = 0
    if scene.name:
        header += title_size + m.px(8)
    if scene.caption:
        header += m.caption_size + m.px(8)
    if header:
        header += m.px(10)
    gap = m.px(26)
    body = sum(_rack_height(rack, m) for rack in scene.racks) + gap * (len(scene.racks) - 1)
    top = m.margin + m.px(8)
    canvas = Canvas(inner + 2 * m.margin, top + header + body + m.margin, FELT)
    y = top
    if scene.name:
        canvas.text((m.margin, y), scene.name, title_size, LIGHT, max_width=inner,
                    face=Face.BOLD, min_size=m.px(22))
        y += title_size + m.px(8)
    if scene.caption:
        canvas.text((m.margin, y), scene.caption, m.caption_size, HIGHLIGHT, max_width=inner,
                    min_size=m.px(18))
        y += m.caption_size + m.px(8)
    if header:
        y += m.px(10)
    for rack in scene.racks:
        _draw_rack(canvas, rack, m.margin, y, inner, m)
        y += _rack_height(rack, m) + gap
    return canvas.png()
