"""A league's standings as a picture: a title band, then one striped row per player with
rank, name, games, wins, points, points per game and rating.

Plain data in (`StandingsScene`), PNG bytes out; nothing here knows about leagues, seasons or
the store. The top three ranks get gold, silver and bronze discs; players without a rank
(below the season's minimum number of games) are drawn muted with a dash.
"""

from __future__ import annotations

from dataclasses import dataclass

from renderer.canvas import (
    FELT,
    HIGHLIGHT,
    HIGHLIGHT_INK,
    LIGHT,
    MUTED,
    PANEL,
    PANEL_EDGE,
    Canvas,
    Scale,
)
from renderer.fonts import Face

#: The picture's width at scale 1.
BASE_WIDTH = 640
MINUS = "\u2212"
#: Disc colours of ranks 1, 2 and 3.
MEDALS = (HIGHLIGHT, "#c9d1d9", "#d9915b")
STRIPE = "#1b4d3b"


@dataclass(frozen=True)
class StandingsRow:
    """One player's line. `rank` None means not ranked yet; `rating` None means unrated."""

    rank: int | None
    name: str
    games: int
    wins: int
    points: int
    per_game: float
    rating: float | None = None


@dataclass(frozen=True)
class StandingsScene:
    """The standings to draw: a title, a line under it, the rows in order, and a footer."""

    title: str
    subtitle: str
    rows: tuple[StandingsRow, ...]
    footer: str = ""


#: Column (header, right edge at scale 1) after the name; the name fills the space left.
_COLUMNS = (("G", 342), ("W", 392), ("Pts", 460), ("PPG", 530), ("Rating", 622))
#: The smallest text: legible when a phone shows the picture 400 pixels wide.
TEXT = 18


def number_text(value: float, decimals: int = 0) -> str:
    """A number as the pictures print it: thousands separated, a true minus sign."""
    text = f"{abs(value):,.{decimals}f}"
    return (MINUS + text) if value < 0 and text.strip("0.,") else text


def draw_title_band(canvas: Canvas, px: Scale, box: tuple[int, int, int, int], title: str,
                    subtitle: str) -> None:
    """The band atop a summary sheet (standings, a series): a bold title over a muted line,
    both held to the phone's smallest text size."""
    left, top, right, _ = box
    room = right - left - px(32)
    canvas.panel(box, PANEL, PANEL_EDGE)
    canvas.text((left + px(16), top + px(14)), title, px(28), LIGHT, max_width=room,
                face=Face.BOLD, min_size=px(TEXT))
    canvas.text((left + px(16), top + px(52)), subtitle, px(TEXT), MUTED, max_width=room,
                min_size=px(TEXT))


def render_standings(scene: StandingsScene, *, scale: float = 1.0) -> bytes:
    """Draw the standings; returns PNG bytes (the same scene always gives the same bytes)."""
    px = Scale(scale)
    width = px(BASE_WIDTH)
    margin, row_h, head_h = px(18), px(38), px(88)
    rows = scene.rows or (StandingsRow(None, "No counted games yet", 0, 0, 0, 0.0),)
    footer_h = px(38) if scene.footer else px(10)
    height = margin + head_h + px(34) + row_h * len(rows) + footer_h + margin
    canvas = Canvas(width, height, FELT)
    inner = width - 2 * margin
    draw_title_band(canvas, px, (margin, margin, width - margin, margin + head_h), scene.title,
                    scene.subtitle)

    top = margin + head_h + px(8)
    name_x = margin + px(52)
    name_room = px(_COLUMNS[0][1] - 50) - name_x
    canvas.text((margin + px(26), top + px(13)), "#", px(TEXT), MUTED, max_width=px(40),
                face=Face.BOLD, anchor="mm")
    canvas.text((name_x, top + px(13)), "Player", px(TEXT), MUTED, max_width=name_room,
                face=Face.BOLD, anchor="lm")
    for label, right in _COLUMNS:
        canvas.text((px(right), top + px(13)), label, px(TEXT), MUTED, max_width=px(74),
                    face=Face.BOLD, anchor="rm")

    y = top + px(28)
    for index, row in enumerate(rows):
        mid = y + row_h // 2
        if index % 2 == 0:
            canvas.draw.rounded_rectangle((margin, y, width - margin, y + row_h - px(2)),
                                          radius=px(8), fill=STRIPE)
        ink = LIGHT if row.rank is not None else MUTED
        draw_rank(canvas, row.rank, margin + px(26), mid, px)
        canvas.text((name_x, mid), row.name, px(20), ink, max_width=name_room,
                    face=Face.BOLD if row.rank is not None else Face.REGULAR,
                    min_size=px(TEXT), anchor="lm")
        cells = (number_text(row.games), number_text(row.wins), number_text(row.points),
                 number_text(row.per_game, 1),
                 "" if row.rating is None else number_text(row.rating, 1))
        for (_, right), cell in zip(_COLUMNS, cells, strict=True):
            canvas.text((px(right), mid), cell, px(20), ink, max_width=px(84),
                        min_size=px(TEXT), anchor="rm")
        y += row_h
    if scene.footer:
        canvas.text((margin + px(4), y + px(12)), scene.footer, px(TEXT), MUTED,
                    max_width=inner - px(8), min_size=px(TEXT))
    return canvas.png()


def draw_rank(canvas: Canvas, rank: int | None, x: int, mid: int, px: Scale) -> None:
    """Draw a rank: a coloured disc for the top three, a number after that, a dash without."""
    if rank is None:
        canvas.text((x, mid), "\u2013", px(20), MUTED, max_width=px(40), anchor="mm")
        return
    if rank <= len(MEDALS):
        r = px(15)
        canvas.draw.ellipse((x - r, mid - r, x + r, mid + r), fill=MEDALS[rank - 1])
        canvas.text((x, mid), str(rank), px(TEXT), HIGHLIGHT_INK, max_width=2 * r,
                    face=Face.BOLD, anchor="mm")
        return
    canvas.text((x, mid), str(rank), px(TEXT), LIGHT, max_width=px(44), min_size=px(TEXT),
                face=Face.BOLD, anchor="mm")
