"""Where a game's time goes, step by step: the profile `jongg bench engine` prints beside its
games per second, so that speed work starts from the step that costs the most.

Seeded random-legal games are played through the public API as `simulate` plays them; each
step is timed in three parts (the thread's CPU time, so other load does not count): finding
who must act (`seats_to_act`), building that seat's `View` with its legal options, and
`apply`. Steps are grouped by what they were: the phase the game was in and the action taken
(a claim window's answers, a discard, a Charleston pass...). The player's own choice is timed
apart and not counted in a step's cost: it is the bench's (or the bot's), not the engine's.
Played by Normal bots instead of random ones, the same profile splits a game between the
engine and the bots' thinking: how much faster those games could get if the engine cost
nothing. Each part includes one reading of the clock (about 0.3 us on Linux), a few per cent
of a step.
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
    """One kind of step: how many a game takes, and what each costs on average (µs of CPU):
    the engine's three parts, and apart from them the player's choice (`choose_us`)."""

    name: str
    per_game: float
    seats_us: float
    view_us: float
    apply_us: float
    choose_us: float

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


def profile_steps(rules: RuleSet, card: Card, games: int, seed: int,
                  kind: str = "random") -> tuple[StepCost, ...]:
    """The steps of `games` games (the bench's seeds) played by `kind` players, dearest kind
    of step first."""
    clock = time.thread_time_ns
    spent: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    names = player_names((kind,) * rules.players)
    for game_seed in game_seeds(seed, games):
        players = [make_player(kind, card, rules.counts, game_seed * 8 + seat)
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
            part[4] += chosen - built
    costs = [StepCost(name, count / games, seats / count / 1e3, built / count / 1e3,
                      applied / count / 1e3, chose / count / 1e3)
             for name, (count, seats, built, applied, chose) in spent.items()]
    return tuple(sorted(costs, key=lambda c: -c.per_game * c.total_us))


@dataclass(frozen=True)
class GameSplit:
    """A game's CPU time split between the engine and its players, in ms a game."""

    engine_ms: float
    players_ms: float

    @property
    def free_engine_speedup(self) -> float:
        """How many times faster such games would be if the engine cost nothing: the most
        any engine speed-up can give them."""
        return (self.engine_ms + self.players_ms) / self.players_ms if self.players_ms else 0.0


def game_split(costs: tuple[StepCost, ...]) -> GameSplit:
    """The split of a game's time that `costs` (one profile) shows."""
    return GameSplit(sum(c.per_game * c.total_us for c in costs) / 1e3,
                     sum(c.per_game * c.choose_us for c in costs) / 1e3)
