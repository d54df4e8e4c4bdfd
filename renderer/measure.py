"""What a picture drew, and whether a phone can read it.

Most players see our pictures in Discord on a phone, where a picture is shown about
`PHONE_WIDTH` pixels wide whatever its own size. The legibility rule, measured on what the
renderer really drew (not on its design constants):

* every text run has a cap height (the height of a capital H in the font it was drawn
  with) of at least `MIN_CAP` pixels once the picture is scaled to `PHONE_WIDTH` wide:
  about an 11 px font, the smallest text style phones use;
* every tile index (the rank or letter in a tile's corner, or a wind's letter) has a cap
  height of at least `MIN_CAP` pixels at that width too;
* every tile face is at least `MIN_TILE` pixels wide at that width.

Rendering inside `recording()` collects one `Drawing` per picture: each text run with its
font size and cap height, each tile face with its box and index height, each face-down tile's
box, and each mark (the drawn tile's ring, the winning tile's ring) with its box. Outside
`recording()` nothing is collected.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import ImageFont

#: The width, in pixels, at which Discord's phone apps show a picture.
PHONE_WIDTH = 400
#: The smallest cap height of any text or tile index at `PHONE_WIDTH`, in pixels.
MIN_CAP = 8.0
#: The narrowest tile face at `PHONE_WIDTH`, in pixels.
MIN_TILE = 20.0

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class TextRun:
    """One piece of text as drawn: the string, its font size and cap height in pixels (at
    the picture's own size) and its box."""

    text: str
    size: int
    cap: float
    box: Box


@dataclass(frozen=True)
class TileFace:
    """One tile face as drawn: its code, its box, the cap height of its index (None for a
    face with no index: the Blank) and whether it was greyed."""

    code: str
    box: Box
    index_cap: float | None
    dimmed: bool = False

    @property
    def width(self) -> int:
        """The face's width in pixels."""
        return self.box[2] - self.box[0]


@dataclass(frozen=True)
class Mark:
    """A highlight drawn round something, by what it means ("drawn", "winning", "latest")."""

    meaning: str
    box: Box


@dataclass
class Drawing:
    """Everything one picture drew, at the picture's own size."""

    width: int
    height: int
    texts: list[TextRun] = field(default_factory=list)
    tiles: list[TileFace] = field(default_factory=list)
    backs: list[Box] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)

    @property
    def phone_scale(self) -> float:
        """The factor that brings the picture to `PHONE_WIDTH` wide."""
        return PHONE_WIDTH / self.width

    def smallest_text(self) -> TextRun | None:
        """The text run with the smallest cap height, if any text was drawn."""
        return min(self.texts, key=lambda run: run.cap, default=None)

    def smallest_index(self) -> TileFace | None:
        """The tile face with the smallest index, if any face has one."""
        indexed = [tile for tile in self.tiles if tile.index_cap is not None]
        return min(indexed, key=lambda tile: tile.index_cap or 0.0, default=None)

    def narrowest_tile(self) -> TileFace | None:
        """The narrowest tile face, if any tile was drawn."""
        return min(self.tiles, key=lambda tile: tile.width, default=None)

    def problems(self) -> list[str]:
        """Every way the picture breaks the legibility rule at `PHONE_WIDTH`, in words."""
        scale = self.phone_scale
        found = [f"text {run.text!r} is {run.cap * scale:.1f} px tall at {PHONE_WIDTH} px"
                 for run in self.texts if run.cap * scale < MIN_CAP]
        found += [f"tile {tile.code}'s index is {(tile.index_cap or 0) * scale:.1f} px tall"
                  for tile in self.tiles
                  if tile.index_cap is not None and tile.index_cap * scale < MIN_CAP]
        found += [f"tile {tile.code} is {tile.width * scale:.1f} px wide"
                  for tile in self.tiles if tile.width * scale < MIN_TILE]
        return found

    def marked(self, meaning: str) -> list[Box]:
        """The boxes of the marks with this meaning."""
        return [mark.box for mark in self.marks if mark.meaning == meaning]


_drawings: ContextVar[list[Drawing] | None] = ContextVar("jongg_drawings", default=None)


@contextmanager
def recording() -> Iterator[list[Drawing]]:
    """Collect a `Drawing` for every picture rendered inside the block, in order."""
    drawings: list[Drawing] = []
    token = _drawings.set(drawings)
    try:
        yield drawings
    finally:
        _drawings.reset(token)


def start_drawing(width: int, height: int) -> Drawing | None:
    """A new `Drawing` for a picture about to be drawn, when recording; else None."""
    drawings = _drawings.get()
    if drawings is None:
        return None
    drawing = Drawing(width, height)
    drawings.append(drawing)
    return drawing


@lru_cache(maxsize=512)
def cap_height(fnt: ImageFont.FreeTypeFont) -> float:
    """The height of a capital H in this font, in pixels."""
    _, top, _, bottom = fnt.getbbox("H")
    return float(bottom - top)
