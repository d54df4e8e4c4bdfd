"""`StrongPlayer`: the Strong bot, the Normal bot with a search over sampled deals, a reading
of the opponents, and jokers kept like the scarcest tiles they are.

On top of the Normal bot (`bot.bots.normal`) it:

* plans among more ways to a hand: where Normal lets each card hand's nearest variation
  (its first, among equally near suits or numbers) stand for it, Strong weighs up to
  `WAYS_PER_HAND` variations of one hand among its `NEAREST` plans (`CHARLESTON_NEAREST`
  in the Charleston), so it keeps the tiles of every suit a hand could still take instead
  of committing to one by card order;
* reads the opponents (`bot.bots.reading`): a probability over card hands for each of
  their racks from exposures and discards, and from it the danger of every tile it might
  throw (the chance it completes someone's hand times what feeding costs under the table's
  scoring profile) and the tiles they collect;
* searches over `SAMPLES` sampled deals of the tiles it cannot see, consistent with what it
  has seen (`bot.bots.rollout`: the opponents' racks drawn favouring the tiles they collect,
  the wall in random order): on each deal its plans are scored by whether the draws and
  calls finish them, and a choice is worth the mean over deals of the best plan it keeps;
* throws the tile that costs the least: the worth it gives up (plans that keep every copy
  of the tile count `HURT_KEEPS` of their worth: they get a tile further) times what a win
  collects, plus its danger weighed `CAUTION` times, among the tiles that give up at most
  `SAFETY_MARGIN` of its best worth more than the least costly one;
* folds toward a wall game when its expected win is smaller than the danger of the safest
  tile its best plan can spare: it then throws the safest natural, and calls only for a
  hand worth more than that danger;
* calls a discard when the hand after the exposure is worth more on the same deals than the
  hand without it, and values jokers as the scarcest tile: it calls with its naturals
  rather than its jokers, and an exposed joker that someone can still exchange for (a
  natural of its kind is unseen) costs the call `JOKER_GIFT` points; a joker leaves its
  rack only when nothing else can (or its hand is dead, when a joker is the one safe tile);
* like Normal, declares another hand dead when the visible tiles prove it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bot.bots.base import live_racks, rack_exposures, seen_counts
from bot.bots.normal import Analysis, Candidate, NormalPlayer
from bot.bots.reading import Threat, read_threat
from bot.bots.rollout import Deals, FloatArray, best_worth
from bot.engine.cards.model import Card
from bot.engine.game.actions import Action, Call, Discard, Option, Pass
from bot.engine.game.rules import Scoring
from bot.engine.game.view import View
from bot.engine.matcher import CardMatcher
from bot.engine.tiles import JOKER, NUM_KINDS

#: Plans weighed for each decision, and in the Charleston, and how many of them may be
#: ways (variations) of one card hand.
NEAREST = 10
CHARLESTON_NEAREST = 24
WAYS_PER_HAND = 3
#: Sampled deals of the unseen tiles a decision is searched over: 768 made +1.0 a game over
#: 192 on 3,200 deals (paired) for a decision p95 of about 15 ms (the budget is 50 ms).
SAMPLES = 768
#: How much likelier an opponent holds a tile its likely hands use, per unit of the share
#: of its open places that tile's kind takes (`Threat.collect`).
COLLECT = 12.0
#: The share of its worth a plan keeps when the tile thrown is one it needs.
HURT_KEEPS = 0.35
#: The share of a discard's judgement left to the Normal bot's estimate.
BLEND = 0.25
#: Fold when the expected win is below this share of the danger of the safest spare tile.
FOLD_RATIO = 1.0
#: The most a discard may give up for safety, as a share of the best worth.
SAFETY_MARGIN = 0.3
#: How many times a tile's danger counts against the worth it gives up.
CAUTION = 2.0
#: Points an exposed joker costs when a natural of its kind is still unseen: someone may
#: exchange for it and play it against the seat.
JOKER_GIFT = 4.0
#: What a win collects in multiples of the hand's value, under the tournament sheet (the
#: value, with the self-pick and jokerless bonuses now and then).
TOURNAMENT_PAYOFF = 1.3


class _Keeper:
    """What giving up tiles leaves of a seat's worth. A plan that needs every copy of a
    tile given up keeps `hurt_keeps` of its worth (it gets a tile further); the worth left
    is the best plan on each sampled deal, with the Normal bot's estimate (the share of plan
    weight not hurt, of the best plan's weight `prior`) blended in as `blend`: far from
    every hand the deals rarely finish a plan, and the estimate still tells tiles apart."""

    def __init__(self, analysis: Analysis, worth: FloatArray, prior: float,
                 hurt_keeps: float, blend: float) -> None:
        self.keep = np.array([p.keep for p in analysis.plans], dtype=np.int64).reshape(
            len(analysis.plans), NUM_KINDS)
        self.weight = np.array([p.weight for p in analysis.plans])
        self.worth = worth
        self.prior = prior
        self.hurt_keeps = hurt_keeps
        self.blend = blend

    def without(self, kind: int, held: int) -> FloatArray:
        """Each plan's share of its worth once one of `held` tiles of `kind` goes."""
        return np.where(self.keep[:, kind] >= held, self.hurt_keeps, 1.0)

    def kept(self, share: FloatArray) -> float:
        """The worth left with these shares (see the class docstring)."""
        if not len(share):
            return 0.0
        sampled = best_worth(self.worth * share[None, :])
        total = float(self.weight.sum()) or 1.0
        unhurt = float(self.weight[share >= 1.0].sum()) / total
        return (1.0 - self.blend) * sampled + self.blend * self.prior * unhurt


class StrongPlayer(NormalPlayer):
    """The Strong bot (see the module docstring)."""

    nearest = NEAREST
    charleston_nearest = CHARLESTON_NEAREST
    ways_per_hand = WAYS_PER_HAND
    samples = SAMPLES
    collect = COLLECT
    hurt_keeps = HURT_KEEPS
    blend = BLEND
    fold_ratio = FOLD_RATIO
    caution = CAUTION
    safety_margin = SAFETY_MARGIN
    joker_gift = JOKER_GIFT

    def __init__(self, card: Card, counts: Sequence[int], seed: int = 0,
                 matcher: CardMatcher | None = None) -> None:
        super().__init__(card, counts, seed, matcher)
        self.sampler = np.random.default_rng(seed)
        self._deals_at: tuple[tuple[int, int, tuple[int, ...]], Deals] | None = None
        self._threat: tuple[tuple[int, int], Threat] | None = None

    # -- the table -------------------------------------------------------------------------

    def _payoff(self, view: View) -> float:
        """What a win collects, in multiples of the hand's value: under NMJL payments off a
        discard the thrower pays twice and the others once, self-picked everyone twice
        (about one more than the number of players)."""
        if view.scoring is Scoring.TOURNAMENT:
            return TOURNAMENT_PAYOFF
        return float(len(view.seats) + 1)

    def _read(self, view: View) -> Threat:
        """The opponents' threat as the table stands (cached for one moment of the game)."""
        key = (view.action_count, view.seat)
        if self._threat is None or self._threat[0] != key:
            self._threat = (key, read_threat(self.matcher, view, self._table(view).live,
                                             view.scoring))
        return self._threat[1]

    def _deals(self, view: View) -> Deals:
        """The sampled deals of what the seat cannot see now (cached for one moment)."""
        key = (view.action_count, view.seat, view.concealed)
        if self._deals_at is None or self._deals_at[0] != key:
            table = self._table(view)
            held = sum(s.concealed_count for s in view.seats if s.seat != view.seat)
            collect = 1.0 + self.collect * np.array(self._read(view).collect)
            deals = Deals(self.sampler, table.live, table.draws, held, collect.tolist(),
                          self.samples)
            self._deals_at = (key, deals)
        return self._deals_at[1]

    def _shows_jokers(self, view: View) -> bool:
        """Whether one of the seat's live racks shows a joker (then no hand is jokerless)."""
        racks = set(live_racks(view))
        return any(e.jokers for e in view.seats[view.seat].exposures if e.rack in racks)

    def _worth(self, view: View, candidates: Sequence[Candidate],
               shows_jokers: bool | None = None) -> FloatArray:
        """Each plan's worth on each sampled deal, in points a win would collect."""
        jokers = self._shows_jokers(view) if shows_jokers is None else shows_jokers
        return self._payoff(view) * self._deals(view).worth(candidates, jokers)

    def _plan_worth(self, view: View, analysis: Analysis) -> FloatArray:
        return self._worth(view, [p.candidate for p in analysis.plans])

    def _keeper(self, view: View, analysis: Analysis) -> _Keeper:
        """What giving up tiles leaves of the seat's worth, for this moment's plans."""
        prior = self._payoff(view) * (analysis.plans[0].weight if analysis.plans else 0.0)
        return _Keeper(analysis, self._plan_worth(view, analysis), prior, self.hurt_keeps,
                       self.blend)

    # -- folding ---------------------------------------------------------------------------

    def _risk(self, view: View, analysis: Analysis) -> float:
        """The danger of the safest tile its best plan can spare (every tile, with no
        plan); nothing when every natural is needed."""
        best = analysis.plans[0] if analysis.plans else None
        held = analysis.held
        spare = [k for k in set(view.concealed) if k != JOKER
                 and (best is None or best.keep[k] < held[k])]
        danger = self._read(view).danger
        return min((danger[k] for k in spare), default=0.0)

    def _folded(self, view: View, analysis: Analysis) -> bool:
        """Whether its expected win is worth less than the danger of playing on."""
        risk = self._risk(view, analysis)
        return risk > 0 and best_worth(self._plan_worth(view, analysis)) < self.fold_ratio * risk

    # -- discards --------------------------------------------------------------------------

    def _discard(self, view: View, analysis: Analysis, discards: Sequence[int]) -> Action:
        """The tile that costs least: worth given up plus danger; when folded, the safest
        natural. A joker only when there is nothing else."""
        naturals = sorted({k for k in discards if k != JOKER})
        if not naturals:
            return Discard(view.seat, discards[0])
        danger = self._read(view).danger
        seen = seen_counts(view)
        keeper = self._keeper(view, analysis)
        kept = {k: keeper.kept(keeper.without(k, analysis.held[k])) for k in naturals}
        top = max(kept.values())
        if self._folded(view, analysis):
            return Discard(view.seat, min(naturals, key=lambda k: (danger[k], -kept[k],
                                                                    -seen[k])))
        allowed = [k for k in naturals
                   if top - kept[k] <= self.safety_margin * top + 1e-9]
        kind = min(allowed, key=lambda k: (round(top - kept[k] + self.caution * danger[k], 9),
                                           -seen[k], self.rng.random()))
        return Discard(view.seat, kind)

    def _safe_discard(self, view: View, discards: Sequence[int]) -> Action:
        """A dead hand throws a joker (nobody can call one, and the hand has no use for it),
        else the safest tile."""
        if JOKER in discards:
            return Discard(view.seat, JOKER)
        danger = self._read(view).danger
        seen = seen_counts(view)
        return Discard(view.seat, min(discards, key=lambda k: (danger[k], -seen[k], k)))

    # -- claims ----------------------------------------------------------------------------

    def _claim(self, view: View, options: Sequence[Option]) -> Action:
        """Call when the hand after the exposure is worth more on the sampled deals than the
        hand without it, less `joker_gift` for each exposed joker someone can still exchange
        for; among equally good calls, the one with fewest jokers."""
        assert view.claim is not None
        calls = [o.action for o in options
                 if isinstance(o.action, Call) and not o.deadens]
        if not calls or view.claim.kind not in self._candidates(view).call_kinds:
            return Pass(view.seat)
        analysis = self._analysis(view)
        # Folded, it calls only for a hand worth playing on again.
        before = max(best_worth(self._plan_worth(view, analysis)),
                     self.fold_ratio * self._risk(view, analysis))
        table = self._table(view)
        shows = self._shows_jokers(view)
        racks = {r: rack_exposures(view, view.seat, r) for r in live_racks(view)}
        best: tuple[float, int, int] | None = None
        chosen: Call | None = None
        for call in calls:
            after = self._plans_after(view, call, racks, table)
            worth = best_worth(self._worth(view, after, shows or call.jokers > 0))
            if call.jokers and table.live[call.kind] > 0:
                worth -= self.joker_gift * call.jokers
            if worth <= before:
                continue
            key = (-round(worth, 6), call.jokers, -call.size)
            if best is None or key < best:
                best, chosen = key, call
        return chosen if chosen is not None else Pass(view.seat)
