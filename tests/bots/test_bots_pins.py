"""Pinned games: whole seeded games by the random and chaos bots and every level, on every table
size and on tables with house options, must play exactly as they did when the pins were made.

The engine's speed work (caches on the frozen state, views built from kept parts, the
matcher's shortcuts) must change nothing a player or a log could see. So each game here is
played step by step through the public API, and a digest is taken of every action, every
event and every seat's whole `View` (its legal options included) at every step, not only
the acting seat's; the digest, with the action count, is compared with the one stored in
`golden/pins.txt`. The chaos bot takes every option (wrong dead-hand declarations,
self-killing calls), so the rarely used paths are pinned too.

After an intended change to what games do (the engine, a bot's decisions, the shipped card),
regenerate with

    JONGG_REGEN_PINS=1 .venv/bin/pytest tests/bots/test_bots_pins.py

and say in the commit why the games changed.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from bot.bots import make_player
from bot.bots.simulate import MAX_ACTIONS, player_names
from bot.engine.game import (
    Phase,
    apply,
    format_action,
    format_event,
    new_game,
    seats_to_act,
    view,
)
from bot.library import shipped_card
from tests.rule_tables import TABLES

PINS = Path(__file__).resolve().parent / "golden" / "pins.txt"
REGENERATE = os.environ.get("JONGG_REGEN_PINS") == "1"

#: Bots per game: one kind for every seat, or a mixed table (cut to the table's size).
LINEUPS: dict[str, tuple[str, ...]] = {
    "random": ("random",) * 4,
    "chaos": ("chaos",) * 4,
    "easy": ("easy",) * 4,
    "normal": ("normal",) * 4,
    "strong": ("strong",) * 4,
    "mixed": ("strong", "chaos", "random", "easy"),
}

GAMES = [(table, lineup, seed) for table in TABLES for lineup in LINEUPS
         for seed in ((1, 2) if lineup in ("random", "chaos") else (3,))]


def _digest(table: str, lineup: str, seed: int) -> tuple[int, str]:
    """Play one game; its action count and the digest of everything every seat saw."""
    rules = TABLES[table]
    card = shipped_card()
    kinds = LINEUPS[lineup][:rules.players]
    players = [make_player(kind, card, rules.counts, seed * 8 + seat)
               for seat, kind in enumerate(kinds)]
    state = new_game(rules, card, seed, player_names(kinds))
    digest = hashlib.sha256()
    for event in state.opening:
        digest.update(format_event(event, rules.players).encode())
    while state.phase is not Phase.OVER:
        assert len(state.actions) < MAX_ACTIONS, "the game did not end"
        seen = [view(state, seat) for seat in range(rules.players)]
        for one in seen:
            digest.update(repr(one).encode())
        seat = seats_to_act(state)[0]
        action = players[seat].choose(seen[seat], seen[seat].legal)
        digest.update(format_action(action, rules.players).encode())
        state, events = apply(state, action)
        for event in events:
            digest.update(format_event(event, rules.players).encode())
    digest.update(repr(view(state, 0)).encode())
    return len(state.actions), digest.hexdigest()


def _stored() -> dict[str, str]:
    if not PINS.exists():
        return {}
    lines = PINS.read_text(encoding="utf-8").splitlines()
    return {key: value for key, _, value in (line.rpartition(" ") for line in lines
                                             if line and not line.startswith("#"))}


@pytest.mark.parametrize(("table", "lineup", "seed"), GAMES)
def test_pinned_game_plays_as_before(table: str, lineup: str, seed: int) -> None:
    actions, digest = _digest(table, lineup, seed)
    key = f"{table} {lineup} {seed}"
    found = f"{actions}:{digest}"
    if REGENERATE:
        stored = _stored()
        stored[key] = found
        PINS.write_text("# Pinned games (see test_bots_pins.py): table lineup seed "
                        "actions:digest\n" + "".join(f"{k} {v}\n" for k, v in sorted(
                            stored.items())), encoding="utf-8")
    assert _stored().get(key) == found
