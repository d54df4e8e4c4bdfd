"""The outbox: entries written with what they report, in order, and how far each one got."""

from __future__ import annotations

import asyncio
import json

import pytest
from store_helpers import FakeClock, Transactions, new_game

from bot.store import (
    ClockKind,
    Database,
    DeliveryKind,
    DeliveryState,
    FinishReason,
    NewDelivery,
    Outcome,
    SeqConflict,
)


def _table(at: int, line: str) -> NewDelivery:
    return NewDelivery(DeliveryKind.TABLE, at, None, json.dumps({"lines": [line]}))


async def test_a_moves_entries_are_written_with_it_in_order(db: Database,
                                                            clock: FakeClock) -> None:
    game = await new_game(db)
    seat = NewDelivery(DeliveryKind.SEAT, 2, 1, '{"lines": ["You drew 3 Bam."]}')
    entries = await db.actions.append_actions(
        game.id, 0, [("a", 1000), ("b", None)], outbox=[_table(2, "A discards."), seat])
    assert [(e.kind, e.at_seq, e.seat, e.state) for e in entries] == [
        (DeliveryKind.TABLE, 2, None, DeliveryState.PENDING),
        (DeliveryKind.SEAT, 2, 1, DeliveryState.PENDING)]
    assert entries[0].id < entries[1].id
    assert await db.outbox.pending(game.id) == list(entries)
    assert json.loads(entries[1].body) == {"lines": ["You drew 3 Bam."]}
    assert entries[0].created_at == clock.now


async def test_a_refused_move_writes_none_of_its_entries(db: Database) -> None:
    game = await new_game(db)
    await db.actions.append_actions(game.id, 0, [("a", 1000)], outbox=[_table(1, "first")])
    with pytest.raises(SeqConflict):
        await db.actions.append_actions(game.id, 0, [("stale", 1001)],
                                        outbox=[_table(1, "never")])
    assert [json.loads(e.body)["lines"] for e in await db.outbox.pending(game.id)] == [
        ["first"]]


async def test_appends_written_together_each_get_their_own_entries(db: Database) -> None:
    games = [await new_game(db, first_user=1000 + 10 * n) for n in range(6)]
    written = await asyncio.gather(*(
        db.actions.append_actions(g.id, 0, [("a", None)],
                                  outbox=[_table(1, f"game {g.id}"), _table(1, "again")])
        for g in games))
    for game, entries in zip(games, written, strict=True):
        assert [e.game_id for e in entries] == [game.id, game.id]
        assert json.loads(entries[0].body)["lines"] == [f"game {game.id}"]
        assert await db.outbox.pending(game.id) == list(entries)
    ids = [e.id for entries in written for e in entries]
    assert len(set(ids)) == len(ids)
    assert await db.outbox.games_with_pending() == [g.id for g in games]


async def test_entries_end_sent_or_failed_once(db: Database, clock: FakeClock) -> None:
    game = await new_game(db)
    first, second, third = await db.outbox.add(
        game.id, [_table(0, "one"), _table(0, "two"), _table(0, "three")])
    clock.advance(5)
    assert await db.outbox.note_attempt(second.id, "rate limited") == 1
    assert await db.outbox.note_attempt(second.id, "Discord answered 500") == 2
    await db.outbox.mark_sent([(first.id, [11, 12]), (second.id, [13])])
    await db.outbox.mark_sent([(first.id, [99])])  # already sent: stays as it was
    assert await db.outbox.mark_failed(third.id, "Discord refused it (400)")
    assert not await db.outbox.mark_failed(third.id, "again")
    assert await db.outbox.note_attempt(third.id, "late") == 0
    one, two, three = await db.outbox.entries(game.id)
    assert (one.state, one.message_ids, one.done_at) == (DeliveryState.SENT, (11, 12), clock.now)
    assert (two.state, two.attempts, two.error) == (DeliveryState.SENT, 2,
                                                     "Discord answered 500")
    assert (three.state, three.message_ids, three.error) == (
        DeliveryState.FAILED, (), "Discord refused it (400)")
    assert await db.outbox.pending(game.id) == []
    assert await db.outbox.games_with_pending() == []


async def test_the_newest_sent_entry_of_each_kind_and_seat_is_found(db: Database) -> None:
    games = [await new_game(db, first_user=1000 + 10 * n) for n in range(2)]
    seat = [NewDelivery(DeliveryKind.SEAT, 0, s, "{}") for s in (0, 1, 0, 0)]
    one = await db.outbox.add(games[0].id, [_table(0, "a"), _table(0, "b"), *seat])
    other = await db.outbox.add(games[1].id, [_table(0, "c")])
    table_a, table_b, seat0_old, seat1, seat0_new, seat0_unsent = one
    # The newest seat-0 entry sent posted nothing (a claim window's entry): the one before
    # it is where its DM is. An entry not sent yet is not found.
    await db.outbox.mark_sent([(table_a.id, [1]), (table_b.id, [2, 3]), (seat0_old.id, [4]),
                               (seat1.id, [5]), (seat0_new.id, []), (other[0].id, [6])])
    found = await db.outbox.newest_sent([games[0].id])
    assert [(e.id, e.message_ids) for e in found] == [
        (table_b.id, (2, 3)), (seat0_old.id, (4,)), (seat1.id, (5,))]
    assert seat0_unsent.id not in {e.id for e in found}
    assert {e.game_id for e in await db.outbox.newest_sent([g.id for g in games])} == {
        g.id for g in games}
    assert await db.outbox.newest_sent([]) == []


async def test_confirmations_ride_with_the_appends_of_their_moment(db: Database) -> None:
    games = [await new_game(db, first_user=1000 + 10 * n) for n in range(2)]
    [told] = await db.outbox.add(games[0].id, [_table(0, "told")])
    with Transactions(db) as transactions:
        await asyncio.gather(
            db.outbox.mark_sent([(told.id, [7])]),
            *(db.actions.append_actions(g.id, 0, [("a", None)]) for g in games))
    assert transactions.count <= 2  # the first alone, then the rest together
    assert (await db.outbox.entries(games[0].id))[0].message_ids == (7,)
    assert [await db.actions.next_seq(g.id) for g in games] == [1, 1]
    # Unwaited, a confirmation waits for the next move and goes in its transaction.
    later, alone = await db.outbox.add(games[1].id, [_table(1, "later"), _table(1, "alone")])
    with Transactions(db) as transactions:
        await db.outbox.mark_sent([(later.id, [8])], wait=False)
        await db.actions.append_action(games[1].id, 1, "b", None)
    assert transactions.count == 1
    # And the outbox's own reads always see what was confirmed.
    await db.outbox.mark_sent([(alone.id, [9])], wait=False)
    assert [e.message_ids for e in await db.outbox.entries(games[1].id)] == [(8,), (9,)]


async def test_a_result_and_a_clock_bring_their_entries(db: Database) -> None:
    game = await new_game(db)
    await db.clocks.set_clock(game.id, ClockKind.REMINDER, seat=2, due_at=10.0, at_seq=0)
    reminder = NewDelivery(DeliveryKind.REMINDER, 0, 2, '{"due_at": 20.0}')
    [rung] = await db.clocks.ring(game.id, ClockKind.REMINDER, seat=2, outbox=[reminder])
    assert rung.kind is DeliveryKind.REMINDER and await db.clocks.clocks(game.id) == []
    # A clock already stopped (another run saw it first) announces nothing.
    assert await db.clocks.ring(game.id, ClockKind.REMINDER, seat=2, outbox=[reminder]) == ()
    await db.games.finish_game(game.id, Outcome(FinishReason.TIMEOUT),
                               outbox=[_table(0, "Time's up")])
    assert [e.kind for e in await db.outbox.pending(game.id)] == [
        DeliveryKind.REMINDER, DeliveryKind.TABLE]
    # A finished game's undelivered entries are still resumed.
    assert await db.outbox.games_with_pending() == [game.id]


async def test_sent_entries_are_forgotten_once_the_game_is_over(db: Database) -> None:
    game = await new_game(db)
    sent, failed = await db.outbox.add(game.id, [_table(0, "sent"), _table(0, "failed")])
    await db.outbox.mark_sent([(sent.id, [1])])
    await db.outbox.mark_failed(failed.id, "refused")
    with pytest.raises(ValueError, match="still playing"):
        await db.outbox.forget_sent(game.id)
    await db.games.abort_game(game.id)
    assert await db.outbox.forget_sent(game.id) == 1
    assert [e.id for e in await db.outbox.entries(game.id)] == [failed.id]
    assert await db.outbox.has(game.id, DeliveryKind.TABLE)
    assert not await db.outbox.has(game.id, DeliveryKind.HOST)
    # Ids are never handed out again, even after the newest rows are deleted: each is the
    # key that makes a repeated send harmless.
    await db.outbox.forget_sent(game.id)
    other = await new_game(db, first_user=2000)
    [later] = await db.outbox.add(other.id, [_table(0, "later")])
    assert later.id > failed.id


@pytest.mark.parametrize("bad", [
    NewDelivery(DeliveryKind.SEAT, 0, -1),
    NewDelivery(DeliveryKind.TABLE, -1),
    NewDelivery(DeliveryKind.TABLE, 0, None, "not json"),
])
async def test_a_malformed_entry_is_refused_before_anything_is_written(
        db: Database, bad: NewDelivery) -> None:
    game = await new_game(db)
    with pytest.raises(ValueError):
        await db.actions.append_actions(game.id, 0, [("a", None)], outbox=[bad])
    assert await db.actions.next_seq(game.id) == 0
    assert await db.outbox.entries(game.id) == []
