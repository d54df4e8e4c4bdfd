"""The Charleston: each pass, blind passes, jokers refused, the stop vote, the courtesy pass,
and the heavenly hand."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from game_cards import engine_card
from game_helpers import NAMES, act, check_invariants, position

from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.game import Give, Mahjong, Phase, apply, legal_actions, new_game
from bot.engine.game.events import MahjongShown, Received
from bot.engine.game.rules import STANDARD, BlindOrder
from bot.engine.game.state import GameState
from bot.engine.tiles import JOKER, format_tiles, parse_tiles

RACKS = (
    "111B 222B 333B 444B 5B 6B",
    "111C 222C 333C 444C 5C",
    "111D 222D 333D 444D 5D",
    "NNN EEE WWW SSS R",
)
GIVES = ("East: give 123B", "South: give 123C", "West: give 123D", "North: give N E W")


def _received(state: GameState, seat: int, before: GameState) -> str:
    gained = Counter(state.concealed_kinds(seat)) - Counter(before.concealed_kinds(seat))
    return format_tiles(gained.elements())


@pytest.mark.parametrize(("step", "name", "receivers"), [
    (0, "first-right", {0: 1, 1: 2, 2: 3, 3: 0}),
    (1, "first-across", {0: 2, 1: 3, 2: 0, 3: 1}),
    (2, "first-left", {0: 3, 1: 0, 2: 1, 3: 2}),
    (3, "second-left", {0: 3, 1: 0, 2: 1, 3: 2}),
    (4, "second-across", {0: 2, 1: 3, 2: 0, 3: 1}),
    (5, "second-right", {0: 1, 1: 2, 2: 3, 3: 0}),
])
def test_each_pass_goes_the_right_way(step: int, name: str, receivers: dict[int, int]) -> None:
    before = position(STANDARD, RACKS, charleston_step=step)
    state, lines = act(before, *GIVES)
    given = {0: "123B", 1: "123C", 2: "123D", 3: "N E W"}
    for giver, receiver in receivers.items():
        assert _received(state, receiver, before) == format_tiles(parse_tiles(given[giver]))
    assert f"Table: passed {name}" in lines
    assert lines.count("East: ready") == 1
    check_invariants(state)
    expected_phase = Phase.VOTE if step == 2 else (
        Phase.COURTESY_OFFER if step == 5 else Phase.CHARLESTON)
    assert state.phase is expected_phase


def test_pass_waits_for_every_seat_and_hides_choices() -> None:
    state, lines = act(position(STANDARD, RACKS, charleston_step=0), *GIVES[:3])
    assert lines == ["East: ready", "South: ready", "West: ready"]
    assert state.concealed_kinds(1) == parse_tiles("111C 222C 333C 444C 5C")
    assert [o.action for o in legal_actions(state, 0)] == []
    with pytest.raises(IllegalAction, match="already passed"):
        act(state, "East: give 4B 4B 4B")


def test_jokers_never_travel() -> None:
    racks = ("111B 222B 333B 444B JJ", *RACKS[1:])
    state = position(STANDARD, racks, charleston_step=0)
    with pytest.raises(IllegalAction, match="Jokers are never passed"):
        act(state, "East: give 1B 2B J")
    choice = legal_actions(state, 0)[0].choice
    assert choice is not None and JOKER not in choice.kinds and choice.count == 3


def test_blind_only_on_first_left_and_last_right() -> None:
    for step in (0, 1, 3, 4):
        state = position(STANDARD, RACKS, charleston_step=step)
        with pytest.raises(IllegalAction, match="Blind passes are allowed only"):
            act(state, "East: give 1B blind=2")
        choice = legal_actions(state, 0)[0].choice
        assert choice is not None and choice.blind_max == 0
    for step in (2, 5):
        choice = legal_actions(position(STANDARD, RACKS, charleston_step=step), 0)[0].choice
        assert choice is not None and choice.blind_max == 3


def test_pass_must_be_exactly_three() -> None:
    state = position(STANDARD, RACKS, charleston_step=2)
    with pytest.raises(IllegalAction, match="exactly 3"):
        act(state, "East: give 1B 2B")
    with pytest.raises(IllegalAction, match="exactly 3"):
        act(state, "East: give 1B 2B blind=2")
    with pytest.raises(IllegalAction, match="don't have"):
        act(state, "East: give 9C 9C 9C")


def test_one_blind_pass_forwards_unseen_tiles() -> None:
    before = position(STANDARD, RACKS, charleston_step=2)
    state, lines = act(before, "East: give 123B", "South: give 1C blind=2", "West: give 123D",
                       "North: give N E W")
    # Left: South passes to East 1C plus two of West's tiles, unseen; South keeps the third.
    east_got = Counter(parse_tiles(_received(state, 0, before)))
    south_got = Counter(parse_tiles(_received(state, 1, before)))
    assert east_got[parse_tiles("1C")[0]] == 1 and sum(east_got.values()) == 3
    assert east_got + south_got == Counter(parse_tiles("1C 123D"))
    assert sum(south_got.values()) == 1
    assert "South: received " + format_tiles(south_got.elements()) in lines
    check_invariants(state)


@pytest.mark.parametrize("order", list(BlindOrder))
def test_several_blind_passes_follow_the_order_option(order: BlindOrder) -> None:
    rules = replace(STANDARD, blind_order=order)
    before = position(rules, RACKS, charleston_step=2)
    state, _ = act(before, "East: give 1B blind=2", "South: give 12C blind=1",
                   "West: give 123D", "North: give N E W")
    north_got = Counter(parse_tiles(_received(state, 3, before)))
    east_got = Counter(parse_tiles(_received(state, 0, before)))
    south_got = Counter(parse_tiles(_received(state, 1, before)))
    if order is BlindOrder.EAST_FIRST:
        # East goes first and can only take South's own two tiles, unseen.
        assert north_got == Counter(parse_tiles("1B 1C 2C"))
    else:
        # The fewest-blind seat (South) goes first, so East may forward one of West's tiles.
        assert north_got[parse_tiles("1B")[0]] == 1 and sum(north_got.values()) == 3
    assert north_got + east_got + south_got == Counter(parse_tiles("1B 12C 123D"))
    assert (sum(east_got.values()), sum(south_got.values())) == (1, 2)
    check_invariants(state)


def test_everyone_blind_passing_three_moves_nothing() -> None:
    before = position(STANDARD, RACKS, charleston_step=5)
    state, lines = act(before, *(f"{seat}: give blind=3" for seat in
                                 ("East", "South", "West", "North")))
    for seat in range(4):
        assert state.concealed_kinds(seat) == before.concealed_kinds(seat)
    assert "East: received -" in lines
    assert state.phase is Phase.COURTESY_OFFER


def _first_charleston(seed: int = 3) -> GameState:
    state = new_game(STANDARD, engine_card(), seed, NAMES)
    for _ in range(3):
        for seat in range(4):
            state, _ = apply(state, legal_actions(state, seat)[0].action)
    return state


def test_any_stop_vote_ends_the_charleston() -> None:
    state = _first_charleston()
    assert state.phase is Phase.VOTE
    state, lines = act(state, "East: vote continue", "South: vote continue",
                       "West: vote stop", "North: vote continue")
    assert lines[-1] == "Table: charleston stopped"
    assert state.phase is Phase.COURTESY_OFFER


def test_all_continue_votes_start_the_second_charleston() -> None:
    state, lines = act(_first_charleston(), *(f"{s}: vote continue"
                                              for s in ("East", "South", "West", "North")))
    assert lines[-1] == "Table: charleston continues"
    assert state.phase is Phase.CHARLESTON
    assert state.charleston is not None and state.charleston.step == 3
    with pytest.raises(IllegalAction, match="already voted"):
        act(_first_charleston(), "East: vote stop", "East: vote stop")


def test_courtesy_smaller_offer_rules() -> None:
    state, _ = act(_first_charleston(), "East: vote stop", "South: vote stop",
                   "West: vote stop", "North: vote stop")
    state, lines = act(state, "East: offer 3", "South: offer 2", "West: offer 1",
                       "North: offer 0")
    assert lines[-1] == "Table: courtesy East=1 South=0 West=1 North=0"
    assert state.phase is Phase.COURTESY_PASS
    assert legal_actions(state, 1) == ()
    with pytest.raises(NotYourTurn, match="agreed on no courtesy tiles"):
        act(state, "South: give 1B")
    east_tile = legal_actions(state, 0)[0].action
    assert isinstance(east_tile, Give) and len(east_tile.kinds) == 1
    with pytest.raises(IllegalAction, match="exactly 1 tile"):
        apply(state, Give(0, state.concealed_kinds(0)[:3]))
    with pytest.raises(IllegalAction, match="only on the first left"):
        apply(state, Give(0, (), 1))
    before = state
    state, _ = apply(state, east_tile)
    state, events = apply(state, legal_actions(state, 2)[0].action)
    west_gave = before.concealed_kinds(2)[0]
    assert Received(0, 1, (west_gave,)) in events
    assert state.phase is Phase.TURN and state.turn is not None and state.turn.seat == 0
    check_invariants(state)


def test_courtesy_with_no_tiles_goes_straight_to_play() -> None:
    state, _ = act(_first_charleston(), *(f"{s}: vote stop"
                                          for s in ("East", "South", "West", "North")))
    state, lines = act(state, "East: offer 0", "South: offer 3", "West: offer 2",
                       "North: offer 0")
    assert lines[-2:] == ["Table: courtesy East=0 South=0 West=0 North=0", "Table: play begins"]
    assert state.phase is Phase.TURN


def test_heavenly_hand_wins_before_the_charleston() -> None:
    racks = ("111B 222B 333B 444B 55B", *RACKS[1:])
    state = position(STANDARD, racks, charleston_step=0)
    first = legal_actions(state, 0)[0].action
    assert first == Mahjong(0)
    assert not any(isinstance(o.action, Mahjong) for o in legal_actions(state, 1))
    state, events = apply(state, first)
    assert state.phase is Phase.OVER and state.result is not None
    assert state.result.declared[0].self_picked
    assert state.result.totals == (300, -100, -100, -100)
    groups = tuple(parse_tiles(g) for g in ("111B", "222B", "333B", "444B", "55B"))
    assert events[0] == MahjongShown(0, 0, "p1", groups, True, None)


def test_heavenly_hand_only_before_east_passes() -> None:
    racks = ("111B 222B 333B 444B 55B", *RACKS[1:])
    state, _ = act(position(STANDARD, racks, charleston_step=0), "East: give 1B 2B 3B")
    with pytest.raises(IllegalAction, match="heavenly hand"):
        apply(state, Mahjong(0))
