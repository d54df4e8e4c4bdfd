"""What a seat's `View` shows, counted: the seat's live racks and their exposures, and the
tiles face up on the table. Shared by the bots and the hints, which read views only.
"""

from __future__ import annotations

from bot.engine.game.view import View
from bot.engine.matcher import Exposure
from bot.engine.tiles import JOKER, NUM_KINDS


def live_racks(view: View, seat: int | None = None) -> tuple[int, ...]:
    """Racks of a seat (the viewer by default) that can still go Mah Jongg: not dead and
    not already showing a Mah Jongg."""
    me = view.seats[view.seat if seat is None else seat]
    shown = {m.rack for m in me.mahjongs}
    return tuple(r for r, dead in enumerate(me.dead) if not dead and r not in shown)


def rack_exposures(view: View, seat: int, rack: int) -> tuple[Exposure, ...]:
    """A seat's exposures on one rack, in the matcher's terms."""
    return tuple(Exposure(e.kind, len(e.tiles), e.jokers)
                 for e in view.seats[seat].exposures if e.rack == rack)


def _face_up(view: View, *, unlocked_jokers: bool) -> list[int]:
    """Tiles face up on the table per kind: discards, exposures (their jokers only when
    `unlocked_jokers` or the exposure is locked) and laid-out Mah Jonggs."""
    counts = [0] * NUM_KINDS
    for _, kind in view.discards:
        counts[kind] += 1
    for seat in view.seats:
        for exposure in seat.exposures:
            for kind in exposure.tiles:
                if unlocked_jokers or kind != JOKER or exposure.locked:
                    counts[kind] += 1
        for mahjong in seat.mahjongs:
            for group in mahjong.groups:
                for kind in group:
                    counts[kind] += 1
    return counts


def visible_counts(view: View) -> list[int]:
    """Tiles the whole table can see that no hand can take any more, per kind, exactly as the
    engine judges a dead-hand declaration: every discard, every natural in an exposure or a
    laid-out Mah Jongg, and the jokers of locked exposures and Mah Jonggs (a joker in an
    open exposure can still be exchanged for)."""
    return _face_up(view, unlocked_jokers=False)


def seen_counts(view: View) -> list[int]:
    """Every tile face up on the table (discards, exposures, Mah Jonggs), per kind: tiles
    nobody can get from the wall any more."""
    return _face_up(view, unlocked_jokers=True)
