"""Shared pieces for the engine tests: the card files, and a slow but obviously correct
reference for "does this hand win with this variation" (and "how many places of these ways can
these tiles not fill"), written independently of the matcher.

The reference tries every way of laying exposures onto whole groups and then finds a perfect
matching between the concealed tiles and the remaining places (a tile fits a place when it is
that tile, or a joker in a joker-able group, or a flower in a flowers-wild group).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from bot.engine.cards.compile import TileGroup, Variation
from bot.engine.matcher import Exposure, PlayerHand
from bot.engine.tiles import FLOWER, JOKER

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_CARDS = tuple(sorted((ROOT / "data" / "cards").glob("*.jongg")))
FIXTURE_CARD = Path(__file__).resolve().parent / "fixtures" / "features.jongg"


def _fits_exposure(group: TileGroup, exposure: Exposure) -> bool:
    return (group.identical and group.size >= 3 and group.size == exposure.size
            and group.kind == exposure.kind and (exposure.jokers == 0 or group.jokers_ok))


def _leftovers(groups: Sequence[TileGroup],
               exposures: Sequence[Exposure]) -> Iterator[list[TileGroup]]:
    """Every way to put each exposure on its own whole group; yields the groups left over."""

    def place(i: int, used: frozenset[int]) -> Iterator[list[TileGroup]]:
        if i == len(exposures):
            yield [g for j, g in enumerate(groups) if j not in used]
            return
        for j, group in enumerate(groups):
            if j not in used and _fits_exposure(group, exposures[i]):
                yield from place(i + 1, used | {j})

    yield from place(0, frozenset())


def _accepts(group: TileGroup, wanted: int, tile: int) -> bool:
    return (tile == wanted or (tile == JOKER and group.jokers_ok)
            or (tile == FLOWER and group.flowers_wild))


def _perfect_matching(tiles: Sequence[int], places: Sequence[tuple[TileGroup, int]]) -> bool:
    return len(tiles) == len(places) == _matched(tiles, places)


def _matched(tiles: Sequence[int], places: Sequence[tuple[TileGroup, int]]) -> int:
    """How many places the tiles fill at most (a maximum matching, by augmenting paths)."""
    owner: list[int | None] = [None] * len(places)

    def augment(t: int, seen: set[int]) -> bool:
        for p, (group, wanted) in enumerate(places):
            if p in seen or not _accepts(group, wanted, tiles[t]):
                continue
            seen.add(p)
            current = owner[p]
            if current is None or augment(current, seen):
                owner[p] = t
                return True
        return False

    return sum(augment(t, set()) for t in range(len(tiles)))


def reference_wins(variation: Variation, hand: PlayerHand, concealed_hand: bool) -> bool:
    """True when `hand` (14 tiles) makes `variation` of a hand that is concealed or not."""
    if hand.size != 14 or variation.size != 14:
        return False
    if concealed_hand and hand.exposures:
        return False
    needed = {kind for group in variation.groups for kind in group.tiles}
    if any(kind not in needed and kind not in (JOKER, FLOWER) for kind in hand.concealed):
        return False
    for rest in _leftovers(variation.groups, hand.exposures):
        places = [(group, kind) for group in rest for kind in group.tiles]
        if _perfect_matching(hand.concealed, places):
            return True
    return False


def reference_hand_wins(variations: Sequence[Variation], hand: PlayerHand,
                        concealed_hand: bool) -> bool:
    """True when some variation of one card hand is made by `hand`."""
    return any(reference_wins(v, hand, concealed_hand) for v in variations)


def reference_lacking(ways: Sequence[tuple[Variation, Sequence[Exposure]]],
                      tiles: Sequence[int]) -> int | None:
    """The fewest places of these ways (one per rack, each with its rack's exposures on
    whole groups) that `tiles`, each used once, leave unfilled; None when some rack's
    exposures fit no way of putting them on its groups."""
    best: int | None = None
    for rests in itertools.product(*(_leftovers(v.groups, e) for v, e in ways)):
        places = [(group, kind) for rest in rests for group in rest for kind in group.tiles]
        lacking = len(places) - _matched(tiles, places)
        best = lacking if best is None else min(best, lacking)
    return best


class Reference:
    """The reference as a fixture (test modules do not import conftest)."""

    wins = staticmethod(reference_wins)
    hand_wins = staticmethod(reference_hand_wins)
    lacking = staticmethod(reference_lacking)


@pytest.fixture(scope="session")
def reference() -> type[Reference]:
    return Reference
