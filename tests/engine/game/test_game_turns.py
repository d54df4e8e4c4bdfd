"""The seat on turn: joker exchanges, Mah Jongg (self-picked or on a discard), discards, the
wall game."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_helpers import act, check_invariants, position

from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.game import Discard, Exchange, Mahjong, Phase, legal_actions
from bot.engine.game.events import Drew, for_seat, public
from bot.engine.game.rules import STANDARD, TOURNAMENT, ExchangeSelfPick
from bot.engine.game.state import Took
from bot.engine.tiles import parse_tile

SOUTH = "123D 456D 789D N"
WEST = "123C 4C 6C 7C 8C 9C N E W S R"
NORTH = "789C 1D 2D 3D W S E 0 G F R"


def test_joker_exchange_then_mahjong_is_self_picked() -> None:
    state = position(STANDARD, ("111B 222B 333B 44B 55B 5C", SOUTH, WEST, NORTH),
                     exposures={1: ["5C J J"]})
    options = [o.action for o in legal_actions(state, 0)]
    assert Mahjong(0) not in options
    assert Exchange(0, parse_tile("5C"), 1, 0) in options
    state, lines = act(state, "East: exchange 5C seat=South group=1")
    assert lines == ["East: exchanged 5C seat=South group=1"]
    assert state.kinds(state.seats[1].exposures[0].tile_ids) == tuple(
        parse_tile(t) for t in ("5C", "5C", "J"))
    assert legal_actions(state, 0)[0].action == Mahjong(0)
    state, lines = act(state, "East: mahjong")
    assert lines[0] == "East: mahjong p1 groups=111B/222B/333B/44B,J/55B self-picked"
    assert state.result is not None and state.result.totals == (150, -50, -50, -50)
    check_invariants(state)


def test_mahjong_right_after_a_call_is_paid_on_the_discard() -> None:
    state = position(STANDARD, ("111B 222B 333B 55B", SOUTH + " 6C J J", WEST, NORTH),
                     exposures={0: ["444B"]}, took=Took.CALL, called_from=3)
    state, lines = act(state, "East: mahjong")
    assert lines[0] == "East: mahjong p1 groups=111B/222B/333B/444B/55B from=North"
    assert state.result is not None and state.result.totals == (200, -50, -50, -100)
    tournament = position(TOURNAMENT, ("111B 222B 333B 55B", SOUTH + " 6C J J", WEST, NORTH),
                          exposures={0: ["444B"]}, took=Took.CALL, called_from=3)
    tournament, lines = act(tournament, "East: mahjong")
    assert lines[1:4] == [
        "Table: score East=+25 South=0 West=0 North=0 -- East: 25 for Mah Jongg with p1.",
        "Table: score East=+20 South=0 West=0 North=0 -- East: +20 jokerless.",
        "Table: score East=0 South=0 West=0 North=-10 -- North threw Mah Jongg to a hand "
        "with 1 exposure: -10.",
    ]


def test_exchange_after_a_call_makes_the_win_self_picked() -> None:
    state = position(STANDARD, ("111B 222B 33B 55B 6C", SOUTH, WEST, NORTH),
                     exposures={0: ["444B"], 1: ["6C J J"]}, took=Took.CALL, called_from=3)
    state, lines = act(state, "East: exchange 6C seat=South group=1", "East: mahjong")
    assert lines[1] == "East: mahjong p1 groups=111B/222B/33B,J/444B/55B self-picked"
    assert state.result is not None and state.result.totals == (150, -50, -50, -50)


# South shows 111B and needs one 4B for p1 (111B 222B 333B 444B 55B); East holds it.
SOUTH_ON_4B = ("123D 456D 789D 4B NN EE", "222B 333B 44B 55B", WEST, NORTH)


@pytest.mark.parametrize("claim", [
    ("South: call pung 4B", "West: pass", "North: pass", "South: mahjong"),
    ("South: call mahjong", "West: pass", "North: pass"),
], ids=["call-pung-then-mahjong", "call-mahjong"])
def test_the_throw_penalty_counts_exposures_before_the_call(claim: tuple[str, ...]) -> None:
    """The tournament sheet charges the thrower by the exposures of the hand the tile was
    thrown to: the pung the winning call makes is not one of them, however it is claimed."""
    state = position(TOURNAMENT, SOUTH_ON_4B, exposures={1: ["111B"]})
    state, lines = act(state, "East: discard 4B", *claim)
    assert "South: mahjong p1 groups=111B/222B/333B/444B/55B from=East" in lines
    assert ("Table: score East=-10 South=0 West=0 North=0 -- East threw Mah Jongg to a hand "
            "with 1 exposure: -10.") in lines
    assert state.result is not None and state.result.totals == (-10, 45, 0, 0)
    assert state.result.declared[0].exposures_before == 1


@pytest.mark.parametrize(("option", "how", "totals"), [
    (ExchangeSelfPick.COMPLETING, "from=East", (-50, 100, -25, -25)),
    (ExchangeSelfPick.ANY, "self-picked", (-50, 150, -50, -50)),
])
def test_an_exchange_after_a_complete_call_leaves_the_win_on_the_discard(
        option: ExchangeSelfPick, how: str, totals: tuple[int, ...]) -> None:
    """Standard rules: an exchange counts as self-picked when it completes the hand. Here the
    hand is complete as soon as South calls the 4B, so the exchange after it changes nothing
    (unless the table takes the online client's reading: any exchange)."""
    rules = replace(STANDARD, exchange_self_pick=option)
    racks = (SOUTH_ON_4B[0], SOUTH_ON_4B[1], "123C 4C 6C 7C 8C 9C N E", NORTH)
    state = position(rules, racks, exposures={1: ["111B"], 2: ["2B J J"]})
    state, lines = act(state, "East: discard 4B", "South: call pung 4B", "West: pass",
                       "North: pass", "South: exchange 2B seat=West group=1", "South: mahjong")
    assert f"South: mahjong p1 groups=111B/22B,J/333B/444B/55B {how}" in lines
    assert state.result is not None and state.result.totals == totals


def test_exchange_needs_a_matching_natural_and_a_joker() -> None:
    state = position(STANDARD, ("111B 222B 333B 44B 55B 6C", SOUTH, "123C 4C 6C N E W S R",
                                "789C 1D 2D 3D W S E 0 G F R"),
                     exposures={1: ["5C J J"], 2: ["777C"]})
    with pytest.raises(IllegalAction, match="That exposure is 5 Craks"):
        act(state, "East: exchange 6C seat=South group=1")
    with pytest.raises(IllegalAction, match="no joker"):
        act(state, "East: exchange 7C seat=West group=1")
    with pytest.raises(IllegalAction, match="no such exposure"):
        act(state, "East: exchange 5C seat=South group=2")
    with pytest.raises(IllegalAction, match="don't have"):
        act(state, "East: exchange 5C seat=South group=1")
    with pytest.raises(NotYourTurn):
        act(state, "South: exchange 5C seat=South group=1")
    assert not any(isinstance(o.action, Exchange) for o in legal_actions(state, 0))


def test_turn_rules() -> None:
    state = position(STANDARD, ("111B 222B 333B 44B 55B 6C", SOUTH + " 5C J J", WEST, NORTH))
    with pytest.raises(NotYourTurn, match="East's turn"):
        act(state, "South: discard N")
    with pytest.raises(IllegalAction, match="don't have"):
        act(state, "East: discard 9D")
    with pytest.raises(IllegalAction, match="don't make a hand"):
        act(state, "East: mahjong")
    with pytest.raises(IllegalAction, match="Just declare"):
        act(state, "East: mahjong rack=2")
    discards = [o.action for o in legal_actions(state, 0) if isinstance(o.action, Discard)]
    assert [d.kind for d in discards] == [parse_tile(t) for t in
                                          ("1B", "2B", "3B", "4B", "5B", "6C")]


def test_a_draw_is_private() -> None:
    state = position(STANDARD, ("111B 222B 333B 44B 55B 6C", SOUTH + " 5C J J", WEST, NORTH),
                     wall="9B")
    state, lines = act(state, "East: discard 6C", "South: pass", "West: pass", "North: pass")
    assert lines[-1] == "South: draw 9B"
    assert for_seat(Drew(1, parse_tile("9B")), 2) == Drew(1, None)
    assert public(Drew(1, parse_tile("9B"))) == Drew(1, None)
    assert for_seat(Drew(1, parse_tile("9B")), 1) == Drew(1, parse_tile("9B"))


def test_wall_game_when_the_last_discard_goes_unclaimed() -> None:
    state = position(STANDARD, ("111B 222B 333B 44B 55B 6C", SOUTH + " 5C J J", WEST, NORTH),
                     short_wall=True)
    assert state.wall == ()
    state, lines = act(state, "East: discard 6C", "South: pass", "West: pass", "North: pass")
    assert lines[-2:] == [
        "Table: score East=0 South=0 West=0 North=0 -- Wall game: the tiles ran out with no "
        "Mah Jongg. Nobody pays.",
        "Table: over wall totals=0,0,0,0 settlement=0,0,0,0",
    ]
    assert state.phase is Phase.OVER
    check_invariants(state)


def test_the_last_discard_can_still_win() -> None:
    state = position(STANDARD, ("111C 222C 333C 444C 5B 6C", "111B 222B 333B 444B 5B", WEST,
                                NORTH), short_wall=True)
    state, lines = act(state, "East: discard 5B", "South: call mahjong")
    assert state.phase is Phase.CLAIM and lines == ["East: discard 5B", "South: ready"]
    state, lines = act(state, "West: pass", "North: pass")
    assert lines[2] == "South: mahjong p1 groups=111B/222B/333B/444B/55B from=East"
    assert state.result is not None and state.result.totals[1] == 200
