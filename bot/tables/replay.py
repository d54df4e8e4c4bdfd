"""What a game's log shows, and when: the one rule behind `/mj replay`.

* In the lobby: nothing. The seed alone would tell anyone the deal to come.
* While the game is played: the public record, what anyone watching the table has seen. The
  log is replayed in the engine and every event is written in its public form (`public`):
  discards, calls and exposures, joker exchanges, blank swaps, dead hands, Mah Jongg and the
  score; draws, deals and Charleston passes only as who got how many tiles, never which. No
  seed, no action (an action names the tiles a seat passed).
* Once the game is over (finished or aborted): the full log, the seed and every action, from
  which the game replays exactly to settle a dispute.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from bot.engine.game import Event, GameState, format_event, parse_action, public, replay
from bot.engine.game.events import Ready
from bot.engine.game.rules import seat_names
from bot.server_cards import parse_card
from bot.store import Action, Game, GameStatus
from bot.tables.options import read_table_options


class LogKind(Enum):
    """How much of a game's log may be shown now."""

    NOTHING = "nothing"
    PUBLIC = "public"
    FULL = "full"


@dataclass(frozen=True)
class GameLog:
    """A game's log as it may be shown now: a header line, then one line per event (the
    public record) or per action (the full log)."""

    kind: LogKind
    lines: tuple[str, ...]
    moves: int


def log_kind(status: GameStatus) -> LogKind:
    """What may be shown of a game in this state (see the module docstring)."""
    if status is GameStatus.LOBBY:
        return LogKind.NOTHING
    if status is GameStatus.PLAYING:
        return LogKind.PUBLIC
    return LogKind.FULL


def replay_stored(game: Game, texts: Sequence[str], players: Sequence[str] = ()
                  ) -> tuple[GameState, tuple[Event, ...]]:
    """Rebuild a stored game from its seed and logged action texts: the state and every
    event, the deal's first. Seats are named `players`, or by their winds."""
    rules = read_table_options(game.rules).rules
    actions = [parse_action(text, rules.players) for text in texts]
    return replay(rules, parse_card(game.card.text), game.seed,
                  players or seat_names(rules.players), actions)


def public_record(events: Sequence[Event], players: int) -> tuple[str, ...]:
    """The events as anyone at the table saw them, one line each. A `Ready` (someone made a
    hidden choice) says nothing worth a line."""
    return tuple(format_event(public(event), players) for event in events
                 if not isinstance(event, Ready))


def game_log(game: Game, actions: Sequence[Action]) -> GameLog:
    """What `/mj replay` shows of `game` now. A game in play is replayed in the engine, so
    call this off the event loop."""
    kind = log_kind(game.status)
    if kind is LogKind.NOTHING:
        return GameLog(kind, (), 0)
    if kind is LogKind.PUBLIC:
        state, events = replay_stored(game, [a.text for a in actions])
        head = (f"Table {game.id} · card {game.card.name} · in play: what the table has seen "
                f"in {len(actions)} moves")
        return GameLog(kind, (head, *public_record(events, state.size)), len(actions))
    head = f"Table {game.id} · seed {game.seed} · card {game.card.name}"
    return GameLog(kind, (head, *(f"{a.seq + 1:>4}. {a.text}" for a in actions)),
                   len(actions))
