"""Games a bot played part of for a person, in a league: every such move and game is marked
(how many moves, of how many), and the season's setting decides how the standings count them:
in full, at half (counted points halved, rounded toward zero) or not at all. The same two
games give each setting's standings."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from league_helpers import DIRECTOR, season_settings, stored_game

from bot.league.export import read_csv, write_csv
from bot.league.record import record_finished_game
from bot.store import (
    Database,
    FinishReason,
    Outcome,
    PlayedFor,
    SeatScore,
    StandInGames,
)

#: Game 1: a bot played two of seat 1's moves (a timeout, then the stand-in).
STOOD_IN = ([25, -5, -10, -10], [(1000, None), (None, PlayedFor.TIMEOUT),
                                 (None, None), (None, None), (1000, None),
                                 (None, PlayedFor.STAND_IN)])
#: Game 2: everyone played their own moves.
OWN = ([0, 30, -15, -15], [(1000, None), (1001, None)])


async def _played(db: Database, points: list[int],
                  log: list[tuple[int | None, PlayedFor | None]]) -> int:
    """A finished game of players 1000-1003 whose log made these moves (seats in turn)."""
    game = await stored_game(db, [1000, 1001, 1002, 1003])
    winds = ("East", "South", "West", "North")
    await db.actions.append_actions(
        game.id, 0, [(f"{winds[i % 4]}: pass", actor) for i, (actor, _) in enumerate(log)],
        played_for={i: kind for i, (_, kind) in enumerate(log) if kind is not None})
    winner = max(range(4), key=lambda s: points[s])
    await db.games.finish_game(game.id, Outcome(
        FinishReason.MAHJONG, winner, tuple(SeatScore(s, p) for s, p in enumerate(points)),
        json.dumps({"reason": "mahjong", "hands": ["r1"]})))
    return game.id


@pytest.mark.parametrize(("how", "points", "games"), [
    (StandInGames.COUNT, {1000: 25, 1001: 25, 1002: -25, 1003: -25}, 2),
    (StandInGames.HALF, {1000: 12, 1001: 28, 1002: -20, 1003: -20}, 2),
    (StandInGames.NONE, {1000: 0, 1001: 30, 1002: -15, 1003: -15}, 1),
], ids=lambda v: v.value if isinstance(v, StandInGames) else None)
async def test_each_setting_gives_its_standings_on_the_same_games(
        db: Database, how: StandInGames, points: dict[int, int], games: int) -> None:
    league = await db.leagues.create_league(111, "Friday", 222, created_by=DIRECTOR)
    season = await db.leagues.start_season(
        league.id, replace(season_settings(), stand_in_games=how), by=DIRECTOR)
    assert season.settings.stand_in_games is how
    first = await _played(db, *STOOD_IN)
    await _played(db, *OWN)
    for game_id in (first, first + 1):
        await record_finished_game(db, game_id)
    totals = {t.user_id: t for t in await db.league_stats.standings(season.id)}
    assert {user: t.points for user, t in totals.items()} == points
    assert {t.games for t in totals.values()} == {games}
    recorded = await db.league_games.game(first)
    assert recorded.counted is (how is not StandInGames.NONE)
    assert ("a bot played 2 of P1001's" in recorded.note) is (how is not StandInGames.COUNT)
    # The marks are kept per seat whatever the setting: 2 of seat 1's 2 moves (seats 0 and
    # 1 moved twice each and seats 2 and 3 once each in the first game).
    rows = [r for r in await db.league_stats.export_rows(season.id) if r.game_id == first]
    assert [(r.played_for, r.moves) for r in rows] == [(0, 2), (2, 2), (0, 1), (0, 1)]
    assert [r.table_points for r in rows] == STOOD_IN[0]
    assert read_csv(write_csv(rows)) == rows
    stats = await db.league_stats.player_stats(season.id, 1001)
    assert (stats.stand_in_games, stats.played_for, stats.stand_in_moves) == (1, 2, 2)
