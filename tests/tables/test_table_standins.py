"""Stand-ins through the table service: timeouts in a row hand the seat to the bot, a move
of one's own starts the count again, Reclaim gives the seat back mid-game, and a restart keeps
the count and the stand-in (`bot.tables.standins`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from table_helpers import (
    ANN,
    CARD_TEXT,
    HOST,
    Clock,
    Recorder,
    let_clocks_run,
    make_service,
    open_game,
)

from bot.engine.errors import IllegalAction
from bot.engine.game import THREE_PLAYER, parse_action
from bot.store import ClockKind, Database, PlayedFor
from bot.tables.errors import NotSeated
from bot.tables.options import TableOptions
from bot.tables.service import TableService
from bot.tables.standins import DEFAULT_STAND_IN_AFTER, StandIns, count_from_log

HUMANS = [HOST, ANN]  # and a bot in the third seat; the host (seat 0) is the one who goes


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def _time_out(service: TableService, db: Database, clock: Clock, game_id: int,
                    times: int) -> None:
    """Play on until the host has timed out `times` more times."""
    start = await _marked(db, game_id, PlayedFor.TIMEOUT)
    for _ in range(500):
        if await _marked(db, game_id, PlayedFor.TIMEOUT) >= start + times:
            return
        await let_clocks_run(service, db, clock, game_id)
    raise AssertionError("the host's clock never ran out often enough")


async def _marked(db: Database, game_id: int, kind: PlayedFor, seat: int = 0) -> int:
    """How many of `seat`'s moves the log marks as played for them as `kind`."""
    return sum(1 for a in await db.actions.actions(game_id)
               if a.played_for is kind and parse_action(a.text, 3).seat == seat)


async def _host_moves_next(service: TableService, db: Database, clock: Clock,
                           game_id: int) -> None:
    """Play on (Ann moving, clocks other than the host's running out) until the host must
    move, and check that the host has a clock of their own then."""
    for _ in range(500):
        if service.view_for(game_id, HOST).legal:
            kinds = {(c.kind, c.seat) for c in await db.clocks.clocks(game_id)}
            assert (ClockKind.TURN, 0) in kinds or (ClockKind.CLAIM, None) in kinds
            return
        await let_clocks_run(service, db, clock, game_id)
    raise AssertionError("the host never had a move to make")


async def test_n_timeouts_in_a_row_hand_the_seat_to_the_bot(tmp_path: Path,
                                                           clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, HUMANS)
        await _time_out(service, db, clock, game_id, DEFAULT_STAND_IN_AFTER - 1)
        assert not service.stand_ins(game_id).stood_in(0)
        await _time_out(service, db, clock, game_id, 1)
        assert service.stand_ins(game_id).seats == {0}
        await service.flush(game_id)
        told = [line for seat, update in recorder.seats if seat == 0 for line in update.lines]
        assert any("Reclaim" in line and "/mj reclaim" in line for line in told)
        assert any(update.stood_in for seat, update in recorder.seats if seat == 0)
        assert any("take the seat back" in line for t in recorder.tables for line in t.lines)
        # From now on the bot plays every move of the seat, and the host's clocks stop.
        for _ in range(30):
            await let_clocks_run(service, db, clock, game_id)
            if not service.in_play(game_id):
                break
            assert not service.view_for(game_id, HOST).legal
            assert not [c for c in await db.clocks.clocks(game_id)
                        if c.kind is ClockKind.TURN and c.seat == 0]
        assert await _marked(db, game_id, PlayedFor.STAND_IN) > 0
        assert await _marked(db, game_id, PlayedFor.TIMEOUT) == DEFAULT_STAND_IN_AFTER
        await service.close()


async def test_a_move_of_ones_own_starts_the_count_again(tmp_path: Path,
                                                        clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, HUMANS)
        await _time_out(service, db, clock, game_id, DEFAULT_STAND_IN_AFTER - 1)
        assert service.stand_ins(game_id).timeouts[0] == DEFAULT_STAND_IN_AFTER - 1
        await _host_moves_next(service, db, clock, game_id)
        mine = service.view_for(game_id, HOST)
        await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        assert service.stand_ins(game_id).timeouts[0] == 0
        await _time_out(service, db, clock, game_id, DEFAULT_STAND_IN_AFTER - 1)
        assert not service.stand_ins(game_id).stood_in(0)  # 2 + 2 timeouts, not 3 in a row
        await _time_out(service, db, clock, game_id, 1)
        assert service.stand_ins(game_id).stood_in(0)
        await service.close()


async def test_reclaim_mid_game_gives_the_seat_back(tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, HUMANS)
        with pytest.raises(IllegalAction, match="yours already"):
            await service.reclaim(game_id, HOST)
        await _time_out(service, db, clock, game_id, DEFAULT_STAND_IN_AFTER)
        for _ in range(6):  # the bot plays a few of the host's moves
            await let_clocks_run(service, db, clock, game_id)
        assert service.stand_ins(game_id).stood_in(0)
        with pytest.raises(NotSeated):  # someone else's Reclaim on the host's rack
            await service.reclaim(game_id, ANN, seat=0)
        with pytest.raises(NotSeated):
            await service.reclaim(game_id, 4242)
        assert service.stand_ins(game_id).stood_in(0)
        assert await service.reclaim(game_id, HOST, seat=0) == 0
        assert not service.stand_ins(game_id).stood_in(0)
        await service.flush(game_id)
        assert any("is back" in line for t in recorder.tables for line in t.lines)
        await _host_moves_next(service, db, clock, game_id)
        mine = service.view_for(game_id, HOST)
        await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        last_own = [a for a in await db.actions.actions(game_id) if a.actor_user_id == HOST]
        assert last_own and last_own[-1].played_for is None
        await service.close()


async def test_a_restart_keeps_the_count_and_the_stand_in(tmp_path: Path,
                                                          clock: Clock) -> None:
    path = tmp_path / "j.db"
    async with Database(path) as db:
        first = make_service(db, Recorder(), clock)
        game_id = await open_game(first, THREE_PLAYER, HUMANS)
        await _time_out(first, db, clock, game_id, DEFAULT_STAND_IN_AFTER - 1)
        await first.close()
    async with Database(path) as db:
        second = make_service(db, Recorder(), clock)
        await second.start(run_clocks=False)
        assert second.stand_ins(game_id).timeouts[0] == DEFAULT_STAND_IN_AFTER - 1
        await _time_out(second, db, clock, game_id, 1)
        assert second.stand_ins(game_id).stood_in(0)
        await second.close()
    async with Database(path) as db:
        third = make_service(db, Recorder(), clock)
        await third.start(run_clocks=False)
        assert third.stand_ins(game_id).stood_in(0)
        await let_clocks_run(third, db, clock, game_id)
        assert not [c for c in await db.clocks.clocks(game_id)
                    if c.kind is ClockKind.TURN and c.seat == 0]
        await third.reclaim(game_id, HOST)
        await third.close()
    async with Database(path) as db:
        fourth = make_service(db, Recorder(), clock)
        await fourth.start(run_clocks=False)
        assert not fourth.stand_ins(game_id).stood_in(0)  # the reclaim is kept
        await fourth.close()


@pytest.mark.parametrize("after", [0, 1])
async def test_the_tables_setting_is_stored_with_it(tmp_path: Path, clock: Clock,
                                                    after: int) -> None:
    path = tmp_path / "j.db"
    async with Database(path) as db:
        service = make_service(db, Recorder(), clock)
        game = await service.open_table(
            guild_id=1, channel_id=2, host_id=HOST, host_name="Host",
            options=TableOptions(THREE_PLAYER, "jongg-original", CARD_TEXT,
                                 stand_in_after=after))
        await service.join(game.id, ANN, "Ann")
        await service.start_game(game.id, HOST)
        await _time_out(service, db, clock, game.id, 1)
        await service.close()
    async with Database(path) as db:  # ... so a restart keeps it
        again = make_service(db, Recorder(), clock)
        await again.start(run_clocks=False)
        assert again.stand_ins(game.id).after == after
        if not after:  # never, however often the clock runs out
            await _time_out(again, db, clock, game.id, 4)
        assert again.stand_ins(game.id).stood_in(0) is bool(after)
        await again.close()


def test_the_count_from_a_log_follows_the_same_rules() -> None:
    # (seq, seat, actor, played_for): two timeouts around an automatic pass (which neither
    # counts nor resets), an own move (back to 0), two timeouts (seat 1's between them) and
    # the stand-in's move of a seat not kept (no change).
    moves = [(0, 0, None, PlayedFor.TIMEOUT), (1, 0, None, None),
             (2, 0, None, PlayedFor.TIMEOUT), (3, 0, HOST, None),
             (4, 0, None, PlayedFor.TIMEOUT), (5, 1, None, PlayedFor.TIMEOUT),
             (6, 0, None, PlayedFor.TIMEOUT), (7, 0, None, PlayedFor.STAND_IN)]
    assert count_from_log(3, 2, moves, {}) == StandIns(3, (2, 1))
    assert count_from_log(2, 2, moves, {}).seats == frozenset({0})
    assert count_from_log(2, 2, moves[:3], {}).timeouts == (2, 0)  # held at 2: kept
    assert count_from_log(3, 2, moves, {0: 6}).timeouts == (1, 1)  # taken back at 6
    assert count_from_log(0, 2, moves, {}).seats == frozenset()  # 0: never


_MOVES = st.lists(st.tuples(st.integers(0, 2), st.sampled_from(
    [(None, PlayedFor.TIMEOUT), (None, PlayedFor.STAND_IN), (None, None), (HOST, None)])),
    max_size=60)


@given(moves=_MOVES, after=st.integers(0, 4), start=st.integers(0, 30))
def test_a_seats_count_is_its_timeouts_since_it_last_moved(
        moves: list[tuple[int, tuple[int | None, PlayedFor | None]]], after: int,
        start: int) -> None:
    # However the moves fall, a seat's count is its timeouts since its own last move (or
    # its start), held at `after` once the bot keeps the seat.
    log = [(seq, seat, actor, kind) for seq, (seat, (actor, kind)) in enumerate(moves)]
    counts = count_from_log(after, 3, log, {1: start})
    for seat in range(3):
        mine = [(actor, kind) for seq, s, actor, kind in log
                if s == seat and seq >= (start if seat == 1 else 0)]
        own = [i for i, (actor, _) in enumerate(mine) if actor is not None]
        since = mine[own[-1] + 1:] if own else mine
        timeouts = sum(kind is PlayedFor.TIMEOUT for _, kind in since)
        assert counts.timeouts[seat] == (min(after, timeouts) if after else timeouts)
        assert counts.stood_in(seat) is (after > 0 and timeouts >= after)
