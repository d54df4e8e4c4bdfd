"""The tournament time limit: the all-zero result and when a league game's time is up."""

from __future__ import annotations

import json

import pytest
from league_helpers import CHANNEL, league_with_season, stored_game

from bot.engine.game import preset
from bot.league.seasons import season_for_channel, season_rules
from bot.league.tournament import TIME_UP, deadline, game_deadline, timeout_outcome
from bot.store import Database, FinishReason, GameStatus


def test_time_up_scores_zero_for_everyone() -> None:
    outcome = timeout_outcome(3)
    assert outcome.reason is FinishReason.TIMEOUT and outcome.winner_seat is None
    assert [(s.seat, s.points) for s in outcome.scores] == [(0, 0), (1, 0), (2, 0)]
    assert json.loads(outcome.scores[0].breakdown)["lines"][0]["text"] == TIME_UP
    with pytest.raises(ValueError):
        timeout_outcome(5)


def test_deadline() -> None:
    assert deadline(1000.0, 90) == 1000.0 + 5400
    assert deadline(1000.0, None) is None


async def test_league_games_have_a_deadline(db: Database) -> None:
    await league_with_season(db, game_minutes=60)
    game = await stored_game(db, [1, 2, 3, 4])
    assert game.started_at is not None
    assert await game_deadline(db, game.id) == game.started_at + 3600
    elsewhere = await stored_game(db, [1, 2, 3, 4], channel=CHANNEL + 1)
    assert await game_deadline(db, elsewhere.id) is None
    await db.games.finish_game(game.id, timeout_outcome(4))
    assert (await db.games.game(game.id)).status is GameStatus.FINISHED
    assert await game_deadline(db, game.id) is None


async def test_no_limit_without_game_minutes(db: Database) -> None:
    await league_with_season(db)
    game = await stored_game(db, [1, 2, 3, 4])
    assert await game_deadline(db, game.id) is None


async def test_a_league_channel_gives_its_season_rules(db: Database) -> None:
    assert await season_for_channel(db, 111, CHANNEL) is None
    _, season = await league_with_season(db)
    found = await season_for_channel(db, 111, CHANNEL)
    assert found == season
    assert season_rules(season) == preset("tournament")
    assert await season_for_channel(db, 111, CHANNEL + 1) is None
