"""Fault injection: make chosen REST requests fail the way Discord fails them.

A `Fault` matches requests by method and route (a template such as
`/channels/{channel_id}/messages`, or a concrete path), optionally narrowed by a predicate on
the request, and answers with a canned status, body and headers for its next `times` matches
(or forever). Every answer it gives is counted in `hits`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .models import JSON, Upload


@dataclass(eq=False)
class RecordedRequest:
    """One REST request the fake received, with its parsed body and the status it got."""

    method: str
    path: str
    route: str | None
    params: dict[str, str]
    query: dict[str, str]
    json: Any = None
    files: list[Upload] = field(default_factory=list)
    status: int = 0
    response: Any = None
    fault: Fault | None = None
    #: Refused by the fake's rate limits: "user", "shared" or "global" (a 429), or "ban".
    limited: str | None = None
    at: float = field(default_factory=time.monotonic)
    #: The client's end of the TCP connection it came on ("127.0.0.1:port"): which client
    #: (or process) sent it.
    connection: str | None = None

    @property
    def key(self) -> str:
        return f"{self.method} {self.route or self.path}"

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass(eq=False)
class Fault:
    method: str
    route: str
    status: int
    body: JSON
    headers: dict[str, str] = field(default_factory=dict)
    times: int | None = 1
    when: Callable[[RecordedRequest], bool] | None = None
    hits: int = 0
    label: str = ""
    #: The request takes effect and only its answer is the fault (a lost answer): a create
    #: still makes its message, yet the bot sees the error.
    effective: bool = False

    def matches(self, request: RecordedRequest) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if request.method != self.method:
            return False
        target = request.route if "{" in self.route else request.path
        if target != self.route:
            return False
        return self.when is None or self.when(request)

    @property
    def exhausted(self) -> bool:
        return self.times is not None and self.hits >= self.times

    def body_bytes(self) -> bytes:
        return json.dumps(self.body).encode()

    def __repr__(self) -> str:
        left = "forever" if self.times is None else f"{self.times - self.hits} left"
        return f"<Fault {self.label or self.status} on {self.method} {self.route} ({left})>"


class Faults:
    """The active faults, checked in the order they were added."""

    def __init__(self) -> None:
        self.active: list[Fault] = []

    def add(self, fault: Fault) -> Fault:
        self.active.append(fault)
        return fault

    def remove(self, fault: Fault) -> None:
        if fault in self.active:
            self.active.remove(fault)

    def clear(self) -> None:
        self.active.clear()

    def take(self, request: RecordedRequest) -> Fault | None:
        """The fault that answers this request (and count the hit), or None."""
        for fault in self.active:
            if fault.matches(request):
                fault.hits += 1
                return fault
        return None


def parse_route(spec: str) -> tuple[str, str]:
    """"POST /channels/{channel_id}/messages" -> ("POST", "/channels/{channel_id}/messages")."""
    method, _, route = spec.strip().partition(" ")
    if not route.startswith("/"):
        raise ValueError(f"route spec must look like 'POST /channels/{{channel_id}}/messages', "
                         f"got {spec!r}")
    return method.upper(), route.strip()


def rate_limit_fault(method: str, route: str, *, times: int, retry_after: float,
                     is_global: bool, when: Callable[[RecordedRequest], bool] | None) -> Fault:
    """A 429 exactly as discord.py reads it: JSON body with `retry_after` and `global`, the
    `X-RateLimit-*` headers that say when to come back, and a `Via` header (without one
    discord.py takes the 429 for a Cloudflare ban and raises instead of retrying). The
    route's own limit and bucket hash are added by the rate limiter, as on every answer."""
    reset = time.time() + retry_after
    headers = {
        "Via": "1.1 google",
        "Retry-After": f"{retry_after:.3f}",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{reset:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Scope": "global" if is_global else "user",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {"message": "You are being rate limited.", "retry_after": retry_after,
            "global": is_global, "code": 0}
    return Fault(method, route, 429, body, headers, times, when, label="429")
