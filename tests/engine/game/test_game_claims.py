"""The claim window: who answers, priority both ways, exposures with jokers, concealed hands,
dead jokers, sextets, and what a claim needs."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_cards import sextet_card
from game_helpers import act, check_invariants, position

from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.game import Call, CallMahjong, Pass, Phase, legal_actions, view
from bot.engine.game.rules import STANDARD, ClaimWindow
from bot.engine.tiles import parse_tile

# East discards 5B; South could pung it; West wins with it (p1 in Bams).
PUNG_OR_WIN = (
    "666C 777C 888C 999C 5B N",
    "55B 123D 456D 789D NE",
    "111B 222B 333B 444B 5B",
    "123C 456C 789C 1D 2D WS",
)
# A North discard completes South's p2 (111C 222B 333D NNN EE) and North's concealed c1.
TWO_WINNERS = (
    "N 456B 789B 456D 789D 9C",
    "111C 222B 333D NN EE",
    "123B 456C 789C 12D R G",
    "N EE WW SS 44D 55D 66D",
)


def test_mahjong_beats_an_earlier_exposure_claim() -> None:
    state, lines = act(position(STANDARD, PUNG_OR_WIN), "East: discard 5B",
                       "South: call pung 5B", "West: call mahjong", "North: pass")
    assert lines[:5] == ["East: discard 5B", "South: ready", "West: ready", "North: ready",
                         "West: mahjong p1 groups=111B/222B/333B/444B/55B from=East"]
    assert state.phase is Phase.OVER and state.result is not None
    assert state.result.totals == (-100, -50, 200, -50)
    check_invariants(state)


def test_nearest_seat_wins_between_two_mahjongs() -> None:
    state, lines = act(position(STANDARD, TWO_WINNERS), "East: discard N",
                       "North: call mahjong", "West: pass", "South: call mahjong")
    assert "South: mahjong p2 groups=111C/222B/333D/NNN/EE from=East" in lines
    assert state.result is not None and state.result.totals == (-100, 200, -50, -50)


def test_nearest_seat_counts_from_the_discarder() -> None:
    racks = (TWO_WINNERS[2], TWO_WINNERS[1], TWO_WINNERS[0], TWO_WINNERS[3])
    state, lines = act(position(STANDARD, racks, turn=2), "West: discard N",
                       "South: call mahjong", "East: pass", "North: call mahjong")
    assert "North: mahjong c1 groups=NN/EE/WW/SS/44D/55D/66D from=West" in lines
    # A concealed singles-and-pairs hand: 50, never doubled for jokerless.
    assert state.result is not None and state.result.totals == (-50, -50, -100, 200)


def test_exposure_with_jokers_then_the_caller_discards() -> None:
    racks = (PUNG_OR_WIN[0], "JJ 123D 456D 789D NE", "111B 222B 333B 444B 9D", PUNG_OR_WIN[3])
    state, _ = act(position(STANDARD, racks), "East: discard 5B")
    south = [o.action for o in legal_actions(state, 1)]
    assert south == [Pass(1), Call(1, parse_tile("5B"), 3, 2)]
    state, lines = act(state, "South: call pung 5B jokers=2", "West: pass", "North: pass")
    assert lines[-1] == "South: exposed pung 5B jokers=2 from=East"
    assert state.phase is Phase.TURN and state.turn is not None and state.turn.seat == 1
    assert view(state, 0).seats[1].exposures[0].tiles == (parse_tile("5B"),
                                                          parse_tile("J"), parse_tile("J"))
    assert state.discards == ()
    check_invariants(state)
    state, lines = act(state, "South: discard N")
    assert state.phase is Phase.CLAIM and state.claim is not None
    assert state.claim.waiting == (2, 3, 0)


def test_every_live_seat_answers_then_the_next_seat_draws() -> None:
    state, _ = act(position(STANDARD, PUNG_OR_WIN, wall="7D"), "East: discard N")
    assert state.claim is not None and state.claim.waiting == (1, 2, 3)
    assert all([o.action for o in legal_actions(state, s)] == [Pass(s)] for s in (1, 2, 3))
    with pytest.raises(NotYourTurn, match="own discard"):
        act(state, "East: pass")
    state, lines = act(state, "South: pass", "West: pass")
    with pytest.raises(IllegalAction, match="already answered"):
        act(state, "West: pass")
    state, lines = act(state, "North: pass")
    assert lines[-1] == "South: draw 7D"
    assert state.turn is not None and state.turn.seat == 1


def test_only_able_seats_answer_under_that_policy() -> None:
    rules = replace(STANDARD, claim_window=ClaimWindow.ABLE_SEATS)
    state, _ = act(position(rules, PUNG_OR_WIN), "East: discard 5B")
    assert state.claim is not None and state.claim.waiting == (1, 2)
    state, lines = act(position(rules, PUNG_OR_WIN, wall="7D"), "East: discard N")
    assert lines == ["East: discard N", "South: draw 7D"]


def test_a_discarded_joker_is_dead() -> None:
    racks = ("666C 777C 888C 999C J N", *PUNG_OR_WIN[1:])
    state, lines = act(position(STANDARD, racks, wall="7D"), "East: discard J")
    assert lines == ["East: discard J", "South: draw 7D"]
    assert state.phase is Phase.TURN


def test_concealed_hand_claims_only_its_winning_tile() -> None:
    state, _ = act(position(STANDARD, TWO_WINNERS), "East: discard N")
    assert legal_actions(state, 3)[0].action == CallMahjong(3)
    racks = ("E 456B 789B 456D 789D 9C", "111C 222B 333D NN 5C 6C", TWO_WINNERS[2],
             "N EE WW SS 44D 55D 66D")
    state, _ = act(position(STANDARD, racks), "East: discard E")
    north = legal_actions(state, 3)
    assert not any(isinstance(o.action, CallMahjong) for o in north)
    with pytest.raises(IllegalAction, match="doesn't complete"):
        act(state, "North: call mahjong")


def test_a_call_that_kills_the_hand_is_flagged() -> None:
    racks = ("E 456B 789B 456D 789D 9C", "111C 222B 333D NN 5C 6C", TWO_WINNERS[2],
             "N EE WW SS 44D 55D 66D")
    state, _ = act(position(STANDARD, racks), "East: discard E")
    north = {o.action: o.deadens for o in legal_actions(state, 3)}
    # No hand on the card has a pung or a kong of East: calling one leaves no hand.
    assert north == {Pass(3): False, Call(3, parse_tile("E"), 3, 0): True}
    with pytest.raises(IllegalAction, match="call mahjong"):
        act(state, "North: mahjong")
    # Flagged, yet legal: the call goes through and the hand can now be declared dead.
    _, lines = act(state, "North: call pung E", "South: pass", "West: pass")
    assert lines[-1] == "North: exposed pung E from=East"
    racks = ("N 456B 789B 456D 789D 9C", "111C 222B 333D EE 5C 6C", TWO_WINNERS[2],
             "NN E WW SS 44D 55D 66D")
    state, _ = act(position(STANDARD, racks), "East: discard N")
    north = {o.action: o.deadens for o in legal_actions(state, 3)}
    # A pung of North fits p2 and w1.
    assert north[Call(3, parse_tile("N"), 3, 0)] is False
    state, _ = act(state, "North: call pung N", "South: pass", "West: pass")
    assert state.turn is not None and state.turn.seat == 3


def test_claims_need_the_tiles() -> None:
    state, _ = act(position(STANDARD, PUNG_OR_WIN), "East: discard 5B")
    with pytest.raises(IllegalAction, match="don't have"):
        act(state, "North: call pung 5B")
    with pytest.raises(IllegalAction, match="just discarded"):
        act(state, "South: call pung 5D")
    with pytest.raises(IllegalAction, match="pung, kong, quint or Mah Jongg"):
        act(state, "South: call sextet 5B")
    with pytest.raises(IllegalAction, match="except the one you call"):
        act(state, "South: call pung 5B jokers=3")
    with pytest.raises(IllegalAction, match="now"):
        act(position(STANDARD, PUNG_OR_WIN), "South: call pung 5B")


def test_sextets_only_with_a_sextet_card() -> None:
    racks = ("666C 777C 888C 999C 1B N", "111B JJ 456D 789D NE", "234B 345C 12D 3D R G 0 F",
             "567B 89B 123C 5D 6D W S E")
    state, _ = act(position(STANDARD, racks, card=sextet_card()), "East: discard 1B")
    sizes = {o.action.size for o in legal_actions(state, 1) if isinstance(o.action, Call)}
    assert sizes == {3, 4, 5, 6}
    state, lines = act(state, "South: call sextet 1B jokers=2", "West: pass", "North: pass")
    assert lines[-1] == "South: exposed sextet 1B jokers=2 from=East"
    state, _ = act(position(STANDARD, racks), "East: discard 1B")
    sizes = {o.action.size for o in legal_actions(state, 1) if isinstance(o.action, Call)}
    assert sizes == {3, 4, 5}


def test_claims_stay_hidden_until_the_window_closes() -> None:
    state, lines = act(position(STANDARD, PUNG_OR_WIN), "East: discard 5B",
                       "South: call pung 5B")
    assert lines[-1] == "South: ready"
    seen_by_south = view(state, 1).claim
    assert seen_by_south is not None
    assert seen_by_south.my_answer == Call(1, parse_tile("5B"), 3, 0)
    seen_by_west = view(state, 2).claim
    assert seen_by_west is not None and seen_by_west.my_answer is None
    assert seen_by_west.answered == (1,)
