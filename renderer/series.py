"""A series of games at one table as a picture: a title band, a row per person (in order of
their running total): the name on its own line, so a long one is never cut, and under it the
person's settlement in each of the last games and the total.

Plain data in (`SeriesScene`), PNG bytes out; nothing here knows about games, seats or the
store. The leaders get the standings' gold, silver and bronze discs; a game a person sat out
as the bettor shows what the bet made, marked "bet".
"""

from __future__ import annotations

from dataclasses import dataclass

from renderer.canvas import FELT, LIGHT, MUTED, Canvas, Scale
from renderer.fonts import Face
from renderer.standings import STRIPE, TEXT, draw_rank, draw_title_band, number_text

#: The picture's width at scale 1.
BASE_WIDTH = 640
#: Games shown as columns (the latest ones); the total counts them all.
MAX_GAMES = 5


@dataclass(frozen=True)
class SeriesCell:
    """One person's settlement in one game, and whether they sat out as the bettor."""

    amount: int
    bettor: bool = False


@dataclass(frozen=True)
class SeriesRow:
    """One person: their place (1 for the best total), name, a cell per game (None: the game
    had no part for them) and their running total."""

    place: int
    name: str
    cells: tuple[SeriesCell | None, ...]
    total: int


@dataclass(frozen=True)
class SeriesScene:
    """The series to draw: a title, a line under it, the games' labels (one per cell), the
    rows in order and a footer."""

    title: str
    subtitle: str
    games: tuple[str, ...]
    rows: tuple[SeriesRow, ...]
    footer: str = ""


#: Right edges at scale 1: the last game column, the step between game columns, the total.
_LAST_GAME, _STEP, _TOTAL = 520, 62, 622


def render_series(scene: SeriesScene, *, scale: float = 1.0) -> bytes:
    """Draw the series summary; returns PNG bytes (the same scene always gives the same
    bytes)."""
    px = Scale(scale)
    width = px(BASE_WIDTH)
    margin, row_h, head_h = px(18), px(76), px(88)
    shown = min(len(scene.games), MAX_GAMES)
    footer_h = px(38) if scene.footer else px(10)
    height = margin + head_h + px(34) + row_h * len(scene.rows) + footer_h + margin
    canvas = Canvas(width, height, FELT)
    inner = width - 2 * margin
    draw_title_band(canvas, px, (margin, margin, width - margin, margin + head_h), scene.title,
                    scene.subtitle)

    rights = [px(_LAST_GAME - _STEP * (shown - 1 - column)) for column in range(shown)]
    top = margin + head_h + px(8)
    name_x = margin + px(52)
    name_room = width - margin - px(8) - name_x
    canvas.text((name_x, top + px(13)), "Game", px(TEXT), MUTED, max_width=px(80),
                face=Face.BOLD, anchor="lm")
    for right, label in zip(rights, scene.games[-shown:], strict=True):
        canvas.text((right, top + px(13)), label, px(TEXT), MUTED, max_width=px(_STEP - 6),
                    face=Face.BOLD, anchor="rm")
    canvas.text((px(_TOTAL), top + px(13)), "Total", px(TEXT), MUTED, max_width=px(90),
                face=Face.BOLD, anchor="rm")

    y = top + px(28)
    for index, row in enumerate(scene.rows):
        mid = y + px(52)
        if index % 2 == 0:
            canvas.draw.rounded_rectangle((margin, y, width - margin, y + row_h - px(2)),
                                          radius=px(8), fill=STRIPE)
        draw_rank(canvas, row.place, margin + px(26), y + row_h // 2, px)
        canvas.text((name_x, y + px(18)), row.name, px(20), LIGHT, max_width=name_room,
                    face=Face.BOLD, min_size=px(TEXT), anchor="lm")
        for right, cell in zip(rights, row.cells[-shown:], strict=True):
            if cell is None:
                continue
            if cell.bettor:
                canvas.text((right, mid - px(10)), "bet", px(TEXT), MUTED,
                            max_width=px(_STEP - 6), anchor="rm")
            canvas.text((right, mid + (px(9) if cell.bettor else 0)), number_text(cell.amount),
                        px(TEXT), LIGHT if not cell.bettor else MUTED,
                        max_width=px(_STEP - 6), min_size=px(TEXT), anchor="rm")
        canvas.text((px(_TOTAL), mid), number_text(row.total), px(22), LIGHT, max_width=px(90),
                    face=Face.BOLD, min_size=px(TEXT), anchor="rm")
        y += row_h
    if scene.footer:
        canvas.text((margin + px(4), y + px(12)), scene.footer, px(TEXT), MUTED,
                    max_width=inner - px(8), min_size=px(TEXT))
    return canvas.png()
