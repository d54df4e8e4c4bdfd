"""`jongg bench discord`'s arithmetic: latencies from both processes' records, requests per
move by kind, and Discord's budgets checked against the bot's own request log.

The child process (the fake Discord and the people) records each click (sent, first answer)
and each request the bot made; the bot's process records each commit (the game, the people
whose moves it holds, when it returned) and when each outbox entry's delivery returned. Both
use CLOCK_MONOTONIC, so they line up:

* click -> answer: the click's first answer reaching the fake (the acknowledgement);
* click -> commit: the first commit of the clicker's game holding the clicker's move, after
  the click;
* commit -> messages: from that commit to the last (and the first) post, DM or edit the fake
  received in the game's channels before the commit's entries were all delivered.

Budgets, from the fake's record of the bot's requests: Discord allows a bot 50 requests a
second in all except interaction answers (`GLOBAL_LIMIT`), and 5 messages per 5 seconds in
one channel (`CHANNEL_LIMIT`). Each is checked over every window of its length (sliding, so
no alignment of Discord's own windows could find more), and any 429 the bot got is counted.
"""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.bench.discord_wire import Kind, Played, Sent

#: Discord's global limit: requests per second per bot token, interaction answers exempt.
GLOBAL_LIMIT = (50, 1.0)
#: Discord's usual message limit in one channel: messages per this many seconds.
CHANNEL_LIMIT = (5, 5.0)
#: The kinds that show a move to the players (the requests "commit -> messages" waits for):
#: a table post edited in place through a click's answer is one of them, and so are the
#: posts and prompts sent as follow-ups on the people's clicks (`bot.discord.tokens`).
MESSAGE_KINDS = frozenset({Kind.POST, Kind.DM, Kind.EDIT, Kind.ANSWER_EDIT, Kind.FOLLOWUP})


class Purpose(Enum):
    """What a request the bot made was for, as its own process saw it: a table's post (or
    its result), a seat's prompt (a draw is a prompt that shows the tile drawn), the answer
    to a click, or anything else (lobbies, threads, reminders, notices)."""

    TABLE = "table posts"
    PROMPT = "prompts"
    DRAW = "draws"
    ANSWER = "answers"
    OTHER = "other"


@dataclass(frozen=True)
class Request:
    """One request the bot's process made: when, what for, and whether it was made with the
    bot's token (global-limited) or an interaction's (exempt)."""

    at: float
    purpose: Purpose
    global_limited: bool


@dataclass(frozen=True)
class Purposes:
    """Requests per move by purpose, global-limited and on interaction tokens apart."""

    global_limited: dict[Purpose, float]
    tokens: dict[Purpose, float]

    @classmethod
    def of(cls, requests: Iterable[Request], moves: int) -> Purposes:
        """The requests (already cut to the measured span) per move."""
        counted = Counter((r.purpose, r.global_limited) for r in requests)
        per = max(moves, 1)
        return cls({p: counted[p, True] / per for p in Purpose},
                   {p: counted[p, False] / per for p in Purpose})

    def describe(self) -> str:
        limited = ", ".join(f"{p.value} {n:.3f}" for p, n in self.global_limited.items())
        exempt = ", ".join(f"{p.value} {n:.3f}" for p, n in self.tokens.items())
        return (f"per move by purpose, bot's token (global-limited): {limited}; interaction "
                f"tokens (exempt): {exempt}")


@dataclass(frozen=True)
class Commit:
    """One commit of a game's moves, seen in the bot's process: who moved (the people's
    user ids), when it returned, and the keys of the outbox entries it wrote."""

    game: int
    actors: frozenset[int]
    at: float
    keys: tuple[str, ...]


def peak(times: Iterable[float], width: float) -> int:
    """The most events in any window of `width` seconds."""
    ordered = sorted(times)
    most, low = 0, 0
    for high, at in enumerate(ordered):
        while at - ordered[low] >= width:
            low += 1
        most = max(most, high - low + 1)
    return most


@dataclass(frozen=True)
class Latencies:
    """Milliseconds per measured move (answers: per click, looks included)."""

    answer: list[float]
    commit: list[float]
    messages: list[float]
    first: list[float]
    #: Moves whose commit was not found (the bot refused nothing, yet nothing was written).
    lost: int


def latencies(played: Played, commits: Sequence[Commit],
              delivered: dict[str, float]) -> Latencies:
    """Match each measured move to its commit and the messages that commit caused."""
    by_mover: dict[tuple[int, int], list[Commit]] = defaultdict(list)
    for commit in sorted(commits, key=lambda c: c.at):
        for actor in commit.actors:
            by_mover[commit.game, actor].append(commit)
    moments = {mover: [c.at for c in found] for mover, found in by_mover.items()}
    shown: dict[int, list[float]] = defaultdict(list)
    for sent in played.sent:
        if sent.game is not None and sent.kind in MESSAGE_KINDS:
            shown[sent.game].append(sent.at)
    for times in shown.values():
        times.sort()
    answer, to_commit, to_last, to_first = [], [], [], []
    lost = 0
    for click in played.clicks:
        if click.acked is not None:
            answer.append((click.acked - click.created) * 1000)
        if not click.move or click.refused:
            continue
        mover = (click.game, click.user)
        found = bisect.bisect_left(moments.get(mover, []), click.created)
        if found == len(moments.get(mover, [])):
            lost += 1
            continue
        commit = by_mover[mover][found]
        to_commit.append((commit.at - click.created) * 1000)
        ends = [delivered[key] for key in commit.keys if key in delivered]
        if not ends:
            continue
        times = shown[commit.game]
        low = bisect.bisect_left(times, commit.at)
        high = bisect.bisect_right(times, max(ends))
        if high > low:
            to_first.append((times[low] - commit.at) * 1000)
            to_last.append((times[high - 1] - commit.at) * 1000)
    return Latencies(answer, to_commit, to_last, to_first, lost)


@dataclass(frozen=True)
class Budget:
    """The bot's requests over a span against Discord's limits, their windows on a clock
    `scale` times Discord's (1: Discord's)."""

    seconds: float
    by_kind: dict[Kind, int]
    #: Most global-limited requests in any window of the global limit, and most messages in
    #: one channel in any window of the channel limit.
    global_peak: int
    channel_peak: int
    #: Requests answered 429 (rate limited).
    throttled: int
    scale: float = 1.0

    @property
    def global_count(self) -> int:
        return sum(n for kind, n in self.by_kind.items() if kind.global_limited)

    def rate(self, kind: Kind | None = None) -> float:
        """Requests per second of `kind` (None: all the global-limited ones)."""
        count = self.global_count if kind is None else self.by_kind.get(kind, 0)
        return count / max(self.seconds, 1e-9)

    @property
    def within(self) -> bool:
        """No 429, and neither limit passed in any window."""
        return (self.throttled == 0 and self.global_peak <= GLOBAL_LIMIT[0]
                and self.channel_peak <= CHANNEL_LIMIT[0])

    def per_move(self, moves: int) -> dict[Kind, float]:
        """Requests per move, by kind."""
        return {kind: self.by_kind.get(kind, 0) / max(moves, 1) for kind in Kind}

    def describe(self) -> str:
        rates = ", ".join(f"{kind.value} {self.rate(kind):.1f}" for kind in Kind)
        return (f"requests/s: {rates}; global-limited {self.rate():.1f}/s, at most "
                f"{self.global_peak} in {GLOBAL_LIMIT[1] * self.scale:g} s (limit "
                f"{GLOBAL_LIMIT[0]}); at most {self.channel_peak} messages in a channel in "
                f"{CHANNEL_LIMIT[1] * self.scale:g} s (limit {CHANNEL_LIMIT[0]}); "
                f"{self.throttled} answered 429")


def budget(sent: Sequence[Sent], seconds: float, scale: float = 1.0) -> Budget:
    """The requests in `sent` (over `seconds`) against Discord's limits, their windows on a
    clock `scale` times Discord's."""
    by_kind = Counter(s.kind for s in sent)
    creates: dict[int, list[float]] = defaultdict(list)
    for s in sent:
        if s.creates and s.channel is not None:
            creates[s.channel].append(s.at)
    return Budget(
        seconds, dict(by_kind),
        peak((s.at for s in sent if s.kind.global_limited), GLOBAL_LIMIT[1] * scale),
        max((peak(times, CHANNEL_LIMIT[1] * scale) for times in creates.values()),
            default=0),
        sum(s.status == 429 for s in sent), scale)
