"""The fonts the renderer ships, where to find them, and which characters they can draw.

Fonts live in `data/fonts/` of a checkout or, for an installed package, in
`<sys.prefix>/share/jongg/fonts/` (pyproject's data-files puts them there). Text is laid out
with Pillow's basic layout engine so the same input gives the same pixels on every machine,
whether or not libraqm is present.

`covers` answers from the font's own character map (read here, without extra libraries), so
text fitting can replace characters the font lacks instead of drawing empty boxes.
"""

from __future__ import annotations

import struct
import sys
from enum import Enum
from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_ENV_HINT = "reinstall the package, or run from a checkout that has data/fonts/"


class Face(Enum):
    """The font faces the renderer uses, by file name."""

    REGULAR = "DejaVuSans.ttf"
    BOLD = "DejaVuSans-Bold.ttf"
    CONDENSED = "DejaVuSansCondensed-Bold.ttf"
    #: The Chinese characters printed on tiles (萬, the Crak numerals, 中, 發, the winds):
    #: a subset of Noto Serif CJK TC Bold, see scripts/subset_tile_font.py.
    TILE_GLYPHS = "JonggTileGlyphs.otf"

    @property
    def licence(self) -> str:
        """The file name of the face's licence, beside it in the fonts folder."""
        return ("LICENSE-NotoSerifCJK.txt" if self is Face.TILE_GLYPHS
                else "LICENSE-DejaVu.txt")


def font_dirs() -> tuple[Path, ...]:
    """Where fonts are looked for, in order: the checkout's data/, then the install prefix."""
    checkout = Path(__file__).resolve().parent.parent / "data" / "fonts"
    installed = Path(sys.prefix) / "share" / "jongg" / "fonts"
    return (checkout, installed)


@cache
def font_path(face: Face) -> Path:
    """The file of a face; `FileNotFoundError` saying where we looked when it is missing."""
    for folder in font_dirs():
        path = folder / face.value
        if path.is_file():
            return path
    places = " and ".join(str(folder) for folder in font_dirs())
    raise FileNotFoundError(f"Jongg's font {face.value} is missing (looked in {places}); "
                            f"{FONT_ENV_HINT}.")


@cache
def font(size: int, face: Face = Face.REGULAR) -> ImageFont.FreeTypeFont:
    """A loaded font of `size` pixels (cached: loading a TrueType file is slow)."""
    return ImageFont.truetype(str(font_path(face)), max(1, size),
                              layout_engine=ImageFont.Layout.BASIC)


def covers(char: str, face: Face = Face.REGULAR) -> bool:
    """True when the face has a glyph for the character `char`."""
    return ord(char) in _coverage(face)


@cache
def _coverage(face: Face) -> frozenset[int]:
    return frozenset(_cmap_codepoints(font_path(face).read_bytes()))


def _cmap_codepoints(data: bytes) -> set[int]:
    """Every code point a TrueType file maps to a real glyph (cmap formats 4 and 12)."""
    num_tables = struct.unpack_from(">H", data, 4)[0]
    tables = {data[12 + 16 * i:16 + 16 * i]: struct.unpack_from(">I", data, 20 + 16 * i)[0]
              for i in range(num_tables)}
    cmap = tables[b"cmap"]
    codepoints: set[int] = set()
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        start = cmap + offset
        table_format = struct.unpack_from(">H", data, start)[0]
        if table_format == 4:
            codepoints |= _format4(data, start)
        elif table_format == 12:
            codepoints |= _format12(data, start)
    return codepoints


def _format4(data: bytes, start: int) -> set[int]:
    segments = struct.unpack_from(">H", data, start + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, start + 14)
    starts = struct.unpack_from(f">{segments}H", data, start + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, start + 16 + 4 * segments)
    range_at = start + 16 + 6 * segments
    range_offsets = struct.unpack_from(f">{segments}H", data, range_at)
    found: set[int] = set()
    for seg in range(segments):
        for code in range(starts[seg], ends[seg] + 1):
            if code == 0xFFFF:
                continue
            if range_offsets[seg] == 0:
                glyph = (code + deltas[seg]) & 0xFFFF
            else:
                where = range_at + 2 * seg + range_offsets[seg] + 2 * (code - starts[seg])
                glyph = struct.unpack_from(">H", data, where)[0]
            if glyph:
                found.add(code)
    return found


def _format12(data: bytes, start: int) -> set[int]:
    groups = struct.unpack_from(">I", data, start + 12)[0]
    found: set[int] = set()
    for i in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * i)
        found.update(code for code in range(first, last + 1) if glyph + code - first)
    return found
