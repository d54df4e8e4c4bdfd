"""Tile kinds and the text notation: parsing, formatting, friendly input and errors."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.errors import InvalidInput
from bot.engine.matcher import Exposure
from bot.engine.tiles import (
    BLANK,
    DRAGONS,
    EAST,
    FLOWER,
    GREEN,
    JOKER,
    NORTH,
    NUM_KINDS,
    RED,
    SOAP,
    SOUTH,
    STANDARD_COUNTS,
    SUIT_DRAGON,
    WEST,
    WINDS,
    Suit,
    format_tile,
    format_tiles,
    is_suited,
    kind_counts,
    parse_tile,
    parse_tiles,
    physical_tiles,
    rank_of,
    standard_counts,
    suit_of,
    suited,
    tile_name,
)

B, C, D = Suit.BAM, Suit.CRAK, Suit.DOT


# -- kinds -------------------------------------------------------------------------------------


def test_kind_layout_is_suits_then_winds_then_dragons() -> None:
    assert [suited(B, 1), suited(B, 9), suited(C, 1), suited(D, 9)] == [0, 8, 9, 26]
    assert WINDS == (NORTH, EAST, WEST, SOUTH) == (27, 28, 29, 30)
    assert DRAGONS == (RED, GREEN, SOAP) == (31, 32, 33)
    assert (FLOWER, JOKER, BLANK, NUM_KINDS) == (34, 35, 36, 37)


@pytest.mark.parametrize("kind", range(27))
def test_suit_and_rank_invert_suited(kind: int) -> None:
    assert is_suited(kind)
    assert suited(suit_of(kind), rank_of(kind)) == kind


@pytest.mark.parametrize("kind", [NORTH, RED, SOAP, FLOWER, JOKER, BLANK])
def test_honors_have_no_suit_or_rank(kind: int) -> None:
    assert not is_suited(kind)
    with pytest.raises(ValueError):
        suit_of(kind)
    with pytest.raises(ValueError):
        rank_of(kind)


@pytest.mark.parametrize("rank", [0, 10, -1])
def test_suited_rejects_ranks_outside_one_to_nine(rank: int) -> None:
    with pytest.raises(ValueError, match="not 1-9"):
        suited(B, rank)


def test_dragons_pair_with_suits_as_on_real_cards() -> None:
    assert SUIT_DRAGON == {Suit.CRAK: RED, Suit.BAM: GREEN, Suit.DOT: SOAP}


def test_tile_names_are_words() -> None:
    assert [tile_name(k) for k in (suited(B, 3), suited(C, 5), suited(D, 9))] == [
        "3 Bam", "5 Crak", "9 Dot"]
    assert [tile_name(k) for k in (NORTH, SOUTH, RED, GREEN, SOAP, FLOWER, JOKER)] == [
        "North", "South", "Red", "Green", "Soap", "Flower", "Joker"]
    with pytest.raises(ValueError):
        tile_name(NUM_KINDS)
    with pytest.raises(ValueError):
        format_tile(-1)


def test_standard_set_has_152_tiles_with_ids() -> None:
    tiles = physical_tiles()
    assert len(tiles) == 152 == sum(STANDARD_COUNTS)
    counts = Counter(tiles)
    assert counts[suited(B, 1)] == counts[NORTH] == counts[SOAP] == 4
    assert counts[FLOWER] == counts[JOKER] == 8
    assert counts[BLANK] == 0
    assert kind_counts(tiles) == list(STANDARD_COUNTS)


def test_house_rule_sets() -> None:
    counts = standard_counts(jokers=10, blanks=6)
    assert sum(counts) == 160
    assert Counter(physical_tiles(counts))[BLANK] == 6


# -- formatting and parsing ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "text"),
    [(suited(B, 3), "3B"), (suited(C, 1), "1C"), (suited(D, 9), "9D"), (NORTH, "N"),
     (EAST, "E"), (WEST, "W"), (SOUTH, "S"), (RED, "R"), (GREEN, "G"), (SOAP, "0"),
     (FLOWER, "F"), (JOKER, "J"), (BLANK, "X")],
)
def test_format_and_parse_one_tile(kind: int, text: str) -> None:
    assert format_tile(kind) == text
    assert parse_tile(text) == kind
    assert parse_tile(text.lower()) == kind


def test_format_tiles_is_canonical_and_sorted() -> None:
    kinds = parse_tiles("J 3B N 1B 0 1B 2D F R 9C")
    assert format_tiles(kinds) == "113B 9C 2D N R 0 F J"
    assert format_tiles([]) == ""
    assert format_tiles(parse_tiles("NNEW")) == "NN E W"


@pytest.mark.parametrize(
    "text",
    ["1123B NN E W R G 0 F J X", "123456789B 123456789C 123456789D", "NNNN", "FFFFFFFF JJ"],
)
def test_canonical_text_round_trips(text: str) -> None:
    assert format_tiles(parse_tiles(text)) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3 bam", "3B"),
        ("3 Bams", "3B"),
        ("5 crak", "5C"),
        ("5 characters", "5C"),
        ("9 dots", "9D"),
        ("9 circles", "9D"),
        ("red dragon", "R"),
        ("Green Dragon", "G"),
        ("white dragon", "0"),
        ("soap", "0"),
        ("north wind", "N"),
        ("East", "E"),
        ("joker", "J"),
        ("flower", "F"),
        ("blank", "X"),
        ("3b", "3B"),
    ],
)
def test_friendly_words_for_one_tile(text: str, expected: str) -> None:
    assert parse_tile(text) == parse_tile(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("11 222 3333B", "112223333B"),
        ("3 bam, 4 dots", "3B 4D"),
        ("2 3 4 dot", "234D"),
        ("1123B NNEW", "1123B NN E W"),
        ("soap soap red", "R 00"),
        ("3 Bam 4 Crak J", "3B 4C J"),
        ("jokers flowers", "F J"),
        ("2026B", "226B 0"),
    ],
)
def test_friendly_input_for_several_tiles(text: str, expected: str) -> None:
    assert format_tiles(parse_tiles(text)) == expected


def test_bare_numbers_take_the_next_suit() -> None:
    assert parse_tiles("11 222 3333B") == (0, 0, 1, 1, 1, 2, 2, 2, 2)
    assert parse_tiles("12 3b 4c") == (0, 1, 2, suited(C, 4))


@pytest.mark.parametrize(
    ("text", "bad", "hint"),
    [
        ("3B 3Q", "3Q", "`q` is not a suit"),
        ("hello", "hello", ""),
        ("3B 4", "4", "Numbers need a suit"),
        ("7", "7", "7B, 7C or 7D"),
        ("3 red", "3", "Numbers need a suit"),
        ("N E W K", "K", ""),
    ],
)
def test_errors_name_the_bad_token_and_show_accepted_forms(text: str, bad: str,
                                                            hint: str) -> None:
    with pytest.raises(InvalidInput) as info:
        parse_tiles(text)
    message = info.value.message
    assert f"`{bad}`" in message
    assert hint in message
    assert "3B (3 Bam)" in message and "J for a joker" in message
    assert info.value.code == "invalid_input"


@pytest.mark.parametrize("text", ["q" * 3000, "7" * 3000, "3B " + "`x" * 1500, "3" * 2999 + "Q"])
def test_errors_quote_a_long_token_shortened(text: str) -> None:
    with pytest.raises(InvalidInput) as info:
        parse_tiles(text)
    message = info.value.message
    assert len(message) < 400
    assert message.count("`") % 2 == 0, "a backtick typed by the player breaks the quoting"
    assert "…" in message


@pytest.mark.parametrize(("text", "what"), [("", "nothing"), ("3B 4B", "2 tiles (3B 4B)"),
                                            ("NN", "2 tiles (N N)")])
def test_parse_tile_wants_exactly_one(text: str, what: str) -> None:
    with pytest.raises(InvalidInput) as info:
        parse_tile(text)
    assert what in info.value.message
    assert "exactly one tile" in info.value.message


@pytest.mark.parametrize("text", ["J" * 3000, "3B " * 1000, "N " * 1500])
def test_a_refusal_of_many_tiles_for_one_quotes_them_shortened(text: str) -> None:
    """`/mj discard tile:` with 3,000 characters of tiles: the refusal stays short, quoting
    what was typed (and what it was read as) cut with an ellipsis, not whole."""
    with pytest.raises(InvalidInput) as info:
        parse_tile(text)
    message = info.value.message
    assert len(message) < 400 and message.count("…") == 2, len(message)


def test_a_refusal_of_a_long_exposure_quotes_it_shortened() -> None:
    with pytest.raises(InvalidInput) as info:
        Exposure.parse("3B 4B " * 500)
    assert len(info.value.message) < 200 and "…" in info.value.message


# -- property: any bag of tiles round-trips --------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=NUM_KINDS - 1), max_size=40))
def test_format_then_parse_round_trips_any_multiset(kinds: list[int]) -> None:
    text = format_tiles(kinds)
    parsed = parse_tiles(text)
    assert sorted(parsed) == sorted(kinds)
    assert format_tiles(parsed) == text
    assert list(parsed) == sorted(parsed), "canonical text lists tiles in rack order"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=NUM_KINDS - 1), min_size=1, max_size=14))
def test_words_round_trip(kinds: list[int]) -> None:
    words = ", ".join(tile_name(kind).lower() for kind in kinds)
    assert parse_tiles(words) == tuple(kinds)


def test_several_tiles_for_one_are_echoed_in_the_order_read() -> None:
    # `2026B` was echoed sorted as a rack shows it, `226B 0`: not what was typed.
    with pytest.raises(InvalidInput) as refused:
        parse_tile("2026B")
    assert "but `2026B` is 4 tiles (2B 0 2B 6B)." in refused.value.message
