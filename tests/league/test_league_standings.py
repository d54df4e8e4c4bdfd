"""Standings and ratings of a hand-made season with known answers, and the ranking rules."""

from __future__ import annotations

import pytest
from league_helpers import GUILD, finished_game, league_with_season

from bot.league.ratings import RATING_MODEL, RatingPair, conservative
from bot.league.standings import (
    IMAGE_ROWS,
    TEXT_LIMIT,
    Standing,
    format_table,
    rank_standings,
    standings_scene,
)
from bot.store import Database, FinishReason, PlayerTotals, SeatDetail

# (seat holders, points, winner seat or None for a wall game, counted)
SEASON: list[tuple[list[int | None], list[int], int | None, bool]] = [
    ([1, 2, 3, 4], [25, 0, 0, -10], 0, True),
    ([1, 2, 3, 5], [0, 45, 0, 0], 1, True),
    ([1, 2, None, 4], [0, -10, 30, 0], 2, True),   # the bot wins
    ([1, 3, 4, 5], [10, 10, 10, 0], None, True),   # wall game; 5's hand was dead
    ([1, 2, 3, 4], [100, 0, 0, 0], 0, False),      # not counted
]


async def play_season(db: Database, min_games: int = 3) -> int:
    _, season = await league_with_season(db, min_games=min_games)
    for users, points, winner, counted in SEASON:
        game = await finished_game(db, users, points, winner=winner)
        details = [SeatDetail(winner, "r1", "Runs", 25)] if winner is not None else []
        await db.league_games.record(game.id, details, counted=counted, model=RATING_MODEL)
    return season.id


def by_hand() -> dict[int, RatingPair]:
    """The season's ratings worked game by game: places among all seats, bots dropped."""
    ratings: dict[int, RatingPair] = {}
    games = [
        ([1, 2, 3, 4], [1, 2, 2, 4]),
        ([1, 2, 3, 5], [2, 1, 2, 2]),
        ([1, 2, 4], [2, 4, 2]),          # the bot placed 1st
        ([1, 3, 4, 5], [1, 1, 1, 1]),    # a wall game is a tie
    ]
    for users, ranks in games:
        new = RATING_MODEL.rate([ratings.get(u, RATING_MODEL.initial()) for u in users], ranks)
        ratings.update(zip(users, new, strict=True))
    return ratings


async def test_a_hand_made_season(db: Database) -> None:
    season_id = await play_season(db)
    totals = await db.league_stats.standings(season_id)
    rows = rank_standings(totals, min_games=3)
    got = [(r.rank, r.user_id, r.games, r.wins, r.points) for r in rows]
    assert got == [
        (1, 2, 3, 1, 35),      # 35 points in 3 games beats 35 in 4 on points per game
        (2, 1, 4, 1, 35),
        (3, 3, 3, 0, 10),
        (4, 4, 3, 0, 0),
        (None, 5, 2, 0, 0),    # below the minimum: listed, not ranked
    ]
    assert rows[0].per_game == pytest.approx(35 / 3)
    expected = by_hand()
    for row in rows:
        mu, sigma = expected[row.user_id]
        assert row.rating == pytest.approx(conservative(mu, sigma), abs=1e-9)
    ratings = await db.league_games.ratings(season_id)
    assert {u: (mu, sigma) for u, (mu, sigma, _) in ratings.items()} == expected
    assert {u: n for u, (_, _, n) in ratings.items()} == {1: 4, 2: 3, 3: 3, 4: 3, 5: 2}


async def test_rebuilt_ratings_equal_the_recorded_ones(db: Database) -> None:
    season_id = await play_season(db)
    recorded = await db.league_games.ratings(season_id)
    assert await db.league_games.rebuild_ratings(season_id, RATING_MODEL) == 5
    assert await db.league_games.ratings(season_id) == recorded


async def test_player_stats(db: Database) -> None:
    season_id = await play_season(db)
    stats = await db.league_stats.player_stats(season_id, 1)
    assert (stats.games, stats.wins, stats.points, stats.best_game) == (4, 1, 35, 25)
    assert stats.wall_games == 1
    assert [(h.hand_id, h.wins) for h in stats.favourite_hands] == [("r1", 1)]
    rivals = {h.user_id: (h.games, h.ahead, h.behind, h.level) for h in stats.head_to_head}
    # vs 2: G1 ahead, G2 behind, G3 ahead (2nd vs 4th); vs 3: G1 ahead, G2 level, G4 level.
    assert rivals[2] == (3, 2, 1, 0)
    assert rivals[3] == (3, 1, 0, 2)
    assert None not in rivals
    nobody = await db.league_stats.player_stats(season_id, 77)
    assert (nobody.games, nobody.best_game, nobody.mu) == (0, None, None)


async def test_history_names_the_leader(db: Database) -> None:
    await play_season(db)
    league = (await db.leagues.leagues(GUILD))[0]
    summaries = await db.league_stats.history(league.id)
    assert len(summaries) == 1
    # Players 1 and 2 both have 35; the leader is the one who needed fewer games.
    assert (summaries[0].games, summaries[0].leader_id, summaries[0].leader_points) == (4, 2, 35)


async def test_recent_games(db: Database) -> None:
    season_id = await play_season(db)
    recent = await db.league_games.recent(season_id, limit=2)
    assert [g.counted for g in recent] == [False, True]
    assert recent[1].reason is FinishReason.WALL
    assert all(s.placement == 1 for s in recent[1].seats)
    assert [s.wall_game for s in recent[1].seats] == [True] * 4


def totals(user: int, games: int, wins: int, points: int) -> PlayerTotals:
    return PlayerTotals(user, f"P{user}", games, wins, points, None, None)


def test_ties_share_a_rank_and_the_next_rank_skips() -> None:
    rows = rank_standings([totals(1, 4, 1, 40), totals(2, 4, 1, 40), totals(3, 4, 2, 30),
                           totals(4, 2, 0, 40)])
    assert [(r.user_id, r.rank) for r in rows] == [(4, 1), (1, 2), (2, 2), (3, 4)]


def test_no_minimum_ranks_everyone() -> None:
    rows = rank_standings([totals(1, 1, 1, 50), totals(2, 9, 3, 40)], min_games=0)
    assert [r.rank for r in rows] == [1, 2]
    rows = rank_standings([totals(1, 1, 1, 50), totals(2, 9, 3, 40)], min_games=5)
    assert [(r.user_id, r.rank) for r in rows] == [(2, 1), (1, None)]


def test_text_table_fits_a_discord_message() -> None:
    many = [Standing(i + 1, i, "Ñame " * 10 + "`x`", 30, 5, 1000 - i, 1.5) for i in range(500)]
    text = format_table(many)
    assert len(text) <= TEXT_LIMIT
    assert text.startswith("```\n") and "… and" in text and "`x`" not in text.split("```")[1]
    short = format_table(many[:3])
    assert short.count("\n") == 5 and "more" not in short
    assert "No counted games" in format_table([])


def test_scene_keeps_the_top_rows_and_explains_the_dash() -> None:
    rows = [Standing(None if i > 40 else i + 1, i, f"P{i}", 1, 0, 0, None) for i in range(45)]
    scene = standings_scene("T", "S", rows, min_games=3)
    assert len(scene.rows) == IMAGE_ROWS
    assert "15 more" in scene.footer and "fewer than 3 games" in scene.footer
