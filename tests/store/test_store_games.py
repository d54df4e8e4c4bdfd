"""Games from lobby to result: seats, status rules, results, and a restart in the middle."""

from __future__ import annotations

import json

import pytest
from store_helpers import RULES, FakeClock, new_game

from bot.engine.errors import MahjongError
from bot.store import (
    AlreadySeated,
    CardSource,
    ClockKind,
    Database,
    FinishReason,
    GameNotFound,
    GameStatus,
    Outcome,
    Pace,
    SeatEmpty,
    SeatScore,
    SeatTaken,
    ServerCardChoice,
    StoreError,
    TableNotFull,
    WrongStatus,
)


async def test_create_game_keeps_everything(db: Database, clock: FakeClock) -> None:
    game = await new_game(db, start=False, seed=2**63 - 1)
    assert game.status is GameStatus.LOBBY
    assert game.seed == 2**63 - 1
    assert json.loads(game.rules) == json.loads(RULES)
    assert game.card.source is CardSource.SHIPPED and game.card.name == "sample-2026"
    assert game.pace == Pace("normal", 120, 15)
    assert game.hints is True
    assert game.created_at == clock.now and game.started_at is None
    assert await db.games.game(game.id) == game


async def test_bad_values_are_refused_before_sql(db: Database) -> None:
    game = await new_game(db)
    with pytest.raises(ValueError, match="seed"):
        await new_game(db, seed=2**64)
    with pytest.raises(ValueError, match="JSON"):
        await db.games.create_game(
            guild_id=1, channel_id=2, host_user_id=3, rules="{not json",
            card=ServerCardChoice(1), seed=1, pace=Pace("x"), hints=False)
    with pytest.raises(ValueError, match="one non-empty line"):
        await db.actions.append_action(game.id, 0, "two\nlines", None)


async def test_lobby_seating(db: Database) -> None:
    game = await new_game(db, start=False, players=2)
    with pytest.raises(SeatTaken) as taken:
        await db.seats.add_seat(game.id, 0, user_id=5, display_name="Eve")
    assert "Player 0" in taken.value.message
    with pytest.raises(AlreadySeated):
        await db.seats.add_seat(game.id, 2, user_id=1000, display_name="Player 0 again")
    bot = await db.seats.add_seat(game.id, 2, user_id=None, display_name="Bot")
    assert bot.is_bot and bot.user_id is None
    left = await db.seats.remove_seat(game.id, 1)
    assert left.user_id == 1001
    with pytest.raises(SeatEmpty):
        await db.seats.remove_seat(game.id, 1)
    with pytest.raises(TableNotFull, match="needs 4 players and has 2"):
        await db.games.start_game(game.id, 4)
    await db.seats.add_seat(game.id, 1, user_id=1001, display_name="Back again")
    await db.seats.add_seat(game.id, 3, user_id=1003, display_name="Di")
    started = await db.games.start_game(game.id, 4)
    assert started.status is GameStatus.PLAYING and started.started_at is not None
    assert [s.display_name for s in await db.seats.seats(game.id)] == [
        "Player 0", "Back again", "Bot", "Di"]
    assert len(await db.seats.seat_history(game.id)) == 4  # lobby leavers leave no trace


async def test_seats_must_match_the_player_count(db: Database) -> None:
    game = await new_game(db, start=False, players=0)
    await db.seats.add_seat(game.id, 0, user_id=1, display_name="A")
    await db.seats.add_seat(game.id, 3, user_id=2, display_name="B")
    with pytest.raises(TableNotFull):
        await db.games.start_game(game.id, 2)


async def test_status_only_moves_forward(db: Database) -> None:
    game = await new_game(db)
    with pytest.raises(WrongStatus, match="already started"):
        await db.seats.add_seat(game.id, 3, user_id=7, display_name="Late")
    with pytest.raises(WrongStatus):
        await db.games.start_game(game.id, 4)
    await db.games.finish_game(game.id, Outcome(FinishReason.WALL))
    with pytest.raises(WrongStatus, match="is over"):
        await db.actions.append_action(game.id, 0, "too late", 1000)
    with pytest.raises(WrongStatus):
        await db.games.abort_game(game.id)
    with pytest.raises(WrongStatus):
        await db.seats.replace_seat(game.id, 0, user_id=None, display_name="Bot")
    lobby = await new_game(db, start=False)
    with pytest.raises(WrongStatus, match="hasn't started"):
        await db.actions.append_action(lobby.id, 0, "early", 1000)
    with pytest.raises(WrongStatus):
        await db.games.finish_game(lobby.id, Outcome(FinishReason.WALL))


async def test_player_facing_errors_are_mahjong_errors(db: Database) -> None:
    with pytest.raises(GameNotFound) as caught:
        await db.games.game(424242)
    assert isinstance(caught.value, MahjongError) and isinstance(caught.value, StoreError)
    assert caught.value.code == "game_not_found"
    assert "#424242" in caught.value.message


async def test_a_game_of_another_guild_is_not_found(db: Database) -> None:
    game = await new_game(db, guild_id=1)
    assert (await db.games.game(game.id, guild_id=1)).id == game.id
    with pytest.raises(GameNotFound):
        await db.games.game(game.id, guild_id=2)


async def test_seats_change_hands_with_history(db: Database, clock: FakeClock) -> None:
    game = await new_game(db)
    for seq in range(3):
        await db.actions.append_action(game.id, seq, f"a{seq}", 1000 + seq % 4)
    clock.advance(60)
    bot = await db.seats.replace_seat(game.id, 2, user_id=None, display_name="Bot (for P2)")
    assert bot.from_seq == 3 and bot.is_bot and bot.joined_at == clock.now
    await db.actions.append_action(game.id, 3, "a3", None)
    sub = await db.seats.replace_seat(game.id, 2, user_id=2000, display_name="Sub")
    assert sub.from_seq == 4
    with pytest.raises(AlreadySeated):
        await db.seats.replace_seat(game.id, 2, user_id=2000, display_name="Sub")
    with pytest.raises(AlreadySeated):  # holding seat 0 already
        await db.seats.replace_seat(game.id, 2, user_id=1000, display_name="Greedy")
    history = [s for s in await db.seats.seat_history(game.id) if s.seat == 2]
    assert [(s.user_id, s.from_seq, s.left_at is None) for s in history] == [
        (1002, 0, False), (None, 3, False), (2000, 4, True)]
    assert history[0].left_at == clock.now
    current = {s.seat: s.user_id for s in await db.seats.seats(game.id)}
    assert current == {0: 1000, 1: 1001, 2: 2000, 3: 1003}


async def test_a_person_who_left_may_come_back(db: Database) -> None:
    game = await new_game(db)
    await db.seats.replace_seat(game.id, 1, user_id=None, display_name="Bot")
    back = await db.seats.replace_seat(game.id, 1, user_id=1001, display_name="Player 1")
    assert back.user_id == 1001


async def test_dm_closed_flag(db: Database) -> None:
    game = await new_game(db)
    seat = await db.seats.set_dm_closed(game.id, 1, True)
    assert seat.dm_closed
    assert [s.dm_closed for s in await db.seats.seats(game.id)] == [False, True, False, False]
    assert not (await db.seats.set_dm_closed(game.id, 1, False)).dm_closed


async def test_seat_options_stay_with_their_holder(db: Database) -> None:
    game = await new_game(db)
    assert await db.seats.options(game.id) == {}
    await db.seats.set_options(game.id, 2, '{"joker_calls": "skip"}')
    await db.seats.set_options(game.id, 2, '{"joker_calls": "offer"}')
    await db.seats.set_options(game.id, 0, "{}")
    assert await db.seats.options(game.id) == {0: "{}", 2: '{"joker_calls": "offer"}'}
    with pytest.raises(ValueError, match="JSON"):
        await db.seats.set_options(game.id, 2, "not json")
    # Whoever takes the seat over starts from the defaults.
    await db.seats.replace_seat(game.id, 2, user_id=None, display_name="Bot")
    assert await db.seats.options(game.id) == {0: "{}"}


async def test_thread_and_lobby_message(db: Database) -> None:
    game = await new_game(db, start=False)
    assert await db.games.game_by_thread(555) is None
    await db.games.set_lobby_message(game.id, 444)
    updated = await db.games.set_thread(game.id, 555)
    assert (updated.thread_id, updated.lobby_message_id) == (555, 444)
    assert await db.games.game_by_thread(555) == updated


async def test_results_round_trip(db: Database, clock: FakeClock) -> None:
    game = await new_game(db)
    await db.seats.replace_seat(game.id, 3, user_id=None, display_name="Bot")
    breakdown = json.dumps({"hand": "2026 #3", "value": 25, "self_drawn": True})
    outcome = Outcome(
        FinishReason.MAHJONG, winner_seat=1,
        scores=(SeatScore(0, -50), SeatScore(1, 150, breakdown), SeatScore(2, -50),
                SeatScore(3, -50)),
        details=json.dumps({"wall_left": 12}))
    clock.advance(600)
    result = await db.games.finish_game(game.id, outcome)
    assert result == await db.games.result(game.id)
    assert result.reason is FinishReason.MAHJONG and result.winner_seat == 1
    assert json.loads(result.details) == {"wall_left": 12}
    assert [(s.seat, s.user_id, s.points) for s in result.seats] == [
        (0, 1000, -50), (1, 1001, 150), (2, 1002, -50), (3, None, -50)]
    assert result.seats[3].is_bot and result.seats[3].display_name == "Bot"
    assert json.loads(result.seats[1].breakdown) == json.loads(breakdown)
    assert result.recorded_at == clock.now
    finished = await db.games.game(game.id)
    assert finished.status is GameStatus.FINISHED and finished.finished_at == clock.now
    assert await db.games.unfinished_games() == []


async def test_outcome_rules(db: Database) -> None:
    with pytest.raises(ValueError, match="winner"):
        Outcome(FinishReason.MAHJONG)
    with pytest.raises(ValueError, match="winner"):
        Outcome(FinishReason.WALL, winner_seat=0)
    with pytest.raises(ValueError, match="at most once"):
        Outcome(FinishReason.WALL, scores=(SeatScore(0, 1), SeatScore(0, 2)))
    game = await new_game(db, players=3, start=False)
    await db.games.start_game(game.id, 3)
    with pytest.raises(ValueError, match="nobody in seats"):
        await db.games.finish_game(game.id, Outcome(FinishReason.MAHJONG, winner_seat=3))
    assert await db.games.result(game.id) is None


async def test_abort_from_lobby_and_from_play(db: Database) -> None:
    lobby = await new_game(db, start=False)
    result = await db.games.abort_game(lobby.id, json.dumps({"by": "host"}))
    assert result.reason is FinishReason.ABORT and result.seats == ()
    assert (await db.games.game(lobby.id)).status is GameStatus.ABORTED
    playing = await new_game(db)
    await db.clocks.set_clock(playing.id, ClockKind.TURN, seat=0, due_at=1.0, at_seq=0)
    await db.games.abort_game(playing.id)
    assert await db.clocks.clocks(playing.id) == []
    assert await db.clocks.due_clocks(now=10.0) == []


async def test_a_restart_brings_unfinished_games_back(db_target: str) -> None:
    clock = FakeClock()
    async with Database(db_target, clock=clock) as db:
        done = await new_game(db, first_user=10)
        await db.games.finish_game(done.id, Outcome(FinishReason.WALL))
        lobby = await new_game(db, start=False, first_user=20)
        playing = await new_game(db, first_user=30, seed=99)
        texts = [f"action {n}" for n in range(25)]
        for seq, text in enumerate(texts):
            await db.actions.append_action(playing.id, seq, text, 30 + seq % 4)
        await db.seats.replace_seat(playing.id, 1, user_id=None, display_name="Bot")
        turn = await db.clocks.set_clock(playing.id, ClockKind.TURN, seat=1,
                                         due_at=clock.now + 120, at_seq=25)
        claim = await db.clocks.set_clock(playing.id, ClockKind.CLAIM, seat=None,
                                          due_at=clock.now + 15, at_seq=25)
        before = await db.games.load_game(playing.id)

    async with Database(db_target, clock=clock) as db:
        assert [g.id for g in await db.games.unfinished_games()] == [lobby.id, playing.id]
        record = await db.games.load_game(playing.id)
        assert record == before
        assert record.game.seed == 99
        assert [a.text for a in record.actions] == texts
        assert [a.seq for a in record.actions] == list(range(25))
        assert record.clocks == (claim, turn)
        assert [s.is_bot for s in record.seats] == [False, True, False, False]
        assert len(record.history) == 5
        assert await db.clocks.due_clocks(now=clock.now + 60) == [claim]
        assert await db.actions.append_action(playing.id, 25, "after restart", 30) == 25
