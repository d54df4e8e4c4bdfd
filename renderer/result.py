"""The end of a game: the winning hand laid out as on the card, group by group with the
winning tile ringed, its score breakdown and what every seat won or paid; or, when nobody
won, a summary with the hands shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from renderer.canvas import (
    BAD,
    BOT,
    DEAD,
    FELT,
    GOOD,
    HIGHLIGHT,
    HIGHLIGHT_INK,
    LIGHT,
    MUTED,
    PANEL,
    PAPER,
    PAPER_INK,
    PAPER_MUTED,
    RULE,
    Badge,
    Canvas,
    PageMetrics,
    Scale,
    TileRow,
    laid_hand,
    laid_lines_height,
)
from renderer.card import draw_card_line
from renderer.codes import tile_name
from renderer.fonts import Face
from renderer.scenes import ResultScene, ResultSeat
from renderer.text import short, wrap

#: The picture's width at scale 1.
BASE_WIDTH = 760
MINUS = "\u2212"


@dataclass(frozen=True)
class _Metrics(PageMetrics):
    """Every size in the result picture, derived from the scale."""

    WIDTH = BASE_WIDTH
    MARGIN = 18
    PAD = 16

    @property
    def win_row(self) -> TileRow:
        return TileRow(self.px(48), self.px(3), self.px(18))

    @property
    def seat_row(self) -> TileRow:
        return TileRow(self.px(46), self.px(2), self.px(14))

    @property
    def text(self) -> int:
        """The smallest text in the picture."""
        return self.px(22)

    @property
    def line(self) -> int:
        """Height of one line of text in the breakdown and payment lists."""
        return self.px(34)

    @property
    def room(self) -> int:
        """The width inside a panel."""
        return self.inner - 2 * self.pad


def winning_tile_line(scene: ResultScene) -> str:
    """The line under the winning hand that says which tile won (the ringed one)."""
    for group in scene.groups:
        if group.winning is not None:
            return f"Winning tile: {tile_name(group.tiles[group.winning])} (ringed)"
    return ""


def _winning_height(scene: ResultScene, m: _Metrics) -> int:
    if scene.winner is None:
        return 0
    height = 2 * m.pad + m.px(30)
    if scene.card_line:
        height += m.px(44)
    if scene.groups:
        height += m.px(10) + laid_lines_height(scene.groups, m.win_row, m.room)
    if winning_tile_line(scene):
        height += m.px(10) + m.text
    return height + m.px(16)


def _seat_height(seat: ResultSeat, m: _Metrics) -> int:
    groups = laid_hand(seat.tiles, seat.exposures)
    hand = laid_lines_height(groups, m.seat_row, m.room) if groups else 0
    return m.line + (hand + m.px(8) if groups else 0)


def _amount(value: int) -> tuple[str, str]:
    """The amount with its sign spelled out (not by colour alone), and its colour."""
    if value > 0:
        return f"+{value}", GOOD
    if value < 0:
        return f"{MINUS}{-value}", BAD
    return "0", MUTED


def _draw_winning(canvas: Canvas, scene: ResultScene, y: int, m: _Metrics) -> int:
    height = _winning_height(scene, m) - m.px(16)
    left, right = m.margin, m.width - m.margin
    canvas.panel((left, y, right, y + height), fill=PAPER, outline=RULE, radius=m.px(12))
    x = left + m.pad
    top = y + m.pad
    canvas.text((x, top), scene.hand_label or "Winning hand", m.px(24), PAPER_INK,
                max_width=m.room, face=Face.BOLD, min_size=m.text)
    top += m.px(30)
    if scene.card_line:
        draw_card_line(canvas, scene.card_line, x, top + m.px(22), m.px(30), m.room,
                       min_size=m.text)
        top += m.px(44)
    if scene.groups:
        top += m.px(10)
        top += canvas.laid_lines(scene.groups, x, top, m.win_row, m.room)
    if winning_tile_line(scene):
        canvas.text((x, top + m.px(10)), winning_tile_line(scene), m.text, PAPER_MUTED,
                    max_width=m.room, face=Face.BOLD, min_size=m.text)
    return height + m.px(16)


def _breakdown_lines(scene: ResultScene, m: _Metrics) -> list[tuple[list[str], str]]:
    """Each breakdown item's label wrapped to the room its value leaves, and its value."""
    return [(wrap(item.label, m.text, m.room - (m.px(90) if item.value else 0), max_lines=4),
             item.value) for item in scene.breakdown]


def _breakdown_height(scene: ResultScene, m: _Metrics) -> int:
    if not scene.breakdown:
        return 0
    lines = sum(max(1, len(label)) for label, _ in _breakdown_lines(scene, m))
    return 2 * m.pad + lines * m.line + m.px(12)


def _draw_breakdown(canvas: Canvas, scene: ResultScene, y: int, m: _Metrics) -> int:
    height = _breakdown_height(scene, m)
    if not height:
        return 0
    left, right = m.margin, m.width - m.margin
    canvas.panel((left, y, right, y + height - m.px(12)), radius=m.px(12))
    row_y = y + m.pad + m.line // 2
    for label, value in _breakdown_lines(scene, m):
        if value:
            canvas.text((right - m.pad, row_y), value, m.px(24), HIGHLIGHT, max_width=m.px(90),
                        face=Face.BOLD, anchor="rm", min_size=m.text)
        for line in label or [""]:
            canvas.text((left + m.pad, row_y), line, m.text, LIGHT, max_width=m.room,
                        anchor="lm", min_size=m.text)
            row_y += m.line
    return height


def _draw_seat(canvas: Canvas, scene: ResultScene, index: int, y: int, m: _Metrics) -> int:
    seat = scene.seats[index]
    left, right = m.margin + m.pad, m.width - m.margin - m.pad
    mid = y + m.line // 2
    amount_width = 0.0
    if seat.amount or scene.winner is not None:
        text, colour = _amount(seat.amount)
        amount_width = canvas.text((right, mid), text, m.px(26), colour, max_width=m.px(140),
                                   face=Face.BOLD, anchor="rm")
    marks: list[tuple[bool, Badge]] = [
        (scene.winner == index, ("WINNER", HIGHLIGHT, HIGHLIGHT_INK)),
        (seat.bot, ("BOT", BOT, LIGHT)),
        (seat.dead, ("DEAD", DEAD, LIGHT)),
    ]
    canvas.name_line(left, mid, seat.name, m.px(26), [badge for on, badge in marks if on],
                     m.text, right - left - round(amount_width) - m.px(24))
    groups = laid_hand(seat.tiles, seat.exposures)
    if groups:
        canvas.laid_lines(groups, left, y + m.line + m.px(4), m.seat_row, right - left)
    return _seat_height(seat, m)


def _seats_height(scene: ResultScene, m: _Metrics) -> int:
    return 2 * m.pad + sum(_seat_height(seat, m) + m.px(8) for seat in scene.seats)


def title_lines(scene: ResultScene) -> tuple[str, str]:
    """The headline and the line under it."""
    if scene.winner is None:
        return scene.title or "Wall game", scene.caption or "Nobody went Mah Jongg."
    winner = short(scene.seats[scene.winner].name)
    return scene.title or "Mah Jongg!", scene.caption or f"{winner} wins."


def _subtitle_lines(scene: ResultScene, m: _Metrics) -> list[str]:
    return wrap(title_lines(scene)[1], m.px(24), m.inner, max_lines=3)


def render_result(scene: ResultScene, *, scale: float = 1.0) -> bytes:
    """The end-of-game picture as PNG bytes. `scale` 1 makes it 760 pixels wide."""
    m = _Metrics(Scale(scale))
    subtitle = _subtitle_lines(scene, m)
    head = m.px(50) + len(subtitle) * m.px(32) + m.px(8)
    height = (m.margin + head + _winning_height(scene, m) + _breakdown_height(scene, m)
              + _seats_height(scene, m) + m.margin)
    canvas = Canvas(m.width, height, FELT)
    title, _ = title_lines(scene)
    y = m.margin
    canvas.text((m.margin, y), title, m.px(40), HIGHLIGHT if scene.winner is not None else
                LIGHT, max_width=m.inner, face=Face.BOLD, min_size=m.px(26))
    y += m.px(50)
    for line in subtitle:
        canvas.text((m.margin, y), line, m.px(24), MUTED, max_width=m.inner)
        y += m.px(32)
    y += m.px(8)
    y += _draw_winning(canvas, scene, y, m) if scene.winner is not None else 0
    y += _draw_breakdown(canvas, scene, y, m)
    canvas.panel((m.margin, y, m.width - m.margin, y + _seats_height(scene, m) - m.px(8)),
                 fill=PANEL, radius=m.px(12))
    y += m.pad
    for index in range(len(scene.seats)):
        y += _draw_seat(canvas, scene, index, y, m) + m.px(8)
    return canvas.png()
