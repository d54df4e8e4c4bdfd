"""House payments and the end of the wall, played through the engine: the quarters pot,
paying for the table, the hot wall and the cold wall (each off unless a rule set turns it on)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_cards import engine_card
from game_helpers import NAMES, act, check_invariants, position

from bot.engine.errors import IllegalAction, InvalidInput
from bot.engine.game import CallMahjong, Mahjong, legal_actions, new_game
from bot.engine.game.rules import STANDARD, THREE_PLAYER, TOURNAMENT, RuleSet, WallEnd
from bot.engine.game.state import GameState, Took
from bot.engine.tiles import parse_tile

POT = replace(STANDARD, name="Quarters pot", quarters_pot=True)
TABLE = replace(STANDARD, name="Pay for the table", pay_for_table=True)
HOT = replace(STANDARD, name="Hot wall", wall_end=WallEnd.HOT)
COLD = replace(STANDARD, name="Cold wall", wall_end=WallEnd.COLD)

#: East throws 5B; South (p1 in Bams, no jokers) is waiting for it. Every 5B is on a rack, so
#: none has been thrown, even with a short wall (whose other tiles lie in the discards).
FIVE_BAM = (
    "5B 6C 7C 8C 9C 1D 2D 3D 4D 6D 7D 8D 9D N",
    "111B 222B 333B 444B 5B",
    "5B J 1C 2C 3C 4C 5C 5D E W S R G",
    "5B 6B 7B 8B 9B 1C 2C 3C 4C F F 0 0",
)
SOUTH_WINS = ("East: discard 5B", "South: call mahjong", "West: pass", "North: pass")
#: South shows three exposures (jokers in them, so the hand is worth 25) and waits on 5B.
THREE_EXPOSED = {1: ["11B J", "22B J", "33B J"]}
THREE_EXPOSED_RACKS = (FIVE_BAM[0], "444B 5B", *FIVE_BAM[2:])
#: The same hand with two exposures.
TWO_EXPOSED = {1: ["11B J", "22B J"]}
TWO_EXPOSED_RACKS = (FIVE_BAM[0], "333B 444B 5B", *FIVE_BAM[2:])


def _lines(state: GameState) -> list[str]:
    assert state.result is not None
    return [line.text for line in state.result.lines]


# -- the quarters pot ----------------------------------------------------------------------

def test_a_wall_game_antes_into_the_pot_and_the_next_winner_takes_it() -> None:
    racks = (FIVE_BAM[0], "111B 222B 333B 444B 6B", *FIVE_BAM[2:])
    wall_game, _ = act(position(POT, racks, short_wall=True, pot=50), "East: discard 5B",
                       "South: pass", "West: pass", "North: pass")
    assert wall_game.result is not None
    assert _lines(wall_game) == [
        "Wall game: the tiles ran out with no Mah Jongg. Everyone puts 25 into the pot for "
        "the next winner; it holds 150 now."]
    assert wall_game.result.settlement == (-25, -25, -25, -25)
    assert wall_game.result.pot == 150

    won, lines = act(position(POT, FIVE_BAM, pot=wall_game.result.pot), *SOUTH_WINS)
    assert won.result is not None
    assert _lines(won)[-1] == "South takes the pot: 150."
    assert lines[-2] == "Table: score East=0 South=+150 West=0 North=0 -- South takes the pot: 150."
    assert won.result.settlement == (-100, 350, -50, -50)
    assert won.result.pot == 0
    # Money is kept: what the table paid out beyond what it paid in came from the pot.
    assert sum(won.result.settlement) == 150


def test_the_ante_is_a_parameter_and_a_self_pick_takes_the_pot_too() -> None:
    dime = replace(POT, pot_ante=10)
    racks = (FIVE_BAM[0], "111B 222B 333B 444B 6B", *FIVE_BAM[2:])
    wall_game, _ = act(position(dime, racks, short_wall=True), "East: discard 5B",
                       "South: pass", "West: pass", "North: pass")
    assert wall_game.result is not None and wall_game.result.pot == 40
    assert wall_game.result.totals == (-10, -10, -10, -10)

    drawn = ("6C 7C 8C 9C 1D 2D 3D 4D 6D 7D 8D 9D N", "111B 222B 333B 444B 55B", *FIVE_BAM[2:])
    picked, _ = act(position(dime, drawn, turn=1, took=Took.DRAW, pot=wall_game.result.pot),
                    "South: mahjong")
    assert picked.result is not None
    assert _lines(picked)[-1] == "South takes the pot: 40."
    assert picked.result.totals == (-100, 340, -100, -100)
    assert picked.result.pot == 0


def test_without_the_option_a_wall_game_costs_nothing_and_no_pot_is_carried() -> None:
    racks = (FIVE_BAM[0], "111B 222B 333B 444B 6B", *FIVE_BAM[2:])
    state, _ = act(position(STANDARD, racks, short_wall=True), "East: discard 5B",
                   "South: pass", "West: pass", "North: pass")
    assert state.result is not None and state.result.totals == (0, 0, 0, 0)
    assert state.result.pot == 0
    with pytest.raises(InvalidInput, match="quarters-pot"):
        new_game(STANDARD, engine_card(), 1, NAMES, pot=100)
    with pytest.raises(InvalidInput, match="below 0"):
        new_game(POT, engine_card(), 1, NAMES, pot=-1)


# -- paying for the table ------------------------------------------------------------------

def test_throwing_to_three_exposures_pays_for_the_table() -> None:
    state, _ = act(position(TABLE, THREE_EXPOSED_RACKS, exposures=THREE_EXPOSED), *SOUTH_WINS)
    assert state.result is not None
    assert _lines(state) == [
        "South goes Mah Jongg with p1 (25), on East's discard.",
        "East pays South for the table: 2 x 25 + 25 + 25 = 100 (threw the winning tile to a "
        "hand showing 3 exposures).",
        "West and North pay nothing: East paid for the table.",
    ]
    assert state.result.settlement == (-100, 100, 0, 0)
    check_invariants(state)


@pytest.mark.parametrize(("rules", "three", "expected"), [
    (TABLE, False, (-50, 100, -25, -25)),                           # two exposures
    (STANDARD, True, (-50, 100, -25, -25)),                         # the option is off
    (replace(TABLE, pay_for_table_exposures=2), False, (-100, 100, 0, 0)),
])
def test_who_pays_for_the_table_depends_on_the_exposures_and_the_option(
        rules: RuleSet, three: bool, expected: tuple[int, ...]) -> None:
    start = (position(rules, THREE_EXPOSED_RACKS, exposures=THREE_EXPOSED) if three
             else position(rules, TWO_EXPOSED_RACKS, exposures=TWO_EXPOSED))
    state, _ = act(start, *SOUTH_WINS)
    assert state.result is not None and state.result.settlement == expected


def test_the_exposures_are_counted_before_the_winning_call() -> None:
    # South calls the 3B for a third exposure, then declares: the thrower fed a hand showing
    # two exposures, so the payments are the usual ones.
    racks = (FIVE_BAM[0].replace("5B", "3B"), "33B 444B 55B", *FIVE_BAM[2:])
    state, _ = act(position(TABLE, racks, exposures=TWO_EXPOSED), "East: discard 3B",
                   "South: call pung 3B", "West: pass", "North: pass", "South: mahjong")
    assert state.result is not None
    assert state.result.declared[0].exposures_before == 2
    assert state.result.settlement == (-50, 100, -25, -25)


def test_a_self_pick_never_makes_anyone_pay_for_the_table() -> None:
    racks = ("6C 7C 8C 9C 1D 2D 3D 4D 6D 7D 8D 9D N", "444B 55B", *FIVE_BAM[2:])
    state, _ = act(position(TABLE, racks, exposures=THREE_EXPOSED, turn=1), "South: mahjong")
    assert state.result is not None and state.result.settlement == (-50, 150, -50, -50)


def test_three_players_pay_for_a_table_of_three() -> None:
    rules = replace(THREE_PLAYER, pay_for_table=True)
    state, _ = act(position(rules, THREE_EXPOSED_RACKS[:3], exposures=THREE_EXPOSED),
                   "East: discard 5B", "South: call mahjong", "West: pass")
    assert state.result is not None
    assert _lines(state)[1:] == [
        "East pays South for the table: 2 x 25 + 25 = 75 (threw the winning tile to a hand "
        "showing 3 exposures).",
        "West pays nothing: East paid for the table.",
    ]
    assert state.result.settlement == (-75, 75, 0)


# -- the hot wall ----------------------------------------------------------------------------

def test_a_fresh_tile_thrown_late_pays_for_the_table_under_the_hot_wall() -> None:
    state, _ = act(position(HOT, FIVE_BAM, wall="E", short_wall=True), *SOUTH_WINS)
    assert state.result is not None and state.result.declared[0].hot_wall
    assert _lines(state)[2:] == [
        "East pays South for the table: 2 x 50 + 50 + 50 = 200 (hot wall: threw a tile "
        "nobody had discarded, in the last 20 tiles).",
        "West and North pay nothing: East paid for the table.",
    ]
    assert state.result.settlement == (-200, 200, 0, 0)


@pytest.mark.parametrize(("rules", "short_wall"), [
    (HOT, False),                                # the wall is still long
    (replace(HOT, wall_end_tiles=1), True),      # "the last part" is shorter than the wall
    (STANDARD, True),                            # no hot wall at this table
])
def test_the_hot_wall_needs_the_last_part_of_the_wall(rules: RuleSet,
                                                      short_wall: bool) -> None:
    state, _ = act(position(rules, FIVE_BAM, wall="E E", short_wall=short_wall), *SOUTH_WINS)
    assert state.result is not None and not state.result.declared[0].hot_wall
    assert state.result.settlement == (-100, 200, -50, -50)


def test_a_kind_thrown_before_is_not_hot_even_once_called_away() -> None:
    # East throws the first 5B; West calls it (so no 5B lies in the discards), throws an
    # East, and North, after drawing, throws the second 5B to South.
    state, _ = act(position(HOT, FIVE_BAM, wall="E", short_wall=True),
                   "East: discard 5B", "South: pass", "West: call pung 5B jokers=1",
                   "North: pass", "West: discard E", "North: pass", "East: pass",
                   "South: pass", "North: discard 5B", "East: pass", "South: call mahjong",
                   "West: pass")
    assert parse_tile("5B") not in state.kinds(t for _, t in state.discards)
    assert state.result is not None and not state.result.declared[0].hot_wall
    assert state.result.settlement == (-50, 200, -50, -100)


def test_hot_wall_and_three_exposures_give_both_reasons() -> None:
    rules = replace(HOT, pay_for_table=True)
    state, _ = act(position(rules, THREE_EXPOSED_RACKS, exposures=THREE_EXPOSED, wall="E",
                            short_wall=True), *SOUTH_WINS)
    assert state.result is not None
    assert _lines(state)[1] == (
        "East pays South for the table: 2 x 25 + 25 + 25 = 100 (threw the winning tile to a "
        "hand showing 3 exposures; hot wall: threw a tile nobody had discarded, in the last "
        "20 tiles).")


# -- the cold wall ---------------------------------------------------------------------------

def test_under_the_cold_wall_nobody_wins_on_a_discard_late_in_the_wall() -> None:
    racks = (*FIVE_BAM[:2], "N J 1C 2C 3C 4C 5C 5D E W S R G", FIVE_BAM[3])
    state = position(COLD, racks, wall="5B", short_wall=True)
    state, _ = act(state, "East: discard 5B")
    assert not any(isinstance(o.action, CallMahjong) for o in legal_actions(state, 1))
    with pytest.raises(IllegalAction, match="Cold wall: with 20 or fewer tiles left"):
        act(state, "South: call mahjong")
    # South passes and picks the last 5B itself: a self-picked win counts.
    state, _ = act(state, "South: pass", "West: pass", "North: pass")
    assert Mahjong(1) in [o.action for o in legal_actions(state, 1)]
    state, lines = act(state, "South: mahjong")
    assert lines[0] == "South: mahjong p1 groups=111B/222B/333B/444B/55B self-picked"


def test_under_the_cold_wall_a_call_cannot_be_turned_into_a_win() -> None:
    racks = (FIVE_BAM[0].replace("5B", "4B"), "111B 222B 333B 44B 55B", "5B J 1C 2C 3C 4C 5C "
             "5D E W S R G", "6B 7B 8B 9B 1C 2C 3C 4C F F 0 0 N")
    state, _ = act(position(COLD, racks, wall="E", short_wall=True), "East: discard 4B",
                   "South: call pung 4B", "West: pass", "North: pass")
    assert not any(isinstance(o.action, Mahjong) for o in legal_actions(state, 1))
    with pytest.raises(IllegalAction, match="Discard, and win with a tile you pick"):
        act(state, "South: mahjong")
    early, _ = act(position(COLD, racks), "East: discard 4B", "South: call pung 4B",
                   "West: pass", "North: pass", "South: mahjong")
    assert early.result is not None and early.result.settlement == (-100, 200, -50, -50)


def test_under_the_cold_wall_an_exchange_that_completes_the_hand_still_wins() -> None:
    # After calling the 4B South needs a third 3B; swapping its North for West's joker makes
    # the hand, and that counts as the pick.
    racks = ("4B 6C 7C 8C 9C 1D 2D 3D 4D 6D 7D 8D 9D N", "111B 222B 33B 44B 55B N",
             "5B 1C 2C 3C 4C 5C 5D E W S", FIVE_BAM[3])
    state, _ = act(position(COLD, racks, exposures={2: ["NN J"]}, wall="E", short_wall=True),
                   "East: discard 4B", "South: call pung 4B", "West: pass", "North: pass",
                   "South: exchange N seat=West group=1")
    state, lines = act(state, "South: mahjong")
    assert lines[0].endswith("self-picked")


def test_a_long_wall_is_not_cold_yet() -> None:
    state, _ = act(position(COLD, FIVE_BAM), "East: discard 5B")
    assert any(isinstance(o.action, CallMahjong) for o in legal_actions(state, 1))


# -- which tables may use them --------------------------------------------------------------

@pytest.mark.parametrize("changes", [
    {"quarters_pot": True}, {"pay_for_table": True}, {"wall_end": WallEnd.HOT},
])
def test_house_payments_need_money_payments(changes: dict[str, object]) -> None:
    with pytest.raises(InvalidInput, match="only work with nmjl"):
        replace(TOURNAMENT, **changes)  # type: ignore[arg-type]


def test_the_cold_wall_plays_at_any_table() -> None:
    assert replace(TOURNAMENT, wall_end=WallEnd.COLD).wall_end is WallEnd.COLD


@pytest.mark.parametrize("changes", [
    {"pot_ante": 0}, {"pay_for_table_exposures": 5}, {"wall_end_tiles": 0},
    {"wall_end_tiles": 153},
])
def test_house_parameters_out_of_range_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(InvalidInput, match="don't fit"):
        replace(STANDARD, **changes)  # type: ignore[arg-type]
