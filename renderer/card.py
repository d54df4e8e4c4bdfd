"""A card sheet: a card's hands grouped by section, coloured the way printed cards are, in
pages a phone can read.

Each group of a hand is printed in the colour of its suit variable (green, red, blue for the
hand's first, second and third suit; black for neutral groups) with its suit letter small
after it (`a` `b` `c`, or `B` `C` `D` for a fixed suit), so suits never rest on colour alone,
then the exposed (X) or concealed (C) mark and the value at the right, as on a printed card,
and the small-print note in full under the line. A key under the title says what the letters
mean and that colours only tell suits apart (a beginner would read fixed colours as fixed
suits). A whole card is too tall to read at a phone's width in one picture,
so it is cut into pages of whole sections (`render_card_pages`), each about as tall as a
phone screen when shown 400 pixels wide; the card's notes end the last page. A server's
private card is labelled as such on every page.
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
from renderer.measure import cap_height
from renderer.scenes import CardGroup, CardHand, CardSection, CardSheet
from renderer.text import clean, fit, wrap

#: The page width at scale 1.
BASE_WIDTH = 800
#: A page is cut before it grows taller than this many times its width.
MAX_PAGE_RATIO = 2.0
STRIPE = "#f3eee0"
PRIVATE = "PRIVATE CARD"
#: Space between groups on a card line, as a share of the text size.
GROUP_GAP = 0.7
#: A card line's height, as a multiple of its text size.
LINE_HEIGHT = 1.3
#: Space between a group and its suit letter, as a share of the text size.
MARK_GAP = 0.08


@dataclass(frozen=True)
class _Metrics:
    """Every size in a card page, derived from the scale."""

    px: Scale

    @property
    def width(self) -> int:
        return self.px(BASE_WIDTH)

    @property
    def margin(self) -> int:
        return self.px(22)

    @property
    def group_size(self) -> int:
        return self.px(30)

    @property
    def text(self) -> int:
        """Notes, labels and the smallest text on the page (9 px tall capitals when a phone
        shows the page 400 pixels wide)."""
        return self.px(25)

    @property
    def label_width(self) -> int:
        return self.px(58)

    @property
    def value_column(self) -> int:
        """Room at the right of a row for the X/C mark and the value."""
        return self.px(100)

    @property
    def section_head(self) -> int:
        return self.px(56)

    @property
    def room(self) -> int:
        """The width left for a hand's groups and note."""
        return self.width - 2 * self.margin - 2 * self.px(10) - self.label_width - (
            self.value_column)


def _group_width(group: CardGroup, size: int, min_size: int) -> float:
    """A group's width at font `size`, with its suit letter (drawn at `min_size`)."""
    width = font(size, Face.BOLD).getlength(clean(group.text, Face.BOLD))
    if group.suit:
        width += font(min_size, Face.BOLD).getlength(group.suit) + MARK_GAP * size
    return width


def card_line_layout(groups: Sequence[CardGroup], size: int, room: float,
                     min_size: int) -> tuple[int, list[list[CardGroup]]]:
    """The largest font size from `size` down to `min_size` that puts a hand's groups on
    one line of `room` pixels, and the groups by line: at `min_size` a line too long for the
    room is broken between groups (never cut)."""
    for candidate in range(size, max(1, min_size) - 1, -1):
        width = sum(_group_width(g, candidate, min_size) for g in groups) + (
            candidate * GROUP_GAP * max(0, len(groups) - 1))
        if width <= room:
            return candidate, [list(groups)]
    lines: list[list[CardGroup]] = [[]]
    used = 0.0
    for group in groups:
        need = _group_width(group, min_size, min_size)
        need += min_size * GROUP_GAP if lines[-1] else 0
        if lines[-1] and used + need > room:
            lines.append([])
            used, need = 0.0, _group_width(group, min_size, min_size)
        lines[-1].append(group)
        used += need
    return min_size, lines


def draw_card_line(canvas: Canvas, groups: Sequence[CardGroup], x: int, mid: int, size: int,
                   room: float, *, min_size: int) -> int:
    """Draw a hand's groups as a card prints them, each in its slot colour with its suit
    letter small after it (at `min_size`, on the group's baseline), left-aligned at `x` with
    the first line centred on `mid`; shrinks, then breaks between groups, to fit `room`.
    Returns the number of lines drawn."""
    size, lines = card_line_layout(groups, size, room, min_size)
    for index, line in enumerate(lines):
        gx = x
        line_mid = mid + round(index * size * LINE_HEIGHT)
        for group in line:
            color = slot_color(group.color, PAPER_INK)
            fitted = fit(group.text, size, max(1.0, x + room - gx), face=Face.BOLD)
            canvas.write((gx, line_mid), fitted.text, fitted.font, color, "lm")
            gx += round(fitted.width)
            if group.suit:
                baseline = line_mid + round(cap_height(font(size, Face.BOLD)) / 2)
                gx += round(MARK_GAP * size)
                gx += round(canvas.text((gx, baseline), group.suit, min_size, color,
                                        max_width=room, face=Face.BOLD, anchor="ls",
                                        min_size=min_size))
            gx += round(size * GROUP_GAP)
    return len(lines)


def _note_lines(hand: CardHand, m: _Metrics) -> list[str]:
    return wrap(hand.note, m.text, m.room, max_lines=6) if hand.note else []


def _hand_height(hand: CardHand, m: _Metrics) -> int:
    size, lines = card_line_layout(hand.groups, m.group_size, m.room, m.text)
    groups = round(len(lines) * size * LINE_HEIGHT)
    notes = len(_note_lines(hand, m)) * round(m.text * LINE_HEIGHT)
    return m.px(12) + max(groups, m.px(34)) + notes + m.px(10)


def _section_height(section: CardSection, m: _Metrics) -> int:
    return m.section_head + sum(_hand_height(hand, m) for hand in section.hands) + m.px(14)


def _draw_hand(canvas: Canvas, hand: CardHand, y: int, stripe: bool, m: _Metrics) -> int:
    height = _hand_height(hand, m)
    x, right = m.margin, m.width - m.margin
    if stripe:
        canvas.draw.rectangle((x, y, right, y + height), fill=STRIPE)
    mid = y + m.px(12) + round(m.group_size * LINE_HEIGHT / 2)
    if hand.label:
        canvas.text((x + m.px(10), mid), hand.label, m.text, PAPER_MUTED,
                    max_width=m.label_width - m.px(6), anchor="lm", min_size=m.text)
    gx = x + m.px(10) + m.label_width
    size, lines = card_line_layout(hand.groups, m.group_size, m.room, m.text)
    draw_card_line(canvas, hand.groups, gx, mid, m.group_size, m.room, min_size=m.text)
    note_y = mid + round((len(lines) - 0.5) * size * LINE_HEIGHT) + m.px(4)
    for line in _note_lines(hand, m):
        canvas.text((gx, note_y), line, m.text, PAPER_MUTED, max_width=m.room,
                    min_size=m.text)
        note_y += round(m.text * LINE_HEIGHT)
    mark_x = right - m.value_column + m.px(14)
    box = m.px(30)
    canvas.draw.rounded_rectangle((mark_x, mid - box // 2, mark_x + box, mid + box // 2),
                                  radius=m.px(5), outline=PAPER_INK, width=m.px(2),
                                  fill=PAPER_INK if hand.concealed else None)
    canvas.text((mark_x + box / 2, mid), "C" if hand.concealed else "X", m.text,
                PAPER if hand.concealed else PAPER_INK, max_width=box, face=Face.BOLD,
                anchor="mm", min_size=m.text)
    canvas.text((right - m.px(10), mid), str(hand.value), m.px(28), PAPER_INK,
                max_width=m.value_column - box - m.px(20), face=Face.BOLD, anchor="rm",
                min_size=m.text)
    return height


def _draw_section(canvas: Canvas, section: CardSection, y: int, m: _Metrics) -> int:
    head = m.section_head
    x = m.margin
    canvas.draw.rectangle((x, y + head - m.px(12), m.width - m.margin, y + head - m.px(10)),
                          fill=RULE)
    canvas.text((x + m.px(10), y + head - m.px(18)), section.name.upper(), m.px(24), FELT,
                max_width=m.width - 2 * m.margin - m.px(20), face=Face.BOLD, anchor="ls",
                min_size=m.text)
    top = y
    y += head
    for index, hand in enumerate(section.hands):
        y += _draw_hand(canvas, hand, y, index % 2 == 1, m)
    return y - top + m.px(14)


def suit_key(sheet: CardSheet) -> str:
    """The key to the suit letters the sheet's groups carry ("" when none do): what a, b, c
    and B, C, D mean, and that colours only tell suits apart, so no colour reads as a
    suit."""
    used = {group.suit for section in sheet.sections for hand in section.hands
            for group in hand.groups}
    parts = []
    if used & set("abc"):
        parts.append("a, b, c: a suit each, any suits you pick, all different")
    if used & set("BCD"):
        parts.append("B, C, D: Bams, Craks, Dots")
    return f"Key · {'; '.join(parts)}. Colours only tell the suits apart." if parts else ""


def _key_lines(sheet: CardSheet, m: _Metrics) -> list[str]:
    key = suit_key(sheet)
    return wrap(key, m.text, m.width - 2 * m.margin, max_lines=3) if key else []


def _title_height(sheet: CardSheet, m: _Metrics) -> int:
    return m.margin + m.px(44) + m.px(34) + len(_key_lines(sheet, m)) * round(
        m.text * LINE_HEIGHT)


def _notes_lines(sheet: CardSheet, m: _Metrics) -> list[str]:
    return wrap(sheet.notes, m.text, m.width - 2 * m.margin, max_lines=12) if sheet.notes else []


def _notes_height(sheet: CardSheet, m: _Metrics) -> int:
    lines = _notes_lines(sheet, m)
    return len(lines) * round(m.text * LINE_HEIGHT) + (m.px(16) if lines else 0)


def card_pages(sheet: CardSheet, *, scale: float = 1.0) -> list[list[CardSection]]:
    """The card's sections cut into pages, in order, never splitting a section: a page takes
    sections while it stays under `MAX_PAGE_RATIO` times its width (the last page keeps room
    for the card's notes)."""
    m = _Metrics(Scale(scale))
    limit = m.width * MAX_PAGE_RATIO - _title_height(sheet, m) - 2 * m.margin
    pages: list[list[CardSection]] = [[]]
    used = 0
    for index, section in enumerate(sheet.sections):
        height = _section_height(section, m)
        if index == len(sheet.sections) - 1:
            height += _notes_height(sheet, m)
        if pages[-1] and used + height > limit:
            pages.append([])
            used = 0
        pages[-1].append(section)
        used += height
    return pages


def _render_page(sheet: CardSheet, sections: Sequence[CardSection], number: int, pages: int,
                 m: _Metrics) -> bytes:
    notes = _notes_lines(sheet, m) if number == pages else []
    body = sum(_section_height(section, m) for section in sections)
    title_height = _title_height(sheet, m)
    notes_height = _notes_height(sheet, m) if notes else 0
    canvas = Canvas(m.width, title_height + m.px(8) + body + notes_height + m.margin, PAPER)
    canvas.draw.rectangle((0, 0, m.width, title_height), fill=FELT)
    tag_width = 0
    if sheet.private:
        tag_width = badge_width(PRIVATE, m.text) + m.px(16)
        canvas.badge(m.width - m.margin - tag_width + m.px(16), m.margin + m.px(4), PRIVATE,
                     m.text, HIGHLIGHT, HIGHLIGHT_INK)
    canvas.text((m.margin, m.margin), sheet.title, m.px(34), LIGHT,
                max_width=m.width - 2 * m.margin - tag_width, face=Face.BOLD, min_size=m.text)
    names = ", ".join(section.name for section in sections)
    line = f"Page {number} of {pages}: {names}" if pages > 1 else names
    if sheet.subtitle:
        line = f"{sheet.subtitle} · {line}"
    canvas.text((m.margin, m.margin + m.px(44)), line, m.text, MUTED,
                max_width=m.width - 2 * m.margin, min_size=m.text)
    key_y = m.margin + m.px(44) + round(m.text * LINE_HEIGHT)
    for key_line in _key_lines(sheet, m):
        canvas.text((m.margin, key_y), key_line, m.text, LIGHT,
                    max_width=m.width - 2 * m.margin, min_size=m.text)
        key_y += round(m.text * LINE_HEIGHT)
    y = title_height + m.px(8)
    for section in sections:
        y += _draw_section(canvas, section, y, m)
    y += m.px(6)
    for note in notes:
        canvas.text((m.margin, y), note, m.text, PAPER_MUTED, max_width=m.width - 2 * m.margin,
                    min_size=m.text)
        y += round(m.text * LINE_HEIGHT)
    return canvas.png()


def render_card_pages(sheet: CardSheet, *, scale: float = 1.0) -> tuple[bytes, ...]:
    """The card sheet as PNG pages (see `card_pages`); a card with no sections is one page
    with its title. `scale` 1 makes each page 800 pixels wide."""
    m = _Metrics(Scale(scale))
    pages = card_pages(sheet, scale=scale)
    return tuple(_render_page(sheet, sections, number, len(pages), m)
                 for number, sections in enumerate(pages, start=1))
