"""Tile art, drawn by our own code: one sprite per tile code and size, cached.

Every tile is an ivory face on a coloured base, like a real tile seen from the front. Suited
tiles carry their rank as a large corner index, as American sets print it, above the suit's
own art, so suits differ by shape as well as colour: Dots are rings, Bams are sticks (the 1 Bam
a bird), Craks the character 萬 under the rank in Chinese. Winds are their letter, large, over
their Chinese character, so no two winds look alike. The three dragons share one frame in
three colours, as a set: Red holds 中, Green 發, and Soap, the white dragon, is the empty frame.
Dragons, flowers and jokers carry a corner index too (R, G, 0, F, J), so every tile is named
by a letter or digit in the same place, which a phone shows even when the art is small.

The Chinese characters come from a small bundled subset of an open font (`Face.TILE_GLYPHS`).
Sprites are drawn at four times their size and scaled down, which smooths every edge; they
are cached per (code, width, dimmed), so composing a picture is mostly pasting.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageOps

from renderer.codes import SUITED_CODES, check_code
from renderer.fonts import Face, font

#: Height of a tile as a multiple of its width.
TILE_RATIO = 1.36
SUPERSAMPLE = 4

INK = "#1d2540"
FACE = "#fbf6e6"
FACE_EDGE = "#d9d0b4"
BASE = "#2f8a73"
BASE_DARK = "#1d5c4c"
OUTLINE = "#4a4538"

BAM = "#15803d"
CRAK = "#c62828"
DOT = "#1d4ed8"
FLOWER = "#be185d"
JOKER = "#6d28d9"
GOLD = "#d99a06"
SOAP = "#1e5bb8"

SUIT_COLORS = {"B": BAM, "C": CRAK, "D": DOT}

Point = tuple[float, float]


def tile_height(width: int) -> int:
    """The pixel height of a tile `width` pixels wide."""
    return round(width * TILE_RATIO)


class _Pen:
    """Draws in tile units: x runs 0-1 across the tile, y 0-TILE_RATIO down it."""

    def __init__(self, image: Image.Image) -> None:
        self.draw = ImageDraw.Draw(image)
        self.unit = image.width

    def px(self, value: float) -> int:
        return round(value * self.unit)

    def pts(self, points: Sequence[Point]) -> list[tuple[int, int]]:
        return [(self.px(x), self.px(y)) for x, y in points]

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        return (self.px(x0), self.px(y0), self.px(x1), self.px(y1))

    def disc(self, cx: float, cy: float, r: float, fill: str) -> None:
        self.draw.ellipse(self.box(cx - r, cy - r, cx + r, cy + r), fill=fill)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: str | None,
             radius: float = 0.0, outline: str | None = None, width: float = 0.0) -> None:
        self.draw.rounded_rectangle(self.box(x0, y0, x1, y1), radius=self.px(radius),
                                    fill=fill, outline=outline, width=self.px(width))

    def line(self, points: Sequence[Point], fill: str, width: float) -> None:
        self.draw.line(self.pts(points), fill=fill, width=max(1, self.px(width)),
                       joint="curve")
        for x, y in (points[0], points[-1]):
            self.disc(x, y, width / 2, fill)

    def poly(self, points: Sequence[Point], fill: str) -> None:
        self.draw.polygon(self.pts(points), fill=fill)

    def text(self, x: float, y: float, text: str, size: float, fill: str,
             face: Face = Face.CONDENSED, anchor: str = "mm") -> None:
        self.draw.text((self.px(x), self.px(y)), text, font=font(self.px(size), face),
                       fill=fill, anchor=anchor)


def _leaf(cx: float, cy: float, length: float, width: float, angle: float) -> list[Point]:
    """A pointed leaf or petal from (cx, cy) outwards at `angle` degrees (0 = up)."""
    rad = math.radians(angle)
    ax, ay = math.sin(rad), -math.cos(rad)
    steps = 12
    side: list[Point] = []
    for i in range(steps + 1):
        t = i / steps
        half = width / 2 * math.sin(math.pi * t) ** 0.8
        side.append((t * length, half))
    outline = side + [(t, -h) for t, h in reversed(side)]
    return [(cx + t * ax - h * ay, cy + t * ay + h * ax) for t, h in outline]


# --- the faces of the tiles --------------------------------------------------------------

#: The art area under the corner index, in tile units.
ART = (0.1, 0.5, 0.9, 1.2)
#: The corner index: its font size and the baseline it sits on, in tile units.
INDEX_SIZE = 0.5
INDEX_BASELINE = 0.47
#: A wind's letter: its size and baseline; its Chinese character's size and centre.
WIND_SIZE = 0.78
WIND_BASELINE = 0.68
WIND_CHAR = (0.46, 0.98)
#: The dragons' frame (outer box, under the corner index) and the size of the character
#: inside it.
DRAGON_FRAME = (0.14, 0.52, 0.86, 1.2)
DRAGON_CHAR = 0.44

_CHINESE_NUMERALS = "一二三四五六七八九"
_WIND_CHARACTERS = {"N": "北", "E": "東", "W": "西", "S": "南"}
_DRAGON_CHARACTERS = {"R": "中", "G": "發", "0": ""}


def _art_xy(u: float, v: float) -> Point:
    x0, y0, x1, y1 = ART
    return (x0 + u * (x1 - x0), y0 + v * (y1 - y0))


def _corner_index(pen: _Pen, label: str, color: str) -> None:
    pen.text(0.07, INDEX_BASELINE, label, INDEX_SIZE, color, anchor="ls")


_DOT_LAYOUTS: dict[int, tuple[float, list[Point]]] = {
    1: (0.36, [(0.5, 0.5)]),
    2: (0.2, [(0.5, 0.23), (0.5, 0.77)]),
    3: (0.165, [(0.2, 0.17), (0.5, 0.5), (0.8, 0.83)]),
    4: (0.19, [(0.27, 0.25), (0.73, 0.25), (0.27, 0.75), (0.73, 0.75)]),
    5: (0.16, [(0.22, 0.2), (0.78, 0.2), (0.5, 0.5), (0.22, 0.8), (0.78, 0.8)]),
    6: (0.15, [(x, y) for y in (0.16, 0.5, 0.84) for x in (0.29, 0.71)]),
    7: (0.12, [(0.18, 0.1), (0.5, 0.24), (0.82, 0.38)]
        + [(x, y) for y in (0.64, 0.9) for x in (0.3, 0.7)]),
    8: (0.12, [(x, y) for y in (0.11, 0.37, 0.63, 0.89) for x in (0.3, 0.7)]),
    9: (0.135, [(x, y) for y in (0.16, 0.5, 0.84) for x in (0.17, 0.5, 0.83)]),
}


def _dots(pen: _Pen, rank: int) -> None:
    radius, centres = _DOT_LAYOUTS[rank]
    r = radius * (ART[3] - ART[1])
    for u, v in centres:
        x, y = _art_xy(u, v)
        pen.disc(x, y, r, DOT)
        pen.disc(x, y, r * 0.66, FACE)
        pen.disc(x, y, r * 0.42, CRAK if rank == 1 else DOT)
        if rank == 1:
            pen.disc(x, y, r * 0.18, FACE)


#: (centre u, centre v, red?) per stick, and the stick length in art-box heights.
_BAM_LAYOUTS: dict[int, tuple[float, list[tuple[float, float, bool]]]] = {
    2: (0.42, [(0.5, 0.24, False), (0.5, 0.76, False)]),
    3: (0.42, [(0.5, 0.24, False), (0.28, 0.76, False), (0.72, 0.76, False)]),
    4: (0.42, [(u, v, False) for v in (0.24, 0.76) for u in (0.28, 0.72)]),
    5: (0.42, [(0.2, 0.24, False), (0.8, 0.24, False), (0.5, 0.5, True),
               (0.2, 0.76, False), (0.8, 0.76, False)]),
    6: (0.42, [(u, v, False) for v in (0.24, 0.76) for u in (0.2, 0.5, 0.8)]),
    7: (0.28, [(0.5, 0.15, True)] + [(u, v, False) for v in (0.5, 0.85)
                                      for u in (0.2, 0.5, 0.8)]),
    8: (0.42, [(u, v, False) for v in (0.24, 0.76) for u in (0.13, 0.38, 0.62, 0.87)]),
    9: (0.28, [(u, v, u == 0.5) for v in (0.15, 0.5, 0.85) for u in (0.2, 0.5, 0.8)]),
}


def _stick(pen: _Pen, x: float, y: float, length: float, width: float, red: bool) -> None:
    """One bamboo stick: a rounded bar with a collar at its joint."""
    color = CRAK if red else BAM
    pen.rect(x - width / 2, y - length / 2, x + width / 2, y + length / 2, color,
             radius=width * 0.4)
    pen.rect(x - width * 0.64, y - width * 0.3, x + width * 0.64, y + width * 0.3, color,
             radius=width * 0.12)
    pen.rect(x - width * 0.64, y - width * 0.06, x + width * 0.64, y + width * 0.06, FACE)


def _bams(pen: _Pen, rank: int) -> None:
    if rank == 1:
        _bird(pen)
        return
    height, sticks = _BAM_LAYOUTS[rank]
    length = height * (ART[3] - ART[1])
    width = 0.12 if rank == 8 else 0.14
    for u, v, red in sticks:
        x, y = _art_xy(u, v)
        _stick(pen, x, y, length, width, red)


def _bird(pen: _Pen) -> None:
    """The 1 Bam: a small standing bird."""
    def at(u: float, v: float) -> Point:
        return _art_xy(u, v)

    pen.poly([at(0.42, 0.55), at(0.0, 0.22), at(0.08, 0.5), at(0.0, 0.8)], BAM)
    pen.line([at(0.04, 0.32), at(0.32, 0.55)], CRAK, 0.025)
    pen.line([at(0.04, 0.7), at(0.32, 0.58)], CRAK, 0.025)
    pen.line([at(0.45, 0.78), at(0.42, 0.98)], INK, 0.03)
    pen.line([at(0.6, 0.78), at(0.63, 0.98)], INK, 0.03)
    x0, y0 = at(0.2, 0.35)
    x1, y1 = at(0.85, 0.82)
    pen.draw.ellipse(pen.box(x0, y0, x1, y1), fill=BAM)
    pen.poly(_leaf(*at(0.38, 0.55), 0.26, 0.12, 70), "#0d5c2b")
    hx, hy = at(0.78, 0.3)
    pen.disc(hx, hy, 0.1, BAM)
    pen.poly([at(0.9, 0.22), at(1.04, 0.3), at(0.9, 0.36)], CRAK)
    pen.disc(hx + 0.03, hy - 0.02, 0.026, FACE)
    pen.disc(hx + 0.035, hy - 0.02, 0.013, INK)


def _craks(pen: _Pen, rank: int) -> None:
    """A Crak as American sets print it: the rank in Chinese beside the corner index, over
    the red 萬."""
    pen.text(0.68, 0.29, _CHINESE_NUMERALS[rank - 1], 0.36, INK, Face.TILE_GLYPHS)
    x, y = _art_xy(0.5, 0.53)
    pen.text(x, y, "萬", 0.62, CRAK, Face.TILE_GLYPHS)


def _wind(pen: _Pen, code: str) -> None:
    """A wind: its letter, large, over its Chinese character."""
    pen.text(0.5, WIND_BASELINE, code, WIND_SIZE, INK, anchor="ms")
    pen.text(0.5, WIND_CHAR[1], _WIND_CHARACTERS[code], WIND_CHAR[0], INK, Face.TILE_GLYPHS)


def _dragon(color: str, character: str) -> Callable[[_Pen], None]:
    """A dragon: the frame every dragon shares, in its colour, round its character."""
    def draw(pen: _Pen) -> None:
        x0, y0, x1, y1 = DRAGON_FRAME
        pen.rect(x0, y0, x1, y1, None, radius=0.05, outline=color, width=0.07)
        pen.rect(x0 + 0.1, y0 + 0.1, x1 - 0.1, y1 - 0.1, None, radius=0.02,
                 outline=color, width=0.03)
        if character:
            pen.text((x0 + x1) / 2, (y0 + y1) / 2, character, DRAGON_CHAR, color,
                     Face.TILE_GLYPHS)
    return draw


def _flower(pen: _Pen) -> None:
    cx, cy = _art_xy(0.5, 0.4)
    stem_end = _art_xy(0.5, 1.0)
    pen.line([(cx, cy), stem_end], BAM, 0.045)
    pen.poly(_leaf(*_art_xy(0.5, 0.86), 0.26, 0.12, 55), BAM)
    for i in range(5):
        pen.poly(_leaf(cx, cy, 0.25, 0.19, i * 72), FLOWER)
    pen.disc(cx, cy, 0.075, GOLD)


def _joker(pen: _Pen) -> None:
    x0, y0 = _art_xy(0.12, 0.5)
    x1, y1 = _art_xy(0.88, 0.66)
    tips = [_art_xy(0.08, 0.22), _art_xy(0.5, 0.04), _art_xy(0.92, 0.22)]
    colours = [JOKER, GOLD, JOKER]
    bases = [(0.12, 0.42), (0.36, 0.64), (0.58, 0.88)]
    for tip, colour, (left, right) in zip(tips, colours, bases, strict=True):
        pen.poly([_art_xy(left, 0.52), tip, _art_xy(right, 0.52)], colour)
    pen.rect(x0, y0, x1, y1, JOKER, radius=0.03)
    for tip in tips:
        pen.disc(*tip, 0.05, GOLD)
        pen.disc(*tip, 0.022, JOKER)
    pen.text(0.5, ART[3] - 0.08, "JOKER", 0.2, JOKER)


def _blank_face(pen: _Pen) -> None:
    """The Blank (house rule): a plain face."""


#: The corner index (if any), its colour and the art of each tile that has no rank.
_HONOR_FACES: dict[str, tuple[str, str, Callable[[_Pen], None]]] = {
    "R": ("R", CRAK, _dragon(CRAK, _DRAGON_CHARACTERS["R"])),
    "G": ("G", BAM, _dragon(BAM, _DRAGON_CHARACTERS["G"])),
    "0": ("0", SOAP, _dragon(SOAP, _DRAGON_CHARACTERS["0"])),
    "F": ("F", FLOWER, _flower),
    "J": ("J", JOKER, _joker),
    "X": ("", INK, _blank_face),
}


def _draw_face(pen: _Pen, code: str) -> None:
    """Everything drawn on a tile's ivory face: its corner index and its art."""
    if code in SUITED_CODES:
        rank, suit = int(code[0]), code[1]
        _corner_index(pen, code[0], SUIT_COLORS[suit])
        {"B": _bams, "C": _craks, "D": _dots}[suit](pen, rank)
    elif code in _WIND_CHARACTERS:
        _wind(pen, code)
    else:
        index, color, art = _HONOR_FACES[code]
        if index:
            _corner_index(pen, index, color)
        art(pen)


def index_cap(code: str, width: int) -> float | None:
    """The height in pixels of the glyph that names a tile `width` pixels wide: its corner
    index or a wind's letter; None for the Blank, which has neither."""
    check_code(code)
    if code in SUITED_CODES:
        return _ink_height(code[0], INDEX_SIZE, Face.CONDENSED, width)
    if code in _WIND_CHARACTERS:
        return _ink_height(code, WIND_SIZE, Face.CONDENSED, width)
    index = _HONOR_FACES[code][0]
    return _ink_height(index, INDEX_SIZE, Face.CONDENSED, width) if index else None


@lru_cache(maxsize=1024)
def _ink_height(text: str, size: float, face: Face, width: int) -> float:
    """The inked height of `text` drawn `size` tile widths tall on a tile `width` pixels
    wide, as the sprite draws it (at four times the size, then scaled down)."""
    fnt = font(round(size * width * SUPERSAMPLE), face)
    _, top, _, bottom = fnt.getbbox(text)
    return (bottom - top) / SUPERSAMPLE


# --- whole tiles -------------------------------------------------------------------------

#: Where the face ends and the coloured base shows, in tile units from the top.
FACE_BOTTOM = TILE_RATIO - 0.1


def _blank_tile(width: int) -> tuple[Image.Image, _Pen]:
    big = Image.new("RGBA", (width * SUPERSAMPLE, tile_height(width) * SUPERSAMPLE),
                    (0, 0, 0, 0))
    pen = _Pen(big)
    pen.rect(0, 0, 1, TILE_RATIO, BASE_DARK, radius=0.12)
    pen.rect(0.02, 0.02, 0.98, TILE_RATIO - 0.035, BASE, radius=0.11)
    return big, pen


def _finish(big: Image.Image, width: int) -> Image.Image:
    return big.resize((width, tile_height(width)), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def tile_sprite(code: str, width: int, dimmed: bool = False) -> Image.Image:
    """The RGBA picture of one tile, `width` pixels wide (cached; do not modify it).

    `dimmed` gives the greyed, faded form used for tiles a hand still needs.
    """
    check_code(code)
    if dimmed:
        sprite = tile_sprite(code, width)
        grey = ImageOps.grayscale(sprite.convert("RGB")).convert("RGB")
        faded = Image.blend(grey, Image.new("RGB", grey.size, "#f4f1ea"), 0.55)
        faded.putalpha(sprite.getchannel("A").point(lambda a: a * 85 // 100))
        return faded
    big, pen = _blank_tile(width)
    pen.rect(0.0, 0.0, 1.0, FACE_BOTTOM, FACE_EDGE, radius=0.12)
    pen.rect(0.015, 0.01, 0.985, FACE_BOTTOM - 0.025, FACE, radius=0.11)
    _draw_face(pen, code)
    pen.rect(0, 0, 1, TILE_RATIO, None, radius=0.12, outline=OUTLINE, width=0.018)
    return _finish(big, width)


@lru_cache(maxsize=64)
def back_sprite(width: int) -> Image.Image:
    """The RGBA picture of a face-down tile, `width` pixels wide (cached)."""
    big, pen = _blank_tile(width)
    pen.rect(0.12, 0.12, 0.88, TILE_RATIO - 0.16, None, radius=0.06, outline="#7cc4ae",
             width=0.035)
    cx, cy = 0.5, (TILE_RATIO - 0.04) / 2
    pen.poly([(cx, cy - 0.22), (cx + 0.16, cy), (cx, cy + 0.22), (cx - 0.16, cy)], "#7cc4ae")
    pen.rect(0, 0, 1, TILE_RATIO, None, radius=0.12, outline=OUTLINE, width=0.018)
    return _finish(big, width)
