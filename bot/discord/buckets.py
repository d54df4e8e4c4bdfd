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


def one_request_per_bucket(http: HTTPClient) -> None:
    """Make `http` send its requests of one bucket one at a time."""
    locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
    send = http.request

    async def request(route: Route, **options: Any) -> Any:
        # discord.py's own key for the bucket (`HTTPClient.request`).
        bucket = http._bucket_hashes.get(route.key, route.key)
        key = f"{bucket}:{route.major_parameters}"
        lock = locks.get(key)
        if lock is None:
            lock = locks[key] = asyncio.Lock()
        async with lock:
            return await send(route, **options)

    http.request = request  # type: ignore[method-assign]
