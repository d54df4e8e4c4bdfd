"""What the two processes of `jongg bench discord` tell each other, and the words they share.

The bot runs in the bench's own process; the fake Discord and the simulated people run in a
child process (`tests/discord/people.py`). The bench sends the child a request at a time and
waits for its answer:

    World(tables, shape, scale) -> Address  a fresh fake Discord (Discord's rate limits, on
                                            a clock `scale` times Discord's) with a guild, a
                                            channel and the people; the bot logs in to it
    Endpoint(urls)              -> None     interactions are POSTed to these URLs in turn
                                            (HTTP workers, `--http-workers`), not sent over
                                            the gateway
    Open()                      -> Opened   the people open their tables: /mj new, Join
    Start(warmup)               -> Started  Start at every table, played fast to a point in
                                            the game; then the tables wait
    Play(active, ...)           -> Played   the first `active` tables play at the people's
                                            pace (from Start, when not started yet), and
                                            the fake says what it saw while it measured
    Halt()                      -> None     the people stop where they are (before the
                                            bot leaves, so it is never clicked meanwhile)
    Close()                     -> None     the people stop, the fake stops
    None                        -> (exit)

A request that fails is answered `Failed` (the child's traceback).

Everything here is plain data, so it crosses the process boundary as it is. Times are
`time.monotonic()` (CLOCK_MONOTONIC, shared by every process on the machine), so the child's
clicks and requests line up with the bot's commits.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path


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
    """Start a fresh fake Discord for `tables` tables of `shape`, with their people, and
    Discord's rate limits on a clock `scale` times as long as Discord's (1: Discord's). The
    bot has `shards` shards, and a server on each: table `i` is in the server of shard
    `i % shards`, so each shard's process gets an equal share of the tables (its server's
    commands and clicks; the DM clicks all go to shard 0's, as on Discord)."""

    tables: int
    shape: Shape
    scale: float = 1.0
    shards: int = 1
    #: The database server's main process, whose CPU (its children's included) is read
    #: over each measure (`Played.database`); None: not on this machine, or not the bench's.
    database_pid: int | None = None


@dataclass(frozen=True)
class Endpoint:
    """Set the app's Interactions Endpoint URL to `urls`, taken in turn as a reverse proxy
    in front of several workers would take them (once each answers Discord's checks)."""

    urls: tuple[str, ...]


@dataclass(frozen=True)
class Open:
    """The people open their tables (at most `at_once` at a time): /mj new, then Join."""

    at_once: int = 25


@dataclass(frozen=True)
class Opened:
    """The tables' game ids, in the order they were opened."""

    games: tuple[int, ...]


@dataclass(frozen=True)
class Start:
    """Every table's host presses Start; its people play fast (answering at once) until play
    has begun (the first Claim…/Pass under a discard) and then `warmup` more moves (drawn
    uniformly per table between its two ends), so that the tables are spread over their
    games rather than all in the Charleston; then the table waits for a `Play`."""

    warmup: tuple[int, int]
    seed: int = 0


@dataclass(frozen=True)
class Started:
    """Every table has warmed up, by `at`."""

    at: float


@dataclass(frozen=True)
class Play:
    """The first `active` tables play: each person answers a think time after a prompt
    reached them (uniform between `think`'s two ends). Tables not started yet are started
    and measured from Start. Otherwise the measure starts `settle` seconds on (the tables
    just made active answer what waited for them meanwhile), and lasts `seconds`, or, with
    `seconds` None, until every active game is over. The active tables go on playing after
    it. `peek` is the share of claim windows a person answers through Claim… (their private
    choices) rather than Pass; `moves` caps each table's moves at this pace (None: no cap)."""

    active: int
    think: tuple[float, float]
    seconds: float | None
    settle: float = 0.0
    peek: float = 0.125
    moves: int | None = None
    seed: int = 0


@dataclass(frozen=True)
class Halt:
    """The people stop where they are."""


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
    """What the child saw while it measured: the span (`start`, `end`), the clicks made in
    it, the bot's requests from `start` until the messages about those clicks were out, the
    child's CPU seconds over the span, how many games are over, what went wrong (refused
    requests and late acknowledgements, in words), and the CPU seconds the whole machine
    was busy over the span (every process: the bot's, the database's, the child's, and
    whatever else runs there), to tell whether the cores bound what was measured."""

    start: float
    end: float
    clicks: tuple[Click, ...]
    sent: tuple[Sent, ...]
    cpu: float
    over: int
    problems: tuple[str, ...] = field(default_factory=tuple)
    machine: float = 0.0
    database: float = 0.0


def machine_busy() -> float:
    """CPU seconds every core of this machine has been busy since boot, all processes
    together (Linux's /proc/stat: everything but idle and I/O wait; 0 where it is
    missing)."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(n) for n in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0
    idle = sum(ticks[3:5])
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int | None) -> float:
    """CPU seconds used by process `pid` and its children, those alive and those gone
    (Linux's /proc; 0 with None, or where it is missing): a database server's, whose
    connections each have a process."""
    if pid is None:
        return 0.0
    used = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The command may hold spaces: the fields that follow it are counted from ")".
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        parent, mine = int(fields[1]), int(stat.parent.name) == pid
        if mine or parent == pid:
            # utime, stime; for the server itself its children's gone too (cutime, cstime).
            used += sum(int(n) for n in fields[11:15 if mine else 13])
    return used / os.sysconf("SC_CLK_TCK")
