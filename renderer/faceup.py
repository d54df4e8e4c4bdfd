"""What a seat's racks show face up, labelled: its exposures, or the Mah Jongg laid out on a
rack with a gap between its groups. The table picture shows every seat's racks this way and
the rack picture the player's own, so the two always agree.

Each rack gets a label line: "Exposed", "No exposures", "Mah Jongg …" (the hand), with the
rack named ("Rack 1: …") when the seat has two, and "dead" when it is. A Mah Jongg's winning
tile is ringed, and its label says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from renderer.canvas import DEAD, MUTED, Canvas, Color, TileRow, laid_lines_height, plain_groups
from renderer.fonts import Face
from renderer.scenes import LaidGroup, Rack
from renderer.text import wrap


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


def _groups(rack: Rack) -> tuple[LaidGroup, ...]:
    return rack.mahjong or plain_groups(rack.exposures)


def _label_lines(racks: Sequence[Rack], index: int, label: int, width: int) -> list[str]:
    """A rack's label wrapped to `width` (two lines at most), so it is never cut short."""
    return wrap(rack_label(racks[index], index, len(racks)), label, width, face=Face.BOLD,
                max_lines=2)


def _label_height(lines: Sequence[str], label: int) -> int:
    return len(lines) * label + (len(lines) - 1) * _label_gap(label) + _label_gap(label)


def faceup_height(racks: Sequence[Rack], row: TileRow, label: int, width: int) -> int:
    """The height `draw_faceup` uses for these racks."""
    height = 0
    for index, rack in enumerate(racks):
        groups = _groups(rack)
        height += _label_height(_label_lines(racks, index, label, width), label)
        if groups:
            height += laid_lines_height(groups, row, width) + _rack_gap(label)
    return height - (_rack_gap(label) if racks and _groups(racks[-1]) else 0)


def draw_faceup(canvas: Canvas, racks: Sequence[Rack], x: int, y: int, row: TileRow,
                label: int, width: int, ink: Color = MUTED) -> int:
    """Each rack's label, then its groups wrapped to `width`; returns the height used."""
    top = y
    for index, rack in enumerate(racks):
        colour = DEAD if rack.dead else ink
        lines = _label_lines(racks, index, label, width)
        for number, line in enumerate(lines):
            canvas.text((x, y + number * (label + _label_gap(label))), line, label, colour,
                        max_width=width, face=Face.BOLD, min_size=label)
        y += _label_height(lines, label)
        groups = _groups(rack)
        if groups:
            y += canvas.laid_lines(groups, x, y, row, width) + _rack_gap(label)
    return y - top - (_rack_gap(label) if racks and _groups(racks[-1]) else 0)


def _label_gap(label: int) -> int:
    return label * 2 // 5


def _rack_gap(label: int) -> int:
    return label * 3 // 5
