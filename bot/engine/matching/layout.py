"""Laying a hand's tiles out into one variation's groups: a Mah Jongg group by group, and a
near hand with what it still needs.

Naturals go first (natural-only groups, then joker-able ones), then flowers into
flower-wild places, then jokers; exposures fill the groups `ExposureRows` matched them to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards.compile import TileGroup, Variation
from bot.engine.cards.model import Card, Hand
from bot.engine.hands import Exposure, MahjongMatch, NearHand, PlayerHand
from bot.engine.matching.rows import kind_counts
from bot.engine.records import make
from bot.engine.tiles import FLOWER, JOKER


@dataclass(frozen=True)
class _Layout:
    """A variation prepared for laying tiles out: its card hand and groups; `steps`, the
    groups in the order they take naturals (natural-only groups, then joker-able, then
    flower-wild) as (position, tiles, kind, size, identical); `jokerable`, the groups jokers
    (and, where wild, flowers) may fill as (position, size, flowers wild); its target tiles;
    and `needs`, each group as (tiles, kind, size, joker-able) for what a near hand lacks."""

    hand: Hand
    groups: tuple[TileGroup, ...]
    steps: tuple[tuple[int, tuple[int, ...], int, int, bool], ...]
    jokerable: tuple[tuple[int, int, bool], ...]
    target: tuple[tuple[int, ...], ...]
    needs: tuple[tuple[tuple[int, ...], int, int, bool], ...]


def _assign_exposures(variation: Variation,
                      exposures: Sequence[Exposure]) -> dict[int, Exposure]:
    """Which group each exposure fills, with the same preference as `ExposureRows.open`."""
    taken: dict[int, Exposure] = {}
    ordered = sorted(exposures, key=lambda e: e.jokers > 0)
    for exposure in ordered:
        fits = [i for i, g in enumerate(variation.groups)
                if i not in taken and g.identical and g.kind == exposure.kind
                and g.size == exposure.size and (g.jokers_ok or not exposure.jokers)]
        fits.sort(key=lambda i: (variation.groups[i].jokers_ok,
                                 variation.groups[i].flowers_wild))
        taken[fits[0]] = exposure
    return taken


class Held:
    """A hand's concealed tiles as a count per kind, and the natural kinds among them in
    order: what laying the hand out into many variations starts from each time."""

    __slots__ = ("counts", "kinds")

    def __init__(self, concealed: Sequence[int]) -> None:
        self.counts = kind_counts(concealed)
        self.kinds = tuple(kind for kind, count in enumerate(self.counts)
                           if count and kind != JOKER)


class Layouts:
    """The layouts of a card's variations (each prepared on first use)."""

    def __init__(self, card: Card, variations: Sequence[Variation]) -> None:
        self.card = card
        self.variations = variations
        self._layouts: list[_Layout | None] = [None] * len(variations)

    def _layout(self, row: int) -> _Layout:
        """The prepared layout of variation `row` (built on first use)."""
        layout = self._layouts[row]
        if layout is None:
            groups = self.variations[row].groups
            order = sorted(range(len(groups)),
                           key=lambda i: (groups[i].jokers_ok, groups[i].flowers_wild))
            by_group = tuple((i, g.tiles, g.kind, g.size, g.identical)
                             for i, g in enumerate(groups))
            layout = _Layout(
                self.card.hands[self.variations[row].hand_index], groups,
                tuple(by_group[i] for i in order),
                tuple((i, g.size, g.flowers_wild) for i, g in enumerate(groups) if g.jokers_ok),
                tuple(g.tiles for g in groups),
                tuple((g.tiles, g.kind, g.size, g.jokers_ok) for g in groups))
            self._layouts[row] = layout
        return layout

    def _place(self, layout: _Layout, row: int, hand: PlayerHand, held: Held) -> tuple[
            list[list[int]], dict[int, Exposure], list[int], int]:
        """Place the seat's tiles into variation `row`'s groups: naturals first (natural-only
        groups, then joker-able ones), then flowers into flower-wild places, then jokers.

        Returns each group's tiles, which group each exposure fills, the naturals left over
        (a count per kind) and the jokers left over."""
        taken = _assign_exposures(self.variations[row], hand.exposures) \
            if hand.exposures else {}
        pool = list(held.counts)
        jokers = pool[JOKER]
        pool[JOKER] = 0
        placed: list[list[int]] = [[] for _ in layout.groups]
        for i, tiles, kind, size, identical in layout.steps:
            if taken and i in taken:
                placed[i] = list(taken[i].tiles)
            elif identical:
                have = pool[kind]
                if have >= size:
                    pool[kind] = have - size
                    placed[i] = list(tiles)
                elif have:
                    pool[kind] = 0
                    placed[i] = [kind] * have
            else:
                got = placed[i]
                for tile in tiles:
                    if pool[tile]:
                        pool[tile] -= 1
                        got.append(tile)
        for i, size, flowers_wild in layout.jokerable:
            got = placed[i]
            gap = size - len(got)
            if gap <= 0:
                continue
            if flowers_wild and pool[FLOWER]:
                used = min(gap, pool[FLOWER])
                pool[FLOWER] -= used
                got.extend([FLOWER] * used)
                gap -= used
            if jokers and gap:
                used = min(gap, jokers)
                jokers -= used
                got.extend([JOKER] * used)
        return placed, taken, pool, jokers

    @staticmethod
    def _left(held: Held, pool: list[int]) -> tuple[int, ...]:
        """The naturals left in `pool` (a count per kind), sorted."""
        left: list[int] = []
        for kind in held.kinds:
            count = pool[kind]
            if count:
                left += [kind] * count
        return tuple(left)

    def fill(self, row: int, hand: PlayerHand, held: Held | None = None) -> tuple[
            list[list[int]], list[bool], tuple[int, ...], int]:
        """Place the seat's tiles into variation `row`'s groups (see `_place`).

        `held` may give the hand's concealed tiles counted (when the caller has them).
        Returns each group's tiles, which groups exposures fill, the natural tiles left over
        (sorted) and the jokers left over."""
        if held is None:
            held = Held(hand.concealed)
        placed, taken, pool, jokers = self._place(self._layout(row), row, hand, held)
        exposed = [i in taken for i in range(len(placed))] if taken else [False] * len(placed)
        return placed, exposed, self._left(held, pool), jokers

    def arrange(self, row: int, hand: PlayerHand) -> MahjongMatch:
        """The Mah Jongg this 14-tile hand makes as variation `row`, group by group."""
        variation = self.variations[row]
        placed, exposed, _, _ = self.fill(row, hand)
        jokers = sum(tiles.count(JOKER) for tiles in placed)
        flowers = sum(tiles.count(FLOWER) for group, tiles in zip(variation.groups, placed,
                                                                  strict=True)
                      if group.flowers_wild)
        return MahjongMatch(self.card.hands[variation.hand_index],
                            tuple(tuple(g) for g in placed), tuple(exposed), jokers, flowers)

    def near(self, row: int, hand: PlayerHand, away: int,
             held: Held | None = None) -> NearHand:
        """The hand as `away` tiles from variation `row`, with what it still needs."""
        layout = self._layout(row)
        if held is None:
            held = Held(hand.concealed)
        placed, _, pool, spare_jokers = self._place(layout, row, hand, held)
        unused = self._left(held, pool)
        need_natural: list[int] = []
        need_any: list[int] = []
        for (group_tiles, kind, size, jokers_ok), tiles in zip(layout.needs, placed,
                                                                strict=True):
            short = size - len(tiles)
            if short <= 0:
                continue
            if jokers_ok:
                need_any.extend([kind] * short)
            elif not tiles:
                need_natural.extend(group_tiles)
            else:
                # A natural-only group holds only its own naturals: what it lacks is the rest.
                rest = list(group_tiles)
                for tile in tiles:
                    rest.remove(tile)
                need_natural.extend(rest)
        need_natural.sort()
        need_any.sort()
        return make(NearHand, {
            "hand": layout.hand, "away": away,
            "need_natural": tuple(need_natural), "need_any": tuple(need_any),
            "unused": unused + (JOKER,) * spare_jokers if spare_jokers else unused,
            "target": layout.target, "groups": tuple([tuple(g) for g in placed])})
