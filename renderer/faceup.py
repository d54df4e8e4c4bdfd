"""What a seat's racks show face up, labelled: its exposures, or the Mah Jongg laid out on a
rack with a gap between its groups. The table picture shows every seat's racks this way and
the rack picture the player's own, so the two always agree.

Each rack gets a label: "Exposed", "No exposures", "Mah Jongg …" (the hand), with the rack
named ("Rack 1: …") when the seat has two, and "dead" when it is. A Mah Jongg's winning tile
is ringed, and its label says so.

One rack is shown as its label line over its tiles. The table lays out a seat's two racks
compactly (`pair_layout`), so that a table of two-rack seats stays short on a phone: a rack
whose tiles fit beside its name shows them on that one line ("Rack 2:" then its exposures),
two such racks share a line, and only a rack that needs the whole width (a Mah Jongg) has
its label on a line of its own above its tiles.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from renderer.canvas import (
    DEAD,
    MUTED,
    Canvas,
    Color,
    TileRow,
    laid_height,
    laid_lines_height,
    plain_groups,
)
from renderer.fonts import Face
from renderer.scenes import LaidGroup, Rack
from renderer.text import fit, wrap


def rack_label(rack: Rack, index: int, racks: int) -> str:
    """The line over a rack's face-up tiles."""
    if rack.mahjong:
        what = f"Mah Jongg {rack.hand}" if rack.hand else "Mah Jongg"
        if any(group.winning is not None for group in rack.mahjong):
            what += ", winning tile ringed"
    elif rack.exposures:
        what = "Exposed"
    else:
        what = "No exposures"
    if rack.dead:
        what += " (dead hand)"
    return f"Rack {index + 1}: {what}" if racks > 1 else what


def _tag(rack: Rack, index: int) -> str:
    """A rack's name before its tiles on their line: `Rack 2:`, `Rack 2 (dead hand):`."""
    return f"Rack {index + 1}" + (" (dead hand)" if rack.dead else "") + ":"


def _groups(rack: Rack) -> tuple[LaidGroup, ...]:
    return rack.mahjong or plain_groups(rack.exposures)


def _label_lines(racks: Sequence[Rack], index: int, label: int, width: int) -> list[str]:
    """A rack's label wrapped to `width` (two lines at most), so it is never cut short."""
    return wrap(rack_label(racks[index], index, len(racks)), label, width, face=Face.BOLD,
                max_lines=2)


def _label_height(lines: Sequence[str], label: int) -> int:
    return len(lines) * label + (len(lines) - 1) * _label_gap(label) + _label_gap(label)


def _block_height(racks: Sequence[Rack], index: int, row: TileRow, label: int,
                  width: int) -> int:
    """The height of one rack drawn by `_draw_block`: its label lines, then its tiles."""
    groups = _groups(racks[index])
    height = _label_height(_label_lines(racks, index, label, width), label)
    return height + (laid_lines_height(groups, row, width) if groups else 0)


def _draw_block(canvas: Canvas, racks: Sequence[Rack], index: int, x: int, y: int,
                row: TileRow, label: int, width: int, ink: Color) -> None:
    """One rack as its label lines over its groups, wrapped to `width`."""
    rack = racks[index]
    colour = DEAD if rack.dead else ink
    lines = _label_lines(racks, index, label, width)
    for number, line in enumerate(lines):
        canvas.text((x, y + number * (label + _label_gap(label))), line, label, colour,
                    max_width=width, face=Face.BOLD, min_size=label)
    groups = _groups(rack)
    if groups:
        canvas.laid_lines(groups, x, y + _label_height(lines, label), row, width)


def faceup_height(racks: Sequence[Rack], row: TileRow, label: int, width: int) -> int:
    """The height `draw_faceup` uses for these racks."""
    heights = [_block_height(racks, index, row, label, width) for index in range(len(racks))]
    return sum(heights) + _rack_gap(label) * sum(bool(_groups(rack)) for rack in racks[:-1])


def draw_faceup(canvas: Canvas, racks: Sequence[Rack], x: int, y: int, row: TileRow,
                label: int, width: int, ink: Color = MUTED) -> int:
    """Each rack's label, then its groups wrapped to `width`; returns the height used."""
    top = y
    for index, rack in enumerate(racks):
        _draw_block(canvas, racks, index, x, y, row, label, width, ink)
        y += _block_height(racks, index, row, label, width)
        if _groups(rack) and index < len(racks) - 1:
            y += _rack_gap(label)
    return y - top


# -- a two-rack seat at the table -----------------------------------------------------------

@dataclass(frozen=True)
class _Piece:
    """One rack of a two-rack seat, `x` pixels from the left of its line: on that one line
    (`inline`: its tag, then its tiles if any), or as a block of label lines over tiles."""

    index: int
    inline: str | None
    width: int
    height: int
    x: int = 0


@dataclass(frozen=True)
class PairLayout:
    """A two-rack seat's racks on lines: each line holds one rack, or both racks side by
    side (the second at the middle of the line when there is room for it there)."""

    racks: tuple[Rack, ...]
    lines: tuple[tuple[_Piece, ...], ...]
    row: TileRow
    label: int
    width: int

    @property
    def height(self) -> int:
        """The height `draw` uses."""
        return sum(_line_height(line) for line in self.lines) + _rack_gap(self.label) * (
            len(self.lines) - 1)

    def draw(self, canvas: Canvas, x: int, y: int, ink: Color = MUTED) -> None:
        """Draw the racks with their top-left corner at (x, y)."""
        for line in self.lines:
            tiles = any(piece.inline is not None and _groups(self.racks[piece.index])
                        for piece in line)
            mid = y + (self.row.height if tiles else self.label) // 2
            for piece in line:
                rack = self.racks[piece.index]
                if piece.inline is None:
                    _draw_block(canvas, self.racks, piece.index, x, y, self.row, self.label,
                                self.width, ink)
                    continue
                used = canvas.text((x + piece.x, mid), piece.inline, self.label,
                                   DEAD if rack.dead else ink, max_width=piece.width,
                                   face=Face.BOLD, anchor="lm")
                if _groups(rack):
                    canvas.laid(_groups(rack), x + piece.x + round(used) + _tag_gap(self.label),
                                y, self.row)
            y += _line_height(line) + _rack_gap(self.label)


def _line_height(line: Sequence[_Piece]) -> int:
    return max(piece.height for piece in line)


def _piece(racks: Sequence[Rack], index: int, row: TileRow, label: int, width: int) -> _Piece:
    """A rack on one line when its tag and tiles fit in `width`, else as a block."""
    rack = racks[index]
    groups = _groups(rack)
    text = _tag(rack, index) if groups else rack_label(rack, index, len(racks))
    inline = math.ceil(fit(text, label, 10_000, face=Face.BOLD).width)  # its whole width
    if groups:
        inline += _tag_gap(label) + row.groups_width([len(group.tiles) for group in groups])
    if inline <= width:
        return _Piece(index, text, inline, laid_height(row, groups) if groups else label)
    return _Piece(index, None, width, _block_height(racks, index, row, label, width))


def pair_layout(racks: Sequence[Rack], row: TileRow, label: int, width: int) -> PairLayout:
    """A seat's two racks laid out in `width`: side by side on one line when both fit on
    it, else one under the other."""
    first, second = (_piece(racks, index, row, label, width) for index in range(2))
    gap = _pair_gap(label)
    if first.inline and second.inline and first.width + gap + second.width <= width:
        beside = replace(second, x=max((width + gap) // 2, first.width + gap))
        return PairLayout(tuple(racks), ((first, beside),), row, label, width)
    return PairLayout(tuple(racks), ((first,), (second,)), row, label, width)


def _label_gap(label: int) -> int:
    return label * 2 // 5


def _rack_gap(label: int) -> int:
    return label * 3 // 5


def _tag_gap(label: int) -> int:
    """Between a rack's tag and its tiles on one line."""
    return label // 2


def _pair_gap(label: int) -> int:
    """Between two racks side by side."""
    return label * 2
