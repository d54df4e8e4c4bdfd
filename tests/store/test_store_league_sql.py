"""The league's reads and writes on both databases (`db` runs each test on SQLite and on
PostgreSQL): a made-up season (`bot.store.league_synthetic`) and one game recorded through
the API, read back through standings, a player's stats, the CSV rows and a rebuild of the
ratings, every answer checked against the rows themselves. PostgreSQL refuses SQL that
SQLite lets pass (sums of booleans, `CROSS JOIN … ON`, columns neither grouped nor
aggregated, an upsert's unqualified column), so these are what keeps that SQL portable."""

from __future__ import annotations

from collections import Counter

from bot.bench.seeding import DIRECTOR, big_season, started_game
from bot.league.ratings import RATING_MODEL
from bot.store import Database, FinishReason, Outcome, SeatDetail, SeatScore

SEASON_GAMES, PLAYERS = 40, 6
PEOPLE = [10_000, 10_001, 10_002, 10_003]
POINTS = [50, -20, -15, -15]


async def _play(db: Database, details: list[SeatDetail]) -> int:
    """A game of `PEOPLE` at the league's channel, finished with `POINTS` and recorded."""
    game = await started_game(db, 1, PEOPLE)
    await db.games.finish_game(game.id, Outcome(
        FinishReason.MAHJONG, 0, tuple(SeatScore(s, p) for s, p in enumerate(POINTS))))
    assert await db.league_games.record(game.id, details, counted=True,
                                        model=RATING_MODEL) is not None
    return game.id


async def test_a_season_reads_back_what_its_rows_hold(db: Database) -> None:
    season = await big_season(db, games=SEASON_GAMES, players=PLAYERS)
    game_id = await _play(db, [SeatDetail(0, "r1", "Runs", 25, self_picked=True,
                                          jokerless=True), SeatDetail(1, threw=True)])
    assert game_id == SEASON_GAMES + 1  # the made-up games' ids were taken from the table's

    rows = await db.league_stats.export_rows(season.id)
    assert len(rows) == 4 * (SEASON_GAMES + 1)
    assert [r.game_id for r in rows] == sorted(r.game_id for r in rows)  # recording order
    assert rows[-4].game_id == game_id and rows[-4].self_picked and rows[-3].threw

    totals = {t.user_id: t for t in await db.league_stats.standings(season.id)}
    points: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    for row in rows:
        assert row.user_id is not None
        points[row.user_id] += row.points
        wins[row.user_id] += row.won
    assert {u: t.points for u, t in totals.items()} == dict(points)
    assert {u: t.wins for u, t in totals.items()} == dict(wins)
    assert all(t.mu is not None for t in totals.values())

    stats = await db.league_stats.player_stats(season.id, PEOPLE[0])
    mine = [r for r in rows if r.user_id == PEOPLE[0]]
    assert stats.games == len(mine) and stats.points == points[PEOPLE[0]]
    assert stats.self_picks == sum(r.won and r.self_picked for r in mine) >= 1
    assert stats.jokerless_wins == sum(r.won and r.jokerless for r in mine) >= 1
    assert stats.threw == sum(r.threw for r in mine)
    by_game = {(r.game_id, r.user_id): r.placement for r in rows}
    for rival in stats.head_to_head:
        shared = [g for g, u in by_game if u == PEOPLE[0] and (g, rival.user_id) in by_game]
        places = [(by_game[g, PEOPLE[0]], by_game[g, rival.user_id]) for g in shared]
        assert (rival.games, rival.ahead, rival.behind, rival.level) == (
            len(places), sum(a < b for a, b in places), sum(a > b for a, b in places),
            sum(a == b for a, b in places))
        assert rival.display_name == f"Player {rival.user_id}"

    assert await db.league_games.rebuild_ratings(season.id, RATING_MODEL) == PLAYERS


async def test_bots_join_once_and_a_round_adds_up_its_table(db: Database) -> None:
    season = await big_season(db, games=SEASON_GAMES, players=PLAYERS)
    newcomer = 20_000
    joined = await db.leagues.join(season.league_id, newcomer, "Ann")
    assert (joined.display_name, joined.registered) == ("Ann", True)
    assert await db.leagues.join(season.league_id, newcomer, "Ann again") == joined
    first = await db.league_rounds.start_round(season.id, 1, [PEOPLE], seed=1, by=DIRECTOR)
    await _play(db, [SeatDetail(0, "r1", "Runs", 25)])
    scores = await db.league_rounds.scores(first.id)
    assert [(s.user_id, s.games, s.points) for s in scores] == sorted(
        zip(PEOPLE, [1] * 4, POINTS, strict=True), key=lambda s: (-s[2], s[0]))
    assert {s.display_name for s in scores} == {f"Player {u}" for u in PEOPLE}
