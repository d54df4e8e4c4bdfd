"""Time that respects people: clock lengths, time zones, quiet hours and the arithmetic of a
clock that pauses.

Pure functions of Unix times (seconds) and a person's zone (IANA names, `zoneinfo`), with no
clock of their own, so every case (quiet hours across midnight, a daylight-saving day, a
vacation) is tested with plain numbers.

A clock that pauses runs for `seconds` of *active* time: time outside the pauses that apply
to its seat, which are the seat holder's quiet hours (every local day, in their zone) and
any stretch they are away (a vacation). `deadline` says when such a clock runs out,
`active_seconds` how much of it runs between two moments (its inverse), so a clock paused
part way can be resumed with the time it had left.

Local times that a daylight-saving change skips (02:30 on the spring day in New York) are
read as the same time before the change, which lands an hour later on the clock; local
times that happen twice (the autumn day) are read as the first. So a quiet night that
crosses the spring change is an hour shorter, one that crosses the autumn change an hour
longer, as it is on the wall clock; quiet hours shorter than the hour skipped that begin in
it (02:30-03:00 on the spring day: from 03:30 to 03:00) do not happen that day.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from datetime import time as local_time
from functools import cache
from zoneinfo import ZoneInfo

from bot.engine.errors import InvalidInput, echo

#: The zone of a person who never chose one.
DEFAULT_ZONE = "UTC"
#: Longest quiet hours a person may keep (minutes): a clock must get some daylight.
MAX_QUIET_MINUTES = 16 * 60
#: Shortest and longest clocks a table may set (seconds): (turn, claim window).
TURN_BOUNDS = (30, 7 * 24 * 3600)
CLAIM_BOUNDS = (5, 24 * 3600)

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"(\d+)\s*([smhd])")
_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2}))?$")


@cache
def zone(name: str) -> ZoneInfo:
    """The zone of an IANA name (`bot.tables.zones.check_zone` first: this trusts it)."""
    return ZoneInfo(name)


def parse_duration(text: str) -> int:
    """Seconds from `90s`, `10m`, `24h`, `2d` or combinations (`1h30m`); an `InvalidInput`
    for anything else (a bare number is refused: its unit would be a guess)."""
    cleaned = text.strip().lower()
    parts = _DURATION.findall(cleaned)
    if not parts or _DURATION.sub("", cleaned).strip():
        raise InvalidInput(f"`{echo(text)}` is not a length of time; write it with its unit: "
                           "90s, 10m, 24h or 2d (or 1h30m).")
    return sum(int(count) * _UNITS[unit] for count, unit in parts)


def check_clock(seconds: int, bounds: tuple[int, int], what: str) -> int:
    """`seconds` if within `bounds`, otherwise an `InvalidInput` naming them."""
    low, high = bounds
    if not low <= seconds <= high:
        raise InvalidInput(f"The {what} must be from {format_duration(low)} to "
                           f"{format_duration(high)}, not {format_duration(seconds)}.")
    return seconds


def format_duration(seconds: float) -> str:
    """A length of time in its largest units: `90s` is `1m 30s`, `86400` is `1d`."""
    left = round(seconds)
    parts: list[str] = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if left >= size or (unit == "s" and not parts):
            parts.append(f"{left // size}{unit}")
            left %= size
    return " ".join(parts)


@dataclass(frozen=True)
class QuietHours:
    """Quiet hours on a person's local clock, in minutes after midnight. `end` before
    `start` crosses midnight (23:00-07:00)."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"{_hhmm(self.start)}-{_hhmm(self.end)}"

    @property
    def minutes(self) -> int:
        """How long they last on an ordinary day."""
        return (self.end - self.start) % (24 * 60)


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def parse_quiet_hours(text: str) -> QuietHours | None:
    """Quiet hours from `23:00-07:00` (or `23-7`, `22:30 to 6:45`); None for `off` or
    nothing. An `InvalidInput` for a time that is not one, hours that begin where they end,
    or more than `MAX_QUIET_MINUTES`."""
    cleaned = text.strip().lower()
    if cleaned in ("", "off", "none", "no"):
        return None
    ends = re.split(r"\s*(?:-|\u2013|to)\s*", cleaned)
    if len(ends) != 2:
        raise InvalidInput(f"`{echo(text)}` is not quiet hours; write them like 23:00-07:00 "
                           "(or off).")
    start, end = (_minute_of_day(part, text) for part in ends)
    quiet = QuietHours(start, end)
    if quiet.minutes == 0:
        raise InvalidInput("Quiet hours must end at another time than they begin.")
    if quiet.minutes > MAX_QUIET_MINUTES:
        raise InvalidInput(f"Quiet hours may last at most {MAX_QUIET_MINUTES // 60} hours "
                           f"(these last {format_duration(quiet.minutes * 60)}), so that "
                           "your games still move every day.")
    return quiet


def _minute_of_day(part: str, text: str) -> int:
    found = _CLOCK.match(part)
    hours, minutes = (int(found[1]), int(found[2] or 0)) if found else (99, 0)
    if hours > 24 or minutes > 59 or (hours == 24 and minutes):
        raise InvalidInput(f"`{echo(text)}`: `{echo(part, 10)}` is not a time of day; write it "
                           "like 23:00 or 7.")
    return (hours * 60 + minutes) % (24 * 60)


@dataclass(frozen=True)
class Pauses:
    """When a seat's clock does not run: its holder's quiet hours (None: none) in their
    zone, and stretches they are away (Unix times, start and end)."""

    zone: str = DEFAULT_ZONE
    quiet: QuietHours | None = None
    away: tuple[tuple[float, float], ...] = ()

    def stretches(self, since: float) -> Iterator[tuple[float, float]]:
        """Every pause that has not ended by `since`, soonest first, overlapping ones
        merged (endless with quiet hours)."""
        merged = heapq.merge(self._quiet_from(since), sorted(self.away))
        current: tuple[float, float] | None = None
        for start, end in merged:
            if end <= since:
                continue
            if current is None:
                current = (start, end)
            elif start <= current[1]:
                current = (current[0], max(current[1], end))
            else:
                yield current
                current = (start, end)
        if current is not None:
            yield current

    def _quiet_from(self, since: float) -> Iterable[tuple[float, float]]:
        """The quiet hours of every local day from the one before `since` on."""
        if self.quiet is None:
            return
        where = zone(self.zone)
        day = datetime.fromtimestamp(since, where).date() - timedelta(days=1)
        crosses = self.quiet.end <= self.quiet.start
        while True:
            start = _at(day, self.quiet.start, where)
            end = _at(day + timedelta(days=1) if crosses else day, self.quiet.end, where)
            if end > start:  # short hours that begin in the hour spring skips never happen
                yield start, end
            day += timedelta(days=1)

    def paused_at(self, moment: float) -> float | None:
        """When the pause `moment` falls in ends (None: the clock runs at `moment`)."""
        first = next(self.stretches(moment), None)
        return first[1] if first is not None and first[0] <= moment else None


def _at(day: date, minutes: int, where: ZoneInfo) -> float:
    """The Unix time of a local time of day (see the module docstring for DST days)."""
    return datetime.combine(day, local_time(minutes // 60, minutes % 60),
                            tzinfo=where).timestamp()


def deadline(start: float, seconds: float, pauses: Pauses) -> float:
    """When a clock started at `start` for `seconds` of active time runs out. A clock that
    would run out exactly as a pause begins runs out when it ends instead, so nothing falls
    due in a pause; `seconds` 0 gives the first moment from `start` outside a pause (when a
    reminder owed in quiet hours goes out)."""
    moment, left = start, seconds
    for begin, end in pauses.stretches(start):
        if begin > moment:
            if left < begin - moment:
                return moment + left
            left -= begin - moment
        moment = max(moment, end)
    return moment + left


def active_seconds(start: float, end: float, pauses: Pauses) -> float:
    """How much active time passes from `start` to `end` (0 if `end` is not later)."""
    total, moment = 0.0, start
    for begin, finish in pauses.stretches(start):
        if begin >= end:
            break
        if begin > moment:
            total += begin - moment
        moment = max(moment, finish)
        if moment >= end:
            return total
    return total + max(0.0, end - moment)

