"""Making any text fit: clean it for our font, then shrink it or shorten it with an ellipsis.

Player names come from Discord and can hold anything: emoji, accents, right-to-left or CJK
text, control characters, hundreds of characters. Drawing must never fail and never overflow
its box, so every piece of text the renderer draws goes through `clean` and one of the fitting
functions here.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageFont

from renderer.fonts import Face, covers, font

ELLIPSIS = "\u2026"
#: Drawn in place of a run of characters the font has no glyph for.
REPLACEMENT = "\ufffd"
#: The longest line we ever lay out; longer input is cut before measuring.
MAX_CHARS = 300


@lru_cache(maxsize=4096)
def clean(text: str, face: Face = Face.REGULAR, limit: int = MAX_CHARS) -> str:
    """Text made safe to draw with `face`, on one line, at most `limit` characters.

    Composes accents (NFC), turns line breaks and other spaces into single spaces, drops
    invisible format characters (joiners, variation selectors) and control characters, and
    replaces each run of characters the font lacks with one replacement mark.
    """
    out: list[str] = []
    for char in unicodedata.normalize("NFC", text[: limit * 4]):
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zl", "Zp"):
            if out and out[-1] != " ":
                out.append(" ")
        elif category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        elif covers(char, face):
            out.append(char)
        elif category in ("Mn", "Me", "Sk"):
            continue  # a mark or modifier the font lacks: the base character stands alone
        elif not out or out[-1] != REPLACEMENT:
            out.append(REPLACEMENT)
    return _visual_order("".join(out).strip()[:limit])


def _visual_order(text: str) -> str:
    """Right-to-left runs (Hebrew, Arabic) turned into drawing order.

    Our layout engine draws characters left to right as stored, which would print a Hebrew
    name backwards. This is a small part of the Unicode bidi rules: runs of right-to-left
    letters are reversed, spaces and punctuation between two runs of one direction join
    them, numbers read left to right, and a line that starts right-to-left has its runs in
    reverse order. Arabic letters keep their isolated forms, which stay readable.
    """
    kinds = [_direction(char) for char in text]
    if "R" not in kinds:
        return text
    runs: list[tuple[str, str]] = []
    for char, kind in zip(text, kinds, strict=True):
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + char)
        else:
            runs.append((kind, char))
    merged: list[tuple[str, str]] = []
    for index, (kind, chunk) in enumerate(runs):
        if kind == "N" and 0 < index < len(runs) - 1 and runs[index - 1][0] == runs[
                index + 1][0]:
            kind = runs[index - 1][0]
        if merged and merged[-1][0] == kind:
            merged[-1] = (kind, merged[-1][1] + chunk)
        else:
            merged.append((kind, chunk))
    if next(kind for kind in kinds if kind != "N") == "R":
        merged.reverse()
    return "".join(chunk[::-1] if kind == "R" else chunk for kind, chunk in merged)


def _direction(char: str) -> str:
    """`R` for right-to-left letters, `L` for left-to-right letters and digits, `N` for the
    rest (spaces, punctuation, symbols)."""
    kind = unicodedata.bidirectional(char)
    if kind in ("R", "AL"):
        return "R"
    return "L" if kind in ("L", "EN", "AN") else "N"


def ellipsize(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """`text` (already clean) if it fits in `max_width` pixels, else its longest prefix that
    fits followed by an ellipsis (just the ellipsis, or nothing, when even that is too wide)."""
    if fnt.getlength(text) <= max_width:
        return text
    if fnt.getlength(ELLIPSIS) > max_width:
        return ""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if fnt.getlength(text[:middle].rstrip() + ELLIPSIS) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


@dataclass(frozen=True)
class Fitted:
    """Text ready to draw: the string, its font, and its width in pixels."""

    text: str
    font: ImageFont.FreeTypeFont
    width: float


def fit(text: str, size: int, max_width: float, *, face: Face = Face.REGULAR,
        min_size: int | None = None) -> Fitted:
    """Fit text in `max_width`: shrink the font from `size` down to `min_size` (default: no
    shrinking), then shorten with an ellipsis at the smallest size if it still does not fit."""
    text = clean(text, face)
    smallest = size if min_size is None else min(min_size, size)
    width = font(size, face).getlength(text)
    # Widths grow about in step with the size, so start near the size that would fit.
    start = size if width <= max_width else max(smallest, int(size * max_width / width) + 1)
    for candidate in range(start, smallest - 1, -1):
        fnt = font(candidate, face)
        width = fnt.getlength(text)
        if width <= max_width:
            return Fitted(text, fnt, width)
    fnt = font(smallest, face)
    short = ellipsize(text, fnt, max_width)
    return Fitted(short, fnt, fnt.getlength(short))


def wrap(text: str, size: int, max_width: float, *, face: Face = Face.REGULAR,
         max_lines: int = 4) -> list[str]:
    """Clean text broken into lines no wider than `max_width`, at most `max_lines` of them
    (the last one ends in an ellipsis when text is left over). Long words are cut."""
    fnt = font(size, face)
    words = clean(text, face, limit=MAX_CHARS * max_lines).split(" ")
    lines: list[str] = []
    current = ""
    for index, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if fnt.getlength(candidate) <= max_width:
            current = candidate
            continue
        if len(lines) == max_lines - 1:
            rest = " ".join(words[index:] if not current else [current, *words[index:]])
            lines.append(ellipsize(rest, fnt, max_width))
            return lines
        if current:
            lines.append(current)
        current = word if fnt.getlength(word) <= max_width else ellipsize(word, fnt, max_width)
    if current:
        lines.append(current)
    return lines


def short(text: str, limit: int = 24) -> str:
    """Clean text cut to at most `limit` characters (ending in an ellipsis when cut), for
    names quoted inside a sentence."""
    text = clean(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS
