"""The claim window after each discard.

Every other live seat answers (under the default policy) with a claim or a pass, so the
window's length never shows who could call. A seat may claim the discard for a pung, kong or
quint (a sextet when the card has one), with jokers filling any of the other tiles, or for
Mah Jongg (the only way to claim a tile for a pair or a single, and the only claim a concealed
hand makes). When all have answered, Mah Jongg beats an exposure, and between equal claims the
seat nearest in turn order after the discarder wins (under `ClaimPriority.SECOND_MAHJONG_FIRST`,
a Royale-style option, a call completing a player's second Mah Jongg comes first of all).
A discarded joker is dead: no window. Under the cold wall (a house rule, see `WallEnd`) nobody
claims for Mah Jongg in the last part of the wall.
"""

from __future__ import annotations

from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.game import mahjong
from bot.engine.game.actions import GROUP_NAMES, Call, CallMahjong, Claim, Option, Pass
from bot.engine.game.dead import call_deadens, visible_counts
from bot.engine.game.events import Event, Exposed, Ready
from bot.engine.game.flow import after_mahjong, next_turn
from bot.engine.game.rules import ClaimPriority, ClaimWindow, WallEnd
from bot.engine.game.state import (
    ClaimState,
    GameState,
    Phase,
    TableExposure,
    Took,
    TurnState,
    evolve,
    with_seat,
)
from bot.engine.matcher import Exposure
from bot.engine.tiles import JOKER, tile_name


def exposure_sizes(state: GameState) -> tuple[int, ...]:
    """Pungs, kongs and quints; sextets too when the card has a sextet."""
    return (3, 4, 5, 6) if state.sextets else (3, 4, 5)


def open_window(state: GameState, discarder: int, tile_id: int,
                events: list[Event]) -> GameState:
    """After a discard: ask the seats that must answer, or move on to the next draw."""
    if state.tiles[tile_id] == JOKER:
        return next_turn(state, discarder, events)
    live = state.live_seats()
    waiting = [s for s in state.seats_after(discarder) if s in live]
    if state.rules.claim_window is ClaimWindow.ABLE_SEATS:
        waiting = [s for s in waiting
                   if any(not isinstance(o.action, Pass)
                          for o in claim_options(state, s, tile_id))]
    if not waiting:
        return next_turn(state, discarder, events)
    claim = ClaimState(discarder, tile_id, tuple(waiting), (None,) * state.size)
    return evolve(state, phase=Phase.CLAIM, claim=claim)


#: Each seat's pass on a claim: the same option at every window.
_PASSES = tuple(Option(Pass(seat)) for seat in range(4))


def claim_options(state: GameState, seat: int, tile_id: int) -> list[Option]:
    """What a seat may answer to this discard: Mah Jongg, pass, then every exposure (with the
    number of jokers), each flagged when it would leave the seat no card hand."""
    kind = state.tiles[tile_id]
    found: list[Option] = []
    if state.wall_end() is not WallEnd.COLD and mahjong.may_complete(state, seat, kind):
        racks = state.rules.racks
        found.extend(Option(mahjong.plan_request(CallMahjong(seat), plan, racks))
                     for plan in mahjong.plans(state, seat, claimed=kind))
    found.append(_PASSES[seat])
    held = state.concealed_counts(seat)
    naturals, jokers = held[kind], held[JOKER]
    if naturals + jokers < 2:  # even a pung takes two tiles from the rack
        return found
    tiles = len(state.seats[seat].concealed)
    visible: list[int] | None = None  # counted only when there is a call to judge
    for rack in state.live_racks(seat):
        for size in exposure_sizes(state):
            if tiles - (size - 1) < 1:
                continue
            fewest = max(0 if size < 5 or state.rules.natural_quints else 1,
                         size - 1 - naturals)
            # With jokers, a call that leaves a hand alive leaves one alive with more jokers:
            # the same card groups can take it and fewer naturals are used up.
            alive_with_jokers = False
            for used_jokers in range(fewest, min(jokers, size - 1) + 1):
                deadens = False
                if not (used_jokers and alive_with_jokers):
                    if visible is None:
                        visible = visible_counts(state)
                    deadens = call_deadens(state, seat, Exposure(kind, size, used_jokers), rack,
                                           visible)
                    alive_with_jokers = bool(used_jokers) and not deadens
                found.append(Option(Call(seat, kind, size, used_jokers, rack), deadens=deadens))
    return found


def _check_call(state: GameState, action: Call, tile_id: int) -> None:
    kind = state.tiles[tile_id]
    if action.kind != kind:
        raise IllegalAction(f"You can only call the tile just discarded, the {tile_name(kind)}.")
    if action.size not in exposure_sizes(state):
        names = ", ".join(GROUP_NAMES[s] for s in exposure_sizes(state))
        raise IllegalAction(f"You can call for a {names} or Mah Jongg.")
    if not 0 <= action.jokers < action.size:
        raise IllegalAction("Jokers may fill any of the tiles except the one you call.")
    if action.size >= 5 and not action.jokers and not state.rules.natural_quints:
        raise IllegalAction("At this table every quint and sextet must hold a joker.")
    if action.rack not in state.live_racks(action.seat):
        raise IllegalAction(f"Rack {action.rack + 1} can't take exposures any more.")
    if len(state.seats[action.seat].concealed) - (action.size - 1) < 1:
        raise IllegalAction("You need a tile left to discard after exposing.")
    state.take(action.seat, _own_kinds(action), f"call a {GROUP_NAMES[action.size]}")


def _own_kinds(action: Call) -> tuple[int, ...]:
    return (action.kind,) * (action.size - 1 - action.jokers) + (JOKER,) * action.jokers


def answer(state: GameState, action: Claim, events: list[Event]) -> GameState:
    """Record a seat's claim or pass; when every seat asked has answered, settle it."""
    claim = state.claim
    if claim is None or state.phase is not Phase.CLAIM:
        state.require_phase(Phase.CLAIM)
    assert claim is not None
    seat = action.seat
    if seat == claim.discarder:
        raise NotYourTurn("You can't claim your own discard.")
    if seat not in claim.waiting:
        raise NotYourTurn("You're not asked about this discard.")
    if claim.answers[seat] is not None:
        raise IllegalAction("You've already answered this discard.")
    if isinstance(action, Call):
        _check_call(state, action, claim.tile_id)
    elif isinstance(action, CallMahjong):
        mahjong.refuse_cold_wall(state, "Call it for an exposure, or pass.")
        mahjong.check(state, action, claimed=state.tiles[claim.tile_id])
    answers = list(claim.answers)
    answers[seat] = action
    events.append(_READY[seat])
    claim = evolve(claim, answers=tuple(answers))
    for waiting in claim.waiting:
        if answers[waiting] is None:
            return evolve(state, claim=claim)
    return _resolve(state, claim, events)


#: Each seat's event for an answer to a claim (the same value every time).
_READY = tuple(Ready(seat) for seat in range(4))


def _completes_second(state: GameState, action: Claim) -> bool:
    """Whether a claim is a call for a player's second Mah Jongg (or for two at once)."""
    return isinstance(action, CallMahjong) and (
        action.both or bool(state.seats[action.seat].declared))


def _resolve(state: GameState, claim: ClaimState, events: list[Event]) -> GameState:
    """Settle the window once every seat asked has answered (`claim`, answers included;
    `state` may still hold the window as it was before the last answer)."""
    order = state.seats_after(claim.discarder)
    if state.rules.claim_priority is ClaimPriority.SECOND_MAHJONG_FIRST:
        second = next((a for s in order if isinstance(a := claim.answers[s], CallMahjong)
                       and _completes_second(state, a)), None)
        if second is not None:
            return _win(state, claim, second, events)
    if all(isinstance(claim.answers[seat], Pass) for seat in claim.waiting):
        return next_turn(state, claim.discarder, events)  # the next turn closes the window
    for wanted in (CallMahjong, Call):
        for seat in order:
            chosen = claim.answers[seat]
            if isinstance(chosen, CallMahjong) and wanted is CallMahjong:
                return _win(state, claim, chosen, events)
            if isinstance(chosen, Call) and wanted is Call:
                return _expose(state, claim, chosen, events)
    return next_turn(state, claim.discarder, events)  # the next turn closes the window


def _win(state: GameState, claim: ClaimState, action: CallMahjong,
         events: list[Event]) -> GameState:
    plan = mahjong.check(state, action, claimed=state.tiles[claim.tile_id])
    state, shown = mahjong.lay_out(state, action.seat, plan, claimed_id=claim.tile_id,
                                   self_picked=False, discarder=claim.discarder,
                                   won_on=claim.tile_id, winning_id=claim.tile_id)
    events.extend(shown)
    turn = TurnState(action.seat, Took.CALL, claim.discarder, tile=claim.tile_id)
    return after_mahjong(evolve(state, claim=None), action.seat, turn, events)


def _expose(state: GameState, claim: ClaimState, action: Call,
            events: list[Event]) -> GameState:
    own_ids = state.take(action.seat, _own_kinds(action), "expose")
    concealed = tuple(t for t in state.seats[action.seat].concealed if t not in own_ids)
    # Judged now, from what is visible now: a later declaration must know whether the hand
    # was already dead when this exposure was made (see `dead.kill`).
    dead_when_made = call_deadens(state, action.seat,
                                  Exposure(action.kind, action.size, action.jokers),
                                  action.rack, visible_counts(state))
    exposure = TableExposure(action.rack, action.kind, (claim.tile_id, *own_ids),
                             claim.discarder, dead_when_made=dead_when_made)
    state = with_seat(state, action.seat, concealed=concealed,
                      exposures=(*state.seats[action.seat].exposures, exposure))
    state = evolve(state, discards=state.discards[:-1], claim=None, phase=Phase.TURN,
                    turn=TurnState(action.seat, Took.CALL, claim.discarder,
                                   tile=claim.tile_id))
    events.append(Exposed(action.seat, action.kind, action.size, action.jokers, action.rack,
                          claim.discarder))
    return state
