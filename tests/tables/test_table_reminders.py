"""Reminders people choose, through the table service with a fake clock: the moments (turn
start, 75 %, 90 % "time nearly up") and the ways (thread mention, DM, both) a person picks,
the table's pace's reminders for people who never chose (options stored before the choice
existed included), none at a table whose pace does not remind, the 90 % reminder waiting out
quiet hours, each ringing once across a restart, and a DM that can't be sent becoming a
mention."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from table_helpers import ANN, BO, HOST, Clock, Recorder, make_service, open_game

from bot.engine.errors import InvalidInput
from bot.engine.game import THREE_PLAYER
from bot.store import ClockKind, Database
from bot.tables.reminders import (
    Reminder,
    ReminderPoint,
    ReminderWay,
    check_moments,
    reminder_clocks,
)
from bot.tables.seat_options import SeatOptions
from bot.tables.service import TableService
from bot.tables.timekeeping import zone

HOUR = 3600
DAY = 24 * HOUR
NEW_YORK = "America/New_York"
NEARLY_UP_BY_DM = SeatOptions(remind_when="90", remind_by=ReminderWay.DM)


def ny(*when: int) -> float:
    """A New York wall-clock time (year, month, day, hour[, minute]) as a Unix time."""
    return datetime(*when, tzinfo=zone(NEW_YORK)).timestamp()  # type: ignore[misc]


@pytest.fixture
def clock() -> Clock:
    clock = Clock()
    clock.now = ny(2026, 6, 10, 12)
    return clock


async def reminded(service: TableService, recorder: Recorder, game_id: int,
                   now: float) -> list[tuple[int, Reminder]]:
    """Every reminder sent so far, once the clocks due at `now` have run."""
    await service.run_due_clocks(now)
    await service.flush(game_id)
    return recorder.reminders


async def reminder_kinds(db: Database, game_id: int, seat: int = 0) -> set[ClockKind]:
    return {c.kind for c in await db.clocks.clocks(game_id)
            if c.seat == seat and c.kind is not ClockKind.TURN}


def test_the_moments_people_choose_are_read_in_one_form() -> None:
    assert check_moments("90 start") == "start 90"
    assert check_moments("pace") == "pace"
    assert check_moments("pace 75") == "75"  # picked beside the table's: their own
    assert check_moments("") == check_moments("none") == "none"
    with pytest.raises(InvalidInput, match="not a moment to remind you at"):
        check_moments("50")
    # Never chose: the pace's (turn start and its share); the pace reminds not: none.
    assert reminder_clocks(None, 0.75) == ((ClockKind.START_REMINDER, 0.0),
                                          (ClockKind.REMINDER, 0.75))
    assert reminder_clocks(frozenset({ReminderPoint.NEARLY_UP}), 0.75) == (
        (ClockKind.NEARLY_UP_REMINDER, 0.9),)
    assert reminder_clocks(frozenset(ReminderPoint), None) == ()


def test_options_stored_before_the_choice_read_as_they_played() -> None:
    old = SeatOptions.from_json('{"dm_reminders": true, "auto_sort": false}')
    assert (old.remind_when, old.remind_by, old.auto_sort) == ("pace", ReminderWay.BOTH, False)
    plain = SeatOptions.from_json('{"auto_sort": true}')
    assert (plain.reminder_points(), plain.remind_by) == (None, ReminderWay.THREAD)
    chosen = SeatOptions.from_json(NEARLY_UP_BY_DM.to_json())
    assert chosen == NEARLY_UP_BY_DM
    assert chosen.reminder_points() == frozenset({ReminderPoint.NEARLY_UP})


async def test_only_90_percent_by_dm_is_one_dm_when_time_is_nearly_up(
        tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        await service.set_player_options(HOST, NEARLY_UP_BY_DM)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        turn_due = clock.now + DAY
        assert await reminder_kinds(db, game_id) == {ClockKind.NEARLY_UP_REMINDER}
        assert await reminded(service, recorder, game_id, clock.now) == []  # not at start
        assert await reminded(service, recorder, game_id, clock.now + 0.75 * DAY) == []
        nudge = Reminder(turn_due, nearly_up=True, mention=False, dm=True)
        # 90 % of 24 hours: 21 h 36 m in.
        assert await reminded(service, recorder, game_id,
                              clock.now + 0.9 * DAY - 1) == []
        assert await reminded(service, recorder, game_id, clock.now + 0.9 * DAY) == [
            (0, nudge)]
        assert await reminded(service, recorder, game_id, clock.now + 0.95 * DAY) == [
            (0, nudge)]  # once
        await service.close()


async def test_who_never_chose_gets_the_paces_reminders_and_old_options_too(
        tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        # Ann's options were kept before reminders were chosen: "by DM too" was on.
        await db.players.set_options(ANN, '{"dm_reminders": true}')
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        assert await reminder_kinds(db, game_id) == {ClockKind.START_REMINDER,
                                                      ClockKind.REMINDER}
        turn_due = clock.now + DAY
        start = Reminder(turn_due, nearly_up=False, mention=True, dm=False)
        assert await reminded(service, recorder, game_id, clock.now) == [(0, start)]
        assert await reminded(service, recorder, game_id, clock.now + 0.75 * DAY) == [
            (0, start), (0, start)]
        assert service.table(game_id).options_of(1).remind_by is ReminderWay.BOTH
        await service.close()


async def test_a_table_whose_pace_does_not_remind_ignores_the_choice(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        await service.set_player_options(HOST, SeatOptions(remind_when="start 75 90"))
        for pace in ("live", "relaxed"):
            game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace=pace)
            assert await reminder_kinds(db, game_id) == set()
        await service.close()


async def test_the_90_percent_reminder_waits_out_quiet_hours(tmp_path: Path,
                                                             clock: Clock) -> None:
    clock.now = ny(2026, 6, 10, 14)
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        await service.set_player_options(HOST, SeatOptions(
            time_zone=NEW_YORK, quiet_hours="23:00-07:00", remind_when="90",
            remind_by=ReminderWay.DM))
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async",
                                  turn="10h")
        # 9 hours of clock (90 %) run out at 23:00, as the quiet hours begin: it waits.
        assert await reminded(service, recorder, game_id, ny(2026, 6, 10, 23)) == []
        assert await reminded(service, recorder, game_id, ny(2026, 6, 11, 6, 59)) == []
        turn_due = ny(2026, 6, 11, 8)  # the last hour runs from 07:00
        assert await reminded(service, recorder, game_id, ny(2026, 6, 11, 7)) == [
            (0, Reminder(turn_due, nearly_up=True, mention=False, dm=True))]
        await service.close()


async def test_three_chosen_moments_each_ring_once_across_a_restart(
        tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        await service.set_player_options(HOST, SeatOptions(remind_when="start 75 90",
                                                           remind_by=ReminderWay.BOTH))
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        assert await reminder_kinds(db, game_id) == {
            ClockKind.START_REMINDER, ClockKind.REMINDER, ClockKind.NEARLY_UP_REMINDER}
        assert len(await reminded(service, recorder, game_id, clock.now + 0.75 * DAY)) == 2
        await service.close()
        recorder = Recorder()
        service = make_service(db, recorder, clock)
        await service.start(run_clocks=False)
        assert await reminded(service, recorder, game_id, clock.now + 0.8 * DAY) == []
        [(seat, last)] = await reminded(service, recorder, game_id, clock.now + 0.9 * DAY)
        assert (seat, last.nearly_up, last.mention, last.dm) == (0, True, True, True)
        await service.close()


async def test_a_dm_reminder_to_closed_dms_is_a_mention(tmp_path: Path,
                                                        clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        await service.set_player_options(HOST, SeatOptions(remind_when="start",
                                                           remind_by=ReminderWay.DM))
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        await service.mark_dm_closed(game_id, 0)
        [(_, sent)] = await reminded(service, recorder, game_id, clock.now)
        assert (sent.mention, sent.dm) == (True, False)
        await service.close()


async def test_a_choice_changed_mid_turn_never_rings_a_reminder_again(
        tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        await service.set_player_options(HOST, SeatOptions(remind_when="start 75"))
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        assert len(await reminded(service, recorder, game_id, clock.now)) == 1
        # Mid-turn the clocks are planned again: the one that rang has rung, a moment
        # dropped stops at once, one added waits for the next turn (its share is of a
        # whole turn, which this one no longer has).
        clock.now += HOUR
        await service.set_player_options(HOST, SeatOptions(remind_when="start 90",
                                                           remind_by=ReminderWay.BOTH))
        assert await reminder_kinds(db, game_id) == set()
        # Up to just before the turn runs out (a 90 % armed now would have rung).
        assert len(await reminded(service, recorder, game_id, clock.now + DAY - 2 * HOUR)) == 1
        await service.close()
