"""Tile kinds, the physical set, and the text notation people type and read.

A tile *kind* is a small int. The order is the order a rack is sorted in: the three suits
(Bams, Craks, Dots; ranks 1-9), the winds in card order (N, E, W, S), the dragons (Red, Green,
Soap), then Flower, Joker and Blank. A *physical* tile is an index into a set's list of kinds,
so every tile in a game has an id and a game can be replayed exactly.

The notation, one form for tests, logs, error messages, slash commands and card files:

    3B 3C 3D      a 3 Bam, a 3 Crak, a 3 Dot (suit letter after the ranks)
    1123B         several ranks of one suit at once: 1B 1B 2B 3B
    N E W S       the winds; NNEW is N N E W
    R G 0         Red, Green and White ("Soap", also written 0 because it is zero in years)
    F J X         Flower, Joker, Blank

Friendly words are accepted too (`3 bam`, `5 crak`, `red`, `soap`, `north`, `joker`,
`flowers`), and everything is case-insensitive. `format_tiles` prints one canonical form that
`parse_tiles` reads back.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import IntEnum

from bot.engine.errors import InvalidInput, echo


class Suit(IntEnum):
    """The three numbered suits, in rack order."""

    BAM = 0
    CRAK = 1
    DOT = 2


SUIT_LETTERS = "BCD"
SUIT_NAMES = ("Bam", "Crak", "Dot")

NORTH, EAST, WEST, SOUTH = 27, 28, 29, 30
RED, GREEN, SOAP = 31, 32, 33
FLOWER, JOKER, BLANK = 34, 35, 36
NUM_KINDS = 37

WINDS = (NORTH, EAST, WEST, SOUTH)
DRAGONS = (RED, GREEN, SOAP)

#: Each suit's own dragon, as printed cards pair them: Craks-Red, Bams-Green, Dots-Soap.
SUIT_DRAGON = {Suit.BAM: GREEN, Suit.CRAK: RED, Suit.DOT: SOAP}

_HONOR_LETTERS = {NORTH: "N", EAST: "E", WEST: "W", SOUTH: "S", RED: "R", GREEN: "G",
                  SOAP: "0", FLOWER: "F", JOKER: "J", BLANK: "X"}
_HONOR_NAMES = {NORTH: "North", EAST: "East", WEST: "West", SOUTH: "South", RED: "Red",
                GREEN: "Green", SOAP: "Soap", FLOWER: "Flower", JOKER: "Joker", BLANK: "Blank"}
_LETTER_KIND = {letter.lower(): kind for kind, letter in _HONOR_LETTERS.items()}


def suited(suit: Suit, rank: int) -> int:
    """The kind of a numbered tile; `rank` is 1-9."""
    if not 1 <= rank <= 9:
        raise ValueError(f"rank {rank} is not 1-9")
    return int(suit) * 9 + rank - 1


def is_suited(kind: int) -> bool:
    """True for Bams, Craks and Dots."""
    return 0 <= kind < 27


def suit_of(kind: int) -> Suit:
    """The suit of a numbered tile."""
    if not is_suited(kind):
        raise ValueError(f"tile kind {kind} has no suit")
    return Suit(kind // 9)


def rank_of(kind: int) -> int:
    """The rank (1-9) of a numbered tile."""
    if not is_suited(kind):
        raise ValueError(f"tile kind {kind} has no rank")
    return kind % 9 + 1


def format_tile(kind: int) -> str:
    """The canonical short form of one tile: `3B`, `N`, `R`, `0`, `F`, `J`, `X`."""
    if is_suited(kind):
        return f"{rank_of(kind)}{SUIT_LETTERS[kind // 9]}"
    try:
        return _HONOR_LETTERS[kind]
    except KeyError:
        raise ValueError(f"{kind} is not a tile kind") from None


def tile_name(kind: int) -> str:
    """A tile's name in words, for messages: `3 Bam`, `North`, `Soap`, `Joker`."""
    if is_suited(kind):
        return f"{rank_of(kind)} {SUIT_NAMES[kind // 9]}"
    try:
        return _HONOR_NAMES[kind]
    except KeyError:
        raise ValueError(f"{kind} is not a tile kind") from None


def format_tiles(kinds: Iterable[int]) -> str:
    """The canonical text of a bag of tiles, sorted in rack order.

    Numbered tiles are written per suit (`1123B`), every other kind as its letter repeated
    (`NN`, `00`, `JJ`). Empty input gives an empty string.
    """
    counts = Counter(kinds)
    tokens: list[str] = []
    for suit in Suit:
        ranks = "".join(
            str(rank) * counts[suited(suit, rank)] for rank in range(1, 10)
        )
        if ranks:
            tokens.append(ranks + SUIT_LETTERS[suit])
    for kind in sorted(k for k in counts if not is_suited(k)):
        tokens.append(format_tile(kind) * counts[kind])
    return " ".join(tokens)


def format_group(tiles: Sequence[int]) -> str:
    """One group in the order given, as on a card: `2026B` (Soap as 0 inside a suit run),
    `333C`, `NEWS`, `W 1B N`. `parse_tiles` reads it back."""
    tokens: list[str] = []
    run = ""
    run_suit = -1
    for position, kind in enumerate(tiles):
        next_suit = next((k // 9 for k in tiles[position + 1:] if is_suited(k)), -1)
        if is_suited(kind) and (not run or kind // 9 == run_suit):
            run, run_suit = run + str(rank_of(kind)), kind // 9
            continue
        if kind == SOAP and run and next_suit == run_suit:
            run += "0"
            continue
        if run:
            tokens.append(run + SUIT_LETTERS[run_suit])
            run = ""
        if is_suited(kind):
            run, run_suit = str(rank_of(kind)), kind // 9
        else:
            tokens.append(format_tile(kind))
    if run:
        tokens.append(run + SUIT_LETTERS[run_suit])
    honors_only = all(not is_suited(k) for k in tiles)
    return ("" if honors_only else " ").join(tokens)


_SUIT_WORDS = {
    "b": Suit.BAM, "bam": Suit.BAM, "bams": Suit.BAM, "bamboo": Suit.BAM, "bamboos": Suit.BAM,
    "c": Suit.CRAK, "crak": Suit.CRAK, "craks": Suit.CRAK, "crack": Suit.CRAK,
    "cracks": Suit.CRAK, "char": Suit.CRAK, "chars": Suit.CRAK, "character": Suit.CRAK,
    "characters": Suit.CRAK,
    "d": Suit.DOT, "dot": Suit.DOT, "dots": Suit.DOT, "circle": Suit.DOT, "circles": Suit.DOT,
}
_HONOR_WORDS = {
    "north": NORTH, "east": EAST, "west": WEST, "south": SOUTH,
    "red": RED, "green": GREEN, "white": SOAP, "soap": SOAP,
    "flower": FLOWER, "flowers": FLOWER, "joker": JOKER, "jokers": JOKER,
    "blank": BLANK, "blanks": BLANK,
}
#: Words that may follow a tile name and add nothing ("red dragon", "north wind").
_FILLER_WORDS = {"dragon", "dragons", "wind", "winds"}
_SUITED_TOKEN = re.compile(r"^([0-9]+)([a-z]+)$")

ACCEPTED_FORMS = (
    "Write tiles like 3B (3 Bam), 5C (5 Crak), 9D (9 Dot); 123B for 1B 2B 3B; "
    "N E W S for winds; R, G and 0 (or red, green, soap) for dragons; "
    "F for a flower, J for a joker."
)


def _bad_token(token: str, hint: str = "") -> InvalidInput:
    detail = f" {hint}" if hint else ""
    return InvalidInput(f"I don't know the tile `{echo(token)}`.{detail} {ACCEPTED_FORMS}")


def _needs_suit(number: str) -> InvalidInput:
    shown = echo(number, 9)
    return _bad_token(number, f"Numbers need a suit, e.g. {shown}B, {shown}C or {shown}D.")


def _parse_token(original: str) -> list[int]:
    token = original.lower()
    if token in _HONOR_WORDS:
        return [_HONOR_WORDS[token]]
    match = _SUITED_TOKEN.match(token)
    if match:
        ranks, suit_word = match.groups()
        suit = _SUIT_WORDS.get(suit_word)
        if suit is None:
            raise _bad_token(original, f"`{echo(suit_word)}` is not a suit (B, C or D).")
        return [SOAP if rank == "0" else suited(suit, int(rank)) for rank in ranks]
    if all(ch in _LETTER_KIND for ch in token):
        return [_LETTER_KIND[ch] for ch in token]
    if token.isdigit():
        raise _needs_suit(original)
    raise _bad_token(original)


def _tokens(text: str) -> list[str]:
    """Split text into tile tokens, joining `3 bam` into `3bam` and dropping filler words."""
    words = re.split(r"[\s,;+\-_/]+", text.strip())
    tokens: list[str] = []
    for word in words:
        if not word:
            continue
        if word.lower() in _FILLER_WORDS:
            if not tokens or tokens[-1].lower() not in _HONOR_WORDS:
                raise _bad_token(word, "Say which one, e.g. `red dragon` or `north wind`.")
            continue
        if word.lower() in _SUIT_WORDS and tokens and tokens[-1].isdigit():
            tokens[-1] += word
        else:
            tokens.append(word)
    return tokens


def parse_tiles(text: str) -> tuple[int, ...]:
    """Read tiles written in the notation (or in words) and return their kinds, in order.

    Bare numbers take the suit of the next suited token, so `11 222 3333B` is nine Bams.
    Raises `InvalidInput` naming the first token it cannot read and showing accepted forms.
    """
    kinds: list[int] = []
    pending: list[str] = []
    for token in _tokens(text):
        if token.isdigit() and "0" not in token:
            pending.append(token)
            continue
        parsed = _parse_token(token)
        if pending:
            match = _SUITED_TOKEN.match(token.lower())
            if not match:
                raise _needs_suit(pending[0])
            for bare in pending:
                kinds.extend(_parse_token(bare + match[2]))
            pending = []
        kinds.extend(parsed)
    if pending:
        raise _needs_suit(pending[0])
    return tuple(kinds)


def soap_readings(text: str) -> list[tuple[str, tuple[int, ...]]]:
    """Each token of `text` with a 0 among a suit's numbers (`10B`, `2026B`) and the tiles it
    was read as. A 0 there is Soap, as in years; shown to a person, this says why `10B` (no
    tile is a ten) became a 1 Bam and a Soap. `text` must be readable by `parse_tiles`."""
    readings: list[tuple[str, tuple[int, ...]]] = []
    for token in _tokens(text):
        match = _SUITED_TOKEN.match(token.lower())
        if match and "0" in match[1]:
            readings.append((token, tuple(_parse_token(token))))
    return readings


def parse_tile(text: str) -> int:
    """Read exactly one tile (`3B`, `3 bam`, `red`, `J`)."""
    kinds = parse_tiles(text)
    if len(kinds) != 1:
        # The tiles in the order they were read, so `2026B` is echoed as 2B 0 2B 6B, not
        # sorted into 226B 0 as a rack shows them.
        read = " ".join(format_tile(kind) for kind in kinds)
        what = "nothing" if not kinds else f"{len(kinds)} tiles ({echo(read)})"
        raise InvalidInput(f"I need exactly one tile here, but `{echo(text)}` is {what}. "
                           f"{ACCEPTED_FORMS}")
    return kinds[0]


def standard_counts(*, jokers: int = 8, flowers: int = 8, blanks: int = 0) -> tuple[int, ...]:
    """How many of each kind a set holds: 4 of every numbered tile, wind and dragon, plus the
    given numbers of flowers, jokers and blanks (152 tiles by default)."""
    counts = [4] * NUM_KINDS
    counts[FLOWER] = flowers
    counts[JOKER] = jokers
    counts[BLANK] = blanks
    return tuple(counts)


STANDARD_COUNTS = standard_counts()


def physical_tiles(counts: Sequence[int] = STANDARD_COUNTS) -> tuple[int, ...]:
    """The kind of every physical tile in a set; a tile's id is its index here."""
    return tuple(kind for kind, count in enumerate(counts) for _ in range(count))


def kind_counts(kinds: Iterable[int]) -> list[int]:
    """A count per kind (length `NUM_KINDS`) of a bag of tiles."""
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    return counts
