"""`StrongPlayer`: the Strong bot, the Normal bot with a sense of danger and sampled odds.

On top of the Normal bot (`bot.bots.normal`) it:

* plans among more ways to a hand: where Normal lets each card hand's nearest variation
  (its first, among equally near suits or numbers) stand for it, Strong weighs up to
  `WAYS_PER_HAND` variations of one hand among its `NEAREST` plans (`CHARLESTON_NEAREST`
  in the Charleston), so it keeps the tiles of every suit a hand could still take instead
  of committing to one by card order;
* estimates its own chance, the chance of its best plan, by sampling the tiles it cannot
  see (seeded): `SAMPLES` times it deals itself the draws it has left from those tiles, and
  as many more as discards it could call (not for a concealed hand), and counts how often
  the plan gets finished, and finished without a joker; the Normal bot's estimate is
  blended in (as `PRIOR_SAMPLES` samples' worth). In the Siamese-style game a plan is both
  racks' hands, so the same draws must finish both: the racks are planned together. (Plans
  are still ranked by Normal's estimate: in the arena, ranking them by the sampled chance
  lost about 4 points a game, the noise of 64 deals outweighing what they add);
* reads the opponents (`bot.bots.reading`): a probability over card hands for each of
  their racks from exposures and discards, and from it the danger of every tile it might
  throw (the chance it completes someone's hand times what it would pay);
* throws the tile that costs the least: what it takes from its own best chance (in points:
  the expected value of its best plan, times what a win collects, less the same for the best
  plan the tile doesn't hurt) plus its danger, weighed `CAUTION` times, among the tiles that
  cost its plans at most `SAFETY_MARGIN` more than the least costly one;
* folds toward a wall game when its own expected win is smaller than the danger (as read,
  not weighed up) of the safest tile its best plan can spare: it throws the safest tile (a
  joker when every natural is dangerous) and stops making exposures;
* with a dead hand, throws the safest tile too; and, like Normal, declares another hand dead
  when the visible tiles prove it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bot.bots.base import seen_counts
from bot.bots.normal import Analysis, Candidate, NormalPlayer
from bot.bots.odds import Supply
from bot.bots.reading import FloatArray, Threat, read_threat
from bot.engine.cards.model import Card
from bot.engine.game.actions import Action, Discard
from bot.engine.game.view import View
from bot.engine.matcher import CardMatcher
from bot.engine.tiles import JOKER, NUM_KINDS

#: Plans weighed for each decision, and in the Charleston, and how many of them may be
#: ways (variations) of one card hand. Against a Normal field, on 2,000 deals never used in
#: screening (`--seed 11`), Strong with these made +2.89 points a game [+0.99, +4.74],
#: self-picking 11.5 % of its games against Normal's 10.5 % (Strong before them: -0.10
#: [-1.30, +1.12] on the fresh deals of `--seed 2`).
NEAREST = 10
CHARLESTON_NEAREST = 24
WAYS_PER_HAND = 3
#: Deals of the unseen tiles sampled for the odds of a plan.
SAMPLES = 64
#: How many samples' worth the analytic estimate counts for in the blend.
PRIOR_SAMPLES = 8.0
#: Fold when the expected win is below this share of the danger of the safest spare tile.
#: The danger is the reader's own estimate here, not weighed up by `CAUTION`: judged on the
#: danger weighed three times, Strong folded hands worth playing: against a Normal field,
#: folding on the danger as read gained 0.64 points a game [+0.28, +1.01] over the 2,000
#: seeds of the arena run in docs/performance.md (`jongg arena-compare` of the two runs' logs).
FOLD_RATIO = 1.0
#: When folded, a joker goes rather than a natural at least this dangerous (points).
JOKER_FOLD_DANGER = 1.0 / 3.0
#: The most a discard may give up for safety: a tile hurting a larger share of the plans'
#: weight than the least costly tile does by more than this is not thrown (unless folded).
#: Danger weighed against lost chance alone made Strong break good hands for safety (it
#: self-picked less than Normal); against a Normal field this margin gained 0.58 points a
#: game [+0.12, +1.06] over 2,000 seeds (`jongg arena-compare`).
SAFETY_MARGIN = 0.3
#: How many times a tile's danger counts against the chance it takes away. The lost chance
#: is counted as if a thrown tile cost its plans all their value, where it costs them only
#: part (they get a tile further), so danger is weighed up to match (tuned in the arena
#: against Normal).
CAUTION = 3.0


class _Sample:
    """`SAMPLES` deals of the tiles a seat cannot see: per deal, the tiles it draws and the
    discards it could call, counted per kind."""

    def __init__(self, rng: np.random.Generator, table: Supply, samples: int) -> None:
        pool = np.repeat(np.arange(NUM_KINDS), np.array(table.live, dtype=np.intp))
        draws = max(0, min(round(table.draws), len(pool) // 2))
        dealt = rng.permuted(np.tile(pool, (samples, 1)), axis=1)
        self.mine = _per_kind(dealt[:, :draws])
        self.called = _per_kind(dealt[:, draws:2 * draws])

    def odds(self, candidates: Sequence[Candidate]) -> tuple[FloatArray, FloatArray]:
        """For each plan, the shares of the deals that finish it, and that finish it without
        a joker: all plans at once (deals x plans x kinds)."""
        size = len(candidates)
        natural = np.zeros((size, NUM_KINDS), dtype=np.int64)
        open_places = np.zeros_like(natural)
        for row, candidate in enumerate(candidates):
            for kind, count in candidate.need_natural:
                natural[row, kind] = count
            for kind, count in candidate.need_any:
                open_places[row, kind] = count
        calls = np.array([not c.concealed for c in candidates])
        free = np.array([not c.jokers for c in candidates])
        mine = self.mine[:, None, :]
        ok = (mine >= natural[None]).all(axis=2)
        have = np.maximum(mine - natural[None], 0) + self.called[:, None, :] * calls[None, :,
                                                                                       None]
        short = np.maximum(open_places[None] - have, 0).sum(axis=2)
        complete = ok & (short <= self.mine[:, None, JOKER])
        jokerless = ok & (short == 0) & free[None, :]
        return complete.mean(axis=0), jokerless.mean(axis=0)


def _per_kind(kinds: npt.NDArray[np.int_]) -> npt.NDArray[np.int64]:
    """Counts per kind for each row of tiles."""
    rows = kinds.shape[0]
    offsets = np.arange(rows, dtype=np.intp)[:, None] * NUM_KINDS
    flat = np.bincount((kinds.astype(np.intp) + offsets).ravel(), minlength=rows * NUM_KINDS)
    return flat.reshape(rows, NUM_KINDS).astype(np.int64)


class StrongPlayer(NormalPlayer):
    """The Strong bot (see the module docstring)."""

    nearest = NEAREST
    charleston_nearest = CHARLESTON_NEAREST
    ways_per_hand = WAYS_PER_HAND
    samples = SAMPLES
    prior_samples = PRIOR_SAMPLES
    fold_ratio = FOLD_RATIO
    joker_fold_danger = JOKER_FOLD_DANGER
    caution = CAUTION
    safety_margin = SAFETY_MARGIN

    def __init__(self, card: Card, counts: Sequence[int], seed: int = 0,
                 matcher: CardMatcher | None = None) -> None:
        super().__init__(card, counts, seed, matcher)
        self.sampler = np.random.default_rng(seed)
        self._sample: tuple[Supply, _Sample] | None = None
        self._threat: tuple[tuple[int, int], Threat] | None = None

    # -- own odds --------------------------------------------------------------------------

    def _sampled_worth(self, view: View, analysis: Analysis) -> float:
        """Its own expected win from its best plan: the plan's value times its chance
        sampled from the unseen tiles (the analytic estimate blended in as `prior_samples`
        samples' worth)."""
        if not analysis.plans:
            return 0.0
        best = analysis.plans[0]
        table = self._table(view)
        candidate = best.candidate
        if self._sample is None or self._sample[0] != table:
            self._sample = (table, _Sample(self.sampler, table, self.samples))
        complete, jokerless = self._sample[1].odds([candidate])
        sampled = candidate.value * (float(complete[0])
                                     + (float(jokerless[0]) if candidate.doubles else 0.0))
        return (self.prior_samples * best.weight + self.samples * sampled) / (
            self.prior_samples + self.samples)

    def _payoff(self, view: View) -> float:
        """What a win collects, in multiples of the hand's value (off a discard the thrower
        pays twice and the others once; self-picked everyone twice: about one more than
        the number of players)."""
        return float(len(view.seats) + 1)

    # -- danger ----------------------------------------------------------------------------

    def _read(self, view: View) -> Threat:
        """The opponents' threat as the table stands (cached for one moment of the game)."""
        key = (view.action_count, view.seat)
        if self._threat is None or self._threat[0] != key:
            self._threat = (key, read_threat(self.matcher, view, self._table(view).live))
        return self._threat[1]

    def _folded(self, view: View, analysis: Analysis) -> bool:
        """Whether its own expected win is worth less than the danger of playing on: of the
        safest tile its best plan can spare (every tile, with no plan)."""
        best = analysis.plans[0] if analysis.plans else None
        held = analysis.held
        spare = [k for k in set(view.concealed) if k != JOKER
                 and (best is None or best.keep[k] < held[k])]
        if not spare:
            return False
        danger = self._read(view).danger
        risk = min(danger[k] for k in spare)
        if risk <= 0:
            return False
        return self._payoff(view) * self._sampled_worth(view, analysis) < self.fold_ratio * risk

    # -- decisions -------------------------------------------------------------------------

    def _willing_to_call(self, view: View) -> bool:
        """No exposure once it has folded."""
        return not self._folded(view, self._analysis(view))

    def _discard(self, view: View, analysis: Analysis, discards: Sequence[int]) -> Action:
        """The tile that costs least: lost chance plus danger; when folded, the safest."""
        naturals = [k for k in discards if k != JOKER]
        if not naturals:
            return Discard(view.seat, discards[0])
        danger = self._read(view).danger
        seen = seen_counts(view)
        if self._folded(view, analysis):
            safest = min(naturals, key=lambda k: (danger[k], analysis.cost(k), -seen[k]))
            if JOKER in discards and danger[safest] >= self.joker_fold_danger:
                return Discard(view.seat, JOKER)
            return Discard(view.seat, safest)
        scale = analysis.total_weight or 1.0
        # Safety may cost at most `safety_margin` of the plans' weight more than the least
        # costly tile would.
        cost = {k: analysis.cost(k) for k in naturals}
        least = min(cost.values()) / scale
        allowed = [k for k in naturals
                   if cost[k] / scale <= least + self.safety_margin + 1e-12]
        best = analysis.plans[0].weight if analysis.plans else 0.0
        # Points a tile takes from its chances: the share of plan weight it hurts, of what
        # its best plan is worth when won.
        worth = self._payoff(view) * best / scale
        kind = min(allowed, key=lambda k: (round(worth * cost[k]
                                                 + self.caution * danger[k], 9),
                                           -seen[k], self.rng.random()))
        return Discard(view.seat, kind)

    def _safe_discard(self, view: View, discards: Sequence[int]) -> Action:
        """A dead hand throws a joker (nobody can call one), else the safest tile."""
        if JOKER in discards:
            return Discard(view.seat, JOKER)
        danger = self._read(view).danger
        seen = seen_counts(view)
        return Discard(view.seat, min(discards, key=lambda k: (danger[k], -seen[k], k)))
