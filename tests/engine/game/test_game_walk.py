"""Random whole games for every table size, and for two tables with every house option: at
each step Hypothesis either lets the simple policy of the golden games move (so games reach
Mah Jongg) or chooses among the legal options itself (and among the concrete actions a tile
choice allows, blind passes included).

After every step: every tile is accounted for, no seat holds a wrong count, events round-trip
through text, and (every few steps) every option offered applies, views hide other seats'
concealed tiles and equal the views of the same state built afresh (no value the engine
keeps on its records is stale). Every game ends, replaying its actions reproduces the final
state, and no money is made or lost (what the seats and the bettor, when one backs a seat,
gain beyond what they pay came out of the pot). The Royale-style tables (two sets of 304
tiles, or one) walk the same way.
"""

from __future__ import annotations

import pytest
from game_cards import engine_card
from game_helpers import NAMES, assert_fresh_view, assert_no_leak, check_invariants
from game_policy import choose
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.errors import IllegalAction
from bot.engine.game import (
    Call,
    CallMahjong,
    DeclareDead,
    Give,
    Mahjong,
    Option,
    Phase,
    apply,
    format_action,
    format_event,
    legal_actions,
    new_game,
    parse_action,
    parse_event,
    replay,
    seats_to_act,
)
from bot.engine.game.actions import Action
from bot.engine.game.bettor import bettor_refusal
from bot.engine.game.dead import call_deadens, visible_counts
from bot.engine.game.rules import (
    RuleSet,
)
from bot.engine.game.state import GameState
from bot.engine.matcher import Exposure
from tests.rule_tables import TABLES

MAX_STEPS = 3000
CHECK_EVERY = 7

def _concrete(data: st.DataObject, option: Option) -> Action:
    """The option's action, or another concrete action its tile choice allows."""
    choice = option.choice
    if choice is None or not isinstance(option.action, Give) or data.draw(st.booleans()):
        return option.action
    blind = data.draw(st.integers(0, choice.blind_max))
    kinds = data.draw(st.permutations(choice.kinds))[:choice.count - blind]
    return Give(option.action.seat, tuple(sorted(kinds)), blind)


def _pick(data: st.DataObject, options: tuple[Option, ...]) -> Option:
    """Mostly play on: take a Mah Jongg when there is one, rarely declare a hand dead."""
    mode = data.draw(st.integers(0, 99))
    wins = [o for o in options if isinstance(o.action, Mahjong | CallMahjong)]
    if wins and mode < 90:
        return wins[0]
    calm = [o for o in options if not isinstance(o.action, DeclareDead)]
    pool = options if mode < 2 or not calm else tuple(calm)
    return data.draw(st.sampled_from(pool))


def _every_option_applies(state: GameState, seat: int) -> None:
    """Every option applies, and each call is flagged exactly when it kills the caller's hand
    (`claim_options` judges some calls from others)."""
    for option in legal_actions(state, seat):
        apply(state, option.action)
        call = option.action
        if isinstance(call, Call):
            exposure = Exposure(call.kind, call.size, call.jokers)
            assert option.deadens == call_deadens(state, seat, exposure, call.rack,
                                                  visible_counts(state)), call


def _walk(rules: RuleSet, seed: int, data: st.DataObject) -> None:
    pot = data.draw(st.sampled_from((0, 100))) if rules.quarters_pot else 0
    bet = (data.draw(st.sampled_from((None, 0, 1, 2, 3))) if bettor_refusal(rules) is None
           else None)
    state = new_game(rules, engine_card(), seed, NAMES[:rules.players], pot, bet)
    check_invariants(state)
    for step in range(MAX_STEPS):
        if state.phase is Phase.OVER:
            break
        seat = data.draw(st.sampled_from(seats_to_act(state)))
        options = legal_actions(state, seat)
        assert options, f"{state.name(seat)} must act but has no options in {state.phase}"
        if data.draw(st.integers(0, 9)) > 2:
            action = choose(state, seat)
        else:
            action = _concrete(data, _pick(data, options))
        text = format_action(action, rules.players)
        assert parse_action(text, rules.players) == action
        if step % CHECK_EVERY == 0:
            _every_option_applies(state, seat)
            # Only the seats the game waits for have moves (besides a heavenly hand).
            for other in set(range(rules.players)) - set(seats_to_act(state)):
                assert all(isinstance(o.action, Mahjong)
                           for o in legal_actions(state, other)), (other, state.phase)
            for viewer in range(rules.players):
                assert_no_leak(state, viewer)
                assert_fresh_view(state, viewer)
        state, events = apply(state, action)
        check_invariants(state)
        for event in events:
            assert parse_event(format_event(event, rules.players), rules.players) == event
    assert state.phase is Phase.OVER, "the game did not end"
    assert state.result is not None
    bettor = state.result.bettor
    assert (bettor is None) == (bet is None)
    assert (sum(state.result.settlement) + (bettor or 0) == pot - state.result.pot
            or rules.scoring.value == "tournament")
    rebuilt, _ = replay(rules, engine_card(), seed, NAMES[:rules.players], state.actions, pot,
                        bet)
    assert rebuilt == state
    with pytest.raises(IllegalAction, match="over"):
        apply(state, state.actions[-1])


@pytest.mark.parametrize("table", list(TABLES))
@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.large_base_example])
@given(seed=st.integers(0, 2**31), data=st.data())
def test_random_games(table: str, seed: int, data: st.DataObject) -> None:
    _walk(TABLES[table], seed, data)
