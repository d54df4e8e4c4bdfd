"""Compiling hands into concrete variations: every suit assignment, shift and alternative.

A variation is a list of concrete groups (tile kinds plus whether jokers or flowers may fill
them). The matcher turns variations into count arrays; the checker uses them to prove that some
14 tiles of a real set can satisfy each hand.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bot.engine.cards.model import FIXED_SUITS, SUIT_VARIABLES, Group, GroupForm, Hand, Shift
from bot.engine.tiles import (
    EAST,
    FLOWER,
    GREEN,
    JOKER,
    NORTH,
    RED,
    SOAP,
    SOUTH,
    SUIT_DRAGON,
    WEST,
    Suit,
    format_tiles,
    suited,
)

HAND_SIZE = 14
MAX_VARIATIONS_PER_HAND = 5000

_PLAIN_SYMBOLS = {"0": SOAP, "R": RED, "G": GREEN, "F": FLOWER,
                  "N": NORTH, "E": EAST, "W": WEST, "S": SOUTH}


@dataclass(frozen=True)
class TileGroup:
    """A concrete group: its tiles, and what may stand in for them.

    Jokers may fill a group only when it is three or more identical tiles and the card does not
    forbid them; `flowers_wild` lets flowers fill it too.
    """

    tiles: tuple[int, ...]
    jokers_ok: bool
    flowers_wild: bool

    @property
    def kind(self) -> int:
        """The tile of an identical group (the first tile otherwise)."""
        return self.tiles[0]

    @property
    def size(self) -> int:
        """Number of tiles in the group."""
        return len(self.tiles)

    @property
    def identical(self) -> bool:
        """True for pairs, pungs, kongs, quints and sextets (and single tiles)."""
        return len(set(self.tiles)) == 1

    def __str__(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True)
class Variation:
    """One concrete way to make a hand: the hand's index on its card and its groups."""

    hand_index: int
    groups: tuple[TileGroup, ...]

    @property
    def size(self) -> int:
        """Total tiles the variation needs (14 for every hand that passed the check)."""
        return sum(group.size for group in self.groups)


def _suit_for(form: GroupForm, assignment: dict[str, Suit]) -> Suit | None:
    if form.suit is None:
        return None
    if form.suit in FIXED_SUITS:
        return Suit(FIXED_SUITS[form.suit])
    return assignment[form.suit]


def _fits(form: GroupForm, shift: int) -> bool:
    """Whether every number of a form stays within 1-9 when the hand moves by `shift`."""
    return form.fixed_numbers or all(1 <= int(symbol) + shift <= 9 for symbol in form.body
                                     if symbol.isdigit() and symbol != "0")


def _concrete(form: GroupForm, assignment: dict[str, Suit], shift: int) -> TileGroup | None:
    """The tiles of one form under a suit assignment and shift; None if a number leaves 1-9."""
    if not _fits(form, shift):
        return None
    suit = _suit_for(form, assignment)
    tiles: list[int] = []
    for symbol in form.body:
        if symbol.isdigit() and symbol != "0":
            rank = int(symbol) + (0 if form.fixed_numbers else shift)
            assert suit is not None  # the parser requires a suit for numbers
            tiles.append(suited(suit, rank))
        elif symbol == "D":
            assert suit is not None  # the parser requires a suit for D
            tiles.append(SUIT_DRAGON[suit])
        else:
            tiles.append(_PLAIN_SYMBOLS[symbol])
    identical = len(set(tiles)) == 1
    jokers_ok = identical and len(tiles) >= 3 and not form.no_jokers
    return TileGroup(tuple(tiles), jokers_ok, form.flowers_wild and jokers_ok)


def has_movable_numbers(pattern: Sequence[Group]) -> bool:
    """True when some number in the pattern is not fixed, so a `shift` option can move it."""
    return any(ch.isdigit() and ch != "0" and not form.fixed_numbers
               for group in pattern for form in group.forms for ch in form.body)


def _shifts(pattern: Sequence[Group], shift: Shift) -> range:
    if shift is Shift.NONE or not has_movable_numbers(pattern):
        return range(1)
    return range(-8, 9, 2 if shift is Shift.EVEN else 1)


def _suit_letters(pattern: Sequence[Group]) -> list[str]:
    return sorted({form.suit for group in pattern for form in group.forms
                   if form.suit in SUIT_VARIABLES})


def combinations(hand: Hand) -> int:
    """How many combinations (suit assignments x shifts x alternatives) of a hand are real,
    keeping every number within 1-9: exactly what `pattern_variations` yields. Counted
    without enumerating them (at each shift, the alternatives that fit it multiply), so an
    oversized hand is refused before any work. A shift that pushes a number out of 1-9
    makes no variation, so it costs nothing."""
    total = 0
    for pattern in hand.patterns:
        fitting = sum(math.prod(sum(1 for form in group.forms if _fits(form, amount))
                                for group in pattern)
                      for amount in _shifts(pattern, hand.shift))
        total += math.perm(len(Suit), len(_suit_letters(pattern))) * fitting
    return total


def pattern_variations(pattern: Sequence[Group], shift: Shift) -> Iterator[tuple[TileGroup, ...]]:
    """Every concrete group list of one pattern: suit assignments x shifts x alternatives.

    Each form is made concrete once per suit assignment and shift, and the combinations
    share those groups, so a hand's variations cost little more than the tuples that list
    them (time and memory)."""
    letters = _suit_letters(pattern)
    for suits in itertools.permutations(Suit, len(letters)):
        assignment = dict(zip(letters, suits, strict=True))
        for amount in _shifts(pattern, shift):
            choices = [[g for form in group.forms
                        if (g := _concrete(form, assignment, amount)) is not None]
                       for group in pattern]
            yield from itertools.product(*choices)


def _group_order(group: TileGroup) -> tuple[tuple[int, ...], bool, bool]:
    return group.tiles, group.jokers_ok, group.flowers_wild


def hand_variations(hand: Hand, hand_index: int,
                    limit: int = MAX_VARIATIONS_PER_HAND) -> list[Variation]:
    """The distinct variations of a hand, in a stable order.

    Raises `ValueError` when the hand has more than `limit` variations (a card file could
    otherwise make the bot enumerate millions).
    """
    # Keyed by the groups themselves (equal by value), sorted: one tuple a variation, so a
    # big hand leaves few objects for the garbage collector to walk.
    seen: set[tuple[TileGroup, ...]] = set()
    result: list[Variation] = []
    for pattern in hand.patterns:
        for groups in pattern_variations(pattern, hand.shift):
            key = tuple(sorted(groups, key=_group_order))
            if key in seen:
                continue
            seen.add(key)
            result.append(Variation(hand_index, groups))
            if len(result) > limit:
                raise ValueError(f"more than {limit} variations")
    return result


def joker_need(variation: Variation, counts: Sequence[int]) -> tuple[int, list[int]]:
    """How many jokers a variation needs from a set with these counts at the least, and the
    kinds whose natural-only groups need more copies than the set holds."""
    natural_only = [0] * len(counts)
    total = [0] * len(counts)
    wild = [0] * len(counts)
    for group in variation.groups:
        for kind in group.tiles:
            total[kind] += 1
            if not group.jokers_ok:
                natural_only[kind] += 1
            if group.flowers_wild:
                wild[kind] += 1
    short = [kind for kind, need in enumerate(natural_only) if need > counts[kind]]
    deficits = [max(0, need - counts[kind]) for kind, need in enumerate(total)]
    wild_deficit = sum(min(deficit, slots) for deficit, slots in zip(deficits, wild, strict=True))
    spare_flowers = max(0, counts[FLOWER] - total[FLOWER])
    return sum(deficits) - min(spare_flowers, wild_deficit), short


def is_satisfiable(variation: Variation, counts: Sequence[int]) -> bool:
    """True when some 14 tiles of a set with these counts make this variation."""
    missing, short = joker_need(variation, counts)
    return not short and missing <= counts[JOKER] and variation.size == HAND_SIZE
