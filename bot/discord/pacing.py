"""The bot keeps Discord's global rate limit itself, so it is never refused for it.

Discord lets a bot make 50 requests a second in all, whatever the route, except those made
with an interaction's token (callbacks, follow-ups, edits of answers). Nothing announces how
much of it is left: the first a bot hears of it is a 429, and discord.py (2.7) only waits
after one (`HTTPClient.request` holds every request once a 429 says `global`). Each 429 also
counts towards the invalid requests that get a bot banned. So the bot paces itself:
`GlobalLimit.trace` is an aiohttp trace that holds each request, once it has its connection
and just before it is written (after discord.py's own per-route waits), until it fits under
the limit. A game's messages then wait a little in a burst instead of being refused.

**Counting.** Discord counts a request when it arrives, which is some time after it leaves
and before its answer comes back: how long depends on the network and on how busy Discord
(or the fake, which reads a burst one request at a time) is. So a request counts from the
moment it is let out until `per` + `margin` after its answer: whenever it arrived, any `per`
seconds of Discord's that hold it fall inside that span, and so at most `limit` requests
arrive in any `per` seconds, whatever the latency. `margin` covers the rounding of Discord's
headers and the clocks of processes on different machines. A request that never gets an
answer counts until `PENDING_SECONDS` after it left, and a window more. The cost: a request
counts for its latency longer than Discord counts it, so a bot that sends without pause
makes a little under 50 a second.

**Several processes.** The limit is the bot token's, not a process's: a bot whose shards run
in several processes (`bot.discord.shards`) has 50 a second for all of them. Processes that
share a database server count their requests together in it (`Sharing.budgets`, a
`SharedCount`: the client hands in the store's, `bot.tables.storage.SharedBudgets`): each
takes what it needs when it needs it, so one busy process (the one that gets every click
made in a DM, say) may use nearly all of the limit while the others are idle. Requests that
wait at once share one trip to the database, and a process that waits for the others'
requests to stop counting asks again at least every `POLL_SHARE` of a window, since their
answers may have come back since. While the database cannot be reached, each process keeps
to a small part of the limit alone (`OUTAGE_PART`); when the count fails otherwise (the
database closed), the requests waiting for a take fail with its error, as the bot's other
work does. Processes that share no database server keep to a fixed part each, in proportion
to the shards they run (`ShardPlan.share`). A process that runs every shard (the default)
has the whole limit in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import NamedTuple, Protocol

import aiohttp

log = logging.getLogger(__name__)

#: Path parts of the routes Discord leaves out of the global limit (an interaction's token).
EXEMPT = ("/interactions/", "/webhooks/")
#: How long after it left a request not answered yet stops counting (then a window more):
#: a process that stops, or a request lost, holds no part of the limit for ever.
PENDING_SECONDS = 10.0
#: The longest a process waiting for other processes' requests sleeps before asking again,
#: as a share of the window.
POLL_SHARE = 0.1
#: The shortest such sleep, in seconds (a window not known yet is 0 s long).
POLL_FLOOR = 0.01
#: The part of a limit each process keeps to alone while the database the processes count
#: it in is out of reach: enough to answer and tell people, small enough for several
#: processes together to stay under the limit.
OUTAGE_PART = 0.2


def whole(limit: int) -> int:
    """All of a limit: the part of a process that keeps it alone."""
    return limit


class Grant(Protocol):
    """What a take granted: `granted` requests (of those wanted), counted from `at` (the
    count's clock, the time of day), and, when not all were granted, `retry_after` seconds
    until the first request that counts stops counting (0 when all were)."""

    @property
    def granted(self) -> int: ...
    @property
    def at(self) -> float: ...
    @property
    def retry_after(self) -> float: ...


class _OwnGrant(NamedTuple):
    """A `Grant` of this process's own count."""

    granted: int
    at: float
    retry_after: float


class SharedCount(Protocol):
    """Where the bot's processes count the bot token's requests together: the database they
    share (the client hands in the store's, `bot.tables.storage.SharedBudgets`)."""

    async def take(self, budget: str, *, wanted: int, limit: int, held: Sequence[float],
                   lasts: float) -> Grant | None:
        """Grant up to `wanted` more requests of `budget`, keeping it at `limit` requests
        counting at once in all the processes. `held` is when each of this process's
        requests that still count stops counting (replacing what it handed in before); a
        new grant counts for `lasts` seconds, until the next take says more precisely.
        `wanted` may be 0: only to hand in `held`. None while the count can't be reached;
        an error when it fails for good (the database closed)."""
        ...


@dataclass
class Sharing:
    """How this process counts its requests against the bot token's limits, which the
    bot's other processes (if any) spend too: in memory, keeping to `share` of each limit,
    until `budgets` is set (the database the processes share); then against the whole
    limit, with every process's requests."""

    share: Callable[[int], int] = whole
    budgets: SharedCount | None = None


class Counted:
    """A request counted against a limit: let out at `at` (the count's clock, the time of
    day as the store keeps it), by a take asked for at `asked` (the loop's clock, at or
    before `at`), answered at `answered` (the loop's clock) once it is; `lasts`, when
    Discord said it, is how long after the answer it still counts."""

    __slots__ = ("answered", "asked", "at", "lasts")

    def __init__(self, at: float, asked: float) -> None:
        self.at = at
        self.asked = asked
        self.answered: float | None = None
        self.lasts: float | None = None

    def until(self, window: float) -> float:
        """When it stops counting, on the count's clock: `lasts`, or else `window`, after
        its answer (at the latest: the time since the take was asked bounds the time since
        `at`)."""
        if self.answered is None:
            return self.at + PENDING_SECONDS + window
        lasts = window if self.lasts is None else self.lasts
        return self.at + (self.answered - self.asked) + lasts


@dataclass
class GlobalLimit:
    """At most `limit` requests (those that count) in any `per` seconds, as Discord counts
    them, in the order they were asked for: each counts from when it leaves until `per` +
    `margin` after its answer. Discord's values by default; Discord asks bots not to
    hard-code them, hence parameters. `name` is the budget's in the database the processes
    share (`Sharing.budgets`)."""

    limit: int = 50
    per: float = 1.0
    margin: float = 0.1
    name: str = "global"
    sharing: Sharing = field(default_factory=Sharing)
    #: The requests that may still count, in the order they left.
    _counted: list[Counted] = field(default_factory=list, init=False)
    #: Requests waiting for their turn, in the order they asked.
    _waiting: list[asyncio.Future[Counted]] = field(default_factory=list, init=False)
    #: Lets out the waiting requests, while there are any.
    _letting_out: asyncio.Task[None] | None = field(default=None, init=False)
    #: Held by each take, so this process's takes hand in what it holds one at a time.
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, init=False)
    #: Set when a request is answered (one that counted may stop counting sooner).
    _answer: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    #: The hand-in of answers to the database, when one is under way.
    _handing_in: asyncio.Task[None] | None = field(default=None, init=False)
    #: Waiting requests that a take could not let out (they wait for the limit).
    _held_back: set[asyncio.Future[Counted]] = field(default_factory=set, init=False)
    #: Requests that had to wait for the limit, and their longest wait in seconds.
    held: int = field(default=0, init=False)
    longest_wait: float = field(default=0.0, init=False)

    @property
    def window(self) -> float:
        """How long after its answer a request still counts."""
        return self.per + self.margin

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace (discord.py's `http_trace` option) that paces the requests: each
        waits its turn once it has its connection, just before it is written (so it counts
        from when it leaves, however busy the event loop), and counts until a window after
        its answer."""
        config = aiohttp.TraceConfig()
        config.on_request_start.append(self._on_request_start)
        config.on_connection_reuseconn.append(self._on_connection)
        config.on_connection_create_end.append(self._on_connection)
        config.on_request_end.append(self._on_request_done)
        config.on_request_exception.append(self._on_request_done)
        return config

    async def _on_request_start(self, session: aiohttp.ClientSession,
                                context: SimpleNamespace,
                                params: aiohttp.TraceRequestStartParams) -> None:
        context.paced = not any(part in params.url.path for part in EXEMPT)
        context.counted = None

    async def _on_connection(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: object) -> None:
        if getattr(context, "paced", False):
            if context.counted is not None:  # a redirect: the earlier attempt is over
                self.answered(context.counted)
            context.counted = await self.turn()

    async def _on_request_done(self, session: aiohttp.ClientSession,
                               context: SimpleNamespace, params: object) -> None:
        if getattr(context, "counted", None) is not None:
            self.answered(context.counted)

    async def turn(self) -> Counted:
        """Wait until one more request fits under the limit, and count it (give it to
        `answered` once it is answered)."""
        loop = asyncio.get_running_loop()
        asked = loop.time()
        if self.sharing.budgets is None and not self._waiting and self._letting_out is None:
            # Counted here, at once, when it fits: no wait for the event loop's next turn.
            grant = self._take_here(1)
            if grant.granted:
                request = Counted(grant.at, asked)
                self._counted.append(request)
                return request
        ticket: asyncio.Future[Counted] = loop.create_future()
        self._waiting.append(ticket)
        if self._letting_out is None:
            self._letting_out = asyncio.create_task(self._let_out())
        try:
            request = await ticket
        except BaseException:
            if not ticket.done() or ticket.cancelled():
                if ticket in self._waiting:
                    self._waiting.remove(ticket)
                self._answer.set()  # the letting out may have no one left to wait for
            elif ticket.exception() is None:  # let out, but it will never be sent
                self.answered(ticket.result())
            raise
        finally:
            held = ticket in self._held_back
            self._held_back.discard(ticket)
        if held:
            self.held += 1
            self.longest_wait = max(self.longest_wait, loop.time() - asked)
        return request

    def answered(self, request: Counted, lasts: float | None = None) -> None:
        """`request` has its answer (or failed): it counts a window more from now, or
        `lasts` + `margin` when Discord said how long it counts (a bucket's reset).
        Processes that share the count hear of it soon (one hand-in for the answers of a
        burst)."""
        if request.answered is not None:
            return
        request.answered = asyncio.get_running_loop().time()
        if lasts is not None:
            request.lasts = lasts + self.margin
        self._answer.set()
        if (self.sharing.budgets is not None and self._letting_out is None
                and self._handing_in is None):
            self._handing_in = asyncio.create_task(self._hand_in())

    async def _let_out(self) -> None:
        """While requests wait: ask for a turn for every one, let out those that fit, and
        when not all did, wait until more may (an answer, or the time the count gave). A
        count that fails fails the requests waiting."""
        loop = asyncio.get_running_loop()
        try:
            while self._waiting:
                wanted = len(self._waiting)
                asked = loop.time()
                self._answer.clear()
                async with self._lock:
                    grant = await self._take(wanted)
                    # Requests that gave up waiting meanwhile are left out (what the count
                    # gave them stops counting at this process's next take).
                    live = [ticket for ticket in self._waiting if not ticket.done()]
                    for ticket in live[:grant.granted]:
                        request = Counted(grant.at, asked)
                        self._counted.append(request)
                        ticket.set_result(request)
                    self._waiting = live[grant.granted:]
                if grant.granted < wanted:
                    self._held_back.update(self._waiting)
                    wait = grant.retry_after
                    if self.sharing.budgets is not None:
                        wait = min(wait, max(self.per * POLL_SHARE, POLL_FLOOR))
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._answer.wait(), wait)
        except Exception as error:
            for ticket in self._waiting:
                if not ticket.done():
                    ticket.set_exception(error)
            self._waiting = []
        finally:
            self._letting_out = None

    async def _take(self, wanted: int) -> Grant:
        """Up to `wanted` more requests, from the database the processes share or from this
        process's own count; the requests that stopped counting are dropped."""
        budgets = self.sharing.budgets
        if budgets is None:
            return self._take_here(wanted)
        window = self.window
        # In a task of its own: the request may come from a task inside a transaction of
        # its own, and the store's transactions do not nest.
        grant = await asyncio.create_task(budgets.take(
            self.name, wanted=wanted, limit=self.limit,
            held=[request.until(window) for request in self._counted],
            lasts=PENDING_SECONDS + window))
        if grant is None:
            # The shared count is out of reach: each process keeps to a small part of the
            # limit alone until it is back, so the bot still talks to Discord (and tells
            # people the database is away) while together they stay under the limit.
            return self._take_here(wanted, OUTAGE_PART)
        self._counted = [request for request in self._counted
                         if request.until(window) > grant.at]
        return grant

    def _take_here(self, wanted: int, part: float | None = None) -> Grant:
        """`SharedCount.take` for this process alone, keeping to its `share` of the
        limit (or to `part` of it); the requests that stopped counting are dropped. On the
        store's clock (the time of day): what the process counted before its database was
        open (logging in) carries over when the count moves there."""
        now = time.time()
        window = self.window
        self._counted = [request for request in self._counted if request.until(window) > now]
        counting = [request.until(window) for request in self._counted]
        mine = (self.sharing.share(self.limit) if part is None
                else max(1, int(self.limit * part)))
        granted = max(0, min(wanted, mine - len(counting)))
        counting += [now + PENDING_SECONDS + window] * granted
        retry = min(counting) - now if granted < wanted else 0.0
        return _OwnGrant(granted, now, retry)

    async def _hand_in(self) -> None:
        """Tell the database the processes share when this process's answered requests stop
        counting, so the others may have their part of the limit back."""
        try:
            async with self._lock:
                await self._take(0)
        except Exception as error:
            # The count failed for good (the database closed with the bot): what this
            # process holds in it stops counting at its own times anyway.
            log.debug("request budget %s not handed in: %s", self.name, error)
        finally:
            self._handing_in = None
