"""The tile codes the renderer reads, in the project's text notation, and their rack order.

The renderer takes tiles as text so that it never needs the engine: `1B`-`9B` (Bams),
`1C`-`9C` (Craks), `1D`-`9D` (Dots), `N E W S` (winds), `R G 0` (Red, Green and Soap),
`F` (Flower), `J` (Joker) and `X` (Blank). The order of `TILE_CODES` is the order a rack is
sorted in: suits, winds, dragons, flowers, jokers, blanks.
"""

from __future__ import annotations

from collections.abc import Iterable

SUIT_LETTERS = "BCD"
WIND_CODES = ("N", "E", "W", "S")
DRAGON_CODES = ("R", "G", "0")
SUITED_CODES = tuple(f"{rank}{suit}" for suit in SUIT_LETTERS for rank in range(1, 10))

#: Every tile code, in rack order.
TILE_CODES: tuple[str, ...] = (*SUITED_CODES, *WIND_CODES, *DRAGON_CODES, "F", "J", "X")

_ORDER = {code: index for index, code in enumerate(TILE_CODES)}
_SUIT_NAMES = {"B": "Bam", "C": "Crak", "D": "Dot"}
_HONOR_NAMES = {"N": "North", "E": "East", "W": "West", "S": "South", "R": "Red",
                "G": "Green", "0": "Soap", "F": "Flower", "J": "Joker", "X": "Blank"}


def check_code(code: str) -> str:
    """Return `code` if it is a tile code; raise `ValueError` naming it otherwise."""
    if code not in _ORDER:
        raise ValueError(f"{code!r} is not a tile code (expected one of {' '.join(TILE_CODES)})")
    return code


def check_codes(codes: Iterable[str]) -> None:
    """Raise `ValueError` at the first string in `codes` that is not a tile code."""
    for code in codes:
        check_code(code)


def rack_order(code: str) -> int:
    """The position of a tile in rack order (suits, winds, dragons, flowers, jokers)."""
    return _ORDER[check_code(code)]


def sort_tiles(codes: Iterable[str]) -> tuple[str, ...]:
    """The tiles sorted the way a rack shows them."""
    return tuple(sorted(codes, key=rack_order))


def tile_name(code: str) -> str:
    """A tile's name in words, for captions: `3 Bam`, `North`, `Soap`, `Joker`."""
    check_code(code)
    if code in _HONOR_NAMES:
        return _HONOR_NAMES[code]
    return f"{code[0]} {_SUIT_NAMES[code[1]]}"
