"""Clocks that respect people, through the table service with a fake clock: a table's own
clock lengths, turn clocks that pause in a player's quiet hours and resume with the time
left, reminders at the start of a turn and at 75 % (moved out of quiet hours, each sent
once, also across a restart), and vacations that pause a player's league games."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from table_helpers import ANN, BO, CARD_TEXT, HOST, Clock, Recorder, make_service, open_game

from bot.engine.errors import IllegalAction, InvalidInput
from bot.engine.game import THREE_PLAYER, Pass, Phase
from bot.engine.game.actions import Discard
from bot.engine.game.rules import rules_to_json
from bot.store import ClockKind, Database, Season, SeasonSettings
from bot.tables.auto import drawn_tile
from bot.tables.options import TableOptions
from bot.tables.seat_options import AutoDiscard, SeatOptions
from bot.tables.service import DEFAULT_AUTO_DELAY, TableService
from bot.tables.timekeeping import zone

HOUR = 3600
DAY = 24 * HOUR
NEW_YORK = "America/New_York"
NIGHT_OWL = SeatOptions(time_zone=NEW_YORK, quiet_hours="23:00-07:00")


def ny(*when: int) -> float:
    """A New York wall-clock time (year, month, day, hour) as a Unix time."""
    return datetime(*when, tzinfo=zone(NEW_YORK)).timestamp()  # type: ignore[misc]


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def due(db: Database, game_id: int, kind: ClockKind, seat: int | None = 0) -> float:
    """When the game's clock of `kind` (for `seat`) runs out."""
    [found] = [c.due_at for c in await db.clocks.clocks(game_id)
               if c.kind is kind and c.seat == seat]
    return found


def moves(service: TableService, game_id: int) -> int:
    return service.spectator(game_id).action_count


async def test_a_table_sets_its_own_clocks_within_bounds(tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game = await service.open_table(
            guild_id=1, channel_id=2, host_id=HOST, host_name="Host",
            options=TableOptions(THREE_PLAYER, "jongg-original", CARD_TEXT, pace="async",
                                 turn="6h", claim="30m"))
        assert (game.pace.name, game.pace.turn_seconds, game.pace.claim_seconds) == (
            "async", 6 * HOUR, 30 * 60)
        for turn, claim, error in (("10s", None, "turn clock must be from 30s to 7d"),
                                   (None, "2d", "claim window must be from 5s to 1d"),
                                   ("90", None, "with its unit")):
            with pytest.raises(InvalidInput, match=error):
                await service.open_table(
                    guild_id=1, channel_id=2, host_id=HOST, host_name="Host",
                    options=TableOptions(THREE_PLAYER, "jongg-original", CARD_TEXT,
                                         turn=turn, claim=claim))
        with pytest.raises(InvalidInput, match="untimed table has no clocks"):
            TableOptions(THREE_PLAYER, "jongg-original", CARD_TEXT, pace="untimed",
                         turn="1h").clocks()


async def test_a_turn_clock_pauses_in_quiet_hours_and_resumes_with_the_time_left(
        tmp_path: Path, clock: Clock) -> None:
    clock.now = ny(2026, 6, 10, 22)  # an hour before the host's quiet hours
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        await service.set_player_options(HOST, NIGHT_OWL)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        # 24 hours of clock: 1 before 23:00, 16 the next day (07:00-23:00), 7 the day after.
        assert await due(db, game_id, ClockKind.TURN) == ny(2026, 6, 12, 14)
        count = moves(service, game_id)
        await service.run_due_clocks(clock.now + DAY + HOUR)  # an unpaused clock was out
        assert moves(service, game_id) == count
        await service.run_due_clocks(ny(2026, 6, 12, 14))
        assert moves(service, game_id) > count  # then it runs out: the bot moved
        await service.close()


async def test_quiet_hours_changed_mid_turn_keep_the_time_left(tmp_path: Path,
                                                              clock: Clock) -> None:
    clock.now = ny(2026, 6, 10, 12)
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        assert await due(db, game_id, ClockKind.TURN) == clock.now + DAY
        clock.now += 2 * HOUR  # 14:00, 22 hours left
        await service.set_player_options(HOST, NIGHT_OWL)
        # 9 hours to 23:00, then 13 from 07:00: 20:00 the next day.
        assert await due(db, game_id, ClockKind.TURN) == ny(2026, 6, 11, 20)
        await service.close()


async def test_a_live_table_never_pauses_for_quiet_hours(tmp_path: Path, clock: Clock) -> None:
    clock.now = ny(2026, 6, 10, 2)  # in the host's quiet hours
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        await service.set_player_options(HOST, NIGHT_OWL)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="live")
        assert await due(db, game_id, ClockKind.TURN) == clock.now + 90
        await service.close()


async def test_reminders_at_the_start_and_at_75_percent_wait_for_quiet_hours_to_end(
        tmp_path: Path, clock: Clock) -> None:
    clock.now = ny(2026, 6, 10, 2)  # the turn starts in the host's quiet hours
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        await service.set_player_options(HOST, NIGHT_OWL)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        turn_due = ny(2026, 6, 11, 15)  # 16 hours on the 10th (07-23), 8 on the 11th
        assert await due(db, game_id, ClockKind.TURN) == turn_due

        async def reminded(now: float) -> list[tuple[int, float]]:
            await service.run_due_clocks(now)
            await service.flush(game_id)
            return [(seat, reminder.due_at) for seat, reminder in recorder.reminders]

        assert await reminded(ny(2026, 6, 10, 6) + 59 * 60) == []
        assert await reminded(ny(2026, 6, 10, 7)) == [(0, turn_due)]  # the turn's start
        assert await reminded(ny(2026, 6, 10, 8)) == [(0, turn_due)]  # once
        await service.close()
        # A restart does not send it again; the 75 % one (18 hours of clock) still comes.
        recorder = Recorder()
        service = make_service(db, recorder, clock)
        await service.start(run_clocks=False)
        assert await reminded(ny(2026, 6, 10, 8)) == []
        assert await reminded(ny(2026, 6, 11, 8) + 59 * 60) == []
        assert await reminded(ny(2026, 6, 11, 9)) == [(0, turn_due)]
        assert await reminded(ny(2026, 6, 11, 10)) == [(0, turn_due)]
        await service.close()


async def league_season(db: Database, vacation_days: int) -> Season:
    """An open three-player season of a league in the channel `open_game` uses."""
    league = await db.leagues.create_league(1, "Friday", 2, created_by=HOST)
    return await db.leagues.start_season(league.id, SeasonSettings(
        "Spring", 3, "jongg-original", "nmjl", rules_to_json(THREE_PLAYER),
        vacation_days=vacation_days), by=HOST)


def told(recorder: Recorder, text: str) -> int:
    """How many table posts carried a line containing `text`."""
    return sum(any(text in line for line in update.lines) for update in recorder.tables)


async def test_a_vacation_pauses_two_games_at_once_and_resumes_them(tmp_path: Path,
                                                                   clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        season = await league_season(db, vacation_days=3)
        service = make_service(db, recorder, clock)
        games = [await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
                 for _ in range(2)]
        start = clock.now
        for game_id in games:
            assert await due(db, game_id, ClockKind.TURN) == start + DAY
        clock.now += 6 * HOUR  # 18 hours left on each
        status = await service.start_vacation(HOST, season)
        assert status.current is not None and status.current.until == clock.now + 3 * DAY
        for game_id in games:
            await service.flush(game_id)
            assert await due(db, game_id, ClockKind.TURN) == clock.now + 3 * DAY + 18 * HOUR
        assert told(recorder, "Host is on vacation until") == 2
        counts = [moves(service, g) for g in games]
        await service.run_due_clocks(start + DAY + HOUR)
        assert [moves(service, g) for g in games] == counts  # both paused
        for game_id in games:
            await service.flush(game_id)
        assert recorder.reminders == []  # the reminders wait too

        clock.now += DAY  # back after a day: the clocks run again with their 18 hours
        status = await service.end_vacation(HOST, season)
        assert status.current is None and status.used == 1 and status.left == 2
        for game_id in games:
            await service.flush(game_id)
            assert await due(db, game_id, ClockKind.TURN) == clock.now + 18 * HOUR
        assert told(recorder, "Host is back from vacation") == 2
        await service.run_due_clocks(clock.now + 18 * HOUR)
        assert all(moves(service, g) > c for g, c in zip(games, counts, strict=True))
        await service.close()


async def test_the_vacation_budget_is_enforced_and_runs_out_by_itself(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        season = await league_season(db, vacation_days=2)
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        await service.start_vacation(HOST, season)
        with pytest.raises(IllegalAction, match="already on vacation"):
            await service.start_vacation(HOST, season)
        clock.now += DAY + HOUR  # a started day counts in full: 2 days
        assert (await service.vacation(HOST, season)).used == 2
        await service.end_vacation(HOST, season)
        with pytest.raises(IllegalAction, match="used all 2 vacation days"):
            await service.start_vacation(HOST, season)
        with pytest.raises(IllegalAction, match="not on vacation"):
            await service.end_vacation(HOST, season)
        assert (await service.vacation(ANN, season)).left == 2  # a budget per player
        await service.close()
        # A budget running out ends the vacation on its own, also across a restart.
        service = make_service(db, Recorder(), clock)
        await service.start(run_clocks=False)
        await service.start_vacation(ANN, season)
        await service.close()
        service = make_service(db, Recorder(), clock)
        await service.start(run_clocks=False)
        assert (await service.vacation(ANN, season)).current is not None
        clock.now += 2 * DAY + 1
        status = await service.vacation(ANN, season)
        assert status.current is None and status.used == 2 and status.left == 0
        assert service.in_play(game_id)
        await service.close()


async def test_a_vacation_survives_a_restart_and_ends_with_the_time_left(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        season = await league_season(db, vacation_days=5)
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        clock.now += 4 * HOUR  # 20 hours left
        await service.start_vacation(HOST, season)
        await service.close()
        service = make_service(db, Recorder(), clock)
        await service.start(run_clocks=False)
        assert await due(db, game_id, ClockKind.TURN) == clock.now + 5 * DAY + 20 * HOUR
        clock.now += 2 * DAY
        await service.end_vacation(HOST, season)
        assert await due(db, game_id, ClockKind.TURN) == clock.now + 20 * HOUR
        await service.close()


async def test_no_reminder_for_a_move_the_players_settings_make(tmp_path: Path,
                                                               clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        await service.set_player_options(HOST, SeatOptions(auto_discard=AutoDiscard.DRAWN))
        game_id = await open_game(service, THREE_PLAYER, [HOST], pace="async")
        await service.run_due_clocks(clock.now)
        await service.flush(game_id)
        assert [seat for seat, _ in recorder.reminders] == [0]  # East's first turn: asked
        mine = service.view_for(game_id, HOST)
        discard = next(o.action for o in mine.legal if isinstance(o.action, Discard))
        await service.act(game_id, HOST, discard, mine.action_count)
        for _ in range(50):  # the bots play; a discard the host can't call passes itself
            state = service.registry.games[game_id].state
            if state.phase is Phase.TURN and drawn_tile(state, 0) is not None:
                break
            mine = service.view_for(game_id, HOST)
            if mine.legal:
                await service.act(game_id, HOST, Pass(0), mine.action_count)
            else:
                clock.now += DEFAULT_AUTO_DELAY
                await service.run_due_clocks()
        else:
            raise AssertionError("the host never drew")
        # The drawn tile is thrown for the host after the delay: nobody nudges them first.
        kinds = {c.kind for c in await db.clocks.clocks(game_id) if c.seat == 0}
        assert kinds == {ClockKind.TURN}
        await service.run_due_clocks(clock.now)
        await service.flush(game_id)
        assert [seat for seat, _ in recorder.reminders] == [0]
        await service.close()
