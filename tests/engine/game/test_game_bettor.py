"""The bettor, played through the engine: a fifth person backs one seat before the deal and
wins or loses with it (standard rules; how it pays is Jongg's decision, see
docs/rules-notes.md). Money payments only; every game still replays from its seed, pot and bet."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_cards import engine_card
from game_helpers import NAMES, act, check_invariants, position
from hypothesis import given, settings
from hypothesis import strategies as st
from test_game_house_payments import (
    FIVE_BAM,
    POT,
    SOUTH_WINS,
    TABLE,
    THREE_EXPOSED,
    THREE_EXPOSED_RACKS,
)

from bot.engine.errors import InvalidInput
from bot.engine.game import (
    SIAMESE,
    STANDARD,
    THREE_PLAYER,
    TOURNAMENT,
    format_event,
    new_game,
    parse_event,
    replay,
)
from bot.engine.game.events import EndReason, GameOver
from bot.engine.game.rules import RuleSet
from bot.engine.game.scoring import score
from bot.engine.game.state import Declared, GameState, Took
from bot.engine.game.view import spectator_view

SOUTH, WEST, NORTH, EAST = 1, 2, 3, 0
#: South self-picks the 5B it waits for (no jokers: 50, everyone pays double).
SELF_PICK = ("6C 7C 8C 9C 1D 2D 3D 4D 6D 7D 8D 9D N", "111B 222B 333B 444B 55B", *FIVE_BAM[2:])
#: South waits on 6B, which nobody throws: East's 5B passes and the wall runs out.
NO_WINNER = (FIVE_BAM[0], "111B 222B 333B 444B 6B", *FIVE_BAM[2:])
WALL_GAME = ("East: discard 5B", "South: pass", "West: pass", "North: pass")


def _over(state: GameState) -> tuple[tuple[int, ...], int]:
    assert state.result is not None and state.result.bettor is not None
    return state.result.settlement, state.result.bettor


def _texts(state: GameState) -> list[str]:
    assert state.result is not None
    return [line.text for line in state.result.lines]


def test_backing_the_winner_on_a_discard_collects_what_each_loser_paid() -> None:
    state, lines = act(position(STANDARD, FIVE_BAM, bet=SOUTH), *SOUTH_WINS)
    assert _texts(state)[-4:] == [
        "The bettor backed South and wins with South.",
        "West pays the bettor 50 (as much as it paid South).",
        "North pays the bettor 50 (as much as it paid South).",
        "East pays the bettor 100 (as much as it paid South).",
    ]
    # South is paid as usual; the losers pay the bettor as much again.
    assert _over(state) == ((-200, 200, -100, -100), 200)
    assert "bettor=+100" in lines[-2]
    assert lines[-1].endswith("bettor=+200")
    check_invariants(state)


def test_backing_the_winner_of_a_self_pick() -> None:
    state, _ = act(position(STANDARD, SELF_PICK, turn=SOUTH, took=Took.DRAW, bet=SOUTH),
                   "South: mahjong")
    assert _over(state) == ((-200, 300, -200, -200), 300)


def test_backing_a_loser_pays_the_winner_what_that_seat_paid() -> None:
    on_thrower, _ = act(position(STANDARD, FIVE_BAM, bet=EAST), *SOUTH_WINS)
    assert _texts(on_thrower)[-1] == "The bettor backed East and pays South what East paid: 100."
    assert _over(on_thrower) == ((-100, 300, -50, -50), -100)
    on_other, _ = act(position(STANDARD, FIVE_BAM, bet=NORTH), *SOUTH_WINS)
    assert _over(on_other) == ((-100, 250, -50, -50), -50)


def test_under_pay_for_the_table_the_bet_follows_who_paid() -> None:
    start = {"racks": THREE_EXPOSED_RACKS, "exposures": THREE_EXPOSED}
    # Backing the winner: only the thrower paid, for the whole table, and pays it again.
    winner, _ = act(position(TABLE, bet=SOUTH, **start), *SOUTH_WINS)
    assert _over(winner) == ((-200, 100, 0, 0), 100)
    # Backing the thrower costs the bettor the table; backing a spared seat, nothing.
    thrower, _ = act(position(TABLE, bet=EAST, **start), *SOUTH_WINS)
    assert _over(thrower) == ((-100, 200, 0, 0), -100)
    spared, _ = act(position(TABLE, bet=WEST, **start), *SOUTH_WINS)
    assert _over(spared) == ((-100, 100, 0, 0), 0)
    assert _texts(spared)[-1] == ("The bettor backed West, who paid nothing: the bettor "
                                  "pays nothing.")


def test_a_wall_game_costs_the_bettor_nothing_even_with_a_pot() -> None:
    state, _ = act(position(STANDARD, NO_WINNER, short_wall=True, bet=WEST), *WALL_GAME)
    assert _over(state) == ((0, 0, 0, 0), 0)
    assert _texts(state)[-1] == "The bettor backed West: with no winner the bet costs nothing."
    antes, _ = act(position(POT, NO_WINNER, short_wall=True, bet=WEST), *WALL_GAME)
    assert _over(antes) == ((-25, -25, -25, -25), 0)
    # The pot goes to the winner, not to the bettor who backed the winner.
    won, _ = act(position(POT, FIVE_BAM, pot=100, bet=SOUTH), *SOUTH_WINS)
    assert _over(won) == ((-200, 300, -100, -100), 200)


def test_without_a_bettor_nothing_changes() -> None:
    state, lines = act(position(STANDARD, FIVE_BAM), *SOUTH_WINS)
    assert state.result is not None and state.result.bettor is None
    assert "bettor" not in " ".join(lines)
    assert state.result.settlement == (-100, 200, -50, -50)


@pytest.mark.parametrize("rules", [TOURNAMENT, SIAMESE, THREE_PLAYER])
def test_the_bettor_is_refused_without_money_payments_at_four(rules: RuleSet) -> None:
    with pytest.raises(InvalidInput, match="bettor"):
        new_game(rules, engine_card(), 1, NAMES[:rules.players], bet=0)


def test_tournament_scoring_refuses_a_bettor_by_name() -> None:
    with pytest.raises(InvalidInput, match="only `nmjl` payments take one, not `tournament`"):
        new_game(TOURNAMENT, engine_card(), 1, NAMES, bet=2)
    with pytest.raises(InvalidInput, match="backs one of the seats"):
        new_game(STANDARD, engine_card(), 1, NAMES, bet=4)


def test_the_bet_is_public_and_replays_with_the_game() -> None:
    state = new_game(STANDARD, engine_card(), 5, NAMES, bet=NORTH)
    assert spectator_view(state).bet == NORTH
    rebuilt, _ = replay(STANDARD, engine_card(), 5, NAMES, (), bet=NORTH)
    assert rebuilt == state
    assert rebuilt != new_game(STANDARD, engine_card(), 5, NAMES)


def test_the_end_of_game_event_round_trips_with_the_bettor() -> None:
    for bettor in (None, 0, 75, -25):
        event = GameOver(EndReason.MAHJONG, (1, 2, 3, -6), (1, 2, 3, -6), bettor)
        assert parse_event(format_event(event, 4), 4) == event


_WIN = st.builds(
    lambda seat, value, jokerless, self_picked, thrower, exposures: Declared(
        seat=seat, rack=0, hand_id="h", value=value, jokerless=jokerless,
        singles_and_pairs=False, groups=(), self_picked=self_picked,
        discarder=None if self_picked else (seat + thrower) % 4,
        exposures_before=exposures),
    st.integers(0, 3), st.sampled_from((25, 30, 50, 75)), st.booleans(), st.booleans(),
    st.integers(1, 3), st.integers(0, 4))


@settings(max_examples=300, deadline=None)
@given(win=st.one_of(st.none(), _WIN), bet=st.integers(0, 3), pot=st.sampled_from((0, 50)),
       table=st.booleans(), quarters=st.booleans())
def test_five_people_settle_to_zero(win: Declared | None, bet: int, pot: int, table: bool,
                                    quarters: bool) -> None:
    rules = replace(STANDARD, pay_for_table=table, quarters_pot=quarters)
    pot = pot if quarters else 0
    reason = EndReason.WALL if win is None else EndReason.MAHJONG
    sheet = score(rules, engine_card(), reason, () if win is None else (win,),
                  ((False,),) * 4, pot, bet)
    assert sheet.bettor is not None
    # Over the four seats and the bettor, nobody gains what another did not lose, except
    # what the pot paid out (or took in).
    assert sum(sheet.settlement) + sheet.bettor == pot - sheet.pot
    assert sheet.bettor == sum(line.bettor for line in sheet.lines)
    if win is None:
        assert sheet.bettor == 0
    elif win.seat == bet:
        assert sheet.bettor >= 0
    else:
        assert sheet.bettor <= 0
