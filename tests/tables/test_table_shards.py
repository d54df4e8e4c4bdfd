"""A process that runs some of the bot's shards resumes and times only its servers' games:
the others' games stay as they are in the store, clocks and all, for their own process. Yet
any process moves in any game a click brings it, in turn with the others."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest
from table_helpers import ANN, BO, HOST, Clock, Recorder, make_service, open_game

from bot.discord.shards import ShardPlan
from bot.engine.game import THREE_PLAYER
from bot.store import ClockKind, Database, OutboxEntry
from bot.tables.errors import MOVED_ON, StalePrompt
from bot.tables.seat_options import JokerCalls, SeatOptions
from bot.tables.service import TableService

T = TypeVar("T")

#: Servers on shard 0 and on shard 1 of 2 (Discord's `(guild_id >> 22) % 2`).
NEAR, FAR = 7, 1 << 22
SHARD_0, SHARD_1 = ShardPlan(2, (0,)), ShardPlan(2, (1,))


async def turn_clocks(db: Database, game_id: int) -> list[float]:
    return [c.due_at for c in await db.clocks.clocks(game_id) if c.kind is ClockKind.TURN]


async def test_each_process_resumes_and_times_only_the_games_of_its_shards(
        tmp_path: Path) -> None:
    clock = Clock()
    humans = [HOST, ANN, BO]
    async with Database(tmp_path / "j.db") as db:
        opener = make_service(db, Recorder(), clock)
        near = await open_game(opener, THREE_PLAYER, humans, guild_id=NEAR)
        far = await open_game(opener, THREE_PLAYER, humans, guild_id=FAR)
        await opener.close()
        far_clock = await turn_clocks(db, far)
        assert far_clock and await turn_clocks(db, near)

        first = make_service(db, Recorder(), clock, owns=SHARD_0.owns)
        assert await first.start(run_clocks=False) == 1
        assert first.in_play(near) and not first.in_play(far)
        clock.now += 3600  # every turn clock has run out
        assert await first.run_due_clocks() == 1  # the near game's; the far one is left be
        assert first.others_due == 1
        assert await turn_clocks(db, far) == far_clock
        actions_far = len((await db.games.load_game(far)).actions)
        await first.close()

        second = make_service(db, Recorder(), clock, owns=SHARD_1.owns)
        assert await second.start(run_clocks=False) == 1
        assert second.in_play(far) and not second.in_play(near)
        assert await second.run_due_clocks() == 1
        assert second.others_due == 0  # the near game's new clock is due in an hour
        assert len((await db.games.load_game(far)).actions) > actions_far
        await second.close()


async def test_a_process_that_does_not_hold_a_game_loads_it_and_moves_in_turn(
        tmp_path: Path) -> None:
    """A DM's click reaches shard 0's process whatever server its game is of: that process
    loads the game from the store and moves; the game's own process, whose copy is now
    older, rebuilds it before its next move. Each sees every move, in order."""
    clock = Clock()
    async with Database(tmp_path / "j.db") as db:
        owner = make_service(db, Recorder(), clock, owns=SHARD_1.owns)
        visitor = make_service(db, Recorder(), clock, owns=SHARD_0.owns)
        far = await open_game(owner, THREE_PLAYER, [HOST, ANN, BO], guild_id=FAR)
        assert not visitor.in_play(far)
        for turn in range(12):
            service = (owner, visitor)[turn % 2]
            await service.visit(far)
            seat_user = next(user for user in (HOST, ANN, BO)
                             if service.view_for(far, user).legal)
            seen = service.view_for(far, seat_user)
            await service.act(far, seat_user, seen.legal[0].action, seen.action_count)
            other = (visitor, owner)[turn % 2]
            await other.visit(far)
            assert (other.spectator(far).action_count
                    == service.spectator(far).action_count > seen.action_count)
        logged = [a.text for a in await db.actions.actions(far)]
        assert len(logged) == owner.spectator(far).action_count
        await owner.close()
        await visitor.close()


def _after(barrier: asyncio.Barrier,
           call: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """`call`, once `barrier` is passed."""
    async def waits(*args: object, **kwargs: object) -> T:
        await barrier.wait()
        return await call(*args, **kwargs)
    return waits


async def test_a_move_the_log_grew_under_changes_nothing_and_is_answered_as_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes that do not share a lock (two connections to one file stand for
    them) make the same seat's move at once: the store keeps one, the other is answered as
    stale with nothing changed, and that process's next look rebuilds the game. (Each
    append waits until both moves are made in memory: otherwise the second may start only
    after the first committed, and be refused earlier, as an out-of-date prompt.)"""
    clock = Clock()
    path = tmp_path / "j.db"
    both_moved = asyncio.Barrier(2)
    async with Database(path) as first_db, Database(path) as second_db:
        first = make_service(first_db, Recorder(), clock)
        second = make_service(second_db, Recorder(), clock)
        game_id = await open_game(first, THREE_PLAYER, [HOST, ANN, BO])
        await second.visit(game_id)
        for db in (first_db, second_db):
            monkeypatch.setattr(db.actions, "append_actions",
                                _after(both_moved, db.actions.append_actions))
        seen = first.view_for(game_id, HOST)
        assert second.view_for(game_id, HOST) == seen
        results = await asyncio.gather(
            first.act(game_id, HOST, seen.legal[0].action, seen.action_count),
            second.act(game_id, HOST, seen.legal[0].action, seen.action_count),
            return_exceptions=True)
        monkeypatch.undo()  # the race is run: appends go straight on
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(refused) == 1 and isinstance(refused[0], StalePrompt), results
        assert MOVED_ON in str(refused[0])
        logged = [a.text for a in await first_db.actions.actions(game_id)]
        assert len(logged) == seen.action_count + 1
        for service in (first, second):
            await service.visit(game_id)
            assert service.spectator(game_id).action_count == len(logged)
            await service.close()


async def test_a_persons_own_options_reach_their_seats_in_games_another_process_holds(
        tmp_path: Path) -> None:
    """`/mj settings` reaches the process of the server it was used in; the person's seats
    in games another process holds take the options too (that process's copy is rebuilt)."""
    clock = Clock()
    async with Database(tmp_path / "j.db") as db:
        owner = make_service(db, Recorder(), clock, owns=SHARD_1.owns)
        elsewhere = make_service(db, Recorder(), clock, owns=SHARD_0.owns)
        far = await open_game(owner, THREE_PLAYER, [HOST, ANN, BO], guild_id=FAR)
        chosen = SeatOptions(joker_calls=JokerCalls.OFFER)
        assert owner.table(far).options_of(1) != chosen
        await elsewhere.set_player_options(ANN, chosen)
        await owner.visit(far)
        assert owner.table(far).options_of(1) == chosen
        assert owner.table(far).options_of(0) != chosen
        await owner.close()
        await elsewhere.close()


async def first_move(service: TableService, game_id: int) -> None:
    """Whoever may move makes their first legal move."""
    user = next(user for user in (HOST, ANN, BO) if service.view_for(game_id, user).legal)
    seen = service.view_for(game_id, user)
    await service.act(game_id, user, seen.legal[0].action, seen.action_count)


async def test_messages_committed_while_the_sender_reads_the_outbox_are_still_sent(
        pg_url: str) -> None:
    """On a shared database a sender that takes a game's claim drops from its queue what
    another process sent meanwhile, as the outbox reads. A move that commits while that
    read is under way queues messages the read could not see: they are not sent yet, and
    must stay queued."""
    clock = Clock()
    async with Database(pg_url) as db:
        recorder = Recorder()
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO])
        await service.flush(game_id)
        read = db.outbox.pending
        raced: list[int] = []

        async def racing(asked: int) -> list[OutboxEntry]:
            found = await read(asked)
            task = asyncio.current_task()
            if not raced and task is not None and task.get_name().startswith("jongg-send-"):
                raced.append(service.spectator(game_id).action_count)
                await asyncio.create_task(first_move(service, game_id))
            return found

        db.outbox.pending = racing  # type: ignore[method-assign]
        await first_move(service, game_id)
        await service.flush(game_id)
        db.outbox.pending = read  # type: ignore[method-assign]
        assert raced, "the sender never read the outbox as it took the claim"
        assert await db.outbox.pending(game_id) == []
        shown = service.spectator(game_id).action_count
        assert shown > raced[0]
        assert max(update.view.action_count for _, update in recorder.seats) == shown
        await service.close()
