"""Where a game's time goes, step by step: the profile `jongg bench engine` prints beside its
games per second, so that speed work starts from the step that costs the most.

Seeded random-legal games are played through the public API as `simulate` plays them; each
step is timed in three parts (the thread's CPU time, so other load does not count): finding
who must act (`seats_to_act`), building that seat's `View` with its legal options, and
`apply`. Steps are grouped by what they were: the phase the game was in and the action taken
(a claim window's answers, a discard, a Charleston pass...). The random player's own choice
is not counted: it is the bench's, not the engine's. Each part includes one reading of the
clock (about 0.3 us on Linux), a few per cent of a step.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass

from bot.bots import make_player
from bot.bots.simulate import game_seeds, player_names
from bot.engine.cards.model import Card
from bot.engine.game import Phase, apply, new_game, seats_to_act, view
from bot.engine.game.rules import RuleSet


@dataclass(frozen=True)
class StepCost:
    """One kind of step: how many a game takes, and what each costs on average (µs of CPU)."""

    name: str
    per_game: float
    seats_us: float
    view_us: float
    apply_us: float

    @property
    def total_us(self) -> float:
        """The whole step, as the engine spends it."""
        return self.seats_us + self.view_us + self.apply_us

    def text(self, game_us: float) -> str:
        """One line of the profile: count, the parts, and the share of a game's time."""
        share = 100.0 * self.per_game * self.total_us / game_us if game_us else 0.0
        return (f"{self.per_game:.1f} a game, {self.total_us:.1f} us each (view and options "
                f"{self.view_us:.1f}, apply {self.apply_us:.1f}, who acts {self.seats_us:.1f}),"
                f" {share:.0f} % of a game")


def profile_steps(rules: RuleSet, card: Card, games: int, seed: int) -> tuple[StepCost, ...]:
    """The steps of `games` random-legal games (the bench's seeds), dearest kind first."""
    clock = time.thread_time_ns
    spent: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    names = player_names(("random",) * rules.players)
    for game_seed in game_seeds(seed, games):
        players = [make_player("random", card, rules.counts, game_seed * 8 + seat)
                   for seat in range(rules.players)]
        state = new_game(rules, card, game_seed, names)
        while state.phase is not Phase.OVER:
            phase = state.phase
            started = clock()
            seat = seats_to_act(state)[0]
            found = clock()
            seen = view(state, seat)
            built = clock()
            action = players[seat].choose(seen, seen.legal)
            chosen = clock()
            state, _ = apply(state, action)
            applied = clock()
            part = spent[f"{phase.value}: {type(action).__name__.lower()}"]
            part[0] += 1
            part[1] += found - started
            part[2] += built - found
            part[3] += applied - chosen
    costs = [StepCost(name, count / games, seats / count / 1e3, built / count / 1e3,
                      applied / count / 1e3)
             for name, (count, seats, built, applied) in spent.items()]
    return tuple(sorted(costs, key=lambda c: -c.per_game * c.total_us))
