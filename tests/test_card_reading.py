"""Reading a hand of the card in plain words (`bot.card_reading`, `/rules hand:`): the
words come from the parsed hand, so every hand of every shipped card is read with a line per
group, its suits, X or C, how its numbers move and where jokers may go; a typed hand line is
read with the card's year; a hand that isn't there, or a line that can't be read, is
explained."""

from __future__ import annotations

import pytest

from bot.card_reading import read_line
from bot.engine.cards import Card, Shift
from bot.engine.errors import InvalidInput
from bot.server_cards import parse_card, shipped_texts

CARDS = {name: parse_card(text) for name, text in shipped_texts().items()}
TEACHING = CARDS["jongg-teaching"]


@pytest.mark.parametrize("card", CARDS.values(), ids=list(CARDS))
def test_every_hand_of_every_shipped_card_is_read_from_its_parsed_form(card: Card) -> None:
    for hand in card.hands:
        text = read_line(card, hand.id)
        lines = text.splitlines()
        assert lines[0].startswith(f"**{hand.id}** `{hand.text}`: {hand.section}, worth "
                                   f"{hand.value}, ")
        assert ("concealed (C)" in lines[0]) is hand.concealed
        assert sum(line.startswith("• ") for line in lines) == sum(
            len(pattern) for pattern in hand.patterns)
        assert sum(line.startswith("Way ") for line in lines) == (
            len(hand.patterns) if len(hand.patterns) > 1 else 0)
        assert ("Any like numbers" in text) is (hand.shift is Shift.ANY)
        assert ("exactly as written" in text) is (hand.shift is Shift.NONE)
        assert ("No jokers at all" in text) is hand.singles_and_pairs
        assert (f"The card says: {hand.note}" in text) is bool(hand.note)
        assert len(text) < 2000


@pytest.mark.parametrize(("hand", "said"), [
    ("t1", ["One suit (a), whichever you choose.", "• a kong (four alike) of 2s of suit a",
            "• a pung (three alike) of flowers", "Any like numbers"]),
    ("T2", ["All three suits (a, b, c), one per letter", "• a kong (four alike) of Norths"]),
    ("t7", ["• a kong (four alike) of dragons of suit a", "Red goes with Craks"]),
    ("t10", ["• the year 2026 in suit a (2, Soap, 2, 6, one each)",
             "never a pair, a single or a group of different tiles (like a year)"]),
    ("t11", ["• either a kong (four alike) of 1s of suit a or a kong (four alike) of 9s of "
             "suit a"]),
    ("t14", ["concealed (C): build it all from the wall", "• a pair of Norths",
             "No jokers at all"]),
])
def test_a_hand_of_the_card_in_plain_words(hand: str, said: list[str]) -> None:
    text = read_line(TEACHING, hand)
    for words in said:
        assert words in text, (words, text)


def test_small_print_flowers_as_jokers_and_fixed_numbers_are_read() -> None:
    original = CARDS["jongg-original"]
    flowers = next(h for h in original.hands
                   if any(f.flowers_wild for p in h.patterns for g in p for f in g.forms))
    assert "Flowers may act as jokers in" in read_line(original, flowers.id)
    typed = read_line(original, "1a 22a 333a 4444b FFFF = 25 X jokers=no")
    assert "No jokers: the card allows none in any of its groups." in typed


def test_a_typed_line_is_read_with_the_cards_year_and_without_a_value_if_none_is_given(
        ) -> None:
    text = read_line(TEACHING, "FF Ya 222b 222c 22c")
    assert text.startswith("`FF Ya 222b 222c 22c`\n") and "worth" not in text
    assert "• the year 2026 in suit a" in text
    valued = read_line(TEACHING, "FF 2222a 4444a 66a FFFF = 30 C")
    assert valued.startswith("`FF 2222a 4444a 66a FFFF`: worth 30, concealed (C)")


@pytest.mark.parametrize(("typed", "said"), [
    ("t99", "There is no hand `t99` on Jongg Teaching. Give a hand's id (t1, t2,"),
    ("FF 22x", "I can't read that hand: group `22x`: `x` is not a suit variable"),
])
def test_what_cant_be_read_is_explained(typed: str, said: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        read_line(TEACHING, typed)
    assert refused.value.message.startswith(said), refused.value.message
