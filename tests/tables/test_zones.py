"""Reading the time zone people type (`bot.tables.zones`): IANA names in any case, cities,
common abbreviations and UTC offsets read as the places they mean (offsets as the seasons
have them), fixed-offset zones accepted with a warning, friendly refusals naming the nearest
zones, and an autocomplete of at most 25 that stays fast."""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from bot.engine.errors import InvalidInput
from bot.tables.timekeeping import zone
from bot.tables.zones import check_zone, read_zone, zone_choices, zone_warning

JUNE = datetime(2026, 6, 10, 12, tzinfo=zone("UTC")).timestamp()
JANUARY = datetime(2026, 1, 10, 12, tzinfo=zone("UTC")).timestamp()


@pytest.mark.parametrize("typed", ["UTC+9", "GMT+9", "+09:00", "utc +9", "JST", "Tokyo",
                                   "tokyo", " Asia/Tokyo ", "asia/tokyo"])
def test_what_people_type_for_tokyo_suggests_and_is_read_as_asia_tokyo(typed: str) -> None:
    assert zone_choices(typed, now=JUNE)[0] == "Asia/Tokyo"
    assert read_zone(typed, JUNE).name == "Asia/Tokyo"
    assert check_zone(typed) == "Asia/Tokyo"


def test_names_cities_and_abbreviations() -> None:
    assert check_zone(" america/new_york ") == "America/New_York"
    assert check_zone("New York") == "America/New_York"  # a city, spaces and all
    assert check_zone("buenos aires") == "America/Argentina/Buenos_Aires"  # not the alias
    for typed, place in (("EDT", "America/New_York"), ("PST", "America/Los_Angeles"),
                         ("pdt", "America/Los_Angeles"), ("CET", "CET"),
                         ("BST", "Europe/London"), ("AEST", "Australia/Sydney"),
                         ("IST", "Asia/Kolkata")):
        assert check_zone(typed) == place, typed
    cet = zone_choices("CET")
    assert cet[0] == "Europe/Paris" and "CET" in cet  # the city zones first
    # A guess says so, and names the other places it could have meant.
    assert read_zone("IST").note == ("I read `IST` as Asia/Kolkata; if you live elsewhere, "
                                     "choose your city: Europe/Dublin, Asia/Jerusalem.")
    assert read_zone("Tokyo").note == ""  # no guess, nothing to say


def test_an_offset_is_the_places_at_that_offset_now_and_the_fixed_zone_last() -> None:
    # Five hours behind UTC is New York in winter, Chicago (and Bogota) in summer.
    winter, summer = zone_choices("UTC-5", now=JANUARY), zone_choices("UTC-5", now=JUNE)
    assert winter[:2] == ["America/New_York", "America/Toronto"]
    assert summer[0] == "America/Chicago" and "America/New_York" not in summer
    for found in (winter, summer):
        assert "America/Bogota" in found and found[-1] == "Etc/GMT+5" and len(found) == 25
    assert zone_choices("UTC+9", now=JUNE)[-1] == "Etc/GMT-9"  # its sign is reversed
    assert read_zone("UTC-5", JANUARY).name == "America/New_York"
    guessed = read_zone("GMT+5:30", JUNE)
    assert guessed.name == "Asia/Kolkata" and "choose your city" in guessed.note
    assert read_zone("UTC+0", JUNE).name == "UTC"
    # An offset no place keeps (UTC-12) is its fixed zone, with the warning.
    lonely = read_zone("UTC-12", JUNE)
    assert lonely.name == "Etc/GMT+12" and "ignores daylight saving" in lonely.note


@pytest.mark.parametrize(("name", "city"), [("EST", "America/New_York"),
                                            ("MST", "America/Denver"),
                                            ("Etc/GMT+5", "America/New_York"),
                                            ("Etc/GMT-9", "Asia/Tokyo")])
def test_a_fixed_offset_zone_is_kept_with_a_warning_naming_the_city_zone(
        name: str, city: str) -> None:
    reading = read_zone(name, JANUARY)
    assert reading.name == name
    assert "fixed offset" in reading.note and "ignores daylight saving" in reading.note
    assert f"Choose your city's zone instead, e.g. {city}" in reading.note
    assert zone_warning("America/New_York") == zone_warning("UTC") == ""


def test_refusals_are_friendly_and_name_the_nearest_zones() -> None:
    for typed, near in (("Mars/Olympus", None), ("Tokio", "Asia/Tokyo"),
                        ("New Yrok", "America/New_York"), ("Europe/Londn", "Europe/London")):
        with pytest.raises(InvalidInput) as refused:
            check_zone(typed)
        said = str(refused.value)
        assert said.startswith(f"`{typed}` is not a time zone I know. Write your city "
                               "(Tokyo), an offset (UTC+9)"), said
        if near:
            assert f"Did you mean {near}" in said, said
    with pytest.raises(InvalidInput):
        check_zone("UTC+15")  # no place is that far east


@pytest.mark.parametrize(("typed", "now", "place"), [
    ("UTC-3:30", JUNE, "America/St_Johns"), ("UTC+12:45", JANUARY, "Pacific/Chatham")])
def test_an_offset_only_another_season_has_names_the_place_it_belongs_to(
        typed: str, now: float, place: str) -> None:
    """Newfoundland's standard time typed in its summer (and Chatham's standard time in its
    summer): no place is at that offset now, but the refusal names the place whose offset
    it is half the year, rather than saying it knows no such zone."""
    with pytest.raises(InvalidInput) as refused:
        read_zone(typed, now)
    assert place in refused.value.message and "not a time zone" not in refused.value.message


def test_the_autocomplete_offers_at_most_25_and_stays_fast() -> None:
    assert zone_choices("")[0] == "America/New_York"  # common zones first
    assert zone_choices("tokyo") == ["Asia/Tokyo"]
    zone_choices("UTC+1")  # the first offset reads every zone's file once an hour
    started = time.perf_counter()
    for typed in ("a", "e", "new", "lon", "UTC+1", "+05:30", "est", "x" * 100):
        assert len(zone_choices(typed)) <= 25
    assert time.perf_counter() - started < 0.2  # 8 keystrokes, on a busy machine
