"""Trying to break the clocks and presence, as a traveller, a night owl, a careless player and a
busy machine would, through the table service with the tests' clock. Each probe asserts what
should hold (nobody loses time they were promised; clocks, reminders and notices come at the
promised moments and only then), not only that nothing crashed. What the other clock files
cover (quiet hours across midnight, the DST nights' arithmetic, a vacation pausing two games,
budgets, reminders ringing once, stand-ins counted) is not repeated here."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import pytest
from table_helpers import ANN, BO, CARD_TEXT, HOST, Clock, Recorder, make_service, open_game
from test_table_away import (
    AWAY_SEAT,
    PLAYERS,
    SLEEPER,
    could_call,
    league_season,
    lines_with,
    marked,
    others_play,
)

from bot.engine.game import STANDARD, THREE_PLAYER, Phase
from bot.store import ClockKind, Database, PlayedFor
from bot.tables.options import TableOptions
from bot.tables.seat_options import AutoDiscard, SeatOptions
from bot.tables.service import DEFAULT_AUTO_DELAY, TableService
from bot.tables.timekeeping import Pauses, QuietHours, active_seconds, deadline, zone
from bot.tables.zones import read_zone

HOUR = 3600
DAY = 24 * HOUR
NEW_YORK = "America/New_York"
TOKYO = "Asia/Tokyo"


def at(zone_name: str, *when: int) -> float:
    """A wall-clock time in a zone (year, month, day, hour[, minute]) as a Unix time."""
    return datetime(*when, tzinfo=zone(zone_name)).timestamp()  # type: ignore[misc]


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def clock_due(db: Database, game_id: int, kind: ClockKind,
                    seat: int | None = None) -> float:
    """When the game's one clock of `kind` (for `seat`) runs out, as the store has it."""
    [found] = [c.due_at for c in await db.clocks.clocks(game_id)
               if c.kind is kind and c.seat == seat]
    return found


@contextlib.asynccontextmanager
async def restarted(path: Path | str, clock: Clock, game_id: int, *, rounds: int
                    ) -> AsyncIterator[tuple[Database, TableService, Recorder]]:
    """The bot started again on the database at `path`, down until `clock.now`: the clocks
    that came due meanwhile acted on (`rounds` passes, for what each move makes due), the
    game's messages out; closed at the end."""
    recorder = Recorder()
    async with Database(path) as db:
        service = make_service(db, recorder, clock)
        await service.start(run_clocks=False)
        try:
            for _ in range(rounds):
                await service.run_due_clocks()
            await service.flush(game_id)
            yield db, service, recorder
        finally:
            await service.close()


def moves(service: TableService, game_id: int) -> int:
    return service.spectator(game_id).action_count


# -- a night owl's nap on the night the clocks spring forward ------------------------------------


@pytest.mark.parametrize(("day", "nap"), [((2026, 3, 8), 0), ((2026, 11, 1), 30 * 60)],
                         ids=["spring-forward", "fall-back"])
async def test_a_short_nap_on_a_clock_change_night_costs_no_time(
        tmp_path: Path, clock: Clock, day: tuple[int, int, int], nap: int) -> None:
    """Quiet hours 02:30-03:00 in New York. On the spring day 02:30 never happens (read as
    03:30, after the nap's end: no nap that night); on the autumn day 02:30-03:00 happens
    once, after the repeated hour (30 minutes). A 4-hour turn from midnight must get its 4
    hours of clock, plus the nap: never less (a night owl is never timed out early)."""
    quiet = SeatOptions(time_zone=NEW_YORK, quiet_hours="02:30-03:00")
    clock.now = at(NEW_YORK, *day, 0)
    pauses = Pauses(NEW_YORK, QuietHours(150, 180))
    assert deadline(clock.now, 4 * HOUR, pauses) == clock.now + 4 * HOUR + nap
    assert active_seconds(clock.now, clock.now + 4 * HOUR, pauses) == 4 * HOUR - nap
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        await service.set_player_options(HOST, quiet)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async",
                                  turn="4h")
        assert await clock_due(db, game_id, ClockKind.TURN, 0) == clock.now + 4 * HOUR + nap
        count = moves(service, game_id)
        await service.run_due_clocks(clock.now + 4 * HOUR + nap - 1)
        assert moves(service, game_id) == count  # not a second early
        await service.close()


# -- a busy machine: down while a sleeper's claim window ran out ---------------------------------


async def window_the_sleeper_could_call(service: TableService, clock: Clock,
                                        game_id: int) -> None:
    """Play on (Ann and Bo passing where they may, the automatic answers running) until a
    claim window the away seat could call in is open and only it is left to answer; fails
    if that never happens."""
    for _ in range(400):
        if service.spectator(game_id).phase is Phase.CLAIM and could_call(service, game_id):
            while await others_play(service, game_id):  # only the away seat keeps it open
                if service.spectator(game_id).phase is not Phase.CLAIM:
                    break
            else:
                return
            continue
        if not await others_play(service, game_id):
            clock.now += DEFAULT_AUTO_DELAY + 0.01
            await service.run_due_clocks()
    raise AssertionError("the away seat never could call")


@pytest.mark.parametrize("why", ["asleep", "on vacation"])
async def test_a_claim_window_that_ran_out_while_the_bot_was_down_is_no_timeout(
        either_database: str, clock: Clock, why: str) -> None:
    """A claim window the away seat could call in opens while its holder sleeps (Tokyo,
    22:00-08:00) or is on a one-day personal vacation, and the bot stops before even the
    automatic delay has passed. It starts again days later, when they are awake and back:
    the window ran out while they were away, so it is answered as their settings would
    (a pass), never as a timeout; no move is lost or made twice. On PostgreSQL, shared by
    processes, the vacations are read again before each move: as of when the window ran
    out, not only now."""
    clock.now = at(TOKYO, 2026, 6, 10, 23) if why == "asleep" else at(TOKYO, 2026, 6, 10, 12)
    path = either_database
    async with Database(path) as db:
        service = make_service(db, Recorder(), clock)
        service.new_seed = lambda: 1
        await service.set_player_options(HOST, SLEEPER if why == "asleep" else SeatOptions(
            auto_discard=AutoDiscard.DRAWN))
        game_id = await open_game(service, THREE_PLAYER, PLAYERS, pace="async",
                                  vacations=why == "on vacation")
        if why == "on vacation":
            await service.start_vacation(HOST, None, days=1)
        await window_the_sleeper_could_call(service, clock, game_id)
        before = [a.text for a in await db.actions.actions(game_id)]
        window = await clock_due(db, game_id, ClockKind.CLAIM)
        await service.close()
    assert window < clock.now + DAY
    clock.now = at(TOKYO, 2026, 6, 13, 12)  # down for days: now awake, and back from vacation
    async with restarted(path, clock, game_id, rounds=5) as (db, service, recorder):
        after = [a.text for a in await db.actions.actions(game_id)]
        assert after[:len(before)] == before and len(after) > len(before)
        assert not could_call(service, game_id) or moves(service, game_id) > len(before)
        assert await marked(db, game_id, PlayedFor.TIMEOUT, AWAY_SEAT) == 0, (
            f"timed out for a window that ran out at {window}, while {why}")
        assert lines_with(recorder, "Time ran out") == []
        if why == "on vacation":  # and the table hears, once, that they are back
            assert len(lines_with(recorder, "Player 1 is back from vacation")) == 1


# -- a careless player: back from a stand-in while someone else's window runs --------------------


async def test_a_seat_reclaimed_in_a_claim_window_tells_nobody_a_longer_clock(
        tmp_path: Path, clock: Clock) -> None:
    """The host times out once at a table whose bot keeps a seat after one timeout, and the
    bot plays for them. Six seconds into a ten-second claim window Ann is deciding in, the
    host reclaims their seat: every prompt that goes out then shows the time really left
    (the window keeps its deadline), not a fresh ten seconds; and the window closes then."""
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        game = await service.open_table(
            guild_id=1, channel_id=2, host_id=HOST, host_name="Host",
            options=TableOptions(THREE_PLAYER, "jongg-original", CARD_TEXT, pace="live",
                                 stand_in_after=1))
        await service.join(game.id, ANN, "Ann")
        await service.start_game(game.id, HOST)
        for _ in range(500):
            mine = service.view_for(game.id, ANN)
            if (mine.phase is Phase.CLAIM and mine.legal
                    and service.stand_ins(game.id).stood_in(0)):
                break
            if mine.legal:
                await service.act(game.id, ANN, mine.legal[0].action, mine.action_count)
                continue
            due = await db.clocks.next_due()
            assert due is not None, "nobody is waiting for anything"
            clock.now = max(clock.now, due) + 0.01
            await service.run_due_clocks()
        else:
            raise AssertionError("Ann was never asked in a window while the bot kept the seat")
        window = await clock_due(db, game.id, ClockKind.CLAIM)
        clock.now = window - 4  # four seconds left
        await service.flush(game.id)
        recorder.seats.clear()
        await service.reclaim(game.id, HOST)
        await service.flush(game.id)
        shown = {seat: update.deadline for seat, update in recorder.seats if update.must_act}
        assert shown.get(1) == window, f"Ann is shown {shown.get(1)}, her window closes at {window}"
        assert await clock_due(db, game.id, ClockKind.CLAIM) == window
        count = moves(service, game.id)
        await service.run_due_clocks(window)
        assert moves(service, game.id) > count  # it closed when her prompt said
        await service.close()


# -- a director and a vacation only planned ------------------------------------------------------


async def test_a_budget_change_tells_nobody_of_a_vacation_only_planned(
        tmp_path: Path, clock: Clock) -> None:
    """The host plans two days away from tomorrow. A director raises the season's budget,
    then cuts it to none: the host has not gone anywhere, so the table hears neither that
    they are on vacation nor that they are back, then or when the planned day comes; the
    cut leaves no vacation of no length planned (it is off: none is left to take), and the
    host's clocks never pause for it."""
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        season = await league_season(db, vacation_days=5)
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, PLAYERS, pace="async")
        begins = clock.now + DAY
        planned = await service.start_vacation(HOST, season, start=begins, days=2)
        assert planned.planned is not None and planned.current is None
        await service.change_vacation_budget(season.league_id, 7, by=ANN, reason="summer")
        await service.flush(game_id)
        assert lines_with(recorder, "vacation") == [], "told of a vacation not begun"
        status = await service.vacation(HOST, season)
        assert status.current is None and status.planned is not None
        await service.change_vacation_budget(season.league_id, 0, by=ANN, reason="no more")
        await service.flush(game_id)
        assert lines_with(recorder, "vacation") == [], "told of a vacation not begun"
        status = await service.vacation(HOST, season)
        assert (status.current, status.planned, status.used) == (None, None, 0), status
        clock.now = begins + HOUR  # the day it would have begun
        await service.run_due_clocks()
        await service.run_due_clocks()
        await service.flush(game_id)
        assert lines_with(recorder, "vacation") == []
        assert not [c for c in await db.clocks.clocks(game_id) if c.kind is ClockKind.AWAY]
        await service.close()


# -- a busy machine: down past a reminder, and past the turn it was for ---------------------------


@pytest.mark.parametrize(("down", "reminded"), [(20 * HOUR, 1), (2 * DAY, 0)],
                         ids=["turn-still-running", "turn-ran-out"])
async def test_a_reminder_missed_while_down_comes_only_while_the_move_can_be_made(
        tmp_path: Path, clock: Clock, down: float, reminded: int) -> None:
    """The host's turn starts (a day's clock; reminded at its start and at 75 %, 18 hours
    in), and the bot is down from the 17th hour. Back at the 20th hour the 75 % reminder
    still comes, late, once: the move is still theirs to make. Back after two days the
    turn ran out while the bot was down: it is played for them and they are told so, with
    no reminder of a move that is no longer theirs ("due 1 day ago")."""
    path = tmp_path / "j.db"
    started = clock.now
    async with Database(path) as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        await service.run_due_clocks()  # the turn's start: rung
        clock.now = started + 17 * HOUR
        await service.run_due_clocks()
        await service.close()
    clock.now = started + down
    async with restarted(path, clock, game_id, rounds=3) as (_, _, recorder):
        assert [seat for seat, _ in recorder.reminders] == [0] * reminded, recorder.reminders
        ran_out = [line for seat, update in recorder.seats if seat == 0
                   for line in update.lines if line.startswith("Your time ran out")]
        assert len(ran_out) == 1 - reminded


# -- three players at the edges of the clock face, all asleep at once ---------------------------


async def test_three_sleepers_at_the_edges_of_the_clock_face_each_get_their_own_day(
        tmp_path: Path, clock: Clock) -> None:
    """At 12:00 UTC an async table starts its Charleston with every person asleep: the host
    at UTC+14 (02:00 tomorrow there), Ann at UTC+5:45 (17:45, her quiet hours begin at
    16:00) and Bo at UTC-12 (midnight), each written as people write offsets. Nothing
    moves while they all sleep; each one's day of clock starts at their own 08:00 and
    counts only their waking hours, and Ann's, which would run out exactly as her quiet
    hours begin, runs out when they end. Each prompt promises that moment, and the first
    to run out times out only its own seat."""
    clock.now = at("UTC", 2026, 6, 10, 12)
    readings = {user: read_zone(typed, clock.now) for user, typed in (
        (HOST, "UTC+14"), (ANN, "UTC+5:45"), (BO, "UTC-12"))}
    assert [r.name for r in readings.values()] == [
        "Pacific/Kiritimati", "Asia/Kathmandu", "Etc/GMT+12"]
    kiritimati, kathmandu, minus_twelve = (r.name for r in readings.values())
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        for user, quiet in ((HOST, "22:00-08:00"), (ANN, "16:00-08:00"), (BO, "22-8")):
            await service.set_player_options(user, SeatOptions(
                time_zone=readings[user].name, quiet_hours=quiet))
        game_id = await open_game(service, STANDARD, [HOST, ANN, BO], pace="async")
        assert service.spectator(game_id).phase is Phase.CHARLESTON
        expected = {0: at(kiritimati, 2026, 6, 12, 18),  # 14 waking hours, then 10
                    1: at(kathmandu, 2026, 6, 14, 8),  # 8 a day: 16:00 on the 13th
                    2: at(minus_twelve, 2026, 6, 11, 18)}
        for seat, due in expected.items():
            assert await clock_due(db, game_id, ClockKind.TURN, seat) == due, seat
        await service.flush(game_id)
        shown = {seat: update.deadline for seat, update in recorder.seats if update.must_act}
        assert shown == expected
        first = min(expected.values())
        count = moves(service, game_id)
        await service.run_due_clocks(first - 1)
        assert moves(service, game_id) == count  # all asleep, then all awake in time
        clock.now = first
        await service.run_due_clocks()
        timed_out = [seat for seat in expected if await marked(
            db, game_id, PlayedFor.TIMEOUT, seat)]
        assert timed_out == [min(expected, key=lambda s: expected[s])]
        await service.close()


# -- a traveller changes time zone mid-turn, twice ----------------------------------------------


async def test_a_traveller_who_changes_zone_mid_turn_keeps_exactly_the_time_left(
        tmp_path: Path, clock: Clock) -> None:
    """The host (quiet hours 23:00-07:00) starts a day's turn at noon in New York. Eight
    hours in they land in Tokyo (09:00 there, awake) and set their zone: the 16 hours left,
    and the 10 left before the 75 % reminder, run on Tokyo's clock. Three hours later they
    fly home and set New York again, landing at 23:00 there, as their quiet hours begin:
    nothing runs until 07:00, then the 13 hours left. The turn gets its 24 hours of waking
    time, no more and no less, and the reminder comes 18 hours of it in."""
    new_york = SeatOptions(time_zone=NEW_YORK, quiet_hours="23:00-07:00")
    tokyo = SeatOptions(time_zone=TOKYO, quiet_hours="23:00-07:00")
    clock.now = at(NEW_YORK, 2026, 6, 10, 12)
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        await service.set_player_options(HOST, new_york)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        assert await clock_due(db, game_id, ClockKind.TURN, 0) == at(NEW_YORK, 2026, 6, 11, 20)
        await service.run_due_clocks()  # the turn's start is reminded of at once
        await service.flush(game_id)
        assert len(recorder.reminders) == 1
        recorder.reminders.clear()
        clock.now = at(NEW_YORK, 2026, 6, 10, 20)
        assert clock.now == at(TOKYO, 2026, 6, 11, 9)
        await service.set_player_options(HOST, tokyo)
        assert await clock_due(db, game_id, ClockKind.TURN, 0) == at(TOKYO, 2026, 6, 12, 9)
        assert await clock_due(db, game_id, ClockKind.REMINDER, 0) == at(TOKYO, 2026, 6, 11, 19)
        clock.now = at(TOKYO, 2026, 6, 11, 12)
        assert clock.now == at(NEW_YORK, 2026, 6, 10, 23)
        await service.set_player_options(HOST, new_york)
        assert await clock_due(db, game_id, ClockKind.TURN, 0) == at(NEW_YORK, 2026, 6, 11, 20)
        reminder = await clock_due(db, game_id, ClockKind.REMINDER, 0)
        assert reminder == at(NEW_YORK, 2026, 6, 11, 14)
        count = moves(service, game_id)
        await service.run_due_clocks(reminder - 1)
        await service.flush(game_id)
        assert recorder.reminders == [] and moves(service, game_id) == count
        await service.run_due_clocks(reminder)
        await service.flush(game_id)
        assert [(seat, r.due_at) for seat, r in recorder.reminders] == [
            (0, at(NEW_YORK, 2026, 6, 11, 20))]
        await service.run_due_clocks(at(NEW_YORK, 2026, 6, 11, 20) - 1)
        assert moves(service, game_id) == count
        await service.run_due_clocks(at(NEW_YORK, 2026, 6, 11, 20))
        assert moves(service, game_id) > count
        await service.close()
