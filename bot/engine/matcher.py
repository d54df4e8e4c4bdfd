"""The hand matcher: Mah Jongg, nearest hands, waits, exposures and dead hands against a card.

A card is compiled once into variations (see `bot.engine.cards.compile`), and each variation
into three count rows over tile kinds:

* `fixed`: tiles that must be natural (singles, pairs, years, NEWS, groups marked `!`);
* `flex`:  tiles of joker-able groups (three or more identical tiles), natural or joker;
* `wild`:  tiles of joker-able groups where flowers may stand in as well.

Exposures are matched to whole groups first (an exposed kong only ever fills a kong group) and
their tiles removed from the rows; after that a hand is pure counting, done for every
variation at once with a few numpy operations. "No match" is an answer, never an exception.
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.engine.cards.compile import HAND_SIZE, TileGroup, Variation, hand_variations
from bot.engine.cards.model import Card, Hand
from bot.engine.hands import Exposure, MahjongMatch, NearHand, PlayerHand, Wait
from bot.engine.tiles import (
    FLOWER,
    JOKER,
    NUM_KINDS,
    STANDARD_COUNTS,
)

#: Kinds a card can ask for: the suits, winds, dragons and the flower (not jokers or blanks).
CARD_KINDS = FLOWER + 1
IntArray = npt.NDArray[np.int16]
BoolArray = npt.NDArray[np.bool_]

#: The hands read and the answers given, kept importable from here, where callers look.
__all__ = ["CARD_KINDS", "CardMatcher", "Exposure", "MahjongMatch", "NearHand", "PlayerHand",
           "Wait", "matcher_for"]

class _Rows:
    """Requirement rows of the variations that are still open after exposures.

    For counting against one hand, `sums` lazily prepares the rows transposed (kind-major,
    small ints) as running totals `fixed`, `fixed + flex` and `fixed + flex + wild`, with
    their row sums: then what a hand lacks is a few `minimum` and `sum` passes (see
    `CardMatcher._missing`)."""

    __slots__ = ("_runs", "_sums", "fixed", "flex", "index", "wild")

    def __init__(self, index: npt.NDArray[np.intp], fixed: IntArray, flex: IntArray,
                 wild: IntArray) -> None:
        self.index = index
        self.fixed = fixed
        self.flex = flex
        self.wild = wild
        self._sums: _Sums | None = None
        self._runs: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None = None

    def take(self, keep: npt.NDArray[np.bool_] | npt.NDArray[np.intp]) -> _Rows:
        """The rows selected by a mask or positions."""
        return _Rows(self.index[keep], self.fixed[keep], self.flex[keep], self.wild[keep])

    def freeze(self) -> None:
        """Make the arrays read-only (cached rows are shared)."""
        for array in (self.index, self.fixed, self.flex, self.wild):
            array.flags.writeable = False

    def runs(self, hand_of: npt.NDArray[np.intp]) -> tuple[npt.NDArray[np.intp],
                                                           npt.NDArray[np.intp]]:
        """Where each card hand's run of rows starts, and the hand of each run (rows are in
        card order, so a hand's variations are together)."""
        if self._runs is None:
            hands = hand_of[self.index]
            starts = np.flatnonzero(np.diff(hands, prepend=-1))
            self._runs = (starts, hands[starts])
        return self._runs

    @property
    def sums(self) -> _Sums:
        """The running totals, built on first use."""
        if self._sums is None:
            self._sums = _Sums(self.fixed, self.flex, self.wild)
        return self._sums


class _Sums:
    """Kind-major running totals of some rows (see `_Rows`).

    The totals `fixed`, `fixed + flex` and, where some row has flower-wild places,
    `fixed + flex + wild` sit side by side in one array (`stacked`, one column per row and
    total), so what a hand places into each is one `minimum` and one `sum` pass (`placed`).
    Without wild places the third total would equal the second, so it is left out."""

    __slots__ = ("all_flower", "fixed_flex_flower", "has_wild", "need_all", "need_fixed",
                 "need_fixed_flex", "need_wild", "size", "stacked")

    def __init__(self, fixed: IntArray, flex: IntArray, wild: IntArray) -> None:
        fixed_flex = fixed + flex
        fixed_flex_wild = fixed_flex + wild
        self.size = len(fixed)
        self.has_wild = bool(wild.any())
        parts = (fixed, fixed_flex, fixed_flex_wild) if self.has_wild else (fixed, fixed_flex)
        self.stacked = np.ascontiguousarray(np.concatenate(parts).T, dtype=np.int8)
        self.fixed_flex_flower = fixed_flex[:, FLOWER].astype(np.int32)
        self.need_fixed = fixed.sum(axis=1, dtype=np.int32)
        self.need_fixed_flex = fixed_flex.sum(axis=1, dtype=np.int32)
        self.need_wild = wild.sum(axis=1, dtype=np.int32)
        self.need_all = fixed_flex_wild.sum(axis=1, dtype=np.int32)
        self.all_flower = fixed_flex_wild[:, FLOWER].astype(np.int32)

    def placed(self, held: npt.NDArray[np.int8]) -> tuple[npt.NDArray[np.int32], ...]:
        """`sum(min(held, total))` for each total (see the class docstring): what `held`, a
        column of counts per kind, places into the fixed places, into the fixed and
        joker-able ones, and (with wild places) into all of them."""
        size = self.size
        total = np.minimum(held, self.stacked).sum(axis=0, dtype=np.int32)
        return tuple(total[part * size:(part + 1) * size] for part in range(3 if self.has_wild
                                                                           else 2))


@dataclass(frozen=True)
class _Layout:
    """A variation prepared for laying tiles out: its groups; `steps`, the groups in the
    order they take naturals (natural-only groups, then joker-able, then flower-wild) as
    (position, tiles, kind, size, identical); `jokerable`, the groups jokers (and, where
    wild, flowers) may fill as (position, size, flowers wild); and its target tiles."""

    groups: tuple[TileGroup, ...]
    steps: tuple[tuple[int, tuple[int, ...], int, int, bool], ...]
    jokerable: tuple[tuple[int, int, bool], ...]
    target: tuple[tuple[int, ...], ...]
    by_group: tuple[tuple[int, tuple[int, ...], int, int, bool], ...]
    jokers_ok: tuple[bool, ...]


#: Answers of `nearest` kept (per matcher): the engine asks about the same rack again and
#: again within a turn (every view lists the seat's Mah Jongg options), and so do bots.
_NEAREST_CACHE = 256

#: Exposure sets whose open rows are kept (per matcher): seats keep their exposures for many
#: turns, and the same few sets are asked about again and again. The same holds for the rows
#: the set can still fill (`CardMatcher._real_rows`).
#: Games make ever new sets (a benchmark of 150 random games meets about 2,500), each
#: kept in a few kilobytes, so thousands are kept.
_OPEN_ROWS_CACHE = 4096


def _counts(kinds: Sequence[int]) -> tuple[IntArray, int]:
    """Natural counts per card kind, and the number of jokers (blanks are ignored)."""
    row = np.bincount(np.asarray(kinds, dtype=np.intp), minlength=NUM_KINDS)
    return row[:CARD_KINDS].astype(np.int16), int(row[JOKER])


def _kind_counts(kinds: Sequence[int]) -> list[int]:
    """How many of each kind (jokers and blanks included), as a plain list."""
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    return counts


def _exposed_naturals(exposures: Sequence[Exposure]) -> list[int]:
    """The natural tiles a seat's own exposures hold, as a count per kind: tiles of the set
    its concealed part can never get."""
    seen = [0] * NUM_KINDS
    for item in exposures:
        seen[item.kind] += item.size - item.jokers
    return seen


def _count_rows(hands: Sequence[PlayerHand]) -> tuple[IntArray, npt.NDArray[np.int32]]:
    """`_counts` for many 14-tile hands at once: one row of naturals per hand, and jokers."""
    tiles = np.array([hand.concealed for hand in hands], dtype=np.intp)
    offsets = np.arange(len(hands), dtype=np.intp)[:, None] * NUM_KINDS
    rows = np.bincount((tiles + offsets).ravel(), minlength=len(hands) * NUM_KINDS)
    rows = rows.reshape(len(hands), NUM_KINDS)
    return rows[:, :CARD_KINDS].astype(np.int16), rows[:, JOKER].astype(np.int32)


class CardMatcher:
    """A card compiled for matching; build one per card and reuse it (it is immutable)."""

    def __init__(self, card: Card, counts: Sequence[int] = STANDARD_COUNTS) -> None:
        self.card = card
        self.counts = tuple(counts)
        self.variations: tuple[Variation, ...] = tuple(
            v for index, hand in enumerate(card.hands) for v in hand_variations(hand, index)
        )
        size = len(self.variations)
        fixed = np.zeros((size, CARD_KINDS), dtype=np.int16)
        flex = np.zeros_like(fixed)
        wild = np.zeros_like(fixed)
        # (kind, size) -> group counts per variation: no jokers, joker-able, flowers-wild.
        slots: dict[tuple[int, int], npt.NDArray[np.int8]] = {}
        for row, variation in enumerate(self.variations):
            for group in variation.groups:
                target = wild if group.flowers_wild else flex if group.jokers_ok else fixed
                for kind in group.tiles:
                    target[row, kind] += 1
                if group.identical and group.size >= 3:
                    column = 2 if group.flowers_wild else 1 if group.jokers_ok else 0
                    key = (group.kind, group.size)
                    if key not in slots:
                        slots[key] = np.zeros((size, 3), dtype=np.int8)
                    slots[key][row, column] += 1
        self._fixed, self._flex, self._wild = fixed, flex, wild
        self._slots = slots
        self._has_wild = bool(wild.any())
        self._hand_of = np.array([v.hand_index for v in self.variations], dtype=np.intp)
        self._values = np.array([h.value for h in card.hands], dtype=np.int32)
        self._concealed = np.array([card.hands[v.hand_index].concealed
                                    for v in self.variations], dtype=bool)
        bits = np.left_shift(np.int64(1), np.arange(CARD_KINDS, dtype=np.int64))
        self._bits = bits
        # Kinds each variation can use: its own tiles, plus flowers where they are wild.
        may_hold = (fixed + flex + wild) > 0
        may_hold[:, FLOWER] |= wild.any(axis=1)
        self._kind_mask = may_hold.astype(np.int64) @ bits
        self._outside = ~self._kind_mask
        self._all_rows = _Rows(np.arange(size, dtype=np.intp), fixed, flex, wild)
        self._all_rows.freeze()
        # Evicted oldest first with `popitem`, one step that is safe while another thread
        # (a look-up answered in a worker) uses the same matcher.
        self._open_cache: OrderedDict[tuple[tuple[int, int, bool], ...], _Rows] = OrderedDict()
        self._real_cache: OrderedDict[tuple[tuple[int, int, int], ...], _Rows] = OrderedDict()
        self._layouts: list[_Layout | None] = [None] * size
        self._near_cache: OrderedDict[tuple[PlayerHand, int, int], tuple[NearHand, ...]] = (
            OrderedDict())
        self._top_value = int(self._values.max(initial=0))
        self._value_span = self._top_value - int(self._values.min(initial=0))

    # -- exposures -------------------------------------------------------------------------

    def _open_rows(self, exposures: Sequence[Exposure],
                   index: npt.NDArray[np.intp] | None = None) -> _Rows:
        """Rows left after matching exposures to whole groups; variations where they do not
        fit (or that are concealed hands) are dropped.

        With `index` only those variations are considered. The answer for every variation
        depends only on each exposure's kind, size and whether it holds jokers, so it is
        cached by that (the arrays are read-only)."""
        if not exposures:
            return self._all_rows if index is None else self._all_rows.take(index)
        key = tuple(sorted((e.kind, e.size, e.jokers > 0) for e in exposures))
        rows = self._open_cache.get(key)
        if rows is None:
            rows = self._match_exposures(key)
            rows.freeze()
            if len(self._open_cache) >= _OPEN_ROWS_CACHE:
                self._open_cache.popitem(last=False)
            self._open_cache[key] = rows
        if index is None:
            return rows
        wanted = np.zeros(len(self.variations), dtype=bool)
        wanted[index] = True
        return rows.take(wanted[rows.index])

    def _real_rows(self, exposures: Sequence[Exposure]) -> _Rows:
        """The open rows (see `_open_rows`) that some tiles of the set can still make, with
        the exposures' naturals taken: each variation that needs more natural copies of a tile
        than the set holds, or more jokers than it has, is dropped on its own, whatever the
        hand's other variations need (a standard set: "three suits of 1 through 9 (four copies
        each), four of each wind, four of each dragon, eight flowers and eight jokers"; the
        matcher's `counts`). Hints (`nearest`, `waits`) count only these, with the same supply
        count that judges dead hands (`_reachable`). Cached by exposure set."""
        key = tuple(sorted((e.kind, e.size, e.jokers) for e in exposures))
        rows = self._real_cache.get(key)
        if rows is None:
            rows = self._open_rows(exposures)
            real = self._reachable(rows, _exposed_naturals(exposures))
            if not real.all():
                rows = rows.take(real)
                rows.freeze()
            if len(self._real_cache) >= _OPEN_ROWS_CACHE:
                self._real_cache.popitem(last=False)
            self._real_cache[key] = rows
        return rows

    def _match_exposures(self, exposures: Sequence[tuple[int, int, bool]]) -> _Rows:
        """`_open_rows` for (kind, size, has jokers) exposures, computed: first the variations
        with enough groups of the right kind and size (few), then their rows less the tiles
        the exposures fill."""
        index = self._all_rows.index[~self._concealed]
        by_slot = Counter(exposures)
        slots = sorted({(k, s) for k, s, _ in by_slot})
        for kind, size in slots:
            table = self._slots.get((kind, size))
            if table is None:
                return self._all_rows.take(index[:0])
            groups = table[index]
            with_jokers = by_slot[(kind, size, True)]
            without = by_slot[(kind, size, False)]
            jokerable = groups[:, 1].astype(np.int16) + groups[:, 2]
            keep = (with_jokers <= jokerable) & (with_jokers + without <= jokerable + groups[:, 0])
            index = index[keep]
        fixed, flex, wild = self._fixed[index], self._flex[index], self._wild[index]
        for kind, size in slots:
            groups = self._slots[(kind, size)][index].astype(np.int16)
            plain_groups, flex_groups = groups[:, 0], groups[:, 1]
            with_jokers = by_slot[(kind, size, True)]
            without = by_slot[(kind, size, False)]
            # Natural exposures take no-joker groups first: that leaves the most freedom.
            to_plain = np.minimum(without, plain_groups)
            need_jokerable = with_jokers + without - to_plain
            to_flex = np.minimum(need_jokerable, flex_groups)
            to_wild = need_jokerable - to_flex
            fixed[:, kind] -= size * to_plain
            flex[:, kind] -= size * to_flex
            wild[:, kind] -= size * to_wild
        ok = (fixed.min(axis=1, initial=0) >= 0) & (flex.min(axis=1, initial=0) >= 0) & (
            wild.min(axis=1, initial=0) >= 0)
        return _Rows(index[ok], fixed[ok], flex[ok], wild[ok])

    # -- the counting core -----------------------------------------------------------------

    def _missing(self, rows: _Rows, naturals: IntArray,
                 jokers: int | npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
        """Tiles each open variation still lacks, given the seat's naturals and jokers.

        `naturals` is one count row for all rows, or one per row (then `jokers` is per row too).
        Naturals fill natural-only places first, then joker-able ones, then flower-wild ones;
        spare flowers stand in for open flower-wild places, and jokers fill open joker-able
        places. For one row of naturals this is counted with running totals: the naturals
        placed into the first `t` kinds of place are `sum(min(naturals, total_t))`.
        """
        if naturals.ndim > 1:
            return self._missing_each(rows, naturals, jokers)
        sums = rows.sums
        placed = sums.placed(naturals.astype(np.int8)[:, None])
        placed_fixed, placed_flex = placed[0], placed[1]
        missing_fixed = sums.need_fixed - placed_fixed
        open_flex = sums.need_fixed_flex - placed_flex - missing_fixed
        if sums.has_wild:  # without wild places in these rows the wild terms are all zero
            placed_wild = placed[2]
            open_wild = sums.need_wild - (placed_wild - placed_flex)
            spare_flowers = np.maximum(int(naturals[FLOWER]) - sums.fixed_flex_flower, 0)
            open_flex = open_flex + open_wild - np.minimum(spare_flowers, open_wild)
        missing: npt.NDArray[np.int32] = missing_fixed + open_flex - np.minimum(jokers, open_flex)
        return missing

    def _missing_each(self, rows: _Rows, naturals: IntArray,
                      jokers: int | npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
        """`_missing` with one row of naturals (and jokers) per row."""
        used_fixed = np.minimum(naturals, rows.fixed)
        rest = naturals - used_fixed
        used_flex = np.minimum(rest, rows.flex)
        missing_fixed = (rows.fixed - used_fixed).sum(axis=1, dtype=np.int32)
        open_flex = (rows.flex - used_flex).sum(axis=1, dtype=np.int32)
        if self._has_wild:
            rest = rest - used_flex
            used_wild = np.minimum(rest, rows.wild)
            open_wild = (rows.wild - used_wild).sum(axis=1, dtype=np.int32)
            flowers = np.minimum(rest[..., FLOWER].astype(np.int32), open_wild)
            open_flex = open_flex + open_wild - flowers
        missing: npt.NDArray[np.int32] = missing_fixed + open_flex - np.minimum(jokers, open_flex)
        return missing

    def _candidates(self, concealed: Sequence[int], exposures: Sequence[Exposure]
                    ) -> npt.NDArray[np.intp]:
        """Variations whose kinds cover every natural the seat holds (a cheap pre-filter)."""
        present = 0
        for kind in {*concealed, *(e.kind for e in exposures)}:
            if kind < CARD_KINDS:
                present |= 1 << kind
        return np.flatnonzero((self._outside & present) == 0)

    # -- public answers --------------------------------------------------------------------

    def mahjong(self, hand: PlayerHand) -> list[MahjongMatch]:
        """Every card hand that this 14-tile hand completes, best score value first."""
        if hand.size != HAND_SIZE:
            return []
        candidates = self._candidates(hand.concealed, hand.exposures)
        if not len(candidates):
            return []
        naturals, jokers = _counts(hand.concealed)
        rows = self._open_rows(hand.exposures, candidates)
        done = rows.index[self._missing(rows, naturals, jokers) == 0]
        best: dict[int, MahjongMatch] = {}
        for row in done.tolist():
            hand_index = self.variations[row].hand_index
            if hand_index not in best:
                best[hand_index] = self._arrange(row, hand)
        return sorted(best.values(), key=lambda m: (-m.score_value, m.hand.line))

    def winning_hands_many(self, hands: Sequence[PlayerHand],
                           chunk: int = 256) -> list[tuple[Hand, ...]]:
        """For each hand, the card hands it completes, checked for many hands at once.

        Hands without exposures are checked together in chunks (one pre-filter and one
        counting pass per chunk); hands with exposures go through `mahjong` one by one.
        """
        results: list[tuple[Hand, ...]] = [() for _ in hands]
        simple = [i for i, h in enumerate(hands) if not h.exposures and h.size == HAND_SIZE]
        for i, hand in enumerate(hands):
            if hand.exposures:
                results[i] = tuple(m.hand for m in self.mahjong(hand))
        rows = self._all_rows
        for start in range(0, len(simple), chunk):
            batch = simple[start:start + chunk]
            naturals, jokers = _count_rows([hands[i] for i in batch])
            present = (naturals > 0).astype(np.int64) @ self._bits
            hand_pos, var_pos = np.nonzero((present[:, None] & ~self._kind_mask[None, :]) == 0)
            if not len(hand_pos):
                continue
            pairs = _Rows(var_pos, rows.fixed[var_pos], rows.flex[var_pos], rows.wild[var_pos])
            done = self._missing(pairs, naturals[hand_pos], jokers[hand_pos]) == 0
            found: dict[int, set[int]] = {}
            for h, v in zip(hand_pos[done].tolist(), var_pos[done].tolist(), strict=True):
                found.setdefault(batch[h], set()).add(int(self._hand_of[v]))
            for i, indices in found.items():
                results[i] = tuple(self.card.hands[k] for k in sorted(indices))
        return results

    def nearest(self, hand: PlayerHand, count: int = 5, per_hand: int = 1) -> list[NearHand]:
        """The `count` card hands closest to this hand (fewest tiles away, then highest value),
        each with what it still needs. Concealed hands are left out once a seat has exposed,
        and so is every way of making a hand that no set can supply (`_real_rows`).

        With `per_hand` above 1, up to that many ways of making one card hand (its nearest
        variations: other suits or numbers) count among the `count`, in the same order: a
        player choosing among equally near suits of one hand sees them all."""
        key = (hand, count, per_hand)
        cached = self._near_cache.get(key)
        if cached is None:
            cached = tuple(self._nearest(hand, count, per_hand))
            if len(self._near_cache) >= _NEAREST_CACHE:
                self._near_cache.popitem(last=False)
            self._near_cache[key] = cached
        return list(cached)

    def _nearest(self, hand: PlayerHand, count: int, per_hand: int) -> list[NearHand]:
        naturals, jokers = _counts(hand.concealed)
        rows = self._real_rows(hand.exposures)
        if not len(rows.index):
            return []
        missing = self._missing(rows, naturals, jokers)
        held = _kind_counts(hand.concealed)
        size = len(missing)
        if per_hand > 1:
            return self._nearest_ways(rows, missing, hand, held, count, per_hand)
        if count == 1:
            # The single best row: fewest missing, then highest value, then first.
            key = (missing.astype(np.int64) * (self._value_span + 1) + self._top_value
                   - self._values[self._hand_of[rows.index]]) * size + np.arange(size)
            best_row = int(np.argmin(key))
            return [self._near(int(rows.index[best_row]), hand, int(missing[best_row]), held)]
        # Rows come in card order, so each hand's variations are one run of rows: its best
        # variation is the run's fewest missing, the first such row on a tie.
        starts, hands = rows.runs(self._hand_of)
        scaled = missing.astype(np.int64) * size + np.arange(size)
        firsts = np.minimum.reduceat(scaled, starts)
        positions = firsts % size
        fewest = firsts // size
        order = np.lexsort((positions, -self._values[hands], fewest))
        best = positions[order[:count] if count > 0 else order]
        return [self._near(row, hand, away, held) for row, away in
                zip(rows.index[best].tolist(), missing[best].tolist(), strict=True)]

    def _nearest_ways(self, rows: _Rows, missing: npt.NDArray[np.int32], hand: PlayerHand,
                      held: Sequence[int], count: int, per_hand: int) -> list[NearHand]:
        """`nearest` with up to `per_hand` variations of one card hand, from the open `rows`
        and what each is `missing`: every row in the order fewest missing, then highest
        value, then card order, at most `per_hand` rows of one hand, the first `count`."""
        hands = self._hand_of[rows.index]
        order = np.lexsort((np.arange(len(missing)), -self._values[hands], missing))
        taken: Counter[int] = Counter()
        found: list[NearHand] = []
        for position in order.tolist():
            owner = int(hands[position])
            if taken[owner] >= per_hand:
                continue
            taken[owner] += 1
            found.append(self._near(int(rows.index[position]), hand, int(missing[position]),
                                    held))
            if len(found) == count:
                break
        return found

    def waits(self, hand: PlayerHand) -> list[Wait]:
        """Every tile that completes this 13-tile hand (a joker included, when one would), with
        the card hands each completes. A tile the seat already holds every copy of (counting
        its exposures) is never waited for: the set has no more of it."""
        if hand.size != HAND_SIZE - 1:
            return []
        naturals, jokers = _counts(hand.concealed)
        rows = self._real_rows(hand.exposures)
        close = self._missing(rows, naturals, jokers) == 1
        # One more tile lowers the shortfall by at most one, so only rows one away can finish.
        near = rows.take(close)
        if not len(near.index):
            return []
        wanted = (near.fixed + near.flex + near.wild).any(axis=0)
        held = _kind_counts([*hand.concealed, *(t for e in hand.exposures for t in e.tiles)])
        found: dict[int, set[int]] = {}
        for tile in [*np.flatnonzero(wanted).tolist(), JOKER]:
            if held[tile] >= self.counts[tile]:
                continue
            if tile == JOKER:
                missing = self._missing(near, naturals, jokers + 1)
            else:
                more = naturals.copy()
                more[tile] += 1
                missing = self._missing(near, more, jokers)
            done = {int(self._hand_of[row]) for row in near.index[missing == 0]}
            if done:
                found[tile] = done
        return [Wait(tile, tuple(self.card.hands[i] for i in sorted(found[tile])))
                for tile in sorted(found)]

    def completing_kinds(self, pool: Sequence[int],
                         exposures: Sequence[Exposure]) -> frozenset[int] | None:
        """The natural kinds (no jokers or blanks) of which one more tile lets `pool` fill
        every place of some variation these exposures leave open, as `mahjong` counts (tiles
        of the pool may be left out): the only discards that could complete the hand, so a
        claim window asks about one set instead of matching the hand again for each discard.
        None when the pool fills a variation already (any tile might then do).

        One more tile fills at most one more place, so only variations one place short are
        tried, and only with the kinds they ask for (flowers too where flowers are wild).
        A 13-tile hand must place every tile it holds, so then only the variations that use
        every kind it holds are counted at all (as `mahjong` does)."""
        if len(pool) + sum(e.size for e in exposures) == HAND_SIZE - 1:
            candidates = self._candidates(pool, exposures)
            if not len(candidates):
                return frozenset()
            rows = self._open_rows(exposures, candidates)
        else:
            rows = self._open_rows(exposures)
        if not len(rows.index):
            return frozenset()
        naturals, jokers = _counts(pool)
        missing = self._missing(rows, naturals, jokers)
        if not missing.all():
            return None
        near = rows.take(missing == 1)
        if not len(near.index):
            return frozenset()
        wanted: BoolArray = np.asarray((near.fixed + near.flex + near.wild).any(axis=0))
        if self._has_wild and near.wild.any():
            wanted[FLOWER] = True
        found: set[int] = set()
        for tile in np.flatnonzero(wanted).tolist():
            more = naturals.copy()
            more[tile] += 1
            if not self._missing(near, more, jokers).all():
                found.add(tile)
        return frozenset(found)

    def possible_hands(self, exposures: Sequence[Exposure],
                       visible: Sequence[int]) -> list[Hand]:
        """Card hands still reachable with these exposures when `visible` (a count per kind)
        holds tiles this seat can never get: every discard and every natural in any exposure.
        Jokers sitting in exposures are not counted as visible, since exchanges can free them."""
        rows = self._open_rows(exposures)
        if not len(rows.index):
            return []
        ok = self._reachable(rows, visible)
        starts, hands = rows.runs(self._hand_of)
        return [self.card.hands[i] for i in hands[np.logical_or.reduceat(ok, starts)].tolist()]

    def _reachable(self, rows: _Rows, visible: Sequence[int]) -> BoolArray:
        """Which of these rows the rest of the set can still fill when `visible` (a count per
        kind) holds tiles out of reach: their natural-only places from the naturals left, the
        rest from naturals, spare flowers (where wild) and the jokers left."""
        sums = rows.sums
        supply = [self.counts[k] - visible[k] for k in range(CARD_KINDS)]
        # Nothing asks for more than 14 of a kind, so the supply is clipped to fit small ints.
        column = np.array([max(-64, min(64, n)) for n in supply], dtype=np.int8)[:, None]
        joker_supply = self.counts[JOKER] - visible[JOKER]
        # Each sum(min(supply, running total)) counts the places the supply can fill.
        filled = sums.placed(column)
        fill_fixed, fill_flex, fill_all = filled[0], filled[1], filled[-1]
        ok = fill_fixed == sums.need_fixed
        need = sums.need_all - fill_all
        if sums.has_wild:  # without wild places in these rows the wild terms are all zero
            wild_deficit = sums.need_wild - fill_all + fill_flex
            spare_flowers = np.maximum(supply[FLOWER] - sums.all_flower, 0)
            need -= np.minimum(spare_flowers, wild_deficit)
        reachable: BoolArray = ok & (need <= joker_supply)
        return reachable

    def is_dead(self, exposures: Sequence[Exposure], visible: Sequence[int]) -> bool:
        """True when no card hand can still be completed (see `possible_hands`; this asks
        only whether there is one, not which)."""
        rows = self._open_rows(exposures)
        return not len(rows.index) or not self._reachable(rows, visible).any()

    def can_expose(self, hand: PlayerHand, exposure: Exposure,
                   visible: Sequence[int] | None = None) -> bool:
        """Whether making this exposure still leaves some card hand possible for the seat."""
        exposures = (*hand.exposures, exposure)
        if visible is None:
            visible = _exposed_naturals(exposures)
        return bool(self.possible_hands(exposures, visible))

    # -- laying out results ----------------------------------------------------------------

    def _assign_exposures(self, variation: Variation,
                          exposures: Sequence[Exposure]) -> dict[int, Exposure]:
        """Which group each exposure fills, with the same preference as `_open_rows`."""
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
                groups, tuple(by_group[i] for i in order),
                tuple((i, g.size, g.flowers_wild) for i, g in enumerate(groups) if g.jokers_ok),
                tuple(g.tiles for g in groups), by_group, tuple(g.jokers_ok for g in groups))
            self._layouts[row] = layout
        return layout

    def _fill(self, row: int, hand: PlayerHand, held: Sequence[int] | None = None) -> tuple[
            list[list[int]], list[bool], tuple[int, ...], int]:
        """Place the seat's tiles into variation `row`'s groups: naturals first (natural-only
        groups, then joker-able ones), then flowers into flower-wild places, then jokers.

        `held` may give the hand's concealed count per kind (when the caller has it).
        Returns each group's tiles, which groups exposures fill, the natural tiles left over
        (sorted) and the jokers left over."""
        layout = self._layout(row)
        taken = self._assign_exposures(self.variations[row], hand.exposures) \
            if hand.exposures else {}
        pool = list(held) if held is not None else _kind_counts(hand.concealed)
        jokers = pool[JOKER]
        pool[JOKER] = 0
        placed: list[list[int]] = [[] for _ in layout.groups]
        for i, tiles, kind, size, identical in layout.steps:
            if i in taken:
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
        unused: list[int] = []
        for kind, count in enumerate(pool):
            if count:
                unused.extend([kind] * count)
        exposed = [i in taken for i in range(len(placed))] if taken else [False] * len(placed)
        return placed, exposed, tuple(unused), jokers

    def _arrange(self, row: int, hand: PlayerHand) -> MahjongMatch:
        variation = self.variations[row]
        placed, exposed, _, _ = self._fill(row, hand)
        jokers = sum(tiles.count(JOKER) for tiles in placed)
        flowers = sum(tiles.count(FLOWER) for group, tiles in zip(variation.groups, placed,
                                                                  strict=True)
                      if group.flowers_wild)
        return MahjongMatch(self.card.hands[variation.hand_index],
                            tuple(tuple(g) for g in placed), tuple(exposed), jokers, flowers)

    def _near(self, row: int, hand: PlayerHand, away: int,
              held: Sequence[int] | None = None) -> NearHand:
        layout = self._layout(row)
        placed, _, unused, spare_jokers = self._fill(row, hand, held)
        need_natural: list[int] = []
        need_any: list[int] = []
        for (_, group_tiles, kind, size, _), jokers_ok, tiles in zip(
                layout.by_group, layout.jokers_ok, placed, strict=True):
            if len(tiles) >= size:
                continue
            if jokers_ok:
                need_any.extend([kind] * (size - len(tiles)))
            else:
                # A natural-only group holds only its own naturals: what it lacks is the rest.
                rest = list(group_tiles)
                for tile in tiles:
                    rest.remove(tile)
                need_natural.extend(rest)
        return NearHand(
            hand=self.card.hands[self.variations[row].hand_index],
            away=away,
            need_natural=tuple(sorted(need_natural)),
            need_any=tuple(sorted(need_any)),
            unused=unused + (JOKER,) * spare_jokers,
            target=layout.target,
            groups=tuple(tuple(g) for g in placed),
        )


#: Recently used matchers, kept alive; `_LIVE` finds any matcher still in use (by a game, a
#: bot or a caller holding it) however many other cards were compiled since.
_MATCHERS: dict[tuple[int, tuple[int, ...]], CardMatcher] = {}
_MATCHER_CACHE_SIZE = 8
_LIVE: weakref.WeakValueDictionary[tuple[int, tuple[int, ...]], CardMatcher] = (
    weakref.WeakValueDictionary())
#: Compiling runs in worker threads as well as on the caller's: the caches change under it.
_CACHE_LOCK = threading.Lock()


def matcher_for(card: Card, counts: Sequence[int] = STANDARD_COUNTS) -> CardMatcher:
    """One compiled matcher per card and tile set, shared by games, bots and look-ups.

    Compiling takes tens of milliseconds (up to seconds for a card at the compile budget),
    so it is done once: a matcher is found again while anything holds it, or while it is
    among the last few compiled. The cache is keyed by the card's identity and each matcher
    holds its card, so an id is never reused while cached and a whole card is never hashed.
    Safe to call from several threads (two threads asking for the same new card may both
    compile it; callers that care share one request).
    """
    key = (id(card), tuple(counts))
    with _CACHE_LOCK:
        cached = _LIVE.get(key)
    if cached is not None and cached.card is card:
        _remember(key, cached)
        return cached
    matcher = CardMatcher(card, key[1])
    _remember(key, matcher)
    return matcher


def _remember(key: tuple[int, tuple[int, ...]], matcher: CardMatcher) -> None:
    """Make `matcher` the most recently used and keep the last few alive."""
    with _CACHE_LOCK:
        _LIVE[key] = matcher
        _MATCHERS.pop(key, None)
        _MATCHERS[key] = matcher
        while len(_MATCHERS) > _MATCHER_CACHE_SIZE:
            _MATCHERS.pop(next(iter(_MATCHERS)))
