"""Dead hands: declarations judged from the visible tiles, right and wrong; what a dead seat
keeps (its exposures, its debts) and loses (its turns, its claims); locked jokers."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_cards import dead_card
from game_helpers import act, check_invariants, position

from bot.engine.errors import IllegalAction
from bot.engine.game import DeclareDead, Exchange, Phase, legal_actions, view
from bot.engine.game.rules import STANDARD, THREE_PLAYER, TOURNAMENT, DeadHands, DeadJokers, RuleSet
from bot.engine.game.state import GameState
from bot.engine.tiles import parse_tile

# West has exposed NNN: only f1 (NNN EEE 111B 222B SS) fits, and its SS must be natural.
RACKS = ("123C 456C 789C 123D 45D", "111D 222D 333D 444D 5D", "EE 66B 77B 88B 9B R",
         "678D 9D FF R GG 0 WW E")
THREE_SOUTHS = [(3, "S"), (3, "S"), (3, "S")]


def _table(rules: RuleSet = STANDARD, **kwargs: object) -> GameState:
    return position(rules, RACKS, card=dead_card(), exposures={2: ["NNN"]}, **kwargs)  # type: ignore[arg-type]


def test_a_right_declaration_kills_the_target() -> None:
    state = _table(discards=THREE_SOUTHS)
    assert DeclareDead(0, 2) in [o.action for o in legal_actions(state, 0)]
    state, lines = act(state, "East: dead West")
    assert lines == ["East: declared-dead West", "West: dead declared"]
    assert not state.is_live(2) and state.turn is not None and state.turn.seat == 0
    assert view(state, 1).seats[2].dead == (True,)
    check_invariants(state)


def test_judged_only_from_what_is_visible() -> None:
    # With the Souths still unseen, f1 is possible as far as anyone can tell.
    state, lines = act(_table(wall="7B"), "East: dead West")
    assert lines == ["East: declared-dead West", "East: dead wrong-call", "South: draw 7B"]
    assert not state.is_live(0) and state.is_live(2)
    assert state.tile_count(0) == 14
    check_invariants(state)


def test_dead_seats_are_skipped_and_never_asked() -> None:
    state, _ = act(_table(discards=THREE_SOUTHS, wall="7B 8B"), "East: dead West",
                   "East: discard 9C")
    assert state.claim is not None and state.claim.waiting == (1, 3)
    state, lines = act(state, "South: pass", "North: pass", "South: discard 7B")
    assert state.claim is not None and state.claim.waiting == (3, 0)
    state, lines = act(state, "North: pass", "East: pass")
    assert lines[-1] == "North: draw 8B"
    assert legal_actions(state, 2) == ()


def test_a_dead_seat_still_pays() -> None:
    state, lines = act(_table(discards=THREE_SOUTHS), "East: dead West", "East: discard 5D",
                       "South: call mahjong", "North: pass")
    assert "South: mahjong f3 groups=111D/222D/333D/444D/55D from=East" in lines
    assert state.result is not None and state.result.totals == (-100, 200, -50, -50)


def test_a_dead_hand_scores_nothing_in_a_tournament_wall_game() -> None:
    state, lines = act(_table(TOURNAMENT, discards=THREE_SOUTHS, short_wall=True),
                       "East: dead West", "East: discard 9C", "South: pass", "North: pass")
    assert state.result is not None and state.result.totals == (10, 10, 0, 10)
    assert lines[-2].endswith("+10 to every hand that is not dead (West dead: 0).")


# West shows NN J (f1); a pung of 5D fits no hand on the card, so calling it kills the hand.
LOCK_RACKS = ("5D 123C 456C 789C 12D 3D E", "111B 222B 333B 444B 5B", "5D J EE 66B 77B 8B 9B",
              "N 5D 678D 9D FF R GG 0 W")
#: East throws the 5D, West calls it, and the turn comes round to North.
WEST_CALLS_5D = ("East: discard 5D", "South: pass", "West: call pung 5D jokers=1",
                 "North: pass", "West: discard 9B", "North: pass", "East: pass", "South: pass")


@pytest.mark.parametrize("policy", list(DeadJokers))
def test_jokers_in_the_exposure_that_killed_the_hand(policy: DeadJokers) -> None:
    rules = replace(STANDARD, dead_jokers=policy)
    state = position(rules, LOCK_RACKS, card=dead_card(), exposures={2: ["NN J"]}, wall="7B")
    state, _ = act(state, *WEST_CALLS_5D, "North: dead West")
    exchanges = [o.action for o in legal_actions(state, 3) if isinstance(o.action, Exchange)]
    north, fives = Exchange(3, parse_tile("N"), 2, 0), Exchange(3, parse_tile("5D"), 2, 1)
    if policy is DeadJokers.VALID_EXPOSURES:
        assert exchanges == [north]
        assert [e.locked for e in view(state, 1).seats[2].exposures] == [False, True]
        with pytest.raises(IllegalAction, match="made its hand dead"):
            act(state, "North: exchange 5D seat=West group=2")
    else:
        assert exchanges == [north, fives]
        state, _ = act(state, "North: exchange 5D seat=West group=2")
    state, lines = act(state, "North: exchange N seat=West group=1")
    assert lines == ["North: exchanged N seat=West group=1"]


# West may call East's discard with a joker: the exposure it makes comes after its hand can
# no longer match the card (the three Souths leave f1's natural SS one short; a kong of 1C
# leaves only f2, whose natural FF the seven discarded flowers leave one short).
AFTER_DEAD = ("123C 456C 789C 123D 4D E", "111D 222D 333D 444D 5D", "E J 66B 77B 88B 9B R",
              "678D 9D FF R GG 0 W N E")
MADE_DEAD = ("123C 456C 789C 123D 4D E", "111D 222D 333D 444D 5D", "11C J 66B 77B 88B 9B R E N",
             "678D 9D R GG 0 W N E S 1C")


@pytest.mark.parametrize(("racks", "shown", "discards", "call", "kind"), [
    (AFTER_DEAD, ["NN J"], THREE_SOUTHS, ("East: discard E", "South: pass",
                                          "West: call pung E jokers=1"), "E"),
    (MADE_DEAD, [], [(3, "F")] * 7, ("East: discard 1C", "South: pass",
                                     "West: call kong 1C jokers=1"), "1C"),
], ids=["made-after-the-discards-killed-it", "dead-only-with-the-discards"])
def test_jokers_stay_put_in_exposures_made_once_the_hand_was_dead(
        racks: tuple[str, ...], shown: list[str], discards: list[tuple[int, str]],
        call: tuple[str, ...], kind: str) -> None:
    """Tournament sheet, Siamese rule 15: only exposures made before the hand went dead give
    up their jokers. Whether it went dead counts what the discards had made impossible, not
    only the hand's own exposures."""
    state = position(STANDARD, racks, card=dead_card(), exposures={2: shown},
                     discards=discards, wall="7B")
    state, _ = act(state, *call, "North: pass", "West: discard 9B", "North: pass",
                   "East: pass", "South: pass", "North: dead West")
    assert not state.is_live(2)
    new = len(shown)
    assert [e.locked for e in view(state, 0).seats[2].exposures] == [False] * new + [True]
    exchanges = [o.action for o in legal_actions(state, 3) if isinstance(o.action, Exchange)]
    assert Exchange(3, parse_tile(kind), 2, new) not in exchanges
    with pytest.raises(IllegalAction, match="made its hand dead"):
        act(state, f"North: exchange {kind} seat=West group={new + 1}")
    if shown:
        assert exchanges == [Exchange(3, parse_tile("N"), 2, 0)]


def test_declaring_needs_the_rule_and_a_live_target() -> None:
    off = replace(STANDARD, dead_hands=DeadHands.OFF)
    state = position(off, RACKS, card=dead_card(), exposures={2: ["NNN"]})
    assert not any(isinstance(o.action, DeclareDead) for o in legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="nobody calls hands dead"):
        act(state, "East: dead West")
    state = _table(discards=THREE_SOUTHS)
    with pytest.raises(IllegalAction, match="your own hand"):
        act(state, "East: dead East")
    state, _ = act(state, "East: dead West")
    with pytest.raises(IllegalAction, match="already dead"):
        act(state, "East: dead West")


def test_the_game_ends_when_one_live_hand_is_left() -> None:
    racks = ("123C 456C 789C 123D 4D 6D", "111B 222B 333B 444B 5B", "EE 66B 77B 88B 9B N")
    state = position(THREE_PLAYER, racks, card=dead_card(), exposures={2: ["55D J"]})
    state, lines = act(state, "East: dead West", "East: dead South")
    assert lines[:4] == ["East: declared-dead West", "West: dead declared",
                         "East: declared-dead South", "East: dead wrong-call"]
    assert lines[-1] == "Table: over dead-hands totals=0,0,0 settlement=0,0,0"
    assert state.phase is Phase.OVER
