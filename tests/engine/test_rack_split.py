"""Splitting a two-rack player's tiles between its racks (`bot.engine.rack_split`): scenarios
on the shipped card with a known best split (Siamese-style with one set, Royale-style with
two, exposures on a rack, where the jokers go), the count checked against the reference
matching of `conftest.py`, and the search against every pair of ways there is."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest

from bot.engine.cards.compile import Variation
from bot.engine.game.rules import ROYALE, SIAMESE
from bot.engine.matcher import CARD_KINDS, CardMatcher, Exposure, PlayerHand, matcher_for
from bot.engine.rack_split import Split, shortfall, split_racks
from bot.engine.tiles import BLANK, FLOWER, JOKER, format_tiles, kind_counts, parse_tiles
from bot.library import shipped_card

NO_EXPOSURES: dict[int, tuple[Exposure, ...]] = {0: (), 1: ()}


@pytest.fixture(scope="module")
def siamese() -> CardMatcher:
    return matcher_for(shipped_card(), SIAMESE.counts)


@pytest.fixture(scope="module")
def royale() -> CardMatcher:
    return matcher_for(shipped_card(), ROYALE.counts)


def plans(split: Split) -> list[tuple[str, int, str]]:
    """Each rack's hand, how far it is, and the tiles it keeps."""
    return [(p.near.hand.id, p.near.away, format_tiles(p.keep)) for p in split.plans]


def way_of(matcher: CardMatcher, split: Split, rack: int) -> Variation:
    """The variation a rack's plan aims at."""
    near = split.plans[rack].near
    return next(v for v in matcher.variations
                if matcher.card.hands[v.hand_index] == near.hand
                and tuple(g.tiles for g in v.groups) == near.target)


def check_split(matcher: CardMatcher, pool: Sequence[int], split: Split,
                reference: type) -> None:
    """Every tile is kept by one rack or spare, each rack holds 14 with what it lacks, and
    what the racks lack together is what the reference matching finds for the two ways."""
    kept = Counter(split.spare)
    for plan in split.plans:
        kept.update(plan.keep)
        assert len(plan.keep) + sum(e.size for e in plan.exposures) + plan.near.away == 14
        assert not plan.near.unused
    assert kept == Counter(pool)
    ways = [(way_of(matcher, split, rack), split.plans[rack].exposures) for rack in (0, 1)]
    assert reference.lacking(ways, pool) == split.away
    for rack, plan in enumerate(split.plans):
        assert reference.lacking([ways[rack]], plan.keep) == plan.near.away


def test_a_clear_split_keeps_each_hand_on_its_own_rack(siamese: CardMatcher,
                                                       reference: type) -> None:
    pool = parse_tiles("111B 2222B 333B 9999C NN EEEE WWW 0000 5D")
    best = split_racks(siamese, pool, NO_EXPOSURES)[0]
    assert plans(best) == [("r7", 0, "1112222333B 9999C"), ("w5", 1, "NN EEEE WWW 0000")]
    assert best.spare == parse_tiles("5D")
    assert best.plans[1].near.need_any == parse_tiles("W")
    done = siamese.mahjong(PlayerHand(best.plans[0].keep))
    assert [m.hand.id for m in done] == ["r7"]
    check_split(siamese, pool, best, reference)


def test_the_single_nearest_hand_first_gives_a_worse_pair(siamese: CardMatcher,
                                                          reference: type) -> None:
    pool = parse_tiles("7777B 6666777C 777D WWWW RRR GG 000 9B 1D")
    # Greedy: the nearest hand of all 28 tiles is complete, and what it leaves is 6 away.
    first = siamese.nearest(PlayerHand(pool), 1)[0]
    assert (first.hand.id, first.away) == ("w1", 0)
    rest = list(pool)
    for kind in (Counter(pool) - Counter(first.unused)).elements():
        rest.remove(kind)
    assert len(rest) == 14
    assert siamese.nearest(PlayerHand(tuple(rest)), 1)[0].away == 6
    # Counted together, two hands one away each: the 7s stay together for l2.
    best = split_racks(siamese, pool, NO_EXPOSURES)[0]
    assert best.away == 2
    assert plans(best) == [("l2", 1, "7777B 777C 777D RRR"), ("w1", 1, "6666C WWWW GG 000")]
    assert best.spare == parse_tiles("9B 1D")
    check_split(siamese, pool, best, reference)


@pytest.mark.parametrize("rack", [0, 1])
def test_exposures_stay_on_their_rack(siamese: CardMatcher, reference: type,
                                      rack: int) -> None:
    pool = parse_tiles("7777B 6666777C 777D RRR GG 000 9B 1D")
    racks = {rack: (Exposure.parse("WWWW"),), 1 - rack: ()}
    best = split_racks(siamese, pool, racks)[0]
    exposed = best.plans[rack]
    assert exposed.near.hand.id == "w1" and exposed.exposures == racks[rack]
    assert format_tiles(exposed.keep) == "6666C GG 000"
    assert parse_tiles("WWWW") in exposed.near.groups
    assert best.plans[1 - rack].near.hand.id == "l2"
    assert best.away == 2
    check_split(siamese, pool, best, reference)


def test_an_exposure_that_fits_no_pair_leaves_no_split(siamese: CardMatcher) -> None:
    # No hand of the card has a kong of East and a kong of South.
    racks = {0: (Exposure.parse("EEEE"), Exposure.parse("SSSS")), 1: ()}
    assert split_racks(siamese, parse_tiles("111B 2222B 333B 9999C 5D"), racks) == []


def test_royale_racks_share_two_sets(royale: CardMatcher, reference: type) -> None:
    pool = parse_tiles("EEEEE 7777B 7777C J NN EE WW SS 00 RR GG")
    best = split_racks(royale, pool, NO_EXPOSURES)[0]
    assert plans(best) == [("p1", 0, "NN EE WW SS RR GG 00"), ("q2", 0, "7777B 7777C EEEEE J")]
    for plan in best.plans:
        assert [m.hand.id for m in royale.mahjong(PlayerHand(plan.keep))][:1] == [
            plan.near.hand.id]
    check_split(royale, pool, best, reference)


def test_a_royale_quint_exposed_on_the_second_rack(royale: CardMatcher,
                                                   reference: type) -> None:
    pool = parse_tiles("7777B 7777C J NN EE WW SS 00 RR GG 5D")
    racks = {0: (), 1: (Exposure.parse("EEEEE"),)}
    best = split_racks(royale, pool, racks)[0]
    assert plans(best) == [("p1", 0, "NN EE WW SS RR GG 00"), ("q2", 0, "7777B 7777C J")]
    assert best.spare == parse_tiles("5D")
    check_split(royale, pool, best, reference)


def test_a_joker_completes_a_rack_when_one_can(siamese: CardMatcher, reference: type) -> None:
    # The joker could stand for the 3 Crak no copy is left of (q1's quint) or for the West
    # still to come; in the West's place it makes w5 a Mah Jongg to declare now.
    pool = parse_tiles("FFF 3333D 33B 333C NN EEEE WWW 0000 J 9B 1C")
    best = split_racks(siamese, pool, NO_EXPOSURES)[0]
    assert plans(best) == [("w5", 0, "NN EEEE WWW 0000 J"), ("q1", 2, "33B 333C 3333D FFF")]
    assert best.plans[1].near.need_any == parse_tiles("3C 3C")
    check_split(siamese, pool, best, reference)


def test_jokers_go_where_no_natural_can_come(siamese: CardMatcher, reference: type) -> None:
    # One East and one West can still come for w5, one 3 Crak for q1's quint of five:
    # the joker takes the quint's fifth place, which no natural can fill.
    pool = parse_tiles("FFF 3333D 33B 333C NN EEE WWW 0000 J 9B 5D 1C")
    best = split_racks(siamese, pool, NO_EXPOSURES)[0]
    assert plans(best) == [("w5", 2, "NN EEE WWW 0000"), ("q1", 1, "33B 333C 3333D FFF J")]
    assert best.plans[0].near.need_any == parse_tiles("E W")
    assert best.plans[1].near.need_any == parse_tiles("3C")
    assert parse_tiles("333C J") in best.plans[1].near.groups
    check_split(siamese, pool, best, reference)


def test_several_splits_are_different_pairs_best_first(siamese: CardMatcher) -> None:
    pool = parse_tiles("7777B 6666777C 777D WWWW RRR GG 000 9B 1D")
    found = split_racks(siamese, pool, NO_EXPOSURES, count=4)
    assert len(found) == 4
    pairs = [frozenset(p.near.hand.id for p in split.plans) for split in found]
    assert len(set(pairs)) == 4
    assert [s.away for s in found] == sorted(s.away for s in found)
    assert found[0].away == 2


def test_a_pair_needing_a_tile_face_up_elsewhere_is_not_chosen(siamese: CardMatcher) -> None:
    pool = parse_tiles("111B 2222B 333B 9999C NN EE WW SS 00 RR G 5D")
    best = split_racks(siamese, pool, NO_EXPOSURES)[0]
    assert [(p.near.hand.id, p.near.away) for p in best.plans] == [("r7", 0), ("p1", 1)]
    assert best.plans[1].near.need_natural == parse_tiles("G")
    # With the other three Greens face up, p1 (all pairs, no jokers) can't be made.
    visible = kind_counts(parse_tiles("GGG"))
    best = split_racks(siamese, pool, NO_EXPOSURES, visible=visible)[0]
    assert [(p.near.hand.id, p.near.away) for p in best.plans] == [("r7", 0), ("w3", 3)]
    assert best.plans[1].near.need_any == parse_tiles("R G G")


def test_a_pair_asking_more_than_the_set_holds_is_not_chosen(siamese: CardMatcher) -> None:
    pool = parse_tiles("NN EE WW SS 00 RR GG 222555B 777C 777D 9C 1D")
    best = split_racks(siamese, pool, NO_EXPOSURES)[0]
    assert plans(best) == [("p1", 0, "NN EE WW SS RR GG 00"), ("a4", 2, "222555B 777C 777D")]
    # With the other two Greens face up, p1 and a4 would want four natural Greens between
    # them: each alone can be made, the two together can't.
    visible = kind_counts(parse_tiles("GG"))
    best = split_racks(siamese, pool, NO_EXPOSURES, visible=visible)[0]
    assert [(p.near.hand.id, p.near.away) for p in best.plans] == [("a4", 0), ("w3", 4)]


def test_spare_flowers_stand_in_where_flowers_are_wild(siamese: CardMatcher,
                                                       reference: type) -> None:
    # r5 lets flowers stand in for jokers: two flowers beyond its four fill 333D and 4444C.
    pool = parse_tiles("1D 22D 33D 44C FFFFFF 111B 2222B 333B 9999C 5B")
    best = split_racks(siamese, pool, NO_EXPOSURES)[0]
    assert plans(best) == [("r7", 0, "1112222333B 9999C"), ("r5", 1, "44C 12233D FFFFFF")]
    assert best.plans[1].near.need_any == parse_tiles("4C")
    check_split(siamese, pool, best, reference)


# -- the count and the search, against references --------------------------------------------


def _places(variation: Variation) -> np.ndarray:
    """Places per kind of a way with no exposures: natural-only, joker-able, flower-wild."""
    places = np.zeros((3, CARD_KINDS), dtype=np.int16)
    for group in variation.groups:
        where = 2 if group.flowers_wild else 1 if group.jokers_ok else 0
        for kind in group.tiles:
            places[where, kind] += 1
    return places


def _random_pool(rng: random.Random, counts: Sequence[int], size: int = 28) -> list[int]:
    tiles = [kind for kind, n in enumerate(counts) for _ in range(n) if kind != BLANK]
    return sorted(rng.sample(tiles, size))


def _check_count(first: Variation, second: Variation, pool: Sequence[int],
                 reference: type) -> None:
    held = kind_counts(pool)
    counted = shortfall(_places(first) + _places(second),
                        np.array(held[:CARD_KINDS], dtype=np.int16), held[JOKER])
    assert int(counted) == reference.lacking([(first, ()), (second, ())], pool), (
        format_tiles(pool))


@pytest.mark.parametrize("card", ["jongg-original", "jongg-teaching"])
def test_the_pair_count_is_the_reference_matching(card: str, reference: type) -> None:
    matcher = matcher_for(shipped_card(card), SIAMESE.counts)
    rng = random.Random(5)
    for _ in range(60):
        pool = _random_pool(rng, SIAMESE.counts, rng.choice([14, 27, 28]))
        first, second = rng.sample(matcher.variations, 2)
        _check_count(first, second, pool, reference)
    # Where flowers are wild, flowers beyond the hand's own stand in for its tiles.
    wild = [v for v in matcher.variations if any(g.flowers_wild for g in v.groups)]
    for first in wild[:20]:
        tiles = [kind for group in first.groups for kind in group.tiles]
        for group in first.groups:
            if group.flowers_wild and group.kind != FLOWER:
                tiles.remove(group.kind)
                tiles.append(FLOWER)
        second = rng.choice(matcher.variations)
        _check_count(first, second, [*tiles, *_random_pool(rng, SIAMESE.counts, 6)],
                     reference)


@pytest.mark.parametrize(("card", "rules", "seed"), [
    ("jongg-teaching", SIAMESE, 1), ("jongg-teaching", ROYALE, 2),
    ("jongg-original", SIAMESE, 3)])
def test_the_search_finds_the_best_of_every_pair(card: str, rules: object, seed: int,
                                                 reference: type) -> None:
    counts = ROYALE.counts if rules is ROYALE else SIAMESE.counts
    matcher = matcher_for(shipped_card(card), counts)
    supply = np.array(counts[:CARD_KINDS], dtype=np.int16)
    ways = np.array([_places(v) for v in matcher.variations])
    ways = ways[shortfall(ways, supply, counts[JOKER]) == 0]
    rng = random.Random(seed)
    for _ in range(6):
        pool = _random_pool(rng, counts)
        held = kind_counts(pool)
        naturals = np.array(held[:CARD_KINDS], dtype=np.int16)
        best = 99
        for way in ways:
            pairs = way[None] + ways
            possible = shortfall(pairs, supply, counts[JOKER]) == 0
            best = min(best, int(shortfall(pairs, naturals, held[JOKER])[possible].min()))
        found = split_racks(matcher, pool, NO_EXPOSURES)[0]
        assert found.away == best, format_tiles(pool)
        check_split(matcher, pool, found, reference)
