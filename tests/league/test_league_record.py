"""Recording real games: bots play seeded games through the engine, the log and result are
stored as the table service stores them, and `record_finished_game` turns them into league
records (replaying the log when the table does not hand over its final state)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from league_helpers import (
    CHANNEL,
    DIRECTOR,
    GUILD,
    FakeClock,
    card_text,
    league_with_season,
    play_and_finish,
    season_settings,
    stored_game,
    table_rules,
)

from bot.engine.cards import load_card
from bot.engine.game import preset
from bot.engine.game.scoring import tournament_throw_penalty
from bot.league.record import (
    UNKNOWN_HAND,
    details_from_state,
    game_rules,
    record_finished_game,
    record_missed_games,
    season_fit,
)
from bot.league.tournament import timeout_outcome
from bot.store import (
    CardSource,
    Database,
    FinishReason,
    Game,
    GameCard,
    GameStatus,
    Outcome,
    Pace,
    Season,
    SeatDetail,
    SeatScore,
)


async def test_a_thrown_mah_jongg_is_recorded_with_its_breakdown(db: Database) -> None:
    _, season = await league_with_season(db)
    rules = preset("tournament")
    game = await stored_game(db, [1, 2, 3, 4], seed=2, rules=rules)
    state = await play_and_finish(db, game, rules, seed=2)
    recorded = await record_finished_game(db, game.id)  # no state: the log is replayed
    assert recorded is not None and recorded.counted and recorded.note == ""
    assert recorded.season_id == season.id
    card = load_card(card_text())
    assert [replace(s.detail, moves=None) for s in recorded.seats] == details_from_state(
        state, card)
    # Each seat's moves are counted from the log (nobody's were played for them).
    assert sum(s.detail.moves or 0 for s in recorded.seats) == len(state.actions)
    assert not any(s.detail.played_for for s in recorded.seats)
    assert state.result is not None
    win = state.result.declared[0]
    winner = recorded.seats[win.seat]
    assert winner.won and winner.placement == 1
    assert winner.detail.hand_id == win.hand_id
    assert winner.detail.section == card.hand(win.hand_id).section
    assert winner.detail.hand_value == win.value
    assert winner.detail.exposures == win.exposures_before
    assert win.discarder is not None
    thrower = recorded.seats[win.discarder]
    penalty = tournament_throw_penalty(win.exposures_before)
    assert thrower.detail.threw and thrower.detail.penalty == penalty
    assert thrower.points == -penalty
    assert [s.points for s in recorded.seats] == list(state.result.totals)
    # A second call (another task, a retry) returns the same record.
    assert await record_finished_game(db, game.id, state=state) == recorded


async def test_the_tables_final_state_gives_the_same_record(db: Database,
                                                            tmp_path: Path) -> None:
    await league_with_season(db)
    rules = preset("tournament")
    game = await stored_game(db, [1, 2, 3, 4], seed=3, rules=rules)
    state = await play_and_finish(db, game, rules, seed=3)
    from_state = await record_finished_game(db, game.id, state=state)
    assert from_state is not None
    winner = next(s for s in from_state.seats if s.won)
    assert winner.detail.self_picked and not any(s.detail.threw for s in from_state.seats)
    async with Database(tmp_path / "other.db", clock=FakeClock()) as other:
        await league_with_season(other)
        again = await stored_game(other, [1, 2, 3, 4], seed=3, rules=rules)
        await play_and_finish(other, again, rules, seed=3)
        replayed = await record_finished_game(other, again.id)
    assert replayed is not None
    assert replayed.seats == from_state.seats


async def test_a_game_played_another_way_is_kept_but_not_counted(db: Database) -> None:
    _, season = await league_with_season(db, rules_name="standard")
    rules = preset("tournament")
    game = await stored_game(db, [1, 2, 3, 4], seed=1, rules=rules)
    await play_and_finish(db, game, rules, seed=1)
    recorded = await record_finished_game(db, game.id)
    assert recorded is not None and not recorded.counted
    assert recorded.note == "scored tournament; this season scores nmjl"
    assert await db.league_stats.standings(season.id) == []
    assert await db.league_games.ratings(season.id) == {}


def test_season_fit_names_the_difference() -> None:
    def game(rules: str, card: str = "jongg-original") -> Game:
        return Game(1, GUILD, CHANNEL, None, None, 1, GameStatus.FINISHED, rules,
                    GameCard(CardSource.SHIPPED, card, None, ""), 1, Pace("live"), True, 0.0,
                    0.0, 0.0)

    season = Season(1, 1, 1, season_settings("tournament"), 0.0, 1, None, None)
    tournament = preset("tournament")
    assert season_fit(season, game(table_rules(tournament))) == ""
    assert "3 players" in season_fit(season, game(table_rules(preset("3-player"))))
    assert "card other" in season_fit(season, game(table_rules(tournament), "other"))
    blanks = replace(tournament, blanks=2)
    assert season_fit(season, game(table_rules(blanks))).endswith("(blanks)")
    assert season_fit(season, game("not json")) == "its rules couldn't be read"
    assert game_rules("[]") is None


async def test_time_up_is_a_zero_for_everyone_and_a_tie(db: Database) -> None:
    _, season = await league_with_season(db, game_minutes=90)
    game = await stored_game(db, [1, 2, 3, 4])
    await db.games.finish_game(game.id, timeout_outcome(4))
    recorded = await record_finished_game(db, game.id)
    assert recorded is not None and recorded.reason is FinishReason.TIMEOUT and recorded.counted
    assert [(s.points, s.placement, s.won, s.wall_game) for s in recorded.seats] == [
        (0, 1, False, False)] * 4
    ratings = await db.league_games.ratings(season.id)
    assert all(mu == pytest.approx(25.0) for mu, _, _ in ratings.values())


async def test_a_log_that_no_longer_replays_still_gives_the_winning_hand(
        db: Database) -> None:
    await league_with_season(db)
    game = await stored_game(db, [1, 2, 3, 4])
    await db.games.finish_game(game.id, Outcome(
        FinishReason.MAHJONG, 2, tuple(SeatScore(s, p) for s, p in enumerate([0, 0, 30, 0])),
        json.dumps({"reason": "mahjong", "hands": ["r1"]})))
    recorded = await record_finished_game(db, game.id)  # no actions: nothing to replay
    assert recorded is not None
    assert [s.detail.hand_id for s in recorded.seats] == [None, None, "r1", None]
    card = load_card(card_text())
    assert recorded.seats[2].detail == SeatDetail(2, "r1", card.hand("r1").section,
                                                  card.hand("r1").value)


async def test_a_winner_without_a_stored_hand_still_counts_as_a_win(db: Database) -> None:
    _, season = await league_with_season(db)
    game = await stored_game(db, [1, 2, 3, 4])
    await db.games.finish_game(game.id, Outcome(
        FinishReason.MAHJONG, 1, tuple(SeatScore(s, p) for s, p in enumerate([0, 30, 0, 0]))))
    recorded = await record_finished_game(db, game.id)
    assert recorded is not None and recorded.seats[1].won
    assert recorded.seats[1].detail.hand_id == UNKNOWN_HAND
    assert (await db.league_stats.player_stats(season.id, 2)).wins == 1


async def test_games_outside_a_season_are_not_recorded(db: Database) -> None:
    league, _ = await league_with_season(db)
    await db.leagues.end_season(league.id, by=DIRECTOR)
    game = await stored_game(db, [1, 2, 3, 4])
    await db.games.finish_game(game.id, timeout_outcome(4))
    assert await record_finished_game(db, game.id) is None


async def test_a_crash_before_recording_loses_nothing(db_path: Path, clock: FakeClock) -> None:
    async with Database(db_path, clock=clock) as db:
        _, season = await league_with_season(db)
        rules = preset("tournament")
        game = await stored_game(db, [1, 2, 3, 4], seed=1, rules=rules)
        await play_and_finish(db, game, rules, seed=1)
        # ... and the process dies before record_finished_game runs.
    async with Database(db_path, clock=clock) as db:
        assert await db.league_games.unrecorded() == [game.id]
        assert await record_missed_games(db) == 1
        assert await db.league_games.unrecorded() == []
        assert await record_missed_games(db) == 0
        recorded = await db.league_games.game(game.id, guild_id=GUILD)
        assert recorded.season_id == season.id and recorded.counted
