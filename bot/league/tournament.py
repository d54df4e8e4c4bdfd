"""The tournament time limit: when a league game's time is up, everyone scores 0.

Tournament rules stop a game that runs past its time and give every player zero for it (no
wall-game bonus, no penalties). A season with `game_minutes` set applies that to every game
of its channel. The table layer owns the clock; this module says when it runs out
(`game_deadline`) and what the game's result is then (`timeout_outcome`), which the table
passes to `finish_game` like any other ending. Recording such a game makes it a tie for the
ratings.
"""

from __future__ import annotations

import json

from bot.store import Database, FinishReason, GameStatus, Outcome, SeatScore

TIME_UP = "Time's up: the game stops and every player scores 0."


def timeout_outcome(players: int) -> Outcome:
    """The result of a game stopped by the time limit: 0 points for each of `players`
    seats, with a breakdown line in the shape the table service stores."""
    if not 2 <= players <= 4:
        raise ValueError("a table has 2 to 4 players")
    breakdown = json.dumps({"lines": [{"text": TIME_UP, "points": 0}], "settlement": 0,
                            "timeout": True})
    return Outcome(FinishReason.TIMEOUT, None,
                   tuple(SeatScore(seat, 0, breakdown) for seat in range(players)),
                   json.dumps({"reason": "timeout", "hands": []}))


def deadline(started_at: float, game_minutes: int | None) -> float | None:
    """When a game started at `started_at` runs out of time (None: no limit)."""
    return None if game_minutes is None else started_at + 60.0 * game_minutes


async def game_deadline(db: Database, game_id: int) -> float | None:
    """When this game's time is up (UTC epoch seconds), or None: it is not being played, is
    not in a league's channel, or the league's open season has no time limit."""
    game = await db.games.game(game_id)
    if game.status is not GameStatus.PLAYING or game.started_at is None:
        return None
    league = await db.leagues.league_in_channel(game.guild_id, game.channel_id)
    if league is None:
        return None
    season = await db.leagues.current_season(league.id)
    if season is None:
        return None
    return deadline(game.started_at, season.settings.game_minutes)
