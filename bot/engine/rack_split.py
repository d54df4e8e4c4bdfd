"""A two-rack player's tiles split between its racks: the pair of card hands, one per rack,
that its tiles come nearest to when no tile may serve both, and which tiles go where.

In the two-rack games (Siamese- and Royale-style) a player's concealed tiles are one pool of
up to 28 that moves freely between its two racks; exposures belong to a rack. The matcher's
nearest hands of the whole pool let every hand use every tile, and taking the nearest hand
for one rack and the rest of the pool for the other is greedy: the first hand may take the
very tiles the second needed most. Here the two racks are counted together instead.

A way of making a card hand (a variation of the matcher's card) is counted as places per tile
kind, as the matcher counts them: places only a natural fills, joker-able places, and places
flowers may fill as well. For a pair of ways, one per rack, less the groups each rack's
exposures fill, the places of both are pooled: a tile fills a place of its kind whichever
rack the place is on, and a joker any joker-able place, so what the pair lacks together is
one count over the pooled places, each tile counted once. That count is exact.

The search: what a way lacks against the whole pool is a lower bound on what it lacks in any
split (a split only takes tiles away), so a pair lacks at least the sum of its two bounds.
Pairs are counted in rounds of that sum, lowest first; once the best pairs found lack no
more than the round's sum, no pair left can do better and the search stops (or when it has
counted `most` pairs, keeping the best found). A way that asks for more of a kind (or more
jokers) than the set still holds is left out, and so is a pair that does together.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.engine.cards.compile import TileGroup, Variation
from bot.engine.matcher import CARD_KINDS, CardMatcher, Exposure, NearHand
from bot.engine.tiles import FLOWER, JOKER, kind_counts

#: Kinds of place, in the order naturals fill them (as the matcher fills them).
FIXED, FLEX, WILD = 0, 1, 2
#: Places per kind of a way or a pair: (..., 3 kinds of place, `CARD_KINDS` tile kinds).
Places = npt.NDArray[np.int16]
Ints = npt.NDArray[np.intp]
#: Pairs a hint counts at most: the search ends far sooner for nearly every holding
#: (`jongg bench hints` times it).
HINT_PAIRS = 200_000
#: Exposure sets whose open ways are kept per card (a seat keeps its exposures for many
#: turns).
_OPEN_CACHE = 64


@dataclass(frozen=True)
class RackPlan:
    """One rack's part of a split: the card hand it aims at (`near`: the way's groups with
    the tiles placed in them, and what each still needs; `near.unused` is empty) and the
    concealed tiles it keeps."""

    rack: int
    exposures: tuple[Exposure, ...]
    keep: tuple[int, ...]
    near: NearHand


@dataclass(frozen=True)
class Split:
    """The pool split between two racks, each with its plan (in rack order), and the
    concealed tiles neither uses: the discard candidates."""

    plans: tuple[RackPlan, RackPlan]
    spare: tuple[int, ...]

    @property
    def away(self) -> int:
        """Tiles both racks still lack together."""
        return sum(plan.near.away for plan in self.plans)

    @property
    def value(self) -> int:
        """Both hands' card values together."""
        return sum(plan.near.hand.value for plan in self.plans)


@dataclass(frozen=True)
class _Open:
    """The ways a rack's exposures leave open: variation rows, their open places and their
    hands' values."""

    rows: Ints
    places: Places
    values: npt.NDArray[np.int32]

    def take(self, keep: npt.NDArray[np.bool_] | Ints) -> _Open:
        """The ways selected by a mask or positions, in that order."""
        return _Open(self.rows[keep], self.places[keep], self.values[keep])


class _Ways:
    """A card's variations as places, and the ways each set of exposures leaves open."""

    def __init__(self, matcher: CardMatcher) -> None:
        self.variations = matcher.variations
        hands = matcher.card.hands
        self.all = _Open(np.arange(len(self.variations), dtype=np.intp),
                         np.array([_places(v.groups) for v in self.variations],
                                  dtype=np.int16).reshape(-1, 3, CARD_KINDS),
                         np.array([hands[v.hand_index].value for v in self.variations],
                                  dtype=np.int32))
        self.concealed = [hands[v.hand_index].concealed for v in self.variations]
        self._open: OrderedDict[tuple[tuple[int, int, int], ...], _Open] = OrderedDict()

    def open(self, exposures: Sequence[Exposure]) -> _Open:
        """The ways that take these exposures (never a concealed hand's), with the places
        the exposures leave open."""
        if not exposures:
            return self.all
        key = tuple(sorted((e.kind, e.size, e.jokers) for e in exposures))
        found = self._open.get(key)
        if found is None:
            rows = []
            places = []
            for row, variation in enumerate(self.variations):
                taken = None if self.concealed[row] else _exposed_groups(variation, exposures)
                if taken is not None:
                    rows.append(row)
                    places.append(_places([g for i, g in enumerate(variation.groups)
                                           if i not in taken]))
            index = np.array(rows, dtype=np.intp)
            found = _Open(index, np.array(places, dtype=np.int16).reshape(-1, 3, CARD_KINDS),
                          self.all.values[index])
            if len(self._open) >= _OPEN_CACHE:
                self._open.popitem(last=False)
            self._open[key] = found
        return found


_WAYS: weakref.WeakKeyDictionary[CardMatcher, _Ways] = weakref.WeakKeyDictionary()
_WAYS_LOCK = threading.Lock()


def _ways(matcher: CardMatcher) -> _Ways:
    """The ways of a matcher's card, built once per matcher (hints run in worker threads)."""
    with _WAYS_LOCK:
        found = _WAYS.get(matcher)
        if found is None:
            found = _WAYS[matcher] = _Ways(matcher)
        return found


def _place_kind(group: TileGroup) -> int:
    """Which kind of place a group's tiles are."""
    return WILD if group.flowers_wild else FLEX if group.jokers_ok else FIXED


def _places(groups: Sequence[TileGroup]) -> Places:
    """Places per kind of some groups: natural-only, joker-able, flower-wild."""
    places = np.zeros((3, CARD_KINDS), dtype=np.int16)
    for group in groups:
        where = _place_kind(group)
        for kind in group.tiles:
            places[where, kind] += 1
    return places


def _exposed_groups(variation: Variation,
                    exposures: Sequence[Exposure]) -> dict[int, Exposure] | None:
    """Which group each exposure fills, or None when they do not all fit. An exposure fills
    a whole group of its kind and size: one with jokers a joker-able group; a natural one a
    natural-only group first, since that leaves the most freedom (as the matcher does)."""
    groups = variation.groups
    taken: dict[int, Exposure] = {}
    for exposure in sorted(exposures, key=lambda e: e.jokers > 0):
        fits = [i for i, g in enumerate(groups) if i not in taken and g.identical
                and g.kind == exposure.kind and g.size == exposure.size
                and (g.jokers_ok or not exposure.jokers)]
        if not fits:
            return None
        taken[min(fits, key=lambda i: (groups[i].jokers_ok, groups[i].flowers_wild))] = exposure
    return taken


def shortfall(places: Places, naturals: npt.NDArray[np.int16],
              jokers: int) -> npt.NDArray[np.int32]:
    """What `places` (any leading shape, then place kind and tile kind) lack when filled with
    `naturals` (a count per card kind) and `jokers`: naturals fill natural-only places first,
    then joker-able, then flower-wild ones; flowers left over fill open flower-wild places;
    jokers fill open joker-able and flower-wild places."""
    used = np.minimum(naturals, places[..., FIXED, :])
    rest = naturals - used
    to_flex = np.minimum(rest, places[..., FLEX, :])
    rest = rest - to_flex
    to_wild = np.minimum(rest, places[..., WILD, :])
    missing = (places[..., FIXED, :] - used).sum(axis=-1, dtype=np.int32)
    open_flex = (places[..., FLEX, :] - to_flex).sum(axis=-1, dtype=np.int32)
    open_wild = (places[..., WILD, :] - to_wild).sum(axis=-1, dtype=np.int32)
    flowers = (rest - to_wild)[..., FLOWER].astype(np.int32)
    open_jokerable = open_flex + open_wild - np.minimum(flowers, open_wild)
    found: npt.NDArray[np.int32] = missing + np.maximum(open_jokerable - jokers, 0)
    return found


def _row(counts: Sequence[int]) -> npt.NDArray[np.int16]:
    """A count per card kind, as the counting wants it."""
    return np.array(counts[:CARD_KINDS], dtype=np.int16)


def split_racks(matcher: CardMatcher, pool: Sequence[int],
                racks: Mapping[int, Sequence[Exposure]], count: int = 1,
                visible: Sequence[int] | None = None, most: int = HINT_PAIRS) -> list[Split]:
    """The `count` best splits of `pool` (a seat's concealed tiles) between two racks, fewest
    tiles lacked together first, then the highest value; one per pair of card hands.

    `racks` gives each of the two racks' exposures by rack number. `visible` counts, per
    kind, the tiles the seat can no longer get (what is face up on the table, its own
    exposures included); by default the racks' exposures. `most` caps the pairs counted.
    No split when no pair of hands can still be made."""
    numbers = tuple(sorted(racks))
    if len(numbers) != 2:
        raise ValueError("A split is between two racks.")
    exposures = (tuple(racks[numbers[0]]), tuple(racks[numbers[1]]))
    held = kind_counts(pool)
    if visible is None:
        visible = kind_counts([t for rack in exposures for e in rack for t in e.tiles])
    supply = [max(0, n - seen) for n, seen in zip(matcher.counts, visible, strict=True)]
    search = _Search(_ways(matcher), held, exposures, supply)
    chosen = search.run(count, most)
    pair = _Pair(matcher, held, (numbers[0], numbers[1]), exposures, supply)
    return [pair.lay_out(int(search.ways[0].rows[i]), int(search.ways[1].rows[j]))
            for i, j in chosen]


class _Search:
    """The rounds of the search (see the module docstring) for one pool and two racks."""

    def __init__(self, ways: _Ways, held: Sequence[int],
                 exposures: tuple[tuple[Exposure, ...], tuple[Exposure, ...]],
                 supply: Sequence[int]) -> None:
        self.naturals = _row(held)
        self.jokers = held[JOKER]
        self.supply = _row(supply)
        self.joker_supply = supply[JOKER]
        self.same = sorted(exposures[0], key=repr) == sorted(exposures[1], key=repr)
        found = []
        for rack in exposures[:1] if self.same else exposures:
            open_ways = ways.open(rack)
            open_ways = open_ways.take(
                shortfall(open_ways.places, self.supply, self.joker_supply) == 0)
            bounds = shortfall(open_ways.places, self.naturals, self.jokers)
            order = np.lexsort((open_ways.rows, -open_ways.values, bounds))
            found.append((open_ways.take(order), bounds[order]))
        second = found[-1]
        self.ways = (found[0][0], second[0])
        self.bounds = (found[0][1], second[1])
        self.hand_of = [[ways.variations[r].hand_index for r in w.rows.tolist()]
                        for w in self.ways]

    def run(self, count: int, most: int) -> list[tuple[int, int]]:
        """The `count` best pairs (positions in each rack's ways), one per pair of hands."""
        if not all(len(w.rows) for w in self.ways):
            return []
        pairs: list[tuple[Ints, Ints, npt.NDArray[np.int32]]] = []
        counted = 0
        level = int(self.bounds[0][0] + self.bounds[1][0])
        top = int(self.bounds[0][-1] + self.bounds[1][-1])
        while level <= top and counted < most:
            firsts, seconds = self._round(level)
            if len(firsts):
                both = self.ways[0].places[firsts] + self.ways[1].places[seconds]
                fits = shortfall(both, self.supply, self.joker_supply) == 0
                firsts, seconds = firsts[fits], seconds[fits]
                pairs.append((firsts, seconds, shortfall(both[fits], self.naturals,
                                                         self.jokers)))
                counted += len(fits)
            chosen = self._best(pairs, count, level)
            if len(chosen) == count:
                return chosen
            level += 1
        return self._best(pairs, count, None)

    def _round(self, level: int) -> tuple[Ints, Ints]:
        """Every pair whose bounds add up to `level` (each unordered pair once when both
        racks have the same exposures)."""
        first, second = self.bounds
        firsts: list[Ints] = []
        seconds: list[Ints] = []
        for bound in np.unique(first).tolist():
            lo, hi = np.searchsorted(first, [bound, bound + 1])
            lo2, hi2 = np.searchsorted(second, [level - bound, level - bound + 1])
            if lo2 == hi2 or lo == hi:
                continue
            i = np.repeat(np.arange(lo, hi), hi2 - lo2)
            j = np.tile(np.arange(lo2, hi2), hi - lo)
            if self.same:
                keep = i <= j
                i, j = i[keep], j[keep]
            firsts.append(i)
            seconds.append(j)
        if not firsts:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
        return np.concatenate(firsts), np.concatenate(seconds)

    def _best(self, pairs: Sequence[tuple[Ints, Ints, npt.NDArray[np.int32]]], count: int,
              level: int | None) -> list[tuple[int, int]]:
        """The best pairs counted that lack at most `level` (any, with None), fewest lacking,
        then highest value, then nearest ways; one per pair of hands, up to `count`."""
        if not pairs:
            return []
        firsts = np.concatenate([p[0] for p in pairs])
        seconds = np.concatenate([p[1] for p in pairs])
        lacking = np.concatenate([p[2] for p in pairs])
        if level is not None:
            within = lacking <= level
            if within.sum() < count:
                return []
            firsts, seconds, lacking = firsts[within], seconds[within], lacking[within]
        value = self.ways[0].values[firsts] + self.ways[1].values[seconds]
        order = np.lexsort((seconds, firsts, -value, lacking))
        taken: set[tuple[int, ...]] = set()
        chosen: list[tuple[int, int]] = []
        for position in order.tolist():
            i, j = int(firsts[position]), int(seconds[position])
            hands = (self.hand_of[0][i], self.hand_of[1][j])
            key = tuple(sorted(hands)) if self.same else hands
            if key not in taken:
                taken.add(key)
                chosen.append((i, j))
                if len(chosen) == count:
                    break
        return chosen


class _Pair:
    """The pool laid out on two racks for a chosen pair of ways."""

    def __init__(self, matcher: CardMatcher, held: Sequence[int], numbers: tuple[int, int],
                 exposures: tuple[tuple[Exposure, ...], tuple[Exposure, ...]],
                 supply: Sequence[int]) -> None:
        self.matcher = matcher
        self.held = held
        self.numbers = numbers
        self.exposures = exposures
        # Copies of each kind that can still come: the set's supply less the pool's own.
        self.coming = [max(0, supply[k] - held[k]) for k in range(CARD_KINDS)]

    def lay_out(self, first: int, second: int) -> Split:
        """The split for variations `first` and `second`. Every way of sharing the tiles
        between the racks lacks as much in all; the one shown completes a rack when some
        way does (it can be declared), else puts the jokers where no natural can still come
        (the other places keep both a tile and a joker as outs), else leaves a rack nearest
        done."""
        variations = (self.matcher.variations[first], self.matcher.variations[second])
        exposed = [_exposed_groups(v, e) or {} for v, e in zip(variations, self.exposures,
                                                                strict=True)]
        best: tuple[tuple[bool, bool, int, tuple[int, int]], list[list[list[int]]]] | None = None
        for order in ((0, 1), (1, 0)):
            for outs in (True, False):
                placed = self._fill(variations, exposed, order, outs)
                aways = [sum(g.size - len(t) for g, t in zip(v.groups, p, strict=True))
                         for v, p in zip(variations, placed, strict=True)]
                key = (min(aways) > 0, not outs, min(aways), order)
                if best is None or key < best[0]:
                    best = (key, placed)
        assert best is not None
        plans = []
        spare = list(self.held)
        for rack, (variation, groups) in enumerate(zip(variations, best[1], strict=True)):
            keep = sorted(t for i, tiles in enumerate(groups) if i not in exposed[rack]
                          for t in tiles)
            for kind in keep:
                spare[kind] -= 1
            plans.append(RackPlan(self.numbers[rack], self.exposures[rack], tuple(keep),
                                  self._near(variation, groups)))
        return Split((plans[0], plans[1]),
                     tuple(kind for kind, n in enumerate(spare) for _ in range(n)))

    def _fill(self, variations: Sequence[Variation], exposed: Sequence[dict[int, Exposure]],
              order: tuple[int, int], outs: bool) -> list[list[list[int]]]:
        """Each rack's groups with the tiles placed in them: exposures in their groups;
        naturals into natural-only groups, then joker-able, then flower-wild ones, the racks
        in `order` within each; spare flowers into open flower-wild groups; jokers (with
        `outs`, first where no natural can still come) into the racks in `order`."""
        left = list(self.held)
        placed = [[list(taken[i].tiles) if i in taken else [] for i in range(len(v.groups))]
                  for v, taken in zip(variations, exposed, strict=True)]
        slots = [(rack, i, group) for where in (FIXED, FLEX, WILD) for rack in order
                 for i, group in enumerate(variations[rack].groups)
                 if _place_kind(group) == where and i not in exposed[rack]]
        for rack, i, group in slots:
            got = placed[rack][i]
            for kind in group.tiles:
                if left[kind]:
                    left[kind] -= 1
                    got.append(kind)
        jokerable = [(placed[rack][i], group) for rack, i, group in slots if group.jokers_ok]
        for got, group in jokerable:
            if group.flowers_wild:
                _stand_in(got, group, left, FLOWER, group.size)
        coming = list(self.coming)
        for got, group in jokerable if outs else ():
            # The places of a kind beyond the copies still to come take jokers first.
            gap = group.size - len(got)
            naturals = min(gap, coming[group.kind])
            coming[group.kind] -= naturals
            _stand_in(got, group, left, JOKER, gap - naturals)
        for got, group in jokerable:
            _stand_in(got, group, left, JOKER, group.size)
        return placed

    def _near(self, variation: Variation, placed: Sequence[Sequence[int]]) -> NearHand:
        """One rack's way as the matcher reports a near hand: what each group holds, and what
        it still needs (naturals only, or open to jokers)."""
        need_natural: list[int] = []
        need_any: list[int] = []
        for group, tiles in zip(variation.groups, placed, strict=True):
            if group.jokers_ok:
                need_any.extend([group.kind] * (group.size - len(tiles)))
            else:
                rest = list(group.tiles)
                for tile in tiles:
                    rest.remove(tile)
                need_natural.extend(rest)
        return NearHand(
            hand=self.matcher.card.hands[variation.hand_index],
            away=len(need_natural) + len(need_any),
            need_natural=tuple(sorted(need_natural)),
            need_any=tuple(sorted(need_any)),
            unused=(),
            target=tuple(g.tiles for g in variation.groups),
            groups=tuple(tuple(t) for t in placed))


def _stand_in(got: list[int], group: TileGroup, left: list[int], kind: int, most: int) -> None:
    """Put up to `most` tiles of `kind` (flowers or jokers) from `left` into a group's open
    places."""
    used = min(group.size - len(got), left[kind], most)
    if used > 0:
        left[kind] -= used
        got.extend([kind] * used)
