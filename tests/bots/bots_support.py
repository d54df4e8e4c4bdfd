"""Shared pieces for the player tests: a small card, views built by hand, a legality check,
and a wrapper that checks every answer a player gives during whole games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from bot.bots import Player
from bot.engine.cards import Card, load_card
from bot.engine.game import Give, Option, Phase, View
from bot.engine.game.actions import Action, CallMahjong, Discard, Mahjong
from bot.engine.game.rules import Scoring, seat_names
from bot.engine.game.view import ClaimView, ExposureView, SeatView
from bot.engine.tiles import JOKER, parse_tiles

SMALL_CARD = """
card: Player Test Card
year: 2026

[Pungs]
p1  111a 222a 333a 444a 55a        = 25 X  shift=any -- Four consecutive pungs and a pair
p2  111a 222b 333c NNN EE          = 25 X  shift=any -- Pungs in three suits, winds

[Winds]
w1  NNN EEEE WWWW SSS              = 25 X  -- All winds
"""


@cache
def small_card() -> Card:
    """The inline test card (three hands, so nearest hands are easy to see)."""
    return load_card(SMALL_CARD.encode())


def make_view(concealed: str, *, seat: int = 0, players: int = 4,
              phase: Phase = Phase.TURN, legal: Sequence[Option] = (),
              discards: Sequence[tuple[int, str]] = (),
              exposures: dict[int, Sequence[str]] | None = None,
              claim: tuple[int, str] | None = None) -> View:
    """A view for `seat` holding `concealed` (tile notation), with these discards, exposures
    per seat (`"333B"`, `"NNN J"`) and, for a claim window, (discarder, tile)."""
    winds = seat_names(players)
    shown = exposures or {}
    thrown = tuple((s, parse_tiles(t)[0]) for s, t in discards)
    seats = []
    for number in range(players):
        own = tuple(
            ExposureView(0, _kind(text), parse_tiles(text), parse_tiles(text).count(JOKER),
                         False, (number - 1) % players)
            for text in shown.get(number, ()))
        seats.append(SeatView(number, winds[number], f"P{number}", 13, own, (), (False,),
                              True, tuple(k for s, k in thrown if s == number)))
    claim_view = None
    if claim is not None:
        waiting = tuple(s for s in range(players) if s != claim[0])
        claim_view = ClaimView(claim[0], parse_tiles(claim[1])[0], waiting, (), None)
    return View(seat=seat, rules="standard", scoring=Scoring.NMJL, card="Player Test Card",
                phase=phase,
                concealed=tuple(sorted(parse_tiles(concealed))), seats=tuple(seats),
                discards=thrown, wall_count=60, dice=(3, 4), turn=seat,
                charleston=None, claim=claim_view, result=None, legal=tuple(legal),
                action_count=40)


def _kind(text: str) -> int:
    return next(k for k in parse_tiles(text) if k != JOKER)


def discard_options(view: View) -> list[Option]:
    """A discard option for every kind the seat holds."""
    return [Option(Discard(view.seat, kind)) for kind in sorted(set(view.concealed))]


def allowed(action: Action, options: Sequence[Option]) -> bool:
    """Whether the action is one of the options, or a pass its tile choice allows."""
    if any(option.action == action for option in options):
        return True
    if not isinstance(action, Give):
        return False
    for option in options:
        choice = option.choice
        if choice is None or not isinstance(option.action, Give):
            continue
        if (action.seat == option.action.seat
                and len(action.kinds) + action.blind == choice.count
                and 0 <= action.blind <= choice.blind_max
                and JOKER not in action.kinds
                and not Counter(action.kinds) - Counter(choice.kinds)):
            return True
    return False


@dataclass
class Checked:
    """Wraps a player: every answer must be allowed; Mah Jongg is taken whenever offered
    (when `wins_always`); no pass holds a joker. Counts what it saw."""

    inner: Player
    wins_always: bool = False
    answers: int = 0
    blind_passes: int = 0
    wins_offered: int = 0
    seen: list[str] = field(default_factory=list)

    def choose(self, view: View, options: Sequence[Option]) -> Action:
        assert tuple(options) == view.legal
        action = self.inner.choose(view, options)
        assert allowed(action, options), (action, options)
        if isinstance(action, Give):
            assert JOKER not in action.kinds
            self.blind_passes += action.blind > 0
        if any(isinstance(o.action, Mahjong | CallMahjong) for o in options):
            self.wins_offered += 1
            if self.wins_always:
                assert isinstance(action, Mahjong | CallMahjong), (action, options)
        self.answers += 1
        return action
