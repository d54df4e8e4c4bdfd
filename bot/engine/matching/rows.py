"""The counting core of the matcher: a card's variations as count rows, and what a hand lacks.

Each variation is three count rows over tile kinds: `fixed` (tiles that must be natural),
`flex` (tiles of joker-able groups) and `wild` (tiles of joker-able groups where flowers may
stand in too). What a hand lacks of every row at once is a few numpy passes (`missing_tiles`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bot.engine.hands import Exposure, PlayerHand
from bot.engine.tiles import FLOWER, JOKER, NUM_KINDS

#: Kinds a card can ask for: the suits, winds, dragons and the flower (not jokers or blanks).
CARD_KINDS = FLOWER + 1
IntArray = npt.NDArray[np.int16]
BoolArray = npt.NDArray[np.bool_]


class Rows:
    """Requirement rows of the variations that are still open after exposures.

    For counting against one hand, `sums` lazily prepares the rows transposed (kind-major,
    small ints) as running totals `fixed`, `fixed + flex` and `fixed + flex + wild`, with
    their row sums: then what a hand lacks is a few `minimum` and `sum` passes (see
    `missing_tiles`). `witness` is kept by `ExposureRows.any_reachable`: one row the set
    could still fill when last asked, tried first next time."""

    __slots__ = ("_runs", "_sums", "fixed", "flex", "index", "wild", "witness")

    def __init__(self, index: npt.NDArray[np.intp], fixed: IntArray, flex: IntArray,
                 wild: IntArray) -> None:
        self.index = index
        self.fixed = fixed
        self.flex = flex
        self.wild = wild
        self._sums: Sums | None = None
        self._runs: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None = None
        self.witness: Witness | None = None

    def take(self, keep: npt.NDArray[np.bool_] | npt.NDArray[np.intp]) -> Rows:
        """The rows selected by a mask or positions."""
        return Rows(self.index[keep], self.fixed[keep], self.flex[keep], self.wild[keep])

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
    def sums(self) -> Sums:
        """The running totals, built on first use."""
        if self._sums is None:
            self._sums = Sums(self.fixed, self.flex, self.wild)
        return self._sums


class Witness:
    """One row, in plain numbers, to judge on its own whether a supply can fill it (see
    `ExposureRows.reachable`, whose arithmetic `fills` repeats for this row): each kind it
    asks for with its running totals, and its sums."""

    __slots__ = ("all_flower", "kinds", "need_all", "need_fixed", "need_wild")

    def __init__(self, fixed: IntArray, flex: IntArray, wild: IntArray) -> None:
        fixed_flex = fixed + flex
        every = fixed_flex + wild
        self.kinds = tuple((kind, int(fixed[kind]), int(fixed_flex[kind]), int(every[kind]))
                           for kind in np.flatnonzero(every).tolist())
        self.need_fixed = int(fixed.sum())
        self.need_wild = int(wild.sum())
        self.need_all = int(every.sum())
        self.all_flower = int(every[FLOWER])

    def fills(self, supply: Sequence[int], jokers: int) -> bool:
        """Whether `supply` (naturals left per kind, none below zero) and `jokers` fill the
        row: natural-only places from naturals, the rest from naturals, spare flowers and
        jokers."""
        fill_fixed = fill_flex = fill_all = 0
        for kind, fixed, fixed_flex, every in self.kinds:
            have = min(supply[kind], 64)
            fill_fixed += min(have, fixed)
            fill_flex += min(have, fixed_flex)
            fill_all += min(have, every)
        if fill_fixed != self.need_fixed:
            return False
        need = self.need_all - fill_all
        wild_deficit = self.need_wild - fill_all + fill_flex
        spare_flowers = max(supply[FLOWER] - self.all_flower, 0)
        need -= min(spare_flowers, wild_deficit)
        return need <= jokers


class Sums:
    """Kind-major running totals of some rows (see `Rows`).

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
        return self._split(np.minimum(held, self.stacked).sum(axis=0, dtype=np.int32))

    def placed_tiles(self, naturals: IntArray) -> tuple[npt.NDArray[np.int32], ...]:
        """`placed` for a hand's naturals (a row of counts, none below zero): a kind the hand
        does not hold places nothing (no total is below zero), so only the few kinds it holds
        are counted."""
        kinds = np.flatnonzero(naturals)
        held = naturals[kinds].astype(np.int8)[:, None]
        return self._split(np.minimum(held, self.stacked[kinds]).sum(axis=0, dtype=np.int32))

    def _split(self, total: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int32], ...]:
        size = self.size
        return tuple(total[part * size:(part + 1) * size] for part in range(3 if self.has_wild
                                                                           else 2))


def hand_counts(kinds: Sequence[int]) -> tuple[IntArray, int]:
    """Natural counts per card kind, and the number of jokers (blanks are ignored)."""
    row = np.bincount(np.asarray(kinds, dtype=np.intp), minlength=NUM_KINDS)
    return row[:CARD_KINDS].astype(np.int16), int(row[JOKER])


def kind_counts(kinds: Sequence[int]) -> list[int]:
    """How many of each kind (jokers and blanks included), as a plain list."""
    found = [0] * NUM_KINDS
    for kind in kinds:
        found[kind] += 1
    return found


def exposed_naturals(exposures: Sequence[Exposure]) -> list[int]:
    """The natural tiles a seat's own exposures hold, as a count per kind: tiles of the set
    its concealed part can never get."""
    seen = [0] * NUM_KINDS
    for item in exposures:
        seen[item.kind] += item.size - item.jokers
    return seen


def count_rows(hands: Sequence[PlayerHand]) -> tuple[IntArray, npt.NDArray[np.int32]]:
    """`hand_counts` for many 14-tile hands at once: one row of naturals per hand, and jokers."""
    tiles = np.array([hand.concealed for hand in hands], dtype=np.intp)
    offsets = np.arange(len(hands), dtype=np.intp)[:, None] * NUM_KINDS
    rows = np.bincount((tiles + offsets).ravel(), minlength=len(hands) * NUM_KINDS)
    rows = rows.reshape(len(hands), NUM_KINDS)
    return rows[:, :CARD_KINDS].astype(np.int16), rows[:, JOKER].astype(np.int32)


def missing_tiles(rows: Rows, naturals: IntArray, jokers: int | npt.NDArray[np.int32],
            has_wild: bool) -> npt.NDArray[np.int32]:
    """Tiles each open variation still lacks, given the seat's naturals and jokers.

    `naturals` is one count row for all rows, or one per row (then `jokers` is per row too;
    `has_wild` says whether any row of the card has flower-wild places).
    Naturals fill natural-only places first, then joker-able ones, then flower-wild ones;
    spare flowers stand in for open flower-wild places, and jokers fill open joker-able
    places. For one row of naturals this is counted with running totals: the naturals
    placed into the first `t` kinds of place are `sum(min(naturals, total_t))`.
    """
    if naturals.ndim > 1:
        return _missing_each(rows, naturals, jokers, has_wild)
    sums = rows.sums
    placed = sums.placed_tiles(naturals)
    placed_fixed, placed_flex = placed[0], placed[1]
    missing_fixed = sums.need_fixed - placed_fixed
    open_flex = sums.need_fixed_flex - placed_flex - missing_fixed
    if sums.has_wild:  # without wild places in these rows the wild terms are all zero
        placed_wild = placed[2]
        open_wild = sums.need_wild - (placed_wild - placed_flex)
        spare_flowers = np.maximum(int(naturals[FLOWER]) - sums.fixed_flex_flower, 0)
        open_flex = open_flex + open_wild - np.minimum(spare_flowers, open_wild)
    lacking: npt.NDArray[np.int32] = missing_fixed + open_flex - np.minimum(jokers, open_flex)
    return lacking


def _missing_each(rows: Rows, naturals: IntArray, jokers: int | npt.NDArray[np.int32],
                  has_wild: bool) -> npt.NDArray[np.int32]:
    """`missing_tiles` with one row of naturals (and jokers) per row."""
    used_fixed = np.minimum(naturals, rows.fixed)
    rest = naturals - used_fixed
    used_flex = np.minimum(rest, rows.flex)
    missing_fixed = (rows.fixed - used_fixed).sum(axis=1, dtype=np.int32)
    open_flex = (rows.flex - used_flex).sum(axis=1, dtype=np.int32)
    if has_wild:
        rest = rest - used_flex
        used_wild = np.minimum(rest, rows.wild)
        open_wild = (rows.wild - used_wild).sum(axis=1, dtype=np.int32)
        flowers = np.minimum(rest[..., FLOWER].astype(np.int32), open_wild)
        open_flex = open_flex + open_wild - flowers
    lacking: npt.NDArray[np.int32] = missing_fixed + open_flex - np.minimum(jokers, open_flex)
    return lacking
