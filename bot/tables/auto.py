"""The moves a seat's options make for it, so a person is asked only when they have a real
choice.

`automatic` is the one place that decides them, from the seat's own view (and the tile it
just drew, which is its own to know): the table service plays what it returns as an ordinary
engine action, behind the table's one delay for every automatic answer
(`TableService.auto_delay`), and `jongg bench prompts` counts with it how many decision
points still need a person. In order:

1. auto Mah Jongg: a Mah Jongg the seat may declare or call is declared (both racks at once
   first), unless the seat holds the first of two racks' Mah Jonggs;
2. a seat with nothing to decide but letting a discard go (`Layout.asks`: it can't call, or
   its options skip every call it could make) passes;
3. auto-discard: the tile just drawn goes back out, never when it gives Mah Jongg, and with
   "unless useful" not when it fits one of the seat's nearest hands, is a joker, or lets the
   seat exchange it for a joker.

Anything else is the seat's to decide.
"""

from __future__ import annotations

from bot.analysis import HINT_HANDS
from bot.engine.cards import Card
from bot.engine.game import GameState, Phase, View
from bot.engine.game.actions import (
    Action,
    CallMahjong,
    Discard,
    Exchange,
    Mahjong,
    Pass,
)
from bot.engine.game.state import Took
from bot.engine.matcher import Exposure, PlayerHand, matcher_for
from bot.engine.tiles import JOKER
from bot.tables.menu import layout
from bot.tables.seat_options import AutoDiscard, AutoMahjong, SeatOptions


def drawn_tile(state: GameState, seat: int) -> int | None:
    """The kind of the tile `seat` just drew from the wall, while that is the seat's last
    tile on its turn (None otherwise: after a call, an exchange, or the deal)."""
    turn = state.turn
    if (state.phase is not Phase.TURN or turn is None or turn.seat != seat
            or turn.took is not Took.DRAW or turn.tile is None):
        return None
    return state.tiles[turn.tile]


def automatic(view: View, options: SeatOptions, card: Card, counts: tuple[int, ...],
              drawn: int | None) -> Action | None:
    """The move `view.seat`'s options make for it now, or None when the seat is asked.
    `drawn` is the tile it just drew (`drawn_tile`); `card` and `counts` are the table's,
    for "unless it fits"."""
    legal = [option.action for option in view.legal]
    if not legal:
        return None
    declared = _mahjong(view, options, legal)
    if declared is not None:
        return declared
    if not layout(view, options).asks(view) and Pass(view.seat) in legal:
        return Pass(view.seat)
    if options.auto_discard is AutoDiscard.OFF or drawn is None:
        return None
    if Discard(view.seat, drawn) not in legal or any(
            isinstance(action, Mahjong) for action in legal):
        return None
    if options.auto_discard is AutoDiscard.UNLESS_USEFUL and (
            drawn == JOKER
            or any(isinstance(a, Exchange) and a.kind == drawn for a in legal)
            or _fits(view, card, counts, drawn)):
        return None
    return Discard(view.seat, drawn)


def _mahjong(view: View, options: SeatOptions, legal: list[Action]) -> Action | None:
    """The Mah Jongg auto Mah Jongg declares, if any: both racks at once first, then the
    first the engine lists; none while the seat holds its first of two."""
    if options.auto_mahjong is AutoMahjong.OFF:
        return None
    wins = [a for a in legal if isinstance(a, Mahjong | CallMahjong)]
    both = [a for a in wins if a.both]
    if both:
        return both[0]
    mine = view.seats[view.seat]
    holding = (options.auto_mahjong is AutoMahjong.HOLD_FIRST and len(mine.dead) > 1
               and not mine.mahjongs)
    return wins[0] if wins and not holding else None


def _fits(view: View, card: Card, counts: tuple[int, ...], drawn: int) -> bool:
    """Whether one of the seat's nearest hands (on either rack) uses every copy of the drawn
    tile's kind it holds, so throwing it would lose something."""
    matcher = matcher_for(card, counts)
    mine = view.seats[view.seat]
    for rack in range(len(mine.dead)):
        exposures = tuple(Exposure(e.kind, len(e.tiles), e.jokers)
                          for e in mine.exposures if e.rack == rack)
        for near in matcher.nearest(PlayerHand(view.concealed, exposures), HINT_HANDS):
            if drawn not in near.unused:
                return True
    return False
