"""The seat on turn: discard, declare Mah Jongg, or declare another hand dead.

A turn begins with a draw (done by `bot.engine.game.flow`) or a won claim, so the seat holds
one tile over its hand. It may exchange jokers (`bot.engine.game.exchanges`), declare hands
dead, declare Mah Jongg, and ends the turn by discarding. East may also declare Mah Jongg on
the dealt hand before the Charleston (the heavenly hand, self-picked).
"""

from __future__ import annotations

from bot.engine.errors import IllegalAction
from bot.engine.game import claims, mahjong
from bot.engine.game.actions import DeclareDead, Discard, Mahjong, Option
from bot.engine.game.dead import kill, penalty_rack, rack_is_dead
from bot.engine.game.events import DeathCause, DeclaredDead, Discarded, Event
from bot.engine.game.flow import after_mahjong, next_turn, settle
from bot.engine.game.rules import DeadHands, WallEnd
from bot.engine.game.state import (
    GameState,
    Phase,
    Took,
    TurnState,
    memo,
    seats_with,
    with_discard,
)
from bot.engine.tiles import BLANK, NUM_KINDS


def discard(state: GameState, action: Discard, events: list[Event]) -> GameState:
    """Discard a tile; the claim window opens (a discarded joker is dead at once)."""
    state.require_turn(action.seat)
    if action.kind == BLANK:
        raise IllegalAction("Blanks can't be discarded; swap one for a discard instead.")
    tile_id = state.take(action.seat, (action.kind,), "discard")[0]
    concealed = tuple(t for t in state.seats[action.seat].concealed if t != tile_id)
    state = with_discard(state, action.seat, tile_id,
                         seats=seats_with(state, action.seat, concealed=concealed),
                         thrown=(*state.thrown, action.kind), turn=None)
    events.append(Discarded(action.seat, action.kind))
    return claims.open_window(state, action.seat, tile_id, events)


def heavenly_allowed(state: GameState, seat: int) -> bool:
    """East may declare the dealt hand before putting its first Charleston tiles forward."""
    charleston = state.charleston
    return (state.phase is Phase.CHARLESTON and seat == 0 and charleston is not None
            and charleston.step == 0 and charleston.gives[0] is None)


def declare_mahjong(state: GameState, action: Mahjong, events: list[Event]) -> GameState:
    """Mah Jongg on the seat's own turn: self-picked after a draw, the deal or a joker
    exchange that counts as the pick; after a claimed exposure it is paid as won on that
    discard."""
    if heavenly_allowed(state, action.seat):
        turn = TurnState(0, Took.DEAL)
    else:
        if state.phase is Phase.CHARLESTON:
            raise IllegalAction("Only East, before passing, may declare Mah Jongg in the "
                                "Charleston (the heavenly hand).")
        if state.phase is Phase.CLAIM:
            raise IllegalAction("To win with the discard, claim it: `call mahjong`.")
        turn = state.require_turn(action.seat)
    if turn.shown:
        raise IllegalAction("You laid out a Mah Jongg this turn; discard to finish the turn.")
    self_picked = turn.took is not Took.CALL
    if not self_picked:
        mahjong.refuse_cold_wall(state, "Discard, and win with a tile you pick.")
    plan = mahjong.check(state, action)
    state, shown = mahjong.lay_out(state, action.seat, plan, claimed_id=None,
                                   self_picked=self_picked,
                                   discarder=None if self_picked else turn.called_from,
                                   won_on=None if self_picked else turn.tile,
                                   winning_id=turn.tile)
    events.extend(shown)
    return after_mahjong(state, action.seat, turn, events)


def declare_dead(state: GameState, action: DeclareDead, events: list[Event]) -> GameState:
    """Declare another seat's hand dead. The engine judges from the visible tiles only; a
    wrong declaration kills the declarer's hand (and, if none of it is left live, its turn
    ends without a discard)."""
    state.require_turn(action.seat)
    if state.rules.dead_hands is DeadHands.OFF:
        raise IllegalAction("At this table nobody calls hands dead.")
    if not state.is_live(action.seat):
        raise IllegalAction("Your hand is dead: you can only discard.")
    if action.target == action.seat:
        raise IllegalAction("You can't declare your own hand dead.")
    if not 0 <= action.target < state.size:
        raise IllegalAction("There is no such seat.")
    if action.rack not in state.live_racks(action.target):
        raise IllegalAction(f"{state.name(action.target)}'s hand there is already dead or "
                            "shows a Mah Jongg.")
    events.append(DeclaredDead(action.seat, action.target, action.rack))
    if rack_is_dead(state, action.target, action.rack):
        state, event = kill(state, action.target, action.rack, DeathCause.DECLARED)
    else:
        state, event = kill(state, action.seat, penalty_rack(state, action.seat),
                            DeathCause.WRONG_CALL)
    events.append(event)
    state = settle(state, events)
    if state.phase is Phase.OVER or state.is_live(action.seat):
        return state
    return next_turn(state, action.seat, events)


def turn_options(state: GameState, seat: int) -> list[Option]:
    """Mah Jongg, discards and dead-hand declarations for the seat on turn (the caller adds
    joker exchanges and blank swaps)."""
    turn = state.turn
    if state.phase is not Phase.TURN or turn is None or turn.seat != seat:
        return []
    found: list[Option] = []
    cold = turn.took is Took.CALL and state.wall_end() is WallEnd.COLD
    if not turn.shown and not cold:
        for plan in mahjong.plans(state, seat):
            found.append(Option(mahjong.plan_request(Mahjong(seat), plan, state.rules.racks)))
    found.extend(memo(state.seats[seat], "discard options", lambda: tuple(
        _DISCARDS[seat][kind] for kind in dict.fromkeys(state.concealed_kinds(seat))
        if kind != BLANK)))
    return found


def dead_options(state: GameState, seat: int) -> list[Option]:
    """Dead-hand declarations the seat on turn may make (right or wrong)."""
    if state.rules.dead_hands is DeadHands.OFF or not state.is_live(seat):
        return []
    return [_DECLARATIONS[seat, target, rack]
            for target in state.seats_after(seat) for rack in state.live_racks(target)]


#: The options every game offers again and again, made once: each seat's discard of each
#: kind, and each seat's declaration of each other seat's rack dead.
_DISCARDS = tuple(tuple(Option(Discard(seat, kind)) for kind in range(NUM_KINDS))
                  for seat in range(4))
_DECLARATIONS = {(seat, target, rack): Option(DeclareDead(seat, target, rack))
                 for seat in range(4) for target in range(4) for rack in range(2)}
