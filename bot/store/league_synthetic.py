"""Made-up seasons for benchmarks and load tests: thousands of finished games written in one
transaction.

Each table is filled by a single `INSERT … SELECT … FROM json_each(?)` over rows built in
Python, so a season of 10,000 games takes about a second instead of the 80,000 transactions
that playing them through the API would. The rows are the same as real ones — games, seats,
results, and the league's records and ratings — so queries measured on them behave as on a
real season. Never used by the bot itself.
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
            row = await tx.fetchone("SELECT coalesce(max(id), 0) + 1 AS next FROM games")
            first_game = 1 if row is None else int(row["next"])
            plan = [_game(rng, first_game + n, first_user, players, size,
                          season.started_at + n) for n in range(games)]
            await _insert_all(tx, plan, guild_id=int(league["guild_id"]),
                              channel_id=int(league["channel_id"]), season_id=season.id,
                              rules=season.settings.rules, now=now)
            await tx.execute(
                "INSERT INTO league_players (league_id, user_id, display_name, registered, "
                "joined_at) SELECT ?, value, 'Player ' || value, 1, ? "
                "FROM json_each(?) WHERE 1 ON CONFLICT DO NOTHING",
                (season.league_id, now,
                 json.dumps(list(range(first_user, first_user + players)))))
            await _rebuild_ratings(tx, season.id, model)
            return first_game


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


def _v(index: int) -> str:
    """Item `index` of the JSON array `json_each` hands out as `value`."""
    return f"json_extract(value, '$[{index}]')"


async def _bulk(tx: Tx, table: str, columns: Sequence[str], values: Sequence[str],
                rows: Sequence[Sequence[Any]], *params: Any) -> None:
    """One INSERT of every row: `values` are SQL expressions over `value` (a row) and `?`s
    for `params`, which come before the rows."""
    await tx.execute(
        f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} "
        "FROM json_each(?)", (*params, json.dumps(rows)))


async def _insert_all(tx: Tx, plan: Sequence[dict[str, Any]], *, guild_id: int,
                      channel_id: int, season_id: int, rules: str, now: float) -> None:
    await _bulk(
        tx, "games",
        ["id", "guild_id", "channel_id", "host_user_id", "status", "rules", "card_source",
         "card_name", "card_text", "seed", "pace_name", "hints", "created_at", "started_at",
         "finished_at"],
        [_v(0), "?", "?", _v(1), "'finished'", "?", "'shipped'", "?", "''", "0", "'untimed'",
         "0", _v(2), _v(2), _v(2)],
        [[g["id"], g["users"][0], g["finished_at"]] for g in plan],
        guild_id, channel_id, json.dumps({"engine": json.loads(rules)}), CARD)
    seats: list[list[Any]] = []
    results: list[list[Any]] = []
    league_games: list[list[Any]] = []
    league_results: list[list[Any]] = []
    for g in plan:
        reason = "wall" if g["wall"] else "mahjong"
        results.append([g["id"], reason, g["winner"], g["finished_at"]])
        league_games.append([g["id"], reason, g["finished_at"]])
        places = placements(g["points"], tie=g["wall"])
        for seat, (user, points) in enumerate(zip(g["users"], g["points"], strict=True)):
            seats.append([g["id"], seat, user, f"Player {user}", g["finished_at"], points])
            won = seat == g["winner"]
            hand = g["hand"] if won else (None, None, None)
            league_results.append([g["id"], seat, user, f"Player {user}", points,
                                   places[seat], int(won), hand[0], hand[1], hand[2],
                                   int(points < 0), -min(points, 0), int(g["wall"])])
    await _bulk(tx, "seats",
                ["game_id", "seat", "user_id", "display_name", "is_bot", "joined_at"],
                [_v(0), _v(1), _v(2), _v(3), "0", _v(4)], seats)
    await _bulk(tx, "results", ["game_id", "reason", "winner_seat", "recorded_at"],
                [_v(0), _v(1), _v(2), _v(3)], results)
    await _bulk(tx, "result_seats",
                ["game_id", "seat", "user_id", "display_name", "is_bot", "points"],
                [_v(0), _v(1), _v(2), _v(3), "0", _v(5)], seats)
    await _bulk(tx, "league_games",
                ["game_id", "season_id", "reason", "counted", "finished_at", "recorded_at"],
                [_v(0), "?", _v(1), "1", _v(2), "?"], league_games, season_id, now)
    await _bulk(
        tx, "league_results",
        ["game_id", "seat", "season_id", "counted", "user_id", "display_name", "is_bot",
         "points", "table_points", "placement", "won", "hand_id", "section", "hand_value",
         "self_picked", "jokerless", "exposures", "threw", "penalty", "wall_game", "dead"],
        [_v(0), _v(1), "?", "1", _v(2), _v(3), "0", _v(4), _v(4), _v(5), _v(6), _v(7), _v(8),
         _v(9), "0", "0", "NULL", _v(10), _v(11), _v(12), "0"],
        league_results, season_id)
