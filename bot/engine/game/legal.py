"""`legal_actions`: the one source of what a seat may do now.

A UI builds its buttons from these options and bots choose among them. Options come in a
stable order: Mah Jongg first, then the everyday moves (discards; passing on a claim), then
exposures, joker exchanges, blank swaps and dead-hand declarations.
"""

from __future__ import annotations

from bot.engine.game import charleston, claims, mahjong
from bot.engine.game.actions import Mahjong, Option
from bot.engine.game.exchanges import blank_options, exchange_options
from bot.engine.game.state import GameState, Phase
from bot.engine.game.turns import dead_options, heavenly_allowed, turn_options


def legal_options(state: GameState, seat: int) -> tuple[Option, ...]:
    """Everything `seat` may do now (empty when it need not act)."""
    phase = state.phase
    if not 0 <= seat < state.size or phase is Phase.OVER:
        return ()
    if phase is Phase.CLAIM:
        claim = state.claim
        assert claim is not None
        if seat in claim.waiting and claim.answers[seat] is None:
            return tuple(claims.claim_options(state, seat, claim.tile_id))
        return ()
    found: list[Option] = []
    if phase is Phase.TURN:
        assert state.turn is not None
        if state.turn.seat == seat:
            found.extend(turn_options(state, seat))
            if state.is_live(seat):
                found.extend(exchange_options(state, seat))
                found.extend(blank_options(state, seat))
                found.extend(dead_options(state, seat))
    else:
        if heavenly_allowed(state, seat):
            found.extend(Option(mahjong.plan_request(Mahjong(seat), plan, state.rules.racks))
                         for plan in mahjong.plans(state, seat))
        found.extend(charleston.options(state, seat))
    return tuple(found)


def seats_to_act(state: GameState) -> tuple[int, ...]:
    """Seats that must act before the game can move on (in seat order)."""
    if state.phase is Phase.OVER:
        return ()
    if state.phase is Phase.TURN:
        assert state.turn is not None
        return (state.turn.seat,)
    if state.phase is Phase.CLAIM:
        claim = state.claim
        assert claim is not None
        answers = claim.answers
        return tuple([s for s in sorted(claim.waiting) if answers[s] is None])
    return tuple(s for s in range(state.size) if charleston.must_act(state, s))
