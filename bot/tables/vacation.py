"""A player's vacation budget in a league season: how many days they have used, whether they
may start a vacation, and until when it may last.

A vacation costs whole days: each started day counts in full (a vacation of 26 hours costs
2), counted when it ends, or so far while it lasts. Its length is fixed when it starts at
the days left, so the budget can never be overdrawn: it ends then on its own. A director
may change the budget mid-season: a player who used more than the new budget has none
left (never fewer than none), and a vacation under way ends when the new budget would have
ended it, or at once if that moment has passed (never earlier: what was paused stays
paused).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.engine.errors import IllegalAction
from bot.store import Season, Vacation

DAY = 24 * 3600

#: What the tables of a player's league games are told when they go away ({name}: the seat
#: holder's name) and when they are back.
BACK_NOTE = "{name} is back from vacation: their turn clock runs again, with the time it had left."
#: What a player is told when a move of theirs ended their vacation.
MOVED_BACK = ("Welcome back: playing a move ended your vacation, so your clocks in this "
              "league's games run again (`/mj vacation start` when you go away again).")


def away_note(until: float) -> str:
    """The table's notice that a player is away until `until` (in UTC)."""
    when = datetime.fromtimestamp(until, UTC).strftime("%a %d %b %H:%M UTC")
    return ("{name} is on vacation until " + when + " at the latest: their turn clock is "
            "paused until they are back.")


def days_used(vacations: Sequence[Vacation], now: float) -> int:
    """The days these vacations cost by `now` (a vacation under way: so far)."""
    # Whole seconds first, so a vacation that ran exactly its days is not a hair over.
    return sum(math.ceil(round(max(0.0, min(v.end(), now) - v.started_at)) / DAY)
               for v in vacations)


def budget_until(vacation: Vacation, others: Sequence[Vacation], budget: int) -> float:
    """When a vacation under way ends at the latest under a season budget of `budget` days
    (changed by a director while it lasts): as if it had started under that budget, with
    the days the player's other vacations of the season had used by then."""
    used = days_used(others, vacation.started_at)
    return vacation.started_at + max(0, budget - used) * DAY


@dataclass(frozen=True)
class VacationStatus:
    """A player's budget in a season: the days allowed, the days used and the vacation under
    way (None: none)."""

    budget: int
    used: int
    current: Vacation | None

    @property
    def left(self) -> int:
        """Days still to be had."""
        return max(0, self.budget - self.used)

    def start_until(self, now: float) -> float:
        """When a vacation started at `now` ends at the latest (its budget runs out); an
        `IllegalAction`, worded for the player, when none may start."""
        if self.current is not None:
            raise IllegalAction("You're already on vacation in this season; end it with "
                                "`/mj vacation end`.")
        if self.left == 0:
            raise IllegalAction(f"You have used all {self.budget} vacation days of this "
                                "season, so your clocks can't be paused again.")
        return now + self.left * DAY

    def describe(self) -> str:
        """The budget in a sentence or two, for the player."""
        away = ("" if self.current is None else
                " You're on vacation until " + datetime.fromtimestamp(
                    self.current.until, UTC).strftime("%a %d %b %H:%M UTC") +
                " at the latest; `/mj vacation end` ends it sooner.")
        return (f"Vacation days this season: {self.used} of {self.budget} used, {self.left} "
                f"left (a started day counts in full).{away}")


def vacation_status(season: Season, vacations: Sequence[Vacation], now: float
                    ) -> VacationStatus:
    """The player's status from their vacations in `season`."""
    current = next((v for v in vacations if v.under_way(now)), None)
    return VacationStatus(season.settings.vacation_days, days_used(vacations, now), current)
