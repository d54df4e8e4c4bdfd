"""Reading the time zone a person types, and suggesting zones as they type.

A person's zone is kept as an IANA name (`America/New_York`): the one thing that knows a
place's daylight-saving rules, so quiet hours follow the person's clocks when they change.
People type other things: a city (`Tokyo`, `new york`), a common abbreviation (`JST`,
`EST`), a UTC offset (`UTC+9`, `GMT+9`, `+09:00`). `read_zone` reads each as the place it
most likely means, with a note when that was a guess; `zone_choices` suggests places for
each, the best-known first.

A fixed-offset zone (`EST`, `MST`, `Etc/GMT+5`) never moves for daylight saving while its
people's clocks do, so choosing one is allowed (someone may want exactly that) but answered
with a warning naming the city zones to choose instead. An offset is therefore read as the
best-known *place* at that offset now, and `Etc/GMT-9` (the fixed zone, its sign reversed as
the IANA database writes it) is offered only last.

Pure functions of what was typed and a moment (Unix time; the offsets of places change
with the seasons), so every case is tested with plain values.
"""

from __future__ import annotations

import difflib
import re
import time
from dataclasses import dataclass
from datetime import datetime
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from zoneinfo import TZPATH, ZoneInfoNotFoundError, available_timezones

from bot.engine.errors import InvalidInput
from bot.tables.timekeeping import DEFAULT_ZONE, zone

#: The best-known zones, in the order they are offered (the rest follow alphabetically).
COMMON_ZONES = (
    "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix",
    "America/Los_Angeles", "America/Anchorage", "Pacific/Honolulu", "America/Toronto",
    "America/Vancouver", "America/Halifax", "America/Mexico_City", "America/Sao_Paulo",
    "Europe/London", "Europe/Dublin", "Europe/Paris", "Europe/Berlin", "Europe/Madrid",
    "Europe/Rome", "Europe/Amsterdam", "Europe/Athens", "Europe/Istanbul", "Asia/Jerusalem",
    "Asia/Dubai", "Asia/Kolkata", "Asia/Singapore", "Asia/Hong_Kong", "Asia/Shanghai",
    "Asia/Tokyo", "Asia/Seoul", "Australia/Perth", "Australia/Sydney", "Pacific/Auckland",
    "UTC", "America/Bogota", "America/Lima", "America/Argentina/Buenos_Aires",
    "Europe/Moscow", "Africa/Cairo", "Africa/Lagos", "Africa/Nairobi", "Africa/Johannesburg",
    "Asia/Karachi", "Asia/Bangkok", "Asia/Jakarta", "Asia/Manila",
)

#: Common abbreviations and the places they usually mean, the likeliest first.
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("EST", "EDT", "ET"), ("America/New_York", "America/Toronto")),
    **dict.fromkeys(("CST", "CDT", "CT"), ("America/Chicago", "America/Mexico_City",
                                           "Asia/Shanghai")),
    **dict.fromkeys(("MST", "MDT", "MT"), ("America/Denver", "America/Phoenix")),
    **dict.fromkeys(("PST", "PDT", "PT"), ("America/Los_Angeles", "America/Vancouver")),
    **dict.fromkeys(("AKST", "AKDT"), ("America/Anchorage",)),
    "HST": ("Pacific/Honolulu",),
    **dict.fromkeys(("AST", "ADT"), ("America/Halifax",)),
    **dict.fromkeys(("NST", "NDT"), ("America/St_Johns",)),
    "BRT": ("America/Sao_Paulo",),
    "BST": ("Europe/London",),
    **dict.fromkeys(("WET", "WEST"), ("Europe/Lisbon",)),
    **dict.fromkeys(("CET", "CEST"), ("Europe/Paris", "Europe/Berlin", "Europe/Madrid",
                                      "Europe/Rome", "Europe/Amsterdam")),
    **dict.fromkeys(("EET", "EEST"), ("Europe/Athens", "Africa/Cairo")),
    "MSK": ("Europe/Moscow",),
    "SAST": ("Africa/Johannesburg",),
    "IST": ("Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"),
    "PKT": ("Asia/Karachi",),
    "ICT": ("Asia/Bangkok",),
    "WIB": ("Asia/Jakarta",),
    "SGT": ("Asia/Singapore",),
    "HKT": ("Asia/Hong_Kong",),
    "PHT": ("Asia/Manila",),
    "JST": ("Asia/Tokyo",),
    "KST": ("Asia/Seoul",),
    "AWST": ("Australia/Perth",),
    **dict.fromkeys(("ACST", "ACDT"), ("Australia/Adelaide",)),
    **dict.fromkeys(("AEST", "AEDT"), ("Australia/Sydney", "Australia/Melbourne")),
    **dict.fromkeys(("NZST", "NZDT"), ("Pacific/Auckland",)),
}

#: The regions whose zones are places (the others are old aliases: `US/Eastern`, `Japan`).
_REGIONS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia",
            "Europe", "Indian", "Pacific")
#: Names in the database that are no place anyone lives.
_NOT_ZONES = frozenset({"Factory", "localtime", "posixrules"})
_OFFSET = re.compile(r"(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?")
_FIXED = re.compile(r"Etc/GMT[+-][1-9]\d?|EST|MST|HST")


@dataclass(frozen=True)
class ZoneReading:
    """A zone read from what a person typed, and what to tell them about it ("" when it
    was exactly a zone's name and follows daylight saving)."""

    name: str
    note: str = ""


def read_zone(typed: str, now: float | None = None) -> ZoneReading:
    """The zone `typed` means (see the module docstring), read at `now` (the present if
    None) for an offset; an `InvalidInput` suggesting the nearest names when it is none."""
    wanted, echo = _cleaned(typed), typed.strip()[:40]
    moment = time.time() if now is None else now
    exact = _names().get(wanted.lower())
    if exact is not None:
        return ZoneReading(_loaded(exact), zone_warning(exact, moment))
    places = ABBREVIATIONS.get(wanted.upper()) or _cities().get(wanted.lower())
    offset = _offset_minutes(wanted)
    if not places and offset is not None:
        places = tuple(_at_offset(offset, moment))
    if not places and offset is not None and (other := _in_the_other_season(offset, moment)):
        raise InvalidInput(f"No place is at {_utc(offset)} now: it is the offset of "
                           f"{', '.join(other)} in the other half of the year. Choose the "
                           "city, and your clock follows its daylight saving.")
    if not places:
        near = _nearest(wanted, moment)
        hint = f" Did you mean {', '.join(near)}?" if near else ""
        raise InvalidInput(f"`{echo}` is not a time zone I know. Write your city "
                           "(Tokyo), an offset (UTC+9) or a place name like "
                           f"America/New_York or Europe/London.{hint}")
    chosen = places[0]
    if chosen.startswith("Etc/"):  # no place at that offset: the fixed zone it is
        return ZoneReading(_loaded(chosen), zone_warning(chosen, moment))
    if wanted.lower() in _cities() or chosen == DEFAULT_ZONE:
        return ZoneReading(_loaded(chosen))
    others = _distinct([z for z in places[1:] if not z.startswith("Etc/")], chosen)[:3]
    rest = f"; if you live elsewhere, choose your city: {', '.join(others)}" if others else ""
    return ZoneReading(_loaded(chosen), f"I read `{echo}` as {chosen}{rest}.")


def check_zone(typed: str) -> str:
    """The IANA name of the zone `typed` means (`read_zone`), or an `InvalidInput`."""
    return read_zone(typed).name


def zone_warning(name: str, now: float | None = None) -> str:
    """For a fixed-offset zone, a warning that it ignores daylight saving, naming the city
    zones to choose instead; "" for any other zone."""
    if not _FIXED.fullmatch(name):
        return ""
    moment = time.time() if now is None else now
    offset = _offset_of(name, moment)
    cities = ABBREVIATIONS.get(name) or tuple(
        z for z in _at_offset(offset, moment) if not z.startswith("Etc/"))
    instead = f" Choose your city's zone instead, e.g. {', '.join(cities[:3])}." if cities else ""
    return (f"{name} is a fixed offset ({_utc(offset)}): it ignores daylight saving, so "
            f"your quiet hours would not follow your clocks when they change.{instead}")


def zone_choices(typed: str, limit: int = 25, now: float | None = None) -> list[str]:
    """Zones for what was typed, at most `limit`: those an abbreviation, a city or an offset
    (at `now`, the present if None) means, the exact name, then the names containing it
    (any case), the best-known first. An offset's fixed zone stays among them, last."""
    wanted = _cleaned(typed)
    lower = wanted.lower()
    offset = _offset_minutes(wanted)
    moment = time.time() if now is None else now
    exact = _names().get(lower)
    found = [*ABBREVIATIONS.get(wanted.upper(), ()), *([exact] if exact else ()),
             *_cities().get(lower, ()),
             *(_at_offset(offset, moment) if offset is not None else ())]
    found += [z for z in COMMON_ZONES if lower in z.lower()]
    found += sorted(z for z in _names().values() if lower in z.lower())
    chosen = list(dict.fromkeys(found))
    last = [z for z in chosen[limit:] if z.startswith("Etc/")][:1] if offset is not None else []
    return chosen[:limit - len(last)] + last


def _cleaned(typed: str) -> str:
    """What was typed, trimmed, with spaces inside written as the database does (`_`)."""
    return re.sub(r"\s+", "_", typed.strip())


def _loaded(name: str) -> str:
    """`name`, once its zone data is known to load (a listed zone may lack it)."""
    try:
        zone(name)
    except ZoneInfoNotFoundError:
        raise InvalidInput(f"I have no data for the time zone `{name}`.") from None
    return name


@cache
def _names() -> dict[str, str]:
    """Every zone name by its lower case."""
    names = (available_timezones() | {DEFAULT_ZONE}) - _NOT_ZONES
    return {name.lower(): name for name in names}


def _common(name: str) -> int:
    """Where a zone stands among the best-known (after them all if it is not one)."""
    return COMMON_ZONES.index(name) if name in COMMON_ZONES else len(COMMON_ZONES)


@cache
def _places() -> tuple[str, ...]:
    """The zones that are places, best-known first, then alphabetically."""
    return tuple(sorted((z for z in _names().values() if z.split("/")[0] in _REGIONS),
                        key=lambda z: (_common(z), z)))


@cache
def _cities() -> dict[str, tuple[str, ...]]:
    """The places by the lower case of their last part (`tokyo`), best-known first, then
    the deepest (the database's own `America/Argentina/Buenos_Aires` before its alias)."""
    cities: dict[str, list[str]] = {}
    for place in sorted(_places(), key=lambda z: (_common(z), -z.count("/"), z)):
        cities.setdefault(place.rsplit("/", 1)[1].lower(), []).append(place)
    return {city: tuple(found) for city, found in cities.items()}


def _offset_minutes(text: str) -> int | None:
    """Minutes east of UTC from `UTC+9`, `GMT-5`, `+09:00`, `+0530` (None if it is not an
    offset any place has)."""
    found = _OFFSET.fullmatch(text.lower().replace("_", ""))
    if found is None:
        return None
    sign, hours, minutes = found[1], int(found[2]), int(found[3] or 0)
    total = (hours * 60 + minutes) * (-1 if sign == "-" else 1)
    return total if minutes < 60 and -12 * 60 <= total <= 14 * 60 else None


def _offset_of(name: str, moment: float) -> int:
    """The zone's offset from UTC at `moment`, in minutes."""
    shift = datetime.fromtimestamp(moment, zone(name)).utcoffset()
    return 0 if shift is None else round(shift.total_seconds() / 60)


@lru_cache(maxsize=4)
def _offsets(hour: int) -> dict[str, int]:
    """Every place's offset in the hour `hour` (Unix hours): places change offset on the
    hour, so the autocomplete reads the zone files once an hour, not once a keystroke."""
    return {place: _offset_of(place, hour * 3600.0) for place in _places()}


def _at_offset(minutes: int, moment: float) -> list[str]:
    """The places at `minutes` east of UTC at `moment`, best-known first, then the fixed
    zone of that offset (whole hours only, as the database has them); UTC itself first."""
    offsets = _offsets(int(moment // 3600))
    found = [place for place in _places() if offsets[place] == minutes]
    if minutes == 0:
        return [DEFAULT_ZONE, *found]
    if minutes % 60 == 0:
        found.append(f"Etc/GMT{-minutes // 60:+d}")  # the database's sign is reversed
    return found


#: Half a year, in seconds: where daylight saving is in force at one end, it is not at the
#: other.
_HALF_YEAR = 182 * 24 * 3600


def _in_the_other_season(minutes: int, moment: float) -> list[str]:
    """Up to three places at `minutes` east of UTC half a year from `moment`, though none is
    now (UTC-3:30, Newfoundland's standard time, typed in its summer)."""
    return [z for z in _at_offset(minutes, moment + _HALF_YEAR) if not z.startswith("Etc/")][:3]


def _utc(minutes: int) -> str:
    """An offset as people write it: `UTC+9`, `UTC-3:30`, `UTC`."""
    if minutes == 0:
        return "UTC"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{'+' if minutes > 0 else '-'}{hours}" + (f":{rest:02d}" if rest else "")


def _nearest(wanted: str, moment: float) -> list[str]:
    """Up to three zones near a name nothing matched: those containing its last part, else
    the cities spelled most like it."""
    last = wanted.rsplit("/", 1)[-1]
    near = zone_choices(last, limit=3, now=moment) if last else []
    if near:
        return near
    close = difflib.get_close_matches(last.lower(), list(_cities()), n=3, cutoff=0.7)
    return _distinct([_cities()[city][0] for city in close])


def _distinct(names: list[str], besides: str | None = None) -> list[str]:
    """`names` without a second name of a place already among them (or of `besides`): the
    zone database keeps old spellings (Asia/Katmandu is Asia/Kathmandu, Asia/Calcutta is
    Asia/Kolkata), which are no other place to choose."""
    seen = set() if besides is None else {_data(besides)}
    kept = []
    for name in names:
        if (data := _data(name)) not in seen:
            seen.add(data)
            kept.append(name)
    return kept


@cache
def _data(name: str) -> bytes:
    """A zone's compiled rules, the same bytes for every name of a place (an old name is a
    link to, or a copy of, the place's file): from the zone files `zoneinfo` reads first,
    else the tzdata package's; the name itself if neither has it."""
    for root in TZPATH:
        path = Path(root, name)
        if path.is_file():
            return path.read_bytes()
    try:
        return resources.files("tzdata.zoneinfo").joinpath(name).read_bytes()
    except (ImportError, OSError):
        return name.encode()
