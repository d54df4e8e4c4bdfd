"""The league tables through the store's API: leagues, seasons, players, recording games,
corrections with their audit log, and other servers kept out."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from league_helpers import (
    CHANNEL,
    DIRECTOR,
    GUILD,
    FakeClock,
    finished_game,
    league_with_season,
    season_settings,
    stored_game,
)

from bot.league.ratings import RATING_MODEL
from bot.store import (
    BadLeagueInput,
    ChannelHasLeague,
    Database,
    FinishReason,
    LeagueGameNotFound,
    LeagueNameTaken,
    LeagueNotFound,
    NoOpenSeason,
    NotAtThatGame,
    SeasonAlreadyOpen,
    SeasonNotFound,
    SeatDetail,
)
from bot.store.league_games import placements


async def test_create_league_and_find_it(db: Database) -> None:
    league = await db.leagues.create_league(GUILD, "  Tuesday   Club ", CHANNEL,
                                            created_by=DIRECTOR)
    assert league.name == "Tuesday Club"
    assert await db.leagues.league_in_channel(GUILD, CHANNEL) == league
    assert await db.leagues.league_in_channel(GUILD, CHANNEL + 1) is None
    assert await db.leagues.league_by_name(GUILD, "tuesday club") == league
    assert await db.leagues.leagues(GUILD) == [league]
    with pytest.raises(LeagueNameTaken):
        await db.leagues.create_league(GUILD, "TUESDAY CLUB", CHANNEL + 1, created_by=DIRECTOR)
    with pytest.raises(ChannelHasLeague, match="Tuesday Club"):
        await db.leagues.create_league(GUILD, "Other", CHANNEL, created_by=DIRECTOR)
    with pytest.raises(BadLeagueInput, match="1 to 40"):
        await db.leagues.create_league(GUILD, "x" * 41, CHANNEL + 2, created_by=DIRECTOR)
    with pytest.raises(BadLeagueInput):
        await db.leagues.create_league(GUILD, "   ", CHANNEL + 2, created_by=DIRECTOR)
    with pytest.raises(LeagueNotFound):
        await db.leagues.league(league.id, guild_id=GUILD + 1)


async def test_seasons_open_and_close_one_at_a_time(db: Database, clock: FakeClock) -> None:
    league, first = await league_with_season(db)
    assert first.number == 1 and first.is_open
    with pytest.raises(SeasonAlreadyOpen, match="Season 1 is still open"):
        await db.leagues.start_season(league.id, season_settings(), by=DIRECTOR)
    clock.advance(60)
    ended = await db.leagues.end_season(league.id, by=DIRECTOR)
    assert ended.ended_at == clock.now and ended.ended_by == DIRECTOR and not ended.is_open
    with pytest.raises(NoOpenSeason):
        await db.leagues.end_season(league.id, by=DIRECTOR)
    assert await db.leagues.current_season(league.id) is None
    assert (await db.leagues.season(league.id)).number == 1  # the latest, when none is open
    second = await db.leagues.start_season(
        league.id, season_settings("standard", min_games=3, name="Summer"), by=DIRECTOR)
    assert second.number == 2 and second.settings.scoring == "nmjl"
    assert (await db.leagues.season(league.id)).id == second.id
    assert (await db.leagues.season(league.id, 1)).id == first.id
    assert [s.number for s in await db.leagues.seasons(league.id)] == [1, 2]
    with pytest.raises(SeasonNotFound, match="no season 7"):
        await db.leagues.season(league.id, 7)


async def test_bad_season_settings_are_refused(db: Database) -> None:
    league = await db.leagues.create_league(GUILD, "L", CHANNEL, created_by=DIRECTOR)
    for settings, message in [
        (season_settings(min_games=-1), "minimum number of games"),
        (season_settings(game_minutes=0), "time limit"),
        (season_settings(name=""), "season name"),
    ]:
        with pytest.raises(BadLeagueInput, match=message):
            await db.leagues.start_season(league.id, settings, by=DIRECTOR)
    assert await db.leagues.seasons(league.id) == []


async def test_join_and_leave(db: Database) -> None:
    league, _ = await league_with_season(db)
    joined = await db.leagues.join(league.id, 5, "Ann")
    assert joined.registered and joined.display_name == "Ann"
    again = await db.leagues.join(league.id, 5, "Ann B")  # joining twice changes nothing
    assert again == joined
    left = await db.leagues.leave(league.id, 5)
    assert not left.registered
    with pytest.raises(BadLeagueInput, match="haven't joined"):
        await db.leagues.leave(league.id, 5)
    rejoined = await db.leagues.join(league.id, 5, "Annie")
    assert rejoined.registered and rejoined.display_name == "Annie"
    assert [p.user_id for p in await db.leagues.players(league.id, registered_only=True)] == [5]


def test_placements() -> None:
    assert placements([25, 0, 0, -10]) == [1, 2, 2, 4]
    assert placements([-10, 50, 50, 0]) == [4, 1, 1, 3]
    assert placements([10, 10, 0, 10], tie=True) == [1, 1, 1, 1]


async def test_record_keeps_breakdown_and_leaves_bots_out(db: Database) -> None:
    league, season = await league_with_season(db)
    game = await finished_game(db, [1, 2, None, 3], [45, 0, 0, -10], winner=0)
    details = [SeatDetail(0, "r3", "Runs", 25, self_picked=False, jokerless=True, exposures=1),
               SeatDetail(3, threw=True, penalty=10)]
    recorded = await db.league_games.record(game.id, details, counted=True, model=RATING_MODEL)
    assert recorded is not None and recorded.counted and recorded.season_id == season.id
    assert recorded.reason is FinishReason.MAHJONG
    east, south, bot, north = recorded.seats
    assert (east.points, east.placement, east.won, east.detail.hand_id) == (45, 1, True, "r3")
    assert east.detail.section == "Runs" and east.detail.jokerless and east.detail.exposures == 1
    assert (north.placement, north.detail.threw, north.detail.penalty) == (4, True, 10)
    assert south.placement == 2 and bot.is_bot and bot.user_id is None
    assert {p.user_id for p in await db.leagues.players(league.id)} == {1, 2, 3}
    assert await db.leagues.players(league.id, registered_only=True) == []
    totals = {t.user_id: t for t in await db.league_stats.standings(season.id)}
    assert set(totals) == {1, 2, 3}
    ratings = await db.league_games.ratings(season.id)
    assert set(ratings) == {1, 2, 3} and ratings[1][0] > 25 > ratings[3][0]
    # Recording again returns the first record and changes nothing.
    again = await db.league_games.record(game.id, [], counted=False, model=RATING_MODEL)
    assert again == recorded
    assert await db.league_games.ratings(season.id) == ratings


async def test_which_games_belong_to_a_season(db: Database, clock: FakeClock) -> None:
    league, season = await league_with_season(db)
    elsewhere = await finished_game(db, [1, 2, 3, 4], [0] * 4, channel=CHANNEL + 5)
    assert await db.league_games.target(elsewhere.id) is None
    assert await db.league_games.record(elsewhere.id, [], counted=True,
                                        model=RATING_MODEL) is None
    playing = await stored_game(db, [1, 2, 3, 4])
    assert await db.league_games.target(playing.id) is None
    aborted = await stored_game(db, [1, 2, 3, 4])
    await db.games.abort_game(aborted.id)
    assert await db.league_games.target(aborted.id) is None
    inside = await finished_game(db, [1, 2, 3, 4], [10] * 4)
    target = await db.league_games.target(inside.id)
    assert target is not None and target.season.id == season.id and target.league == league
    assert await db.league_games.unrecorded() == [inside.id]
    clock.advance(10)
    await db.leagues.end_season(league.id, by=DIRECTOR)
    clock.advance(10)
    after = await finished_game(db, [1, 2, 3, 4], [10] * 4)
    assert await db.league_games.target(after.id) is None
    # The game finished while the season was open still belongs to it.
    assert (await db.league_games.unrecorded()) == [inside.id]


async def test_adjust_points_is_audited_and_moves_places_and_ratings(db: Database) -> None:
    league, season = await league_with_season(db)
    game = await finished_game(db, [1, 2, 3, 4], [25, 0, 0, -10], winner=0)
    await db.league_games.record(game.id, [SeatDetail(0, "r1", "Runs", 25)], counted=True,
                                 model=RATING_MODEL)
    before = await db.league_games.ratings(season.id)
    fixed = await db.league_games.adjust_points(
        game.id, 4, 30, guild_id=GUILD, by=DIRECTOR, reason="mis-scored: North won, not East",
        model=RATING_MODEL)
    assert [s.points for s in fixed.seats] == [25, 0, 0, 30]
    assert [s.table_points for s in fixed.seats] == [25, 0, 0, -10]
    assert [s.placement for s in fixed.seats] == [2, 3, 3, 1]
    after = await db.league_games.ratings(season.id)
    assert after[4][0] > before[4][0] and after != before
    entry = (await db.leagues.audit(league.id))[0]
    assert (entry.action, entry.actor_user_id, entry.game_id) == ("adjust_points", DIRECTOR,
                                                                  game.id)
    assert entry.reason == "mis-scored: North won, not East"
    assert json.loads(entry.before) == {"user_id": 4, "points": -10}
    assert json.loads(entry.after) == {"user_id": 4, "points": 30}
    with pytest.raises(BadLeagueInput, match="Say why"):
        await db.league_games.adjust_points(game.id, 4, 0, guild_id=GUILD, by=DIRECTOR,
                                            reason="  ", model=RATING_MODEL)
    with pytest.raises(NotAtThatGame):
        await db.league_games.adjust_points(game.id, 99, 0, guild_id=GUILD, by=DIRECTOR,
                                            reason="x", model=RATING_MODEL)
    with pytest.raises(LeagueGameNotFound):  # another server's director
        await db.league_games.adjust_points(game.id, 4, 0, guild_id=GUILD + 1, by=DIRECTOR,
                                            reason="x", model=RATING_MODEL)


async def test_uncounting_and_counting_a_game(db: Database) -> None:
    league, season = await league_with_season(db)
    one = await finished_game(db, [1, 2, 3, 4], [25, 0, 0, -10], winner=0)
    two = await finished_game(db, [1, 2, 3, 4], [0, 0, 50, 0], winner=2)
    for game in (one, two):
        await db.league_games.record(game.id, [], counted=True, model=RATING_MODEL)
    with_both = await db.league_games.ratings(season.id)
    await db.league_games.set_counted(one.id, False, guild_id=GUILD, by=DIRECTOR,
                                      reason="played with the wrong card", model=RATING_MODEL)
    totals = {t.user_id: t.points for t in await db.league_stats.standings(season.id)}
    assert totals == {1: 0, 2: 0, 3: 50, 4: 0}
    assert all(games == 1 for _, _, games in (await db.league_games.ratings(season.id)).values())
    with pytest.raises(BadLeagueInput, match="already does not count"):
        await db.league_games.set_counted(one.id, False, guild_id=GUILD, by=DIRECTOR,
                                          reason="again", model=RATING_MODEL)
    await db.league_games.set_counted(one.id, True, guild_id=GUILD, by=DIRECTOR,
                                      reason="the card was fine", model=RATING_MODEL)
    assert await db.league_games.ratings(season.id) == with_both
    assert [e.action for e in await db.leagues.audit(league.id)][:2] == ["count", "uncount"]


async def test_audit_log_is_append_only(db: Database, db_path: Path) -> None:
    await league_with_season(db)
    await db.close()
    conn = sqlite3.connect(db_path)
    try:
        for sql in ("UPDATE league_audit SET reason = 'x'", "DELETE FROM league_audit"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(sql)
        actions = [r[0] for r in conn.execute("SELECT action FROM league_audit ORDER BY id")]
        assert actions == ["create", "season_start"]
    finally:
        conn.close()
