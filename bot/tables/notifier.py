"""How the table service talks to the outside: the `Notifier` protocol and what it is given.

The Discord app implements it (thread posts, DMs, ephemeral racks), so does the terminal game,
and tests record what it receives. Every update carries a `View` built by the engine for the
one seat it is meant for (or a spectator view for the whole table), never the game state.

Each call delivers one entry of the game's durable outbox and gets its `Delivery`: a key that
is the same on every attempt, so the outside can make a repeated send harmless. A call that
fails says how with a `DeliveryFailed`: try again later, the table's place is gone, a
permission is missing, or refused for good; the service retries, moves the table, tells the
host, or gives the entry up accordingly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol

from bot.engine.cards.model import Card
from bot.engine.game import RuleSet, View
from bot.tables.reminders import Reminder
from bot.tables.seat_options import SeatOptions


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
    #: Each seat's options (how its holder likes to be asked); defaults where missing.
    seat_options: tuple[SeatOptions, ...] = ()
    #: The bettor (a fifth person backing one seat), if the game has one: who, by id and name.
    bettor_id: int | None = None
    bettor_name: str | None = None
    #: A teaching table: every rack is open to everyone at it (`bot.tables.teaching`).
    teaching: bool = False

    def options_of(self, seat: int) -> SeatOptions:
        """The options of `seat`'s holder."""
        return self.seat_options[seat] if seat < len(self.seat_options) else SeatOptions()

    def with_options(self, seat: int, options: SeatOptions) -> Table:
        """The table with `seat`'s options changed."""
        kept = [self.options_of(s) for s in range(len(self.names))]
        kept[seat] = options
        return replace(self, seat_options=tuple(kept))

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
    #: Every seat's own view, at a teaching table only (`bot.tables.teaching.open_racks`,
    #: the one way a table's update shows every rack); empty at every other table.
    racks: tuple[View, ...] = ()


@dataclass(frozen=True)
class SeatUpdate:
    """What one seat learns privately: its own view (rack and options), the tile it just drew,
    its own lines, and the deadline for its move when it must act."""

    view: View
    drawn: int | None
    lines: tuple[str, ...]
    must_act: bool
    deadline: float | None
    #: A bot keeps the seat for now (its person timed out too often): offer Reclaim.
    stood_in: bool = False
    #: The messages of the seat's previous prompt, whose move was made for it when its
    #: clock ran out: their controls are to go (clicking them could only be refused).
    expired: tuple[int, ...] = ()


class Answer(Protocol):
    """A click that made a move and waits for its answer, which the outside may make the
    table's update about that move (on Discord: the clicked table post, edited in place by
    the click's answer, a request Discord leaves out of the bot's global rate limit)."""

    def take(self) -> None:
        """The move made a new table picture: its delivery will be offered to this answer.
        Called right after the commit, before the sender runs."""


@dataclass(eq=False)
class Delivery:
    """One outbox entry on its way out. `key` is the same on every attempt and never used by
    another entry, so a send repeated after a failure or a restart can be recognised (on
    Discord it makes the messages' nonces); `sent` collects the ids of the messages posted so
    far, so an attempt that failed part way is retried without posting them again. `answer`:
    the click whose answer may carry this table update instead of a new post (the outside
    falls back to posting when it cannot)."""

    key: str
    sent: list[int] = field(default_factory=list)
    answer: Answer | None = None


class DeliveryFailed(Exception):
    """A delivery did not go through; the subclass says what to do about it. The message is
    written for the table's host: what is wrong, where, and what to do."""


class RetryLater(DeliveryFailed):
    """A passing failure (rate limit, server error, network): try again, not before `after`
    seconds when the outside said so."""

    def __init__(self, message: str, after: float | None = None) -> None:
        super().__init__(message)
        self.after = after


class TableGone(DeliveryFailed):
    """The place where the table is posted (its thread, or its channel) no longer exists."""


class NotAllowed(DeliveryFailed):
    """The bot lacks a permission where it posts; the message names it and the place."""


class Refused(DeliveryFailed):
    """Refused for good (a message the outside will never take): give the entry up."""


class Notifier(Protocol):
    """The outside world, as the table service needs it. Calls for one game arrive in order,
    after what they report is committed; each may be repeated (after a failure, or after a
    restart if it was never confirmed) with the same `Delivery.key`."""

    async def table_update(self, table: Table, update: TableUpdate,
                           delivery: Delivery) -> None:
        """Post what happened to the table."""

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate,
                          delivery: Delivery) -> None:
        """Tell a human seat privately that its rack or its options changed."""

    async def game_over(self, table: Table, view: View, delivery: Delivery) -> None:
        """The game ended; `view` is the spectator view with the result."""

    async def reminder(self, table: Table, seat: int, reminder: Reminder,
                       delivery: Delivery) -> None:
        """Nudge a seat whose move is due (`bot.tables.reminders`: when, whether time is
        nearly up, and whether by a mention in the table's thread, a DM or both)."""

    async def new_thread(self, table: Table) -> int | None:
        """The table's place is gone: open a new one for it (where the table was opened) and
        return its id, or None where there is no such thing."""

    async def table_moved(self, table: Table, delivery: Delivery) -> None:
        """Tell the players that the table now lives in `table.thread_id`, there and where
        the table was opened."""

    async def tell_host(self, table: Table, host_id: int, problem: str,
                        delivery: Delivery) -> None:
        """Tell the host what keeps the table's messages from arriving (`problem`, as a
        `DeliveryFailed` worded it)."""
