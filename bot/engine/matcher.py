"""The hand matcher: Mah Jongg, nearest hands, waits, exposures and dead hands against a card.

A card is compiled once into variations (see `bot.engine.cards.compile`), and each variation
into three count rows over tile kinds:

* `fixed`: tiles that must be natural (singles, pairs, years, NEWS, groups marked `!`);
* `flex`:  tiles of joker-able groups (three or more identical tiles), natural or joker;
* `wild`:  tiles of joker-able groups where flowers may stand in as well.

Exposures are matched to whole groups first (an exposed kong only ever fills a kong group) and
their tiles removed from the rows; after that a hand is pure counting, done for every
variation at once with a few numpy operations. "No match" is an answer, never an exception.

`CardMatcher` gives the answers; its parts are in `bot.engine.matching` (the counting core,
exposures against the card, laying tiles out), and the hands it reads and the answers it
gives in `bot.engine.hands`, all importable from here.
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter, OrderedDict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bot.engine.cards.compile import HAND_SIZE, Variation, hand_variations
from bot.engine.cards.model import Card, Hand
from bot.engine.hands import Exposure, MahjongMatch, NearHand, PlayerHand, Wait
from bot.engine.matching.exposures import ExposureRows
from bot.engine.matching.layout import Held, Layouts
from bot.engine.matching.rows import (
    CARD_KINDS,
    BoolArray,
    IntArray,
    Rows,
    count_rows,
    exposed_naturals,
    hand_counts,
    kind_counts,
    missing_tiles,
)
from bot.engine.tiles import FLOWER, JOKER, STANDARD_COUNTS

#: The hands read and the answers given, kept importable from here, where callers look.
__all__ = ["CARD_KINDS", "CardMatcher", "Exposure", "MahjongMatch", "NearHand", "PlayerHand",
           "Wait", "matcher_for"]

#: No variation (`CardMatcher._candidates` when none fits).
_NO_ROWS: npt.NDArray[np.intp] = np.zeros(0, dtype=np.intp)
_NO_ROWS.flags.writeable = False

#: Answers of `nearest` kept (per matcher): the engine asks about the same rack again and
#: again within a turn (every view lists the seat's Mah Jongg options), and so do bots.
_NEAREST_CACHE = 256


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
        for row, variation in enumerate(self.variations):
            for group in variation.groups:
                target = wild if group.flowers_wild else flex if group.jokers_ok else fixed
                for kind in group.tiles:
                    target[row, kind] += 1
        self._has_wild = bool(wild.any())
        self._hand_of = np.array([v.hand_index for v in self.variations], dtype=np.intp)
        self._values = np.array([h.value for h in card.hands], dtype=np.int32)
        concealed = np.array([card.hands[v.hand_index].concealed for v in self.variations],
                             dtype=bool)
        bits = np.left_shift(np.int64(1), np.arange(CARD_KINDS, dtype=np.int64))
        self._bits = bits
        # Kinds each variation can use: its own tiles, plus flowers where they are wild.
        may_hold = (fixed + flex + wild) > 0
        may_hold[:, FLOWER] |= wild.any(axis=1)
        self._kind_mask = may_hold.astype(np.int64) @ bits
        self._outside = ~self._kind_mask
        # The same, kind by kind, as Python integers (bit r: variation r may hold the kind):
        # most hands of a game fit no variation at all, found by a few ANDs.
        self._holding = tuple(sum(1 << row for row in np.flatnonzero(may_hold[:, kind]).tolist())
                              for kind in range(CARD_KINDS))
        self._all_rows = Rows(np.arange(size, dtype=np.intp), fixed, flex, wild)
        self._all_rows.freeze()
        self._exposures = ExposureRows(self.variations, concealed, self._all_rows, self.counts)
        self._layouts = Layouts(card, self.variations)
        # Evicted oldest first with `popitem`, one step that is safe while another thread
        # (a look-up answered in a worker) uses the same matcher.
        self._near_cache: OrderedDict[tuple[PlayerHand, int, int], tuple[NearHand, ...]] = (
            OrderedDict())
        self._top_value = int(self._values.max(initial=0))
        self._value_span = self._top_value - int(self._values.min(initial=0))

    def _missing(self, rows: Rows, naturals: IntArray,
                 jokers: int | npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
        """What each of these rows still lacks (see `bot.engine.matching.rows.missing_tiles`)."""
        return missing_tiles(rows, naturals, jokers, self._has_wild)

    def _candidates(self, concealed: Sequence[int], exposures: Sequence[Exposure]
                    ) -> npt.NDArray[np.intp]:
        """Variations whose kinds cover every natural the seat holds (a cheap pre-filter)."""
        present = 0
        holding = self._holding
        common = -1  # every variation
        for kind in {*concealed, *(e.kind for e in exposures)}:
            if kind < CARD_KINDS:
                present |= 1 << kind
                common &= holding[kind]
                if not common:
                    return _NO_ROWS
        return np.flatnonzero((self._outside & present) == 0)

    # -- public answers --------------------------------------------------------------------

    def mahjong(self, hand: PlayerHand) -> list[MahjongMatch]:
        """Every card hand that this 14-tile hand completes, best score value first."""
        if hand.size != HAND_SIZE:
            return []
        candidates = self._candidates(hand.concealed, hand.exposures)
        if not len(candidates):
            return []
        naturals, jokers = hand_counts(hand.concealed)
        rows = self._exposures.open(hand.exposures, candidates)
        done = rows.index[self._missing(rows, naturals, jokers) == 0]
        best: dict[int, MahjongMatch] = {}
        for row in done.tolist():
            hand_index = self.variations[row].hand_index
            if hand_index not in best:
                best[hand_index] = self._layouts.arrange(row, hand)
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
            naturals, jokers = count_rows([hands[i] for i in batch])
            present = (naturals > 0).astype(np.int64) @ self._bits
            hand_pos, var_pos = np.nonzero((present[:, None] & ~self._kind_mask[None, :]) == 0)
            if not len(hand_pos):
                continue
            pairs = Rows(var_pos, rows.fixed[var_pos], rows.flex[var_pos], rows.wild[var_pos])
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
        and so is every way of making a hand that no set can supply (`ExposureRows.real`).

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
        naturals, jokers = hand_counts(hand.concealed)
        rows = self._exposures.real(hand.exposures)
        if not len(rows.index):
            return []
        missing = self._missing(rows, naturals, jokers)
        held = Held(hand.concealed)
        size = len(missing)
        if per_hand > 1:
            return self._nearest_ways(rows, missing, hand, held, count, per_hand)
        if count == 1:
            # The single best row: fewest missing, then highest value, then first.
            key = (missing.astype(np.int64) * (self._value_span + 1) + self._top_value
                   - self._values[self._hand_of[rows.index]]) * size + np.arange(size)
            best_row = int(np.argmin(key))
            return [self._layouts.near(int(rows.index[best_row]), hand,
                                       int(missing[best_row]), held)]
        # Rows come in card order, so each hand's variations are one run of rows: its best
        # variation is the run's fewest missing, the first such row on a tie.
        starts, hands = rows.runs(self._hand_of)
        scaled = missing.astype(np.int64) * size + np.arange(size)
        firsts = np.minimum.reduceat(scaled, starts)
        positions = firsts % size
        fewest = firsts // size
        order = np.lexsort((positions, -self._values[hands], fewest))
        best = positions[order[:count] if count > 0 else order]
        return [self._layouts.near(row, hand, away, held) for row, away in
                zip(rows.index[best].tolist(), missing[best].tolist(), strict=True)]

    def _nearest_ways(self, rows: Rows, missing: npt.NDArray[np.int32], hand: PlayerHand,
                      held: Held, count: int, per_hand: int) -> list[NearHand]:
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
            found.append(self._layouts.near(int(rows.index[position]), hand,
                                            int(missing[position]), held))
            if len(found) == count:
                break
        return found

    def waits(self, hand: PlayerHand) -> list[Wait]:
        """Every tile that completes this 13-tile hand (a joker included, when one would), with
        the card hands each completes. A tile the seat already holds every copy of (counting
        its exposures) is never waited for: the set has no more of it."""
        if hand.size != HAND_SIZE - 1:
            return []
        naturals, jokers = hand_counts(hand.concealed)
        rows = self._exposures.real(hand.exposures)
        close = self._missing(rows, naturals, jokers) == 1
        # One more tile lowers the shortfall by at most one, so only rows one away can finish.
        near = rows.take(close)
        if not len(near.index):
            return []
        wanted = _short_of(near, naturals)
        if self._has_wild and near.wild.any():
            wanted[FLOWER] = True  # a spare flower may stand in for a flower-wild place
        held = kind_counts([*hand.concealed, *(t for e in hand.exposures for t in e.tiles)])
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
        tried, and only with the kinds they ask for more of than the pool holds (flowers too
        where flowers are wild): another tile of a kind a variation has enough of is left over.
        A 13-tile hand must place every tile it holds, so then only the variations that use
        every kind it holds are counted at all (as `mahjong` does)."""
        if len(pool) + sum(e.size for e in exposures) == HAND_SIZE - 1:
            candidates = self._candidates(pool, exposures)
            if not len(candidates):
                return frozenset()
            rows = self._exposures.open(exposures, candidates)
        else:
            rows = self._exposures.open(exposures)
        if not len(rows.index):
            return frozenset()
        naturals, jokers = hand_counts(pool)
        missing = self._missing(rows, naturals, jokers)
        if not missing.all():
            return None
        near = rows.take(missing == 1)
        if not len(near.index):
            return frozenset()
        wanted = _short_of(near, naturals)
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
        rows = self._exposures.open(exposures)
        if not len(rows.index):
            return []
        ok = self._exposures.reachable(rows, visible)
        starts, hands = rows.runs(self._hand_of)
        return [self.card.hands[i] for i in hands[np.logical_or.reduceat(ok, starts)].tolist()]

    def is_dead(self, exposures: Sequence[Exposure], visible: Sequence[int]) -> bool:
        """True when no card hand can still be completed (see `possible_hands`; this asks
        only whether there is one, not which)."""
        return not self._exposures.any_reachable(self._exposures.open(exposures), visible)

    def can_expose(self, hand: PlayerHand, exposure: Exposure,
                   visible: Sequence[int] | None = None) -> bool:
        """Whether making this exposure still leaves some card hand possible for the seat."""
        exposures = (*hand.exposures, exposure)
        if visible is None:
            visible = exposed_naturals(exposures)
        return bool(self.possible_hands(exposures, visible))



def _short_of(rows: Rows, naturals: IntArray) -> BoolArray:
    """The kinds of which some of these rows ask for more than `naturals` holds: another
    natural of any other kind finds no place in them (each place a row has for a kind is
    already taken by the naturals held), so it cannot bring one closer."""
    short: BoolArray = np.asarray(((rows.fixed + rows.flex + rows.wild) > naturals).any(axis=0))
    return short


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
