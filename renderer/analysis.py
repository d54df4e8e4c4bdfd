"""A hand analysis picture, for hints and `/analyze`: the player's tiles, its exposures, the
tiles that would finish the hand, and the nearest card hands laid out as on the card, with
the tiles the player already has drawn normally and the ones still missing greyed out (a
legend says so when any are). What each hand still needs is written out in full under it.
For a player of two racks the hands are one per rack, followed by the tiles neither uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from renderer.canvas import (
    FELT,
    HIGHLIGHT,
    LIGHT,
    MUTED,
    PAPER,
    PAPER_INK,
    PAPER_MUTED,
    RULE,
    Canvas,
    PageMetrics,
    Scale,
    TileRow,
    laid_lines_height,
    plain_groups,
)
from renderer.codes import sort_tiles
from renderer.fonts import Face
from renderer.scenes import AnalysisScene, LaidGroup, NearestHand
from renderer.text import wrap

#: The picture's width at scale 1.
BASE_WIDTH = 760
#: The title over the tiles no hand shown uses.
SPARE_TITLE = "Neither rack uses (discard candidates)"


@dataclass(frozen=True)
class _Metrics(PageMetrics):
    """Every size in the analysis picture, derived from the scale."""

    WIDTH = BASE_WIDTH
    MARGIN = 18
    PAD = 14

    @property
    def hand_row(self) -> TileRow:
        return TileRow(self.px(46), self.px(3), self.px(18))

    @property
    def near_row(self) -> TileRow:
        return TileRow(self.px(44), self.px(3), self.px(14))

    @property
    def heading(self) -> int:
        return self.px(25)

    @property
    def text(self) -> int:
        """The smallest text in the picture."""
        return self.px(22)

    @property
    def room(self) -> int:
        """The width inside a hand's panel."""
        return self.inner - 2 * self.pad


def _block_height(groups: tuple[LaidGroup, ...], m: _Metrics) -> int:
    return m.heading + m.px(10) + laid_lines_height(groups, m.hand_row, m.inner) + m.px(18)


def _note_lines(near: NearestHand, m: _Metrics) -> list[str]:
    return wrap(near.note, m.text, m.room, max_lines=6) if near.note else []


def _line(m: _Metrics) -> int:
    return m.text + m.px(8)


def _near_height(near: NearestHand, m: _Metrics) -> int:
    notes = len(_note_lines(near, m)) * _line(m)
    return (2 * m.pad + m.px(34) + m.px(8) + notes + m.px(4)
            + laid_lines_height(near.groups, m.near_row, m.room))


def away_text(away: int) -> str:
    """How far a hand is from Mah Jongg, as its badge says."""
    if away == 0:
        return "Mah Jongg!"
    return f"{away} away"


def _draw_near(canvas: Canvas, near: NearestHand, y: int, m: _Metrics) -> int:
    height = _near_height(near, m)
    left, right = m.margin, m.width - m.margin
    canvas.panel((left, y, right, y + height), fill=PAPER, outline=RULE, radius=m.px(12))
    x = left + m.pad
    top = y + m.pad
    fill = HIGHLIGHT if near.away <= 1 else "#e4dcc6"
    badge = canvas.badge(x, top, away_text(near.away), m.text, fill, PAPER_INK)
    canvas.text((x + badge + m.px(12), top + m.px(17)), near.label, m.px(24), PAPER_INK,
                max_width=right - m.pad - x - badge - m.px(12), face=Face.BOLD, anchor="lm",
                min_size=m.text)
    top += m.px(34) + m.px(8)
    for line in _note_lines(near, m):
        canvas.text((x, top), line, m.text, PAPER_MUTED, max_width=m.room, min_size=m.text)
        top += _line(m)
    canvas.laid_lines(near.groups, x, top + m.px(4), m.near_row, m.room)
    return height


def _draw_block(canvas: Canvas, title: str, groups: tuple[LaidGroup, ...], y: int,
                m: _Metrics) -> int:
    canvas.text((m.margin, y), title, m.heading, MUTED, max_width=m.inner, face=Face.BOLD)
    canvas.laid_lines(groups, m.margin, y + m.heading + m.px(10), m.hand_row, m.inner)
    return _block_height(groups, m)


def _wrapped(tiles: tuple[str, ...], m: _Metrics) -> tuple[LaidGroup, ...]:
    """Tiles sorted, as groups of as many as fit on a line, so a long hand (two racks' 28
    tiles) wraps onto lines instead of running off the picture."""
    row = m.hand_row
    per_line = max(1, (m.inner + row.gap) // (row.width + row.gap))
    ordered = sort_tiles(tiles)
    return tuple(LaidGroup(ordered[i:i + per_line]) for i in range(0, len(ordered), per_line))


def render_analysis(scene: AnalysisScene, *, scale: float = 1.0) -> bytes:
    """The analysis picture as PNG bytes. `scale` 1 makes it 760 pixels wide."""
    m = _Metrics(Scale(scale))
    blocks = [(title, groups) for title, groups in (
        ("Your hand", _wrapped(scene.hand, m)),
        ("Exposed", plain_groups(scene.exposures)),
        ("Waiting for", (LaidGroup(sort_tiles(scene.waits)),) if scene.waits else ()),
    ) if groups]
    spare = _wrapped(scene.spare, m)
    greyed = any(any(group.missing) for near in scene.nearest for group in near.groups)
    title_height = m.px(40) + (_line(m) if scene.caption else 0) + m.px(10)
    height = m.margin + title_height
    height += sum(_block_height(groups, m) for _, groups in blocks)
    height += m.heading + m.px(12)
    height += sum(_near_height(near, m) + m.px(12) for near in scene.nearest)
    if not scene.nearest:
        height += _line(m) + m.px(4)
    if spare:
        height += _block_height(spare, m)
    height += (m.near_row.height + m.px(8) if greyed else 0) + m.margin
    canvas = Canvas(m.width, height, FELT)
    y = m.margin
    canvas.text((m.margin, y), scene.title or "Hand analysis", m.px(32), LIGHT,
                max_width=m.inner, face=Face.BOLD, min_size=m.text)
    y += m.px(40)
    if scene.caption:
        canvas.text((m.margin, y), scene.caption, m.text, MUTED, max_width=m.inner,
                    min_size=m.text)
        y += _line(m)
    y += m.px(10)
    for title, groups in blocks:
        y += _draw_block(canvas, title, groups, y, m)
    canvas.text((m.margin, y), scene.heading, m.heading, MUTED, max_width=m.inner,
                face=Face.BOLD)
    y += m.heading + m.px(12)
    if not scene.nearest:
        canvas.text((m.margin, y), "No hand on this card fits these exposures.", m.text,
                    LIGHT, max_width=m.inner, min_size=m.text)
        y += _line(m) + m.px(4)
    for near in scene.nearest:
        y += _draw_near(canvas, near, y, m) + m.px(12)
    if spare:
        y += _draw_block(canvas, SPARE_TITLE, spare, y, m)
    if greyed:
        row = m.near_row
        canvas.tile("5D", m.margin, y, row.width, dimmed=True)
        canvas.text((m.margin + row.width + m.px(12), y + row.height // 2),
                    "Greyed tiles are the ones still needed", m.text, MUTED,
                    max_width=m.inner - row.width - m.px(12), anchor="lm", min_size=m.text)
    return canvas.png()
