"""Commands that run at once lose nothing: many tasks on one connection, and two connections
(two bot processes) on one file."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path

import pytest
from league_helpers import (
    DIRECTOR,
    GUILD,
    FakeClock,
    finished_game,
    league_with_season,
    season_settings,
)

from bot.league.ratings import RATING_MODEL
from bot.store import (
    Database,
    LeagueGame,
    RoundConflict,
    SeasonAlreadyOpen,
    SeatDetail,
)


async def test_many_tasks_at_once_on_one_connection(db: Database) -> None:
    league, season = await league_with_season(db)
    games = [await finished_game(db, [1 + i % 5, 6 + i % 3, 9, None], [25, 0, 0, -10],
                                 winner=0) for i in range(12)]

    async def record(game_id: int) -> LeagueGame | None:
        return await db.league_games.record(game_id, [SeatDetail(0, "r1")], counted=True,
                                            model=RATING_MODEL)

    jobs: list[Awaitable[object]] = [record(g.id) for g in games for _ in range(2)]
    jobs += [db.leagues.join(league.id, 100 + i, f"N{i}") for i in range(20)]
    jobs += [db.league_stats.standings(season.id) for _ in range(5)]
    results = await asyncio.gather(*jobs)
    recorded = [r for r in results[:24] if isinstance(r, LeagueGame)]
    assert len(recorded) == 24 and len({r.game_id for r in recorded}) == 12
    assert len(await db.leagues.players(league.id, registered_only=True)) == 20
    totals = {t.user_id: t for t in await db.league_stats.standings(season.id)}
    assert sum(t.games for t in totals.values()) == 12 * 3
    assert totals[9].games == 12
    ratings = await db.league_games.ratings(season.id)
    await db.league_games.rebuild_ratings(season.id, RATING_MODEL)
    assert await db.league_games.ratings(season.id) == ratings


async def test_two_processes_on_one_file(db_path: Path) -> None:
    clock = FakeClock()
    async with Database(db_path, clock=clock) as one, Database(db_path, clock=clock) as two:
        league = await one.leagues.create_league(GUILD, "Shared", 222, created_by=DIRECTOR)
        outcomes = await asyncio.gather(
            one.leagues.start_season(league.id, season_settings(), by=DIRECTOR),
            two.leagues.start_season(league.id, season_settings(), by=DIRECTOR),
            return_exceptions=True)
        assert sum(isinstance(o, SeasonAlreadyOpen) for o in outcomes) == 1
        season = await one.leagues.current_season(league.id)
        assert season is not None
        games = [await finished_game(one, [1, 2, 3, 4], [0, 30, 0, -10], winner=1)
                 for _ in range(6)]
        jobs: list[Awaitable[object]] = []
        for game in games:
            for db in (one, two):
                jobs.append(db.league_games.record(game.id, [], counted=True,
                                                   model=RATING_MODEL))
        jobs += [db.leagues.join(league.id, 50 + i, f"J{i}")
                 for i, db in enumerate([one, two] * 10)]
        await asyncio.gather(*jobs)
        totals = {t.user_id: t for t in await two.league_stats.standings(season.id)}
        assert totals[2].games == 6 and totals[2].points == 180
        assert len(await one.leagues.players(league.id, registered_only=True)) == 20
        ratings = await one.league_games.ratings(season.id)
        assert {n for _, _, n in ratings.values()} == {6}


async def test_two_rounds_started_at_once(db: Database) -> None:
    _, season = await league_with_season(db)
    number = await db.league_rounds.next_number(season.id)
    tables = [[1, 2, 3, 4], [5, 6, 7, 8]]
    outcomes = await asyncio.gather(
        db.league_rounds.start_round(season.id, number, tables, seed=1, by=DIRECTOR),
        db.league_rounds.start_round(season.id, number, tables[::-1], seed=2, by=DIRECTOR),
        return_exceptions=True)
    assert sum(isinstance(o, RoundConflict) for o in outcomes) == 1
    assert (await db.league_rounds.round(season.id)).number == 1
    with pytest.raises(RoundConflict):
        await db.league_rounds.start_round(season.id, 1, tables, seed=3, by=DIRECTOR)
