"""The action log under concurrency, and clocks."""

from __future__ import annotations

import asyncio
import random

import pytest
from store_helpers import FakeClock, Transactions, new_game

from bot.store import (
    ClockKind,
    ClockPlan,
    Database,
    DeliveryKind,
    FinishReason,
    NewDelivery,
    Outcome,
    SeqConflict,
    StoreClosed,
    WrongStatus,
)


async def test_appends_are_numbered_from_zero(db: Database, clock: FakeClock) -> None:
    game = await new_game(db)
    assert await db.actions.next_seq(game.id) == 0
    for seq in range(5):
        clock.advance(1)
        assert await db.actions.append_action(game.id, seq, f"act {seq}", 1000) == seq
    log = await db.actions.actions(game.id)
    assert [(a.seq, a.text, a.actor_user_id) for a in log] == [
        (n, f"act {n}", 1000) for n in range(5)]
    assert [a.created_at for a in log] == sorted(a.created_at for a in log)
    assert [a.seq for a in await db.actions.actions(game.id, since=3)] == [3, 4]
    assert await db.actions.next_seq(game.id) == 5


@pytest.mark.parametrize("expected", [0, 2, 7])
async def test_a_wrong_expected_seq_is_a_conflict(db: Database, expected: int) -> None:
    game = await new_game(db)
    for seq in range(3):
        await db.actions.append_action(game.id, seq, "x", None)
    with pytest.raises(SeqConflict) as caught:
        await db.actions.append_action(game.id, expected, "stale", 1000)
    assert (caught.value.expected, caught.value.actual) == (expected, 3)
    assert "latest table message" in caught.value.message
    assert len(await db.actions.actions(game.id)) == 3


async def test_two_clicks_for_the_same_seq_exactly_one_wins(db: Database) -> None:
    game = await new_game(db)
    for _ in range(20):
        seq = await db.actions.next_seq(game.id)
        outcomes = await asyncio.gather(
            db.actions.append_action(game.id, seq, "left", 1000),
            db.actions.append_action(game.id, seq, "right", 1001),
            return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["SeqConflict", "int"]
    assert [a.seq for a in await db.actions.actions(game.id)] == list(range(20))


async def test_two_processes_for_the_same_seq_exactly_one_wins(db_target: str) -> None:
    """Two connections to one file (as two bot processes would have): BEGIN IMMEDIATE and
    the seq check inside it still let only one writer have each seq."""
    async with Database(db_target) as first, Database(db_target) as second:
        game = await new_game(first)
        for seq in range(10):
            outcomes = await asyncio.gather(
                first.actions.append_action(game.id, seq, "first", 1),
                second.actions.append_action(game.id, seq, "second", 2),
                return_exceptions=True)
            assert sorted(type(o).__name__ for o in outcomes) == ["SeqConflict", "int"]
        assert [a.seq for a in await second.actions.actions(game.id)] == list(range(10))


async def test_many_tasks_many_games_lose_nothing(db: Database) -> None:
    games = [await new_game(db, first_user=100 * n) for n in range(10)]
    rng = random.Random(1)
    per_task = 6
    conflicts = 0

    async def player(task: int) -> list[tuple[int, int, str]]:
        nonlocal conflicts
        done = []
        for n in range(per_task):
            game = rng.choice(games)
            text = f"task {task} move {n}"
            while True:  # like a click racing other clicks: retry on conflict
                seq = await db.actions.next_seq(game.id)
                await asyncio.sleep(0)
                try:
                    await db.actions.append_action(game.id, seq, text, task)
                except SeqConflict:
                    conflicts += 1
                    continue
                done.append((game.id, seq, text))
                break
        return done

    results = await asyncio.gather(*(player(task) for task in range(50)))
    appended = sorted(item for items in results for item in items)
    assert len(appended) == 50 * per_task
    assert conflicts > 0  # the tasks really did race
    stored: list[tuple[int, int, str]] = []
    for game in games:
        log = await db.actions.actions(game.id)
        assert [a.seq for a in log] == list(range(len(log)))  # contiguous
        stored.extend((a.game_id, a.seq, a.text) for a in log)
    assert sorted(stored) == appended  # nothing lost, nothing doubled


async def test_clocks_set_replace_and_clear(db: Database, clock: FakeClock) -> None:
    game = await new_game(db)
    now = clock.now
    await db.clocks.set_clock(game.id, ClockKind.TURN, seat=0, due_at=now + 100, at_seq=0)
    await db.clocks.set_clock(game.id, ClockKind.TURN, seat=0, due_at=now + 50, at_seq=0)
    await db.clocks.set_clock(game.id, ClockKind.REMINDER, seat=0, due_at=now + 30, at_seq=0)
    await db.clocks.set_clock(game.id, ClockKind.CLAIM, seat=None, due_at=now + 10, at_seq=0)
    await db.clocks.set_clock(game.id, ClockKind.CLAIM, seat=None, due_at=now + 12, at_seq=0)
    clocks = await db.clocks.clocks(game.id)
    assert [(c.kind, c.seat, c.due_at - now) for c in clocks] == [
        (ClockKind.CLAIM, None, 12), (ClockKind.REMINDER, 0, 30), (ClockKind.TURN, 0, 50)]
    assert await db.clocks.next_due() == now + 12
    assert await db.clocks.due_clocks(now=now + 11) == []
    assert [c.kind for c in await db.clocks.due_clocks(now=now + 30)] == [
        ClockKind.CLAIM, ClockKind.REMINDER]
    clock.advance(60)
    assert len(await db.clocks.due_clocks()) == 3  # default: the store's clock
    assert await db.clocks.clear_clock(game.id, ClockKind.CLAIM, seat=None)
    assert not await db.clocks.clear_clock(game.id, ClockKind.CLAIM, seat=None)
    assert await db.clocks.clear_clocks(game.id, ClockKind.TURN) == 1
    assert await db.clocks.clear_clocks(game.id) == 1
    assert await db.clocks.next_due() is None


async def test_a_seat_keeps_three_reminders_at_once_each_ringing_once(
        db: Database, clock: FakeClock) -> None:
    # Turn start, 75 % and 90 % ("time nearly up", migration 0015) at once: a kind each.
    game = await new_game(db)
    reminders = (ClockKind.START_REMINDER, ClockKind.REMINDER, ClockKind.NEARLY_UP_REMINDER)
    for offset, kind in enumerate(reminders):
        await db.clocks.set_clock(game.id, kind, seat=0, due_at=clock.now + offset, at_seq=0)
    assert [c.kind for c in await db.clocks.clocks(game.id)] == list(reminders)
    owed = NewDelivery(DeliveryKind.REMINDER, 0, 0, "{}")
    assert len(await db.clocks.ring(game.id, ClockKind.NEARLY_UP_REMINDER, seat=0,
                                    outbox=[owed])) == 1
    assert await db.clocks.ring(game.id, ClockKind.NEARLY_UP_REMINDER, seat=0,
                                outbox=[owed]) == ()
    assert [c.kind for c in await db.clocks.clocks(game.id)] == list(reminders[:2])


async def test_a_stale_clock_cannot_act(db: Database, clock: FakeClock) -> None:
    game = await new_game(db)
    timer = await db.clocks.set_clock(game.id, ClockKind.TURN, seat=0,
                                      due_at=clock.now + 5, at_seq=0)
    await db.actions.append_action(game.id, 0, "E discards in time", 1000)
    with pytest.raises(SeqConflict):
        await db.actions.append_action(game.id, timer.at_seq, "pass (timeout)", None)


async def test_clocks_only_for_unfinished_games(db: Database) -> None:
    game = await new_game(db)
    await db.games.finish_game(game.id, Outcome(FinishReason.TIMEOUT))
    with pytest.raises(WrongStatus):
        await db.clocks.set_clock(game.id, ClockKind.TURN, seat=0, due_at=0, at_seq=0)


async def test_a_clock_plan_swaps_some_kinds_in_one_go(db: Database, clock: FakeClock) -> None:
    game = await new_game(db)
    await db.clocks.set_clock(game.id, ClockKind.TURN, seat=0, due_at=clock.now + 5, at_seq=0)
    await db.clocks.set_clock(game.id, ClockKind.GAME_LIMIT, seat=None, due_at=clock.now + 99,
                              at_seq=0)
    await db.actions.append_actions(game.id, 0, [], clocks=ClockPlan(
        (ClockKind.TURN, ClockKind.CLAIM),
        ((ClockKind.CLAIM, None, clock.now + 10), (ClockKind.TURN, 2, clock.now + 20)), 3))
    found = {(c.kind, c.seat): (c.due_at, c.at_seq) for c in await db.clocks.clocks(game.id)}
    assert found == {(ClockKind.CLAIM, None): (clock.now + 10, 3),
                     (ClockKind.TURN, 2): (clock.now + 20, 3),
                     (ClockKind.GAME_LIMIT, None): (clock.now + 99, 0)}


async def test_appends_arriving_together_share_a_transaction(db: Database,
                                                             clock: FakeClock) -> None:
    """Group commit: appends for many games that arrive while one is being written go in
    one transaction; each is still checked on its own, and a refusal costs only its own."""
    games = [await new_game(db, first_user=100 * n) for n in range(12)]
    over = await new_game(db, first_user=9000)
    await db.games.finish_game(over.id, Outcome(FinishReason.TIMEOUT))
    await db.actions.append_action(games[0].id, 0, "already there", None)
    plan = ClockPlan((ClockKind.TURN,), ((ClockKind.TURN, 1, clock.now + 60),), 2)
    with Transactions(db) as transactions:
        outcomes = await asyncio.gather(
            *(db.actions.append_actions(g.id, 0, [("a", 1), ("b", None)], clocks=plan)
              for g in games[1:]),
            db.actions.append_actions(games[0].id, 0, [("stale", 1)]),
            db.actions.append_actions(over.id, 0, [("late", 1)]),
            db.actions.append_actions(games[1].id, 2, [("then c", 2)]),
            return_exceptions=True)
    assert outcomes[:11] == [()] * 11  # appended, with no outbox entries
    assert [type(o) for o in outcomes[11:]] == [SeqConflict, WrongStatus, tuple]
    assert transactions.count < 4  # the first append alone, then the rest together
    for game in games[1:]:
        texts = [a.text for a in await db.actions.actions(game.id)]
        assert texts == (["a", "b", "then c"] if game is games[1] else ["a", "b"])
        [turn] = await db.clocks.clocks(game.id)
        assert (turn.seat, turn.at_seq) == (1, 2)
    assert [a.text for a in await db.actions.actions(games[0].id)] == ["already there"]
    assert await db.actions.actions(over.id) == []


async def test_closing_waits_for_appends_already_asked_for(db_target: str) -> None:
    db = await Database.open(db_target)
    game = await new_game(db)
    pending = [asyncio.ensure_future(db.actions.append_action(game.id, seq, f"m{seq}", None))
               for seq in range(3)]
    await asyncio.sleep(0)  # the appends are queued, not yet written
    await db.close()
    assert [task.result() for task in pending] == [0, 1, 2]
    async with Database(db_target) as again:
        assert [a.text for a in await again.actions.actions(game.id)] == ["m0", "m1", "m2"]
    with pytest.raises(StoreClosed):
        await db.actions.append_action(game.id, 3, "after close", None)
