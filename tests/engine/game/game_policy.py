"""A simple deterministic player for golden games: it sees only its view and picks from its
legal options, steering towards the nearest hand on the card."""

from __future__ import annotations

from collections import Counter
from functools import cache

from bot.engine.cards import Card
from bot.engine.game import (
    Call,
    CallMahjong,
    Discard,
    GameState,
    Give,
    Mahjong,
    Offer,
    Option,
    Pass,
    Vote,
    view,
)
from bot.engine.game.actions import Action
from bot.engine.game.view import View
from bot.engine.matcher import CardMatcher, Exposure, NearHand, PlayerHand
from bot.engine.tiles import JOKER


@cache
def _matcher(card: Card) -> CardMatcher:
    return CardMatcher(card)


def _nearest(card: Card, seen: View) -> NearHand | None:
    me = seen.seats[seen.seat]
    live = [r for r, dead in enumerate(me.dead) if not dead
            and all(m.rack != r for m in me.mahjongs)]
    rack = max(live, key=lambda r: sum(e.rack == r for e in me.exposures)) if live else 0
    exposures = tuple(Exposure(e.kind, len(e.tiles), e.jokers)
                      for e in me.exposures if e.rack == rack)
    found = _matcher(card).nearest(PlayerHand(seen.concealed, exposures), 1)
    return found[0] if found else None


def _spare(card: Card, seen: View) -> list[int]:
    """The seat's tiles that do not fit its nearest hand, then the rest (never jokers)."""
    near = _nearest(card, seen)
    unused = [k for k in (near.unused if near else ()) if k != JOKER]
    rest = list((Counter(seen.concealed) - Counter(unused)).elements())
    return unused + [k for k in rest if k != JOKER]


def _give(card: Card, seen: View, option: Option) -> Action:
    choice = option.choice
    assert choice is not None and isinstance(option.action, Give)
    picked: list[int] = []
    pool = Counter(choice.kinds)
    for kind in _spare(card, seen):
        if len(picked) < choice.count and pool[kind] > 0:
            pool[kind] -= 1
            picked.append(kind)
    return Give(option.action.seat, tuple(sorted(picked)))


def choose(state: GameState, seat: int) -> Action:
    """The policy's action for `seat` (which must have options)."""
    seen = view(state, seat)
    options = seen.legal
    card = state.card
    for option in options:
        if isinstance(option.action, Mahjong | CallMahjong):
            return option.action
    first = options[0]
    if isinstance(first.action, Give):
        return _give(card, seen, first)
    if isinstance(first.action, Vote):
        return Vote(seat, stop=False)
    if isinstance(first.action, Offer):
        return Offer(seat, min(1, len(options) - 1))
    if seen.claim is not None:
        near = _nearest(card, seen)
        wanted = set(near.need_any + near.need_natural) if near else set()
        for option in options:
            action = option.action
            if (isinstance(action, Call) and not option.deadens and action.size == 3
                    and action.kind in wanted):
                return action
        return Pass(seat)
    discards = {o.action.kind: o.action for o in options if isinstance(o.action, Discard)}
    for kind in _spare(card, seen):
        if kind in discards:
            return discards[kind]
    return next(iter(discards.values()))
