"""How a table plays, as chosen when it is opened and stored with its game: the rules, the
card, the pace (clock lengths and reminders), hints and what a clock running out does."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum

from bot.engine.game import RuleSet
from bot.engine.game.rules import rules_from_json, rules_to_json
from bot.store import Pace

#: Named paces: clocks in seconds (turn, claim window) and when to remind, as a share of the
#: turn clock already gone (None: no reminders).
PACES: dict[str, tuple[Pace, float | None]] = {
    "untimed": (Pace("untimed"), None),
    "live": (Pace("live", turn_seconds=90, claim_seconds=10), None),
    "relaxed": (Pace("relaxed", turn_seconds=600, claim_seconds=30), None),
    "async": (Pace("async", turn_seconds=24 * 3600, claim_seconds=2 * 3600), 0.75),
}



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
    #: The pace's clocks when they are not the named pace's own (a server's default pace
    #: with clocks of its own); None: the named pace's.
    clocks: Pace | None = None
    #: Seconds every automatic answer waits at this table (a server's choice); None: the
    #: table service's own.
    auto_delay: float | None = None
    #: A teaching table: every rack is open to everyone at it (`bot.tables.teaching`).
    teaching: bool = False

    def __post_init__(self) -> None:
        if self.clocks is not None and self.clocks.name != self.pace:
            raise ValueError("a table's clocks are those of its pace")

    def to_json(self) -> str:
        """What the store keeps in the game's rules column: the engine's rules plus the
        table's own options."""
        return json.dumps({"engine": json.loads(rules_to_json(self.rules)),
                           "timeout": self.timeout.value, "pace": self.pace,
                           "auto_delay": self.auto_delay, "teaching": self.teaching})


def read_table_options(text: str) -> tuple[RuleSet, Timeout, str]:
    """The rules, timeout policy and pace name stored with a game."""
    data = json.loads(text)
    return (rules_from_json(json.dumps(data["engine"])), Timeout(data["timeout"]),
            str(data["pace"]))


def read_auto_delay(text: str) -> float | None:
    """The delay before automatic answers stored with a game (None for a game stored before
    tables kept their own)."""
    delay = json.loads(text).get("auto_delay")
    return None if delay is None else float(delay)


def read_teaching(text: str) -> bool:
    """Whether a game's stored options make it a teaching table (never, for a game stored
    before teaching tables existed)."""
    return json.loads(text).get("teaching") is True
