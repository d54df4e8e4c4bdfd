"""The matcher, scenario by scenario, on small cards written here."""

from __future__ import annotations

import pytest

from bot.engine.cards import load_card
from bot.engine.errors import InvalidInput
from bot.engine.matcher import CardMatcher, Exposure, MahjongMatch, NearHand, PlayerHand
from bot.engine.tiles import (
    JOKER,
    NORTH,
    format_tiles,
    kind_counts,
    parse_tile,
    parse_tiles,
)

CARD = """\
card: Matcher Test
year: 2026

[Kongs]
k1  FF 1111a 2222a 3333a        = 25 X  -- three kongs in one suit
k2  FF 111a 1a 2222a 3333a      = 30 X  -- a pung of 1s and a single 1
s1  1a 2a 3a 4444a 5555a FFF    = 30 X  -- three singles
[Winds]
n1  NEWS Ya 1111b 22b           = 40 X  -- every wind, the year, a kong and a pair
[Flowers]
fw  FF 5555a^ 6666a^ 77a 88a    = 30 X  -- flowers may stand in for the 5s and 6s
[Concealed]
sp  11a 22a 33a 44a 55a 66a 77a = 50 C  -- singles and pairs
c1  FFF 111a 222a 333a 44a      = 35 C
"""

#: Two hands made of the same tiles, where the lower card value scores more (jokerless x2).
ORDER_CARD = """\
card: Order Test
[Order]
pp  11a 11a 22a 22a 33a 33a 44b = 50 C  -- pairs only: never doubled
kk  1111a 2222a 3333a 44b       = 30 X
k2  1111a 2222a 3333a 44b       = 30 X  -- same as kk, printed later
"""

MATCHER = CardMatcher(load_card(CARD))
ORDER = CardMatcher(load_card(ORDER_CARD))


def hand(concealed: str, exposed: str = "") -> PlayerHand:
    return PlayerHand.parse(concealed, exposed)


def wins(concealed: str, exposed: str = "", matcher: CardMatcher = MATCHER) -> list[str]:
    return [m.hand.id for m in matcher.mahjong(hand(concealed, exposed))]


def match(hand_id: str, concealed: str, exposed: str = "",
          matcher: CardMatcher = MATCHER) -> MahjongMatch:
    found = {m.hand.id: m for m in matcher.mahjong(hand(concealed, exposed))}
    assert hand_id in found, f"{hand_id} not in {list(found)}"
    return found[hand_id]


def near(concealed: str, exposed: str = "") -> dict[str, NearHand]:
    return {n.hand.id: n for n in MATCHER.nearest(hand(concealed, exposed), count=100)}


def tiles(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_tiles(text)))


def visible(text: str) -> list[int]:
    return kind_counts(parse_tiles(text))


def waits(concealed: str, exposed: str = "") -> dict[str, set[str]]:
    return {format_tiles([w.tile]): {h.id for h in w.hands}
            for w in MATCHER.waits(hand(concealed, exposed))}


# -- exposures fill whole groups ---------------------------------------------------------------


def test_all_concealed_tiles_can_split_a_kong_into_pung_and_single() -> None:
    assert wins("FF 1111B 2222B 3333B") == ["k2", "k1"]


def test_an_exposed_kong_is_never_a_pung_plus_a_single() -> None:
    assert wins("FF 2222B 3333B", "1111B") == ["k1"]


def test_an_exposed_pung_is_never_part_of_a_kong() -> None:
    assert wins("1B FF 2222B 3333B", "111B") == ["k2"]
    assert wins("1B FF 2222B 3333B", "11B J") == ["k2"]


def test_exposures_appear_in_the_layout() -> None:
    found = match("k1", "FF 2222B 333B J", "111B J")
    assert found.exposed == (False, True, False, False)
    assert found.groups[1] == (*tiles("111B"), JOKER)
    assert sorted(found.groups[3]) == sorted((*tiles("333B"), JOKER))
    assert found.jokers == 2


def test_exposures_must_all_find_a_group() -> None:
    assert wins("FF 2222B 3333B", "1111B, NNN") == []
    assert wins("FF 2222B 333B", "1111B, 3333C") == []


# -- where jokers may go -----------------------------------------------------------------------


def test_the_natural_winds_and_year_hand() -> None:
    assert wins("NEWS 2026D 1111B 22B") == ["n1"]


@pytest.mark.parametrize(
    "concealed",
    [
        "J E W S 2026D 1111B 22B",  # a joker for North in NEWS
        "NEWS 202D J 1111B 22B",  # for the 6 of the year
        "NEWS 22D 6D J 1111B 22B",  # for the year's Soap
        "NEWS 2026D 1111B 2B J",  # in the pair
    ],
)
def test_jokers_never_in_news_years_or_pairs(concealed: str) -> None:
    assert "n1" not in wins(concealed)


def test_a_joker_in_the_kong_is_fine() -> None:
    assert wins("NEWS 2026D 111B J 22B") == ["n1"]


def test_jokers_never_in_singles() -> None:
    assert wins("123B 4444B 5555B FFF") == ["s1"]
    assert wins("13B J 4444B 5555B FFF") == []
    assert wins("123B 444B J 5555B FFF") == ["s1"]


def test_a_joker_may_stand_in_the_pung_next_to_the_single() -> None:
    # three natural 1s: one is the single, two and the joker are the pung
    assert wins("FF 111B J 2222B 3333B") == ["k2", "k1"]


def test_a_concealed_kong_may_be_all_jokers() -> None:
    assert wins("FF 1111B 2B JJJ 3333B") == ["k2", "k1"]
    assert wins("FF 1111B JJJJ 3333B") == ["k2", "k1"]


def test_a_concealed_pung_may_be_all_jokers_in_a_concealed_hand() -> None:
    assert wins("FFF JJJ 222B 333B 44B") == ["c1"]
    assert wins("JJJ 111B 222B 333B 44B") == ["c1"]


def test_an_exposure_holds_at_least_one_natural() -> None:
    with pytest.raises(InvalidInput, match="at least one natural"):
        Exposure(parse_tile("1B"), 4, 4)
    with pytest.raises(InvalidInput, match="one tile repeated, plus jokers"):
        Exposure.parse("JJJJ")
    with pytest.raises(InvalidInput):
        Exposure(JOKER, 3)
    with pytest.raises(InvalidInput, match="3 to 6 tiles"):
        Exposure(NORTH, 2)
    with pytest.raises(InvalidInput, match="3 to 6 tiles"):
        Exposure(NORTH, 7)
    with pytest.raises(InvalidInput, match="one tile repeated"):
        Exposure.parse("555B F")
    assert Exposure.parse("3B 3B J") == Exposure(parse_tile("3B"), 3, 1)
    assert str(Exposure.parse("NNN J")) == "NNN J"


def test_player_hand_notation() -> None:
    seat = hand("FF 2222B", "111B J, NNNN")
    assert seat.size == 6 + 4 + 4
    assert seat.exposures == (Exposure(parse_tile("1B"), 4, 1), Exposure(NORTH, 4))
    assert str(seat) == "2222B FF | exposed 111B J, NNNN"


def test_only_fourteen_tiles_win() -> None:
    assert wins("FF 1111B 2222B 333B") == []
    assert wins("FF 1111B 2222B 3333B 3C") == []


# -- best first: value and the jokerless bonus -------------------------------------------------


def test_best_score_first_and_jokerless_doubles() -> None:
    found = MATCHER.mahjong(hand("FF 1111B 2222B 3333B"))
    assert [(m.hand.id, m.jokerless, m.score_value) for m in found] == [
        ("k2", True, 60), ("k1", True, 50)]


def test_a_joker_loses_the_doubling() -> None:
    found = MATCHER.mahjong(hand("FF 1111B 2222B 333B J"))
    assert [(m.hand.id, m.jokers, m.jokerless, m.score_value) for m in found] == [
        ("k2", 1, False, 30), ("k1", 1, False, 25)]


def test_singles_and_pairs_never_double() -> None:
    found = match("sp", "11223344556677D")
    assert found.jokerless and found.jokers == 0
    assert found.score_value == 50


def test_score_not_card_value_decides_the_order() -> None:
    # pp is worth 50 and never doubles; kk is worth 30 and doubles to 60 without jokers.
    found = ORDER.mahjong(hand("1111B 2222B 3333B 44C"))
    assert [(m.hand.id, m.score_value) for m in found] == [("kk", 60), ("k2", 60), ("pp", 50)]
    with_joker = ORDER.mahjong(hand("111B J 2222B 3333B 44C"))
    assert [(m.hand.id, m.score_value) for m in with_joker] == [("kk", 30), ("k2", 30)]


# -- flowers as jokers -------------------------------------------------------------------------


def test_flowers_stand_in_only_where_the_card_says() -> None:
    found = match("fw", "FFFF 555B 666B 77B 88B")
    assert found.jokers == 0 and found.flowers_as_jokers == 2
    assert not found.jokerless and found.score_value == 30
    natural = match("fw", "FF 5555B 6666B 77B 88B")
    assert natural.jokerless and natural.score_value == 60
    assert wins("FFF 555B J 666B 77B 88B") == ["fw"]


def test_flowers_never_stand_in_for_pairs_or_other_groups() -> None:
    assert wins("FFF 5555B 6666B 7B 88B") == []
    assert "k1" not in wins("FFF 1111B 2222B 333B")


def test_flowers_never_stand_in_inside_an_exposure() -> None:
    assert wins("FFF 666B 77B 88B", "5555B") == ["fw"]
    assert wins("FF F 666B 77B 88B", "555B J") == ["fw"]


def test_a_flowers_wild_group_may_be_all_flowers_and_jokers() -> None:
    assert wins("FF FF JJ 6666B 77B 88B") == ["fw"]


# -- nearest ---------------------------------------------------------------------------------


def test_nearest_with_an_exposure_is_exact() -> None:
    found = near("F 22C 333C J N 99D", "1111C")
    assert list(found) == ["k1", "n1"], "concealed hands and hands without a kong of 1s go"
    k1 = found["k1"]
    assert k1.away == 3
    assert k1.need_natural == tiles("F")
    assert k1.need_any == tiles("2C 3C")
    assert k1.unused == tiles("N 99D")
    n1 = found["n1"]
    assert n1.away == 7
    assert n1.need_natural == tiles("226B 0 E W S")
    assert n1.need_any == ()
    assert n1.unused == (*tiles("333C 99D F"), JOKER)


def test_nearest_without_exposures_includes_concealed_hands() -> None:
    found = near("F 1111C 22C 333C J N 99D")
    assert [(h, n.away) for h, n in found.items()][:4] == [
        ("k2", 3), ("k1", 3), ("c1", 4), ("n1", 7)]
    c1 = found["c1"]
    assert c1.need_natural == tiles("44C")
    assert c1.need_any == tiles("2C F")
    assert c1.unused == tiles("1C 99D N")
    assert found["sp"].away == 8
    assert set(found) == {"k1", "k2", "s1", "n1", "fw", "sp", "c1"}


def test_nearest_away_counts_what_the_jokers_do_not_cover() -> None:
    found = near("FF 1111B 2222B JJ")
    assert found["k1"].away == 2 and found["k1"].need_any == tiles("33B")
    assert found["k2"].away == 2
    assert found["s1"].away > 2


def test_nearest_is_zero_for_a_winner_and_limits_its_count() -> None:
    best = MATCHER.nearest(hand("FF 1111B 2222B 3333B"), count=2)
    assert [(n.hand.id, n.away) for n in best] == [("k2", 0), ("k1", 0)]
    assert best[0].need_natural == best[0].need_any == best[0].unused == ()


def test_nearest_ways_per_hand_lists_several_suits_of_one_hand() -> None:
    """With `per_hand` 3, a hand whose suits are equally near shows up once per suit (the
    nearest first, in card order), where by default its first suit alone stands for it."""
    tiles_ = hand("FF 11B 11C 11D 2B 2C 2D 9D")
    assert [n.hand.id for n in MATCHER.nearest(tiles_, 3)] == ["c1", "k2", "k1"]
    ways = MATCHER.nearest(tiles_, 7, per_hand=3)
    assert [n.hand.id for n in ways] == ["c1", "c1", "c1", "k2", "k2", "k2", "k1"]
    assert [n.target[1] for n in ways[:3]] == [tiles("111B"), tiles("111C"), tiles("111D")]
    assert all(n.away == 9 for n in ways)
    assert MATCHER.nearest(tiles_, 4, per_hand=1) == MATCHER.nearest(tiles_, 4)


def test_nearest_with_exposures_fitting_nothing_is_empty() -> None:
    assert MATCHER.nearest(hand("FF", "9999D")) == []


# -- waits -----------------------------------------------------------------------------------


def test_waits_name_every_tile_and_hand() -> None:
    assert waits("FF 1111B 2222B 333B") == {"3B": {"k1", "k2"}, "J": {"k1", "k2"}}
    assert waits("FF 111B 2222B 3333B") == {"1B": {"k1", "k2"}, "J": {"k1", "k2"}}


def test_waits_with_an_exposure() -> None:
    assert waits("FF 2222B 3333B", "111B") == {"1B": {"k2"}}


def test_a_single_waits_for_its_natural_tile_only() -> None:
    assert waits("12B 4444B 5555B FFF") == {"3B": {"s1"}}


def test_waits_for_a_flower_that_stands_in() -> None:
    assert waits("FF 555B 6666B 77B 88B") == {"5B": {"fw"}, "F": {"fw"}, "J": {"fw"}}


def test_no_waits_when_nothing_completes_or_size_is_wrong() -> None:
    assert waits("FF 1111B 2222B 99D N") == {}
    assert waits("FF 1111B 2222B 3333B") == {}
    assert waits("FF 1111B 2222B 33B") == {}


# -- what a set can supply --------------------------------------------------------------------

SUPPLY = CardMatcher(load_card("""\
card: Supply Test
year: 2026
[Soap]
y1  Ya 00 DDa 1111b 22b = 30 X  -- in Dots: five natural Soaps, more than a set holds
y2  0000 Ya 1111b 22b   = 30 X  -- five Soaps, one of them natural: jokers make up the rest
"""))


def test_hints_leave_out_variations_no_set_can_make() -> None:
    """y1 in Dots (2D 0 2D 6D, 00, the Dots' dragon 00) needs five natural Soaps: with all
    four in hand it is not one tile away, nor waiting for a Soap. Its nearest real variation
    is in Craks, five tiles away; only y2 waits (for a joker)."""
    held = hand("2D 2D 6D 0000 1111B 22B")
    found = {n.hand.id: n for n in SUPPLY.nearest(held, count=5)}
    assert found["y1"].away == 5
    assert found["y1"].need_natural == tiles("22C 6C RR")
    assert {format_tiles([w.tile]): {h.id for h in w.hands}
            for w in SUPPLY.waits(held)} == {"J": {"y2"}}


def test_a_wait_needs_a_tile_the_set_still_has() -> None:
    """y2 is real (four natural Soaps and a joker), but with all four Soaps in hand only a
    joker completes it: there is no fifth Soap to wait for."""
    held = hand("0000 2C 2C 6C 1111B 22B")
    assert [n.away for n in SUPPLY.nearest(held, count=1)] == [1]
    assert [format_tiles([w.tile]) for w in SUPPLY.waits(held)] == ["J"]


# -- dead hands and exposures ------------------------------------------------------------------


def test_every_hand_is_possible_at_the_start() -> None:
    assert [h.id for h in MATCHER.possible_hands([], visible(""))] == [
        "k1", "k2", "s1", "n1", "fw", "sp", "c1"]


def test_an_exposure_narrows_the_possible_hands() -> None:
    kong = [Exposure.parse("1111C")]
    assert [h.id for h in MATCHER.possible_hands(kong, visible("1111C"))] == ["k1", "n1"]


def test_discards_kill_the_last_hand() -> None:
    # After exposing 1111C only k1 (FF 1111C 2222C 3333C) and n1 (NEWS Ya 1111C 22C) remain.
    # Seven flowers gone: k1 can never get its natural pair of flowers. All four 2C gone:
    # n1 can never get its natural pair of 2C.
    kong = [Exposure.parse("1111C")]
    seen = visible("1111C 2222C FFFFFFF")
    assert MATCHER.possible_hands(kong, seen) == []
    assert MATCHER.is_dead(kong, seen)


def test_jokers_still_save_a_kong() -> None:
    # With four 2C gone, k1's kong of 2C can still be four jokers; n1's pair cannot.
    kong = [Exposure.parse("1111C")]
    seen = visible("1111C 2222C FFF")
    assert [h.id for h in MATCHER.possible_hands(kong, seen)] == ["k1"]
    assert not MATCHER.is_dead(kong, seen)
    assert not MATCHER.is_dead(kong, visible("1111C 2222C FFF JJJJ"))
    assert MATCHER.is_dead(kong, visible("1111C 2222C FFF JJJJJ")), "only 3 jokers are left"


def test_a_hand_found_possible_is_judged_again_as_more_tiles_are_seen() -> None:
    # The matcher first tries the variation it last found possible: each way it can stop
    # being possible must still be seen (a natural pair gone, flowers short, jokers short).
    card = "card: T\n[S]\nw1 FF 5555a^ 66a 7777a 88a = 30 X\n"
    pairs = CardMatcher(load_card(card))
    assert not pairs.is_dead([], visible(""))
    assert not pairs.is_dead([], visible("6666B 6666C"))
    assert pairs.is_dead([], visible("6666B 6666C 6666D")), "every pair of 6s is gone"
    flowers = CardMatcher(load_card(card))
    assert not flowers.is_dead([], visible(""))
    assert not flowers.is_dead([], visible("5555B 5555C 5555D JJJJJJJJ FF")), "FF and 4 of 6"
    assert flowers.is_dead([], visible("5555B 5555C 5555D JJJJJJJJ FFF")), "5 flowers: 1 short"
    jokers = CardMatcher(load_card(card))
    assert not jokers.is_dead([], visible(""))
    assert not jokers.is_dead([], visible("5555B 5555C 5555D JJJJ FFFFFF")), "2 F, 4 J"
    assert jokers.is_dead([], visible("5555B 5555C 5555D JJJJJ FFFFFF")), "3 jokers left"


def test_can_expose_only_what_some_hand_still_uses() -> None:
    seat = hand("FF 2222C 333C")
    assert MATCHER.can_expose(seat, Exposure.parse("1111C"))
    assert MATCHER.can_expose(seat, Exposure.parse("111B"))  # k2's pung
    assert MATCHER.can_expose(seat, Exposure.parse("111B J"))
    assert MATCHER.can_expose(seat, Exposure.parse("55B JJ"))  # fw: jokers, not flowers
    assert MATCHER.can_expose(seat, Exposure.parse("FFF"))  # s1
    assert not MATCHER.can_expose(seat, Exposure.parse("NNN"))  # NEWS is not a pung
    assert not MATCHER.can_expose(seat, Exposure.parse("9999B"))
    assert not MATCHER.can_expose(seat, Exposure.parse("FFFF"))
    assert not MATCHER.can_expose(seat, Exposure.parse("444B"))  # only c1 (concealed) has 4s


def test_can_expose_with_earlier_exposures_and_discards() -> None:
    seat = hand("FF 222C 333C", "1111C")
    assert MATCHER.can_expose(seat, Exposure.parse("2222C"))
    assert not MATCHER.can_expose(seat, Exposure.parse("222C")), "k2 left with the kong of 1s"
    assert not MATCHER.can_expose(seat, Exposure.parse("NNN"))
    assert not MATCHER.can_expose(hand("FF 2222C 333C"), Exposure.parse("1111C"),
                                  visible("1111C 2222C FFFFFFF"))


def test_no_hand_is_possible_with_a_jokers_exposure_on_a_no_joker_group() -> None:
    card = CardMatcher(load_card("card: T\n[S]\nh1 FF 2222a! 4444a 6666a = 30 X\n"))
    assert card.can_expose(hand(""), Exposure.parse("2222B"))
    assert not card.can_expose(hand(""), Exposure.parse("222B J"))
    assert card.can_expose(hand(""), Exposure.parse("444B J"))
    assert [m.hand.id for m in card.mahjong(hand("FF 4444B 6666B", "2222B"))] == ["h1"]
    assert card.mahjong(hand("FF 4444B 6666B", "222B J")) == []


def test_flower_supply_counts_for_flowers_wild_groups() -> None:
    # After exposing 6666B only fw is left: FF, 5555B (flowers may stand in), 77B, 88B.
    kong = [Exposure.parse("6666B")]
    assert [h.id for h in MATCHER.possible_hands(kong, visible("6666B"))] == ["fw"]
    no_fives = visible("6666B 5555B JJJJJJJJ")
    assert [h.id for h in MATCHER.possible_hands(kong, no_fives)] == ["fw"], "flowers, 4 of 8"
    fewer = visible("6666B 5555B JJJJJJJJ FF")
    assert [h.id for h in MATCHER.possible_hands(kong, fewer)] == ["fw"], "2 for FF, 4 for 5s"
    assert MATCHER.is_dead(kong, visible("6666B 5555B JJJJJJJJ FFF")), "5 flowers: 1 short"
    assert not MATCHER.is_dead(kong, visible("6666B 5555B JJJJJJJ FFF")), "a joker helps"
