"""A player's vacation budget in a league season: how many days they have used, whether they
may start a vacation (now, or planned from a later moment), and until when it may last. A
personal vacation (no league's: it pauses the casual tables opened to pause for vacations)
has no budget, since no league sets one; each is capped at `PERSONAL_DAYS` instead.

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
from datetime import datetime

from bot.engine.errors import IllegalAction, InvalidInput, echo
from bot.store import Season, Vacation
from bot.tables.timekeeping import zone

DAY = 24 * 3600

#: The longest a personal vacation lasts, in days. Nobody sets a budget for casual tables,
#: so each personal vacation is capped instead: a month covers a holiday or a move, and a
#: vacation forgotten ends by itself before it holds a casual table (whose other players
#: wait meanwhile) for longer than that. Another may be started when one ends.
PERSONAL_DAYS = 30

#: What the tables of a player's games are told when they go away ({name}: the seat
#: holder's name) and when they are back.
BACK_NOTE = "{name} is back from vacation: their turn clock runs again, with the time it had left."


def moved_back(personal: bool) -> str:
    """What a player is told when a move of theirs ended their vacation (`personal`: a
    personal one, else a league season's)."""
    where = ("casual tables that pause for vacations" if personal
             else "this league's games")
    return (f"Welcome back: playing a move ended your vacation, so your clocks in {where} "
            "run again (`/mj vacation start` when you go away again).")


def when(moment: float) -> str:
    """A moment as people read it: a Discord timestamp, shown in each reader's own time zone
    and language, with how long from now."""
    return f"<t:{int(moment)}:f> (<t:{int(moment)}:R>)"


def away_note(until: float) -> str:
    """The table's notice that a player is away until `until` at the latest."""
    return ("{name} is on vacation until " + when(until) + " at the latest: their turn "
            "clock is paused and claim windows pass for them until they are back.")


def parse_start(text: str, zone_name: str, now: float) -> float:
    """When a vacation planned with `/mj vacation start from:` begins: `2026-12-24` (the
    start of that day) or `2026-12-24 18:00`, on the player's own clock (`zone_name`). A
    moment already past today means now; an earlier day, or a day more than a year ahead,
    is refused (`InvalidInput`, worded for the player)."""
    try:
        local = datetime.fromisoformat(text.strip().replace("T", " "))
    except ValueError:
        raise InvalidInput(f"I can't read `{echo(text)}` as a date: write it like 2026-12-24 "
                           "or 2026-12-24 18:00 (on your own clock, `/mj settings` "
                           "time_zone).") from None
    if local.tzinfo is None:
        local = local.replace(tzinfo=zone(zone_name))
    moment = local.timestamp()
    today = datetime.fromtimestamp(now, zone(zone_name)).date()
    if local.date() < today:
        raise InvalidInput(f"{local.date().isoformat()} has passed: choose today or a later "
                           "day.")
    if moment > now + 366 * DAY:
        raise InvalidInput("Plan a vacation at most a year ahead.")
    return max(moment, now)


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
    """A player's budget in a season: the days allowed, the days used, the vacation under
    way (None: none) and one planned to begin later (None: none). `personal`: their
    personal vacations instead, where the budget is the cap of each (`PERSONAL_DAYS`) and
    nothing is used up."""

    budget: int
    used: int
    current: Vacation | None
    planned: Vacation | None = None
    personal: bool = False

    @property
    def left(self) -> int:
        """Days still to be had."""
        return max(0, self.budget - self.used)

    def start_until(self, start: float, days: int | None = None) -> float:
        """When a vacation beginning at `start` ends at the latest: after `days` (None: the
        days left), never past the budget; an `IllegalAction` (or `InvalidInput` for a
        length that is no length), worded for the player, when none may start."""
        if self.current is not None:
            raise IllegalAction(f"You're already on vacation{self.where}; end it with "
                                "`/mj vacation end`.")
        if self.planned is not None:
            raise IllegalAction("You have a vacation planned from "
                                f"{when(self.planned.started_at)} already; `/mj vacation "
                                "end` cancels it.")
        if self.left == 0:
            raise IllegalAction(f"You have used all {self.budget} vacation days of this "
                                "season, so your clocks can't be paused again.")
        if days is None:
            return start + self.left * DAY
        if days < 1:
            raise InvalidInput("A vacation is at least 1 day.")
        if days > self.left and self.personal:
            raise IllegalAction(f"A personal vacation lasts at most {self.budget} days, not "
                                f"{days}.")
        if days > self.left:
            raise IllegalAction(f"You have {self.left} vacation day"
                                f"{'s' if self.left != 1 else ''} left this season, not "
                                f"{days}.")
        return start + days * DAY

    @property
    def where(self) -> str:
        """Where the vacation is, for a sentence about it ("" or " in this season")."""
        return "" if self.personal else " in this season"

    def describe(self) -> str:
        """The budget in a sentence or two, for the player."""
        away = ""
        if self.current is not None:
            away = (f" You're on vacation until {when(self.current.until)} at the latest; "
                    "`/mj vacation end` ends it sooner, and so does playing a move.")
        elif self.planned is not None:
            away = (f" Planned: away from {when(self.planned.started_at)} until "
                    f"{when(self.planned.until)}; `/mj vacation end` cancels it.")
        if self.personal:
            return (f"A personal vacation pauses your clocks at casual tables opened with "
                    f"`vacations:True`, for at most {self.budget} days each.{away}")
        return (f"Vacation days this season: {self.used} of {self.budget} used, {self.left} "
                f"left (a started day counts in full).{away}")


def vacation_status(season: Season | None, vacations: Sequence[Vacation], now: float
                    ) -> VacationStatus:
    """The player's status from their vacations in `season` (None: their personal ones)."""
    current = next((v for v in vacations if v.under_way(now)), None)
    planned = next((v for v in vacations if v.ended_at is None and v.started_at > now), None)
    if season is None:
        return VacationStatus(PERSONAL_DAYS, 0, current, planned, personal=True)
    return VacationStatus(season.settings.vacation_days, days_used(vacations, now), current,
                          planned)
