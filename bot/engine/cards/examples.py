"""Example winning hands for a compiled card hand, for card sheets, hints and tests.

Given one `Variation` (a concrete way to make a card hand, see `bot.engine.cards.compile`),
these functions lay out real tiles that win with it:

* `natural_example`: every tile natural, when the set holds enough of each;
* `joker_example`: jokers in the joker-able groups (one of them, a pung or kong when there is
  one, made entirely of jokers), and a flower standing in where the card lets flowers act as
  jokers;
* `exposed_example`: every group of three or more identical tiles exposed, joker-able ones with
  a joker each, every exposure keeping at least one natural tile (only for hands that are not
  concealed).

`winning_examples` collects the ones that exist. `near_miss` turns a winner into a hand that is
one tile off, for hints and for tests. Everything here is pure and deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards.compile import TileGroup, Variation
from bot.engine.cards.model import Hand
from bot.engine.matcher import Exposure, PlayerHand
from bot.engine.tiles import FLOWER, JOKER, STANDARD_COUNTS

__all__ = [
    "exposed_example",
    "joker_example",
    "natural_example",
    "near_miss",
    "winning_examples",
]


@dataclass
class _Slot:
    """How one group of a variation is filled while an example is being built."""

    group: TileGroup
    exposed: bool = False
    jokers: int = 0
    flowers: int = 0

    @property
    def naturals(self) -> int:
        """How many of the group's own tiles are natural."""
        return self.group.size - self.jokers - self.flowers

    @property
    def stand_in_room(self) -> int:
        """How many more tiles of this group a joker or flower may replace."""
        if not self.group.jokers_ok:
            return 0
        floor = 1 if self.exposed else 0
        return max(0, self.naturals - floor)

    @property
    def flowers_ok(self) -> bool:
        """Flowers may stand in here: a flowers-wild group that is not exposed."""
        return self.group.flowers_wild and not self.exposed


class _Layout:
    """Jokers and flowers placed into a variation's groups, within a set's counts."""

    def __init__(self, variation: Variation, counts: Sequence[int], exposed: bool) -> None:
        self.counts = counts
        self.slots = [
            _Slot(group, exposed=exposed and group.identical and group.size >= 3)
            for group in variation.groups
        ]

    def natural_use(self) -> Counter[int]:
        """Natural tiles used per kind, flowers standing in for jokers included."""
        used: Counter[int] = Counter()
        for slot in self.slots:
            if slot.group.identical:
                used[slot.group.kind] += slot.naturals
            else:
                used.update(slot.group.tiles)
            used[FLOWER] += slot.flowers
        return used

    def jokers_used(self) -> int:
        """Jokers placed so far."""
        return sum(slot.jokers for slot in self.slots)

    def spare(self, kind: int) -> int:
        """Copies of `kind` the set still has (negative when the layout asks for too many)."""
        if kind == JOKER:
            return self.counts[JOKER] - self.jokers_used()
        return self.counts[kind] - self.natural_use()[kind]

    def stand_in(self, slot: _Slot, *, prefer_flower: bool) -> bool:
        """Replace one natural tile of `slot` by a flower or a joker; False if neither fits."""
        if slot.stand_in_room <= 0:
            return False
        flower_fits = slot.flowers_ok and self.spare(FLOWER) > 0
        joker_fits = self.spare(JOKER) > 0
        if flower_fits and (prefer_flower or not joker_fits):
            slot.flowers += 1
            return True
        if joker_fits:
            slot.jokers += 1
            return True
        return False

    def cover_shortfalls(self) -> bool:
        """Use flowers and jokers where a group asks for more copies than the set holds (a
        quint of one number, say); False when even that cannot make the variation."""
        for slot in self.slots:
            if not slot.group.identical:
                continue
            while self.spare(slot.group.kind) < 0:
                if not self.stand_in(slot, prefer_flower=True):
                    break
        return all(self.spare(kind) >= 0 for kind in self.natural_use()) and (
            self.spare(JOKER) >= 0
        )

    def player_hand(self) -> PlayerHand:
        """The laid-out tiles as a seat would hold them."""
        concealed: list[int] = []
        exposures: list[Exposure] = []
        for slot in self.slots:
            if slot.exposed:
                exposures.append(Exposure(slot.group.kind, slot.group.size, slot.jokers))
                continue
            if slot.group.identical:
                concealed.extend([slot.group.kind] * slot.naturals)
            else:
                concealed.extend(slot.group.tiles)
            concealed.extend([FLOWER] * slot.flowers + [JOKER] * slot.jokers)
        return PlayerHand(tuple(sorted(concealed)), tuple(exposures))


def natural_example(variation: Variation,
                    counts: Sequence[int] = STANDARD_COUNTS) -> PlayerHand | None:
    """The variation made of natural tiles only; None when the set holds too few of a tile."""
    layout = _Layout(variation, counts, exposed=False)
    if any(layout.spare(kind) < 0 for kind in layout.natural_use()):
        return None
    return layout.player_hand()


def joker_example(variation: Variation,
                  counts: Sequence[int] = STANDARD_COUNTS) -> PlayerHand | None:
    """The variation with jokers in its joker-able groups, all concealed.

    One joker-able group (a pung or kong when the hand has one) is made entirely of jokers if
    the set has enough; every other joker-able group gets one stand-in, a flower where flowers
    are wild and a joker elsewhere. None when no group may hold a joker or no layout fits.
    """
    layout = _Layout(variation, counts, exposed=False)
    if not any(slot.group.jokers_ok for slot in layout.slots):
        return None
    if not layout.cover_shortfalls():
        return None
    jokerable = [slot for slot in layout.slots if slot.group.jokers_ok]
    by_preference = sorted(jokerable, key=lambda s: (s.group.size not in (3, 4), s.group.size))
    for slot in by_preference:
        needed = slot.group.size - slot.jokers
        if slot.flowers == 0 and needed <= layout.spare(JOKER):
            slot.jokers = slot.group.size
            break
    for slot in jokerable:
        if slot.jokers == 0 and slot.flowers == 0:
            layout.stand_in(slot, prefer_flower=True)
    if layout.jokers_used() == 0 and not any(slot.flowers for slot in layout.slots):
        return None
    return layout.player_hand()


def exposed_example(variation: Variation, card_hand: Hand,
                    counts: Sequence[int] = STANDARD_COUNTS) -> PlayerHand | None:
    """The variation with every group of three or more identical tiles exposed.

    Joker-able exposures hold one joker each where the set allows, and every exposure keeps at
    least one natural tile. None for a concealed hand, a hand with nothing to expose, or when
    no layout fits the set.
    """
    if card_hand.concealed:
        return None
    layout = _Layout(variation, counts, exposed=True)
    if not any(slot.exposed for slot in layout.slots):
        return None
    if not layout.cover_shortfalls():
        return None
    for slot in layout.slots:
        if slot.exposed and slot.jokers == 0:
            layout.stand_in(slot, prefer_flower=False)
    return layout.player_hand()


def winning_examples(variation: Variation, card_hand: Hand,
                     counts: Sequence[int] = STANDARD_COUNTS) -> tuple[PlayerHand, ...]:
    """Distinct winning hands for one variation of `card_hand`: all natural, with jokers, and
    with exposures, in that order, leaving out the ones the hand or the set does not allow."""
    found: list[PlayerHand] = []
    for example in (natural_example(variation, counts), joker_example(variation, counts),
                    exposed_example(variation, card_hand, counts)):
        if example is not None and example not in found:
            found.append(example)
    return tuple(found)


def near_miss(winner: PlayerHand, remove: int | None = None,
              add: int | None = None) -> PlayerHand:
    """A hand one tile off `winner`: one concealed tile taken out and, if `add` is given, that
    tile put in instead.

    `remove` defaults to the first natural (non-joker) concealed tile. Raises `ValueError` when
    the concealed tiles hold no such tile.
    """
    tiles = list(winner.concealed)
    if remove is None:
        remove = next((kind for kind in tiles if kind != JOKER), None)
        if remove is None:
            raise ValueError("the hand has no natural concealed tile to take out")
    if remove not in tiles:
        raise ValueError(f"the hand holds no concealed tile of kind {remove}")
    tiles.remove(remove)
    if add is not None:
        tiles.append(add)
    return PlayerHand(tuple(sorted(tiles)), winner.exposures)
