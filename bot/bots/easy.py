"""`EasyPlayer`: the Easy bot, a beginner who plays toward its nearest hand.

It is the Normal bot (`bot.bots.normal`) with a beginner's habits:

* it looks at its two nearest hands only (two pairs of hands with two live racks) and
  weighs them by distance alone (each missing tile cuts a plan's weight by `decay`, value
  breaks near-ties), without reading the table: it does not notice that the tiles a hand
  needs are used up, nor how many copies are still live;
* its calls are the sensible ones: a call that brings its hand closer, to `call_away` or
  fewer tiles away;
* now and then (`mistake_rate` of its discards, seeded) it keeps the wrong tile: it throws a
  tile its hand uses and keeps one it doesn't;
* it never defends: among equally useless tiles it throws any, never minding which are safe,
  and it never declares another hand dead.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.bots.normal import Analysis, Candidate, NormalPlayer
from bot.bots.odds import Supply
from bot.engine.game.actions import Action, Discard
from bot.engine.game.view import View
from bot.engine.tiles import JOKER

#: Nearest card hands an Easy bot looks at (pairs of hands, with two live racks).
EASY_NEAREST = 2
#: How much a plan's weight falls with each tile it still lacks.
DECAY = 0.3
#: Value that doubles a plan's weight (value only breaks near-ties between distances).
VALUE_SCALE = 500.0
#: The share of its discards where it keeps the wrong tile.
MISTAKE_RATE = 0.2


class EasyPlayer(NormalPlayer):
    """The Easy bot (see the module docstring)."""

    nearest = EASY_NEAREST
    charleston_nearest = EASY_NEAREST
    siamese_pairs = EASY_NEAREST
    declares_dead = False
    decay = DECAY
    value_scale = VALUE_SCALE
    mistake_rate = MISTAKE_RATE

    def _weight(self, candidate: Candidate, table: Supply) -> float:
        """Distance first, value a little: a beginner's sense of which hand is nearest."""
        return float(self.decay ** candidate.away * (1.0 + candidate.value / self.value_scale))

    def _viable(self, candidate: Candidate, live: Sequence[int]) -> bool:
        """A beginner doesn't check the table: every nearest hand looks possible."""
        return True

    def _discard(self, view: View, analysis: Analysis, discards: Sequence[int]) -> Action:
        """The least useful tile, ties at random; sometimes (seeded) a useful one instead."""
        naturals = [k for k in discards if k != JOKER]
        if not naturals:
            return Discard(view.seat, discards[0])
        draw = self.rng.random()
        useful = [k for k in naturals if analysis.cost(k) > 0]
        if useful and draw < self.mistake_rate:
            return Discard(view.seat, useful[self.rng.randrange(len(useful))])
        kind = min(naturals, key=lambda k: (analysis.cost(k), self.rng.random()))
        return Discard(view.seat, kind)
