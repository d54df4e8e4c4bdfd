"""Workers taking a game's clicks in turn: a copy that missed only another process's moves
catches up on them (`Restorer.catch_up`) instead of rebuilding the game from its whole log,
and ends exactly as a rebuild would leave it; any other change, or a missed move that seats a
stand-in bot, still rebuilds it; and messages a stopped process left pending are sent by the
process that catches up."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from table_helpers import (
    ANN,
    BO,
    CY,
    HOST,
    Clock,
    Recorder,
    let_clocks_run,
    make_service,
    open_game,
)

from bot.engine.game import STANDARD, THREE_PLAYER
from bot.store import OUTBOX_LEASE, Database, DeliveryKind, NewDelivery
from bot.tables.delivery import entry_body
from bot.tables.live import LiveGame
from bot.tables.restore import Restorer
from bot.tables.service import TableService


@dataclass
class Counted:
    """How often each process rebuilt a game and caught one up."""

    rebuilds: int = 0
    catch_ups: int = 0


def counting(service: TableService, monkeypatch: pytest.MonkeyPatch) -> Counted:
    """Count `service`'s rebuilds and the catch-ups that succeeded."""
    counted = Counted()
    restorer = service.moves.restorer
    rebuild, catch_up = restorer.rebuild, restorer.catch_up

    async def counting_rebuild(*args: object, **kwargs: object) -> object:
        counted.rebuilds += 1
        return await rebuild(*args, **kwargs)  # type: ignore[arg-type]

    async def counting_catch_up(live: LiveGame) -> object:
        caught = await catch_up(live)
        counted.catch_ups += caught is not None
        return caught

    monkeypatch.setattr(restorer, "rebuild", counting_rebuild)
    monkeypatch.setattr(restorer, "catch_up", counting_catch_up)
    return counted


async def as_rebuilt(service: TableService, game_id: int) -> LiveGame:
    """The game as a fresh rebuild from the store makes it (the held copy left alone)."""
    return (await Restorer(service.registry).rebuild(game_id)).live


def same_game(held: LiveGame, rebuilt: LiveGame) -> None:
    """Everything a move reads of a copy is what a rebuild gives."""
    assert held.state == rebuilt.state
    assert held.saved == rebuilt.saved
    assert held.options.options == rebuilt.options.options
    assert held.options.since == rebuilt.options.since
    assert held.stand_ins == rebuilt.stand_ins
    assert held.clocks == rebuilt.clocks
    assert held.clock_moment == rebuilt.clock_moment


async def one_move(service: TableService, game_id: int, humans: list[int]) -> None:
    """The first person who may act makes their first legal move, through `service`."""
    await service.visit(game_id)
    user = next(u for u in humans if service.view_for(game_id, u).legal)
    seen = service.view_for(game_id, user)
    await service.act(game_id, user, seen.legal[0].action, seen.action_count)


@pytest.fixture
def target(either_database: str) -> str:
    """The shared database: a file, or a PostgreSQL database (as HTTP workers share)."""
    return either_database


@pytest.mark.parametrize("rules", [THREE_PLAYER, STANDARD], ids=["three", "four"])
async def test_workers_taking_clicks_in_turn_catch_up_and_match_a_rebuild(
        target: str, monkeypatch: pytest.MonkeyPatch, rules: object) -> None:
    """Two processes (each with its own connection to the database) take a game's moves
    in turn; each catches up on the other's and ends as a rebuild would leave it."""
    clock = Clock()
    humans = [HOST, ANN, BO, CY][:3 if rules is THREE_PLAYER else 4]
    async with Database(target, owner="first") as db, \
            Database(target, owner="second") as other_db:
        first = make_service(db, Recorder(), clock)
        second = make_service(other_db, Recorder(), clock)
        game_id = await open_game(first, rules, humans)  # type: ignore[arg-type]
        await second.visit(game_id)  # loaded once: a rebuild
        counts = (counting(first, monkeypatch), counting(second, monkeypatch))
        for turn in range(40):
            await one_move((first, second)[turn % 2], game_id, humans)
        for service in (first, second):
            await service.visit(game_id)
            same_game(service.registry.games[game_id], await as_rebuilt(service, game_id))
        assert [c.rebuilds for c in counts] == [0, 0]
        assert min(c.catch_ups for c in counts) >= 19
        assert first.spectator(game_id).action_count == second.spectator(game_id).action_count
        await first.close()
        await second.close()


async def test_a_change_of_seats_or_options_still_rebuilds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    humans = [HOST, ANN, BO]
    async with Database(tmp_path / "j.db") as db:
        first = make_service(db, Recorder(), clock)
        second = make_service(db, Recorder(), clock)
        game_id = await open_game(first, THREE_PLAYER, humans)
        await second.visit(game_id)
        counted = counting(second, monkeypatch)
        await one_move(first, game_id, humans)
        await db.seats.set_dm_closed(game_id, 1, True)  # what another process may write
        await second.visit(game_id)
        assert (counted.rebuilds, counted.catch_ups) == (1, 0)
        assert 1 in second.registry.games[game_id].dm_closed
        same_game(second.registry.games[game_id], await as_rebuilt(second, game_id))
        await first.close()
        await second.close()


async def test_a_missed_move_that_seats_a_stand_in_rebuilds_with_its_bot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other process's clocks ran out on the host until the bot kept the seat (Ann
    playing her moves): the copy that missed it is rebuilt, so the stand-in bot is seated
    there too."""
    clock = Clock()
    async with Database(tmp_path / "j.db") as db:
        first = make_service(db, Recorder(), clock)
        second = make_service(db, Recorder(), clock)
        game_id = await open_game(first, THREE_PLAYER, [HOST, ANN])
        await second.visit(game_id)
        counted = counting(second, monkeypatch)
        for _ in range(500):
            if first.stand_ins(game_id).seats:
                break
            await let_clocks_run(first, db, clock, game_id)
        else:
            pytest.fail("the bot never kept the host's seat")
        await second.visit(game_id)
        held = second.registry.games[game_id]
        assert (counted.rebuilds, counted.catch_ups) == (1, 0)
        assert held.stand_ins.seats == {0} and 0 in held.stand_in_bots
        same_game(held, await as_rebuilt(second, game_id))
        await first.close()
        await second.close()


async def test_messages_a_stopped_process_left_pending_are_sent_by_the_one_that_catches_up(
        tmp_path: Path) -> None:
    clock = Clock()
    humans = [HOST, ANN, BO]
    async with Database(tmp_path / "j.db", clock=clock) as db:
        first = make_service(db, Recorder(), clock)
        recorder = Recorder()
        second = make_service(db, recorder, clock)
        game_id = await open_game(first, THREE_PLAYER, humans)
        await second.visit(game_id)
        await one_move(first, game_id, humans)
        at = len(await db.actions.actions(game_id))
        # A process that committed a move's message and stopped before sending it.
        await db.actions.append_actions(game_id, at, [], outbox=[NewDelivery(
            DeliveryKind.TABLE, at, None, entry_body(lines=["left behind"], new_turn=False))])

        def told() -> bool:
            return any("left behind" in update.lines for update in recorder.tables)

        await second.visit(game_id)
        await second.flush(game_id)
        assert not told()  # its own process may still send it
        clock.now += OUTBOX_LEASE + 1
        await one_move(first, game_id, humans)
        await second.visit(game_id)
        await second.flush(game_id)
        assert told()
        assert not [e for e in await db.outbox.pending(game_id) if "left behind" in e.body]
        await first.close()
        await second.close()
