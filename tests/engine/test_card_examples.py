"""Every hand of every card: generated winners win, and near misses do not.

For each card file under `data/cards/` and the fixture card (which uses every language
feature), for each hand and each variation (an evenly spread sample when a hand has many):

* every example from `winning_examples` is reported by `CardMatcher.mahjong` with that hand;
* near misses are not: a joker in a pair, single, year, NEWS or no-joker group; one group
  moved to another suit; a concealed hand with an exposure.

A near miss is built blindly, so once in a while it happens to make another variation of the
same hand (moving a joker can turn a pair of 5s plus a kong of 5s into something legal). The
reference in conftest decides what the right answer is for each candidate, the matcher must
agree with it every time, and every hand must have at least one true miss of each kind that
applies to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

from bot.engine.cards import Card, Hand, load_card
from bot.engine.cards.compile import TileGroup, Variation
from bot.engine.cards.examples import (
    exposed_example,
    joker_example,
    natural_example,
    near_miss,
    winning_examples,
)
from bot.engine.errors import CardError
from bot.engine.matcher import CardMatcher, Exposure, PlayerHand
from bot.engine.tiles import (
    FLOWER,
    JOKER,
    STANDARD_COUNTS,
    SUIT_DRAGON,
    Suit,
    format_tiles,
    is_suited,
    parse_tiles,
    rank_of,
    suit_of,
    suited,
)
from tests.reached import must_reach

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = tuple(sorted((ROOT / "data" / "cards").glob("*.jongg")))
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "features.jongg"
CARD_FILES = (*SHIPPED, FIXTURE)
#: Variations checked per hand; hands with more are sampled evenly (first and last included).
MOST_VARIATIONS = 6


def sample(count: int, most: int = MOST_VARIATIONS) -> list[int]:
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


@cache
def compiled(path: Path) -> tuple[Card, CardMatcher]:
    card = load_card(path.read_bytes())
    return card, CardMatcher(card)


def _hand_params() -> list[object]:
    params: list[object] = []
    for path in CARD_FILES:
        try:
            card = load_card(path.read_bytes())
        except CardError:
            continue  # test_card_loads_without_problems reports it
        params.extend(pytest.param(path, hand.id, id=f"{path.stem}:{hand.id}")
                      for hand in card.hands)
    return params


HAND_PARAMS = _hand_params()


def variations_of(matcher: CardMatcher, hand: Hand) -> list[Variation]:
    index = matcher.card.hands.index(hand)
    return [v for v in matcher.variations if v.hand_index == index]


def ids(matcher: CardMatcher, hand: PlayerHand) -> list[str]:
    return [match.hand.id for match in matcher.mahjong(hand)]


def same(hand: PlayerHand | None, concealed: str, exposed: str = "") -> bool:
    """`hand` holds exactly these tiles (in any order) and these exposures."""
    if hand is None:
        return False
    wanted = PlayerHand.parse(concealed, exposed)
    return (sorted(hand.concealed) == sorted(wanted.concealed)
            and sorted(hand.exposures, key=str) == sorted(wanted.exposures, key=str))


def tile_use(hand: PlayerHand) -> Counter[int]:
    used = Counter(hand.concealed)
    for exposure in hand.exposures:
        used.update(exposure.tiles)
    return used


# -- the card files ----------------------------------------------------------------------------


def test_the_project_ships_cards() -> None:
    names = {path.name for path in SHIPPED}
    assert {"jongg-original.jongg", "jongg-teaching.jongg"} <= names


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: p.name)
def test_card_loads_without_problems(path: Path) -> None:
    try:
        card = load_card(path.read_bytes())
    except CardError as error:
        pytest.fail(f"{path.name}: " + "; ".join(str(p) for p in error.problems))
    assert card.name and card.hands
    assert len({hand.id for hand in card.hands}) == len(card.hands)


def test_fixture_card_uses_every_feature() -> None:
    text = FIXTURE.read_text()
    for feature in (" or ", "|", "!", "^", "=2", "@B", "Ya", "W1Na", "DDDa", "0", "NEWS",
                    "shift=any", "shift=even", "jokers=no", "flowers=wild", "= 50 C",
                    "11111a", "111111a", "FFFFFF", "RRR", "GGG"):
        assert feature in text, feature


# -- every hand, every variation ---------------------------------------------------------------


def _with_suit(group: TileGroup, suit: Suit) -> tuple[int, ...] | None:
    """The group's tiles moved to another suit (its numbers and its own dragon)."""
    suited_tiles = [kind for kind in group.tiles if is_suited(kind)]
    if not suited_tiles:
        return None
    old = suit_of(suited_tiles[0])
    if old == suit:
        return None
    moved = []
    for kind in group.tiles:
        if is_suited(kind):
            moved.append(suited(suit, rank_of(kind)))
        elif kind == SUIT_DRAGON[old] and any(not is_suited(k) for k in group.tiles):
            moved.append(SUIT_DRAGON[suit])
        else:
            moved.append(kind)
    return tuple(moved)


def _replace(hand: PlayerHand, old: Sequence[int], new: Sequence[int]) -> PlayerHand | None:
    tiles = list(hand.concealed)
    for kind in old:
        if kind not in tiles:
            return None
        tiles.remove(kind)
    return PlayerHand(tuple(sorted([*tiles, *new])), hand.exposures)


def _joker_misses(variation: Variation, base: PlayerHand,
                  with_jokers: PlayerHand | None) -> list[PlayerHand]:
    """A joker put into each group where jokers may not go (in place of one of its tiles),
    and the same with a joker taken out of a joker-able group of `with_jokers`."""
    misses: list[PlayerHand] = []
    moved_from = [g.kind for g in variation.groups if g.jokers_ok]
    for group in variation.groups:
        if group.jokers_ok:
            continue
        for kind in dict.fromkeys(group.tiles):
            if kind in base.concealed:
                misses.append(near_miss(base, remove=kind, add=JOKER))
            if with_jokers is not None and JOKER in with_jokers.concealed and moved_from:
                back = near_miss(with_jokers, remove=JOKER, add=moved_from[0])
                if kind in back.concealed:
                    misses.append(near_miss(back, remove=kind, add=JOKER))
    return misses


def _suit_misses(variation: Variation, base: PlayerHand) -> list[PlayerHand]:
    misses = []
    for group in variation.groups:
        for suit in Suit:
            moved = _with_suit(group, suit)
            if moved is None:
                continue
            present = [k for k in group.tiles if k in base.concealed]
            swapped = _replace(base, group.tiles, moved)
            if swapped is None:  # some of the group is jokers: move only its naturals
                swapped = _replace(base, present, [moved[group.tiles.index(k)]
                                                   for k in present])
            if swapped is not None and swapped != base:
                misses.append(swapped)
    return misses


def _exposed_misses(variation: Variation, base: PlayerHand) -> list[PlayerHand]:
    misses = []
    for group in variation.groups:
        if not (group.identical and group.size >= 3):
            continue
        naturals = min(base.concealed.count(group.kind), group.size)
        jokers = group.size - naturals
        if naturals == 0 or jokers > base.concealed.count(JOKER):
            continue
        exposed = _replace(base, [group.kind] * naturals + [JOKER] * jokers, [])
        assert exposed is not None
        misses.append(PlayerHand(exposed.concealed, (Exposure(group.kind, group.size, jokers),)))
    return misses


def _sampled(path: Path, hand_id: str) -> tuple[Hand, CardMatcher, list[Variation],
                                                 list[Variation]]:
    card, matcher = compiled(path)
    hand = card.hand(hand_id)
    variations = variations_of(matcher, hand)
    assert variations
    return hand, matcher, variations, [variations[i] for i in sample(len(variations))]


@pytest.mark.parametrize(("path", "hand_id"), HAND_PARAMS)
def test_every_example_wins_with_its_hand(path: Path, hand_id: str, reference: type) -> None:
    hand, matcher, _, chosen = _sampled(path, hand_id)
    failures: list[str] = []
    for variation in chosen:
        examples = winning_examples(variation, hand)
        assert examples, f"{hand_id}: no example for {[str(g) for g in variation.groups]}"
        for example in examples:
            shown = f"{hand_id}: {example}"
            assert example.size == 14, shown
            use = tile_use(example)
            assert all(use[kind] <= STANDARD_COUNTS[kind] for kind in use), shown
            assert reference.wins(variation, example, hand.concealed), shown
            found = ids(matcher, example)
            if hand_id not in found:
                failures.append(f"{example} gives {found}")
        # A pung or kong made entirely of jokers, whenever the set allows one.
        pungs_and_kongs = [g for g in variation.groups if g.jokers_ok and g.size in (3, 4)]
        if pungs_and_kongs and natural_example(variation) is not None:
            jokers = joker_example(variation)
            assert jokers is not None and jokers in examples
            assert jokers.concealed.count(JOKER) >= 3, f"{hand_id}: {jokers}"
    assert not failures, f"{hand_id}: examples not reported: " + "; ".join(failures)


@pytest.mark.parametrize(("path", "hand_id"), HAND_PARAMS)
def test_near_misses_are_not_reported(path: Path, hand_id: str, reference: type) -> None:
    hand, matcher, variations, chosen = _sampled(path, hand_id)
    true_misses: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    failures: list[str] = []
    for variation in chosen:
        base = natural_example(variation) or joker_example(variation)
        assert base is not None
        with_jokers = joker_example(variation)
        candidates = {
            "joker": _joker_misses(variation, base, with_jokers),
            "suit": _suit_misses(variation, base),
            "exposed": _exposed_misses(variation, base) if hand.concealed else [],
        }
        for kind, misses in candidates.items():
            for miss in misses:
                tried[kind] += 1
                expected = reference.hand_wins(variations, miss, hand.concealed)
                got = hand_id in ids(matcher, miss)
                if got != expected:
                    failures.append(f"{kind} near miss {miss}: matcher {got}, "
                                    f"reference {expected}")
                true_misses[kind] += not expected
    assert not failures, f"{hand_id}: " + "; ".join(failures[:5])
    for kind in tried:
        assert true_misses[kind] > 0, f"{hand_id}: no {kind} near miss was a real miss"


# -- the examples themselves -------------------------------------------------------------------


@cache
def fixture() -> tuple[Card, CardMatcher]:
    return compiled(FIXTURE)


def first_variation(hand_id: str, tiles: str | None = None) -> tuple[Hand, Variation]:
    card, matcher = fixture()
    hand = card.hand(hand_id)
    variations = variations_of(matcher, hand)
    if tiles is None:
        return hand, variations[0]
    wanted = sorted(parse_tiles(tiles))
    for variation in variations:
        if sorted(k for g in variation.groups for k in g.tiles) == wanted:
            return hand, variation
    raise AssertionError(f"{hand_id} has no variation {tiles}")


def test_three_examples_for_an_exposed_hand() -> None:
    hand, variation = first_variation("l1", "FF 1111B 1111C 1111D")
    natural, jokers, exposed = winning_examples(variation, hand)
    assert same(natural, "FF 1111B 1111C 1111D")
    # one kong entirely of jokers, one joker in each other kong
    assert same(jokers, "FF 111C 111D JJJJJJ")
    assert same(exposed, "FF", "111B J, 111C J, 111D J")
    assert winning_examples(variation, hand) == (natural, jokers, exposed)


def test_examples_are_deterministic() -> None:
    card, matcher = fixture()
    first = [winning_examples(v, card.hands[v.hand_index]) for v in matcher.variations]
    again = [winning_examples(v, card.hands[v.hand_index]) for v in matcher.variations]
    assert first == again


def test_concealed_hands_get_no_exposed_example() -> None:
    hand, variation = first_variation("c2")
    assert hand.concealed
    assert exposed_example(variation, hand) is None
    examples = winning_examples(variation, hand)
    assert all(not example.exposures for example in examples)
    assert len(examples) == 2


def test_a_concealed_pung_of_jokers() -> None:
    _, variation = first_variation("c2", "FFF 111B 222B 333B GG")
    # the flowers' pung is all jokers; each other pung has one
    assert same(joker_example(variation), "11B 22B 33B GG JJJJJJ")


def test_singles_and_pairs_have_only_the_natural_example() -> None:
    hand, variation = first_variation("c1")
    assert winning_examples(variation, hand) == (natural_example(variation),)
    assert joker_example(variation) is None


def test_jokers_no_hand_has_no_joker_example_but_natural_exposures() -> None:
    hand, variation = first_variation("p3", "NNN SSS 1111B 2222B")
    assert joker_example(variation) is None
    natural, exposed = winning_examples(variation, hand)
    assert same(natural, "NNN SSS 1111B 2222B")
    assert same(exposed, "", "NNN, SSS, 1111B, 2222B")


def test_quints_need_jokers_and_have_no_natural_example() -> None:
    hand, variation = first_variation("q1", "11111B 22222C 3333D")
    assert natural_example(variation) is None
    jokers = joker_example(variation)
    assert same(jokers, "1111B 2222C JJJJJJ")
    assert same(exposed_example(variation, hand), "", "1111B J, 2222C J, 333D J")


def test_sextet_of_one_number_uses_two_jokers() -> None:
    _, variation = first_variation("s1", "FFFFFF 111111B 11C")
    jokers = joker_example(variation)
    assert jokers is not None
    assert Counter(jokers.concealed)[JOKER] >= 2
    assert Counter(jokers.concealed)[parse_tiles("1B")[0]] <= 4


def test_flowers_stand_in_where_the_card_says() -> None:
    hand, variation = first_variation("p2", "FF 3333B 6666C 9999D")
    jokers = joker_example(variation)
    assert jokers is not None
    assert Counter(jokers.concealed)[FLOWER] > 2, format_tiles(jokers.concealed)
    exposed = exposed_example(variation, hand)
    assert exposed is not None
    assert all(e.kind != FLOWER and JOKER in e.tiles for e in exposed.exposures)


def test_year_and_news_stay_natural_in_every_example() -> None:
    hand, variation = first_variation("y1", "FF 2026B 222C 222D 22D")
    for example in must_reach(winning_examples(variation, hand), "an example of y1"):
        natural = Counter(example.concealed)
        assert natural[parse_tiles("0")[0]] == 1 and natural[parse_tiles("6B")[0]] == 1
        assert natural[parse_tiles("2B")[0]] == 2 and natural[parse_tiles("2D")[0]] >= 2
    hand, variation = first_variation("p6")
    for example in must_reach(winning_examples(variation, hand), "an example of p6"):
        assert set(parse_tiles("NEWS F")) <= set(example.concealed)


def test_near_miss_takes_one_tile_out_or_swaps_it() -> None:
    winner = PlayerHand.parse("1111B 1111C 111D FF J")
    assert near_miss(winner) == PlayerHand.parse("111B 1111C 111D FF J")
    assert same(near_miss(winner, remove=JOKER), "FF 1111B 1111C 111D")
    assert same(near_miss(winner, remove=FLOWER, add=JOKER), "F 1111B 1111C 111D JJ")
    exposed = PlayerHand.parse("FF", "111B J")
    assert near_miss(exposed, add=JOKER).exposures == exposed.exposures
    with pytest.raises(ValueError):
        near_miss(winner, remove=parse_tiles("9D")[0])
    with pytest.raises(ValueError):
        near_miss(PlayerHand.parse("JJ", "111B J"))
