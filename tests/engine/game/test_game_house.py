"""House options: blanks swapped for discards (never NMJL), East's first turn, a four-player
game without the Charleston, and the Siamese rules' "no walls" and "no dice" forms. (The
house payments and the end of the wall are in `test_game_house_payments.py`.)"""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_cards import engine_card
from game_helpers import NAMES, act, check_invariants, event_lines, position

from bot.engine.errors import IllegalAction, InvalidInput
from bot.engine.game import (
    Discard,
    Mahjong,
    Phase,
    SwapBlank,
    apply,
    legal_actions,
    new_game,
    replay,
    seats_to_act,
)
from bot.engine.game.deal import shuffled_ring
from bot.engine.game.rules import (
    SIAMESE,
    STANDARD,
    TOURNAMENT,
    Charleston,
    RuleSet,
    WallEnd,
    Walls,
    rules_from_json,
    rules_to_json,
)
from bot.engine.game.state import Took
from bot.engine.tiles import BLANK, parse_tile

BLANKS = replace(STANDARD, name="Blanks", blanks=2)
OTHERS = ("123D 456D 789D N E W S", "123C 456C 789C 1D 2D R G", "6B 7B 8B 9B 4C 5C 6C 0 0 F F R N")


def test_a_blank_swaps_for_a_discard() -> None:
    state = position(BLANKS, ("111B 222B 333B 44B X 55B", *OTHERS),
                     discards=[(3, "4B"), (3, "J")])
    options = [o.action for o in legal_actions(state, 0)]
    assert SwapBlank(0, parse_tile("4B")) in options
    assert SwapBlank(0, parse_tile("J")) not in options
    with pytest.raises(IllegalAction, match="only for a natural tile"):
        act(state, "East: blank J")
    with pytest.raises(IllegalAction, match="can't be discarded"):
        act(state, "East: discard X")
    with pytest.raises(IllegalAction, match="no 9 Dot in the discards"):
        act(state, "East: blank 9D")
    state, lines = act(state, "East: blank 4B")
    assert lines == ["East: swapped-blank 4B"]
    assert [state.tiles[t] for _, t in state.discards] == [BLANK, parse_tile("J")]
    check_invariants(state)
    assert legal_actions(state, 0)[0].action == Mahjong(0)
    state, _ = act(state, "East: mahjong")
    assert state.result is not None and state.result.declared[0].self_picked


def test_blanks_are_never_passed() -> None:
    state = position(BLANKS, ("111B 222B 333B 44B X 5B 6B", *OTHERS), charleston_step=0)
    with pytest.raises(IllegalAction, match="Blanks are never passed"):
        act(state, "East: give 1B 2B X")
    choice = legal_actions(state, 0)[0].choice
    assert choice is not None and BLANK not in choice.kinds


def test_east_wins_on_the_first_turn_self_picked() -> None:
    state = position(STANDARD, ("111B 222B 333B 444B 55B", *OTHERS), took=Took.DEAL)
    state, lines = act(state, "East: mahjong")
    assert lines[0].endswith("self-picked")
    assert state.result is not None and state.result.totals == (300, -100, -100, -100)


NO_CHARLESTON = replace(STANDARD, name="No Charleston", charleston=Charleston.NONE)


def test_a_four_player_game_without_the_charleston_starts_with_east_discarding() -> None:
    state = new_game(NO_CHARLESTON, engine_card(), 5, NAMES)
    assert [type(e).__name__ for e in state.opening] == [
        "WallBuilt", "Dealt", "Dealt", "Dealt", "Dealt", "PlayBegins"]
    assert state.phase is Phase.TURN and seats_to_act(state) == (0,)
    assert state.turn is not None and state.turn.took is Took.DEAL
    assert [len(seat.concealed) for seat in state.seats] == [14, 13, 13, 13]
    kinds = {type(o.action).__name__ for o in legal_actions(state, 0)}
    assert "Discard" in kinds and not kinds & {"Give", "Vote", "Offer"}
    # The hands are the deal itself: nothing was passed.
    assert state.seats[0].concealed == state.deal.hands[0]
    kind = state.concealed_kinds(0)[0]
    state, _ = apply(state, Discard(0, kind))
    assert state.phase is Phase.CLAIM and seats_to_act(state) == (1, 2, 3)


def test_no_dice_deals_from_the_end_of_easts_wall() -> None:
    state = new_game(replace(STANDARD, dice=0), engine_card(), 42, NAMES)
    assert state.deal.dice == () and state.deal.break_stack == 0
    _, ring = shuffled_ring(STANDARD, 42)
    assert set(ring[:4]) <= set(state.deal.hands[0])
    assert state.wall[:3] == ring[53:56]
    assert event_lines(state, state.opening[:1]) == ["Table: wall dice=- break=0 tiles=99"]


def test_without_walls_the_tiles_are_picked_from_a_pool_ordered_by_the_seed() -> None:
    pool = replace(SIAMESE, walls=Walls.NONE, dice=0)
    state = new_game(pool, engine_card(), 9, NAMES[:2])
    assert event_lines(state, state.opening[:1]) == ["Table: pool tiles=98"]
    # The same order as a wall broken at its end: the seed alone decides every pick.
    unbroken = new_game(replace(SIAMESE, dice=0), engine_card(), 9, NAMES[:2])
    assert (state.deal, state.wall) == (unbroken.deal, unbroken.wall)
    assert new_game(pool, engine_card(), 10, NAMES[:2]).wall != state.wall
    rebuilt, _ = replay(pool, engine_card(), 9, NAMES[:2], state.actions)
    assert rebuilt == state


@pytest.mark.parametrize(("rules", "changes", "message"), [
    (SIAMESE, {"walls": Walls.NONE}, "use no dice"),
    (STANDARD, {"dice": 4}, "1 to 3 dice, or none"),
    (TOURNAMENT, {"dice": 0}, "tournament play builds walls"),
    (TOURNAMENT, {"walls": Walls.NONE, "dice": 0}, "tournament play builds walls"),
])
def test_walls_and_dice_that_do_not_fit_are_refused(rules: RuleSet, changes: dict[str, object],
                                                     message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        replace(rules, **changes)  # type: ignore[arg-type]


def test_every_house_option_is_stored_and_read_back() -> None:
    house = replace(NO_CHARLESTON, walls=Walls.NONE, dice=0, quarters_pot=True, pot_ante=10,
                    pay_for_table=True, pay_for_table_exposures=2, wall_end=WallEnd.COLD,
                    wall_end_tiles=30)
    assert rules_from_json(rules_to_json(house)) == house
    # Rules stored before these options existed read back with them off.
    assert rules_from_json('{"name": "Old", "dice": 2}') == replace(STANDARD, name="Old")
