"""The time arithmetic of clocks that pause (`bot.tables.timekeeping`): quiet hours across
midnight in different zones, daylight-saving days, vacations, and the parsing of what people
type (quiet hours, clock lengths; zones are `test_zones.py`)."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.errors import InvalidInput
from bot.tables.timekeeping import (
    MAX_QUIET_MINUTES,
    Pauses,
    QuietHours,
    active_seconds,
    deadline,
    format_duration,
    parse_duration,
    parse_quiet_hours,
    zone,
)

HOUR = 3600
NIGHT = QuietHours(23 * 60, 7 * 60)


def at(zone_name: str, *when: int) -> float:
    """The Unix time of a local wall-clock time (year, month, day, hour[, minute])."""
    return datetime(*when, tzinfo=zone(zone_name)).timestamp()  # type: ignore[misc]


def local(moment: float, zone_name: str) -> tuple[int, ...]:
    """A moment on a zone's wall clock: (month, day, hour, minute)."""
    shown = datetime.fromtimestamp(moment, zone(zone_name))
    return (shown.month, shown.day, shown.hour, shown.minute)


def test_a_clock_with_no_pauses_runs_straight() -> None:
    assert deadline(1000.0, 90, Pauses()) == 1090.0
    assert active_seconds(1000.0, 1090.0, Pauses()) == 90.0


@pytest.mark.parametrize("zone_name", ["America/New_York", "Asia/Tokyo"])
def test_quiet_hours_across_midnight_pause_the_clock_in_the_players_own_zone(
        zone_name: str) -> None:
    pauses = Pauses(zone_name, NIGHT)
    start = at(zone_name, 2026, 6, 10, 21)  # 21:00 local: two hours before quiet hours
    # A 5-hour clock runs 2 hours, pauses 23:00-07:00 and runs 3 more: 10:00 next morning.
    due = deadline(start, 5 * HOUR, pauses)
    assert local(due, zone_name) == (6, 11, 10, 0)
    assert active_seconds(start, due, pauses) == 5 * HOUR
    # Started inside quiet hours (02:00) the clock waits for 07:00.
    assert local(deadline(at(zone_name, 2026, 6, 11, 2), HOUR, pauses), zone_name) == (
        6, 11, 8, 0)


def test_the_same_moment_is_quiet_for_one_player_and_not_for_another() -> None:
    # 04:00 UTC is midnight in New York (quiet) and 13:00 in Tokyo (awake).
    moment = datetime(2026, 6, 10, 4, tzinfo=zone("UTC")).timestamp()
    new_york, tokyo = Pauses("America/New_York", NIGHT), Pauses("Asia/Tokyo", NIGHT)
    assert local(deadline(moment, 0, new_york), "America/New_York") == (6, 10, 7, 0)
    assert deadline(moment, 0, tokyo) == moment
    assert new_york.paused_at(moment) is not None and tokyo.paused_at(moment) is None


def test_a_clock_running_out_as_quiet_hours_begin_runs_out_when_they_end() -> None:
    pauses = Pauses("Europe/London", NIGHT)
    due = deadline(at("Europe/London", 2026, 6, 10, 22), HOUR, pauses)
    assert local(due, "Europe/London") == (6, 11, 7, 0)
    assert pauses.paused_at(due) is None


def test_quiet_hours_begin_on_their_first_minute_and_end_on_their_last() -> None:
    """At exactly 23:00 a player is asleep (a clock due then is due at 07:00, and someone
    asked then is away until 07:00); at exactly 07:00 they are awake again, and a second
    before 23:00 still awake."""
    pauses = Pauses("Europe/London", NIGHT)
    bedtime, morning = at("Europe/London", 2026, 6, 10, 23), at("Europe/London", 2026, 6, 11, 7)
    assert pauses.paused_at(bedtime) == morning
    assert deadline(bedtime, 0, pauses) == morning
    assert pauses.paused_at(bedtime - 1) is None and deadline(bedtime - 1, 0, pauses) == (
        bedtime - 1)
    assert pauses.paused_at(morning) is None and deadline(morning, 0, pauses) == morning


def test_quiet_hours_within_one_day() -> None:
    pauses = Pauses("UTC", QuietHours(13 * 60, 14 * 60 + 30))  # a nap, 13:00-14:30
    due = deadline(at("UTC", 2026, 6, 10, 12), 2 * HOUR, pauses)
    assert local(due, "UTC") == (6, 10, 15, 30)


def test_spring_forward_makes_the_quiet_night_an_hour_shorter() -> None:
    # New York moves its clocks from 02:00 to 03:00 on 8 March 2026.
    pauses = Pauses("America/New_York", NIGHT)
    start = at("America/New_York", 2026, 3, 7, 22)
    due = deadline(start, 2 * HOUR, pauses)
    assert local(due, "America/New_York") == (3, 8, 8, 0)  # 07:00 local, then one hour
    assert due - start == 2 * HOUR + 7 * HOUR  # the night lasted 7 hours, not 8


def test_fall_back_makes_the_quiet_night_an_hour_longer() -> None:
    # New York moves its clocks from 02:00 back to 01:00 on 1 November 2026.
    pauses = Pauses("America/New_York", NIGHT)
    start = at("America/New_York", 2026, 10, 31, 22)
    due = deadline(start, 2 * HOUR, pauses)
    assert local(due, "America/New_York") == (11, 1, 8, 0)
    assert due - start == 2 * HOUR + 9 * HOUR


def test_quiet_hours_edge_skipped_by_the_clock_change_lands_an_hour_later() -> None:
    # Quiet hours ending at 02:30 on the spring day end at 03:30 (02:30 never happens).
    pauses = Pauses("America/New_York", QuietHours(23 * 60, 2 * 60 + 30))
    due = deadline(at("America/New_York", 2026, 3, 8, 1), 0, pauses)
    assert local(due, "America/New_York") == (3, 8, 3, 30)


def test_a_vacation_and_quiet_hours_pause_together() -> None:
    start = at("UTC", 2026, 6, 10, 12)
    away = (start + HOUR, start + 3 * 24 * HOUR)  # from 13:00 for three days
    pauses = Pauses("UTC", NIGHT, (away,))
    # One hour before the vacation; the rest after it, but 12:00 + 3 days is daytime.
    due = deadline(start, 3 * HOUR, pauses)
    assert due == away[1] + 2 * HOUR
    assert active_seconds(start, due, pauses) == 3 * HOUR
    # A vacation that ends inside quiet hours: the clock waits for their end as well.
    night_end = (start + HOUR, at("UTC", 2026, 6, 11, 2))
    assert local(deadline(start, 2 * HOUR, Pauses("UTC", NIGHT, (night_end,))), "UTC") == (
        6, 11, 8, 0)


def test_overlapping_pauses_are_merged() -> None:
    pauses = Pauses(away=((10.0, 30.0), (20.0, 40.0), (40.0, 50.0), (60.0, 70.0)))
    assert list(pauses.stretches(0.0)) == [(10.0, 50.0), (60.0, 70.0)]
    assert deadline(0.0, 15, pauses) == 55.0
    assert active_seconds(0.0, 100.0, pauses) == 100 - 40 - 10


zones = st.sampled_from(["UTC", "America/New_York", "Asia/Tokyo", "Europe/London",
                         "Australia/Sydney", "Asia/Kolkata", "Pacific/Chatham"])
quiet_hours = st.builds(QuietHours, st.integers(0, 24 * 60 - 1), st.integers(0, 24 * 60 - 1)
                        ).filter(lambda q: 0 < q.minutes <= MAX_QUIET_MINUTES)


@settings(max_examples=200, deadline=None)
@given(zone_name=zones, quiet=st.one_of(st.none(), quiet_hours),
       start=st.floats(1.7e9, 1.9e9), seconds=st.integers(0, 8 * 24 * HOUR))
def test_a_deadline_gives_exactly_its_active_time_and_never_falls_in_a_pause(
        zone_name: str, quiet: QuietHours | None, start: float, seconds: int) -> None:
    pauses = Pauses(zone_name, quiet)
    due = deadline(start, seconds, pauses)
    assert due >= start + seconds
    assert active_seconds(start, due, pauses) == pytest.approx(seconds, abs=1e-3)
    assert pauses.paused_at(due) is None
    if quiet is not None and seconds:
        # No earlier moment gives the whole time: a second less is not enough.
        assert active_seconds(start, due - 1, pauses) < seconds


@pytest.mark.parametrize(("text", "quiet"), [
    ("23:00-07:00", "23:00-07:00"), ("23-7", "23:00-07:00"), ("22:30 to 6:45", "22:30-06:45"),
    ("13:00\u201314:00", "13:00-14:00"), ("off", None), ("", None), ("24-8", "00:00-08:00"),
])
def test_quiet_hours_are_read_from_what_people_write(text: str, quiet: str | None) -> None:
    found = parse_quiet_hours(text)
    assert (None if found is None else str(found)) == quiet


@pytest.mark.parametrize(("text", "error"), [
    ("23:00", "write them like"), ("25-7", "not a time of day"), ("7:61-8", "not a time"),
    ("7-7", "another time"), ("6-23", "at most 16 hours"), ("late-early", "not a time"),
])
def test_quiet_hours_that_cannot_be_are_refused(text: str, error: str) -> None:
    with pytest.raises(InvalidInput, match=error):
        parse_quiet_hours(text)


def test_clock_lengths_are_read_with_their_units() -> None:
    assert parse_duration("90s") == 90
    assert parse_duration("1h30m") == 5400
    assert parse_duration(" 2d ") == 2 * 24 * HOUR
    for bad in ("90", "ten minutes", "5y", "1h and 2m"):
        with pytest.raises(InvalidInput, match="with its unit"):
            parse_duration(bad)
    assert format_duration(90) == "1m 30s"
    assert format_duration(86400) == "1d"
    assert format_duration(0) == "0s"
