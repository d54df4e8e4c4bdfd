"""Starting a game: the wall, the dice and the deal for each table size, rule sets and the
three-player game."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from game_cards import engine_card
from game_helpers import NAMES, act, check_invariants, position

from bot.engine.errors import InvalidInput
from bot.engine.game import PRESETS, Phase, new_game, preset
from bot.engine.game.deal import deal, shuffled_ring, throw_dice
from bot.engine.game.rules import (
    SIAMESE,
    STANDARD,
    THREE_PLAYER,
    TOURNAMENT,
    Charleston,
    Scoring,
    table_rules,
)
from bot.engine.tiles import STANDARD_COUNTS, physical_tiles


def test_standard_deal() -> None:
    state = new_game(STANDARD, engine_card(), 5, NAMES)
    assert [len(seat.concealed) for seat in state.seats] == [14, 13, 13, 13]
    assert len(state.wall) == 152 - 53
    assert state.phase is Phase.CHARLESTON
    assert len(state.deal.dice) == 2 and state.deal.break_stack == sum(state.deal.dice)
    assert Counter(state.tiles) == Counter(physical_tiles(STANDARD_COUNTS))
    check_invariants(state)


def test_the_deal_is_the_seed() -> None:
    first = deal(STANDARD, 42)
    assert deal(STANDARD, 42) == first
    assert deal(STANDARD, 43) != first
    tiles, record, wall = first
    dealt = sorted(t for hand in record.hands for t in hand)
    assert sorted(dealt + list(wall)) == list(range(len(tiles)))
    _, ring = shuffled_ring(STANDARD, 42)
    assert record.dice == throw_dice(STANDARD, 42)
    start = 2 * record.break_stack
    order = ring[start:] + ring[:start]
    # Three rounds of four tiles each, then East jumps: the first and third top tiles
    # (positions 48 and 52); South, West and North take 49, 50 and 51; the wall goes on at 53.
    assert set(order[:4]) | {order[48], order[52]} <= set(record.hands[0])
    assert {order[4], order[49]} <= set(record.hands[1])
    assert {order[50]} <= set(record.hands[2]) and {order[51]} <= set(record.hands[3])
    assert wall[:3] == order[53:56]


def test_three_player_deal_and_no_charleston() -> None:
    state = new_game(THREE_PLAYER, engine_card(), 5, NAMES[:3])
    assert [len(seat.concealed) for seat in state.seats] == [14, 13, 13]
    assert state.phase is Phase.TURN and state.turn is not None and state.turn.seat == 0
    assert len(state.wall) == 152 - 40
    assert [type(e).__name__ for e in state.opening] == [
        "WallBuilt", "Dealt", "Dealt", "Dealt", "PlayBegins"]


def test_three_player_win_on_a_discard() -> None:
    racks = ("666C 777C 888C 999C 5B N", "111B 222B 333B 444B 5B", "123D 456D 789D 1C 2C N E")
    state, lines = act(position(THREE_PLAYER, racks), "East: discard 5B",
                       "South: call mahjong", "West: pass")
    assert lines[-1] == "Table: over mahjong totals=-100,+150,-50 settlement=-100,+150,-50"
    assert state.result is not None
    assert [line.text for line in state.result.lines] == [
        "South goes Mah Jongg with p1 (25), on East's discard.",
        "Jokerless: the value doubles to 50.",
        "West pays South 50.",
        "East pays South 2 x 50 = 100 (threw the winning tile).",
    ]
    assert state.result.totals == (-100, 150, -50)


def test_presets() -> None:
    assert set(PRESETS) == {"standard", "tournament", "3-player", "siamese", "royale",
                            "royale-3"}
    assert preset("Siamese") is SIAMESE and SIAMESE.name == "2-player (Siamese-style)"
    assert preset("tournament") is TOURNAMENT
    with pytest.raises(InvalidInput, match="Choose one of"):
        preset("riichi")


@pytest.mark.parametrize("changes", [
    {"players": 5},
    {"players": 3},
    {"racks": 2},
    {"dealer_tiles": 13},
    {"jokers": 10, "blanks": 4},
])
def test_rules_that_do_not_fit_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(InvalidInput, match="don't fit"):
        replace(STANDARD, **changes)  # type: ignore[arg-type]


def test_bots_must_match() -> None:
    with pytest.raises(InvalidInput, match="needs 4 players"):
        new_game(STANDARD, engine_card(), 1, NAMES[:3])
    assert replace(THREE_PLAYER, charleston=Charleston.NONE) == THREE_PLAYER


def test_table_rules_pick_the_preset_for_a_table_size_and_scoring() -> None:
    assert table_rules(4) == STANDARD and table_rules(3) == THREE_PLAYER
    assert table_rules(2) == SIAMESE and table_rules(4, "tournament") == TOURNAMENT
    assert table_rules(3, Scoring.TOURNAMENT).scoring is Scoring.TOURNAMENT
    with pytest.raises(InvalidInput, match="two racks"):
        table_rules(4, "siamese")
    with pytest.raises(InvalidInput, match="doesn't exist"):
        table_rules(4, "bogus")
    with pytest.raises(InvalidInput, match="2, 3 or 4"):
        table_rules(5)
