"""The store when its database goes away: a PostgreSQL server stopped under it (`pg_ctl stop
-m fast`), an SQLite file another program keeps locked. Every kind of use (a read, a write,
a group of appends, a confirmation waited for, a game's lock) raises `DatabaseUnavailable`,
the store's one error for it, and works again once the database is back; a statement's own
fault is never taken for it."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest
from pg_server import MISSING, PgServer, find_binaries
from store_helpers import new_game

from bot.store import (
    ConstraintViolation,
    Database,
    DatabaseUnavailable,
    DeliveryKind,
    NewDelivery,
    SeqConflict,
)
from bot.store.pg_backend import connection_lost
from bot.store.sqlite_backend import SqliteBackend


async def seat_again(db: Database, game_id: int) -> None:
    """Seat someone in a seat that is taken: a statement the schema refuses."""
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO seats (game_id, seat, user_id, display_name, joined_at) "
                         "VALUES (?, 0, 1, 'Again', 0)", (game_id,))


async def own_faults_are_not_outages(db: Database, game_id: int) -> None:
    """A statement's own faults (a constraint, a table that does not exist) are not the
    database going away."""
    with pytest.raises(ConstraintViolation):
        await seat_again(db, game_id)
    with pytest.raises(Exception) as wrong:
        async with db.transaction() as tx:
            await tx.execute("UPDATE no_such_table SET x = 1")
    assert not isinstance(wrong.value, DatabaseUnavailable)


@pytest.fixture(scope="module")
def own_server() -> Iterator[PgServer]:
    """A server of this module's own, which its tests stop and start again."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip(MISSING)
    with PgServer(binaries) as server:
        yield server


async def test_a_stopped_postgresql_is_unavailable_to_every_use_and_the_store_goes_on_after(
        own_server: PgServer) -> None:
    url = await own_server.create_database()
    async with Database(url) as db:
        game = await new_game(db)
        [entry] = await db.outbox.add(game.id, [NewDelivery(DeliveryKind.TABLE, 0)])
        own_server.halt()
        try:
            uses = {
                "a read": db.games.game(game.id),
                "a write": db.outbox.note_attempt(entry.id, "502"),
                "an append": db.actions.append_actions(game.id, 0, [("East: pass", 1000)]),
                "a confirmation": db.outbox.mark_sent([(entry.id, [5])], wait=True),
                "a claim": db.outbox.claim(game.id),
            }
            for what, use in uses.items():
                with pytest.raises(DatabaseUnavailable, match="can't be reached"):
                    await use
                    pytest.fail(f"{what} went through with the server stopped")
            with pytest.raises(DatabaseUnavailable):
                async with db.game_lock(game.id):
                    pytest.fail("a game's lock was taken with the server stopped")
        finally:
            own_server.resume()
        # Back: the pool connects again, and nothing of the failed uses was written.
        assert await db.actions.next_seq(game.id) == 0
        await db.actions.append_actions(game.id, 0, [("East: pass", 1000)])
        async with db.game_lock(game.id):
            await db.outbox.mark_sent([(entry.id, [5])], wait=True)
        [sent] = await db.outbox.entries(game.id)
        assert (sent.message_ids, sent.attempts) == ((5,), 0)
        with pytest.raises(SeqConflict):  # a statement's own fault is not an outage
            await db.actions.append_actions(game.id, 0, [("East: pass", 1000)])
        await own_faults_are_not_outages(db, game.id)


async def test_the_server_cutting_a_connection_off_is_unavailable_not_a_client_fault(
        own_server: PgServer) -> None:
    """What asyncpg raises about a connection cut while in use counts as the database
    going away: the server's word, the protocol left out of step ("cannot switch to state
    …"), a refusal to use the closed connection. A statement's own fault does not, nor does
    a bad argument on an open connection."""
    url = await own_server.create_database()
    conn = await asyncpg.connect(url)
    closed = asyncpg.InterfaceError("cannot call Connection.fetchval(): connection is closed")
    try:
        assert not connection_lost(closed, conn)
        assert not connection_lost(asyncpg.UndefinedTableError("no such table"), conn)
        assert not connection_lost(asyncpg.DataError("invalid input for query argument"),
                                   conn)
        assert connection_lost(asyncpg.InternalClientError(
            "cannot switch to state 15; another operation (2) is in progress"), conn)
        own_server.halt()
        try:
            with pytest.raises(asyncpg.PostgresError) as cut:
                await conn.fetchval("SELECT 1")
            assert connection_lost(cut.value, conn)
            assert connection_lost(closed, conn)
            assert connection_lost(ConnectionRefusedError(111, "refused"), None)
        finally:
            own_server.resume()
    finally:
        await conn.close()


async def test_writers_busy_when_the_server_stops_all_meet_database_unavailable(
        own_server: PgServer) -> None:
    """Eight games' writers at work (an outbox entry added, then recorded as sent, again
    and again) when the server stops: whatever moment of a statement, a commit or a
    rollback the stop cuts, each of them meets `DatabaseUnavailable` and nothing else."""
    url = await own_server.create_database()
    met: Counter[str] = Counter()
    async with Database(url) as db:
        games = [await new_game(db, first_user=1000 + 10 * n) for n in range(8)]
        stopped = asyncio.Event()

        async def write(game_id: int) -> None:
            while not stopped.is_set():
                try:
                    [entry] = await db.outbox.add(game_id, [NewDelivery(DeliveryKind.TABLE, 0)])
                    await db.outbox.mark_sent([(entry.id, [1])], wait=True)
                except Exception as error:
                    met[type(error).__name__] += 1
                    await asyncio.sleep(0.01)

        writers = [asyncio.create_task(write(game.id)) for game in games]
        await asyncio.sleep(0.3)
        await asyncio.to_thread(own_server.halt)
        await asyncio.sleep(0.3)
        stopped.set()
        await asyncio.gather(*writers)
        await asyncio.to_thread(own_server.resume)
    assert set(met) == {"DatabaseUnavailable"}, met


async def test_a_bot_stopping_while_the_server_is_away_closes_all_the_same(
        own_server: PgServer) -> None:
    """Closing gives this process's claims up when it can; with the server away their
    leases lapse on their own, and the connections are closed all the same."""
    url = await own_server.create_database()
    db = await Database.open(url)
    game = await new_game(db)
    assert await db.outbox.claim(game.id)
    await asyncio.to_thread(own_server.halt)
    try:
        await db.close()
        assert not db.is_open
    finally:
        await asyncio.to_thread(own_server.resume)


async def test_an_sqlite_file_locked_by_another_program_is_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    database = Database(path)
    # A short busy timeout: the test need not wait SQLite's usual five seconds.
    assert isinstance(database._backend, SqliteBackend)
    database._backend._busy_timeout_ms = 50
    async with database as db:
        game = await new_game(db)
        other = sqlite3.connect(path, isolation_level=None)
        try:
            other.execute("BEGIN EXCLUSIVE")  # (in WAL mode, reads still go through)
            with pytest.raises(DatabaseUnavailable, match="database is locked"):
                await db.actions.append_actions(game.id, 0, [("East: pass", 1000)])
            with pytest.raises(DatabaseUnavailable, match="database is locked"):
                await db.outbox.claim(game.id)
            other.execute("ROLLBACK")
        finally:
            other.close()
        await db.actions.append_actions(game.id, 0, [("East: pass", 1000)])
        assert await db.actions.next_seq(game.id) == 1
        await own_faults_are_not_outages(db, game.id)
