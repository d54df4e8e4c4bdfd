"""Loading a card with every check: syntax, then what each hand needs from a real tile set.

`load_card` is the one entry point for card text from anywhere (shipped files, uploads, tests).
It returns a `Card` or raises `CardError` whose `problems` say, line by line, what to change.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards.compile import (
    HAND_SIZE,
    MAX_VARIATIONS_PER_HAND,
    Variation,
    combinations,
    hand_variations,
    has_movable_numbers,
    is_satisfiable,
    joker_need,
    pattern_variations,
)
from bot.engine.cards.cost import budget_problem
from bot.engine.cards.model import Card, Hand, Shift
from bot.engine.cards.parser import parse_card_syntax
from bot.engine.errors import CardError, CardProblem
from bot.engine.tiles import JOKER, STANDARD_COUNTS, format_tile


def _sizes(hand: Hand) -> set[int]:
    sizes: set[int] = set()
    for pattern in hand.patterns:
        choices: set[int] = {0}
        for group in pattern:
            choices = {total + form.size for total in choices for form in group.forms}
        sizes |= choices
    return sizes


def _hand_problems(hand: Hand) -> list[CardProblem]:
    """What is wrong with a hand that can be told without enumerating it."""
    line = hand.line
    sizes = _sizes(hand)
    if sizes != {HAND_SIZE}:
        wrong = ", ".join(str(s) for s in sorted(sizes - {HAND_SIZE}))
        return [CardProblem(line, f"hand `{hand.id}` has {wrong} tiles; every way of making a "
                                  f"hand must have exactly {HAND_SIZE}.")]
    # Counted before anything is enumerated, so an uploaded card cannot stall the bot.
    if combinations(hand) > MAX_VARIATIONS_PER_HAND:
        return [CardProblem(line, f"hand `{hand.id}` has more than {MAX_VARIATIONS_PER_HAND} "
                                  "combinations of suits, numbers and alternatives; split it.")]
    if hand.shift is not Shift.NONE and not any(has_movable_numbers(p) for p in hand.patterns):
        return [CardProblem(line, f"hand `{hand.id}` says shift={hand.shift.value} but has no "
                                  "numbers that can move; remove the option or the `=` marks.")]
    return []


def _unsatisfiable(hand: Hand, index: int, counts: Sequence[int]) -> list[CardProblem]:
    """A problem when no 14 tiles of a set make the hand. Its combinations are walked only
    until one fits (most hands: the first), and all of them only to explain a refusal."""
    if any(is_satisfiable(Variation(index, groups), counts) for pattern in hand.patterns
           for groups in pattern_variations(pattern, hand.shift)):
        return []
    variations = hand_variations(hand, index)
    shorts = {kind for v in variations for kind in joker_need(v, counts)[1]}
    if shorts:
        tiles = ", ".join(format_tile(kind) for kind in sorted(shorts))
        return [CardProblem(hand.line, f"hand `{hand.id}` needs more natural {tiles} than a "
                                       "set holds (4 of each, 8 flowers); allow jokers in that "
                                       "group or use fewer.")]
    fewest = min(joker_need(v, counts)[0] for v in variations)
    return [CardProblem(hand.line, f"no 14 tiles can satisfy hand `{hand.id}`: it needs at "
                                   f"least {fewest} jokers and a set has {counts[JOKER]}.")]


def load_card(data: bytes | str, counts: Sequence[int] = STANDARD_COUNTS) -> Card:
    """Parse and check a card file; raise `CardError` listing every problem by line.

    A card over the compile budget (`bot.engine.cards.cost`) is refused before any hand is
    enumerated, so checking costs little whatever the file holds."""
    card, problems = parse_card_syntax(data)
    # Hands over their own limit are reported on their own, not counted twice.
    over_budget = budget_problem([hand for hand in card.hands
                                  if combinations(hand) <= MAX_VARIATIONS_PER_HAND])
    for index, hand in enumerate(card.hands):
        found = _hand_problems(hand)
        if not found and over_budget is None:
            found = _unsatisfiable(hand, index, counts)
        problems.extend(found)
    if over_budget is not None:
        problems.append(over_budget)
    if problems:
        count = len(problems)
        raise CardError(f"The card has {count} problem{'s' if count != 1 else ''}.",
                        tuple(sorted(problems, key=lambda p: p.line)))
    return card
