"""Golden games: whole seeded games played by a simple deterministic policy
(`game_policy.choose`, the first seat that must act moves first), stored as text and compared
exactly: the action log, and every event of the game.

To regenerate after an intended change, run

    JONGG_REGEN_GOLDEN=1 .venv/bin/pytest tests/engine/game/test_game_golden.py

and review the diff of `tests/engine/game/golden/` before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from game_cards import engine_card
from game_helpers import NAMES, check_invariants
from game_policy import choose

from bot.engine.game import (
    Phase,
    apply,
    format_action,
    format_event,
    new_game,
    parse_action,
    preset,
    replay,
    seats_to_act,
)
from bot.engine.game.rules import RuleSet

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("JONGG_REGEN_GOLDEN") == "1"
MAX_ACTIONS = 2000

GAMES = [
    ("standard", 3),
    ("standard", 11),
    ("tournament", 4),
    ("3-player", 8),
    ("siamese", 9),
    ("royale", 2),
    ("royale-3", 1),
]


def _play(rules: RuleSet, seed: int) -> tuple[list[str], list[str]]:
    state = new_game(rules, engine_card(), seed, NAMES[:rules.players])
    actions: list[str] = []
    events = [format_event(e, rules.players) for e in state.opening]
    while state.phase is not Phase.OVER:
        assert len(actions) < MAX_ACTIONS, "the game did not end"
        action = choose(state, seats_to_act(state)[0])
        state, happened = apply(state, action)
        check_invariants(state)
        actions.append(format_action(action, rules.players))
        events.extend(format_event(e, rules.players) for e in happened)
    return actions, events


def _text(name: str, seed: int, actions: list[str], events: list[str]) -> str:
    return "\n".join([
        "# A golden game (see test_game_golden.py for how to regenerate it).",
        f"rules: {name}", f"seed: {seed}", "card: Engine Test Card",
        "[actions]", *actions, "[events]", *events, "",
    ])


def _read(text: str) -> tuple[list[str], list[str]]:
    lines = text.splitlines()
    start, middle = lines.index("[actions]"), lines.index("[events]")
    return lines[start + 1:middle], lines[middle + 1:]


@pytest.mark.parametrize(("name", "seed"), GAMES)
def test_golden_game(name: str, seed: int) -> None:
    rules = preset(name)
    actions, events = _play(rules, seed)
    path = GOLDEN / f"{name}-{seed}.txt"
    if REGENERATE:
        path.write_text(_text(name, seed, actions, events), encoding="utf-8")
    stored_actions, stored_events = _read(path.read_text(encoding="utf-8"))
    assert actions == stored_actions
    assert events == stored_events


@pytest.mark.parametrize(("name", "seed"), GAMES)
def test_golden_log_replays_exactly(name: str, seed: int) -> None:
    rules = preset(name)
    stored_actions, stored_events = _read((GOLDEN / f"{name}-{seed}.txt").read_text("utf-8"))
    actions = [parse_action(line, rules.players) for line in stored_actions]
    state, events = replay(rules, engine_card(), seed, NAMES[:rules.players], actions)
    assert [format_event(e, rules.players) for e in events] == stored_events
    assert state.phase is Phase.OVER and state.actions == tuple(actions)
