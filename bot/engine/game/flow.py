"""Moving play along: the start of play, the draw that begins each turn, and the end.

Draws are not actions: once a claim window closes with no claim (or after a discarded joker,
which nobody may claim), the next live seat in turn order draws at once. The game ends on a
Mah Jongg that finishes it, when the next seat should draw from an empty wall (a wall game), or
when too few hands are live to play on (one-rack games need two live seats; in the Siamese
game a player whose hands are both dead ends it, and a lone live player plays on).

In the Royale-style game (two racks at three or four players) a player whose hands are both
dead stops playing and the others go on, as at a four-player table; the game ends when no
seat is live. A second Mah Jongg ends it, or, under `GameEnd.ALL_DONE`, that player is done
and the next live seat draws.
"""

from __future__ import annotations

from bot.engine.game import mahjong
from bot.engine.game.events import Drew, EndReason, Event, GameOver, PlayBegins
from bot.engine.game.rules import GameEnd
from bot.engine.game.scoring import score
from bot.engine.game.state import GameState, Phase, Result, Took, TurnState, evolve, seats_with


def start_play(state: GameState, events: list[Event]) -> GameState:
    """After the deal and any Charleston: East's first turn (East draws first only where the
    rules say so; otherwise East already holds one tile extra and discards)."""
    events.append(PlayBegins())
    state = evolve(state, charleston=None)
    if state.rules.dealer_draws_first:
        return draw(state, 0, events)
    return evolve(state, phase=Phase.TURN, turn=TurnState(0, Took.DEAL))


def draw(state: GameState, seat: int, events: list[Event]) -> GameState:
    """The seat takes the next wall tile and its turn begins."""
    tile_id, wall = state.wall[0], state.wall[1:]
    concealed = tuple(sorted((*state.seats[seat].concealed, tile_id)))
    before = state
    state = evolve(state, wall=wall, seats=seats_with(state, seat, concealed=concealed),
                   phase=Phase.TURN, turn=TurnState(seat, Took.DRAW, tile=tile_id), claim=None)
    mahjong.note_draw(before, state, seat, state.tiles[tile_id])
    events.append(Drew(seat, state.tiles[tile_id]))
    return state


def next_turn(state: GameState, after: int, events: list[Event]) -> GameState:
    """The next live seat after `after` draws; or the game ends."""
    state = settle(state, events)
    if state.phase is Phase.OVER:
        return state
    for step in range(1, state.size + 1):
        seat = (after + step) % state.size
        if state.is_live(seat):
            if not state.wall:
                return finish(state, EndReason.WALL, events)
            return draw(state, seat, events)
    return finish(state, EndReason.DEAD_HANDS, events)


def settle(state: GameState, events: list[Event]) -> GameState:
    """End the game if too few hands are left to play on."""
    if state.phase is Phase.OVER:
        return state
    if state.rules.racks == 1:
        if len(state.live_seats()) < 2:
            return finish(state, EndReason.DEAD_HANDS, events)
        return state
    both_dead = not state.rules.royale and any(all(seat.dead) for seat in state.seats)
    if both_dead or not state.live_seats():
        return finish(state, EndReason.DEAD_HANDS, events)
    return state


def finish(state: GameState, reason: EndReason, events: list[Event]) -> GameState:
    """Score the game and close it."""
    wins = tuple(sorted((d for seat in state.seats for d in seat.declared),
                        key=lambda d: (d.seat, d.ordinal == 0, d.ordinal, d.rack)))
    sheet = score(state.rules, state.card, reason, wins,
                  tuple(seat.dead for seat in state.seats), state.pot, state.bet)
    events.extend(sheet.lines)
    events.append(GameOver(reason, sheet.totals, sheet.settlement, sheet.bettor))
    result = Result(reason, wins, sheet.lines, sheet.totals, sheet.settlement, sheet.pot,
                    sheet.bettor)
    return evolve(state, phase=Phase.OVER, turn=None, claim=None, result=result)


def after_mahjong(state: GameState, seat: int, turn: TurnState, events: list[Event]) -> GameState:
    """End the game, or let play go on: after a first Mah Jongg on two racks the seat
    finishes its turn; after a second one that does not end the game (`GameEnd.ALL_DONE`)
    the seat is done and the next live seat draws."""
    declared = state.seats[seat].declared
    second = declared[-1].ordinal != 1
    if state.rules.racks == 1 or (second and state.rules.game_end is GameEnd.SECOND_MAHJONG):
        return finish(state, EndReason.MAHJONG, events)
    if second:
        if not state.live_seats():
            return finish(state, EndReason.MAHJONG, events)
        return next_turn(evolve(state, turn=None), seat, events)
    state = evolve(state, phase=Phase.TURN, turn=evolve(turn, shown=True), charleston=None)
    state = settle(state, events)
    if state.phase is Phase.OVER or state.is_live(seat):
        return state
    return next_turn(state, seat, events)
