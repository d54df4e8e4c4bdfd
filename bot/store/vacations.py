"""Vacations (migration 0009): a player away from a league season's games for a while.

A vacation starts with the moment its budget runs out (`until`, the caller's arithmetic) and
ends then, or earlier when the player ends it (`ended_at`). The store keeps at most one
vacation under way per player and season (a second start is `OnVacation`); how many days a
vacation costs, and whether the budget allows one, is the table layer's to decide
(`bot.tables.vacation`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.errors import StoreRefusal
from bot.store.rows import Part, check_int, opt_float
from bot.store.tx import Row, Tx

_COLUMNS = "id, season_id, user_id, started_at, until, ended_at"


@dataclass(frozen=True)
class Vacation:
    """One vacation: whose, in which season, from when, until when at the latest, and when
    it was ended by command (None: not, so it ends at `until`)."""

    id: int
    season_id: int
    user_id: int
    started_at: float
    until: float
    ended_at: float | None

    def end(self) -> float:
        """When it ends (or ended): by command, or when its budget runs out."""
        return self.until if self.ended_at is None else self.ended_at

    def under_way(self, now: float) -> bool:
        """Whether the player is away at `now`."""
        return self.started_at <= now < self.end()


class OnVacation(StoreRefusal):
    """A vacation is already under way for this player and season."""

    code = "on_vacation"

    def __init__(self) -> None:
        super().__init__("You're already on vacation in this season.")


class Vacations(Part):
    """`db.vacations`: players' vacations from league seasons."""

    async def start(self, season_id: int, user_id: int, *, at: float,
                    until: float) -> Vacation:
        """Start a vacation at `at` (the table service's clock), ending at `until` at the
        latest. A vacation whose `until` has passed is closed first (at its `until`); one
        still under way is `OnVacation`."""
        now = float(at)
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE vacations SET ended_at = until WHERE season_id = ? AND user_id = ? "
                "AND ended_at IS NULL AND until <= ?",
                (check_int(season_id, "season_id"), check_int(user_id, "user_id"), now))
            # Asked first, not caught from the unique index: a failed statement ends a
            # PostgreSQL transaction.
            if await tx.fetchone(
                    "SELECT 1 FROM vacations WHERE season_id = ? AND user_id = ? "
                    "AND ended_at IS NULL", (season_id, user_id)) is not None:
                raise OnVacation()
            vacation_id = await tx.insert(
                "INSERT INTO vacations (season_id, user_id, started_at, until) "
                "VALUES (?, ?, ?, ?)", (season_id, user_id, now, float(until)))
            return await _one(tx, vacation_id)

    async def end(self, vacation_id: int, *, at: float) -> Vacation:
        """End a vacation at `at` (or at its `until`, if that has passed); returns it."""
        now = float(at)
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE vacations SET ended_at = min(max(?, started_at), until) "
                "WHERE id = ? AND ended_at IS NULL",
                (now, check_int(vacation_id, "vacation_id")))
            return await _one(tx, vacation_id)

    async def of(self, season_id: int, user_id: int) -> list[Vacation]:
        """A player's vacations in a season, oldest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {_COLUMNS} FROM vacations WHERE season_id = ? AND user_id = ? "
                "ORDER BY id", (check_int(season_id, "season_id"), check_int(user_id, "user_id")))
        return [_from_row(row) for row in rows]

    async def under_way(self, at: float, *, season_id: int | None = None) -> list[Vacation]:
        """Every vacation not over at `at` (as a restart needs them), or one season's."""
        only = "" if season_id is None else " AND season_id = ?"
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {_COLUMNS} FROM vacations WHERE ended_at IS NULL AND until > ?"
                f"{only} ORDER BY id", (float(at),) if season_id is None
                else (float(at), check_int(season_id, "season_id")))
        return [_from_row(row) for row in rows]


async def _one(tx: Tx, vacation_id: int) -> Vacation:
    row = await tx.fetchone(f"SELECT {_COLUMNS} FROM vacations WHERE id = ?", (vacation_id,))
    assert row is not None
    return _from_row(row)


def _from_row(row: Row) -> Vacation:
    return Vacation(id=int(row["id"]), season_id=int(row["season_id"]),
                    user_id=int(row["user_id"]), started_at=float(row["started_at"]),
                    until=float(row["until"]), ended_at=opt_float(row["ended_at"]))
