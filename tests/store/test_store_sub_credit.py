"""A seat handed on during play (`/mj sub`) in a league, on both databases (migration 0014):
the season says whom it counts for. `most-moves` gives the whole seat (points, placement,
win, rating) to the person who made most of its own moves; `shared` shares its counted
points by moves and leaves the rest with that person. Every holder is kept with their moves
and points, and the standings, a player's stats and the season's leader add them up."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from league_helpers import DIRECTOR, season_settings, stored_game

from bot.league.ratings import RATING_MODEL
from bot.league.record import record_finished_game
from bot.store import (
    Database,
    FinishReason,
    Outcome,
    PlayedFor,
    SeatHolder,
    SeatScore,
    SubCredit,
)
from bot.store.league_games import split_points

WINDS = ("East", "South", "West", "North")
#: Seat 1 wins. Its player 1001 makes its first 3 moves (log 1, 5, 9); 1005 takes it over at
#: log 12 and makes 4 of the next 5 (a timeout made log 17 for him).
POINTS = [-10, 40, -15, -15]
SUB_AT, MOVES, TIMED_OUT = 12, 32, 17


async def _subbed_game(db: Database) -> int:
    """A finished game of 1000-1003 in the league's channel whose seat 1 went to 1005."""
    game = await stored_game(db, [1000, 1001, 1002, 1003])
    log = [(f"{WINDS[seq % 4]}: pass", None) for seq in range(MOVES)]
    await db.actions.append_actions(game.id, 0, log[:SUB_AT])
    await db.seats.replace_seat(game.id, 1, user_id=1005, display_name="P1005")
    await db.actions.append_actions(game.id, SUB_AT, log[SUB_AT:],
                                    played_for={TIMED_OUT - SUB_AT: PlayedFor.TIMEOUT})
    await db.games.finish_game(game.id, Outcome(
        FinishReason.MAHJONG, 1, tuple(SeatScore(s, p) for s, p in enumerate(POINTS)),
        json.dumps({"reason": "mahjong", "hands": ["r1"]})))
    return game.id


@pytest.mark.parametrize(("credit", "shares"), [
    (SubCredit.MOST_MOVES, {1001: 0, 1005: 40}),
    (SubCredit.SHARED, {1001: 17, 1005: 23}),
], ids=lambda v: v.value if isinstance(v, SubCredit) else None)
async def test_a_substituted_seat_counts_as_the_season_says(
        db: Database, credit: SubCredit, shares: dict[int, int]) -> None:
    league = await db.leagues.create_league(111, "Friday", 222, created_by=DIRECTOR)
    season = await db.leagues.start_season(
        league.id, replace(season_settings(), sub_credit=credit), by=DIRECTOR)
    assert (await db.leagues.season(league.id)).settings.sub_credit is credit
    recorded = await record_finished_game(db, await _subbed_game(db))
    assert recorded is not None and recorded.counted

    seat = recorded.seats[1]
    assert (seat.user_id, seat.placement, seat.won) == (1005, 1, True)
    assert seat.points == shares[1005] and seat.table_points == 40
    assert seat.detail.holders == (SeatHolder(1001, "P1001", 3, False, shares[1001]),
                                   SeatHolder(1005, "P1005", 4, True, shares[1005]))
    assert [s.detail.holders for s in recorded.seats if s.seat != 1] == [(), (), ()]

    totals = {t.user_id: (t.games, t.wins, t.points)
              for t in await db.league_stats.standings(season.id)}
    expected = {1000: (1, 0, -10), 1002: (1, 0, -15), 1003: (1, 0, -15),
                1005: (1, 1, shares[1005])}
    if shares[1001]:
        expected[1001] = (0, 0, shares[1001])  # points, but the seat's game is 1005's
    assert totals == expected
    assert (await db.league_stats.player_stats(season.id, 1001)).points == shares[1001]
    assert (await db.league_stats.player_stats(season.id, 1005)).points == shares[1005]
    [summary] = await db.league_stats.history(league.id)
    assert (summary.leader_id, summary.leader_points) == (1005, shares[1005])
    # The rating is the credited player's: the game had one player per seat.
    assert set(await db.league_games.ratings(season.id)) == {1000, 1002, 1003, 1005}
    # A director's correction of the credited player moves their share with the seat.
    fixed = await db.league_games.adjust_points(recorded.game_id, 1005, 30, guild_id=111,
                                                by=DIRECTOR, reason="miscount",
                                                model=RATING_MODEL)
    assert fixed.seats[1].detail.holders[1].points == 30


def test_seasons_count_a_substituted_seat_for_most_moves_unless_told() -> None:
    assert season_settings().sub_credit is SubCredit.MOST_MOVES


def test_points_are_shared_in_whole_points_that_add_up() -> None:
    assert split_points(40, [3, 4]) == [17, 23]
    assert split_points(-40, [3, 4]) == [-17, -23]
    assert split_points(10, [1, 1, 1]) == [4, 3, 3]  # the unit left goes to the earlier
    assert split_points(25, [0, 5]) == [0, 25]
    assert split_points(0, [2, 9]) == [0, 0]
    with pytest.raises(ValueError, match="not all 0"):
        split_points(5, [0, 0])
