"""Delivery through the outbox, with a notifier that fails on cue: retries in order, give-ups
that never stall a game, games that do not hold each other up, resending after a crash, and
games that leave memory once they are over and delivered."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from table_helpers import (
    ANN,
    BO,
    HOST,
    Clock,
    Recorder,
    league_season,
    make_service,
    open_game,
    play_out,
)

from bot.engine.errors import IllegalAction
from bot.engine.game import THREE_PLAYER, Pass, View
from bot.league.tournament import TIME_UP
from bot.store import Database, DeliveryKind, DeliveryState
from bot.tables.delivery import Backoff
from bot.tables.errors import Restarting
from bot.tables.notifier import (
    Delivery,
    DeliveryFailed,
    Refused,
    RetryLater,
    SeatUpdate,
    Table,
    TableUpdate,
)

QUICK = Backoff(first=0.001, cap=0.01, attempts=1000)


@dataclass
class Flaky(Recorder):
    """A recorder whose calls fail as scripted: `failures[kind]` are raised, in order, by the
    next calls of that kind ("table", "seat", "over") before they are recorded; a call of a
    kind in `hold`, or for a game in `hold_games`, waits until that event is set (a send that
    does not come back). `arrived[kind]` is set once a call of that kind has begun."""

    failures: dict[str, list[DeliveryFailed]] = field(default_factory=dict)
    hold: dict[str, asyncio.Event] = field(default_factory=dict)
    hold_games: dict[int, asyncio.Event] = field(default_factory=dict)
    arrived: defaultdict[str, asyncio.Event] = field(
        default_factory=lambda: defaultdict(asyncio.Event))
    tries: dict[str, int] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)
    #: What went through: the kind, the game and the action count of the view it showed.
    shown: list[tuple[str, int, int]] = field(default_factory=list)

    async def _try(self, kind: str, table: Table, delivery: Delivery) -> None:
        self.tries[kind] = self.tries.get(kind, 0) + 1
        self.keys.append(delivery.key)
        self.arrived[kind].set()
        for hold in (self.hold.get(kind), self.hold_games.get(table.game_id)):
            if hold is not None:
                await hold.wait()
        waiting = self.failures.get(kind)
        if waiting:
            raise waiting.pop(0)

    async def table_update(self, table: Table, update: TableUpdate,
                           delivery: Delivery) -> None:
        await self._try("table", table, delivery)
        await super().table_update(table, update, delivery)
        self.shown.append(("table", table.game_id, update.view.action_count))

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate,
                          delivery: Delivery) -> None:
        await self._try("seat", table, delivery)
        await super().seat_update(table, seat, update, delivery)
        self.shown.append(("seat", table.game_id, update.view.action_count))

    async def game_over(self, table: Table, view: View, delivery: Delivery) -> None:
        await self._try("over", table, delivery)
        await super().game_over(table, view, delivery)


@dataclass(frozen=True)
class Watched(Backoff):
    """The backoff, noting every wait it is asked for (attempt, what the outside asked)."""

    asked: list[tuple[int, float | None]] = field(default_factory=list)

    def delay(self, attempt: int, asked: float | None) -> float:
        self.asked.append((attempt, asked))
        return super().delay(attempt, asked)


def _senders() -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if t.get_name().startswith("jongg-send-")]


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def test_rate_limits_are_waited_out_and_the_update_arrives_once_in_order(
        tmp_path: Path, clock: Clock) -> None:
    flaky = Flaky(failures={"table": [RetryLater("rate limited", after=0.002)] * 5})
    backoff = Watched(first=0.05)
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, flaky, clock, backoff=backoff)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO])
        await service.flush(game_id)
        assert backoff.asked == [(n, 0.002) for n in range(1, 6)]
        assert flaky.tries["table"] == 6
        assert len(flaky.tables) == 1 and flaky.tables[0].new_turn
        # Every attempt at one entry used the same key; the DMs waited for the table post.
        assert flaky.keys[:6] == [flaky.keys[0]] * 6
        assert len(flaky.seats) == 3 and flaky.tries["seat"] == 3
        [table, *_] = await db.outbox.entries(game_id)
        assert (table.state, table.attempts, table.error) == (DeliveryState.SENT, 5,
                                                              "rate limited")
        await service.close()


async def test_a_refused_or_hopeless_entry_is_given_up_and_the_rest_goes_out(
        tmp_path: Path, clock: Clock) -> None:
    flaky = Flaky(failures={"table": [RetryLater("Discord answered 502")] * 3,
                            "seat": [Refused("Discord refused it (400)")]})
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, flaky, clock, backoff=Backoff(first=0.001, attempts=3))
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO])
        await service.flush(game_id)
        # The table post was tried three times, the first DM once; the other DMs arrived.
        assert flaky.tries == {"table": 3, "seat": 3}
        assert flaky.tables == [] and len(flaky.seats) == 2
        states = [(e.kind, e.state, e.attempts) for e in await db.outbox.entries(game_id)]
        assert states == [(DeliveryKind.TABLE, DeliveryState.FAILED, 3),
                          (DeliveryKind.SEAT, DeliveryState.FAILED, 0),
                          (DeliveryKind.SEAT, DeliveryState.SENT, 0),
                          (DeliveryKind.SEAT, DeliveryState.SENT, 0)]
        # And the game goes on.
        mine = service.view_for(game_id, HOST)
        await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        await service.flush(game_id)
        assert len(flaky.seats) > 2
        await service.close()


async def test_one_games_trouble_does_not_hold_up_another(tmp_path: Path,
                                                          clock: Clock) -> None:
    stuck = asyncio.Event()
    flaky = Flaky(hold_games={1: stuck})  # the first game's table post hangs
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, flaky, clock)
        first = await open_game(service, THREE_PLAYER, [HOST])
        second = await open_game(service, THREE_PLAYER, [ANN])
        assert first == 1
        await asyncio.wait_for(service.flush(second), 10)  # not forever, if it is held up
        # The second game's messages went out; the first game's DM waits behind its post.
        assert len(flaky.tables) == 1 and [s for s, _ in flaky.seats] == [0]
        assert flaky.seats[0][1].view == service.view_for(second, ANN)
        # The first game goes on meanwhile; its updates wait, each for the moment it reports.
        for _ in range(2):
            mine = service.view_for(first, HOST)
            await service.act(first, HOST, mine.legal[0].action, mine.action_count)
        stuck.set()
        await service.flush(first)
        shown = [(kind, count) for kind, game, count in flaky.shown if game == first]
        counts = [count for kind, count in shown if kind == "seat"]
        assert len(counts) == 3 and counts == sorted(set(counts))
        assert shown[0][0] == "table" and shown[-1][1] == service.view_for(first, HOST).action_count
        await service.close()


async def test_a_crash_between_the_commit_and_the_send_is_made_good_by_the_restart(
        tmp_path: Path, clock: Clock) -> None:
    never = asyncio.Event()
    async with Database(tmp_path / "j.db") as db:
        crashing = Flaky(hold={"table": never})
        service = make_service(db, crashing, clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN])
        await service.close(grace=0)  # the process dies with the table post in flight
        assert crashing.tables == [] and crashing.seats == []
    async with Database(tmp_path / "j.db") as db:
        after = Recorder()
        service = make_service(db, after, clock)
        assert await service.start(run_clocks=False) == 1
        await service.flush(game_id)
        # Everything the start of play owed arrived, with the same keys as before.
        assert len(after.tables) == 1 and after.tables[0].new_turn
        assert sorted(seat for seat, _ in after.seats) == [0, 1]
        assert after.seats[0][1].view == service.view_for(game_id, HOST)
        assert [e.state for e in await db.outbox.entries(game_id)] == [DeliveryState.SENT] * 3
        await service.close()


async def test_a_finished_games_result_goes_out_after_a_restart(tmp_path: Path,
                                                                clock: Clock) -> None:
    never = asyncio.Event()
    async with Database(tmp_path / "j.db") as db:
        crashing = Flaky(hold={"over": never})
        service = make_service(db, crashing, clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST])
        await play_out(service, game_id, [HOST])
        await crashing.arrived["over"].wait()
        await service.close(grace=0)
        assert crashing.over == []
    async with Database(tmp_path / "j.db") as db:
        after = Recorder()
        service = make_service(db, after, clock)
        assert await service.start(run_clocks=False) == 0  # nothing left to play
        await service.flush(game_id)
        assert len(after.over) == 1 and after.over[0].result is not None
        # Delivered, the game left memory, and the store forgot what was sent.
        assert not service.in_play(game_id) and service.registry.games == {}
        assert await db.outbox.entries(game_id) == []
        await service.close()


async def test_a_hundred_finished_games_leave_nothing_in_memory(tmp_path: Path,
                                                                clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db", clock=clock) as db:
        await league_season(db, minutes=90)  # every game has a time limit
        service = make_service(db, recorder, clock)
        played = [await open_game(service, THREE_PLAYER, [HOST]) for _ in range(4)]
        for game_id in played:  # to Mah Jongg or a wall game
            await play_out(service, game_id, [HOST])
        aborted = [await open_game(service, THREE_PLAYER, [HOST]) for _ in range(48)]
        for game_id in aborted:
            await service.abort(game_id, HOST)
        timed_out = [await open_game(service, THREE_PLAYER, [HOST]) for _ in range(48)]
        await service.run_due_clocks(clock.now + 90 * 60 + 1)
        games = [*played, *aborted, *timed_out]
        for game_id in games:
            await service.flush(game_id)
        assert len(games) == 100
        assert service.registry.games == {}
        assert _senders() == []
        # Each was told how it ended before it left.
        assert len(recorder.over) == 4
        assert sum(TIME_UP in update.lines for update in recorder.tables) == 48
        statuses = {(await db.games.game(g)).status.value for g in games}
        assert statuses == {"finished", "aborted"}
        assert [e for g in games for e in await db.outbox.entries(g)] == []
        # A click on an old button of an ended game is answered kindly.
        with pytest.raises(IllegalAction, match="isn't running"):
            await service.act_option(played[0], HOST, 0, 0)
        with pytest.raises(IllegalAction, match="isn't running"):
            service.view_for(aborted[0], HOST)
        await service.close()


async def test_closing_lets_the_move_under_way_finish_and_refuses_the_next(
        tmp_path: Path, clock: Clock, caplog: pytest.LogCaptureFixture) -> None:
    """A stop under a click: the move already applying is committed and its messages go out
    before the store closes; a move asked for once closing has begun is refused with a
    restart message, changing nothing."""
    async with Database(tmp_path / "j.db") as db:
        recorder = Recorder()
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN])
        await service.flush(game_id)
        shown = len(recorder.tables)
        east = service.view_for(game_id, HOST)
        move = asyncio.create_task(service.act(game_id, HOST, east.legal[0].action,
                                               east.action_count))
        await asyncio.sleep(0)  # the move begins: it holds the game's lock until committed
        closing = asyncio.create_task(service.close())
        await asyncio.sleep(0)  # closing begins: from now on moves are refused
        with pytest.raises(Restarting, match="try again in a minute"):
            await service.act(game_id, ANN, Pass)
        await move
        await closing
        assert len(recorder.tables) > shown, "the move's table post never went out"
        entries = await db.outbox.entries(game_id)
        assert entries and all(e.state is DeliveryState.SENT for e in entries)
        saved = await db.actions.actions(game_id)
        assert saved[east.action_count].actor_user_id == HOST  # East's move was kept
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
