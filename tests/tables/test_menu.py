"""What a seat is offered (`bot.tables.menu`) and its options (`bot.tables.seat_options`): calls
only jokers would fill are skipped unless the seat asks for them, several calls fold behind
one choice, and declaring a hand dead is always a question first."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from bot.engine.cards import load_card
from bot.engine.game import (
    SIAMESE,
    STANDARD,
    GameState,
    Phase,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    seats_to_act,
    view,
)
from bot.engine.game.actions import Call, DeclareDead, Pass
from bot.engine.tiles import tile_name
from bot.library import shipped_card_paths
from bot.tables.auto import automatic
from bot.tables.menu import dead_question, joker_only, layout
from bot.tables.notifier import Table
from bot.tables.seat_options import JokerCalls, SeatOptions
from bot.terminal.prompt import Prompter

CARD = load_card(next(p for p in shipped_card_paths() if p.stem == "jongg-original")
                 .read_text())
OFFER = SeatOptions(joker_calls=JokerCalls.OFFER)
NAMES = ("Ann", "Bo")


def play_until(state: GameState, wanted: Callable[[GameState], bool]) -> GameState:
    """Everyone plays their first option until `wanted` holds."""
    for _ in range(2000):
        if wanted(state):
            return state
        seat = seats_to_act(state)[0]
        state, _ = apply(state, legal_actions(state, seat)[0].action)
    raise AssertionError("never happened")


def only_joker_calls(state: GameState) -> bool:
    """Ann is asked about a discard she could call several ways, every one of them with
    jokers alone."""
    if state.phase is not Phase.CLAIM or 0 not in seats_to_act(state):
        return False
    calls = [o.action for o in legal_actions(state, 0) if isinstance(o.action, Call)]
    return len(calls) > 1 and all(joker_only(c) for c in calls)


def test_options_read_back_and_tolerate_what_they_do_not_know() -> None:
    assert SeatOptions.from_json(OFFER.to_json()) == OFFER
    assert SeatOptions().joker_calls is JokerCalls.SKIP
    for stored in ("{}", "not json", "[1]", '{"joker_calls": "sometimes", "colour": 3}'):
        assert SeatOptions.from_json(stored) == SeatOptions()
    assert SeatOptions.from_json('{"joker_calls": "offer", "later": true}') == OFFER


def test_calls_only_jokers_would_fill_are_skipped_and_not_asked_about() -> None:
    state = play_until(new_game(SIAMESE, CARD, 1, NAMES), only_joker_calls)
    seen = view(state, 0)
    skipped = layout(seen, SeatOptions())
    assert skipped.calls == () and skipped.hidden > 1 and not skipped.asks(seen)
    offered = layout(seen, OFFER)
    assert len(offered.calls) == offered.hidden + skipped.hidden and offered.asks(seen)
    # The table passes for a seat that skips them, without a question...
    table = Table(1, 0, 0, None, NAMES, (1, None), SIAMESE, CARD, True)
    assert automatic(seen, SeatOptions(), CARD, SIAMESE.counts, None) == Pass(0)
    assert automatic(seen, OFFER, CARD, SIAMESE.counts, None) is None
    # ... and the terminal asks one that wants them, with the calls behind one choice.
    out = io.StringIO()
    answers = iter(["2", "1"])
    chosen = Prompter(lambda prompt: next(answers), out).choose(
        table.with_options(0, OFFER), seen)
    assert chosen == seen.legal[offered.calls[0]].action
    shown = out.getvalue()
    assert f"2. Call {tile_name(seen.claim.kind)}… ({len(offered.calls)} ways)" in shown  # type: ignore[union-attr]
    assert shown.count(" 1. Call ") == 1 and "Ways to call Bo's" in shown


@pytest.mark.parametrize(("rules", "hand", "cost"), [
    (STANDARD, "Bo's hand", "your own hand dies instead: you stop playing and still pay"),
    (SIAMESE, "Bo's rack 1", "one of your own racks dies instead and stops playing"),
])
def test_declaring_dead_is_folded_and_its_question_names_the_hand_and_the_cost(
        rules: RuleSet, hand: str, cost: str) -> None:
    players = ("Ann", "Bo", "Cy", "Di")[:rules.players]
    state = play_until(new_game(rules, CARD, 2, players),
                       lambda s: any(isinstance(o.action, DeclareDead)
                                     for o in legal_actions(s, 0)))
    seen = view(state, 0)
    offered = layout(seen, SeatOptions())
    declarations = [i for i, o in enumerate(seen.legal) if isinstance(o.action, DeclareDead)]
    assert offered.dead == tuple(declarations)
    assert not set(declarations) & set(offered.direct)
    action = seen.legal[declarations[0]].action
    assert isinstance(action, DeclareDead)
    question = dead_question(seen, action, players)
    assert question.startswith(f"Declare {hand} dead (nothing exposed)?")
    assert question.endswith(f"If you're wrong, {cost}.")
