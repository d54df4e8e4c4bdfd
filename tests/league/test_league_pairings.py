"""Seating tournament rounds: table sizes, a seeded first round, and later rounds that mix
opponents; plus rounds stored and their tables' games added up."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from league_helpers import DIRECTOR, finished_game, league_with_season

from bot.engine.errors import InvalidInput
from bot.league.pairings import meetings, seat_round, seating_cost, table_sizes
from bot.league.ratings import RATING_MODEL
from bot.store import Database, NoOpenSeason, RoundNotFound


def test_table_sizes_differ_by_at_most_one() -> None:
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(9, 4) == [3, 3, 3]
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(5, 4) == [3, 2]
    assert table_sizes(3, 3) == [3]
    assert table_sizes(0, 4) == []


def test_first_round_is_a_seeded_shuffle() -> None:
    players = list(range(1, 13))
    first = seat_round(players, 4, seed=42)
    assert first == seat_round(players[::-1], 4, seed=42)  # the order given does not matter
    assert first != seat_round(players, 4, seed=43)
    assert sorted(itertools.chain(*first)) == players
    assert [len(t) for t in first] == [4, 4, 4]


def test_later_rounds_mix_opponents() -> None:
    players = list(range(16))
    history: list[list[int]] = []
    for number in range(1, 6):
        tables = seat_round(players, 4, history, seed=number)
        assert sorted(itertools.chain(*tables)) == players
        if number <= 2:  # 16 players can play two rounds without meeting anyone twice
            assert seating_cost(tables, meetings(history)) == 0
        history.extend(tables)
    met = meetings(history)
    # Five rounds of 16 players make 5 * 4 * 6 = 120 pairings out of 120 possible pairs:
    # nobody meets anyone three times, and most pairs meet once.
    assert max(met.values()) <= 2
    assert sum(1 for count in met.values() if count == 1) >= 70


def test_repeats_are_avoided_even_when_they_cannot_all_be() -> None:
    players = list(range(8))
    history: list[list[int]] = []
    for number in range(4):
        history.extend(seat_round(players, 4, history, seed=number))
    counts = Counter(meetings(history).values())
    # 4 rounds x 2 tables x 6 pairs = 48 pairings over 28 pairs: spread as evenly as 1-2.
    assert set(counts) <= {1, 2, 3}
    assert counts.get(3, 0) <= 4


def test_bad_seating_requests() -> None:
    with pytest.raises(InvalidInput, match="at least 4 registered players"):
        seat_round([1, 2, 3], 4, seed=1)
    with pytest.raises(InvalidInput, match="twice"):
        seat_round([1, 1, 2, 3], 4, seed=1)


def test_a_big_league_is_seated_quickly() -> None:
    players = list(range(400))
    history = seat_round(players, 4, seed=1)
    tables = seat_round(players, 4, history, seed=2)
    assert seating_cost(tables, meetings(history)) == 0


async def test_rounds_are_stored_and_their_games_added_up(db: Database) -> None:
    league, season = await league_with_season(db)
    with pytest.raises(RoundNotFound, match="no rounds yet"):
        await db.league_rounds.round(season.id)
    tables = [[1, 2, 3, 4], [5, 6, 7, 8]]
    first = await db.league_rounds.start_round(season.id, 1, tables, seed=9, by=DIRECTOR)
    assert [t.user_ids for t in first.tables] == [(1, 2, 3, 4), (5, 6, 7, 8)]
    assert await db.league_rounds.past_tables(season.id) == [(1, 2, 3, 4), (5, 6, 7, 8)]
    # Table 2 plays two games (one with a bot in for player 8), table 1 one game; a game of
    # people from different tables belongs to no table.
    played: list[tuple[list[int | None], list[int]]] = [
        ([5, 6, 7, 8], [25, 0, 0, -10]), ([6, 5, None, 7], [0, 30, 0, 0]),
        ([1, 2, 3, 4], [0, 0, 20, 0]), ([1, 5, 3, 4], [50, 0, 0, 0])]
    for users, points in played:
        game = await finished_game(db, users, points, winner=points.index(max(points)))
        recorded = await db.league_games.record(game.id, [], counted=True, model=RATING_MODEL)
        assert recorded is not None
    scores = {(s.table_no, s.user_id): (s.games, s.points)
              for s in await db.league_rounds.scores(first.id)}
    assert scores[(2, 5)] == (2, 55)
    assert scores[(2, 8)] == (1, -10)
    assert scores[(1, 3)] == (1, 20)
    assert scores[(1, 1)] == (1, 0)
    assert (await db.league_rounds.round(season.id, 1)).id == first.id
    await db.leagues.end_season(league.id, by=DIRECTOR)
    with pytest.raises(NoOpenSeason):
        await db.league_rounds.start_round(season.id, 2, tables, seed=1, by=DIRECTOR)
