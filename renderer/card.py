"""A card sheet: a card's hands grouped by section, coloured the way printed cards are.

Each group of a hand is printed in the colour of its suit variable (green, red, blue for the
hand's first, second and third suit; black for neutral groups), followed by the small-print
note, then the exposed (X) or concealed (C) mark and the value at the right, as on a printed
card. A server's private card is labelled as such in the title band.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from renderer.canvas import (
    FELT,
    HIGHLIGHT,
    HIGHLIGHT_INK,
    LIGHT,
    MUTED,
    PAPER,
    PAPER_INK,
    PAPER_MUTED,
    RULE,
    Canvas,
    Scale,
    badge_width,
    slot_color,
)
from renderer.fonts import Face, font
from renderer.scenes import CardGroup, CardHand, CardSection, CardSheet
from renderer.text import clean, ellipsize, wrap

#: The width of one column of hands at scale 1.
BASE_COLUMN = 860
STRIPE = "#f3eee0"
PRIVATE = "PRIVATE CARD"
#: Space between groups on a card line, as a share of the text size.
GROUP_GAP = 0.7


@dataclass(frozen=True)
class _Metrics:
    """Every size in the card sheet, derived from the scale."""

    px: Scale

    @property
    def margin(self) -> int:
        return self.px(24)

    @property
    def column(self) -> int:
        return self.px(BASE_COLUMN)

    @property
    def group_size(self) -> int:
        return self.px(26)

    @property
    def row(self) -> int:
        return self.px(44)

    @property
    def note_size(self) -> int:
        return self.px(16)

    @property
    def value_column(self) -> int:
        """Room at the right of a row for the X/C mark and the value."""
        return self.px(96)

    @property
    def section_head(self) -> int:
        return self.px(50)


def _label_width(sheet: CardSheet, m: _Metrics) -> int:
    has_labels = any(hand.label for section in sheet.sections for hand in section.hands)
    return m.px(78) if has_labels else 0


def _groups_room(sheet: CardSheet, m: _Metrics) -> int:
    return m.column - 2 * m.px(10) - _label_width(sheet, m) - m.value_column


def fit_card_line(groups: Sequence[CardGroup], size: int, room: float) -> tuple[int, float]:
    """The largest font size from `size` down to two thirds of it that fits the groups in
    `room`, and their width at that size (the room itself when nothing fits)."""
    texts = [clean(group.text, Face.BOLD) for group in groups]
    for candidate in range(size, max(1, size * 2 // 3) - 1, -1):
        fnt = font(candidate, Face.BOLD)
        width = sum(fnt.getlength(t) for t in texts) + candidate * GROUP_GAP * max(
            0, len(texts) - 1)
        if width <= room:
            return candidate, width
    return max(1, size * 2 // 3), room


def draw_card_line(canvas: Canvas, groups: Sequence[CardGroup], x: int, mid: int, size: int,
                   room: float) -> float:
    """Draw a hand's groups as a card prints them, each in its slot colour, left-aligned at
    `x` and centred on `mid`; shrinks to fit `room`. Returns the width drawn."""
    size, width = fit_card_line(groups, size, room)
    fnt = font(size, Face.BOLD)
    end = x + room
    for group in groups:
        text = ellipsize(clean(group.text, Face.BOLD), fnt, max(0.0, end - x))
        canvas.draw.text((x, mid), text, font=fnt, fill=slot_color(group.color, PAPER_INK),
                         anchor="lm")
        x += round(fnt.getlength(text) + size * GROUP_GAP)
    return width


def _note_inline(hand: CardHand, room: int, m: _Metrics) -> bool:
    if not hand.note:
        return True
    _, used = fit_card_line(hand.groups, m.group_size, room)
    note = font(m.note_size).getlength(clean(hand.note))
    return used + m.px(16) + note <= room


def _hand_height(hand: CardHand, room: int, m: _Metrics) -> int:
    return m.row if _note_inline(hand, room, m) else m.row + m.note_size + m.px(6)


def _section_height(section: CardSection, room: int, m: _Metrics) -> int:
    return m.section_head + sum(_hand_height(hand, room, m) for hand in section.hands) + m.px(
        12)


def _draw_hand(canvas: Canvas, hand: CardHand, x: int, y: int, sheet: CardSheet,
               stripe: bool, m: _Metrics) -> int:
    room = _groups_room(sheet, m)
    height = _hand_height(hand, room, m)
    right = x + m.column
    if stripe:
        canvas.draw.rectangle((x, y, right, y + height), fill=STRIPE)
    mid = y + m.row // 2
    gx = x + m.px(10)
    if hand.label:
        label_font = font(m.px(15))
        canvas.draw.text((gx, mid), ellipsize(clean(hand.label), label_font,
                                              _label_width(sheet, m) - m.px(8)),
                         font=label_font, fill=PAPER_MUTED, anchor="lm")
    gx += _label_width(sheet, m)
    used = draw_card_line(canvas, hand.groups, gx, mid, m.group_size, room)
    if hand.note:
        note_font = font(m.note_size)
        inline = _note_inline(hand, room, m)
        nx = x + m.px(10) + _label_width(sheet, m) + (round(used) + m.px(16) if inline else 0)
        ny = mid if inline else y + m.row - m.px(2) + m.note_size // 2
        canvas.draw.text((nx, ny), ellipsize(clean(hand.note), note_font, room),
                         font=note_font, fill=PAPER_MUTED, anchor="lm")
    mark_font = font(m.px(18), Face.BOLD)
    mark_x = right - m.value_column + m.px(14)
    box = m.px(26)
    canvas.draw.rounded_rectangle((mark_x, mid - box // 2, mark_x + box, mid + box // 2),
                                  radius=m.px(5), outline=PAPER_INK, width=m.px(2),
                                  fill=PAPER_INK if hand.concealed else None)
    canvas.draw.text((mark_x + box / 2, mid), "C" if hand.concealed else "X", font=mark_font,
                     fill=PAPER if hand.concealed else PAPER_INK, anchor="mm")
    canvas.draw.text((right - m.px(10), mid), str(hand.value), font=font(m.px(24), Face.BOLD),
                     fill=PAPER_INK, anchor="rm")
    return height


def _draw_section(canvas: Canvas, section: CardSection, x: int, y: int, sheet: CardSheet,
                  m: _Metrics) -> int:
    head = m.section_head
    canvas.draw.rectangle((x, y + head - m.px(12), x + m.column, y + head - m.px(10)),
                          fill=RULE)
    canvas.text((x + m.px(10), y + head - m.px(16)), section.name.upper(), m.px(20),
                FELT, max_width=m.column - m.px(20), face=Face.BOLD, anchor="ls")
    y0 = y
    y += head
    for index, hand in enumerate(section.hands):
        y += _draw_hand(canvas, hand, x, y, sheet, index % 2 == 1, m)
    return y - y0 + m.px(12)


def _columns(sheet: CardSheet, columns: int, m: _Metrics) -> list[list[CardSection]]:
    """Sections split into columns of about equal height, in order, never splitting one."""
    room = _groups_room(sheet, m)
    heights = [_section_height(section, room, m) for section in sheet.sections]
    target = sum(heights) / max(1, columns)
    result: list[list[CardSection]] = [[]]
    used = 0
    for section, height in zip(sheet.sections, heights, strict=True):
        if result[-1] and used + height / 2 > target and len(result) < columns:
            result.append([])
            used = 0
        result[-1].append(section)
        used += height
    return result


def _title_height(sheet: CardSheet, m: _Metrics) -> int:
    return m.px(64) + (m.px(24) if sheet.subtitle else 0)


def render_card(sheet: CardSheet, *, scale: float = 1.0, columns: int = 1) -> bytes:
    """The card sheet as PNG bytes, in one column (best on phones) or more."""
    m = _Metrics(Scale(scale))
    room = _groups_room(sheet, m)
    split = _columns(sheet, max(1, columns), m)
    body = max(sum(_section_height(s, room, m) for s in column) for column in split)
    width = len(split) * m.column + (len(split) - 1) * m.margin + 2 * m.margin
    note_lines = wrap(sheet.notes, m.note_size, width - 2 * m.margin) if sheet.notes else []
    notes_height = len(note_lines) * (m.note_size + m.px(6)) + (m.px(12) if note_lines else 0)
    title_height = _title_height(sheet, m)
    canvas = Canvas(width, m.margin + title_height + m.px(8) + body + notes_height + m.margin,
                    PAPER)
    canvas.draw.rectangle((0, 0, width, m.margin + title_height), fill=FELT)
    tag_width = 0
    if sheet.private:
        tag_width = badge_width(PRIVATE, m.px(15)) + m.px(16)
        canvas.badge(width - m.margin - tag_width + m.px(16), m.margin + m.px(6), PRIVATE,
                     m.px(15), HIGHLIGHT, HIGHLIGHT_INK)
    canvas.text((m.margin, m.margin + m.px(2)), sheet.title, m.px(32), LIGHT,
                max_width=width - 2 * m.margin - tag_width, face=Face.BOLD, min_size=m.px(22))
    if sheet.subtitle:
        canvas.text((m.margin, m.margin + m.px(46)), sheet.subtitle, m.px(18), MUTED,
                    max_width=width - 2 * m.margin)
    top = m.margin + title_height + m.px(8)
    for index, column in enumerate(split):
        x = m.margin + index * (m.column + m.margin)
        y = top
        for section in column:
            y += _draw_section(canvas, section, x, y, sheet, m)
    y = top + body + m.px(6)
    for line in note_lines:
        canvas.draw.text((m.margin, y), line, font=font(m.note_size), fill=PAPER_MUTED)
        y += m.note_size + m.px(6)
    return canvas.png()
