"""`jongg bench league`: how long a season's standings take on a big season.

A fresh database (an SQLite file, or PostgreSQL with `--database`) gets a league whose
season holds 10,000 finished games among 500 players (made up in bulk by
`bot.store.league_synthetic`, with the same rows real games leave). The figure is the median
time of what `/league standings` does before drawing: the SQL aggregate over the season plus
ranking in Python. Also measured, without goals: a player's stats, the
CSV export, recording one more game (one transaction with its rating update) and rebuilding
the season's ratings after a director's correction.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.bench import BenchResult, Figure, ProgressCallback, Steps
from bot.bench.databases import SQLITE, bench_databases
from bot.bench.seeding import big_season, started_game
from bot.league.export import write_csv
from bot.league.ratings import RATING_MODEL
from bot.league.standings import rank_standings
from bot.store import Database, FinishReason, Outcome, SeatDetail, SeatScore

GAMES, PLAYERS = 10_000, 500
QUICK_GAMES, QUICK_PLAYERS = 1_000, 100
#: The goal for standings, in milliseconds.
STANDINGS_GOAL_MS = 200.0


async def _median_ms(call: Callable[[], Awaitable[Any]], runs: int,
                     tick: Callable[[], None]) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000)
        tick()
    return statistics.median(samples)


async def _measure(target: str, games: int, players: int, runs: int,
                   progress: ProgressCallback | None) -> tuple[list[Figure], dict[str, Any]]:
    tick = Steps(progress, 4 * runs + 2)

    async with Database(target) as db:
        start = time.perf_counter()
        season = await big_season(db, games=games, players=players)
        fill_s = time.perf_counter() - start
        tick()

        async def standings() -> None:
            rank_standings(await db.league_stats.standings(season.id),
                           season.settings.min_games)

        async def stats() -> None:
            await db.league_stats.player_stats(season.id, 10_000)

        async def export() -> None:
            write_csv(await db.league_stats.export_rows(season.id))

        await standings()  # warm the page cache, as a running bot has it
        standings_ms = await _median_ms(standings, runs, tick)
        stats_ms = await _median_ms(stats, runs, tick)
        export_ms = await _median_ms(export, max(1, runs // 4), tick)

        recorded: list[float] = []
        for n in range(runs):
            game = await started_game(db, n, [10_000 + seat * 7 + n for seat in range(4)])
            await db.games.finish_game(game.id, Outcome(
                FinishReason.MAHJONG, 0,
                tuple(SeatScore(s, p) for s, p in enumerate([35, 0, 0, -10]))))
            begin = time.perf_counter()
            await db.league_games.record(game.id, [SeatDetail(0, "r1", "Runs", 25)],
                                         counted=True, model=RATING_MODEL)
            recorded.append((time.perf_counter() - begin) * 1000)
            tick()
        begin = time.perf_counter()
        rated = await db.league_games.rebuild_ratings(season.id, RATING_MODEL)
        rebuild_ms = (time.perf_counter() - begin) * 1000
        tick()
        rows = len(await db.league_stats.standings(season.id))
    figures = [
        Figure(f"standings, {games:,} games / {players} players", standings_ms, "ms",
               goal=STANDINGS_GOAL_MS),
        Figure("player stats (with head-to-head)", stats_ms, "ms"),
        Figure("CSV export", export_ms, "ms"),
        Figure("record one game (+ ratings)", statistics.median(recorded), "ms"),
        Figure("rebuild the season's ratings", rebuild_ms, "ms"),
    ]
    info = {"games": games, "players": players, "standings_rows": rows,
            "rated_players": rated, "fill_seconds": round(fill_s, 2), "runs": runs}
    return figures, info


def run(quick: bool = False, progress: ProgressCallback | None = None,
        database: str = SQLITE) -> BenchResult:
    """Build the big season in a fresh database (`database`: see `bot.bench.databases`)
    and time standings and friends on it."""
    games, players = (QUICK_GAMES, QUICK_PLAYERS) if quick else (GAMES, PLAYERS)
    runs = 3 if quick else 15
    with bench_databases(database) as databases:
        figures, info = asyncio.run(_measure(databases.new("league"), games, players,
                                             runs, progress))
        info["database"] = databases.shown
    info["quick"] = quick
    return BenchResult("league", tuple(figures), info)
