"""Vacations: a player away from their games for a while.

A vacation is a league season's (it pauses the player's games of that season) or, with no
season (`season_id` None), personal: it pauses their casual tables that
were opened to pause for vacations. Each season, and the personal ones, is a scope of its
own. A vacation starts with the moment it runs out (`until`, the caller's arithmetic) and
ends then, or earlier when the player ends it (`ended_at`). The store keeps at most one
vacation under way per player and scope (a second start is `OnVacation`); how many days a
vacation costs, and whether the budget allows one, is the table layer's to decide
(`bot.tables.vacation`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.store.errors import StoreRefusal
from bot.store.league_errors import BadLeagueInput, NoOpenSeason
from bot.store.league_games import check_reason
from bot.store.league_models import Season
from bot.store.league_rows import add_audit, fetch_league, fetch_season, open_season
from bot.store.leagues import check_vacation_days
from bot.store.rows import Part, check_int, opt_float
from bot.store.tx import Row, Tx

_COLUMNS = "id, season_id, user_id, started_at, until, ended_at"


@dataclass(frozen=True)
class Vacation:
    """One vacation: whose, in which season (None: a personal one), from when, until when
    at the latest, and when it was ended by command (None: not, so it ends at `until`)."""

    id: int
    season_id: int | None
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
    """A vacation is already under way for this player in this scope (season, or
    personal)."""

    code = "on_vacation"

    def __init__(self, season_id: int | None) -> None:
        super().__init__("You're already on vacation" + (
            "." if season_id is None else " in this season."))


def _in_scope(season_id: int | None) -> tuple[str, tuple[int, ...]]:
    """The condition (and its parameters) picking one scope's vacations: a season's, or the
    personal ones (NULL, which `=` never matches)."""
    if season_id is None:
        return "season_id IS NULL", ()
    return "season_id = ?", (check_int(season_id, "season_id"),)


#: Until when a vacation under way may last once the season's budget is `budget` days, given
#: the player's other vacations in the season (the table layer's arithmetic).
VacationLimit = Callable[[Vacation, Sequence[Vacation], int], float]


class Vacations(Part):
    """`db.vacations`: players' vacations from league seasons, and personal ones."""

    async def start(self, season_id: int | None, user_id: int, *, at: float,
                    until: float) -> Vacation:
        """Start a vacation in a season (None: a personal one) at `at` (the table service's
        clock), ending at `until` at the latest. A vacation of the same scope whose `until`
        has passed is closed first (at its `until`); one still under way is
        `OnVacation`."""
        now = float(at)
        scope, scope_args = _in_scope(season_id)
        user_id = check_int(user_id, "user_id")
        async with self._db.transaction() as tx:
            await tx.execute(
                f"UPDATE vacations SET ended_at = until WHERE {scope} AND user_id = ? "
                "AND ended_at IS NULL AND until <= ?", (*scope_args, user_id, now))
            # Asked first, not caught from the unique index: a failed statement ends a
            # PostgreSQL transaction.
            if await tx.fetchone(
                    f"SELECT 1 FROM vacations WHERE {scope} AND user_id = ? "
                    "AND ended_at IS NULL", (*scope_args, user_id)) is not None:
                raise OnVacation(season_id)
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

    async def change_budget(self, league_id: int, days: int, *, by: int, reason: str,
                            at: float, limit: VacationLimit) -> tuple[Season, list[Vacation]]:
        """A director's correction: the open season's vacation budget is now `days`, from
        `at` on, kept in the league's audit log with who and why. Each vacation under way
        gets the end `limit` gives it under the new budget; one whose end would be past
        (at or before `at`) ends at `at`, never earlier, and one planned whose end would
        not come after its start is called off. Returns the season and the
        vacations under way, as they now are. Raises `NoOpenSeason`, or `BadLeagueInput`
        for a budget out of range or the same as before."""
        reason = check_reason(reason)
        now = float(at)
        async with self._db.transaction() as tx:
            league = await fetch_league(tx, league_id)
            season = await open_season(tx, league.id)
            if season is None:
                raise NoOpenSeason()
            before = season.settings.vacation_days
            if check_vacation_days(days) == before:
                raise BadLeagueInput(f"The season already gives {days} vacation days; "
                                     "nothing to change.")
            await tx.execute("UPDATE league_seasons SET vacation_days = ? WHERE id = ?",
                             (days, season.id))
            await add_audit(tx, league_id=league.id, season_id=season.id, game_id=None,
                            actor=by, action="vacation_days", reason=reason,
                            before=json.dumps({"vacation_days": before}),
                            after=json.dumps({"vacation_days": days}), now=now)
            rows = await tx.fetchall(
                f"SELECT {_COLUMNS} FROM vacations WHERE season_id = ? ORDER BY id",
                (season.id,))
            every = [_from_row(row) for row in rows]
            changed = []
            for vacation in every:
                if vacation.ended_at is not None or vacation.until <= now:
                    continue
                until = limit(vacation, [v for v in every if v.user_id == vacation.user_id
                                         and v.id != vacation.id], days)
                if until <= max(now, vacation.started_at):  # (a planned one: called off)
                    await tx.execute("UPDATE vacations SET ended_at = ? WHERE id = ?",
                                     (max(now, vacation.started_at), vacation.id))
                else:
                    await tx.execute("UPDATE vacations SET until = ? WHERE id = ?",
                                     (until, vacation.id))
                changed.append(await _one(tx, vacation.id))
            return await fetch_season(tx, season.id), changed

    async def of(self, season_id: int | None, user_id: int) -> list[Vacation]:
        """A player's vacations in a season (None: their personal ones), oldest first."""
        scope, scope_args = _in_scope(season_id)
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {_COLUMNS} FROM vacations WHERE {scope} AND user_id = ? "
                "ORDER BY id", (*scope_args, check_int(user_id, "user_id")))
        return [_from_row(row) for row in rows]

    async def under_way(self, at: float) -> list[Vacation]:
        """Every vacation not over at `at`, of every scope (as a restart needs them)."""
        return await self._not_over("", (), at)

    async def under_way_in(self, season_id: int | None, at: float) -> list[Vacation]:
        """The vacations not over at `at` of one season (None: the personal ones)."""
        scope, scope_args = _in_scope(season_id)
        return await self._not_over(f" AND {scope}", scope_args, at)

    async def _not_over(self, scope: str, scope_args: tuple[int, ...],
                        at: float) -> list[Vacation]:
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {_COLUMNS} FROM vacations WHERE ended_at IS NULL AND until > ?"
                f"{scope} ORDER BY id", (float(at), *scope_args))
        return [_from_row(row) for row in rows]


async def _one(tx: Tx, vacation_id: int) -> Vacation:
    row = await tx.fetchone(f"SELECT {_COLUMNS} FROM vacations WHERE id = ?", (vacation_id,))
    assert row is not None
    return _from_row(row)


def _from_row(row: Row) -> Vacation:
    season = row["season_id"]
    return Vacation(id=int(row["id"]), season_id=None if season is None else int(season),
                    user_id=int(row["user_id"]), started_at=float(row["started_at"]),
                    until=float(row["until"]), ended_at=opt_float(row["ended_at"]))
