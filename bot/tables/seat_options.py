"""How one seat's holder likes to be asked: options that change what they are offered, never
what the rules allow.

Kept with the seat in the store (as JSON, so a new option needs no new column) and on the
`Table`, so every front end builds the seat's prompts with them. A new holder of a seat starts
with the defaults.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any


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


@dataclass(frozen=True)
class SeatOptions:
    """One seat's options (see the module docstring). Add a field with a default for each new
    option: stored options without it read as the default."""

    joker_calls: JokerCalls = JokerCalls.SKIP

    def describe(self) -> str:
        """The options in a sentence, for the player."""
        how = "skipped" if self.joker_calls is JokerCalls.SKIP else "offered"
        return (f"Calls only jokers would fill (the discard plus jokers, none of your own "
                f"tiles of it) are {how}.")

    def to_json(self) -> str:
        """The options as the store keeps them."""
        return json.dumps({f.name: getattr(self, f.name).value for f in fields(self)},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> SeatOptions:
        """Read `to_json` back. An option this version does not know, or a value it no longer
        has, is left out (the default applies): a seat's options never stop a game loading."""
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError:
            return cls()
        options = cls()
        if not isinstance(data, dict):
            return options
        for field in fields(cls):
            kind = type(getattr(options, field.name))
            try:
                options = replace(options, **{field.name: kind(data[field.name])})
            except (KeyError, ValueError):
                continue
        return options
