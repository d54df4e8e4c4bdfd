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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.engine.cards.compile import HAND_SIZE, TileGroup, Variation, hand_variations
from bot.engine.cards.model import Card, Hand
from bot.engine.errors import InvalidInput
from bot.engine.tiles import (
    BLANK,
    FLOWER,
    JOKER,
    NUM_KINDS,
    STANDARD_COUNTS,
    format_tiles,
    parse_tiles,
    tile_name,
)

#: Kinds a card can ask for: the suits, winds, dragons and the flower (not jokers or blanks).
CARD_KINDS = FLOWER + 1
IntArray = npt.NDArray[np.int16]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Exposure:
    """An exposed pung, kong, quint or sextet: one tile kind, its size, how many are jokers."""

    kind: int
    size: int
    jokers: int = 0

    def __post_init__(self) -> None:
        if not 3 <= self.size <= 6:
            raise InvalidInput("An exposure is a pung, kong, quint or sextet (3 to 6 tiles).")
        if not 0 <= self.jokers < self.size:
            raise InvalidInput("An exposure holds at least one natural tile: the one called.")
        if self.kind in (JOKER, BLANK):
            raise InvalidInput("An exposure is made of one natural tile kind plus jokers.")

    @property
    def tiles(self) -> tuple[int, ...]:
        """The exposure's tiles, naturals first."""
        return (self.kind,) * (self.size - self.jokers) + (JOKER,) * self.jokers

    @classmethod
    def parse(cls, text: str) -> Exposure:
        """Read one exposure such as `333B`, `3B 3B J`, `NNNN` or `FF JJJ`."""
        kinds = parse_tiles(text)
        naturals = {k for k in kinds if k != JOKER}
        if len(naturals) != 1:
            raise InvalidInput(f"The exposure `{text}` must be one tile repeated, plus jokers "
                               "(e.g. `333B` or `3B JJ`).")
        return cls(naturals.pop(), len(kinds), kinds.count(JOKER))

    def __str__(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True)
class PlayerHand:
    """What one seat holds: concealed tiles (kinds) and exposures."""

    concealed: tuple[int, ...]
    exposures: tuple[Exposure, ...] = ()

    @property
    def size(self) -> int:
        """All the seat's tiles, concealed and exposed."""
        return len(self.concealed) + sum(e.size for e in self.exposures)

    @classmethod
    def parse(cls, concealed: str, exposed: str = "") -> PlayerHand:
        """Read a hand: concealed tiles in the notation, exposures separated by commas."""
        exposures = tuple(Exposure.parse(part) for part in exposed.split(",") if part.strip())
        return cls(parse_tiles(concealed), exposures)

    def __str__(self) -> str:
        shown = format_tiles(self.concealed)
        if self.exposures:
            shown += " | exposed " + ", ".join(str(e) for e in self.exposures)
        return shown


@dataclass(frozen=True)
class MahjongMatch:
    """A card hand that a 14-tile hand completes, laid out group by group.

    `groups` holds each group's tiles as played (jokers as `JOKER`), `exposed` marks groups
    filled by exposures. `score_value` is the card value, doubled when jokerless unless the
    hand is singles and pairs (the usual ordering of "best" hand).
    """

    hand: Hand
    groups: tuple[tuple[int, ...], ...]
    exposed: tuple[bool, ...]
    jokers: int
    flowers_as_jokers: int = 0

    @property
    def jokerless(self) -> bool:
        """True when nothing stands in for another tile: no joker, and no flower acting as one
        (a singles-and-pairs hand never has either)."""
        return self.jokers == 0 and self.flowers_as_jokers == 0

    @property
    def score_value(self) -> int:
        """The hand's value with the jokerless doubling applied where it applies."""
        doubled = self.jokerless and not self.hand.singles_and_pairs
        return self.hand.value * (2 if doubled else 1)


@dataclass(frozen=True)
class NearHand:
    """How far a seat is from one card hand, and what it still needs.

    `need_natural`: tiles that must be natural (singles, pairs, no-joker groups).
    `need_any`: open places in joker-able groups that the seat's jokers do not cover yet.
    `unused`: the seat's concealed tiles that do not fit this hand (discard candidates).
    `target` is the concrete hand aimed at, group by group; `groups` what the seat already
    has towards each group (jokers included).
    """

    hand: Hand
    away: int
    need_natural: tuple[int, ...]
    need_any: tuple[int, ...]
    unused: tuple[int, ...]
    target: tuple[tuple[int, ...], ...]
    groups: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Wait:
    """A tile that completes a 13-tile hand, and the card hands it completes."""

    tile: int
    hands: tuple[Hand, ...]

    def __str__(self) -> str:
        return f"{tile_name(self.tile)}: " + ", ".join(h.id for h in self.hands)


@dataclass(frozen=True)
class _Rows:
    """Requirement rows of the variations that are still open after exposures."""

    index: npt.NDArray[np.intp]
    fixed: IntArray
    flex: IntArray
    wild: IntArray


def _counts(kinds: Sequence[int]) -> tuple[IntArray, int]:
    """Natural counts per card kind, and the number of jokers (blanks are ignored)."""
    row = np.bincount(np.asarray(kinds, dtype=np.intp), minlength=NUM_KINDS)
    return row[:CARD_KINDS].astype(np.int16), int(row[JOKER])


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
        self._all_rows = _Rows(np.arange(size, dtype=np.intp), fixed, flex, wild)

    # -- exposures -------------------------------------------------------------------------

    def _open_rows(self, exposures: Sequence[Exposure],
                   index: npt.NDArray[np.intp] | None = None) -> _Rows:
        """Rows left after matching exposures to whole groups; variations where they do not
        fit (or that are concealed hands) are dropped."""
        if not exposures and index is None:
            return self._all_rows
        if index is None:
            index = self._all_rows.index
        if exposures:
            index = index[~self._concealed[index]]
        fixed, flex, wild = self._fixed[index], self._flex[index], self._wild[index]
        if not exposures:
            return _Rows(index, fixed, flex, wild)
        fixed, flex, wild = fixed.copy(), flex.copy(), wild.copy()
        keep = np.ones(len(index), dtype=bool)
        by_slot = Counter((e.kind, e.size, e.jokers > 0) for e in exposures)
        for kind, size in {(k, s) for k, s, _ in by_slot}:
            table = self._slots.get((kind, size))
            if table is None:
                return _Rows(index[:0], fixed[:0], flex[:0], wild[:0])
            groups = table[index].astype(np.int16)
            plain_groups, flex_groups, wild_groups = groups[:, 0], groups[:, 1], groups[:, 2]
            with_jokers = by_slot[(kind, size, True)]
            without = by_slot[(kind, size, False)]
            keep &= (with_jokers <= flex_groups + wild_groups)
            keep &= (with_jokers + without <= plain_groups + flex_groups + wild_groups)
            # Natural exposures take no-joker groups first: that leaves the most freedom.
            to_plain = np.minimum(without, plain_groups)
            need_jokerable = with_jokers + without - to_plain
            to_flex = np.minimum(need_jokerable, flex_groups)
            to_wild = need_jokerable - to_flex
            fixed[:, kind] -= size * to_plain
            flex[:, kind] -= size * to_flex
            wild[:, kind] -= size * to_wild
        ok = keep & (fixed.min(axis=1) >= 0) & (flex.min(axis=1) >= 0) & (wild.min(axis=1) >= 0)
        return _Rows(index[ok], fixed[ok], flex[ok], wild[ok])

    # -- the counting core -----------------------------------------------------------------

    def _missing(self, rows: _Rows, naturals: IntArray,
                 jokers: int | npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
        """Tiles each open variation still lacks, given the seat's naturals and jokers.

        `naturals` is one count row for all rows, or one per row (then `jokers` is per row too).
        """
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

    def _candidates(self, naturals: IntArray, exposures: Sequence[Exposure]) -> npt.NDArray[
            np.intp]:
        """Variations whose kinds cover every natural the seat holds (a cheap pre-filter)."""
        present = int((naturals > 0).astype(np.int64) @ self._bits)
        for exposure in exposures:
            if exposure.kind < CARD_KINDS:
                present |= 1 << exposure.kind
        return np.flatnonzero((present & ~self._kind_mask) == 0)

    # -- public answers --------------------------------------------------------------------

    def mahjong(self, hand: PlayerHand) -> list[MahjongMatch]:
        """Every card hand that this 14-tile hand completes, best score value first."""
        if hand.size != HAND_SIZE:
            return []
        naturals, jokers = _counts(hand.concealed)
        candidates = self._candidates(naturals, hand.exposures)
        if not len(candidates):
            return []
        rows = self._open_rows(hand.exposures, candidates)
        done = rows.index[self._missing(rows, naturals, jokers) == 0]
        best: dict[int, MahjongMatch] = {}
        for row in done:
            variation = self.variations[row]
            if variation.hand_index not in best:
                best[variation.hand_index] = self._arrange(variation, hand)
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

    def nearest(self, hand: PlayerHand, count: int = 5) -> list[NearHand]:
        """The `count` card hands closest to this hand (fewest tiles away, then highest value),
        each with what it still needs. Concealed hands are left out once a seat has exposed."""
        naturals, jokers = _counts(hand.concealed)
        rows = self._open_rows(hand.exposures)
        if not len(rows.index):
            return []
        missing = self._missing(rows, naturals, jokers)
        hands = self._hand_of[rows.index]
        order = np.lexsort((rows.index, -self._values[hands], missing))
        chosen: list[NearHand] = []
        seen: set[int] = set()
        for position in order:
            hand_index = int(hands[position])
            if hand_index in seen:
                continue
            seen.add(hand_index)
            chosen.append(self._near(self.variations[rows.index[position]], hand,
                                     int(missing[position])))
            if len(chosen) == count:
                break
        return chosen

    def waits(self, hand: PlayerHand) -> list[Wait]:
        """Every tile that completes this 13-tile hand (a joker included, when one would), with
        the card hands each completes."""
        if hand.size != HAND_SIZE - 1:
            return []
        naturals, jokers = _counts(hand.concealed)
        rows = self._open_rows(hand.exposures)
        close = self._missing(rows, naturals, jokers) == 1
        # One more tile lowers the shortfall by at most one, so only rows one away can finish.
        near = _Rows(rows.index[close], rows.fixed[close], rows.flex[close], rows.wild[close])
        if not len(near.index):
            return []
        wanted = (near.fixed + near.flex + near.wild).any(axis=0)
        found: dict[int, set[int]] = {}
        for tile in [*np.flatnonzero(wanted).tolist(), JOKER]:
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

    def possible_hands(self, exposures: Sequence[Exposure],
                       visible: Sequence[int]) -> list[Hand]:
        """Card hands still reachable with these exposures when `visible` (a count per kind)
        holds tiles this seat can never get: every discard and every natural in any exposure.
        Jokers sitting in exposures are not counted as visible, since exchanges can free them."""
        rows = self._open_rows(exposures)
        supply = np.array([self.counts[k] - visible[k] for k in range(CARD_KINDS)],
                          dtype=np.int16)
        joker_supply = self.counts[JOKER] - visible[JOKER]
        ok = (rows.fixed <= supply).all(axis=1)
        total = rows.fixed + rows.flex + rows.wild
        deficit = np.maximum(total - supply, 0)
        need = deficit.sum(axis=1, dtype=np.int32)
        if self._has_wild:
            wild_deficit = np.minimum(deficit, rows.wild).sum(axis=1, dtype=np.int32)
            spare_flowers = np.maximum(supply[FLOWER] - total[:, FLOWER], 0)
            need -= np.minimum(spare_flowers, wild_deficit)
        ok &= need <= joker_supply
        indices = sorted({int(i) for i in self._hand_of[rows.index[ok]]})
        return [self.card.hands[i] for i in indices]

    def is_dead(self, exposures: Sequence[Exposure], visible: Sequence[int]) -> bool:
        """True when no card hand can still be completed (see `possible_hands`)."""
        return not self.possible_hands(exposures, visible)

    def can_expose(self, hand: PlayerHand, exposure: Exposure,
                   visible: Sequence[int] | None = None) -> bool:
        """Whether making this exposure still leaves some card hand possible for the seat."""
        exposures = (*hand.exposures, exposure)
        if visible is None:
            seen = [0] * (JOKER + 1)
            for item in exposures:
                seen[item.kind] += item.size - item.jokers
            visible = seen
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

    def _fill(self, variation: Variation, hand: PlayerHand) -> tuple[
            list[list[int]], list[bool], Counter[int], int]:
        """Place the seat's tiles into the variation's groups: naturals first (natural-only
        groups, then joker-able ones), then flowers into flower-wild places, then jokers."""
        taken = self._assign_exposures(variation, hand.exposures)
        pool: Counter[int] = Counter(k for k in hand.concealed if k != JOKER)
        jokers = hand.concealed.count(JOKER)
        placed: list[list[int]] = [[] for _ in variation.groups]

        def rank(item: tuple[int, TileGroup]) -> tuple[bool, bool]:
            return (item[1].jokers_ok, item[1].flowers_wild)

        for i, group in sorted(enumerate(variation.groups), key=rank):
            if i in taken:
                placed[i] = list(taken[i].tiles)
                continue
            for kind in group.tiles:
                if pool[kind] > 0:
                    pool[kind] -= 1
                    placed[i].append(kind)
        for i, group in enumerate(variation.groups):
            while len(placed[i]) < group.size and group.flowers_wild and pool[FLOWER] > 0:
                pool[FLOWER] -= 1
                placed[i].append(FLOWER)
            while len(placed[i]) < group.size and group.jokers_ok and jokers > 0:
                jokers -= 1
                placed[i].append(JOKER)
        return placed, [i in taken for i in range(len(variation.groups))], +pool, jokers

    def _arrange(self, variation: Variation, hand: PlayerHand) -> MahjongMatch:
        placed, exposed, _, _ = self._fill(variation, hand)
        jokers = sum(tiles.count(JOKER) for tiles in placed)
        flowers = sum(tiles.count(FLOWER) for group, tiles in zip(variation.groups, placed,
                                                                  strict=True)
                      if group.flowers_wild)
        return MahjongMatch(self.card.hands[variation.hand_index],
                            tuple(tuple(g) for g in placed), tuple(exposed), jokers, flowers)

    def _near(self, variation: Variation, hand: PlayerHand, away: int) -> NearHand:
        placed, _, unused, spare_jokers = self._fill(variation, hand)
        need_natural: list[int] = []
        need_any: list[int] = []
        for group, tiles in zip(variation.groups, placed, strict=True):
            if group.jokers_ok:
                need_any.extend([group.kind] * (group.size - len(tiles)))
            else:
                need_natural.extend((Counter(group.tiles) - Counter(tiles)).elements())
        return NearHand(
            hand=self.card.hands[variation.hand_index],
            away=away,
            need_natural=tuple(sorted(need_natural)),
            need_any=tuple(sorted(need_any)),
            unused=tuple(sorted(unused.elements())) + (JOKER,) * spare_jokers,
            target=tuple(group.tiles for group in variation.groups),
            groups=tuple(tuple(g) for g in placed),
        )
