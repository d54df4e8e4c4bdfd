"""Several processes sharing one database act on each clock and each outbox once, and take
over what a killed process held once its lease lapses; a game's moves are made one at a time
under `game_lock` (on PostgreSQL across processes).

Two `Database` objects on one target stand for two bot processes (each has its own owner
name and, on PostgreSQL, its own pool), as in
`test_store_actions.py::test_two_processes_for_the_same_seq_exactly_one_wins`.
"""

from __future__ import annotations

import asyncio

from store_helpers import FakeClock, new_game

from bot.store import ClockKind, Database
from bot.store.clocks import CLOCK_LEASE
from bot.store.outbox import OUTBOX_LEASE


async def _due_clocks(db: Database, games: int, clock: FakeClock) -> set[int]:
    """`games` started games, each with a turn clock that is due now; their ids."""
    ids: set[int] = set()
    for n in range(games):
        game = await new_game(db, first_user=100 * (n + 1))
        await db.clocks.set_clock(game.id, ClockKind.TURN, seat=0, due_at=clock.now - 1,
                                  at_seq=0)
        ids.add(game.id)
    return ids


async def test_two_processes_claim_each_due_clock_exactly_once(db_target: str,
                                                               clock: FakeClock) -> None:
    async with Database(db_target, clock=clock) as first, \
            Database(db_target, clock=clock) as second:
        games = await _due_clocks(first, 12, clock)
        mine, theirs = await asyncio.gather(first.clocks.claim_due(),
                                            second.clocks.claim_due())
        got_first = {c.game_id for c in mine}
        got_second = {c.game_id for c in theirs}
        assert not got_first & got_second
        assert got_first | got_second == games
        # Asking again, each keeps what it holds and gets nothing of the other's.
        again = await second.clocks.claim_due()
        assert {c.game_id for c in again} == got_second


async def test_a_killed_processs_clocks_are_taken_over_when_its_lease_lapses(
        db_target: str, clock: FakeClock) -> None:
    first = Database(db_target, clock=clock)
    await first.connect()
    async with Database(db_target, clock=clock) as second:
        games = await _due_clocks(second, 3, clock)
        assert {c.game_id for c in await first.clocks.claim_due()} == games
        # `first` dies without closing (kill -9): its claims stay until their lease ends.
        assert await second.clocks.claim_due() == []
        clock.advance(CLOCK_LEASE - 1)
        assert await second.clocks.claim_due() == []
        clock.advance(2)
        assert {c.game_id for c in await second.clocks.claim_due()} == games
    await first.close()


async def test_a_closed_process_gives_its_clocks_up_at_once(db_target: str,
                                                            clock: FakeClock) -> None:
    async with Database(db_target, clock=clock) as second:
        games = await _due_clocks(second, 2, clock)
        async with Database(db_target, clock=clock) as first:
            assert {c.game_id for c in await first.clocks.claim_due()} == games
        assert {c.game_id for c in await second.clocks.claim_due()} == games


async def test_one_process_drains_a_games_outbox_until_its_lease_lapses(
        db_target: str, clock: FakeClock) -> None:
    first = Database(db_target, clock=clock)
    await first.connect()
    async with Database(db_target, clock=clock) as second:
        game = await new_game(second)
        for _ in range(10):
            won = await asyncio.gather(first.outbox.claim(game.id),
                                       second.outbox.claim(game.id))
            assert sorted(won) == [False, True]
            holder = first if won[0] else second
            assert await holder.outbox.claim(game.id)  # renewing its own claim
        holder_is_first = won[0]
        other = second if holder_is_first else first
        clock.advance(OUTBOX_LEASE - 1)
        assert not await other.outbox.claim(game.id)
        clock.advance(2)  # the holder was killed and never renewed
        assert await other.outbox.claim(game.id)
    await first.close()


async def test_moves_of_one_game_are_made_one_at_a_time(db: Database) -> None:
    """In one process (both backends): a second mover waits for the first."""
    game = await new_game(db)
    order: list[str] = []

    async def move(name: str) -> None:
        async with db.game_lock(game.id):
            order.append(f"{name} in")
            await asyncio.sleep(0.02)
            order.append(f"{name} out")

    await asyncio.gather(move("a"), move("b"))
    assert order in (["a in", "a out", "b in", "b out"], ["b in", "b out", "a in", "a out"])


async def test_the_game_lock_holds_across_processes_on_postgresql(pg_url: str,
                                                                  clock: FakeClock) -> None:
    async with Database(pg_url, clock=clock) as first, \
            Database(pg_url, clock=clock) as second:
        game = await new_game(first)
        other = await new_game(first, first_user=5000)
        async with first.game_lock(game.id):
            waiting = asyncio.create_task(_hold(second, game.id))
            await asyncio.sleep(0.3)
            assert not waiting.done()  # the other process waits for this game …
            await asyncio.wait_for(_hold(second, other.id), 5)  # … but not for another
        await asyncio.wait_for(waiting, 5)


async def _hold(db: Database, game_id: int) -> None:
    async with db.game_lock(game_id):
        pass

