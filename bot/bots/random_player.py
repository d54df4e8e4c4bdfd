"""`RandomPlayer` and `ChaosPlayer`: uniformly random legal choices, for benchmarks and stress.

Both pick one of their options with equal chance; where the option is a tile choice (a
Charleston or courtesy pass) they pick the tiles at random too, blind passes included, always
within what the choice allows (its count, its passable kinds, so never a joker, and at most
`blind_max` blind).

`RandomPlayer` never declares a hand dead and never makes a call the engine flags as killing
its own hand, so a table of them plays full games (to a Mah Jongg or the wall): that is what
the engine benchmark measures. `ChaosPlayer` takes every option, those included, so every
game it plays is a walk through rarely seen corners of the engine: wrong dead-hand
declarations, self-killing calls, odd calls, jokers thrown away.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.game.actions import Action, DeclareDead, Give, Option, TileChoice
from bot.engine.game.view import View


def random_give(rng: random.Random, seat: int, choice: TileChoice) -> Give:
    """A random pass the choice allows: up to `blind_max` blind, the rest from `kinds`."""
    most_blind = min(choice.blind_max, choice.count)
    least_blind = max(0, choice.count - len(choice.kinds))
    blind = rng.randint(least_blind, most_blind) if most_blind >= least_blind else most_blind
    own = rng.sample(choice.kinds, choice.count - blind)
    return Give(seat, tuple(sorted(own)), blind)


class RandomPlayer:
    """Chooses uniformly among the legal options that kill no hand (seeded, so games are
    reproducible); see the module docstring."""

    #: Whether dead-hand declarations and self-killing calls are among the choices.
    kills_hands = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, options: Sequence[Option]) -> Action:
        """A random option; a random concrete pass when the option is a tile choice."""
        if not options:
            raise ValueError("A player is asked to choose only when it has options.")
        if not self.kills_hands:  # no declaration, no call that kills its own hand
            options = [o for o in options if not o.deadens
                       and not isinstance(o.action, DeclareDead)] or options
        option = options[self.rng.randrange(len(options))]
        if option.choice is not None and isinstance(option.action, Give):
            return random_give(self.rng, view.seat, option.choice)
        return option.action


class ChaosPlayer(RandomPlayer):
    """Chooses uniformly among all the legal options, dead-hand declarations and
    self-killing calls included: the adversarial player for stress tests."""

    kills_hands = True
