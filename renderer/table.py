"""The public table picture, laid out for a phone: a header with whose turn it is and the
last tile thrown, every seat with its name, wind, marks, hidden tiles and what its racks show,
and the discards grouped by tile.

Seats are stacked as rows rather than placed round a square, so names and exposures read
the right way up on a phone. A seat with two racks shows them in little height
(`renderer.faceup.pair_layout`), so a finished table of four such seats stays about as tall
as a table of one-rack seats. Discards are a fixed grid, one place per tile kind (Bams,
Craks, Dots, then winds, dragons, flowers and jokers) with how many of each are out, so "how
many 5 Dots are gone?" is answered at a glance. Hidden tiles are only ever drawn as backs from a
count: the scene cannot carry their codes.
"""

from __future__ import annotations

from collections import Counter
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
)
from renderer.codes import DRAGON_CODES, SUITED_CODES, WIND_CODES, tile_name
from renderer.faceup import PairLayout, draw_faceup, faceup_height, pair_layout
from renderer.fonts import Face
from renderer.scenes import CharlestonStep, Latest, SeatScene, TableScene
from renderer.text import wrap

#: The picture's width at scale 1.
BASE_WIDTH = 760
#: The discards grid: one row per suit, then the honours; a place for every kind.
GRID = (SUITED_CODES[0:9], SUITED_CODES[9:18], SUITED_CODES[18:27],
        (*WIND_CODES, *DRAGON_CODES, "F", "J"))
#: Face-down tiles per row of a seat's hidden tiles.
BACKS_PER_ROW = 14
MULTIPLY = "\u00d7"
#: The outline of a discards grid place no tile of its kind has reached: barely there.
EMPTY_PLACE = "#20503e"
#: The badge of the seat that plays next while a discard may still be called.
NEXT = "#efe0a8"


@dataclass(frozen=True)
class _Metrics(PageMetrics):
    """Every size in the table picture, derived from the scale."""

    WIDTH = BASE_WIDTH
    MARGIN = 16
    PAD = 14

    @property
    def inner(self) -> int:
        """Width inside a panel."""
        return self.width - 2 * self.margin - 2 * self.pad

    @property
    def exposed(self) -> TileRow:
        return TileRow(self.px(46), self.px(3), self.px(16))

    @property
    def paired(self) -> TileRow:
        """The face-up tiles of a seat with two racks: a little smaller and closer, so a
        rack's whole Mah Jongg fits on one line."""
        return TileRow(self.px(44), self.px(2), self.px(10))

    @property
    def discard(self) -> TileRow:
        return TileRow(self.px(52), 0, 0)

    @property
    def latest_tile(self) -> TileRow:
        return TileRow(self.px(50), 0, 0)

    @property
    def back_width(self) -> int:
        return self.px(22)

    @property
    def back_step(self) -> int:
        """How far each face-down tile is from the one before (they overlap)."""
        return self.px(12)

    @property
    def name_size(self) -> int:
        return self.px(27)

    @property
    def text(self) -> int:
        """The smallest text in the picture."""
        return self.px(22)

    @property
    def seat_head(self) -> int:
        """Height of a seat's first line (wind disc, name, marks)."""
        return self.px(42)


def _back_rows(count: int) -> int:
    return max(1, -(-count // BACKS_PER_ROW))


def _backs_height(seat: SeatScene, m: _Metrics) -> int:
    back = TileRow(m.back_width, 0, 0).height
    return _back_rows(seat.concealed_count) * (back + m.px(4)) - m.px(4)


def _head_height(seat: SeatScene, m: _Metrics) -> int:
    return max(m.seat_head, _backs_height(seat, m))


def _pair(seat: SeatScene, m: _Metrics) -> PairLayout | None:
    """How a seat with two racks lays them out; None for a seat with one."""
    return pair_layout(seat.racks, m.paired, m.text, m.inner) if len(seat.racks) > 1 else None


def _seat_height(seat: SeatScene, m: _Metrics) -> int:
    pair = _pair(seat, m)
    body = pair.height if pair else faceup_height(seat.racks, m.exposed, m.text, m.inner)
    return m.pad * 2 + _head_height(seat, m) + m.px(10) + body


def _badges(scene: TableScene, index: int) -> list[Badge]:
    """The marks after a seat's name: whose turn (or who is next while calls are open),
    whose picture, bots and dead hands."""
    seat = scene.seats[index]
    on_turn = scene.turn == index
    marks: list[tuple[bool, Badge]] = [
        (on_turn and not scene.calls_open, ("TURN", HIGHLIGHT, HIGHLIGHT_INK)),
        (on_turn and scene.calls_open, ("NEXT", NEXT, HIGHLIGHT_INK)),
        (scene.viewer == index, ("YOU", LIGHT, PANEL)),
        (seat.bot, ("BOT", BOT, LIGHT)),
        (seat.dead, ("DEAD", DEAD, LIGHT)),
    ]
    return [badge for on, badge in marks if on]


def _draw_backs(canvas: Canvas, seat: SeatScene, right: int, y: int, m: _Metrics) -> int:
    """The seat's hidden tiles as backs, every one of them, in rows right-aligned at
    `right`, with their count to the left; returns the left x of the count."""
    count = seat.concealed_count
    back_h = TileRow(m.back_width, 0, 0).height
    per_row = min(count, BACKS_PER_ROW)
    left = right - (max(0, per_row - 1) * m.back_step + m.back_width) if count else right
    for row in range(_back_rows(count)):
        shown = min(BACKS_PER_ROW, count - row * BACKS_PER_ROW)
        canvas.backs(shown, left, y + row * (back_h + m.px(4)), m.back_width,
                     m.back_width - m.back_step)
    lines = [f"{count} tile{'s' if count != 1 else ''}"]
    if len(seat.racks) > 1:
        lines.append("both racks")
    mid = y + _backs_height(seat, m) // 2
    widest = 0.0
    for index, line in enumerate(lines):
        line_mid = mid + round((index - (len(lines) - 1) / 2) * m.text * 1.2)
        widest = max(widest, canvas.text((left - m.px(10), line_mid), line, m.text, MUTED,
                                         max_width=m.px(200), anchor="rm"))
    return left - m.px(10) - round(widest)


def _draw_seat(canvas: Canvas, scene: TableScene, index: int, y: int, m: _Metrics) -> int:
    seat = scene.seats[index]
    height = _seat_height(seat, m)
    left = m.margin
    right = m.width - m.margin
    is_turn = scene.turn == index and not scene.calls_open
    canvas.panel((left, y, right, y + height), outline=HIGHLIGHT if is_turn else PANEL_EDGE,
                 width=m.px(4) if is_turn else m.px(2), radius=m.px(14))
    x = left + m.pad
    top = y + m.pad
    head = _head_height(seat, m)
    head_mid = top + head // 2
    disc = m.px(40)
    canvas.draw.ellipse((x, head_mid - disc // 2, x + disc, head_mid + disc // 2),
                        fill=LIGHT if seat.wind else MUTED)
    canvas.text((x + disc / 2, head_mid), seat.wind or "?", m.px(24), PANEL, max_width=disc,
                face=Face.BOLD, anchor="mm")
    x += disc + m.px(12)
    backs_left = _draw_backs(canvas, seat, right - m.pad,
                             top + (head - _backs_height(seat, m)) // 2, m)
    canvas.name_line(x, head_mid, seat.name, m.name_size, _badges(scene, index), m.text,
                     backs_left - x - m.px(12))
    pair = _pair(seat, m)
    if pair:
        pair.draw(canvas, left + m.pad, top + head + m.px(10))
    else:
        draw_faceup(canvas, seat.racks, left + m.pad, top + head + m.px(10), m.exposed,
                    m.text, m.inner)
    return height


def status_line(scene: TableScene) -> str:
    """The header's first line: what the table is waiting for."""
    if scene.charleston is not None:
        return "The Charleston: pass three tiles"
    if scene.over:
        return "The game is over"
    if scene.turn is None:
        return ""
    name = scene.seats[scene.turn].name
    return f"{name} plays next" if scene.calls_open else f"{name} to play"


def latest_line(scene: TableScene, latest: Latest) -> str:
    """The header's second line: the last tile thrown, who took it if it was called (and
    whether for Mah Jongg), and whether it may still be called."""
    thrower = scene.seats[latest.by].name
    tile = tile_name(latest.code)
    if latest.taken_by is not None:
        taker = scene.seats[latest.taken_by].name
        if latest.mahjong:
            return f"{taker} went Mah Jongg on {thrower}'s {tile}"
        return f"{taker} called {thrower}'s {tile}"
    return f"{thrower} discarded {tile}" + (": calls are open" if scene.calls_open else "")


def _header_lines(scene: TableScene, m: _Metrics) -> tuple[list[str], list[str]]:
    """The header's status and latest-tile sentences, each wrapped to the room beside the
    latest tile (two lines at most), so a long name is never cut short."""
    room = m.width - 2 * (m.margin + m.px(4))
    room -= m.latest_tile.width + m.px(14) if scene.latest is not None else m.px(170)
    status = wrap(status_line(scene), m.px(25), room, face=Face.BOLD, max_lines=2)
    latest = (wrap(latest_line(scene, scene.latest), m.text, room, max_lines=2)
              if scene.latest is not None else [])
    return status, latest


def _header_height(scene: TableScene, m: _Metrics) -> int:
    status, latest = _header_lines(scene, m)
    height = m.px(40) + max(1, len(status)) * m.px(34) + len(latest) * (m.text + m.px(10))
    if scene.latest is not None:
        height = max(height, m.px(40) + m.latest_tile.height)
        height += m.px(6)
    if scene.charleston is not None:
        height += m.text + m.px(14)
    return height + m.px(6)


def _draw_charleston(canvas: Canvas, step: CharlestonStep, x: int, y: int, width: int,
                     m: _Metrics) -> None:
    size = m.text
    pip = m.px(16)
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
                size, HIGHLIGHT, max_width=width - pips - m.px(8), face=Face.BOLD,
                min_size=size)


def _draw_header(canvas: Canvas, scene: TableScene, m: _Metrics) -> int:
    x = m.margin + m.px(4)
    y = m.margin
    width = m.width - 2 * x
    wall_w = m.px(170)
    back_w = m.px(28)
    back_h = TileRow(back_w, 0, 0).height
    right = m.width - x
    canvas.back(right - back_w, y, back_w)
    canvas.text((right - back_w - m.px(10), y + back_h // 2 - m.px(11)), str(scene.wall),
                m.px(30), LIGHT, max_width=wall_w, face=Face.BOLD, anchor="rm")
    canvas.text((right - back_w - m.px(10), y + back_h // 2 + m.px(16)), "in the wall",
                m.text, MUTED, max_width=wall_w, anchor="rm")
    canvas.text((x, y), scene.title or "Table", m.px(32), LIGHT, max_width=width - wall_w,
                face=Face.BOLD, min_size=m.px(24))
    y += m.px(40)
    text_x = x
    if scene.latest is not None:
        row = m.latest_tile
        canvas.tile(scene.latest.code, x, y, row.width)
        if scene.latest.taken_by is None and scene.calls_open:
            canvas.ring((x, y, x + row.width, y + row.height), HIGHLIGHT, m.px(3),
                        radius=m.px(6), meaning="latest")
        text_x = x + row.width + m.px(14)
    room = width - (text_x - x) - (wall_w if scene.latest is None else 0)
    status, latest = _header_lines(scene, m)
    line_y = y + m.px(2)
    for line in status:
        canvas.text((text_x, line_y), line, m.px(25), LIGHT, max_width=room, face=Face.BOLD,
                    min_size=m.text)
        line_y += m.px(34)
    for line in latest:
        canvas.text((text_x, line_y), line, m.text, HIGHLIGHT, max_width=room,
                    min_size=m.text)
        line_y += m.text + m.px(10)
    if scene.charleston is not None:
        top = m.margin + _header_height(scene, m) - m.text - m.px(14)
        _draw_charleston(canvas, scene.charleston, x, top, width, m)
    return _header_height(scene, m)


def _grid(scene: TableScene) -> tuple[tuple[str, ...], ...]:
    """The rows of the discards grid: the fixed rows, and Blanks if any were thrown."""
    extra = tuple(sorted({code for code in scene.discards if code not in _GRID_CODES}))
    return (*GRID, extra) if extra else GRID


_GRID_CODES = frozenset(code for row in GRID for code in row)


def _cell(m: _Metrics) -> tuple[int, int]:
    """A grid place's width and height: a tile with its count under it."""
    return m.inner // len(GRID[0]), m.discard.height + m.text + m.px(12)


def _discards_height(scene: TableScene, m: _Metrics) -> int:
    head = 2 * m.pad + m.px(26) + m.px(12)
    if not scene.discards:
        return head + m.text
    return head + len(_grid(scene)) * _cell(m)[1]


def _draw_discards(canvas: Canvas, scene: TableScene, y: int, m: _Metrics) -> None:
    left = m.margin
    height = _discards_height(scene, m)
    canvas.panel((left, y, m.width - m.margin, y + height), fill=PANEL, radius=m.px(14))
    x0 = left + m.pad
    top = y + m.pad
    canvas.text((x0, top), f"Discards ({len(scene.discards)})", m.px(25), LIGHT,
                max_width=m.inner, face=Face.BOLD)
    top += m.px(26) + m.px(12)
    if not scene.discards:
        canvas.text((x0, top), "No discards yet", m.text, MUTED, max_width=m.inner)
        return
    counts = Counter(scene.discards)
    latest = scene.latest
    lying = latest.code if latest is not None and latest.taken_by is None else None
    cell_w, cell_h = _cell(m)
    row = m.discard
    for line, codes in enumerate(_grid(scene)):
        for column, code in enumerate(codes):
            tx = x0 + column * cell_w + (cell_w - row.width) // 2
            ty = top + line * cell_h
            if not counts[code]:
                canvas.draw.rounded_rectangle((tx, ty, tx + row.width, ty + row.height),
                                              radius=m.px(6), outline=EMPTY_PLACE,
                                              width=m.px(2))
                continue
            canvas.tile(code, tx, ty, row.width)
            if code == lying:
                canvas.ring((tx, ty, tx + row.width, ty + row.height), HIGHLIGHT, m.px(4),
                            radius=m.px(6), meaning="latest")
            if counts[code] > 1:
                canvas.text((tx + row.width / 2, ty + row.height + m.px(4)),
                            f"{MULTIPLY}{counts[code]}", m.text, LIGHT, max_width=cell_w,
                            face=Face.BOLD, anchor="ma")


def render_table(scene: TableScene, *, scale: float = 1.0) -> bytes:
    """The table picture as PNG bytes. `scale` 1 makes it 760 pixels wide."""
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
