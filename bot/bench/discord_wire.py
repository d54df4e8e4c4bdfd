"""What the two processes of `jongg bench discord` tell each other, and the words they share.

The bot runs in the bench's own process; the fake Discord and the simulated people run in a
child process (`tests/discord/people.py`). The bench sends the child a request at a time and
waits for its answer:

    World(tables, shape)   -> Address     a fresh fake Discord with a guild, a channel and
                                          the people (the bot then logs in to it)
    Open()                 -> Opened      the people open their tables: /mj new, Join, Start
    Play(...)              -> Played      they play, and the fake says what it saw
    Close()                -> None        the fake stops
    None                   -> (exit)

A request that fails is answered `Failed` (the child's traceback).

Everything here is plain data, so it crosses the process boundary as it is. Times are
`time.monotonic()` (CLOCK_MONOTONIC, shared by every process on the machine), so the child's
clicks and requests line up with the bot's commits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Shape(Enum):
    """Who sits at a table: four people, or one person and three bots."""

    FOUR = "four people"
    ONE = "one person + three bots"

    @property
    def people(self) -> int:
        return 4 if self is Shape.FOUR else 1


class Kind(Enum):
    """What a request the bot made is, as Discord's limits see it."""

    CALLBACK = "interaction callbacks"
    FOLLOWUP = "follow-ups"
    ANSWER_EDIT = "answer edits"
    POST = "channel posts"
    EDIT = "message edits"
    DM = "DMs"
    OTHER = "other"

    @property
    def global_limited(self) -> bool:
        """Whether it counts against the bot's global limit: everything but the requests
        made with an interaction's token (its callback, follow-ups, edits of its messages)."""
        return self not in ANSWERS


#: The requests made with an interaction's token, which Discord leaves out of the global
#: limit (they have buckets of their own, per interaction).
ANSWERS = frozenset({Kind.CALLBACK, Kind.FOLLOWUP, Kind.ANSWER_EDIT})
MESSAGES_ROUTE = "/channels/{channel_id}/messages"
MESSAGE_ROUTE = "/channels/{channel_id}/messages/{message_id}"
FOLLOWUPS_ROUTE = "/webhooks/{application_id}/{token}"


def kind_of(method: str, route: str, dm: bool) -> Kind:
    """The kind of a request by its method and route template (as the fake Discord names
    them); `dm`: to a DM channel."""
    if route.startswith("/interactions/"):
        return Kind.CALLBACK
    if route.startswith("/webhooks/"):
        return Kind.FOLLOWUP if method == "POST" and route == FOLLOWUPS_ROUTE else (
            Kind.ANSWER_EDIT)
    if method == "POST" and route == MESSAGES_ROUTE:
        return Kind.DM if dm else Kind.POST
    if method == "PATCH" and route == MESSAGE_ROUTE:
        return Kind.EDIT
    return Kind.OTHER


@dataclass(frozen=True)
class World:
    """Start a fresh fake Discord for `tables` tables of `shape`, with their people."""

    tables: int
    shape: Shape


@dataclass(frozen=True)
class Open:
    """The people open their tables (at most `at_once` at a time) and press Start."""

    at_once: int = 25


@dataclass(frozen=True)
class Opened:
    """The tables' game ids, in the order they were opened."""

    games: tuple[int, ...]


@dataclass(frozen=True)
class Play:
    """Play. Each person answers a think time after a prompt reached them (uniform between
    `think`'s two ends). Each table first plays fast (no think time) from Start until play
    has begun (the first Claim…/Pass under a discard) and then `warmup` more moves (drawn
    uniformly per table between its two ends), so the tables are spread over their games
    instead of all in the Charleston; the measure starts once every table has warmed up
    (with `warmup` None: at the first Start) and lasts `seconds`, or, with `seconds` None,
    until every game is over. `peek` is the share
    of claim windows a person answers through Claim… (their private choices) rather than
    Pass. `moves` caps each table's measured moves (None: no cap)."""

    think: tuple[float, float]
    seconds: float | None
    warmup: tuple[int, int] | None = (0, 0)
    peek: float = 0.125
    moves: int | None = None
    seed: int = 0


@dataclass(frozen=True)
class Close:
    """Stop the fake Discord."""


@dataclass(frozen=True)
class Failed:
    """The child could not do what it was asked: its traceback."""

    traceback: str


@dataclass(frozen=True)
class Click:
    """A person's click or choice, as the fake saw it: `created` when it sent the
    interaction, `acked` when the bot's first answer reached it (None: never). `move`: it
    plays a move (the bot commits it); otherwise it only asks to see something (Claim…).
    `refused`: the bot answered with an error (a prompt gone stale meanwhile)."""

    user: int
    game: int
    created: float
    acked: float | None
    move: bool
    refused: bool = False


@dataclass(frozen=True)
class Sent:
    """A request the bot made, as the fake received it: when, its kind, its channel (None
    for routes without one) and the game that channel belongs to (None: none of the
    tables'), whether it creates a message, and the status it got."""

    at: float
    kind: Kind
    channel: int | None
    game: int | None
    creates: bool
    status: int


@dataclass(frozen=True)
class Played:
    """What the child saw while the tables played: the measured span (`start`, `end`), the
    clicks made in it, the bot's requests from `start` until everything was delivered, the
    child's CPU seconds over the span, how many games ended, and what went wrong (refused
    requests and late acknowledgements, in words)."""

    start: float
    end: float
    clicks: tuple[Click, ...]
    sent: tuple[Sent, ...]
    cpu: float
    over: int
    problems: tuple[str, ...] = field(default_factory=tuple)
