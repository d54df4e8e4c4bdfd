"""`matcher_for`: one compiled matcher per card while anything holds it, and no more kept."""

from __future__ import annotations

import gc
import weakref

from bot.engine.cards import Card, load_card
from bot.engine.matcher import matcher_for

#: More cards than the matcher cache keeps on its own.
MANY = 20


def small_card(value: int) -> Card:
    return load_card(f"card: Small {value}\n[S]\nh1 FF 1111a 2222a 3333a = {value} X\n")


def test_a_held_matcher_is_found_again_after_many_other_cards() -> None:
    """A game holds its card's matcher; asking again for that card (a bot, a hint, a
    restore) must never compile it again on the event loop, however many cards came since."""
    card = small_card(1)
    held = matcher_for(card)
    others = [small_card(value) for value in range(2, 2 + MANY)]
    for other in others:
        matcher_for(other)
    assert matcher_for(card) is held


def test_matchers_nobody_holds_are_let_go() -> None:
    first = weakref.ref(matcher_for(small_card(1)))
    kept = [small_card(value) for value in range(2, 2 + MANY)]
    for card in kept:
        matcher_for(card)
    gc.collect()
    assert first() is None, "a matcher nobody holds must not be kept forever"
