"""House options: blanks swapped for discards (never NMJL), and East's first turn."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_helpers import act, check_invariants, position

from bot.engine.errors import IllegalAction
from bot.engine.game import Mahjong, SwapBlank, legal_actions
from bot.engine.game.rules import STANDARD
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
