"""A player's options: what they are offered and what may be played for them, never what the
rules allow.

One type serves both places they are kept: a person's own options (`db.players`, kept across
games and servers, set with `/mj settings`) and a seat's (`db.seats`), which is what a game
plays with. A seat held by a person starts from that person's options; a seat that has
options of its own (a game stored before people kept their own, or a change made for one
game with `/mj options`) keeps them. Both are JSON, so a new option needs no new
column. A bot's seat has the defaults (bots decide everything themselves).

Every option changes only what the seat is asked about or what is played for it: an
automatic move is an ordinary engine action (`bot.tables.auto`), so games replay exactly.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from bot.engine.errors import InvalidInput
from bot.tables.reminders import (
    PACE_MOMENTS,
    ReminderPoint,
    ReminderWay,
    check_moments,
    describe_moments,
    moments,
)
from bot.tables.timekeeping import DEFAULT_ZONE, Pauses, parse_quiet_hours
from bot.tables.zones import check_zone


class JokerCalls(Enum):
    """Calls that only jokers would fill: the discard plus jokers, no tile of its kind from
    the seat's own rack.

    `SKIP` (the default): not offered, and a discard the seat could call only that way is not
    asked about. Such a call spends two or more jokers (a hand's most precious tiles) on a
    group the rack holds none of, which is rarely the best play; with two jokers a seat could
    otherwise be asked about almost every discard. Mah Jongg is always offered. `OFFER`: every
    call is offered.
    """

    SKIP = "skip"
    OFFER = "offer"


class AutoMahjong(Enum):
    """Whether a Mah Jongg the seat can declare is declared for it.

    `OFF` (the default): asked, like any move. `ON`: declared at once (on a discard or on the
    seat's turn; of several, both racks at once first, then the engine's first). `HOLD_FIRST`:
    in a game of two racks each, the first Mah Jongg is asked (a player may want to wait and
    declare both at once, which scores double) and the second is declared; with one rack it
    is `ON`."""

    OFF = "off"
    ON = "on"
    HOLD_FIRST = "hold-first"


class AutoDiscard(Enum):
    """Whether the tile just drawn is discarded for the seat.

    `OFF` (the default): asked. `DRAWN`: the drawn tile goes straight back out, unless it
    gives Mah Jongg (never thrown for the seat). `UNLESS_USEFUL`: the same, except when the
    tile fits (one of the seat's nearest hands uses it), is a joker, or lets the seat make a
    joker exchange or Mah Jongg: then the seat is asked."""

    OFF = "off"
    DRAWN = "drawn"
    UNLESS_USEFUL = "unless-useful"


@dataclass(frozen=True)
class SeatOptions:
    """A player's options (see the module docstring). Add a field with a default for each new
    option: stored options without it read as the default."""

    #: A tile that arrives is sorted into its place on the rack picture (which is always in
    #: order, suit by suit); off, the tile just drawn waits apart at the end of the rack, as
    #: on a real rack before its player sorts it in.
    auto_sort: bool = True
    auto_mahjong: AutoMahjong = AutoMahjong.OFF
    #: Calls for exposures are not offered (Mah Jongg still is): the seat only ever calls a
    #: discard for Mah Jongg.
    mahjong_calls_only: bool = False
    joker_calls: JokerCalls = JokerCalls.SKIP
    #: Calls that would leave the seat no hand possible (the engine's `deadens`) are not
    #: offered.
    skip_deadening: bool = True
    auto_discard: AutoDiscard = AutoDiscard.OFF
    #: The player's time zone (an IANA name): where their quiet hours are read.
    time_zone: str = DEFAULT_ZONE
    #: Quiet hours on their local clock (`23:00-07:00`; "" for none): at a table that
    #: pauses for them, their turn clock stops and no reminder reaches them meanwhile.
    quiet_hours: str = ""
    #: When a move is reminded at a table that reminds (`bot.tables.reminders`): the
    #: table's pace's moments (`pace`, for people who never chose), `none`, or the chosen
    #: points (`start 75 90`).
    remind_when: str = PACE_MOMENTS
    #: How a reminder comes: a mention in the table's thread, a DM, or both.
    remind_by: ReminderWay = ReminderWay.THREAD
    #: At a teaching table (every rack open), a hint after every draw: the nearest hands
    #: and waits, from the seat's own tiles. Only teaching tables give them, so the rack
    #: caption leaves it out.
    teaching_hints: bool = True

    def pauses(self, away: tuple[tuple[float, float], ...] = ()) -> Pauses:
        """When this player's clocks pause: their quiet hours, and the stretches `away`."""
        return Pauses(self.time_zone, parse_quiet_hours(self.quiet_hours), away)

    def reminder_points(self) -> frozenset[ReminderPoint] | None:
        """The moments this player chose to be reminded at (None: the table's pace's)."""
        return moments(self.remind_when)

    def describe(self) -> str:
        """The options in a few sentences, for the player."""
        return " ".join(f"{label}: {value}." for label, value in self.entries())

    def entries(self) -> tuple[tuple[str, str], ...]:
        """Each option as (what it is, its value in words), in the order they are shown."""
        return (
            ("Auto-sort", _on(self.auto_sort)),
            ("Auto Mah Jongg", {AutoMahjong.OFF: "off", AutoMahjong.ON: "on",
                                AutoMahjong.HOLD_FIRST: "on, holding the first"}[
                                    self.auto_mahjong]),
            ("Skip every call but Mah Jongg", _on(self.mahjong_calls_only)),
            ("Skip calls only jokers would fill (none of your own tiles of it)",
             _on(self.joker_calls is JokerCalls.SKIP)),
            ("Skip calls that would kill your hand", _on(self.skip_deadening)),
            ("Auto-discard the drawn tile", {
                AutoDiscard.OFF: "off", AutoDiscard.DRAWN: "on",
                AutoDiscard.UNLESS_USEFUL: "on, unless it fits, is a joker, or allows an "
                                           "exchange or Mah Jongg"}[self.auto_discard]),
            ("Time zone", self.time_zone),
            ("Quiet hours", self.quiet_hours or "none"),
            ("Reminders", describe_moments(self.remind_when)),
            ("Reminded by", {ReminderWay.THREAD: "a mention in the table's thread",
                             ReminderWay.DM: "DM",
                             ReminderWay.BOTH: "a mention and a DM"}[self.remind_by]),
            ("Hints after every draw at teaching tables", _on(self.teaching_hints)),
        )

    def caption(self) -> str:
        """The options that are on, shortly, for the rack picture's caption ("" if none)."""
        on = [name for name, shown in (
            ("auto-sort", self.auto_sort),
            ("auto Mah Jongg" + (" (holding the first)"
                                 if self.auto_mahjong is AutoMahjong.HOLD_FIRST else ""),
             self.auto_mahjong is not AutoMahjong.OFF),
            ("Mah Jongg calls only", self.mahjong_calls_only),
            ("skip joker-only calls", self.joker_calls is JokerCalls.SKIP),
            ("skip killing calls", self.skip_deadening),
            ("auto-discard" + (" unless useful"
                               if self.auto_discard is AutoDiscard.UNLESS_USEFUL else ""),
             self.auto_discard is not AutoDiscard.OFF)) if shown]
        return f"On: {', '.join(on)}" if on else ""

    def with_value(self, name: str, value: str) -> SeatOptions:
        """These options with option `name` set to `value` (an enum option by its value, a
        yes/no option by `on` or `off`): what a settings control carries. `InvalidInput`
        for an option or a value there is not."""
        known = {f.name: getattr(self, f.name) for f in fields(self)}
        if name not in known:
            raise InvalidInput(f"There is no setting `{name}`.")
        current = known[name]
        chosen: dict[str, Any] = {}
        try:
            if isinstance(current, bool):
                if value not in ("on", "off"):
                    raise ValueError(value)
                chosen[name] = value == "on"
            elif name in _TEXT_OPTIONS:
                chosen[name] = _TEXT_OPTIONS[name](value)
            else:
                chosen[name] = type(current)(value)
        except ValueError:
            raise InvalidInput(f"`{value}` is not a value of the setting `{name}`.") from None
        return replace(self, **chosen)

    def to_json(self) -> str:
        """The options as the store keeps them."""
        return json.dumps({f.name: _stored(getattr(self, f.name)) for f in fields(self)},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> SeatOptions:
        """Read `to_json` back. An option this version does not know, or a value it no longer
        has, is left out (the default applies): a player's options never stop a game
        loading. Options stored before reminders were chosen read as they played: a
        mention, and a DM too for `dm_reminders`."""
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError:
            return cls()
        options = cls()
        if not isinstance(data, dict):
            return options
        read: dict[str, Any] = {}
        for field in fields(cls):
            default = getattr(options, field.name)
            value = data.get(field.name)
            if isinstance(default, bool):
                if isinstance(value, bool):
                    read[field.name] = value
                continue
            if field.name in _TEXT_OPTIONS:
                with contextlib.suppress(InvalidInput):
                    if isinstance(value, str):
                        read[field.name] = _TEXT_OPTIONS[field.name](value)
                continue
            try:
                read[field.name] = type(default)(value)
            except ValueError:
                continue
        if "remind_by" not in data and data.get("dm_reminders") is True:
            read["remind_by"] = ReminderWay.BOTH
        return replace(options, **read)


def _quiet_text(text: str) -> str:
    """Quiet hours in their one written form ("" for none); `InvalidInput` if not any."""
    quiet = parse_quiet_hours(text)
    return "" if quiet is None else str(quiet)


#: The options written as text, each with what checks a value and gives its one form (an
#: `InvalidInput`, worded for the player, when it is not one).
_TEXT_OPTIONS: dict[str, Callable[[str], str]] = {
    "time_zone": check_zone,
    "quiet_hours": _quiet_text,
    "remind_when": check_moments,
}


def _on(value: bool) -> str:
    return "on" if value else "off"


def _stored(value: object) -> object:
    """An option's value as JSON holds it: an enum by its value, a yes/no as itself."""
    return value.value if isinstance(value, Enum) else value
