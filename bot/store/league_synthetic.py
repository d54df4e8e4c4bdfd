"""Made-up seasons for benchmarks and load tests: thousands of finished games written in one
transaction.

Each table is filled by one `INSERT … VALUES` run over every row built in Python (one trip
to the database, `execute_many`), in SQL that SQLite and PostgreSQL both read, so a season
of 10,000 games takes seconds instead of the 80,000 transactions that playing them through
the API would. Game ids are reserved from the games table's own numbering, so games created
afterwards (on either database) never collide with the made-up ones. The rows are the same
as real ones — games, seats, results, and the league's records and ratings — so queries
measured on them behave as on a real season. Never used by the bot itself.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from bot.store.league_games import _rebuild_ratings, placements
from bot.store.league_models import RatingModel
from bot.store.league_rows import fetch_season
from bot.store.rows import Part, check_int
from bot.store.tx import Tx

#: The card of every made-up game (its text is a placeholder: nobody replays them).
CARD = "synthetic"
HANDS = (("r1", "Runs", 25), ("a5", "2468", 30), ("o3", "Odds", 35), ("w2", "Winds", 40))


class LeagueSynthetic(Part):
    """Writes made-up seasons (`LeagueSynthetic(db).fill(...)`); not a `Database` topic."""

    async def fill(self, season_id: int, *, games: int, players: int, seed: int,
                   model: RatingModel, first_user: int = 10_000) -> int:
        """Add `games` finished games among `players` people (user ids from `first_user`) to
        the season, recorded and rated; returns the first game id. Tables seat the
        season's number of players; about one game in ten is a wall game."""
        check_int(games, "games", minimum=1)
        check_int(players, "players", minimum=2)
        rng = random.Random(seed)
        now = self._db.now()
        async with self._db.transaction() as tx:
            season = await fetch_season(tx, season_id)
            size = season.settings.players
            if players < size:
                raise ValueError(f"a table needs {size} players")
            league = await tx.fetchone("SELECT guild_id, channel_id FROM leagues WHERE id = ?",
                                       (season.league_id,))
            assert league is not None
            ids = await tx.reserve_ids("games", games)
            plan = [_game(rng, game_id, first_user, players, size, season.started_at + n)
                    for n, game_id in enumerate(ids)]
            await _insert_all(tx, plan, guild_id=int(league["guild_id"]),
                              channel_id=int(league["channel_id"]), season_id=season.id,
                              rules=season.settings.rules, now=now)
            await tx.execute_many(
                "INSERT INTO league_players (league_id, user_id, display_name, registered, "
                "joined_at) VALUES (?, ?, ?, 1, ?) ON CONFLICT DO NOTHING",
                [(season.league_id, user, f"Player {user}", now)
                 for user in range(first_user, first_user + players)])
            await _rebuild_ratings(tx, season.id, model)
            return ids[0]


def _game(rng: random.Random, game_id: int, first_user: int, players: int, size: int,
          finished_at: float) -> dict[str, Any]:
    users = [first_user + u for u in rng.sample(range(players), size)]
    wall = rng.random() < 0.1
    if wall:
        points = [10] * size
        winner = None
        hand = None
    else:
        winner = rng.randrange(size)
        hand = rng.choice(HANDS)
        points = [0] * size
        points[winner] = hand[2] + rng.choice((0, 10, 20, 30))
        thrower = rng.choice([s for s in range(size) if s != winner] + [-1])
        if thrower >= 0:
            points[thrower] = -rng.choice((10, 20, 25))
    return {"id": game_id, "users": users, "points": points, "winner": winner, "hand": hand,
            "wall": wall, "finished_at": finished_at}


async def _bulk(tx: Tx, table: str, columns: str, rows: Sequence[Sequence[Any]]) -> None:
    """Insert `rows` (values for the space-separated `columns`) into `table`, in one trip."""
    names = columns.split()
    await tx.execute_many(
        f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
        rows)


async def _insert_all(tx: Tx, plan: Sequence[dict[str, Any]], *, guild_id: int,
                      channel_id: int, season_id: int, rules: str, now: float) -> None:
    snapshot = json.dumps({"engine": json.loads(rules)})
    await _bulk(
        tx, "games",
        "id guild_id channel_id host_user_id status rules card_source card_name card_text "
        "seed pace_name hints created_at started_at finished_at",
        [(g["id"], guild_id, channel_id, g["users"][0], "finished", snapshot, "shipped", CARD,
          "", 0, "untimed", 0, g["finished_at"], g["finished_at"], g["finished_at"])
         for g in plan])
    seats: list[tuple[Any, ...]] = []
    result_seats: list[tuple[Any, ...]] = []
    results: list[tuple[Any, ...]] = []
    league_games: list[tuple[Any, ...]] = []
    league_results: list[tuple[Any, ...]] = []
    for g in plan:
        reason = "wall" if g["wall"] else "mahjong"
        results.append((g["id"], reason, g["winner"], g["finished_at"]))
        league_games.append((g["id"], season_id, reason, 1, g["finished_at"], now))
        places = placements(g["points"], tie=g["wall"])
        for seat, (user, points) in enumerate(zip(g["users"], g["points"], strict=True)):
            name = f"Player {user}"
            seats.append((g["id"], seat, user, name, 0, g["finished_at"]))
            result_seats.append((g["id"], seat, user, name, 0, points))
            won = seat == g["winner"]
            hand = g["hand"] if won else (None, None, None)
            league_results.append((g["id"], seat, season_id, 1, user, name, 0, points, points,
                                   places[seat], int(won), *hand, 0, 0, None,
                                   int(points < 0), -min(points, 0), int(g["wall"]), 0))
    await _bulk(tx, "seats", "game_id seat user_id display_name is_bot joined_at", seats)
    await _bulk(tx, "results", "game_id reason winner_seat recorded_at", results)
    await _bulk(tx, "result_seats", "game_id seat user_id display_name is_bot points",
                result_seats)
    await _bulk(tx, "league_games",
                "game_id season_id reason counted finished_at recorded_at", league_games)
    await _bulk(
        tx, "league_results",
        "game_id seat season_id counted user_id display_name is_bot points table_points "
        "placement won hand_id section hand_value self_picked jokerless exposures threw "
        "penalty wall_game dead", league_results)
