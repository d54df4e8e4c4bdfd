"""What a card costs to compile, counted before any work, and the budget every card must fit.

Compiling a card enumerates every real combination of suit assignment, shift and alternative
of every hand (numbers within 1-9; see `bot.engine.cards.compile`), and the matcher keeps a
row for each distinct one, so the time and memory a card takes grow with its number of
combinations. Counting them is cheap (`combinations` multiplies, it enumerates nothing), so a
card over the budget is refused before anything is built.

The budget: our own card spans 1,412 combinations (1,058 distinct variations; 53 hands; 2,798
when shifts were counted whether or not they fit), and a heavy real card, with runs and like
numbers in any suits and a few alternatives, a few thousand at most. A card at the budget in
the costliest shape (`costliest_card_text`: single tiles with alternatives, every combination
distinct) compiles in 0.4-0.7 s of one core and keeps about 10 MB: fine in a worker, once per
card per process. A card at the budget made of shifting hands with pungs and alternatives
costs about the same (0.3-0.5 s, 11 MB). A move in a game with it (a person's and the bots'
answers) takes about 2.5 ms (p99 about 10 ms). Past it, cost grows without bound: the upload
limits alone allow a card of a million combinations, a minute's checking, two minutes'
compiling and gigabytes of memory (`jongg bench cards` measures what cards cost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards.compile import MAX_VARIATIONS_PER_HAND, combinations
from bot.engine.cards.model import Card, Hand
from bot.engine.errors import CardProblem

#: Most combinations (suit assignments x shifts x alternatives, summed over the hands) a
#: card may span: about 14 times our own card, several times a heavy real one.
MAX_CARD_COMBINATIONS = 20_000
#: Hands named in the message about a card over budget.
COSTLIEST_SHOWN = 3


@dataclass(frozen=True)
class HandCost:
    """One hand's share of a card's cost: where it is written and how many combinations."""

    line: int
    id: str
    combinations: int


def hand_costs(hands: Sequence[Hand]) -> tuple[HandCost, ...]:
    """Every hand's cost, costliest first (ties in card order)."""
    costs = [HandCost(hand.line, hand.id, combinations(hand)) for hand in hands]
    return tuple(sorted(costs, key=lambda cost: -cost.combinations))


def card_combinations(card: Card) -> int:
    """The combinations a card spans in all: what compiling it enumerates."""
    return sum(combinations(hand) for hand in card.hands)


def budget_problem(hands: Sequence[Hand],
                   budget: int = MAX_CARD_COMBINATIONS) -> CardProblem | None:
    """None when a card's hands fit the budget; else the problem to report, on the costliest
    hand's line, naming the hands that cost most and what to change."""
    costs = hand_costs(hands)
    total = sum(cost.combinations for cost in costs)
    if total <= budget:
        return None
    costliest = ", ".join(f"`{cost.id}` on line {cost.line} ({cost.combinations:,})"
                          for cost in costs[:COSTLIEST_SHOWN])
    return CardProblem(costs[0].line, (
        f"the card spans {total:,} combinations of suits, numbers and alternatives; a card may "
        f"have at most {budget:,} (real cards have a few thousand). The costliest hands: "
        f"{costliest}. Make those hands narrower: fewer `|` alternatives or suit letters, "
        "`shift=even` or fixed numbers instead of `shift=any`, or leave some hands out."))


def costliest_card_text(budget: int = MAX_CARD_COMBINATIONS) -> str:
    """A card file that spans exactly `budget` combinations in the costliest shape the
    language allows (fourteen single tiles, each combination distinct): the most expensive
    card a budget accepts, for benchmarks and tests. Each hand spans a power of two, the
    largest the per-hand limit allows first."""
    lines = ["card: Costliest", "", "[Singles]"]
    left = budget
    while left:
        choices = min(left, MAX_VARIATIONS_PER_HAND).bit_length() - 1
        lines.append(f"c{len(lines) - 2} {_singles(choices)} = 25 X")
        left -= 2 ** choices
    return "\n".join(lines) + "\n"


def _singles(choices: int) -> str:
    """Fourteen singles in fixed suits (odd ranks), the first `choices` of them with the
    next rank as an alternative: 2 ** choices combinations, all distinct."""
    groups: list[str] = []
    for position in range(14):
        suit, rank = "BCD"[position % 3], position // 3 * 2 + 1
        groups.append(f"{rank}@{suit}|{rank + 1}@{suit}" if position < choices
                      else f"{rank}@{suit}")
    return " ".join(groups)
