"""Who a request of the bot's would ping, by Discord's rules for `allowed_mentions`.

Discord pings the users, roles and @everyone/@here written in a message's content unless the
request's `allowed_mentions` says otherwise: `parse` lists the kinds that may ping, and
`users` / `roles` list the ids that may ping on their own. Embeds never ping. Interaction
callbacks carry the message under `data`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .faults import RecordedRequest

_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(?:everyone|here)\b")
ALL_KINDS = frozenset({"users", "roles", "everyone"})


@dataclass(frozen=True)
class Pings:
    """What one message pinged."""

    users: frozenset[int]
    roles: frozenset[int]
    everyone: bool

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone)


def pings(request: RecordedRequest) -> Pings:
    """What the message this request sends (or edits in) would ping; nothing for a request
    without message content."""
    body = request.json if isinstance(request.json, dict) else {}
    if request.path.endswith("/callback"):
        body = body.get("data") or {}
    content = body.get("content")
    if not isinstance(content, str):
        return Pings(frozenset(), frozenset(), False)
    allowed = body.get("allowed_mentions")
    if isinstance(allowed, dict):
        parse = set(allowed.get("parse") or ())
        named_users = {int(i) for i in allowed.get("users") or ()}
        named_roles = {int(i) for i in allowed.get("roles") or ()}
    else:
        parse, named_users, named_roles = set(ALL_KINDS), set(), set()
    users = {int(i) for i in _USER.findall(content)}
    roles = {int(i) for i in _ROLE.findall(content)}
    return Pings(frozenset(users if "users" in parse else users & named_users),
                 frozenset(roles if "roles" in parse else roles & named_roles),
                 "everyone" in parse and bool(_EVERYONE.search(content)))


def pinged(requests: Iterable[RecordedRequest]) -> list[tuple[RecordedRequest, Pings]]:
    """The requests among these whose message pings someone, with whom."""
    return [(request, who) for request in requests if (who := pings(request))]
