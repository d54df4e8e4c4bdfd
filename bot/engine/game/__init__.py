"""The game engine: whole games of American Mah Jongg, exact and deterministic.

    state = new_game(STANDARD, card, seed=7, players=("Ann", "Bo", "Cy", "Di"))
    options = legal_actions(state, 0)          # what East may do now
    state, events = apply(state, options[0].action)
    seen = view(state, 1)                      # everything South may see, and nothing more
    state, events = replay(STANDARD, card, 7, players, state.actions)

State is a frozen value and `apply` is the only way it changes; it raises `IllegalAction` (or
`NotYourTurn`) with a message written for a player. `legal_actions` is the one source of
legality. Actions and events have a text form (`format_action` / `parse_action`,
`format_event` / `parse_event`) for logs and tests. Replaying the actions from the same seed
reproduces the game exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.cards.model import Card
from bot.engine.errors import IllegalAction, InvalidInput
from bot.engine.game import charleston, claims, exchanges, turns
from bot.engine.game.action_text import format_action, parse_action
from bot.engine.game.actions import (
    Action,
    Call,
    CallMahjong,
    DeclareDead,
    Discard,
    Exchange,
    Give,
    Mahjong,
    Offer,
    Option,
    Pass,
    SwapBlank,
    TileChoice,
    Vote,
)
from bot.engine.game.bettor import check_bet
from bot.engine.game.deal import deal
from bot.engine.game.event_text import format_event, parse_event
from bot.engine.game.events import Dealt, Event, WallBuilt, for_seat, public
from bot.engine.game.legal import legal_options, seats_to_act
from bot.engine.game.rules import (
    PRESETS,
    SIAMESE,
    STANDARD,
    THREE_PLAYER,
    TOURNAMENT,
    RuleSet,
    Walls,
    preset,
)
from bot.engine.game.state import GameState, Phase, SeatState, evolve, recorded
from bot.engine.game.view import View, build_view, spectator_view
from bot.engine.matcher import matcher_for


def _has_sextet(card: Card) -> bool:
    return any(form.identical and form.size == 6 for hand in card.hands
               for pattern in hand.patterns for group in pattern for form in group.forms)


def new_game(rules: RuleSet, card: Card, seed: int, players: Sequence[str],
             pot: int = 0, bet: int | None = None) -> GameState:
    """Shuffle, build and break the wall, deal, and open the Charleston (or play).

    `pot` is what the quarters pot holds from earlier wall games (only under that house
    option, see `RuleSet`); the winner takes it. `bet` is the seat a bettor backs: a fifth
    person at a four-player table with `nmjl` payments, who chose before the deal (seeing no
    tile) and wins or loses with that seat (see `bot.engine.game.scoring`). Like the seed
    and the pot it is an input of the game, so the game replays from them. The deal's
    events are kept in `state.opening`."""
    if len(players) != rules.players:
        raise InvalidInput(f"{rules.name} needs {rules.players} players, not {len(players)}.")
    if pot < 0 or (pot and not rules.quarters_pot):
        raise InvalidInput("A pot is carried only into quarters-pot games, and never below 0.")
    if bet is not None:
        check_bet(rules, bet)
    tiles, record, wall = deal(rules, seed)
    seats = tuple(SeatState(concealed=hand, dead=(False,) * rules.racks)
                  for hand in record.hands)
    state = GameState(
        rules=rules, card=card, seed=seed, players=tuple(players), tiles=tiles, deal=record,
        wall=wall, seats=seats, discards=(), phase=Phase.CHARLESTON,
        sextets=_has_sextet(card), pot=pot, bet=bet, matcher=matcher_for(card, rules.counts))
    events: list[Event] = [WallBuilt(record.dice, record.break_stack, len(wall),
                                     rules.walls is Walls.BUILT)]
    events.extend(Dealt(seat, len(hand), state.kinds(hand))
                  for seat, hand in enumerate(record.hands))
    state = charleston.begin(state, events)
    return evolve(state, opening=tuple(events))


def legal_actions(state: GameState, seat: int) -> tuple[Option, ...]:
    """What `seat` may do now, as options (see `Option`); empty when it need not act."""
    return legal_options(state, seat)


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply one action; the new state and what happened. Raises `IllegalAction` (or its
    subclass `NotYourTurn`) with a message for the player when the action isn't legal."""
    if state.phase is Phase.OVER:
        raise IllegalAction("The game is over.")
    if not 0 <= action.seat < state.size:
        raise IllegalAction("There is no such seat at this table.")
    events: list[Event] = []
    match action:  # the commonest first: three answers to every discard
        case Pass() | Call() | CallMahjong():
            new = claims.answer(state, action, events)
        case Discard():
            new = turns.discard(state, action, events)
        case Give():
            new = charleston.give(state, action, events)
        case Vote():
            new = charleston.vote(state, action, events)
        case Offer():
            new = charleston.offer(state, action, events)
        case Exchange():
            new = exchanges.exchange(state, action, events)
        case SwapBlank():
            new = exchanges.swap_blank(state, action, events)
        case DeclareDead():
            new = turns.declare_dead(state, action, events)
        case Mahjong():
            new = turns.declare_mahjong(state, action, events)
    return recorded(state, new, action), tuple(events)


def view(state: GameState, seat: int) -> View:
    """Everything `seat` may see: its own tiles, the table, counts, and its legal options."""
    if not 0 <= seat < state.size:
        raise InvalidInput("There is no such seat at this table.")
    return build_view(state, seat)


def replay(rules: RuleSet, card: Card, seed: int, players: Sequence[str],
           actions: Iterable[Action], pot: int = 0,
           bet: int | None = None) -> tuple[GameState, tuple[Event, ...]]:
    """Rebuild a game from its seed (and the pot it started with, and the bettor's seat)
    and action list; the final state and every event (the deal's first)."""
    state = new_game(rules, card, seed, players, pot, bet)
    events: list[Event] = list(state.opening)
    for action in actions:
        state, more = apply(state, action)
        events.extend(more)
    return state, tuple(events)


__all__ = [
    "PRESETS", "SIAMESE", "STANDARD", "THREE_PLAYER", "TOURNAMENT", "Action", "Call",
    "CallMahjong", "DeclareDead", "Discard", "Event", "Exchange", "GameState", "Give",
    "Mahjong", "Offer", "Option", "Pass", "Phase", "RuleSet", "SwapBlank", "TileChoice", "View",
    "Vote", "apply", "for_seat", "format_action", "format_event", "legal_actions", "new_game",
    "parse_action", "parse_event", "preset", "public", "replay", "seats_to_act",
    "spectator_view", "view",
]
