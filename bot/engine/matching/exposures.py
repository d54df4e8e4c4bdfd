"""Exposures against a card: the rows a set of exposures leaves open, and what the rest of the
set can still fill.

Exposures are matched to whole groups (an exposed kong only ever fills a kong group) and
their tiles removed from the rows; the answer depends only on each exposure's kind, size and
whether it holds jokers, so it is kept per exposure set.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bot.engine.cards.compile import Variation
from bot.engine.hands import Exposure
from bot.engine.matching.rows import (
    CARD_KINDS,
    BoolArray,
    IntArray,
    Rows,
    Witness,
    exposed_naturals,
)
from bot.engine.tiles import FLOWER, JOKER

#: Exposure sets whose open rows are kept (per matcher): seats keep their exposures for many
#: turns, and the same few sets are asked about again and again. The same holds for the rows
#: the set can still fill (`ExposureRows.real`).
#: Games make ever new sets (a benchmark of 150 random games meets about 2,500), each
#: kept in a few kilobytes, so thousands are kept.
_OPEN_ROWS_CACHE = 4096
#: Below any number of spare jokers: marks the rows that cannot be filled.
_NEVER = np.iinfo(np.int32).min


class ExposureRows:
    """A card's rows as exposures leave them, for one tile set (`counts`); immutable but for
    its caches."""

    def __init__(self, variations: Sequence[Variation], concealed: npt.NDArray[np.bool_],
                 all_rows: Rows, counts: Sequence[int]) -> None:
        size = len(variations)
        # (kind, size) -> group counts per variation: no jokers, joker-able, flowers-wild.
        slots: dict[tuple[int, int], npt.NDArray[np.int8]] = {}
        for row, variation in enumerate(variations):
            for group in variation.groups:
                if group.identical and group.size >= 3:
                    column = 2 if group.flowers_wild else 1 if group.jokers_ok else 0
                    key = (group.kind, group.size)
                    if key not in slots:
                        slots[key] = np.zeros((size, 3), dtype=np.int8)
                    slots[key][row, column] += 1
        self._slots = slots
        # The open (not concealed) variations with some group of each kind and size: the
        # only ones an exposure of it can fit.
        self._with_slot = {key: np.flatnonzero(table.any(axis=1) & ~concealed)
                           for key, table in slots.items()}
        self._size = size
        self._concealed = concealed
        self._all_rows = all_rows
        self.counts = tuple(counts)
        # Evicted oldest first with `popitem`, one step that is safe while another thread
        # (a look-up answered in a worker) uses the same matcher.
        self._open_cache: OrderedDict[tuple[tuple[int, int, bool], ...], Rows] = OrderedDict()
        self._real_cache: OrderedDict[tuple[tuple[int, int, int], ...], Rows] = OrderedDict()

    def open(self, exposures: Sequence[Exposure],
             index: npt.NDArray[np.intp] | None = None) -> Rows:
        """Rows left after matching exposures to whole groups; variations where they do not
        fit (or that are concealed hands) are dropped.

        With `index` only those variations are considered. The answer for every variation
        depends only on each exposure's kind, size and whether it holds jokers, so it is
        cached by that (the arrays are read-only)."""
        if not exposures:
            return self._all_rows if index is None else self._all_rows.take(index)
        rows = self._open(tuple(sorted((e.kind, e.size, e.jokers > 0) for e in exposures)))
        if index is None:
            return rows
        wanted = np.zeros(self._size, dtype=bool)
        wanted[index] = True
        return rows.take(wanted[rows.index])

    def real(self, exposures: Sequence[Exposure]) -> Rows:
        """The open rows (see `open`) that some tiles of the set can still make, with
        the exposures' naturals taken: each variation that needs more natural copies of a tile
        than the set holds, or more jokers than it has, is dropped on its own, whatever the
        hand's other variations need (a standard set: "three suits of 1 through 9 (four copies
        each), four of each wind, four of each dragon, eight flowers and eight jokers"; the
        matcher's `counts`). Hints (`nearest`, `waits`) count only these, with the same supply
        count that judges dead hands (`reachable`). Cached by exposure set."""
        key = tuple(sorted((e.kind, e.size, e.jokers) for e in exposures))
        rows = self._real_cache.get(key)
        if rows is None:
            rows = self.open(exposures)
            real = self.reachable(rows, exposed_naturals(exposures))
            if not real.all():
                rows = rows.take(real)
                rows.freeze()
            if len(self._real_cache) >= _OPEN_ROWS_CACHE:
                self._real_cache.popitem(last=False)
            self._real_cache[key] = rows
        return rows

    def _open(self, key: tuple[tuple[int, int, bool], ...]) -> Rows:
        """`open` for (kind, size, has jokers) exposures, sorted: kept, or computed. When no
        two are of one kind and size, each fills its own groups whatever the others fill, so
        the last one is matched against the rows the others leave (kept themselves: a seat
        asks about its exposures and each call it could make next)."""
        rows = self._open_cache.get(key)
        if rows is None:
            if len(key) > 1 and len({(kind, size) for kind, size, _ in key}) == len(key):
                rows = self._with(self._open(key[:-1]), *key[-1])
            else:
                rows = self._match(key)
            rows.freeze()
            if len(self._open_cache) >= _OPEN_ROWS_CACHE:
                self._open_cache.popitem(last=False)
            self._open_cache[key] = rows
        return rows

    def _with(self, rows: Rows, kind: int, size: int, jokers: bool) -> Rows:
        """The rows left when one more exposure, of a kind and size no exposure already in
        `rows` has, fills a group of them (as `_match` fills it: a natural one takes a
        no-joker group first); only its kind's counts change, so only they are checked."""
        table = self._slots.get((kind, size))
        if table is None:
            return rows.take(rows.index[:0])
        groups = table[rows.index]
        with_jokers, without = (1, 0) if jokers else (0, 1)
        jokerable = groups[:, 1].astype(np.int16) + groups[:, 2]
        keep = (with_jokers <= jokerable) & (with_jokers + without <= jokerable + groups[:, 0])
        kept = rows.take(keep)
        groups = groups[keep].astype(np.int16)
        to_plain = np.minimum(without, groups[:, 0])
        need_jokerable = with_jokers + without - to_plain
        to_flex = np.minimum(need_jokerable, groups[:, 1])
        kept.fixed[:, kind] -= size * to_plain
        kept.flex[:, kind] -= size * to_flex
        kept.wild[:, kind] -= size * (need_jokerable - to_flex)
        ok = (kept.fixed[:, kind] >= 0) & (kept.flex[:, kind] >= 0) & (kept.wild[:, kind] >= 0)
        return kept.take(ok)

    def _match(self, exposures: Sequence[tuple[int, int, bool]]) -> Rows:
        """`open` for (kind, size, has jokers) exposures, computed: first the variations
        with enough groups of the right kind and size (few), then their rows less the tiles
        the exposures fill."""
        by_slot = Counter(exposures)
        slots = sorted({(k, s) for k, s, _ in by_slot})
        if any(slot not in self._slots for slot in slots):
            return self._all_rows.take(self._all_rows.index[:0])
        index = min((self._with_slot[slot] for slot in slots), key=len)
        for kind, size in slots:
            groups = self._slots[(kind, size)][index]
            with_jokers = by_slot[(kind, size, True)]
            without = by_slot[(kind, size, False)]
            jokerable = groups[:, 1].astype(np.int16) + groups[:, 2]
            keep = (with_jokers <= jokerable) & (with_jokers + without <= jokerable + groups[:, 0])
            index = index[keep]
        all_rows = self._all_rows
        fixed: IntArray = all_rows.fixed[index]
        flex: IntArray = all_rows.flex[index]
        wild: IntArray = all_rows.wild[index]
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
        return Rows(index[ok], fixed[ok], flex[ok], wild[ok])

    def any_reachable(self, rows: Rows, visible: Sequence[int]) -> bool:
        """Whether the rest of the set can still fill one of these rows (see `reachable`).

        A game asks this again and again about the same exposures as the discards grow, and
        a row that could be filled last time mostly still can: so the row found last time
        (`Rows.witness`) is tried first on its own, and only when it fails are all rows
        counted (which finds the next witness: the row with the most jokers to spare)."""
        if not len(rows.index):
            return False
        supply = [self.counts[k] - visible[k] for k in range(CARD_KINDS)]
        jokers = self.counts[JOKER] - visible[JOKER]
        witness = rows.witness
        if witness is not None and min(supply) >= 0 and witness.fills(supply, jokers):
            return True
        ok, need = self._fillable(rows, supply, jokers)
        if not ok.any():
            return False
        best = int(np.argmax(np.where(ok, jokers - need, _NEVER)))
        rows.witness = Witness(rows.fixed[best], rows.flex[best], rows.wild[best])
        return True

    def reachable(self, rows: Rows, visible: Sequence[int]) -> BoolArray:
        """Which of these rows the rest of the set can still fill when `visible` (a count per
        kind) holds tiles out of reach: their natural-only places from the naturals left, the
        rest from naturals, spare flowers (where wild) and the jokers left."""
        supply = [self.counts[k] - visible[k] for k in range(CARD_KINDS)]
        return self._fillable(rows, supply, self.counts[JOKER] - visible[JOKER])[0]

    def _fillable(self, rows: Rows, supply: list[int], joker_supply: int) -> tuple[
            BoolArray, npt.NDArray[np.int32]]:
        """`reachable` from the naturals left per kind (`supply`) and the jokers left, with
        each row's places still open for jokers."""
        sums = rows.sums
        # Nothing asks for more than 14 of a kind, so the supply is clipped to fit small ints.
        column = np.array([max(-64, min(64, n)) for n in supply], dtype=np.int8)[:, None]
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
        return reachable, need
