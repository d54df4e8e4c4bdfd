"""The connection and its transactions: commit, rollback, serialization, closing."""

from __future__ import annotations

import asyncio
import threading

import pytest
from store_helpers import new_game

from bot.store import ConstraintViolation, Database, StoreClosed, StoreError


async def count_guilds(db: Database) -> int:
    async with db.read() as tx:
        row = await tx.fetchone("SELECT count(*) AS n FROM guilds")
    assert row is not None
    return int(row["n"])


async def test_a_transaction_commits(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (1, 0, 0)")
    assert await count_guilds(db) == 1


async def test_any_exception_rolls_back(db: Database) -> None:
    with pytest.raises(KeyError):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (1, 0, 0)")
            raise KeyError("boom")
    assert await count_guilds(db) == 0
    async with db.transaction() as tx:  # and the connection is usable again
        await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (2, 0, 0)")
    assert await count_guilds(db) == 1


async def test_a_cancelled_transaction_rolls_back(db: Database) -> None:
    started = asyncio.Event()

    async def slow_writer() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (1, 0, 0)")
            started.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow_writer())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await count_guilds(db) == 0


async def test_a_cancel_during_begin_leaves_no_transaction_open(db: Database) -> None:
    async def writer() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (1, 0, 0)")

    for _ in range(5):
        task = asyncio.create_task(writer())
        await asyncio.sleep(0)  # the task is now waiting for BEGIN IMMEDIATE
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with db.transaction() as tx:  # BEGIN works: nothing was left open
            await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (2, 0, 0) "
                             "ON CONFLICT DO NOTHING")
    assert await count_guilds(db) == 1


async def test_a_handle_dies_with_its_transaction(db: Database) -> None:
    async with db.transaction() as tx:
        pass
    with pytest.raises(StoreClosed):
        await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (1, 0, 0)")


async def test_a_read_cannot_write(db: Database) -> None:
    async with db.read() as tx:
        with pytest.raises(StoreError):
            await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (1, 0, 0)")


async def test_transactions_do_not_nest(db: Database) -> None:
    async with db.transaction():
        with pytest.raises(StoreError, match="nest"):
            async with db.transaction():
                pass


async def test_readers_never_see_uncommitted_writes(db: Database) -> None:
    """A read issued while another task's transaction is open waits for it, so it cannot see
    rows that are then rolled back."""
    inside = asyncio.Event()
    seen: list[int] = []

    async def writer() -> None:
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO guilds (id, created_at, updated_at) VALUES (1, 0, 0)")
                inside.set()
                await asyncio.sleep(0.05)
                raise RuntimeError("changed my mind")

    async def reader() -> None:
        await inside.wait()
        seen.append(await count_guilds(db))

    await asyncio.gather(writer(), reader())
    assert seen == [0]


async def test_writes_are_serialized(db: Database) -> None:
    async def bump(n: int) -> None:
        async with db.transaction() as tx:
            row = await tx.fetchone("SELECT count(*) AS n FROM guilds")
            assert row is not None
            await asyncio.sleep(0)  # give other tasks every chance to interleave
            await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (?, 0, 0)",
                             (int(row["n"]) + 1,))

    await asyncio.gather(*(bump(n) for n in range(20)))
    assert await count_guilds(db) == 20


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(ConstraintViolation, match=r"(?i)foreign key"):
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at) "
                "VALUES (12345, 0, 'x', NULL, 0)")
    with pytest.raises(ConstraintViolation, match=r"(?i)foreign key"):
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO server_cards (guild_id, name, card_text, uploaded_by, uploaded_at) "
                "VALUES (5, 'x', 'y', 1, 0)")
    game = await new_game(db)
    with pytest.raises(ConstraintViolation, match=r"(?i)foreign key"):
        async with db.transaction() as tx:
            await tx.execute("DELETE FROM games WHERE id = ?", (game.id,))
    with pytest.raises(ConstraintViolation, match=r"(?i)foreign key"):
        async with db.transaction() as tx:
            await tx.execute("UPDATE games SET status = 'paused' WHERE id = ?", (game.id,))


async def test_the_log_is_append_only_even_in_raw_sql(db: Database) -> None:
    game = await new_game(db)
    await db.actions.append_action(game.id, 0, "one", None)
    for sql in ("UPDATE actions SET action = 'two'", "DELETE FROM actions",
                "UPDATE actions SET played_for = 'timeout'",  # a move's mark stays too
                "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at) "
                f"VALUES ({game.id}, 5, 'gap', NULL, 0)"):
        with pytest.raises(ConstraintViolation):
            async with db.transaction() as tx:
                await tx.execute(sql)
    assert [a.text for a in await db.actions.actions(game.id)] == ["one"]


async def test_close_is_idempotent_and_final(db_target: str) -> None:
    threads = set(threading.enumerate())
    db = await Database.open(db_target)
    assert db.is_open
    await db.close()
    await db.close()
    assert not db.is_open
    with pytest.raises(StoreClosed):
        await db.games.unfinished_games()
    await asyncio.sleep(0.05)
    assert not set(threading.enumerate()) - threads  # no worker thread keeps the process alive
    await Database(db_target).close()  # closing a never-opened database is fine


async def test_close_interrupted_while_it_waits_for_the_writes_closes_all_the_same(
        db_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A Ctrl-C that killed the store's writer was raised again where close waited for it,
    # and the connection was left open: SQLite's thread then kept the process from exiting.
    threads = set(threading.enumerate())
    db = await Database.open(db_target)

    async def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(db.actions, "wait_written", interrupted)
    with pytest.raises(KeyboardInterrupt):
        await db.close()
    assert not db.is_open
    await asyncio.sleep(0.05)
    assert not set(threading.enumerate()) - threads


async def test_close_waits_for_a_running_transaction(db_target: str) -> None:
    db = await Database.open(db_target)
    inside = asyncio.Event()

    async def writer() -> None:
        async with db.transaction() as tx:
            inside.set()
            await asyncio.sleep(0.02)
            await tx.execute("INSERT INTO guilds (id, created_at, updated_at) VALUES (1, 0, 0)")

    task = asyncio.create_task(writer())
    await inside.wait()
    await db.close()
    await task
    async with Database(db_target) as again:
        assert await count_guilds(again) == 1
