"""The store of one bot process, as a front end that must not hold it uses it (the Discord
client).

The count of the bot token's requests that the bot's processes share in the store is what
`bot.discord.pacing` declares it needs (`SharedCount`); the store's `db.budgets` is wrapped
here to answer so.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store import DatabaseUnavailable
from bot.store.budgets import Grant, RequestBudgets


class SharedBudgets:
    """The bot token's request budgets counted in the database the processes share
    (`bot.store.budgets`), as the pacing takes from them: a take answers None while the
    database is out of reach (each process keeps to a small part of a limit alone
    meanwhile), and fails with the store's error otherwise."""

    def __init__(self, budgets: RequestBudgets) -> None:
        self._budgets = budgets

    async def take(self, budget: str, *, wanted: int, limit: int, held: Sequence[float],
                   lasts: float) -> Grant | None:
        """`RequestBudgets.take`, or None when the database can't be reached."""
        try:
            return await self._budgets.take(budget, wanted=wanted, limit=limit, held=held,
                                            lasts=lasts)
        except DatabaseUnavailable:
            return None
