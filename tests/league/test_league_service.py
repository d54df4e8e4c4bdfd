"""The league service: what the front ends ask of a server's leagues, over one store."""

from __future__ import annotations

from dataclasses import replace

import pytest
from league_helpers import CHANNEL, DIRECTOR, GUILD, finished_game, season_settings

from bot.engine.errors import InvalidInput
from bot.league.record import record_finished_game
from bot.league.service import League, LeagueService
from bot.store import Database, GuildSettings


async def finish(db: Database, users: list[int], points: list[int], winner: int) -> int:
    """A game finished in the league's channel and recorded in its season."""
    game = await finished_game(db, users, points, winner=winner)
    assert await record_finished_game(db, game.id) is not None
    return game.id


@pytest.fixture
async def league(db: Database) -> League:
    return await LeagueService(db).create(GUILD, "Club", CHANNEL, by=DIRECTOR)


async def test_a_season_plays_a_card_by_its_name_here_and_is_numbered_unless_named(
        db: Database, league: League) -> None:
    service = LeagueService(db)
    unnamed = replace(season_settings(), name="")
    first = await service.start_season(league, replace(unnamed, card_name="Jongg Teaching"),
                                       by=DIRECTOR)
    assert (first.settings.name, first.settings.card_name) == ("Season 1", "jongg-teaching")
    await service.end_season(league.id, by=DIRECTOR)
    second = await service.start_season(league, unnamed, by=DIRECTOR)
    assert second.settings.name == "Season 2"
    await service.end_season(league.id, by=DIRECTOR)
    named = await service.start_season(league, replace(unnamed, name="Spring"), by=DIRECTOR)
    assert named.settings.name == "Spring"
    await service.end_season(league.id, by=DIRECTOR)
    with pytest.raises(InvalidInput, match="no card called `nothing`"):
        await service.start_season(league, replace(unnamed, card_name="nothing"), by=DIRECTOR)
    assert [s.settings.name for s in await db.leagues.seasons(league.id)] == [
        "Season 1", "Season 2", "Spring"]


async def test_a_season_ends_with_its_standings_ranked(db: Database, league: League) -> None:
    service = LeagueService(db)
    await service.start_season(league, replace(season_settings(), min_games=2), by=DIRECTOR)
    await finish(db, [1, 2, 3, 4], [25, 0, 0, -10], 0)
    await finish(db, [2, 1, 3, 5], [40, 0, 0, 0], 0)
    season, rows = await service.end_season(league.id, by=DIRECTOR)
    assert not season.is_open
    assert [(r.rank, r.user_id) for r in rows] == [(1, 2), (2, 1), (3, 3), (None, 5),
                                                   (None, 4)]
    assert rows == await service.standings(season)


async def test_history_has_every_season_and_the_latest_seasons_recent_games(
        db: Database, league: League) -> None:
    service = LeagueService(db)
    assert await service.history(league.id, recent=10) == ([], [])
    await service.start_season(league, season_settings(), by=DIRECTOR)
    earlier = await finish(db, [1, 2, 3, 4], [25, 0, 0, -10], 0)
    await service.end_season(league.id, by=DIRECTOR)
    await service.start_season(league, season_settings(name="Season 2"), by=DIRECTOR)
    later = [await finish(db, [1, 2, 3, 4], [10, 0, 0, 0], 0) for _ in range(3)]
    summaries, recent = await service.history(league.id, recent=2)
    assert [s.season.number for s in summaries] == [1, 2]
    assert [g.game_id for g in recent] == later[:0:-1] and earlier not in later


async def test_a_round_seats_the_registered_players(db: Database, league: League) -> None:
    service = LeagueService(db)
    season = await service.start_season(league, season_settings(), by=DIRECTOR)
    for user in range(1, 6):
        await service.join(league.id, user, f"Player {user}")
    await service.leave(league.id, 5)
    started = await service.start_round(league.id, season, by=DIRECTOR)
    [table] = started.tables
    assert sorted(table.user_ids) == [1, 2, 3, 4]
    shown, scores = await service.round(season.id, None)
    assert shown.id == started.id and shown.number == 1
    assert sorted((s.user_id, s.games) for s in scores) == [(1, 0), (2, 0), (3, 0), (4, 0)]


async def test_a_league_is_found_by_its_channel_or_the_servers_league_channel(
        db: Database, league: League) -> None:
    service = LeagueService(db)
    assert await service.in_channel(GUILD, CHANNEL) == league
    assert await service.in_channel(GUILD, CHANNEL + 1) is None
    assert await service.of_server(GUILD) == [league]
    assert await service.open_season(GUILD, CHANNEL) is None
    season = await service.start_season(league, season_settings(), by=DIRECTOR)
    assert await service.open_season(GUILD, CHANNEL) == season
    assert await service.home_channel(GUILD) is None
    await db.guilds.set_settings(GUILD, GuildSettings(league_channel_id=CHANNEL), by_user=1)
    assert await service.home_channel(GUILD) == CHANNEL
