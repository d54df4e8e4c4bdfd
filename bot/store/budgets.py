"""Request budgets that the bot's processes share (`request_budgets`): Discord's rate limits of
the bot token, counted across every process that sends with it.

A budget allows `limit` requests counting at once. Each process keeps the list of its own
requests that still count, each as the time it stops counting (on the store's clock,
`Database.now`), and hands that list in with every `take`: the process knows when its
requests were answered, so it is the one to say until when each counts (`bot.discord.pacing`
decides how long). `take` counts every process's requests that still count, grants as many
of those wanted as fit under the limit, and keeps the asking process's list with the new
grants added. So a busy process may take nearly the whole limit while the others are idle,
and the processes together never exceed it.

One row per budget holds every process's list as JSON ({owner: [until, ...]}). The upsert
that reads it holds the row (PostgreSQL) or the file (SQLite) until the transaction ends, so
two processes never grant from the same count. A process that stops leaves its list behind;
its entries lapse at their own times.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.rows import Part, check_name


@dataclass(frozen=True)
class Grant:
    """What `take` granted: `granted` requests (of those wanted), counted from `at` (the
    store's clock), and, when not all were granted, `retry_after` seconds until the first
    request that counts stops counting (0 when all were)."""

    granted: int
    at: float
    retry_after: float


class RequestBudgets(Part):
    """`db.budgets`: budgets of requests shared by the processes of one database."""

    async def take(self, budget: str, *, wanted: int, limit: int, held: Sequence[float],
                   lasts: float) -> Grant:
        """Grant up to `wanted` requests of `budget`, keeping it at `limit` requests counting
        at once in all processes. `held` is this process's own requests that still count
        (when each stops counting, on the store's clock), which replace what it kept before;
        each new grant counts for `lasts` seconds from now, until the process says more
        precisely (its next `take`). `wanted` may be 0: only to hand in `held`."""
        check_name(budget, "budget name")
        if wanted < 0 or limit < 1 or lasts < 0:
            raise ValueError(f"take needs wanted >= 0, limit >= 1 and lasts >= 0; got "
                             f"{wanted}, {limit} and {lasts}")
        owner = self._db.owner
        async with self._db.transaction() as tx:
            now = self._db.now()
            row = await tx.fetchone(
                "INSERT INTO request_budgets (budget, grants) VALUES (?, '{}') "
                "ON CONFLICT (budget) DO UPDATE SET grants = request_budgets.grants "
                "RETURNING grants", (budget,))
            assert row is not None  # an upsert with RETURNING always returns its row
            kept: dict[str, list[float]] = json.loads(row["grants"])
            counting = {name: [until for until in times if until > now]
                        for name, times in kept.items() if name != owner}
            mine = [until for until in held if until > now]
            others = sum(len(times) for times in counting.values())
            granted = max(0, min(wanted, limit - others - len(mine)))
            mine += [now + lasts] * granted
            counting[owner] = mine
            retry = 0.0
            if granted < wanted:
                retry = min(until for times in counting.values() for until in times) - now
            await tx.execute("UPDATE request_budgets SET grants = ? WHERE budget = ?",
                             (json.dumps({k: v for k, v in counting.items() if v}), budget))
        return Grant(granted, now, retry)
