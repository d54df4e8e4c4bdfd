"""How a table plays, as chosen when it is opened and stored with its game: the rules, the
card, the pace (clock lengths and reminders), hints and what a clock running out does."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum

from bot.engine.errors import InvalidInput
from bot.engine.game import RuleSet
from bot.engine.game.rules import rules_from_json, rules_to_json
from bot.store import Pace as Pace  # a table's clocks, for the front ends too
from bot.tables.standins import DEFAULT_STAND_IN_AFTER
from bot.tables.timekeeping import (
    CLAIM_BOUNDS,
    TURN_BOUNDS,
    check_clock,
    format_duration,
    parse_duration,
)

#: Named paces: clocks in seconds (turn, claim window) and when to remind, as a share of the
#: turn clock already gone (None: no reminders).
PACES: dict[str, tuple[Pace, float | None]] = {
    "untimed": (Pace("untimed"), None),
    "live": (Pace("live", turn_seconds=90, claim_seconds=10), None),
    "relaxed": (Pace("relaxed", turn_seconds=600, claim_seconds=30), None),
    "async": (Pace("async", turn_seconds=24 * 3600, claim_seconds=2 * 3600), 0.75),
}

#: Paces whose turn clocks pause in each player's quiet hours unless the table says not.
#: A live table plays in one sitting: nothing pauses there unless it is asked to.
QUIET_PACES = frozenset({"async"})



class Timeout(Enum):
    """What happens when a seat's clock runs out: it passes where it can (claims) and a bot
    of the server's level moves for it elsewhere, or that bot makes every move for it."""

    PASS = "pass"
    BOT = "bot"



@dataclass(frozen=True)
class TableOptions:
    """How a new table plays: rules, card, pace, hints and the timeout policy."""

    rules: RuleSet
    card_name: str
    card_text: str
    pace: str = "live"
    hints: bool = True
    timeout: Timeout = Timeout.PASS
    #: Set when the card is the server's own (the store then keeps its id with the game).
    server_card_id: int | None = None
    #: Timeouts in a row after which the bot keeps a seat until its person reclaims it (0:
    #: never; see `bot.tables.standins`).
    stand_in_after: int = DEFAULT_STAND_IN_AFTER
    #: The pace's clocks when they are not the named pace's own (a server's default pace
    #: with clocks of its own); None: the named pace's.
    base_clocks: Pace | None = None
    #: The table's own turn clock and claim window, as typed (`10m`, `24h`; None: those of
    #: `base_clocks`, else the pace's).
    turn: str | None = None
    claim: str | None = None
    #: Whether turn clocks pause in each player's quiet hours (None: the pace's way,
    #: `QUIET_PACES`).
    quiet_hours: bool | None = None
    #: Seconds every automatic answer waits at this table (a server's choice); None: the
    #: table service's own.
    auto_delay: float | None = None
    #: A teaching table: every rack is open to everyone at it (`bot.tables.teaching`).
    teaching: bool = False
    #: Whether the seats' clocks pause while their holders are on a personal vacation
    #: (`/mj vacation start` where there is no league): off unless the host asks, since the
    #: others wait meanwhile. A league's game pauses for its season's vacations instead.
    vacations: bool = False

    def __post_init__(self) -> None:
        if self.base_clocks is not None and self.base_clocks.name != self.pace:
            raise ValueError("a table's clocks are those of its pace")

    def clocks(self) -> Pace:
        """The pace with this table's own clock lengths: each within its bounds, and only
        at a pace that has clocks; an `InvalidInput` worded for the host otherwise."""
        if self.pace not in PACES:
            raise InvalidInput(f"Unknown pace `{self.pace[:20]}`; choose one of "
                               f"{', '.join(PACES)}.")
        pace = self.base_clocks or PACES[self.pace][0]
        if (self.turn or self.claim) and pace.turn_seconds is None:
            raise InvalidInput("An untimed table has no clocks to set; choose a pace.")
        turn = pace.turn_seconds if self.turn is None else check_clock(
            parse_duration(self.turn), TURN_BOUNDS, "turn clock")
        claim = pace.claim_seconds if self.claim is None else check_clock(
            parse_duration(self.claim), CLAIM_BOUNDS, "claim window")
        return Pace(pace.name, turn_seconds=turn, claim_seconds=claim)

    def pauses_quietly(self) -> bool:
        """Whether turn clocks pause in the players' quiet hours at this table."""
        return self.pace in QUIET_PACES if self.quiet_hours is None else self.quiet_hours

    def to_json(self) -> str:
        """What the store keeps in the game's rules column: the engine's rules plus the
        table's own options."""
        return json.dumps({"engine": json.loads(rules_to_json(self.rules)),
                           "timeout": self.timeout.value, "pace": self.pace,
                           "stand_in_after": self.stand_in_after,
                           "quiet": self.pauses_quietly(), "auto_delay": self.auto_delay,
                           "teaching": self.teaching, "vacations": self.vacations})


@dataclass(frozen=True)
class StoredOptions:
    """A game's table options as the store keeps them (`TableOptions.to_json`). An option
    added after a game was stored reads as what that game was opened to play: no seat handed
    to a bot for good (`stand_in_after` 0), quiet hours as its pace has them, the table
    service's delay (`auto_delay` None), not a teaching table, no pause for personal
    vacations."""

    rules: RuleSet
    timeout: Timeout
    pace: str
    stand_in_after: int
    quiet: bool
    auto_delay: float | None
    teaching: bool
    vacations: bool


def read_table_options(text: str) -> StoredOptions:
    """The options stored with a game (see `StoredOptions`), read once."""
    data = json.loads(text)
    pace = str(data["pace"])
    after = data.get("stand_in_after", 0)
    delay = data.get("auto_delay")
    return StoredOptions(
        rules=rules_from_json(json.dumps(data["engine"])), timeout=Timeout(data["timeout"]),
        pace=pace, stand_in_after=after if isinstance(after, int) and after >= 0 else 0,
        quiet=bool(data.get("quiet", pace in QUIET_PACES)),
        auto_delay=None if delay is None else float(delay),
        teaching=data.get("teaching") is True, vacations=data.get("vacations") is True)


def describe_clocks(pace: Pace, *, quiet: bool, vacations: bool = False) -> str:
    """A table's clocks for its lobby, e.g. ` (turn 1d, claim 2h, paused in quiet hours and
    on vacation)` ("" for an untimed table, which has no clock to pause)."""
    if pace.turn_seconds is None:
        return ""
    parts = [f"turn {format_duration(pace.turn_seconds)}"]
    if pace.claim_seconds is not None:
        parts.append(f"claim {format_duration(pace.claim_seconds)}")
    paused = [when for when, on in (("in quiet hours", quiet), ("on vacation", vacations)) if on]
    if paused:
        parts.append(f"paused {' and '.join(paused)}")
    return f" ({', '.join(parts)})"
