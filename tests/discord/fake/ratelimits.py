"""Discord's rate limits in the fake: per-route buckets, the global limit, invalid requests.

What Discord does (developer docs, "Rate Limits"), and so what the fake does:

* **Buckets.** Each route has a limit per top-level resource, its "major parameter": the
  channel, the guild, or the webhook (or interaction) with its token. Routes may share a
  limit; every answer names its limit with an opaque hash. Every answer carries
  `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds), `-Reset-After` (seconds) and
  `-Bucket`. A request over the limit is answered 429 with `X-RateLimit-Scope` (`user`, or
  `shared` for a limit the resource shares with everyone), `Retry-After` and the body
  `{"message", "retry_after", "global"}`. A window starts with the first request after the
  last one ended, and lasts its bucket's `per` seconds.
* **The global limit.** 50 requests a second per bot, whatever the route; interaction
  endpoints are exempt. Those are the callback and the requests on the interaction's webhook
  (follow-ups, edits of the original): Discord documents them as interaction endpoints,
  authorised by the token in the path (the OpenAPI document asks no bot token of them, and
  discord.py sends none), while the global limit is the bot token's. Nothing announces the
  global limit: the first the bot hears of it is a 429 with `global: true`, scope `global`
  and `X-RateLimit-Global`. The fake counts it over a sliding second (the strictest reading:
  never more than 50 in any second).
* **Invalid requests.** Answers 401, 403 and 429 (except 429s of scope `shared`) count;
  10,000 within 10 minutes and Cloudflare bans the bot for a while: the fake then answers
  every API request 429 without a `Via` header and with a non-JSON body, which discord.py
  takes for a ban and raises instead of retrying.

discord.py 2.7 reads these: `HTTPClient.request` keys a `Ratelimit` by the route's bucket hash
(the route itself until the first answer names it) and major parameters; it lets one request
out of an unknown bucket at a time, then as many as `X-RateLimit-Remaining` allows, and sleeps
`X-RateLimit-Reset-After` once that reaches 0, before the request that spent it returns. On a
429 it reads `retry_after` and `global` from the body (a `Via` header must be present) and
retries; a global 429 holds every request until it has slept. Interaction and follow-up
requests go through the webhook adapter instead, one at a time per token, sleeping
`Reset-After` once `Remaining` is 0. So a bot using discord.py is never refused by a bucket it
has heard from, and the global limit is the bot's own to keep.

Discord asks bots not to hard-code these numbers, so they are parameters (`RateLimits`), with
the usual values as defaults. `time_scale` shrinks every window by the same factor, keeping
the rules while tests play at machine speed: at 0.05, a channel takes 5 messages per 0.25 s
and a 429 asks for a twentieth of Discord's wait. The windows are kept on the fake's clock
(`clock.Clock`): they end with real time, and a test that `advance`s the clock past them
finds them over, as a bot finds its buckets full after a day.
"""

from __future__ import annotations

import collections
import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from aiohttp import web

from .faults import RecordedRequest

Scope = Literal["user", "shared"]

#: Sending messages in a channel, the busiest route of a game.
CHANNEL_MESSAGES = "POST /channels/{channel_id}/messages"
#: Statuses Discord counts as invalid requests (429s only when not of scope "shared").
INVALID_STATUSES = frozenset({401, 403, 429})
#: What Cloudflare answers a banned bot: not JSON, and no `Via` header.
BAN_BODY = "error code: 1015"
#: Bucket states kept before the expired ones are dropped (one per channel, per token...).
PRUNE_AT = 4096


@dataclass(frozen=True)
class Bucket:
    """At most `limit` requests per `per` seconds. Routes whose bucket has the same `name`
    share one limit (and one hash); a `shared` scope is a limit the resource has for everyone,
    whose 429s do not count as invalid requests."""

    limit: int
    per: float
    name: str = ""
    scope: Scope = "user"


#: Buckets Discord is commonly seen to give the routes the fake serves (the rest: `default`).
DISCORD_BUCKETS: Mapping[str, Bucket] = {
    CHANNEL_MESSAGES: Bucket(5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": Bucket(5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": Bucket(5, 1.0),
    "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me":
        Bucket(1, 0.25, "reactions"),
    "DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me":
        Bucket(1, 0.25, "reactions"),
    "POST /webhooks/{application_id}/{token}": Bucket(5, 2.0),
}


@dataclass(frozen=True)
class RateLimits:
    """The fake's rate limits: `FakeDiscord(limits=RateLimits(...))`.

    `buckets` maps "METHOD /route/{template}" to its `Bucket` (routes not named get
    `default`); `global_limit` is the bot's requests in all (interaction-token requests
    exempt); `invalid` the invalid requests that get the bot banned. `time_scale` multiplies
    every window (and so every reset and retry): 1.0 is Discord's clock."""

    buckets: Mapping[str, Bucket] = field(default_factory=lambda: dict(DISCORD_BUCKETS))
    default: Bucket = Bucket(5, 1.0)
    global_limit: Bucket = Bucket(50, 1.0)
    invalid: Bucket = Bucket(10_000, 600.0)
    time_scale: float = 1.0

    def bucket(self, route: str) -> Bucket:
        """The bucket of a route key ("POST /channels/{channel_id}/messages")."""
        return self.buckets.get(route, self.default)


def bucket_hash(name: str) -> str:
    """The opaque hash Discord names a bucket with (the same for routes that share it)."""
    return hashlib.md5(name.encode()).hexdigest()


def major_parameter(params: Mapping[str, str]) -> str:
    """The top-level resource a route's limit is kept per: its channel, its guild, or its
    webhook (an application's or an interaction's id) with the token."""
    if "token" in params:
        owner = params.get("interaction_id") or params.get("application_id") or ""
        return f"{owner}+{params['token']}"
    return params.get("channel_id") or params.get("guild_id") or ""


def uses_interaction_token(request: RecordedRequest) -> bool:
    """Interaction callbacks, follow-ups and edits of the original: exempt from the global
    limit."""
    return "token" in request.params and request.path.startswith(("/interactions/",
                                                                   "/webhooks/"))


def _seconds(value: float) -> str:
    """Seconds as Discord writes them (milliseconds), rounded up: a client that waits what it
    is told never comes back early."""
    return f"{math.ceil(value * 1000) / 1000:.3f}"


@dataclass
class _Window:
    """A bucket's current window for one major parameter."""

    count: int
    resets_at: float


class RateLimiter:
    """Applies `RateLimits` to the fake's REST requests (its `middleware` calls `admit` before
    a request runs and `answered` on its answer), and keeps what it refused and the invalid
    requests. Runs on the fake's loop, under its lock."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float]) -> None:
        self.limits = limits
        #: The fake's clock (`clock.Clock.now`): real time, plus what tests `advance`.
        self._clock = clock
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global: collections.deque[float] = collections.deque()
        #: Requests admitted and not answered yet: id -> their window, and when they counted
        #: against the global limit (None: exempt).
        self._admitted: dict[int, tuple[_Window, float | None]] = {}
        self._recent_invalid: collections.deque[float] = collections.deque()
        #: Requests the limits refused (429s of scope user, shared or global, and bans).
        self.refused: list[RecordedRequest] = []
        #: Requests answered 401, 403 or 429 (not of scope shared), injected faults included,
        #: each with when it was answered on the fake's clock.
        self.invalid: list[tuple[float, RecordedRequest]] = []

    def _per(self, bucket: Bucket) -> float:
        return bucket.per * self.limits.time_scale

    def _key(self, request: RecordedRequest) -> tuple[Bucket, tuple[str, str]]:
        bucket = self.limits.bucket(request.key)
        return bucket, (bucket.name or request.key, major_parameter(request.params))

    def _window(self, key: tuple[str, str], now: float) -> _Window | None:
        window = self._windows.get(key)
        if window is not None and now >= window.resets_at:
            del self._windows[key]
            return None
        return window

    @staticmethod
    def _expire(times: collections.deque[float], since: float) -> None:
        while times and times[0] <= since:
            times.popleft()

    # -- before a request runs ----------------------------------------------------------

    def admit(self, request: RecordedRequest) -> web.Response | None:
        """Count the request against its limits, or return the 429 that refuses it (a
        refused request does not count against any limit). Sets `request.limited`."""
        now = self._clock()
        invalid = self.limits.invalid
        self._expire(self._recent_invalid, now - self._per(invalid))
        if len(self._recent_invalid) >= invalid.limit:
            request.limited = "ban"
            request.response = BAN_BODY
            self.refused.append(request)
            return web.Response(status=429, text=BAN_BODY)
        counts_globally = not uses_interaction_token(request)
        if counts_globally:
            limit = self.limits.global_limit
            per = self._per(limit)
            self._expire(self._global, now - per)
            if len(self._global) >= limit.limit:
                return self._refuse(request, "global", self._global[0] + per - now)
        bucket, key = self._key(request)
        window = self._window(key, now)
        if window is None:
            if len(self._windows) >= PRUNE_AT:
                self._prune(now)
            window = self._windows[key] = _Window(0, now + self._per(bucket))
        if window.count >= bucket.limit:
            return self._refuse(request, bucket.scope, window.resets_at - now)
        window.count += 1
        if counts_globally:
            self._global.append(now)
        self._admitted[id(request)] = (window, now if counts_globally else None)
        return None

    def _refuse(self, request: RecordedRequest, scope: str, retry_after: float
                ) -> web.Response:
        """Discord's 429 (the bucket's other headers are added to it, as to every answer;
        when the bucket refused, its reset is the retry)."""
        wait = _seconds(retry_after)
        body = {"message": "You are being rate limited.", "retry_after": float(wait),
                "global": scope == "global"}
        headers = {"Retry-After": wait, "X-RateLimit-Scope": scope}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        else:
            headers["X-RateLimit-Reset-After"] = wait
            headers["X-RateLimit-Reset"] = _seconds(time.time() + retry_after)
        request.limited = scope
        request.response = body
        self.refused.append(request)
        return web.Response(status=429, body=json.dumps(body).encode(),
                            headers={"Content-Type": "application/json", **headers})

    def _refund(self, window: _Window, counted_at: float | None) -> None:
        window.count -= 1
        if counted_at is not None and counted_at in self._global:
            self._global.remove(counted_at)

    def _prune(self, now: float) -> None:
        for key in [k for k, w in self._windows.items() if now >= w.resets_at]:
            del self._windows[key]

    # -- on its answer ------------------------------------------------------------------

    def answered(self, request: RecordedRequest, response: web.StreamResponse) -> None:
        """Put the bucket's headers on the answer (those it has are kept: an injected fault's
        `Retry-After`...), unless Cloudflare answered for Discord (a ban); count the answer if
        it is invalid. A 429 the limits did not give (an injected one) gives back what the
        request counted, as a refused request counts against no limit."""
        now = self._clock()
        admitted = self._admitted.pop(id(request), None)
        if admitted is not None and response.status == 429:
            self._refund(*admitted)  # an injected 429: refused, so it does not count
        if request.limited == "ban":
            return
        headers = response.headers
        for name, value in self.headers(request, now).items():
            headers.setdefault(name, value)
        shared = response.status == 429 and headers.get("X-RateLimit-Scope") == "shared"
        if response.status in INVALID_STATUSES and not shared:
            self.invalid.append((now, request))
            self._recent_invalid.append(now)

    def headers(self, request: RecordedRequest, now: float | None = None) -> dict[str, str]:
        """Discord's headers for the request's bucket as it stands (and the `Via` every
        Discord answer has, without which discord.py takes a 429 for a Cloudflare ban)."""
        now = self._clock() if now is None else now
        bucket, key = self._key(request)
        window = self._window(key, now)
        used, reset_after = ((0, self._per(bucket)) if window is None
                             else (window.count, window.resets_at - now))
        return {
            "Via": "1.1 google",
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - used)),
            "X-RateLimit-Reset": _seconds(time.time() + reset_after),
            "X-RateLimit-Reset-After": _seconds(reset_after),
            "X-RateLimit-Bucket": bucket_hash(key[0]),
        }


def worst_invalid_window(times: Iterable[float], window: float) -> int:
    """The most invalid requests (by time) that fall within any `window` seconds."""
    ordered = sorted(times)
    worst = start = 0
    for end, at in enumerate(ordered):
        while ordered[start] <= at - window:
            start += 1
        worst = max(worst, end - start + 1)
    return worst


def ban_risk(invalid: Sequence[tuple[float, RecordedRequest]], limits: RateLimits,
             games: int) -> str | None:
    """What is wrong if the invalid requests of one test (`RateLimiter.invalid`: when, on the
    fake's clock, and what), which plays one game (or scene), would get a bot that runs
    `games` such games at once banned: more than the game's share
    (`limits.invalid.limit / games`) within any window of `limits.invalid.per` (scaled)."""
    share = limits.invalid.limit / games
    window = limits.invalid.per * limits.time_scale
    worst = worst_invalid_window((at for at, _ in invalid), window)
    if worst <= share:
        return None
    shown = "\n  ".join(f"{r.method} {r.path} -> {r.status}" for _, r in invalid[:20])
    return (f"{worst} invalid requests (401, 403, 429) within {window:g} s, over a game's "
            f"share of Discord's ban limit ({limits.invalid.limit} per {limits.invalid.per:g} "
            f"s shared by {games} games: {share:g}); the first:\n  {shown}")


def describe(requests: Iterable[RecordedRequest]) -> str:
    """One line per request, for failure messages."""
    return "\n  ".join(f"{r.method} {r.path} -> {r.status} {r.response}" for r in requests)

