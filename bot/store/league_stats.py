"""Reading a league's numbers: standings totals, a player's stats, season summaries and the
flat rows of the CSV export.

Standings are one aggregate over `league_results_standings`, a covering index keyed by season,
counted, bot and player, so a season of ten thousand games is summed in index order without
touching the table itself; the shares of seats that changed hands (`league_result_holders`,
a few rows) are added beside it. Ranking (minimum games, tie-breaks) is left to the caller:
`bot.league.standings`.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.store.league_errors import SeasonNotFound
from bot.store.league_models import (
    ExportRow,
    HandCount,
    HeadToHead,
    PlayerStats,
    PlayerTotals,
    SeasonSummary,
)
from bot.store.league_rows import SEASON_COLUMNS, season_from_row
from bot.store.rows import Part, check_int, opt_float, opt_int
from bot.store.tx import Row, Tx

#: How many favourite hands and head-to-head opponents `player_stats` returns.
TOP_HANDS = 3
TOP_OPPONENTS = 8

#: What each person is credited with in a season's counted games (two season ids): a row
#: per seat counted for them (a game, its win and its counted points) and a row per share
#: of points they got of a seat counted for someone else (it changed hands).
_CREDITS_SQL = """
    SELECT user_id, 1 AS games, won AS wins, points FROM league_results
    WHERE season_id = ? AND is_bot = 0 AND counted = 1
    UNION ALL
    SELECT h.user_id, 0, 0, h.points FROM league_result_holders AS h
    JOIN league_results AS r ON r.game_id = h.game_id AND r.seat = h.seat
    WHERE r.season_id = ? AND r.counted = 1 AND h.is_bot = 0 AND h.credited = 0
      AND h.points <> 0
"""

_TOTALS_SQL = f"""
    SELECT a.user_id, a.games, a.wins, a.points, p.display_name, t.mu, t.sigma
    FROM (SELECT user_id, sum(games) AS games, sum(wins) AS wins, sum(points) AS points
          FROM ({_CREDITS_SQL}) AS c
          GROUP BY user_id) AS a
    LEFT JOIN league_players AS p ON p.league_id = ? AND p.user_id = a.user_id
    LEFT JOIN league_ratings AS t ON t.season_id = ? AND t.user_id = a.user_id
"""


class LeagueStats(Part):
    """`db.league_stats`: standings, stats, history and exports."""

    async def standings(self, season_id: int) -> list[PlayerTotals]:
        """Every human player's totals in the season's counted games (unordered)."""
        async with self._db.read() as tx:
            league_id = await _league_of_season(tx, season_id)
            rows = await tx.fetchall(_TOTALS_SQL, (season_id, season_id, league_id,
                                                   season_id))
        return [PlayerTotals(
            user_id=int(r["user_id"]),
            display_name=(str(r["display_name"]) if r["display_name"] is not None
                          else f"Player {r['user_id']}"),
            games=int(r["games"]), wins=int(r["wins"]), points=int(r["points"]),
            mu=opt_float(r["mu"]), sigma=opt_float(r["sigma"])) for r in rows]

    async def player_stats(self, season_id: int, user_id: int) -> PlayerStats:
        """One player's season: wins, self-picks, jokerless wins, throws, dead hands, wall
        games, points, favourite hands and head-to-head records (counted games only)."""
        check_int(user_id, "user_id")
        async with self._db.read() as tx:
            league_id = await _league_of_season(tx, season_id)
            mine = "season_id = ? AND user_id = ? AND is_bot = 0 AND counted = 1"
            row = await tx.fetchone(
                f"""SELECT count(*) AS games, coalesce(sum(won), 0) AS wins,
                       coalesce(sum(won * self_picked), 0) AS self_picks,
                       coalesce(sum(won * jokerless), 0) AS jokerless_wins,
                       coalesce(sum(threw), 0) AS threw, coalesce(sum(dead), 0) AS dead,
                       coalesce(sum(wall_game), 0) AS wall_games, max(points) AS best
                    FROM league_results WHERE {mine}""", (season_id, user_id))
            assert row is not None
            hands = await tx.fetchall(
                f"""SELECT hand_id, max(section) AS section, count(*) AS wins
                    FROM league_results WHERE {mine} AND won = 1
                    GROUP BY hand_id ORDER BY wins DESC, hand_id LIMIT ?""",
                (season_id, user_id, TOP_HANDS))
            rivals = await tx.fetchall(
                """SELECT o.user_id, count(*) AS games,
                       sum(CASE WHEN me.placement < o.placement THEN 1 ELSE 0 END) AS ahead,
                       sum(CASE WHEN me.placement > o.placement THEN 1 ELSE 0 END) AS behind,
                       sum(CASE WHEN me.placement = o.placement THEN 1 ELSE 0 END) AS level,
                       p.display_name
                   FROM league_results AS me
                   JOIN league_results AS o ON o.game_id = me.game_id AND o.seat <> me.seat
                        AND o.is_bot = 0
                   LEFT JOIN league_players AS p ON p.league_id = ? AND p.user_id = o.user_id
                   WHERE me.season_id = ? AND me.user_id = ? AND me.is_bot = 0
                     AND me.counted = 1
                   GROUP BY o.user_id, p.display_name ORDER BY games DESC, o.user_id
                   LIMIT ?""",
                (league_id, season_id, user_id, TOP_OPPONENTS))
            credited = await tx.fetchone(
                f"SELECT coalesce(sum(points), 0) AS points FROM ({_CREDITS_SQL}) AS c "
                "WHERE user_id = ?", (season_id, season_id, user_id))
            assert credited is not None
            rating = await tx.fetchone(
                "SELECT mu, sigma FROM league_ratings WHERE season_id = ? AND user_id = ?",
                (season_id, user_id))
            stood_in = await tx.fetchone(
                """SELECT count(*) AS games, coalesce(sum(played_for), 0) AS played,
                       coalesce(sum(moves), 0) AS moves
                   FROM league_results WHERE season_id = ? AND user_id = ? AND is_bot = 0
                     AND played_for > 0""", (season_id, user_id))
            assert stood_in is not None
            name = await tx.fetchone(
                "SELECT display_name FROM league_players WHERE league_id = ? AND user_id = ?",
                (league_id, user_id))
        return PlayerStats(
            user_id=user_id,
            display_name=str(name["display_name"]) if name else f"Player {user_id}",
            games=int(row["games"]), wins=int(row["wins"]), self_picks=int(row["self_picks"]),
            jokerless_wins=int(row["jokerless_wins"]), threw=int(row["threw"]),
            dead=int(row["dead"]), wall_games=int(row["wall_games"]),
            points=int(credited["points"]), best_game=opt_int(row["best"]),
            favourite_hands=tuple(
                HandCount(str(h["hand_id"]), None if h["section"] is None else str(h["section"]),
                          int(h["wins"])) for h in hands),
            head_to_head=tuple(
                HeadToHead(int(o["user_id"]),
                           str(o["display_name"]) if o["display_name"] is not None
                           else f"Player {o['user_id']}",
                           int(o["games"]), int(o["ahead"]), int(o["behind"]), int(o["level"]))
                for o in rivals),
            mu=None if rating is None else float(rating["mu"]),
            sigma=None if rating is None else float(rating["sigma"]),
            stand_in_games=int(stood_in["games"]), played_for=int(stood_in["played"]),
            stand_in_moves=int(stood_in["moves"]))

    async def history(self, league_id: int) -> list[SeasonSummary]:
        """Every season of the league, first to last, with its counted games and the player
        with the most points (the champion, once the season is over)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"""SELECT {SEASON_COLUMNS},
                       (SELECT count(*) FROM league_games AS g
                        WHERE g.season_id = s.id AND g.counted = 1) AS games
                    FROM league_seasons AS s WHERE s.league_id = ? ORDER BY s.number""",
                (check_int(league_id, "league_id"),))
            summaries: list[SeasonSummary] = []
            for row in rows:
                season = season_from_row(row)
                leader = await tx.fetchone(
                    f"""SELECT a.user_id, a.points, p.display_name FROM
                           (SELECT user_id, sum(points) AS points, sum(games) AS games
                            FROM ({_CREDITS_SQL}) AS c
                            GROUP BY user_id HAVING sum(games) >= ?) AS a
                       LEFT JOIN league_players AS p ON p.league_id = ?
                            AND p.user_id = a.user_id
                       ORDER BY a.points DESC, a.games ASC, a.user_id LIMIT 1""",
                    (season.id, season.id, season.settings.min_games, league_id))
                summaries.append(SeasonSummary(
                    season=season, games=int(row["games"]),
                    leader_id=None if leader is None else int(leader["user_id"]),
                    leader_name=(None if leader is None else
                                 str(leader["display_name"] or f"Player {leader['user_id']}")),
                    leader_points=None if leader is None else int(leader["points"])))
        return summaries

    async def export_rows(self, season_id: int) -> list[ExportRow]:
        """Every seat of every game recorded in the season (counted or not), in recording
        order: what the CSV export writes."""
        async with self._db.read() as tx:
            await _league_of_season(tx, season_id)
            # Driven by league_games in recording order, each game's seats by primary key
            # (the join's condition in WHERE, as PostgreSQL's CROSS JOIN takes no ON).
            rows = await tx.fetchall(
                """SELECT s.number, g.game_id, g.finished_at, g.reason, g.counted,
                       rd.number, g.table_no, r.seat, r.user_id, r.display_name, r.is_bot,
                       r.points, r.table_points, r.placement, r.won, r.hand_id, r.section,
                       r.hand_value, r.self_picked, r.jokerless, r.exposures, r.threw,
                       r.penalty, r.wall_game, r.dead, r.played_for, r.moves
                   FROM league_games AS g
                   CROSS JOIN league_results AS r
                   JOIN league_seasons AS s ON s.id = g.season_id
                   LEFT JOIN league_rounds AS rd ON rd.id = g.round_id
                   WHERE r.game_id = g.game_id AND g.season_id = ? ORDER BY g.id, r.seat""",
                (season_id,))
            # The people who held a seat that changed hands besides the one it counts for
            # (a few rows): their shares are in the standings, so they are in the export.
            holders = await tx.fetchall(
                """SELECT h.game_id, h.seat, h.user_id, h.display_name, h.moves, h.points
                   FROM league_result_holders AS h
                   JOIN league_games AS g ON g.game_id = h.game_id
                   WHERE g.season_id = ? AND h.credited = 0 AND h.is_bot = 0
                   ORDER BY g.id, h.seat, h.part""", (season_id,))
        # Tens of thousands of rows in a big season: turned into records off the event loop.
        return await asyncio.to_thread(_export_rows, rows, holders)


def _export_rows(rows: list[Row], holders: list[Row]) -> list[ExportRow]:
    """Export rows from `export_rows`' query rows, each seat's shares (`holders`) after
    it."""
    # Positional and in the column order of `ExportRow`; SQLite already hands back ints,
    # floats, text and NULLs, so only the 0/1 columns need turning into bools.
    seats = [ExportRow(
        season, game_id, finished_at, reason, counted == 1, round_no, table_no, seat,
        user_id, name, is_bot == 1, points, table_points, placement, won == 1, hand_id,
        section, hand_value, self_picked == 1, jokerless == 1, exposures, threw == 1,
        penalty, wall_game == 1, dead == 1, played_for, moves)
        for (season, game_id, finished_at, reason, counted, round_no, table_no, seat,
             user_id, name, is_bot, points, table_points, placement, won, hand_id,
             section, hand_value, self_picked, jokerless, exposures, threw, penalty,
             wall_game, dead, played_for, moves) in rows]
    if not holders:
        return seats
    shares: dict[tuple[int, int], list[Row]] = {}
    for holder in holders:
        shares.setdefault((int(holder["game_id"]), int(holder["seat"])), []).append(holder)
    out: list[ExportRow] = []
    for row in seats:
        out.append(row)
        out += [replace(row, user_id=int(h["user_id"]), display_name=str(h["display_name"]),
                        is_bot=False, points=int(h["points"]), won=False, hand_id=None,
                        section=None, hand_value=None, self_picked=False, jokerless=False,
                        exposures=None, threw=False, penalty=0, dead=False, played_for=0,
                        moves=int(h["moves"]), share=True)
                for h in shares.get((row.game_id, row.seat), ())]
    return out


async def _league_of_season(tx: Tx, season_id: int) -> int:
    row = await tx.fetchone("SELECT league_id FROM league_seasons WHERE id = ?",
                            (check_int(season_id, "season_id"),))
    if row is None:
        raise SeasonNotFound(None)
    return int(row["league_id"])
