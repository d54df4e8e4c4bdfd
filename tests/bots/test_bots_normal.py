"""The Normal bot's decisions on views built by hand, and over seeded games: it wins when
it can, keeps what its nearest hands use, never passes a joker, calls only what helps, plans
two racks together, beats the random player, and repeats itself given the same seed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from bots_support import discard_options, make_view, small_card

from bot.bots import NormalPlayer
from bot.bots.simulate import simulate
from bot.engine.game import (
    SIAMESE,
    STANDARD,
    Call,
    CallMahjong,
    Discard,
    Exchange,
    Give,
    Mahjong,
    Offer,
    Option,
    Pass,
    Phase,
    TileChoice,
    Vote,
)
from bot.engine.game.rules import ROYALE, ROYALE_3, RuleSet
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.engine.tiles import GREEN, JOKER, NORTH, parse_tile, parse_tiles, standard_counts
from bot.library import shipped_card


def _bot(seed: int = 1) -> NormalPlayer:
    return NormalPlayer(small_card(), standard_counts(), seed)


# -- Mah Jongg -------------------------------------------------------------------------------


def test_declares_mahjong_on_its_turn_whatever_else_it_may_do() -> None:
    view = make_view("111 222 333 444 55B")
    options = [*discard_options(view), Option(Mahjong(0))]
    assert _bot().choose(view, options) == Mahjong(0)


def test_claims_a_discard_for_mahjong() -> None:
    view = make_view("111 222 333 444 5B", seat=1, phase=Phase.CLAIM, claim=(0, "5B"))
    options = [Option(CallMahjong(1)), Option(Pass(1)),
               Option(Call(1, parse_tile("5B"), 3, 2))]
    assert _bot().choose(view, options) == CallMahjong(1)


def test_prefers_both_racks_then_the_best_paying_siamese_layout() -> None:
    bot = NormalPlayer(shipped_card(), SIAMESE.counts, 1)
    cheap, dear = sorted(shipped_card().hands, key=lambda h: h.value)[::len(
        shipped_card().hands) - 1]
    view = make_view("1B", players=2)
    single = [Option(Mahjong(0, rack=0, hands=(cheap.id,))),
              Option(Mahjong(0, rack=1, hands=(dear.id,)))]
    assert bot.choose(view, single) == Mahjong(0, rack=1, hands=(dear.id,))
    both = Mahjong(0, both=True, hands=(cheap.id, cheap.id))
    assert bot.choose(view, [*single, Option(both)]) == both


# -- discards and passes ---------------------------------------------------------------------


def test_discards_a_tile_its_nearest_hands_do_not_use() -> None:
    view = make_view("111 222 333 44B 9C")
    matcher = CardMatcher(small_card())
    near = matcher.nearest(PlayerHand(view.concealed), 3)
    assert near[0].hand.id == "p1" and parse_tile("9C") in near[0].unused
    action = _bot().choose(view, discard_options(view))
    assert action == Discard(0, parse_tile("9C"))


def test_keeps_jokers_and_throws_them_only_when_nothing_else_is_left() -> None:
    view = make_view("111 222 333B J J 9C 9D N")
    action = _bot().choose(view, discard_options(view))
    assert isinstance(action, Discard) and action.kind != JOKER
    only_jokers = make_view("JJJJ")
    assert _bot().choose(only_jokers, discard_options(only_jokers)) == Discard(0, JOKER)


def test_prefers_throwing_a_tile_already_dead_on_the_table() -> None:
    # 9C and 9D are equally useless; every other 9D is on the table, so it is the safe one.
    view = make_view("111 222 333 44B 9C 9D", discards=[(1, "9D"), (2, "9D"), (3, "9D")])
    assert _bot().choose(view, discard_options(view)) == Discard(0, parse_tile("9D"))


def test_never_passes_a_joker_and_passes_what_it_does_not_need() -> None:
    view = make_view("111 222 333B JJ 9C 9D N", phase=Phase.CHARLESTON)
    passable = tuple(k for k in view.concealed if k != JOKER)
    choice = TileChoice(3, passable)
    action = _bot().choose(view, [Option(Give(0, passable[:3]), choice)])
    assert isinstance(action, Give) and JOKER not in action.kinds
    assert sorted(action.kinds) == sorted(parse_tiles("9C 9D N")) and action.blind == 0


def test_blind_passes_only_rather_than_break_its_hand() -> None:
    view = make_view("111 222 333 444 5B", phase=Phase.CHARLESTON)
    choice = TileChoice(3, view.concealed, blind_max=3)
    action = _bot().choose(view, [Option(Give(0, view.concealed[:3]), choice)])
    assert action == Give(0, (), 3)
    loose = make_view("111 222 333B 9C 9D N S", phase=Phase.CHARLESTON)
    choice = TileChoice(3, loose.concealed, blind_max=3)
    action = _bot().choose(loose, [Option(Give(0, loose.concealed[:3]), choice)])
    assert isinstance(action, Give) and action.blind == 0


def test_votes_to_stop_only_when_close_and_offers_its_spare_tiles() -> None:
    close = make_view("111 222 333 44B 9C", phase=Phase.VOTE)
    far = make_view("1B 3C 5D 7B 9C N E W S R G 0 F", phase=Phase.VOTE)
    votes = [Option(Vote(0, False)), Option(Vote(0, True))]
    assert _bot().choose(close, votes) == Vote(0, True)
    assert _bot().choose(far, votes) == Vote(0, False)
    offers = [Option(Offer(0, n)) for n in range(4)]
    spare_one = make_view("111 222 333 444B 9C", phase=Phase.COURTESY_OFFER)
    assert _bot().choose(spare_one, offers) == Offer(0, 1)


# -- calls and exchanges ---------------------------------------------------------------------


def test_calls_a_tile_that_brings_a_close_hand_closer() -> None:
    four = parse_tile("4B")
    far = make_view("44B 1C 5D 7C 9C E W R G 0 FF", seat=1, phase=Phase.CLAIM,
                    claim=(0, "4B"))
    assert _bot().choose(far, [Option(Pass(1)), Option(Call(1, four, 3))]) == Pass(1), \
        "the pung helps, but the hand is still far"
    view = make_view("111 222 333 44B 5B 9C", seat=1, phase=Phase.CLAIM, claim=(0, "4B"))
    options = [Option(Pass(1)), Option(Call(1, four, 3))]
    assert _bot().choose(view, options) == Call(1, four, 3)
    # With a joker already standing in for the third 4B the call gains nothing.
    joker = make_view("111 222 333 44B J 9C", seat=1, phase=Phase.CLAIM, claim=(0, "4B"))
    options = [Option(Pass(1)), Option(Call(1, four, 3)), Option(Call(1, four, 4, 1))]
    assert _bot().choose(joker, options) == Pass(1)


def test_never_makes_a_call_flagged_as_killing_its_hand() -> None:
    view = make_view("111 222 333 44B 5B 9C", seat=1, phase=Phase.CLAIM, claim=(0, "4B"))
    four = parse_tile("4B")
    options = [Option(Pass(1)), Option(Call(1, four, 3), deadens=True)]
    assert _bot().choose(view, options) == Pass(1)


def test_passes_on_tiles_no_close_hand_wants() -> None:
    view = make_view("111 222 333 44B 5B NN", seat=1, phase=Phase.CLAIM, claim=(0, "N"))
    options = [Option(Pass(1)), Option(Call(1, NORTH, 3))]
    assert _bot().choose(view, options) == Pass(1)


def test_exchanges_a_natural_it_does_not_need_for_a_joker() -> None:
    # South exposed N N J; East holds a spare North and wants jokers for its pungs.
    view = make_view("111 222 333 44B 5B N 9C", exposures={1: ["NN J"]})
    options = [*discard_options(view), Option(Exchange(0, NORTH, 1, 0))]
    assert _bot().choose(view, options) == Exchange(0, NORTH, 1, 0)


def test_plans_two_racks_together_and_swaps_a_tile_neither_rack_uses_for_a_joker() -> None:
    # Split between two racks these tiles are w1 (complete: EEEE RRR 000 7777B) and o5
    # (3333B 55B 33C 55C FF, two 3 Craks short); the Green is spare. Taking the nearest
    # hand first and the rest for the other rack counts them 6 away, not 2, and would turn
    # down the joker.
    view = make_view("3333557777B 3355C EEEE RRRR G 000 FF", players=2,
                     exposures={1: ["GGG J"]})
    view = replace(view, rules="siamese", seats=tuple(replace(seat, dead=(False, False))
                                                      for seat in view.seats))
    bot = NormalPlayer(shipped_card(), SIAMESE.counts, 1)
    assert sorted(bot.target(view)) == ["o5", "w1"]
    swap = Exchange(0, GREEN, 1, 0)
    assert bot.choose(view, [*discard_options(view), Option(swap)]) == swap


# -- over whole games ------------------------------------------------------------------------


def test_beats_the_random_player_clearly() -> None:
    card = shipped_card()
    wins = {"normal": 0, "random": 0}
    for kinds in (("normal", "random", "normal", "random"),
                  ("random", "normal", "random", "normal")):
        report = simulate(STANDARD, card, 8, kinds, seed=3)
        for kind, won in zip(kinds, report.wins_by_seat, strict=True):
            wins[kind] += won
    assert wins["normal"] >= 10
    assert wins["random"] <= 1


def test_is_deterministic_given_the_seed() -> None:
    card = shipped_card()
    first = simulate(STANDARD, card, 2, "normal", seed=9)
    again = simulate(STANDARD, card, 2, "normal", seed=9)
    other = simulate(STANDARD, card, 2, "normal", seed=10)
    assert first.seeds == again.seeds and first.wins_by_seat == again.wins_by_seat
    assert (first.actions, first.turns) == (again.actions, again.turns)
    assert first.seeds != other.seeds


@pytest.mark.parametrize("rules", [SIAMESE, ROYALE, ROYALE_3], ids=lambda r: r.name)
def test_plays_both_racks(rules: RuleSet) -> None:
    report = simulate(rules, shipped_card(), 4, "normal", seed=2)
    assert sum(report.mahjongs_by_seat) > report.mahjong_games, (
        "some player went on after a first Mah Jongg")
