"""Sampled deals of the tiles a seat cannot see, and what its plans are worth on them: the
Strong bot's search.

A *deal* is one determinization of what the seat has not seen: which of the unseen tiles
the opponents hold concealed, and in what order the rest (the wall) comes. The opponents'
tiles are drawn with weights (`collect`: a kind an opponent's likely hands use is more
likely held by it, so less likely to come), the wall in uniform order. From a deal the seat
gets its share of the wall (`draws`: the wall shared among the live seats) and, as many
again, tiles it could call (the discards of the others, who draw the rest of the wall).

A plan (`Candidate`) is scored on every deal at two moments, halfway through the draws and
at the end: whether the tiles it lacks come (its naturals among the draws, its joker-able
places among draws, calls unless concealed, and drawn jokers), and whether they come without
a joker (which doubles most hands). A plan finished early is worth `EARLY` times one
finished late (someone else wins in between more often). The worth of a set of plans on a
deal is the best of them, so a choice is judged by `best_worth`, the mean over deals of the
best plan it keeps: the seat picks its plan after seeing the tiles, which the Normal bot's
weights, summed plan by plan, do not know.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bot.bots.normal import Candidate
from bot.engine.tiles import JOKER, NUM_KINDS

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: What a plan finished in the first half of the draws is worth against one finished in
#: the second (1.0): earlier finishes beat the other players more often.
EARLY = 1.6


def per_kind(kinds: npt.NDArray[np.int_]) -> IntArray:
    """Counts per kind for each row of tiles."""
    rows = kinds.shape[0]
    offsets = np.arange(rows, dtype=np.intp)[:, None] * NUM_KINDS
    flat = np.bincount((kinds.astype(np.intp) + offsets).ravel(), minlength=rows * NUM_KINDS)
    return flat.reshape(rows, NUM_KINDS).astype(np.int64)


class Deals:
    """`samples` deals of the unseen tiles (see the module docstring): for each deal, the
    tiles the seat draws and could call by halfway and by the end, counted per kind."""

    def __init__(self, rng: np.random.Generator, live: Sequence[int], draws: float,
                 held: int, collect: Sequence[float], samples: int) -> None:
        pool = np.repeat(np.arange(NUM_KINDS), np.array(live, dtype=np.intp))
        size = len(pool)
        held = max(0, min(held, size))
        weight = np.array(collect, dtype=float)[pool]
        keys = np.log(rng.random((samples, size))) / weight[None, :]
        order = np.argsort(-keys, axis=1)
        wall = rng.permuted(pool[order[:, held:]], axis=1)
        count = max(0, min(round(draws), wall.shape[1] // 2))
        half = count // 2
        self.mine = (per_kind(wall[:, :half]), per_kind(wall[:, :count]))
        self.called = (per_kind(wall[:, count:count + half]),
                       per_kind(wall[:, count:2 * count]))

    def worth(self, candidates: Sequence[Candidate], exposed_jokers: bool) -> FloatArray:
        """Each plan's worth on each deal (deals x plans), in multiples of nothing: its value
        when finished (twice when jokerless and the hand doubles), times `EARLY` when
        finished by halfway. `exposed_jokers`: the seat shows a joker, so no plan is
        jokerless."""
        if not candidates:
            return np.zeros((self.mine[0].shape[0], 0))
        size = len(candidates)
        natural = np.zeros((size, NUM_KINDS), dtype=np.int64)
        open_places = np.zeros_like(natural)
        for row, candidate in enumerate(candidates):
            for kind, count in candidate.need_natural:
                natural[row, kind] = count
            for kind, count in candidate.need_any:
                open_places[row, kind] = count
        calls = np.array([not c.concealed for c in candidates])
        free = np.array([not c.jokers and c.doubles and not exposed_jokers
                         for c in candidates])
        value = np.array([float(c.value) for c in candidates])
        total = np.zeros((self.mine[0].shape[0], size))
        for moment, weight in ((0, EARLY - 1.0), (1, 1.0)):
            mine = self.mine[moment][:, None, :]
            ok = (mine >= natural[None]).all(axis=2)
            have = (np.maximum(mine - natural[None], 0)
                    + self.called[moment][:, None, :] * calls[None, :, None])
            short = np.maximum(open_places[None] - have, 0).sum(axis=2)
            complete = ok & (short <= self.mine[moment][:, None, JOKER])
            jokerless = ok & (short == 0) & free[None, :]
            total += weight * (complete + jokerless) * value[None, :]
        return total


def best_worth(worth: FloatArray, kept: npt.NDArray[np.bool_] | None = None) -> float:
    """The mean over deals of the best worth among the plans (those `kept`, if given)."""
    if worth.shape[1] == 0:
        return 0.0
    if kept is not None:
        if not kept.any():
            return 0.0
        worth = worth[:, kept]
    return float(worth.max(axis=1).mean())
