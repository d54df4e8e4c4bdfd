"""How likely a plan is to be finished, from what a seat can see: the Normal bot's estimate.

A plan lacks some natural tiles (singles, pairs, no-joker groups) and some places in
joker-able groups. The seat has about `draws` draws left (the wall shared among the live
seats), and the tiles it cannot see (`unseen`: the wall and the other racks) hold `live[k]`
copies of each kind. The hits on one kind over those draws are close to a Poisson count with
mean `draws * live[k] / unseen`; a joker-able place can also be filled by calling a discard
(unless the hand is concealed: `calls` off), which `call_factor` counts as that many more
looks at the kind, and by a joker (the live jokers shared among the open places). Kinds are
treated as independent, so the chance of the plan is the product over what it lacks.

`Odds.jokerless` is the chance of finishing with no joker at all (the naturals alone), which
doubles the value of most hands: a plan's expected value is `value * (complete + jokerless)`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bot.engine.tiles import JOKER


@dataclass(frozen=True)
class Supply:
    """The tiles a seat can still get, which is what the odds need from the table: live
    copies per kind the seat cannot see, how many tiles it cannot see, and about how many
    draws it has left."""

    live: tuple[int, ...]
    unseen: int
    draws: float


@dataclass(frozen=True)
class Odds:
    """The chance of finishing a plan, and of finishing it without a joker."""

    complete: float
    jokerless: float


@lru_cache(maxsize=4096)
def at_least(mean: float, count: int) -> float:
    """P(X >= count) for a Poisson count X of this mean (kept for the means seen last: the
    plans weighed at one table ask about the same few kinds again and again)."""
    if count <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    term = math.exp(-mean)
    below = term
    for i in range(1, count):
        term *= mean / i
        below += term
    return max(0.0, 1.0 - below)


def plan_odds(need_natural: Sequence[tuple[int, int]], need_any: Sequence[tuple[int, int]],
              jokers_kept: int, table: Supply, *, calls: bool, call_factor: float) -> Odds:
    """The odds of a plan lacking `need_natural` and `need_any` ((kind, count) pairs; see the
    module docstring). `jokers_kept` is how many jokers the plan already places (then it can
    be jokerless only by exchanging them away, which is not counted)."""
    if table.unseen <= 0:
        done = not need_natural and not need_any
        return Odds(float(done), float(done and not jokers_kept))
    rate = table.draws / table.unseen
    natural = 1.0
    for kind, count in need_natural:
        if table.live[kind] < count:
            return Odds(0.0, 0.0)
        natural *= at_least(rate * table.live[kind], count)
    places = sum(count for _, count in need_any)
    looks = call_factor if calls else 1.0
    joker_rate = rate * table.live[JOKER] / places if places else 0.0
    complete = jokerless = natural
    for kind, count in need_any:
        mean = rate * looks * table.live[kind]
        complete *= at_least(mean + joker_rate * count, count)
        jokerless *= at_least(mean, count) if table.live[kind] >= count else 0.0
    return Odds(complete, 0.0 if jokers_kept else jokerless)
