"""Seating a tournament round: tables of the season's size, mixing opponents round by round.

The first round is a seeded shuffle. Later rounds minimise how often people meet again: the
cost of a seating is the sum, over every two players at one table, of the square of how many
times they have already shared a table (squares, so two pairs meeting a second time cost less
than one pair meeting a third time). From a few seeded shuffles, players are swapped between
tables while a swap lowers the cost, and the cheapest seating wins; ties keep the earliest.
Seats at a table (who is East) are shuffled too.

Players who do not fill whole tables are spread so table sizes differ by at most one; the
empty seats are for bots, which the league leaves out of standings.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

from bot.engine.errors import InvalidInput

#: How many swap evaluations one restart may make (keeps big leagues quick).
SWAP_BUDGET = 60_000


def table_sizes(players: int, table_size: int) -> list[int]:
    """How many people sit at each table: as few tables as possible, sizes within one."""
    if players < 1:
        return []
    tables = -(-players // table_size)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def meetings(past_tables: Sequence[Sequence[int]]) -> Counter[tuple[int, int]]:
    """How many times each two players (smaller id first) shared a table."""
    met: Counter[tuple[int, int]] = Counter()
    for table in past_tables:
        for a, b in itertools.combinations(sorted(set(table)), 2):
            met[(a, b)] += 1
    return met


def seating_cost(tables: Sequence[Sequence[int]], met: Counter[tuple[int, int]]) -> int:
    """The sum of squared earlier meetings over every two players seated together."""
    return sum(met.get((min(a, b), max(a, b)), 0) ** 2
               for table in tables for a, b in itertools.combinations(table, 2))


def seat_round(players: Sequence[int], table_size: int,
               past_tables: Sequence[Sequence[int]] = (), *, seed: int,
               restarts: int = 8) -> list[list[int]]:
    """Tables for the next round (East first at each). Raises `InvalidInput` when there are
    fewer players than one table seats, or a player is listed twice."""
    if table_size < 2:
        raise ValueError("a table seats at least two")
    if len(set(players)) != len(players):
        raise InvalidInput("A player is listed twice.")
    if len(players) < table_size:
        raise InvalidInput(f"A round needs at least {table_size} registered players; this "
                           f"league has {len(players)}. Players join with `/league join`.")
    rng = random.Random(seed)
    sizes = table_sizes(len(players), table_size)
    met = meetings(past_tables)
    ordered = sorted(players)
    best: list[list[int]] | None = None
    best_cost = -1
    for _ in range(1 if not met else max(1, restarts)):
        shuffled = ordered[:]
        rng.shuffle(shuffled)
        tables = _split(shuffled, sizes)
        if met:
            _improve(tables, met, rng)
        cost = seating_cost(tables, met)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    assert best is not None
    for table in best:
        rng.shuffle(table)
    return best


def _split(players: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(list(players[start:start + size]))
        start += size
    return tables


def _improve(tables: list[list[int]], met: Counter[tuple[int, int]],
             rng: random.Random) -> None:
    """Swap players between tables while some swap lowers the cost (first improvement, in a
    seeded order), within `SWAP_BUDGET` evaluations."""
    def cost_with(player: int, table: Sequence[int], skip: int) -> int:
        return sum(met.get((min(player, o), max(player, o)), 0) ** 2
                   for o in table if o != player and o != skip)

    budget = SWAP_BUDGET
    spots = [(t, s) for t, table in enumerate(tables) for s in range(len(table))]
    improved = True
    while improved and budget > 0:
        improved = False
        rng.shuffle(spots)
        for (ta, sa), (tb, sb) in itertools.combinations(spots, 2):
            if ta == tb:
                continue
            budget -= 1
            if budget <= 0:
                return
            a, b = tables[ta][sa], tables[tb][sb]
            now = cost_with(a, tables[ta], a) + cost_with(b, tables[tb], b)
            swapped = cost_with(a, tables[tb], b) + cost_with(b, tables[ta], a)
            if swapped < now:
                tables[ta][sa], tables[tb][sb] = b, a
                improved = True
