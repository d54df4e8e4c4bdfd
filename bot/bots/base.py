"""What every player shares: the `Player` protocol and helpers that read a seat's `View`.

A player sees exactly what a person at that seat would: its `View` (its own concealed tiles,
everything face up, counts) and its legal options. It never touches the game state, so the
table service can hand it the same views it renders for people, and a bot can't cheat.
The helpers that count what a view shows are `bot.engine.game.seen`'s, kept importable here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.engine.game.actions import Action, Option
from bot.engine.game.seen import live_racks, rack_exposures, seen_counts, visible_counts
from bot.engine.game.view import View

__all__ = ["Player", "live_racks", "rack_exposures", "seen_counts", "visible_counts"]


class Player(Protocol):
    """A seat's decision maker: given what the seat sees and its options, one action.

    `options` are the seat's legal options (`view.legal`); the answer must be one of their
    actions, or a concrete `Give` that an option's `TileChoice` allows. The same player
    object, seed and sequence of views always give the same answers (any randomness lives in
    the player, seeded).
    """

    def choose(self, view: View, options: Sequence[Option]) -> Action:
        """The action this seat takes now."""
        ...
