"""One request at a time per rate-limit bucket, so discord.py's waiting is never wrong.

discord.py 2.7 (`discord.http.Ratelimit`) waits before a request when Discord's headers say a
bucket is spent, and is right when a bucket's requests go one after another. When many
overlap it lets too many out, which Discord answers 429 (each counted against the bot's
invalid-request limit). The fake Discord's rate limits (`tests/discord/fake/ratelimits.py`)
show it: sixteen messages sent at once into one channel, a few times over, and up to ten go
out into a window of five. Requests waiting for a spent bucket each time out at its reset and
each refresh it; a refresh sets what is left to `limit - outgoing`, so one that runs after the
first refresh woke five but before those five counted themselves as outgoing lets five more
out into the same window.

discord.py's own webhook adapter (interaction answers and follow-ups) already sends one
request at a time per webhook. `one_request_per_bucket` does the same for the bot's other
requests, keyed as discord.py keys its buckets (the bucket hash Discord named for the route,
or the route until it has, and the major parameters). discord.py still reads the headers,
waits and retries as before; only a bucket's requests no longer overlap. A game's messages go
out one by one anyway (one sender per game), so what waits is rare: requests from several
games or handlers into one bucket at once, which would have waited for the bucket anyway.

**Several processes.** A bucket whose route names no channel, guild or webhook (opening a
person's DM channel, above all) is the bot token's: every process of a sharded bot spends
the same one, and each process's discord.py only learns what the others spent from the
headers of its own last answer, too late when two open DMs at once. With `sharing` (when
other processes run some of the shards), a process counts its requests of such a bucket as
it counts those of the global limit (`GlobalLimit`, with the bucket's limit once Discord's
headers have named it): together with the other processes' in the database they share, or
within its own part of the limit without one (`bot.discord.pacing`). A bucket's window is
fixed and its answers say when it resets, so a request counts until then (plus a tenth of
the window, for the clocks of processes on different machines).

It cannot deadlock: a request holds one bucket's lock while discord.py sends it and takes no
other. It does not block the event loop: the lock is an `asyncio.Lock`, and a request that
fails or is cancelled releases it. The cost: while discord.py retries a request after a
server error (up to 16 s of pauses), the other requests of its bucket wait for it.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from discord.http import HTTPClient, Route

from bot.discord.pacing import Counted, GlobalLimit, Sharing

#: How long after its window resets a request of a shared bucket still counts, as a share
#: of the window (the global limit's margin: the clocks of processes on different machines).
SHARED_MARGIN = 0.1


def one_request_per_bucket(http: HTTPClient, sharing: Sharing | None = None) -> None:
    """Make `http` send its requests of one bucket one at a time, and, with `sharing`, keep
    each bucket the bot token shares with the bot's other processes as `sharing` says."""
    locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
    parts: dict[str, GlobalLimit] = {}
    send = http.request

    def key_of(route: Route) -> str:
        """discord.py's own key for the route's bucket (`HTTPClient.request`)."""
        bucket = http._bucket_hashes.get(route.key, route.key)
        return f"{bucket}:{route.major_parameters}"

    def learn(route: Route, part: GlobalLimit, counted: Counted) -> None:
        """The token's bucket as Discord last said it is, and how long the request counts:
        until the window it counted in resets, as the answer said (at once, when
        discord.py waited for that reset before returning)."""
        loop = asyncio.get_running_loop()
        key = key_of(route)  # discord.py may have just learnt the bucket's hash:
        learnt = parts.setdefault(key, part)  # the count carries over
        bucket = http._buckets.get(key)
        if bucket is None or not bucket.dirty or bucket.expires is None:
            part.answered(counted, 0.0)  # no rate-limit headers, or the window is over
            return
        learnt.limit = bucket.limit
        learnt.per = max(learnt.per, bucket.reset_after)  # a window's length, or nearly
        learnt.margin = learnt.per * SHARED_MARGIN
        part.answered(counted, max(0.0, bucket.expires - loop.time()))

    async def request(route: Route, **options: Any) -> Any:
        key = key_of(route)
        lock = locks.get(key)
        if lock is None:
            lock = locks[key] = asyncio.Lock()
        async with lock:
            if sharing is None or route.major_parameters:
                return await send(route, **options)
            # Keyed afresh: the bucket's hash may have been learnt while this one waited.
            # Until Discord has named the bucket's limit, one request of it counts at a
            # time in all the processes. Named by the route's own key, which every process
            # gives it before Discord names the bucket: they all count in one budget.
            key = key_of(route)
            part = parts.get(key)
            if part is None:
                part = parts[key] = GlobalLimit(limit=1, per=0.0, margin=0.0,
                                                name=f"bucket {key}", sharing=sharing)
            counted = await part.turn()
            try:
                return await send(route, **options)
            finally:
                learn(route, part, counted)

    http.request = request  # type: ignore[method-assign]
