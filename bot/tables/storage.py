"""The store of one bot process, opened for a front end that must not hold it (the Discord
client): the table service and the league service over it, the count of the bot token's
requests that the bot's processes share in it, and its closing.

The front end names the database (a SQLite file, one process's; or a PostgreSQL server,
which several processes may share: `is_postgres`) and gets back the services it talks to.
The request count is what `bot.discord.pacing` declares it needs (`SharedCount`); the store's
`db.budgets` is wrapped here to answer so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from bot.league.service import LeagueService
from bot.store import Database, DatabaseUnavailable
from bot.store.backend import is_postgres
from bot.store.budgets import Grant, RequestBudgets
from bot.tables.delivery import Backoff
from bot.tables.notifier import Notifier
from bot.tables.registry import BotFactory
from bot.tables.service import TableService

__all__ = ["SharedBudgets", "Storage", "is_postgres"]


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


class Storage:
    """One process's open store, and the services over it."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @classmethod
    async def open(cls, database: str | Path, *, owner: str) -> Storage:
        """The store at `database` (a SQLite file or a `postgresql://` URL), opened and
        brought up to date; `owner` names the process in its clock and outbox claims."""
        return cls(await Database.open(database, owner=owner))

    def table_service(self, notifier: Notifier, *, now: Callable[[], float],
                      make_bot: BotFactory, new_seed: Callable[[], int], backoff: Backoff,
                      owns: Callable[[int], bool]) -> TableService:
        """The table service over this store, telling the outside through `notifier` (the
        options are `TableService`'s)."""
        return TableService(self._db, notifier, now=now, make_bot=make_bot,
                            new_seed=new_seed, backoff=backoff, owns=owns)

    def league_service(self) -> LeagueService:
        """The league service over this store."""
        return LeagueService(self._db)

    def shared_budgets(self) -> SharedBudgets | None:
        """The request budgets the bot's processes count together in this store; None when
        no other process can share it (a SQLite file)."""
        return SharedBudgets(self._db.budgets) if self._db.shared else None

    async def close(self) -> None:
        """Close the store (its services are closed first)."""
        await self._db.close()
