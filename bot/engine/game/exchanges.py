"""Swaps on the seat's own turn: joker exchanges, and the blank house rule.

A joker exchange trades a natural tile from the rack for a joker standing for that tile in any
exposure on the table (the seat's own included, a dead hand's too unless that exposure made
the hand dead). It cannot be refused and there is no limit per turn. A Mah Jongg after a
drawn tile is self-picked anyway; after a called discard, an exchange makes it self-picked
when it completes the hand (or, under the online client's option, any exchange does: see
`ExchangeSelfPick`). Jokers in a laid-out Mah Jongg never come back.

Blanks (a house rule, never NMJL): on its turn a seat may swap a blank from its rack for any
natural tile in the discards; the blank takes the tile's place there.
"""

from __future__ import annotations

from bot.engine.errors import IllegalAction
from bot.engine.game import mahjong
from bot.engine.game.actions import Exchange, Option, SwapBlank
from bot.engine.game.events import BlankSwapped, Event, Exchanged
from bot.engine.game.rules import ExchangeSelfPick
from bot.engine.game.state import GameState, Took, evolve, sorted_ids, with_seat
from bot.engine.tiles import BLANK, JOKER, tile_name


def _joker_in(state: GameState, owner: int, group: int) -> int | None:
    """The lowest joker id an exposure holds, if it holds one."""
    exposure = state.seats[owner].exposures[group]
    jokers = [t for t in exposure.tile_ids if state.tiles[t] == JOKER]
    return min(jokers) if jokers else None


def exchange(state: GameState, action: Exchange, events: list[Event]) -> GameState:
    """Trade a natural tile for a joker in an exposure."""
    turn = state.require_turn(action.seat)
    if not state.is_live(action.seat):
        raise IllegalAction("Your hand is dead: you can only discard.")
    if not 0 <= action.owner < state.size or not 0 <= action.group < len(
            state.seats[action.owner].exposures):
        raise IllegalAction("There is no such exposure on the table.")
    exposure = state.seats[action.owner].exposures[action.group]
    if exposure.kind != action.kind:
        raise IllegalAction(f"That exposure is {tile_name(exposure.kind)}s; exchange a "
                            f"{tile_name(exposure.kind)} for its joker.")
    joker_id = _joker_in(state, action.owner, action.group)
    if joker_id is None:
        raise IllegalAction("That exposure has no joker to exchange.")
    if exposure.locked:
        raise IllegalAction("That exposure made its hand dead: its jokers stay put.")
    natural_id = state.take(action.seat, (action.kind,), "exchange for the joker")[0]
    before = state
    tile_ids = tuple(natural_id if t == joker_id else t for t in exposure.tile_ids)
    exposures = list(state.seats[action.owner].exposures)
    exposures[action.group] = evolve(exposure, tile_ids=tile_ids)
    state = with_seat(state, action.owner, exposures=tuple(exposures))
    concealed = [t for t in state.seats[action.seat].concealed if t != natural_id]
    state = with_seat(state, action.seat, concealed=sorted_ids((*concealed, joker_id)))
    events.append(Exchanged(action.seat, action.kind, action.owner, action.group))
    if turn.took is Took.CALL and not _picks(before, state, action.seat):
        return state
    return evolve(state, turn=evolve(turn, took=Took.EXCHANGE, tile=joker_id))


def _picks(before: GameState, after: GameState, seat: int) -> bool:
    """Whether an exchange after a called discard makes a Mah Jongg self-picked: when it
    completes the hand (the joker is the tile that makes it a Mah Jongg; standard rules: "If
    it completes your hand, the win pays as self-picked"), or, under the online client's
    option, always (see `ExchangeSelfPick`)."""
    if before.rules.exchange_self_pick is ExchangeSelfPick.ANY:
        return True
    return not mahjong.plans(before, seat) and bool(mahjong.plans(after, seat))


def exchange_options(state: GameState, seat: int) -> list[Option]:
    """Every joker exchange the seat can make now."""
    held = set(state.concealed_kinds(seat))
    found: list[Option] = []
    for owner in range(state.size):
        for group, exposure in enumerate(state.seats[owner].exposures):
            if (exposure.kind in held and not exposure.locked
                    and _joker_in(state, owner, group) is not None):
                found.append(Option(Exchange(seat, exposure.kind, owner, group)))
    return found


def swap_blank(state: GameState, action: SwapBlank, events: list[Event]) -> GameState:
    """House rule: a blank from the rack for a natural tile from the discards."""
    state.require_turn(action.seat)
    if not state.is_live(action.seat):
        raise IllegalAction("Your hand is dead: you can only discard.")
    if action.kind in (JOKER, BLANK):
        raise IllegalAction("A blank swaps only for a natural tile.")
    position = next((i for i, (_, t) in enumerate(state.discards)
                     if state.tiles[t] == action.kind), None)
    if position is None:
        raise IllegalAction(f"There is no {tile_name(action.kind)} in the discards.")
    blank_id = state.take(action.seat, (BLANK,), "swap")[0]
    discarder, tile_id = state.discards[position]
    discards = list(state.discards)
    discards[position] = (discarder, blank_id)
    concealed = [t for t in state.seats[action.seat].concealed if t != blank_id]
    state = with_seat(evolve(state, discards=tuple(discards)), action.seat,
                      concealed=sorted_ids((*concealed, tile_id)))
    events.append(BlankSwapped(action.seat, action.kind))
    return state


def blank_options(state: GameState, seat: int) -> list[Option]:
    """Every blank swap the seat can make now."""
    if BLANK not in state.concealed_kinds(seat):
        return []
    kinds = sorted({state.tiles[t] for _, t in state.discards} - {JOKER, BLANK})
    return [Option(SwapBlank(seat, kind)) for kind in kinds]
