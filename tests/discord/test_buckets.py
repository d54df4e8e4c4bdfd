"""The bot sends its requests of one rate-limit bucket one at a time (`bot.discord.buckets`)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from discord.http import HTTPClient, Route

from bot.discord.buckets import one_request_per_bucket


async def test_requests_of_one_bucket_never_overlap_and_others_do() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    in_flight: Counter[str] = Counter()
    most: Counter[str] = Counter()

    async def send(route: Route, **options: Any) -> None:
        """discord.py's request, standing in: records how many of a bucket are out at once."""
        in_flight[route.url] += 1
        most[route.url] = max(most[route.url], in_flight[route.url])
        most["all"] = max(most["all"], in_flight.total())
        await asyncio.sleep(0.01)
        in_flight[route.url] -= 1

    http.request = send  # type: ignore[method-assign]
    one_request_per_bucket(http)

    def post(channel_id: int) -> Route:
        return Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)

    await asyncio.gather(*(http.request(post(channel)) for channel in (1, 1, 1, 2, 2)),
                         *(http.request(Route("POST", "/users/@me/channels")) for _ in "ab"))
    buckets = {url: n for url, n in most.items() if url != "all"}
    assert len(buckets) == 3 and set(buckets.values()) == {1}  # one at a time in each
    assert most["all"] == 3  # the three buckets side by side
