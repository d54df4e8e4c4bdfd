"""The table service through a database outage, with a store whose transactions fail on
purpose (`Unplugged`): a game's sender keeps what it delivered and could not record, records
it once the database is back and sends nothing twice; a move meanwhile changes nothing and
says why; the clock loop rides the outage out; the log says once that the database went and
once that it came back."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from table_helpers import ANN, BO, HOST, Clock, Recorder, make_service, open_game

from bot.engine.game import THREE_PLAYER, View
from bot.store import Database, DatabaseUnavailable, DeliveryState
from bot.store.tx import Conn
from bot.tables.delivery import Backoff
from bot.tables.errors import UNREACHABLE, describe_error, for_players
from bot.tables.notifier import Delivery, SeatUpdate, Table, TableUpdate

QUICK = Backoff(first=0.001, cap=0.01, attempts=1000)
#: What the service logs when the database goes, and when it is back.
GONE, BACK = "database unavailable", "database back"


class Unplugged:
    """Takes a database away and gives it back: while `away`, every transaction (only the
    writes, with `writes_only`) raises `DatabaseUnavailable` as the backend does when its
    server has stopped; `refused` counts them."""

    def __init__(self, db: Database, monkeypatch: pytest.MonkeyPatch, *,
                 writes_only: bool = False) -> None:
        self.away = False
        self.writes_only = writes_only
        self.refused = 0
        backend = db._backend
        real = backend.session

        def session(*, writable: bool) -> AbstractAsyncContextManager[Conn]:
            if self.away and (writable or not self.writes_only):
                self.refused += 1
                raise DatabaseUnavailable("the test took the database away")
            return real(writable=writable)

        monkeypatch.setattr(backend, "session", session)


@dataclass
class Keyed(Recorder):
    """A recorder that keeps every delivery's key, and can hold its first table post until
    `gate` is set and take the database away (`unplug`) right after delivering it."""

    keys: list[str] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    unplug: Unplugged | None = None

    async def table_update(self, table: Table, update: TableUpdate,
                           delivery: Delivery) -> None:
        await self.gate.wait()
        self.keys.append(delivery.key)
        await super().table_update(table, update, delivery)
        if self.unplug is not None:
            self.unplug.away, self.unplug = True, None

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate,
                          delivery: Delivery) -> None:
        self.keys.append(delivery.key)
        await super().seat_update(table, seat, update, delivery)


async def eventually(check: Callable[[], bool], what: str) -> None:
    """Wait (up to a minute: the machine may be busy) until `check` holds."""
    try:
        async with asyncio.timeout(60):
            while not check():
                await asyncio.sleep(0.005)
    except TimeoutError:
        pytest.fail(f"waited a minute for {what}")


def no_task_died(loop_errors: list[dict[str, object]]) -> None:
    """Fail if a task ended with an exception nobody retrieved (the event loop hears of it
    when the task is collected)."""
    gc.collect()
    assert loop_errors == []


def said(caplog: pytest.LogCaptureFixture, words: str) -> int:
    return sum(words in record.getMessage() for record in caplog.records)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def target(either_database: str) -> str:
    """The game's database: a file (the sender's records ride with a later commit) or a
    PostgreSQL database (shared: the sender waits for each record before it lets its claim
    on the outbox go)."""
    return either_database


@pytest.fixture
async def loop_errors() -> AsyncIterator[list[dict[str, object]]]:
    """What reaches the event loop's exception handler during the test (a task that ends
    with an exception nobody retrieves is reported there)."""
    loop = asyncio.get_running_loop()
    errors: list[dict[str, object]] = []
    before = loop.get_exception_handler()
    loop.set_exception_handler(lambda _, context: errors.append(context))
    yield errors
    loop.set_exception_handler(before)


async def test_what_was_delivered_is_recorded_once_the_database_is_back_and_never_resent(
        target: str, clock: Clock, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, loop_errors: list[dict[str, object]]) -> None:
    caplog.set_level(logging.INFO, logger="bot.tables")
    async with Database(target) as db:
        unplug = Unplugged(db, monkeypatch)
        keyed = Keyed(unplug=unplug)
        service = make_service(db, keyed, clock, backoff=QUICK)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO])
        keyed.gate.set()  # the table post goes out, and the database goes with it
        # The sender delivers what it holds and tries, again and again, to record it.
        await eventually(lambda: unplug.refused >= 10, "the sender to keep trying")
        assert keyed.tables and service.outage.down
        delivered = list(keyed.keys)
        unplug.away = False
        await service.flush(game_id)
        entries = await db.outbox.entries(game_id)
        assert [e.state for e in entries] == [DeliveryState.SENT] * len(entries)
        # Each entry went out once: nothing delivered was sent again while it waited.
        assert sorted(keyed.keys) == sorted(f"jg{e.id}" for e in entries)
        assert keyed.keys == delivered
        # And the game plays on.
        mine = service.view_for(game_id, HOST)
        await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        await service.flush(game_id)
        assert len(keyed.keys) > len(delivered) and len(set(keyed.keys)) == len(keyed.keys)
        assert all(e.state is DeliveryState.SENT for e in await db.outbox.entries(game_id))
        await service.close()
    assert (said(caplog, GONE), said(caplog, BACK)) == (1, 1), caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    no_task_died(loop_errors)


async def test_a_move_while_the_database_is_away_changes_nothing_and_says_so(
        tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    async with Database(tmp_path / "j.db") as db:
        recorder = Recorder()
        service = make_service(db, recorder, clock, backoff=QUICK)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN])
        await service.flush(game_id)
        unplug = Unplugged(db, monkeypatch, writes_only=True)  # the move's commit fails
        unplug.away = True
        mine = service.view_for(game_id, HOST)
        with pytest.raises(DatabaseUnavailable) as refused:
            await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        assert for_players(refused.value)
        assert describe_error(refused.value) == UNREACHABLE
        assert "nothing was changed" in UNREACHABLE and "try again" in UNREACHABLE
        # Nothing changed, in memory or in the store.
        assert unplug.refused and service.view_for(game_id, HOST) == mine
        assert len(await db.actions.actions(game_id)) == mine.action_count
        unplug.away = False
        # The same click again goes through.
        await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        after: View = service.view_for(game_id, HOST)
        assert after.action_count > mine.action_count
        assert len(await db.actions.actions(game_id)) == after.action_count
        await service.close()


async def test_the_last_move_stands_when_the_result_cannot_be_written_and_is_written_later(
        tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database goes between the commit of the move that ends the game and the writing
    of its result: the move is not refused (it is saved: "nothing changed" would be
    untrue), and the result is written once the database answers again."""
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock, backoff=QUICK)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN])
        real_finish = db.games.finish_game
        refusals = 3

        async def finish_game(*args: Any, **kwargs: Any) -> Any:
            nonlocal refusals
            if refusals:
                refusals -= 1
                raise DatabaseUnavailable("the test took the database away")
            return await real_finish(*args, **kwargs)

        monkeypatch.setattr(db.games, "finish_game", finish_game)
        for _ in range(2000):
            if not service.in_play(game_id) or service.registry.finishing:
                break
            user = next(u for u in (HOST, ANN) if service.view_for(game_id, u).legal)
            seen = service.view_for(game_id, user)
            await service.act(game_id, user, seen.legal[0].action, seen.action_count)
        else:
            pytest.fail("the game never ended")
        assert refusals < 3, "the game ended without writing its result"
        await asyncio.gather(*service.registry.finishing)
        assert refusals == 0
        assert (await db.games.game(game_id)).status.is_over
        assert not service.in_play(game_id)
        await service.close()


async def test_the_clock_loop_rides_out_the_outage_and_acts_once_it_is_back(
        tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, loop_errors: list[dict[str, object]]) -> None:
    caplog.set_level(logging.INFO, logger="bot.tables")
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock, backoff=QUICK)
        await service.start()
        game_id = await open_game(service, THREE_PLAYER, [HOST])
        await service.flush(game_id)
        before = service.spectator(game_id).action_count
        unplug = Unplugged(db, monkeypatch)
        unplug.away = True
        service.registry.wake.set()  # the loop looks at the clocks now, and finds no database
        await eventually(lambda: unplug.refused >= 10, "the clock loop to keep trying")
        clock.now += 7 * 24 * 3600  # meanwhile every clock of the game runs out
        unplug.away = False
        await eventually(lambda: not service.outage.down, "the clock loop to find it back")
        await eventually(lambda: service.spectator(game_id).action_count > before,
                         "the clock loop to act once the database is back")
        await service.flush(game_id)
        assert len(await db.actions.actions(game_id)) > before
        await service.close()
    assert (said(caplog, GONE), said(caplog, BACK)) == (1, 1), caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    no_task_died(loop_errors)
