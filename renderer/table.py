"""The public table picture: every seat with its name, wind, marks, hidden tile count and
exposures; the discards in order with the latest one highlighted; the wall; whose turn it
is; and the Charleston step while tiles are being passed.

Seats are stacked as rows rather than placed round a square, so names and exposures read
the right way up on a phone. Hidden tiles are only ever drawn as backs from a count: the
scene cannot carry their codes.
"""

from __future__ import annotations

from dataclasses import dataclass

from renderer.canvas import (
    BOT,
    DEAD,
    FELT,
    HIGHLIGHT,
    HIGHLIGHT_INK,
    LIGHT,
    MUTED,
    PANEL,
    PANEL_EDGE,
    Badge,
    Canvas,
    PageMetrics,
    Scale,
    TileRow,
    laid_lines_height,
    plain_groups,
)
from renderer.codes import tile_name
from renderer.fonts import Face
from renderer.scenes import CharlestonStep, SeatScene, TableScene
from renderer.text import short

#: The picture's width at scale 1.
BASE_WIDTH = 960
#: Face-down tiles drawn per rack before the rest is left to the count.
MAX_BACKS = 14


@dataclass(frozen=True)
class _Metrics(PageMetrics):
    """Every size in the table picture, derived from the scale."""

    WIDTH = BASE_WIDTH
    MARGIN = 18
    PAD = 14

    @property
    def inner(self) -> int:
        """Width inside a panel."""
        return self.width - 2 * self.margin - 2 * self.pad

    @property
    def exposed(self) -> TileRow:
        return TileRow(self.px(44), self.px(3), self.px(14))

    @property
    def discard(self) -> TileRow:
        return TileRow(self.px(42), self.px(4), 0)

    @property
    def back_width(self) -> int:
        return self.px(20)

    @property
    def back_overlap(self) -> int:
        return self.px(7)

    @property
    def name_size(self) -> int:
        return self.px(24)

    @property
    def small(self) -> int:
        return self.px(17)

    @property
    def seat_head(self) -> int:
        """Height of a seat's first line (wind disc, name, marks)."""
        return self.px(40)


def _backs_height(seat: SeatScene, m: _Metrics) -> int:
    back = TileRow(m.back_width, 0, 0).height
    return len(seat.concealed_counts) * back + (len(seat.concealed_counts) - 1) * m.px(4)


def _exposures_height(seat: SeatScene, m: _Metrics) -> int:
    if not seat.exposures:
        return m.small + m.px(4)
    return laid_lines_height(plain_groups(seat.exposures), m.exposed, m.inner)


def _seat_height(seat: SeatScene, m: _Metrics) -> int:
    head = max(m.seat_head, _backs_height(seat, m))
    return m.pad * 2 + head + m.px(10) + _exposures_height(seat, m)


def _badges(scene: TableScene, index: int) -> list[Badge]:
    """The marks after a seat's name: whose turn, whose picture, bots and dead hands."""
    seat = scene.seats[index]
    marks: list[tuple[bool, Badge]] = [
        (scene.turn == index, ("TURN", HIGHLIGHT, HIGHLIGHT_INK)),
        (scene.viewer == index, ("YOU", LIGHT, PANEL)),
        (seat.bot, ("BOT", BOT, LIGHT)),
        (seat.dead, ("DEAD", DEAD, LIGHT)),
    ]
    return [badge for on, badge in marks if on]


def _draw_backs(canvas: Canvas, seat: SeatScene, right: int, y: int, m: _Metrics) -> int:
    """Each rack's hidden tiles as backs, right-aligned at `right`; returns their left x."""
    back_h = TileRow(m.back_width, 0, 0).height
    step = m.back_width - m.back_overlap
    widest = 0
    for count in seat.concealed_counts:
        widest = max(widest, min(count, MAX_BACKS) * step + m.back_overlap)
    left = right - widest
    for row, count in enumerate(seat.concealed_counts):
        shown = min(count, MAX_BACKS)
        row_y = y + row * (back_h + m.px(4))
        canvas.backs(shown, right - shown * step - m.back_overlap, row_y, m.back_width,
                     m.back_overlap)
    total = sum(seat.concealed_counts)
    counts = " + ".join(str(count) for count in seat.concealed_counts)
    label = f"{counts} tile{'s' if total != 1 else ''}"
    label_y = y + _backs_height(seat, m) // 2
    width = canvas.text((left - m.px(10), label_y), label, m.small, MUTED,
                        max_width=m.px(150), anchor="rm")
    return left - m.px(10) - round(width)


def _draw_seat(canvas: Canvas, scene: TableScene, index: int, y: int, m: _Metrics) -> int:
    seat = scene.seats[index]
    height = _seat_height(seat, m)
    left = m.margin
    right = m.width - m.margin
    is_turn = scene.turn == index
    canvas.panel((left, y, right, y + height), outline=HIGHLIGHT if is_turn else PANEL_EDGE,
                 width=m.px(4) if is_turn else m.px(2), radius=m.px(14))
    x = left + m.pad
    top = y + m.pad
    head_mid = top + m.seat_head // 2
    disc = m.px(36)
    wind = seat.wind or "?"
    canvas.draw.ellipse((x, head_mid - disc // 2, x + disc, head_mid + disc // 2),
                        fill=LIGHT if seat.wind else MUTED)
    canvas.text((x + disc / 2, head_mid), wind, m.px(20), PANEL, max_width=disc,
                face=Face.BOLD, anchor="mm")
    x += disc + m.px(12)
    backs_left = _draw_backs(canvas, seat, right - m.pad, top + max(
        0, (m.seat_head - _backs_height(seat, m)) // 2), m)
    room = backs_left - x - m.px(12)
    note_room = min(m.px(220), room // 3) if seat.note else 0
    x = canvas.name_line(x, head_mid, seat.name, m.name_size, _badges(scene, index),
                         m.px(14), room - note_room)
    if seat.note and backs_left - x > m.px(40):
        canvas.text((x, head_mid), seat.note, m.small, MUTED, max_width=backs_left - x
                    - m.px(12), anchor="lm")
    body_y = top + max(m.seat_head, _backs_height(seat, m)) + m.px(10)
    if seat.exposures:
        canvas.laid_lines(plain_groups(seat.exposures), left + m.pad, body_y, m.exposed,
                          m.inner)
    else:
        canvas.text((left + m.pad, body_y), "No exposures", m.small, MUTED, max_width=m.inner)
    return height


def _header_height(scene: TableScene, m: _Metrics) -> int:
    height = m.px(30) + m.px(8) + m.px(20) + m.px(6)
    if scene.charleston is not None:
        height += m.small + m.px(16)
    return height


def _status(scene: TableScene) -> str:
    if scene.charleston is not None:
        return "The Charleston: pass three tiles"
    if scene.turn is None:
        return ""
    seat = scene.seats[scene.turn]
    return f"{short(seat.name)} to play"


def _draw_charleston(canvas: Canvas, step: CharlestonStep, x: int, y: int, width: int,
                     m: _Metrics) -> None:
    size = m.small
    pip = m.px(14)
    gap = m.px(6)
    pips = step.steps * (pip + gap)
    for i in range(step.steps):
        px = x + i * (pip + gap)
        box = (px, y + (size - pip) // 2 + m.px(3), px + pip, y + (size + pip) // 2 + m.px(3))
        if i + 1 < step.step:
            canvas.draw.ellipse(box, fill=MUTED)
        elif i + 1 == step.step:
            canvas.draw.ellipse(box, fill=HIGHLIGHT)
        else:
            canvas.draw.ellipse(box, outline=MUTED, width=m.px(2))
    canvas.text((x + pips + m.px(8), y), f"{step.label} (step {step.step} of {step.steps})",
                size, HIGHLIGHT, max_width=width - pips - m.px(8), face=Face.BOLD)


def _draw_header(canvas: Canvas, scene: TableScene, m: _Metrics) -> int:
    x = m.margin + m.px(4)
    y = m.margin
    width = m.width - 2 * x
    wall_w = m.px(200)
    back_w = m.px(26)
    back_h = TileRow(back_w, 0, 0).height
    canvas.back(m.width - x - back_w, y, back_w)
    canvas.text((m.width - x - back_w - m.px(10), y + back_h // 2 - m.px(9)), str(scene.wall),
                m.px(26), LIGHT, max_width=wall_w, face=Face.BOLD, anchor="rm")
    canvas.text((m.width - x - back_w - m.px(10), y + back_h // 2 + m.px(14)), "in the wall",
                m.px(14), MUTED, max_width=wall_w, anchor="rm")
    title = scene.title or "Table"
    canvas.text((x, y), title, m.px(28), LIGHT, max_width=width - wall_w, face=Face.BOLD,
                min_size=m.px(20))
    y += m.px(30) + m.px(8)
    canvas.text((x, y), _status(scene), m.px(20), LIGHT, max_width=width - wall_w)
    y += m.px(20) + m.px(6)
    if scene.charleston is not None:
        y += m.px(10)
        _draw_charleston(canvas, scene.charleston, x, y, width, m)
    return _header_height(scene, m)


def _discard_lines(scene: TableScene, m: _Metrics) -> tuple[int, int]:
    per_line = max(1, (m.inner + m.discard.gap) // (m.discard.width + m.discard.gap))
    return -(-len(scene.discards) // per_line), per_line


def _discards_height(scene: TableScene, m: _Metrics) -> int:
    lines, _ = _discard_lines(scene, m)
    head = 2 * m.pad + m.px(22) + m.px(12)
    if not lines:
        return head + m.small
    return head + lines * (m.discard.height + m.px(8)) + m.small + m.px(4)


def _draw_discards(canvas: Canvas, scene: TableScene, y: int, m: _Metrics) -> None:
    left = m.margin
    height = _discards_height(scene, m)
    canvas.panel((left, y, m.width - m.margin, y + height), fill=PANEL, radius=m.px(14))
    x0 = left + m.pad
    top = y + m.pad
    canvas.text((x0, top), f"Discards ({len(scene.discards)})", m.px(20), LIGHT,
                max_width=m.inner, face=Face.BOLD)
    top += m.px(22) + m.px(12)
    if not scene.discards:
        canvas.text((x0, top), "No discards yet", m.small, MUTED, max_width=m.inner)
        return
    _, per_line = _discard_lines(scene, m)
    row = m.discard
    last = len(scene.discards) - 1
    for i, code in enumerate(scene.discards):
        tx = x0 + (i % per_line) * (row.width + row.gap)
        ty = top + (i // per_line) * (row.height + m.px(8))
        if i == last:
            canvas.ring((tx, ty, tx + row.width, ty + row.height), HIGHLIGHT, m.px(4),
                        radius=m.px(6))
        canvas.tile(code, tx, ty, row.width)
    lines, _ = _discard_lines(scene, m)
    note_y = top + lines * (row.height + m.px(8)) + m.px(4)
    latest = f"Latest: {tile_name(scene.discards[-1])}"
    if scene.latest_by is not None:
        latest += f" from {short(scene.seats[scene.latest_by].name)}"
    canvas.text((x0, note_y), latest, m.small, HIGHLIGHT, max_width=m.inner, face=Face.BOLD)


def render_table(scene: TableScene, *, scale: float = 1.0) -> bytes:
    """The table picture as PNG bytes. `scale` 1 makes it 960 pixels wide."""
    m = _Metrics(Scale(scale))
    gap = m.px(10)
    seats_height = sum(_seat_height(seat, m) + gap for seat in scene.seats)
    height = (m.margin + _header_height(scene, m) + m.px(10) + seats_height
              + _discards_height(scene, m) + m.margin)
    canvas = Canvas(m.width, height, FELT)
    y = m.margin + _draw_header(canvas, scene, m) + m.px(10)
    for index in range(len(scene.seats)):
        y += _draw_seat(canvas, scene, index, y, m) + gap
    _draw_discards(canvas, scene, y, m)
    return canvas.png()
