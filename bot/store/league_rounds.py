"""Tournament rounds: who sits at which table, and each table's games added up.

The seating itself is worked out by the caller (`bot.league.pairings`) from the registered
players and the tables of earlier rounds. Starting a round is optimistic like appending an
action: the caller says which round number its seating is for, and if another director
started that round first the second one is refused instead of seating everyone twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.league_errors import BadLeagueInput, NoOpenSeason, RoundConflict, RoundNotFound
from bot.store.league_models import Round, RoundScore, RoundTable
from bot.store.league_rows import add_audit, fetch_season
from bot.store.rows import Part, check_int
from bot.store.tx import Tx


class LeagueRounds(Part):
    """`db.league_rounds`: tournament rounds and their tables."""

    async def next_number(self, season_id: int) -> int:
        """The number the season's next round will get."""
        async with self._db.read() as tx:
            return await _next_number(tx, check_int(season_id, "season_id"))

    async def start_round(self, season_id: int, number: int,
                          tables: Sequence[Sequence[int]], *, seed: int, by: int) -> Round:
        """Seat round `number` of an open season: `tables` lists each table's players, East
        first. Raises `NoOpenSeason` for a closed season and `RoundConflict` when round
        `number` is not the next one any more."""
        seated = [check_int(user, "user_id") for table in tables for user in table]
        if not tables or any(not table for table in tables):
            raise BadLeagueInput("A round needs at least one table with players.")
        if len(set(seated)) != len(seated):
            raise ValueError("a player is seated twice in one round")
        now = self._db.now()
        async with self._db.transaction() as tx:
            season = await fetch_season(tx, season_id)
            if not season.is_open:
                raise NoOpenSeason()
            if await _next_number(tx, season.id) != number:
                raise RoundConflict("Another round was started just now; see it with "
                                    "`/league round show`.")
            round_id = await tx.insert(
                "INSERT INTO league_rounds (season_id, number, seed, started_at, started_by) "
                "VALUES (?, ?, ?, ?, ?)",
                (season.id, number, check_int(seed, "seed"), now, check_int(by, "by")))
            for table_no, table in enumerate(tables, start=1):
                for seat, user in enumerate(table):
                    await tx.execute(
                        "INSERT INTO league_round_seats (round_id, table_no, seat, user_id) "
                        "VALUES (?, ?, ?, ?)", (round_id, table_no, seat, user))
            await add_audit(tx, league_id=season.league_id, season_id=season.id, game_id=None,
                            actor=by, action="round_start", reason="", before="{}",
                            after=json.dumps({"round": number,
                                              "tables": [list(t) for t in tables]}), now=now)
            return await _fetch(tx, round_id)

    async def round(self, season_id: int, number: int | None = None) -> Round:
        """Round `number` of the season (the latest without a number), or `RoundNotFound`."""
        async with self._db.read() as tx:
            if number is None:
                row = await tx.fetchone(
                    "SELECT id FROM league_rounds WHERE season_id = ? ORDER BY number DESC "
                    "LIMIT 1", (check_int(season_id, "season_id"),))
            else:
                row = await tx.fetchone(
                    "SELECT id FROM league_rounds WHERE season_id = ? AND number = ?",
                    (check_int(season_id, "season_id"), check_int(number, "number")))
            if row is None:
                raise RoundNotFound(
                    "This season has no rounds yet; a server manager starts one with "
                    "`/league round start`." if number is None else
                    f"This season has no round {number}.")
            return await _fetch(tx, int(row["id"]))

    async def past_tables(self, season_id: int) -> list[tuple[int, ...]]:
        """Every table of the season's rounds so far, as tuples of players: the history
        the next round's seating mixes."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT rs.round_id, rs.table_no, rs.user_id FROM league_round_seats AS rs "
                "JOIN league_rounds AS r ON r.id = rs.round_id WHERE r.season_id = ? "
                "ORDER BY rs.round_id, rs.table_no, rs.seat",
                (check_int(season_id, "season_id"),))
        tables: dict[tuple[int, int], list[int]] = {}
        for row in rows:
            tables.setdefault((int(row["round_id"]), int(row["table_no"])), []).append(
                int(row["user_id"]))
        return [tuple(users) for users in tables.values()]

    async def scores(self, round_id: int) -> list[RoundScore]:
        """Each seated player's points over their table's counted games in the round, by
        table, best first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                """SELECT rs.table_no, rs.user_id, p.display_name, count(r.game_id) AS games,
                       coalesce(sum(r.points), 0) AS points
                   FROM league_round_seats AS rs
                   JOIN league_rounds AS rd ON rd.id = rs.round_id
                   JOIN league_seasons AS s ON s.id = rd.season_id
                   LEFT JOIN league_players AS p ON p.league_id = s.league_id
                        AND p.user_id = rs.user_id
                   LEFT JOIN league_games AS g ON g.round_id = rs.round_id
                        AND g.table_no = rs.table_no AND g.counted = 1
                   LEFT JOIN league_results AS r ON r.game_id = g.game_id
                        AND r.user_id = rs.user_id
                   WHERE rs.round_id = ?
                   GROUP BY rs.table_no, rs.user_id, p.display_name
                   ORDER BY rs.table_no, points DESC, rs.user_id""",
                (check_int(round_id, "round_id"),))
        return [RoundScore(int(r["table_no"]), int(r["user_id"]),
                           str(r["display_name"] or f"Player {r['user_id']}"),
                           int(r["games"]), int(r["points"])) for r in rows]


async def _next_number(tx: Tx, season_id: int) -> int:
    row = await tx.fetchone(
        "SELECT coalesce(max(number), 0) + 1 AS next FROM league_rounds WHERE season_id = ?",
        (season_id,))
    return 1 if row is None else int(row["next"])


async def _fetch(tx: Tx, round_id: int) -> Round:
    row = await tx.fetchone(
        "SELECT id, season_id, number, seed, started_at, started_by FROM league_rounds "
        "WHERE id = ?", (round_id,))
    assert row is not None
    seats = await tx.fetchall(
        "SELECT table_no, user_id FROM league_round_seats WHERE round_id = ? "
        "ORDER BY table_no, seat", (round_id,))
    tables: dict[int, list[int]] = {}
    for seat in seats:
        tables.setdefault(int(seat["table_no"]), []).append(int(seat["user_id"]))
    return Round(id=int(row["id"]), season_id=int(row["season_id"]), number=int(row["number"]),
                 seed=int(row["seed"]), started_at=float(row["started_at"]),
                 started_by=int(row["started_by"]),
                 tables=tuple(RoundTable(no, tuple(users)) for no, users in tables.items()))
