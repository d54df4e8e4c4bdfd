"""Dead hands: what the table can see, judging a declaration, and what a dead hand keeps.

The engine never lets a seat hold the wrong number of tiles or make an exposure that is not a
pung, kong, quint or sextet, so a hand dies only because it can no longer match any card hand
given its exposures and what is visible, and only when another seat says so (a wrong
declaration kills the declarer's hand instead). Judging uses the matcher's `possible_hands`.
"""

from __future__ import annotations

from bot.engine.game.events import DeathCause, HandDead
from bot.engine.game.rules import DeadJokers
from bot.engine.game.state import (
    GameState,
    TableExposure,
    carried,
    discard_counts,
    evolve,
    with_seat,
)
from bot.engine.matcher import Exposure
from bot.engine.tiles import JOKER


def visible_counts(state: GameState) -> list[int]:
    """Tiles everyone can see that no hand can take any more, as a count per kind: every
    discard (a discarded joker included), every natural in an exposure or a laid-out Mah Jongg,
    and jokers that can never be exchanged back (in a Mah Jongg or a locked exposure).
    Counted once while the discards and the seats stay as they are (a claim window asks
    for it once per seat); each caller gets its own list."""
    return list(carried(state, "visible counts", _VISIBLE_FROM, lambda: _visible(state)))


#: The fields of the state `visible_counts` reads.
_VISIBLE_FROM = frozenset({"discards", "seats", "tiles"})


def _visible(state: GameState) -> tuple[int, ...]:
    counts = list(discard_counts(state))
    for seat_state in state.seats:
        for exposure in seat_state.exposures:
            for tile_id in exposure.tile_ids:
                kind = state.tiles[tile_id]
                if kind != JOKER or exposure.locked:
                    counts[kind] += 1
        for declared in seat_state.declared:
            for group in declared.groups:
                for tile_id in group:
                    counts[state.tiles[tile_id]] += 1
    return tuple(counts)


def rack_is_dead(state: GameState, seat: int, rack: int) -> bool:
    """Whether a rack can no longer become any card hand, judged only from what is visible."""
    return state.matcher.is_dead(state.rack_exposures(seat, rack), visible_counts(state))


def call_deadens(state: GameState, seat: int, exposure: Exposure, rack: int,
                 visible: list[int]) -> bool:
    """Whether exposing this (the called tile plus the seat's own tiles) would leave the rack
    no card hand, judged as a dead-hand declaration would be right after the call. `visible`
    is `visible_counts(state)` with the called tile still among the discards."""
    visible = list(visible)
    visible[exposure.kind] += exposure.size - exposure.jokers - 1
    exposures = (*state.rack_exposures(seat, rack), exposure)
    return state.matcher.is_dead(exposures, visible)


def _locks(exposures: tuple[TableExposure, ...], rack: int) -> tuple[TableExposure, ...]:
    """Lock a rack's exposures made when the hand could no longer match the card
    (`dead_when_made`): the one that made it dead, and any made after it went dead.

    Tournament sheet: "Jokers may be replaced from any exposure before a hand went 'dead'.
    Jokers in an exposure that made the hand dead are not available." Siamese rule 15:
    "Jokers may be exchanged from exposures in the 'dead' hand, but only if that exposure
    containing the Joker did not cause the hand to be declared 'dead.'" When the hand went
    dead counts what the discards had made impossible, not only its own exposures."""
    return tuple(evolve(e, locked=True) if e.rack == rack and e.dead_when_made else e
                 for e in exposures)


def kill(state: GameState, seat: int, rack: int, cause: DeathCause) -> tuple[GameState, HandDead]:
    """Make one rack of a seat dead. Under `VALID_EXPOSURES` the exposures made once it could
    no longer match the card keep their jokers (Siamese rule 15, tournament rules)."""
    seat_state = state.seats[seat]
    dead = list(seat_state.dead)
    dead[rack] = True
    exposures = seat_state.exposures
    if state.rules.dead_jokers is DeadJokers.VALID_EXPOSURES:
        exposures = _locks(exposures, rack)
    state = with_seat(state, seat, dead=tuple(dead), exposures=exposures)
    return state, HandDead(seat, rack, cause)


def penalty_rack(state: GameState, seat: int) -> int:
    """The rack a wrong declaration kills.

    One-rack games: the hand. Siamese-style (by analogy with Siamese rule 20, the penalty for
    drawing from the wrong wall): the only live rack if just one is left; otherwise the one
    rack with exposures if just one has any; otherwise the first rack.
    """
    live = state.live_racks(seat)
    if len(live) == 1:
        return live[0]
    exposed = [r for r in live if any(e.rack == r for e in state.seats[seat].exposures)]
    return exposed[0] if len(exposed) == 1 else live[0]
