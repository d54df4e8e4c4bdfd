"""The drawing kit every picture shares: colours, a canvas with tile rows, badges and text,
and PNG encoding.

Rack, table, card sheet, analysis and result pictures are all laid out from these pieces, so
tiles, labels and marks look the same everywhere and no picture repeats another's drawing
code.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from PIL import Image, ImageDraw, ImageFont

from renderer.codes import sort_tiles
from renderer.fonts import Face
from renderer.measure import Mark, TextRun, TileFace, cap_height, start_drawing
from renderer.scenes import LaidGroup
from renderer.text import fit
from renderer.tiles import BAM, CRAK, DOT, back_sprite, index_cap, tile_height, tile_sprite

FELT = "#1e5641"
PANEL = "#174535"
PANEL_EDGE = "#2b6d55"
WOOD = "#8a5a2b"
WOOD_EDGE = "#5e3b19"
PAPER = "#fffcf3"
PAPER_INK = "#1f2933"
PAPER_MUTED = "#66707a"
RULE = "#d8cfb8"
LIGHT = "#f6f0dc"
MUTED = "#a9c7b8"
HIGHLIGHT = "#ffc83d"
#: The ring round a winning tile: it must show on the felt and on the paper panels alike.
WINNING = "#f76707"
DEAD = "#d64545"
BOT = "#5b8def"
GOOD = "#7ee08a"
BAD = "#ff8a80"

#: The colour of each card colour slot (suit variable), as printed cards use them.
SLOT_COLORS = (BAM, CRAK, DOT)

#: PNG compression level: 6 is Pillow's default; lower is faster and larger.
PNG_COMPRESS = 3

Color = str | tuple[int, int, int]
#: A badge after a name: its label, fill colour and text colour.
Badge = tuple[str, Color, Color]
#: Dark text for badges on the highlight colour.
HIGHLIGHT_INK = "#3a2a00"


@dataclass(frozen=True)
class Scale:
    """Turns design sizes (pixels at scale 1) into pixels at the picture's scale."""

    factor: float = 1.0

    def __call__(self, value: float) -> int:
        return max(1, round(value * self.factor))


@dataclass(frozen=True)
class PageMetrics:
    """The sizes every full-width picture shares, derived from the scale: its width, the
    outer margin, the padding inside panels, and the width left inside the margins.
    Each picture subclasses it with its own rows and its design numbers."""

    px: Scale
    #: Design sizes at scale 1; subclasses set their own.
    WIDTH: ClassVar[int] = 920
    MARGIN: ClassVar[int] = 20
    PAD: ClassVar[int] = 14

    @property
    def width(self) -> int:
        """The picture's width."""
        return self.px(self.WIDTH)

    @property
    def margin(self) -> int:
        """Space around the panels."""
        return self.px(self.MARGIN)

    @property
    def pad(self) -> int:
        """Space inside a panel."""
        return self.px(self.PAD)

    @property
    def inner(self) -> int:
        """The width inside the margins."""
        return self.width - 2 * self.margin


def laid_hand(tiles: tuple[str, ...], exposures: tuple[tuple[str, ...], ...]) -> tuple[
        LaidGroup, ...]:
    """A player's tiles as groups to lay out: the concealed tiles sorted, then each exposure."""
    concealed = (LaidGroup(sort_tiles(tiles)),) if tiles else ()
    return concealed + tuple(LaidGroup(group) for group in exposures)


def slot_color(slot: int | None, neutral: str) -> str:
    """The printed colour of a card colour slot (0, 1, 2), or `neutral` for None."""
    return neutral if slot is None else SLOT_COLORS[slot % len(SLOT_COLORS)]


@dataclass(frozen=True)
class TileRow:
    """How a row of tiles is spaced: tile width, gap between tiles, gap between groups."""

    width: int
    gap: int
    group_gap: int

    @property
    def height(self) -> int:
        """The height of one tile in this row."""
        return tile_height(self.width)

    def tiles_width(self, count: int) -> int:
        """Pixels taken by `count` tiles side by side."""
        return count * self.width + max(0, count - 1) * self.gap

    def groups_width(self, sizes: Sequence[int]) -> int:
        """Pixels taken by groups of these sizes, separated by group gaps."""
        if not sizes:
            return 0
        return sum(self.tiles_width(n) for n in sizes) + self.group_gap * (len(sizes) - 1)

    def wrap(self, sizes: Sequence[int], max_width: int) -> list[list[int]]:
        """Split group indexes into lines no wider than `max_width` (a group never splits)."""
        lines: list[list[int]] = [[]]
        used = 0
        for index, size in enumerate(sizes):
            need = self.tiles_width(size) + (self.group_gap if lines[-1] else 0)
            if lines[-1] and used + need > max_width:
                lines.append([])
                used, need = 0, self.tiles_width(size)
            lines[-1].append(index)
            used += need
        return lines if lines[0] else []


class Canvas:
    """An RGB picture being drawn, with helpers for the renderer's common pieces.

    Every text goes through `write` and every tile face through `tile`, so that inside
    `renderer.measure.recording()` the picture reports everything it drew.
    """

    def __init__(self, width: int, height: int, background: Color) -> None:
        self.image = Image.new("RGB", (max(1, width), max(1, height)), background)
        self.draw = ImageDraw.Draw(self.image)
        self.drawing = start_drawing(self.image.width, self.image.height)

    def write(self, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont,
              fill: Color, anchor: str = "la") -> None:
        """Draw text already fitted and cleaned, in `fnt`, at `xy` (a Pillow anchor)."""
        if not text:
            return
        self.draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)
        if self.drawing is not None and text.strip():
            box = self.draw.textbbox(xy, text, font=fnt, anchor=anchor)
            self.drawing.texts.append(TextRun(text, round(fnt.size), cap_height(fnt),
                                              _int_box(box)))

    def tile(self, code: str, x: int, y: int, width: int, *, dimmed: bool = False) -> None:
        """Paste one tile face with its top-left corner at (x, y)."""
        sprite = tile_sprite(code, width, dimmed)
        self.image.paste(sprite, (x, y), sprite)
        if self.drawing is not None:
            self.drawing.tiles.append(TileFace(code, (x, y, x + width, y + sprite.height),
                                               index_cap(code, width), dimmed))

    def back(self, x: int, y: int, width: int) -> None:
        """Paste one face-down tile."""
        sprite = back_sprite(width)
        self.image.paste(sprite, (x, y), sprite)
        if self.drawing is not None:
            self.drawing.backs.append((x, y, x + width, y + sprite.height))

    def tiles(self, codes: Sequence[str], x: int, y: int, row: TileRow,
              dimmed: Sequence[bool] = ()) -> int:
        """Draw tiles left to right; returns the x just after the last tile."""
        for index, code in enumerate(codes):
            self.tile(code, x, y, row.width, dimmed=index < len(dimmed) and dimmed[index])
            x += row.width + row.gap
        return x - row.gap if codes else x

    def laid(self, groups: Sequence[LaidGroup], x: int, y: int, row: TileRow) -> int:
        """Draw tiles in groups, a wider gap between groups: missing tiles greyed, the
        winning tile ringed, and a bar in the group's card colour under each coloured group
        (`laid_height` tall in all). Returns the end x."""
        bar = _bar(row)
        for group in groups:
            end = self.tiles(group.tiles, x, y, row, group.missing)
            if group.winning is not None:
                tile_x = x + group.winning * (row.width + row.gap)
                self.ring((tile_x, y, tile_x + row.width, y + row.height), WINNING,
                          max(3, row.width // 10), radius=max(2, row.width // 8),
                          meaning="winning")
            if group.color is not None:
                top = y + row.height + bar
                self.draw.rounded_rectangle((x, top, end, top + bar), radius=bar // 2,
                                            fill=slot_color(group.color, LIGHT))
            x = end + row.group_gap
        return x - row.group_gap if groups else x

    def laid_lines(self, groups: Sequence[LaidGroup], x: int, y: int, row: TileRow,
                   max_width: int) -> int:
        """Draw a laid-out hand wrapped onto lines no wider than `max_width`; returns the
        height used (see `laid_lines_height`)."""
        top = y
        for line in _lines(groups, row, max_width):
            self.laid(line, x, y, row)
            y += laid_height(row, line) + _line_gap(row)
        return y - top - _line_gap(row) if y > top else 0

    def backs(self, count: int, x: int, y: int, width: int, overlap: int = 0) -> int:
        """Draw `count` face-down tiles, each covering `overlap` pixels of the one before."""
        for _ in range(count):
            self.back(x, y, width)
            x += width - overlap
        return x + overlap if count else x

    def text(self, xy: tuple[float, float], text: str, size: int, fill: Color, *,
             max_width: float, face: Face = Face.REGULAR, min_size: int | None = None,
             anchor: str = "la") -> float:
        """Fit and draw one line of text; returns its width."""
        fitted = fit(text, size, max_width, face=face, min_size=min_size)
        self.write(xy, fitted.text, fitted.font, fill, anchor)
        return fitted.width

    def badge(self, x: int, y: int, label: str, size: int, fill: Color,
              text_fill: Color = LIGHT, *, max_width: float = 400) -> int:
        """A rounded label (BOT, DEAD, YOU, …) with its top-left at (x, y); returns its width."""
        fitted = fit(label, size, max_width - size, face=Face.BOLD)
        pad = size // 2
        width = round(fitted.width) + 2 * pad
        height = badge_height(size)
        self.draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2,
                                    fill=fill)
        self.write((x + pad, y + height / 2), fitted.text, fitted.font, text_fill, "lm")
        return width

    def name_line(self, x: int, mid: int, name: str, size: int, badges: Sequence[Badge],
                  badge_size: int, max_width: int) -> int:
        """A player's name in bold, then its badges (TURN, BOT, DEAD, …), on one line
        centred on `mid`. Badges keep their width; the name shrinks (down to the badges'
        size), then shortens, to fit what is left of `max_width`. Returns the x after the
        last badge."""
        gap = max(3, badge_size * 2 // 3)
        badges_width = sum(badge_width(label, badge_size) + gap for label, _, _ in badges)
        room = max(size * 2, max_width - badges_width - gap)
        width = self.text((x, mid), name, size, LIGHT, max_width=room, face=Face.BOLD,
                          min_size=badge_size, anchor="lm")
        x += round(width) + gap
        top = mid - badge_height(badge_size) // 2
        for label, fill, ink in badges:
            x += self.badge(x, top, label, badge_size, fill, ink) + gap
        return x

    def ring(self, box: tuple[int, int, int, int], color: Color, width: int,
             radius: int = 8, *, meaning: str = "") -> None:
        """An outline around a box, drawn outside it by `width` pixels; `meaning` names
        what it marks (the drawn tile, the winning tile) for `recording()`."""
        x0, y0, x1, y1 = box
        self.draw.rounded_rectangle((x0 - width, y0 - width, x1 + width, y1 + width),
                                    radius=radius + width, outline=color, width=width)
        if self.drawing is not None and meaning:
            self.drawing.marks.append(Mark(meaning, box))

    def panel(self, box: tuple[int, int, int, int], fill: Color = PANEL,
              outline: Color = PANEL_EDGE, width: int = 2, radius: int = 14) -> None:
        """A rounded panel behind a block of the picture."""
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline,
                                    width=width)

    def png(self) -> bytes:
        """The picture as PNG bytes (deterministic: no timestamps or text chunks).

        Our pictures are flat colours and smooth edges, so a 256-colour palette looks the
        same as full colour while the file is a third of the size and encodes twice as fast.
        The palette is chosen from every third pixel each way, which finds the same flat
        colours in a ninth of the time.
        """
        image = self.image
        sample = image.resize((max(1, image.width // 3), max(1, image.height // 3)),
                              Image.Resampling.NEAREST)
        palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE,
                                  dither=Image.Dither.NONE)
        indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
        buffer = io.BytesIO()
        indexed.save(buffer, format="PNG", compress_level=PNG_COMPRESS)
        return buffer.getvalue()


def _int_box(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    return (round(box[0]), round(box[1]), round(box[2]), round(box[3]))


def _bar(row: TileRow) -> int:
    return max(2, row.width // 12)


def _line_gap(row: TileRow) -> int:
    return max(4, row.width // 5)


def laid_height(row: TileRow, groups: Sequence[LaidGroup]) -> int:
    """The height of groups drawn by `Canvas.laid`: the tiles, plus room for the colour
    bars when any group has a colour."""
    coloured = any(group.color is not None for group in groups)
    return row.height + (3 * _bar(row) if coloured else 0)


def _lines(groups: Sequence[LaidGroup], row: TileRow, max_width: int) -> list[
        list[LaidGroup]]:
    return [[groups[i] for i in line]
            for line in row.wrap([len(g.tiles) for g in groups], max_width)]


def plain_groups(groups: Sequence[Sequence[str]]) -> tuple[LaidGroup, ...]:
    """Groups of tile codes (exposures) as laid groups with nothing missing and no colour."""
    return tuple(LaidGroup(tuple(group)) for group in groups)


def laid_lines_height(groups: Sequence[LaidGroup], row: TileRow, max_width: int) -> int:
    """The height `Canvas.laid_lines` uses for these groups."""
    lines = _lines(groups, row, max_width)
    return sum(laid_height(row, line) for line in lines) + max(0, len(lines) - 1) * _line_gap(
        row)


def badge_width(label: str, size: int) -> int:
    """The width of a badge showing `label` in text of `size` pixels (unshortened)."""
    return round(fit(label, size, 10_000, face=Face.BOLD).width) + 2 * (size // 2)


def badge_height(size: int) -> int:
    """The height of a badge whose text is `size` pixels."""
    return round(size * 1.6)
