"""The bot keeps Discord's global rate limit itself, so it is never refused for it.

Discord lets a bot make 50 requests a second in all, whatever the route, except those made
with an interaction's token (callbacks, follow-ups, edits of answers). Nothing announces how
much of it is left: the first a bot hears of it is a 429, and discord.py (2.7) only waits
after one (`HTTPClient.request` holds every request once a 429 says `global`). Each 429 also
counts towards the invalid requests that get a bot banned. So the bot paces itself:
`GlobalLimit.trace` is an aiohttp trace that holds each request, once it has its connection
and just before it is written (after discord.py's own per-route waits), until it fits under
the limit. A game's messages then wait a little in a burst instead of being refused.

The bot's window is kept `margin` longer than Discord's: requests reach Discord a little after
they leave, some later than others, and Discord's count is of arrivals.

**Several processes.** The limit is the bot token's, not a process's: a bot whose shards run
in several processes (`bot.discord.shards`) has 50 a second for all of them. Each process
keeps to its part, in proportion to the shards it runs (`ShardPlan.share`, `GlobalLimit.part`:
half the shards, 25 a second), so the parts add up to at most the whole and no process needs
to ask another before a request. Why not one shared counter (in PostgreSQL, or a broker)?
Every request would wait for a round trip to it, and a process that lost it could no longer
send, while the limit is rarely approached: a game's moves cost a few requests each, and
servers (and so games) spread over the shards. The cost of fixed parts: a process cannot
borrow what another leaves unused, so a burst in one process's servers waits sooner than it
would in one process. A process that runs every shard (the default) has the whole limit.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace

import aiohttp

#: Path parts of the routes Discord leaves out of the global limit (an interaction's token).
EXEMPT = ("/interactions/", "/webhooks/")


@dataclass
class GlobalLimit:
    """At most `limit` requests (those that count) in any `per` + `margin` seconds, in the
    order they were asked for. Discord's values by default; Discord asks bots not to hard-code
    them, hence parameters."""

    limit: int = 50
    per: float = 1.0
    margin: float = 0.1
    #: When the requests in the current window left (loop time), oldest first.
    _sent: collections.deque[float] = field(default_factory=collections.deque, init=False)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, init=False)
    #: Requests that had to wait for the limit, and their longest wait in seconds.
    held: int = field(default=0, init=False)
    longest_wait: float = field(default=0.0, init=False)

    @classmethod
    def part(cls, share: Callable[[int], int]) -> GlobalLimit:
        """Discord's limit cut to this process's part of it (`share` of the whole)."""
        return cls(limit=share(cls.limit))

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace (discord.py's `http_trace` option) that paces the requests: each
        waits its turn once it has its connection, just before it is written (so the time
        it is counted at is the time it leaves, however busy the event loop)."""
        config = aiohttp.TraceConfig()
        config.on_request_start.append(self._on_request_start)
        config.on_connection_reuseconn.append(self._on_connection)
        config.on_connection_create_end.append(self._on_connection)
        return config

    async def _on_request_start(self, session: aiohttp.ClientSession,
                                context: SimpleNamespace,
                                params: aiohttp.TraceRequestStartParams) -> None:
        context.paced = not any(part in params.url.path for part in EXEMPT)

    async def _on_connection(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: object) -> None:
        if getattr(context, "paced", False):
            await self.turn()

    async def turn(self) -> None:
        """Wait until one more request fits under the limit, and count it."""
        loop = asyncio.get_running_loop()
        window = self.per + self.margin
        asked = loop.time()
        # The lock is only ever held across a wait for the limit: finding it taken means
        # waiting behind a request that waits its turn.
        held = self._lock.locked()
        async with self._lock:
            now = loop.time()
            while True:
                while self._sent and self._sent[0] <= now - window:
                    self._sent.popleft()
                if len(self._sent) < self.limit:
                    break
                held = True
                await asyncio.sleep(self._sent[0] + window - now)
                now = loop.time()
            self._sent.append(now)
        if held:
            self.held += 1
            self.longest_wait = max(self.longest_wait, now - asked)
