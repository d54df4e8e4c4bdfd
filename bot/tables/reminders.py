"""Reminders of a move: at which moments of a turn a person is nudged, and how.

A table's pace says whether it reminds at all (`bot.tables.options.PACES`: only the async
pace, whose turns last hours or days; a live or relaxed table plays in one sitting, where a
nudge seconds before the clock runs out would only be noise) and when, for people who never
chose: at the turn's start and at the pace's share of the clock (75 %). A person may choose
their own moments with `/mj settings` (any of turn start, 75 % and 90 %, "time nearly up",
or none) and how they are nudged (a mention in the table's thread, a DM, or both); their
choice replaces the pace's moments at every table that reminds.

Each moment is a clock of its own kind (`REMINDER_CLOCKS`), so it is kept in the store like
a turn clock (a restart keeps it), its deadline is worked out with the seat's pauses (quiet
hours, a vacation), and it rings once: it is deleted in the transaction that queues its
message.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.engine.errors import InvalidInput
from bot.store import ClockKind


class ReminderPoint(Enum):
    """A moment of a turn a person may choose to be reminded at, by the share of the turn
    clock gone then."""

    START = "start"
    THREE_QUARTERS = "75"
    NEARLY_UP = "90"

    @property
    def clock(self) -> ClockKind:
        """The clock that rings at this moment (one kind each, so all three may run)."""
        return _CLOCKS[self][0]

    @property
    def share(self) -> float:
        """The share of the turn clock gone when it rings."""
        return _CLOCKS[self][1]

    @property
    def label(self) -> str:
        """The moment in words, for the player."""
        return {ReminderPoint.START: "turn start", ReminderPoint.THREE_QUARTERS: "75 %",
                ReminderPoint.NEARLY_UP: "90 % (time nearly up)"}[self]


_CLOCKS = {ReminderPoint.START: (ClockKind.START_REMINDER, 0.0),
           ReminderPoint.THREE_QUARTERS: (ClockKind.REMINDER, 0.75),
           ReminderPoint.NEARLY_UP: (ClockKind.NEARLY_UP_REMINDER, 0.9)}

#: The clocks of reminders: the seat's, paused with it, each ringing once a moment.
REMINDER_CLOCKS = tuple(clock for clock, _ in _CLOCKS.values())

#: How a person who never chose is reminded: at the moments of the table's pace.
PACE_MOMENTS = "pace"
#: How a person who wants no reminders is (not) reminded.
NO_MOMENTS = "none"
#: The table's pace's moments in words.
PACE_WORDS = "the table's (at async tables: turn start and 75 %)"

class ReminderWay(Enum):
    """How a person is reminded: a mention in the table's thread (the default), a DM, or
    both."""

    THREAD = "thread"
    DM = "dm"
    BOTH = "both"


def check_moments(text: str) -> str:
    """The moments a person chose, in their one stored form: `pace` (the table's), `none`,
    or the chosen points in order (`start 90`); read from that form or from the settings
    menu's values joined by spaces, where nothing chosen is `none` and points chosen beside
    `pace` replace it (the menu shows `pace` chosen until someone picks their own). An
    `InvalidInput` naming what may be written otherwise."""
    words = text.lower().replace(",", " ").split()
    if words == [PACE_MOMENTS]:
        return PACE_MOMENTS
    words = [w for w in words if w != PACE_MOMENTS]
    if words in ([], [NO_MOMENTS]):
        return NO_MOMENTS
    known = {p.value for p in ReminderPoint}
    unknown = [w for w in words if w not in known]
    if unknown:
        raise InvalidInput(f"`{unknown[0][:20]}` is not a moment to remind you at; choose "
                           "from start, 75 and 90 (or none, or pace).")
    return " ".join(p.value for p in ReminderPoint if p.value in words)


def moments(stored: str) -> frozenset[ReminderPoint] | None:
    """The points of a stored `check_moments` form (None: the table's pace's)."""
    if stored == PACE_MOMENTS:
        return None
    return frozenset(ReminderPoint(w) for w in stored.split() if w != NO_MOMENTS)


def describe_moments(stored: str) -> str:
    """A stored `check_moments` form in words, for the player."""
    chosen = moments(stored)
    if chosen is None:
        return PACE_WORDS
    return ", ".join(p.label for p in ReminderPoint if p in chosen) or "none"


def reminder_clocks(chosen: frozenset[ReminderPoint] | None, remind_at: float | None
                    ) -> tuple[tuple[ClockKind, float], ...]:
    """The reminder clocks of a seat's turn, each with the share of the turn clock gone
    when it rings: none at a table whose pace does not remind (`remind_at` None), else the
    points the person chose, or (`chosen` None: they never chose) the turn's start and the
    pace's share."""
    if remind_at is None:
        return ()
    if chosen is None:
        return ((ClockKind.START_REMINDER, 0.0), (ClockKind.REMINDER, remind_at))
    return tuple((p.clock, p.share) for p in ReminderPoint if p in chosen)


@dataclass(frozen=True)
class Reminder:
    """A nudge owed to a seat's holder: when the move is due, whether time is nearly up
    (the 90 % reminder), and how it goes out (a thread mention, a DM, or both)."""

    due_at: float
    nearly_up: bool
    mention: bool
    dm: bool


def nudge(clock: ClockKind, due_at: float, way: ReminderWay, *, dm_closed: bool) -> Reminder:
    """The reminder a `clock` of `REMINDER_CLOCKS` owes, sent the holder's `way`; a DM to
    someone whose DMs are closed becomes a mention, so a reminder is never lost."""
    dm = way is not ReminderWay.THREAD and not dm_closed
    return Reminder(due_at, clock is ClockKind.NEARLY_UP_REMINDER,
                    mention=way is not ReminderWay.DM or not dm, dm=dm)
