"""How the table service talks to the outside: the `Notifier` protocol and what it is given.

The Discord app implements it (thread posts, DMs, ephemeral racks), so does the terminal game,
and tests record what it receives. Every update carries a `View` built by the engine for the
one seat it is meant for (or a spectator view for the whole table), never the game state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.engine.cards.model import Card
from bot.engine.game import RuleSet, View


@dataclass(frozen=True)
class Table:
    """What the outside needs to address one game: where it lives, who holds each seat."""

    game_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    names: tuple[str, ...]
    user_ids: tuple[int | None, ...]
    rules: RuleSet
    card: Card
    hints: bool

    @property
    def bots(self) -> tuple[bool, ...]:
        """Which seats a bot plays."""
        return tuple(user is None for user in self.user_ids)

    def seat_of(self, user_id: int) -> int | None:
        """The seat this user holds, if any."""
        return next((seat for seat, user in enumerate(self.user_ids) if user == user_id), None)


@dataclass(frozen=True)
class TableUpdate:
    """What the whole table learns: a line per event, and the spectator view. `new_turn` says
    the turn moved on, so a fresh table picture is worth posting."""

    lines: tuple[str, ...]
    view: View
    new_turn: bool


@dataclass(frozen=True)
class SeatUpdate:
    """What one seat learns privately: its own view (rack and options), the tile it just drew,
    its own lines, and the deadline for its move when it must act."""

    view: View
    drawn: int | None
    lines: tuple[str, ...]
    must_act: bool
    deadline: float | None


class Notifier(Protocol):
    """The outside world, as the table service needs it. Calls for one game arrive in order,
    after the actions they report are committed. A failing call is logged by the service and
    never stops the game."""

    async def table_update(self, table: Table, update: TableUpdate) -> None:
        """Post what happened to the table."""

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate) -> None:
        """Tell a human seat privately that its rack or its options changed."""

    async def game_over(self, table: Table, view: View) -> None:
        """The game ended; `view` is the spectator view with the result."""

    async def reminder(self, table: Table, seat: int, due_at: float) -> None:
        """Nudge a seat whose move is due soon (asynchronous pace)."""
