"""A card's compile cost: counted before any work, bounded by a budget, refused with the hands
that cost most."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.cards import check as check_module
from bot.engine.cards import load_card
from bot.engine.cards.compile import (
    MAX_VARIATIONS_PER_HAND,
    combinations,
    hand_variations,
    pattern_variations,
)
from bot.engine.cards.cost import (
    COSTLIEST_SHOWN,
    MAX_CARD_COMBINATIONS,
    budget_problem,
    card_combinations,
    costliest_card_text,
    hand_costs,
)
from bot.engine.cards.parser import MAX_HANDS
from bot.engine.errors import CardError
from bot.engine.matcher import CardMatcher
from bot.library import shipped_card_paths

FIXTURE_CARD = Path(__file__).resolve().parent / "fixtures" / "features.jongg"
#: The most combinations one hand of `costliest_card_text` spans.
LARGEST_HAND = 2 ** (MAX_VARIATIONS_PER_HAND.bit_length() - 1)


@pytest.mark.parametrize("path", [*shipped_card_paths(), FIXTURE_CARD], ids=lambda p: p.name)
def test_the_count_bounds_what_compiling_builds(path: Path) -> None:
    card = load_card(path.read_bytes())
    for index, hand in enumerate(card.hands):
        enumerated = sum(1 for pattern in hand.patterns
                         for _ in pattern_variations(pattern, hand.shift))
        assert combinations(hand) == enumerated, hand.id
        assert len(hand_variations(hand, index)) <= enumerated
    assert card_combinations(card) <= MAX_CARD_COMBINATIONS // 5, "our cards leave headroom"


def test_the_costliest_card_is_accepted_and_every_combination_is_a_variation() -> None:
    card = load_card(costliest_card_text(MAX_CARD_COMBINATIONS))
    assert card_combinations(card) == MAX_CARD_COMBINATIONS
    assert len(CardMatcher(card).variations) == MAX_CARD_COMBINATIONS


def test_hand_costs_are_costliest_first() -> None:
    card = load_card(costliest_card_text(LARGEST_HAND + 6))
    costs = hand_costs(card.hands)
    assert [(c.id, c.combinations) for c in costs] == [("c1", LARGEST_HAND), ("c2", 4),
                                                       ("c3", 2)]
    assert [c.line for c in costs] == [hand.line for hand in card.hands]


def test_a_card_over_budget_names_its_costliest_hands_and_what_to_do() -> None:
    over = MAX_CARD_COMBINATIONS + 1
    with pytest.raises(CardError) as info:
        load_card(costliest_card_text(over))
    [problem] = info.value.problems
    card = load_card(costliest_card_text(MAX_CARD_COMBINATIONS))  # the same hands, less one
    assert problem.line == card.hands[0].line
    message = problem.message
    assert f"{over:,} combinations" in message and f"at most {MAX_CARD_COMBINATIONS:,}" in message
    for hand in card.hands[:COSTLIEST_SHOWN]:
        assert f"`{hand.id}` on line {hand.line} ({LARGEST_HAND:,})" in message
    assert f"`{card.hands[COSTLIEST_SHOWN].id}`" not in message
    for advice in ("`|` alternatives", "shift=any", "leave some hands out"):
        assert advice in message


def test_a_card_within_budget_has_no_budget_problem() -> None:
    card = load_card(costliest_card_text(MAX_CARD_COMBINATIONS))
    assert budget_problem(card.hands) is None
    assert budget_problem(card.hands, budget=MAX_CARD_COMBINATIONS - 1) is not None


def test_a_card_over_budget_is_refused_before_any_hand_is_enumerated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The upload limits alone allow a card of a million combinations (a minute to check,
    more to compile): the refusal must come from counting, not from enumerating."""
    def enumerating(*_: object) -> None:
        raise AssertionError("a hand was enumerated")

    monkeypatch.setattr(check_module, "pattern_variations", enumerating)
    monkeypatch.setattr(check_module, "hand_variations", enumerating)
    old_limits = costliest_card_text(MAX_HANDS * LARGEST_HAND)
    with pytest.raises(CardError) as info:
        load_card(old_limits)
    [problem] = info.value.problems
    assert f"{MAX_HANDS * LARGEST_HAND:,} combinations" in problem.message


def test_an_oversized_hand_is_reported_once() -> None:
    """A hand over the per-hand limit is its own problem, not also a budget problem."""
    nine = "|".join(f"{rank}@B" for rank in range(1, 10))
    hand = f"big {nine} {nine} {nine} {nine} 1111@C 1111@D 11@C = 25 X"
    text = costliest_card_text(MAX_CARD_COMBINATIONS) + hand + "\n"
    with pytest.raises(CardError) as info:
        load_card(text)
    [problem] = info.value.problems
    assert "`big` has more than" in problem.message
