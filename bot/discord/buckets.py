"""One request at a time per rate-limit bucket, so discord.py's waiting is never wrong.

discord.py 2.7 (`discord.http.Ratelimit`) waits before a request when Discord's headers say a
bucket is spent, and is right when a bucket's requests go one after another. When they
overlap it can let one too many out, which Discord answers 429 (and counts against the bot's
invalid-request limit). Found by the fake Discord's rate limits (`tests/discord/fake`), in
two ways:

* On each answer it believes `min(X-RateLimit-Remaining, limit - outgoing)` requests are left
  (the first answer after a reset: `Remaining` as it is). `Remaining` may not count the
  other requests still on their way, and `limit - outgoing` forgets those made earlier in the
  window: with ten tables opening DMs at once (one bucket for the whole bot), a sixth request
  went out into a window of five.
* Requests waiting for a spent bucket each refresh it when their wait times out; the first
  refresh sleeps until the reset and resets, the next ones find nothing left to sleep
  (`reset_after` is 0 after a reset) and reset again, letting more out into the new window.

Its own webhook adapter (interaction answers and follow-ups) already sends one request at a
time per webhook. `one_request_per_bucket` does the same for the bot's other requests, keyed
as discord.py keys its buckets (the route and its major parameters): it still reads the
headers and waits as before; only its requests of one bucket no longer overlap. A game's
messages go out one by one anyway (a sender per game), so what waits is rare: requests from
several games or handlers into one bucket at once.
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
        key = f"{route.key}:{route.major_parameters}"
        lock = locks.get(key)
        if lock is None:
            lock = locks[key] = asyncio.Lock()
        async with lock:
            return await send(route, **options)

    http.request = request  # type: ignore[method-assign]
