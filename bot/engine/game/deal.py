"""Building the wall and dealing, all from the seed.

The shuffled set is laid out as one ring of stacks two tiles high (top tile first). East
throws the dice and breaks the wall that many stacks from the right end of East's wall; the
stacks before the break go to the far end, and dealing starts at the break. Seats take four
tiles at a time in turn order while every seat needs four more; in the standard deal East
then "jumps", taking the first and third top tiles, and the others take one tile each. Other
deal sizes (the Siamese 27) finish by taking up to four tiles each in turn.

The ring does not depend on how many walls it is split into, so three players (who each build
a wall) deal from it exactly as four do; the Royale-style game's two sets make one ring of
152 stacks.

With no dice (a house option) the wall is not broken: dealing starts at the right end of East's
wall. Without walls (the Siamese rules' social form) the shuffled tiles are a face-down pool;
the seed's ring is the order they are picked in, so the deal and every pick still come from
the seed alone.
"""

from __future__ import annotations

import random

from bot.engine.game.rules import RuleSet
from bot.engine.game.state import DealRecord
from bot.engine.tiles import physical_tiles

BATCH = 4
STACK_HEIGHT = 2


def shuffled_ring(rules: RuleSet, seed: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The kind of every tile id, and the ids in ring order after the shuffle."""
    tiles = physical_tiles(rules.counts)
    ring = list(range(len(tiles)))
    random.Random(seed).shuffle(ring)
    return tiles, tuple(ring)


def throw_dice(rules: RuleSet, seed: int) -> tuple[int, ...]:
    """East's dice, from their own stream of the seed so the shuffle is unaffected."""
    dice_rng = random.Random(f"{seed}:dice")
    return tuple(dice_rng.randint(1, 6) for _ in range(rules.dice))


def _deal_positions(sizes: tuple[int, ...]) -> tuple[list[list[int]], int]:
    """Which positions after the break each seat takes, and how many positions the deal
    spans (untaken positions inside that span stay in the wall, in order)."""
    need = list(sizes)
    taken: list[list[int]] = [[] for _ in sizes]
    position = 0
    while min(need) >= BATCH:
        for seat in range(len(sizes)):
            taken[seat].extend(range(position, position + BATCH))
            position += BATCH
            need[seat] -= BATCH
    if need[0] == 2 and all(n == 1 for n in need[1:]):
        # East jumps: the first and third top tiles (positions 0 and 4 of the next stacks).
        taken[0].extend((position, position + 2 * STACK_HEIGHT))
        for offset, seat in enumerate(range(1, len(sizes)), start=1):
            taken[seat].append(position + offset)
        return taken, position + 2 * STACK_HEIGHT + 1
    while any(need):
        for seat in range(len(sizes)):
            count = min(BATCH, need[seat])
            taken[seat].extend(range(position, position + count))
            position += count
            need[seat] -= count
    return taken, position


def deal(rules: RuleSet, seed: int) -> tuple[tuple[int, ...], DealRecord, tuple[int, ...]]:
    """The set's kinds, the deal record (dice, break, hands) and the wall in draw order."""
    tiles, ring = shuffled_ring(rules, seed)
    dice = throw_dice(rules, seed)
    break_stack = sum(dice)
    start = break_stack * STACK_HEIGHT
    order = ring[start:] + ring[:start]
    positions, span = _deal_positions(rules.deal_sizes())
    used = {p for seat_positions in positions for p in seat_positions}
    hands = tuple(tuple(sorted(order[p] for p in seat_positions))
                  for seat_positions in positions)
    wall = tuple(order[p] for p in range(span) if p not in used) + order[span:]
    return tiles, DealRecord(dice, break_stack, hands), wall
