"""Building exact positions from text, applying actions written as text, and checking
invariants, for the engine's scenario and property tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from game_cards import engine_card

from bot.engine.cards import Card
from bot.engine.game import apply, format_event, new_game, parse_action
from bot.engine.game.events import Event
from bot.engine.game.rules import RuleSet
from bot.engine.game.state import (
    CharlestonState,
    GameState,
    Phase,
    SeatState,
    TableExposure,
    Took,
    TurnState,
)
from bot.engine.matcher import Exposure
from bot.engine.tiles import parse_tiles

NAMES = ("Ann", "Bo", "Cy", "Di")
CHARLESTON_PHASES = (Phase.CHARLESTON, Phase.VOTE, Phase.COURTESY_OFFER, Phase.COURTESY_PASS)


class _Ids:
    """Hands out the lowest unused tile id of each kind."""

    def __init__(self, tiles: tuple[int, ...]) -> None:
        self.free: dict[int, list[int]] = {}
        for tile_id, kind in enumerate(tiles):
            self.free.setdefault(kind, []).append(tile_id)

    def take(self, kinds: Sequence[int]) -> tuple[int, ...]:
        return tuple(self.free[kind].pop(0) for kind in kinds)

    def rest(self) -> tuple[int, ...]:
        return tuple(sorted(t for ids in self.free.values() for t in ids))


def position(rules: RuleSet, racks: Sequence[str], *, card: Card | None = None,
             wall: str = "", exposures: Mapping[int, Sequence[str | tuple[int, str]]] | None
             = None, discards: Sequence[tuple[int, str]] = (), turn: int = 0,
             took: Took = Took.DRAW, called_from: int | None = None,
             charleston_step: int | None = None, short_wall: bool = False,
             pot: int = 0, bet: int | None = None) -> GameState:
    """A game state with these racks (concealed tiles per seat, in the notation), exposures
    per seat (`"333B J"`, or `(rack, "333B J")` for Siamese racks), discards, and the wall
    starting with `wall` (every other tile follows, lowest id first). The discards count as
    thrown in this game (see `GameState.thrown`).

    The seat `turn` is on turn (phase TURN), or, with `charleston_step`, the Charleston is at
    that pass. With `short_wall` the wall holds only `wall` and every other tile lies in the
    discards (thrown by the seat before `turn`). `pot` is the quarters pot the game began with,
    `bet` the seat a bettor backs.

    Exposures written here count as made while their hand could still match the card (none
    is `dead_when_made`, so none locks its jokers when the hand is declared dead): to test an
    exposure that made a hand dead, make it with a call."""
    state = new_game(rules, card or engine_card(), 0, NAMES[:rules.players], pot, bet)
    ids = _Ids(state.tiles)
    seats: list[SeatState] = []
    for seat, text in enumerate(racks):
        concealed = ids.take(parse_tiles(text))
        table: list[TableExposure] = []
        for spec in (exposures or {}).get(seat, ()):
            rack, text_exposure = spec if isinstance(spec, tuple) else (0, spec)
            exposure = Exposure.parse(text_exposure)
            table.append(TableExposure(rack, exposure.kind, ids.take(exposure.tiles),
                                       (seat - 1) % rules.players))
        seats.append(SeatState(tuple(sorted(concealed)), tuple(table), (False,) * rules.racks))
    thrown = tuple((seat, ids.take(parse_tiles(text))[0]) for seat, text in discards)
    front = ids.take(parse_tiles(wall))
    if short_wall:
        thrower = (turn - 1) % rules.players
        thrown = tuple((thrower, t) for t in ids.rest()) + thrown
        front_rest = front
    else:
        front_rest = front + ids.rest()
    state = replace(state, seats=tuple(seats), discards=thrown, wall=front_rest,
                    thrown=state.kinds(t for _, t in thrown), claim=None, actions=(),
                    opening=())
    if charleston_step is not None:
        return replace(state, phase=Phase.CHARLESTON, turn=None,
                       charleston=CharlestonState(step=charleston_step,
                                                  gives=(None,) * rules.players))
    state = replace(state, phase=Phase.TURN, charleston=None,
                    turn=TurnState(turn, took, called_from))
    check_invariants(state)
    return state


def act(state: GameState, *texts: str) -> tuple[GameState, list[str]]:
    """Apply actions written as text; the new state and every event as text."""
    lines: list[str] = []
    for text in texts:
        state, events = apply(state, parse_action(text, state.size))
        lines.extend(event_lines(state, events))
    return state, lines


def event_lines(state: GameState, events: Sequence[Event]) -> list[str]:
    """Events as text lines."""
    return [format_event(event, state.size) for event in events]


def all_tile_ids(state: GameState) -> list[int]:
    """Every tile id in the wall, on racks, in exposures, in Mah Jonggs and the discards."""
    found = list(state.wall)
    for seat in state.seats:
        found.extend(seat.concealed)
        for exposure in seat.exposures:
            found.extend(exposure.tile_ids)
        for declared in seat.declared:
            for group in declared.groups:
                found.extend(group)
    found.extend(tile_id for _, tile_id in state.discards)
    return found


def check_invariants(state: GameState) -> None:
    """Every tile accounted for exactly once, and every seat holding the right count."""
    assert sorted(all_tile_ids(state)) == list(range(len(state.tiles))), "tiles lost or doubled"
    rules = state.rules
    for seat in range(state.size):
        count = state.tile_count(seat)
        if state.phase in CHARLESTON_PHASES:
            assert count == rules.deal_sizes()[seat], (seat, count)
        elif state.turn is not None and state.turn.seat == seat:
            assert count == rules.hand_tiles + 1, (seat, count)
        elif state.phase is Phase.OVER or not state.is_live(seat):
            assert count in (rules.hand_tiles, rules.hand_tiles + 1), (seat, count)
        else:
            assert count == rules.hand_tiles, (seat, count)


def unseen_changed(state: GameState, viewer: int) -> GameState:
    """The same game but for what `viewer` cannot see: one hidden tile of every other seat
    (not one it has already put forward in a Charleston pass) swapped with a wall tile of
    another kind."""
    changed = state
    gives = state.charleston.gives if state.charleston else ()
    for other in range(state.size):
        hidden = changed.seats[other].concealed
        given = gives[other] if other < len(gives) else None
        kept = [t for t in hidden if given is None or state.tiles[t] not in given.kinds]
        if other == viewer or not kept or not changed.wall:
            continue
        tile_id = kept[0]
        swap = next((w for w in changed.wall if state.tiles[w] != state.tiles[tile_id]), None)
        if swap is None:
            continue
        seats = list(changed.seats)
        seats[other] = replace(seats[other], concealed=tuple(sorted(
            (*(t for t in hidden if t != tile_id), swap))))
        wall = tuple(tile_id if w == swap else w for w in changed.wall)
        changed = replace(changed, seats=tuple(seats), wall=wall)
    return changed


def assert_no_leak(state: GameState, viewer: int) -> None:
    """A seat's view must not change when another seat's concealed tiles change (see
    `unseen_changed`)."""
    from bot.engine.game import view

    before = view(state, viewer)
    assert before.concealed == state.concealed_kinds(viewer)
    assert view(unseen_changed(state, viewer), viewer) == before


def assert_fresh_view(state: GameState, viewer: int) -> None:
    """A seat's view (its options included) must equal the one built from the same state made
    afresh: what the engine keeps on its records to go faster (`memo`, `carried`) may never
    be stale. `replace` runs each record's `__init__`, so the copy keeps nothing."""
    from bot.engine.game import view

    fresh = replace(state, seats=tuple(replace(seat) for seat in state.seats))
    assert view(state, viewer) == view(fresh, viewer)
