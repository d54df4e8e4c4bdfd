"""What the store's benchmarks put in a fresh database before they measure: a big made-up
league season, and games started as a table starts them (seats taken one by one)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.game import preset
from bot.engine.game.rules import rules_to_json
from bot.league.ratings import RATING_MODEL
from bot.store import Database, Game, Pace, Season, SeasonSettings, ShippedCardChoice
from bot.store.league_synthetic import LeagueSynthetic

GUILD, CHANNEL, DIRECTOR = 1, 2, 3
UNTIMED = Pace("untimed")


async def big_season(db: Database, *, games: int, players: int) -> Season:
    """A league with one season of `games` finished, recorded and rated games among
    `players` people (user ids from 10,000), made up in bulk (`LeagueSynthetic`), the
    database settled after (`Database.settle`)."""
    league = await db.leagues.create_league(GUILD, "Bench", CHANNEL, created_by=DIRECTOR)
    season = await db.leagues.start_season(
        league.id, SeasonSettings("Season 1", 4, "synthetic", "tournament",
                                  rules_to_json(preset("tournament")), min_games=5),
        by=DIRECTOR)
    await LeagueSynthetic(db).fill(season.id, games=games, players=players, seed=1,
                                   model=RATING_MODEL)
    await db.settle()  # a real season's rows pile up over months, vacuumed meanwhile
    return season


async def started_game(db: Database, seed: int, users: Sequence[int],
                       pace: Pace = UNTIMED) -> Game:
    """A game of the bench's server created, one seat taken per user and started: the
    transactions a table's lobby makes."""
    game = await db.games.create_game(
        guild_id=GUILD, channel_id=CHANNEL, host_user_id=users[0], rules="{}",
        card=ShippedCardChoice("synthetic", ""), seed=seed, pace=pace, hints=False)
    for seat, user in enumerate(users):
        await db.seats.add_seat(game.id, seat, user_id=user, display_name=f"P{seat}")
    return await db.games.start_game(game.id, len(users))
