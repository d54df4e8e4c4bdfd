"""The two-player Siamese-style game: the deal, first and second Mah Jongg, both at once,
exposures per rack, dead racks (right, wrong, both), and jokers that stay put."""

from __future__ import annotations

import pytest
from game_cards import engine_card
from game_helpers import NAMES, act, check_invariants, position

from bot.engine.errors import IllegalAction
from bot.engine.game import Exchange, Mahjong, Phase, legal_actions, new_game, view
from bot.engine.game.rules import SIAMESE
from bot.engine.tiles import parse_tile

P1_BAMS = "111B 222B 333B 444B 55B"
WEST = "111C 222C 333C 444C 5C NNN EEE WWW SSS R G"


def test_deal_and_first_pick() -> None:
    state = new_game(SIAMESE, engine_card(), 11, NAMES[:2])
    assert state.phase is Phase.TURN and state.turn is not None and state.turn.seat == 0
    assert [len(seat.concealed) for seat in state.seats] == [28, 27]
    assert len(state.wall) == 152 - 55
    assert len(state.deal.dice) == 1
    kinds = [type(e).__name__ for e in state.opening]
    assert kinds == ["WallBuilt", "Dealt", "Dealt", "PlayBegins", "Drew"]
    check_invariants(state)


def test_first_then_second_mahjong_self_picked() -> None:
    state = position(SIAMESE, (P1_BAMS + " 111D 222D 333D 444D 5D 9C", WEST), wall="6B 5D")
    options = [o.action for o in legal_actions(state, 0)]
    assert options[:2] == [Mahjong(0, rack=0, hands=("p1",)), Mahjong(0, rack=1, hands=("p1",))]
    state, lines = act(state, "East: mahjong hands=p1")
    assert lines == ["East: mahjong p1 groups=111B/222B/333B/444B/55B self-picked"]
    assert state.phase is Phase.TURN and state.turn is not None and state.turn.shown
    assert not any(isinstance(o.action, Mahjong) for o in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="discard to finish the turn"):
        act(state, "East: mahjong rack=2")
    check_invariants(state)
    state, lines = act(state, "East: discard 9C", "West: pass", "West: discard 6B",
                       "East: pass")
    assert lines[-1] == "East: draw 5D"
    assert legal_actions(state, 0)[0].action == Mahjong(0, rack=1, hands=("p1",))
    state, lines = act(state, "East: mahjong rack=2")
    assert lines[0] == "East: mahjong p1 groups=111D/222D/333D/444D/55D rack=2 self-picked"
    assert state.result is not None
    assert [line.text for line in state.result.lines] == [
        "East: first Mah Jongg, hand p1: 25, doubled for jokerless = 50.",
        "East: second Mah Jongg, hand p1: 25, doubled = 50, doubled again for jokerless = 100.",
        "West pays East the difference: 150.",
    ]
    check_invariants(state)


def test_second_mahjong_on_a_discard_costs_the_discarder() -> None:
    state = position(SIAMESE, (P1_BAMS + " 111D 222D 333D 444D 5D 9C", WEST), wall="5D")
    state, lines = act(state, "East: mahjong", "East: discard 9C", "West: pass",
                       "West: discard 5D", "East: call mahjong rack=2")
    assert "East: mahjong p1 groups=111D/222D/333D/444D/55D rack=2 from=West" in lines
    assert state.result is not None and state.result.totals == (150, -20)
    assert state.result.settlement == (170, -170)


def test_both_at_once() -> None:
    state = position(SIAMESE, (P1_BAMS + " 111D 222D 333D 444D 55D", WEST))
    both = Mahjong(0, both=True, hands=("p1", "p1"))
    assert both in [o.action for o in legal_actions(state, 0)]
    state, lines = act(state, "East: mahjong both")
    assert lines[:2] == ["East: mahjong p1 groups=111B/222B/333B/444B/55B self-picked",
                         "East: mahjong p1 groups=111D/222D/333D/444D/55D rack=2 self-picked"]
    assert state.result is not None and state.result.settlement == (200, -200)
    check_invariants(state)


def test_explicit_tiles_and_hand_are_checked() -> None:
    state = position(SIAMESE, (P1_BAMS + " 111D 222D 333D 444D 5D 9C", WEST))
    with pytest.raises(IllegalAction, match="don't make hand k1"):
        act(state, "East: mahjong hands=k1")
    with pytest.raises(IllegalAction, match="don't hold"):
        act(state, "East: mahjong tiles=111B,222B,333B,444B,555B")
    state, lines = act(state, "East: mahjong rack=2 tiles=111B,222B,333B,444B,55B")
    assert lines == ["East: mahjong p1 groups=111B/222B/333B/444B/55B rack=2 self-picked"]


def test_first_mahjong_on_a_claim_then_discard() -> None:
    east = "111B 222B 333B 444B 5B 123C 456C 789C 123D 45D"
    west = "5B 9D NNN EEE WWW SSS RRR GGG 000 FF 8D 7D 6D"
    state, _ = act(position(SIAMESE, (east, west), turn=1), "West: discard 9D")
    assert not any(o.action.__class__.__name__ == "CallMahjong"
                   for o in legal_actions(state, 0))
    state, _ = act(position(SIAMESE, (east, west), turn=1), "West: discard 5B")
    assert legal_actions(state, 0)[0].action.__class__.__name__ == "CallMahjong"
    state, lines = act(state, "East: call mahjong")
    assert lines[-1] == "East: mahjong p1 groups=111B/222B/333B/444B/55B from=West"
    assert state.phase is Phase.TURN and state.turn is not None and state.turn.seat == 0
    check_invariants(state)
    state, lines = act(state, "East: discard 1C")
    assert state.phase is Phase.CLAIM


def test_exposures_belong_to_a_rack() -> None:
    east = "N 123456789B 123456789C 123456789D"
    west = "NN EEE WWW SSS RRR GGG 000 FFFFFF J"
    state, _ = act(position(SIAMESE, (east, west)), "East: discard N")
    racks = {o.action.rack for o in legal_actions(state, 1) if hasattr(o.action, "size")}
    assert racks == {0, 1}
    state, lines = act(state, "West: call pung N rack=2")
    assert lines[-1] == "West: exposed pung N from=East rack=2"
    assert view(state, 0).seats[1].exposures[0].rack == 1
    check_invariants(state)


def test_dead_racks_right_wrong_and_both() -> None:
    east = "123456789B 123456789C 123456789D N"
    west = "EEE WWW SSS RRR GGG 000 12B"
    exposures = {1: [(0, "FF J"), (1, "FFF J")]}
    state = position(SIAMESE, (east, west), exposures=exposures)
    state, lines = act(state, "East: dead West")
    assert lines == ["East: declared-dead West", "West: dead declared"]
    assert state.is_live(1) and state.live_racks(1) == (1,)
    state, lines = act(state, "East: dead West rack=2")
    assert lines[:2] == ["East: declared-dead West rack=2", "West: dead declared rack=2"]
    assert state.result is not None
    assert state.result.lines[0].text == ("West's two hands are both dead: East scores 4 x 25 "
                                          "(the lowest hand on the card) = 100.")
    assert state.result.settlement == (100, -100)


def test_a_wrong_declaration_kills_the_rack_with_exposures() -> None:
    east = "123456789B 123456789C 1234567D"
    west = "EEE WWW SSS RRR GGG 000 123456B N FF"
    state = position(SIAMESE, (east, west), exposures={0: [(1, "NNN")]})
    state, lines = act(state, "East: dead West rack=2")
    assert lines == ["East: declared-dead West rack=2", "East: dead wrong-call rack=2"]
    assert state.live_racks(0) == (0,)
    assert state.turn is not None and state.turn.seat == 0


def test_mahjong_and_dead_rack_leave_the_opponent_playing_alone() -> None:
    east = "111B 222B 333B 44B J 55B 123C 456C 7C 8C F J 9C"
    west = "N F 4B EEE WWW SSS RRR GGG 000 345D 67D 8D"
    state = position(SIAMESE, (east, west), exposures={0: [(1, "NN J")]}, wall="6B 9D 9B")
    # Calling a pung of flowers onto the second rack leaves it no card hand.
    state, lines = act(state, "East: mahjong hands=p1", "East: discard 1C", "West: pass",
                       "West: discard F", "East: call pung F jokers=1 rack=2",
                       "East: discard 9C", "West: pass", "West: dead East rack=2")
    assert lines[-1] == "East: dead declared rack=2"
    assert not state.is_live(0)
    # The Mah Jongg's joker never comes back; the exposure that killed the rack keeps its
    # joker; the valid one gives its joker up.
    exchanges = [o.action for o in legal_actions(state, 1) if isinstance(o.action, Exchange)]
    assert exchanges == [Exchange(1, parse_tile("N"), 0, 0)]
    state, lines = act(state, "West: discard 9D")
    assert lines == ["West: discard 9D", "West: draw 9B"]
    check_invariants(state)
