"""The end of a game: the winning hand laid out as on the card with its score breakdown and
what every seat won or paid, or, when nobody won, a wall game summary with the hands shown.
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
from renderer.fonts import Face
from renderer.scenes import ResultScene, ResultSeat
from renderer.text import short

#: The picture's width at scale 1.
BASE_WIDTH = 920
MINUS = "\u2212"


@dataclass(frozen=True)
class _Metrics(PageMetrics):
    """Every size in the result picture, derived from the scale."""

    WIDTH = BASE_WIDTH
    MARGIN = 20
    PAD = 16

    @property
    def win_row(self) -> TileRow:
        return TileRow(self.px(50), self.px(3), self.px(16))

    @property
    def seat_row(self) -> TileRow:
        return TileRow(self.px(38), self.px(2), self.px(12))

    @property
    def line(self) -> int:
        """Height of one line in the breakdown and payment lists."""
        return self.px(32)


def _winning_height(scene: ResultScene, m: _Metrics) -> int:
    if scene.winner is None:
        return 0
    room = m.inner - 2 * m.pad
    height = 2 * m.pad + m.px(26)
    if scene.card_line:
        height += m.px(40)
    if scene.groups:
        height += m.px(8) + laid_lines_height(scene.groups, m.win_row, room)
    return height + m.px(16)


def _seat_height(seat: ResultSeat, m: _Metrics) -> int:
    groups = laid_hand(seat.tiles, seat.exposures)
    hand = laid_lines_height(groups, m.seat_row, m.inner - 2 * m.pad) if groups else 0
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
    canvas.text((x, top), scene.hand_label or "Winning hand", m.px(20), PAPER_INK,
                max_width=m.inner - 2 * m.pad, face=Face.BOLD)
    top += m.px(26)
    if scene.card_line:
        draw_card_line(canvas, scene.card_line, x, top + m.px(20), m.px(26),
                       m.inner - 2 * m.pad)
        top += m.px(40)
    if scene.groups:
        canvas.laid_lines(scene.groups, x, top + m.px(8), m.win_row, m.inner - 2 * m.pad)
    return height + m.px(16)


def _breakdown_height(scene: ResultScene, m: _Metrics) -> int:
    if not scene.breakdown:
        return 0
    return 2 * m.pad + len(scene.breakdown) * m.line + m.px(12)


def _draw_breakdown(canvas: Canvas, scene: ResultScene, y: int, m: _Metrics) -> int:
    height = _breakdown_height(scene, m)
    if not height:
        return 0
    left, right = m.margin, m.width - m.margin
    canvas.panel((left, y, right, y + height - m.px(12)), radius=m.px(12))
    row_y = y + m.pad + m.line // 2
    for item in scene.breakdown:
        value_width = canvas.text((right - m.pad, row_y), item.value, m.px(20), HIGHLIGHT,
                                  max_width=m.inner // 3, face=Face.BOLD, anchor="rm")
        canvas.text((left + m.pad, row_y), item.label, m.px(18), LIGHT,
                    max_width=m.inner - 2 * m.pad - value_width - m.px(20), anchor="lm")
        row_y += m.line
    return height


def _draw_seat(canvas: Canvas, scene: ResultScene, index: int, y: int, m: _Metrics) -> int:
    seat = scene.seats[index]
    left, right = m.margin + m.pad, m.width - m.margin - m.pad
    mid = y + m.line // 2
    amount_width = 0.0
    if seat.amount or scene.winner is not None:
        text, colour = _amount(seat.amount)
        amount_width = canvas.text((right, mid), text, m.px(22), colour, max_width=m.px(140),
                                   face=Face.BOLD, anchor="rm")
    marks: list[tuple[bool, Badge]] = [
        (scene.winner == index, ("WINNER", HIGHLIGHT, HIGHLIGHT_INK)),
        (seat.bot, ("BOT", BOT, LIGHT)),
        (seat.dead, ("DEAD", DEAD, LIGHT)),
    ]
    canvas.name_line(left, mid, seat.name, m.px(21), [badge for on, badge in marks if on],
                     m.px(13), right - left - round(amount_width) - m.px(24))
    groups = laid_hand(seat.tiles, seat.exposures)
    if groups:
        canvas.laid_lines(groups, left, y + m.line + m.px(4), m.seat_row, right - left)
    return _seat_height(seat, m)


def _seats_height(scene: ResultScene, m: _Metrics) -> int:
    return 2 * m.pad + sum(_seat_height(seat, m) + m.px(8) for seat in scene.seats)


def _title(scene: ResultScene) -> tuple[str, str]:
    """The headline and the line under it."""
    if scene.winner is None:
        return scene.title or "Wall game", scene.caption or "Nobody went Mah Jongg."
    winner = short(scene.seats[scene.winner].name)
    return scene.title or "Mah Jongg!", scene.caption or f"{winner} wins."


def render_result(scene: ResultScene, *, scale: float = 1.0) -> bytes:
    """The end-of-game picture as PNG bytes. `scale` 1 makes it 920 pixels wide."""
    m = _Metrics(Scale(scale))
    head = m.px(44) + m.px(30)
    height = (m.margin + head + _winning_height(scene, m) + _breakdown_height(scene, m)
              + _seats_height(scene, m) + m.margin)
    canvas = Canvas(m.width, height, FELT)
    title, subtitle = _title(scene)
    y = m.margin
    canvas.text((m.margin, y), title, m.px(36), HIGHLIGHT if scene.winner is not None else
                LIGHT, max_width=m.inner, face=Face.BOLD, min_size=m.px(24))
    y += m.px(44)
    canvas.text((m.margin, y), subtitle, m.px(20), MUTED, max_width=m.inner)
    y += m.px(30)
    y += _draw_winning(canvas, scene, y, m) if scene.winner is not None else 0
    y += _draw_breakdown(canvas, scene, y, m)
    canvas.panel((m.margin, y, m.width - m.margin, y + _seats_height(scene, m) - m.px(8)),
                 fill=PANEL, radius=m.px(12))
    y += m.pad
    for index in range(len(scene.seats)):
        y += _draw_seat(canvas, scene, index, y, m) + m.px(8)
    return canvas.png()
