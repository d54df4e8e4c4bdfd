"""The bot sends its requests of one rate-limit bucket one at a time (`bot.discord.buckets`),
keyed as discord.py keys its buckets, and a request that fails or is cancelled lets the next
one go. (That this keeps the bot from being refused: `test_fake_ratelimits.py`.)"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from discord.http import HTTPClient, Route

from bot.discord.buckets import one_request_per_bucket

REACTION = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"


class StandIn:
    """discord.py's request, standing in: counts how many of a bucket (by discord.py's key)
    are out at once, sets `out` once `expected` are out, and answers once `release` is
    set."""

    def __init__(self, http: HTTPClient, expected: int) -> None:
        self.http = http
        self.expected = expected
        self.in_flight: Counter[str] = Counter()
        self.most: Counter[str] = Counter()
        self.most_in_all = 0
        self.out = asyncio.Event()
        self.release = asyncio.Event()

    async def send(self, route: Route, **options: Any) -> str:
        bucket = self.http._bucket_hashes.get(route.key, route.key)
        key = f"{bucket}:{route.major_parameters}"
        self.in_flight[key] += 1
        self.most[key] = max(self.most[key], self.in_flight[key])
        self.most_in_all = max(self.most_in_all, self.in_flight.total())
        if self.in_flight.total() >= self.expected:
            self.out.set()
        try:
            await self.release.wait()
            if options.get("fail"):
                raise RuntimeError("refused")
            return key
        finally:
            self.in_flight[key] -= 1


def serialised(http: HTTPClient, expected: int) -> StandIn:
    stand_in = StandIn(http, expected)
    http.request = stand_in.send  # type: ignore[method-assign]
    one_request_per_bucket(http)
    return stand_in


def post(channel_id: int) -> Route:
    return Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)


def react(method: str, channel_id: int) -> Route:
    return Route(method, REACTION, channel_id=channel_id, message_id=1, emoji="x")


async def test_requests_of_one_bucket_never_overlap_and_others_do() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    # Discord named one bucket for adding and removing a reaction: discord.py keys both by it.
    http._bucket_hashes[f"PUT {REACTION}"] = http._bucket_hashes[f"DELETE {REACTION}"] = "r"
    stand_in = serialised(http, expected=4)  # one per bucket
    requests = asyncio.gather(
        *(http.request(post(channel)) for channel in (1, 1, 1, 2, 2)),
        *(http.request(Route("POST", "/users/@me/channels")) for _ in "ab"),
        http.request(react("PUT", 1)), http.request(react("DELETE", 1)))
    await asyncio.wait_for(stand_in.out.wait(), timeout=5)
    stand_in.release.set()
    await requests

    assert stand_in.most == {"POST /channels/{channel_id}/messages:1": 1,
                             "POST /channels/{channel_id}/messages:2": 1,
                             "POST /users/@me/channels:": 1, "r:1": 1}
    assert stand_in.most_in_all == 4  # the four buckets side by side


async def test_a_request_that_fails_or_is_cancelled_lets_the_next_one_go() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    stand_in = serialised(http, expected=1)
    failing = asyncio.ensure_future(http.request(post(1), fail=True))
    cancelled = asyncio.ensure_future(http.request(post(1)))  # waits for the failing one
    last = asyncio.ensure_future(http.request(post(1)))
    await asyncio.wait_for(stand_in.out.wait(), timeout=5)
    assert stand_in.in_flight.total() == 1  # the failing one; the others queue up
    cancelled.cancel()
    stand_in.release.set()

    with pytest.raises(RuntimeError):
        await failing
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert await asyncio.wait_for(last, timeout=5) == "POST /channels/{channel_id}/messages:1"
