"""Personal vacations at casual tables, through the table service with a fake clock: a casual
table opened with the `vacations` option pauses a seat's turn clock while its holder is on
a personal vacation (no league's), passes claim windows for them at the automatic delay,
tells the table when they go and come back, and a move they make ends it; a table opened
without the option, and a league's game (which pauses for its season's vacations), ignore
personal ones. A personal vacation lasts at most `PERSONAL_DAYS`."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_helpers import ANN, BO, HOST, Clock, Recorder, make_service, open_game
from test_table_away import (
    AWAY_SEAT,
    PLAYERS,
    claim_windows_while_away,
    league_season,
    lines_with,
    marked,
    play_until_asked,
)
from test_table_clocks import due

from bot.engine.errors import IllegalAction
from bot.engine.game import THREE_PLAYER, Phase
from bot.store import ClockKind, Database, PlayedFor
from bot.tables.seat_options import AutoDiscard, SeatOptions
from bot.tables.service import DEFAULT_AUTO_DELAY
from bot.tables.vacation import PERSONAL_DAYS

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.mark.parametrize("vacations", [True, False])
async def test_a_casual_table_pauses_for_a_personal_vacation_only_when_opened_to(
        tmp_path: Path, clock: Clock, vacations: bool) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async",
                                  vacations=vacations)
        start = clock.now
        assert await due(db, game_id, ClockKind.TURN) == start + DAY
        clock.now += 6 * HOUR  # 18 hours left
        status = await service.start_vacation(HOST, None)
        assert status.personal and status.current is not None
        assert status.current.until == clock.now + PERSONAL_DAYS * DAY
        await service.flush(game_id)
        paused = clock.now + PERSONAL_DAYS * DAY + 18 * HOUR
        assert await due(db, game_id, ClockKind.TURN) == (paused if vacations else start + DAY)
        assert len(lines_with(recorder, "Host is on vacation until")) == vacations
        clock.now += DAY
        status = await service.end_vacation(HOST, None)
        assert status.current is None
        await service.flush(game_id)
        assert await due(db, game_id, ClockKind.TURN) == (
            clock.now + 18 * HOUR if vacations else start + DAY)
        assert len(lines_with(recorder, "Host is back from vacation")) == vacations
        await service.close()


async def test_a_league_game_ignores_personal_vacations(tmp_path: Path, clock: Clock) -> None:
    """A league's game pauses for its season's vacations, even when opened with the option:
    a personal vacation leaves its clocks running and its table untold."""
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        season = await league_season(db, vacation_days=3)
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async",
                                  vacations=True)
        start = clock.now
        await service.start_vacation(HOST, None)
        await service.flush(game_id)
        assert await due(db, game_id, ClockKind.TURN) == start + DAY
        assert lines_with(recorder, "on vacation") == []
        await service.start_vacation(HOST, season)  # the season's still pauses it
        assert await due(db, game_id, ClockKind.TURN) == start + 3 * DAY + DAY
        await service.close()


async def test_claim_windows_pass_for_a_seat_on_a_personal_vacation(
        tmp_path: Path, clock: Clock) -> None:
    """At the automatic delay, never as a timeout, as for a season's vacation."""
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        service.new_seed = lambda: 1
        await service.set_player_options(HOST, SeatOptions(auto_discard=AutoDiscard.DRAWN))
        game_id = await open_game(service, THREE_PLAYER, PLAYERS, pace="async", vacations=True)
        await service.start_vacation(HOST, None)
        assert await claim_windows_while_away(service, clock, game_id, wanted=3) >= 3
        assert await marked(db, game_id, PlayedFor.TIMEOUT, AWAY_SEAT) == 0
        await service.close()


async def test_a_table_without_the_option_still_asks_a_seat_on_a_personal_vacation(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        service.new_seed = lambda: 1
        game_id = await open_game(service, THREE_PLAYER, PLAYERS, pace="async")
        # Asked in a window it could call in, then away (no move of theirs ends it since).
        await play_until_asked(service, clock, game_id, Phase.CLAIM)
        await service.start_vacation(HOST, None)
        clock.now += DEFAULT_AUTO_DELAY + 0.01
        await service.run_due_clocks()
        assert (await service.vacation(HOST, None)).current is not None
        mine = service.view_for(game_id, HOST)
        assert mine.phase is Phase.CLAIM and mine.legal  # still asked: nothing passed
        await service.close()


async def test_a_move_on_a_personal_vacation_ends_it_at_every_table_it_pauses(
        tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        service.new_seed = lambda: 1
        pausing = [await open_game(service, THREE_PLAYER, PLAYERS, pace="async",
                                   vacations=True) for _ in range(2)]
        other = await open_game(service, THREE_PLAYER, PLAYERS, pace="async")
        await service.start_vacation(HOST, None)
        clock.now += 2 * HOUR
        await play_until_asked(service, clock, pausing[0], Phase.TURN, passes=False)
        assert (await service.vacation(HOST, None)).current is not None  # still away
        mine = service.view_for(pausing[0], HOST)
        await service.act(pausing[0], HOST, mine.legal[0].action, mine.action_count)
        assert (await service.vacation(HOST, None)).current is None
        for game_id in (*pausing, other):
            await service.flush(game_id)
        assert len(lines_with(recorder, "Player 1 is back from vacation")) == 2
        assert len(lines_with(recorder, "Player 1 is on vacation until")) == 2
        assert any("casual tables that pause for vacations run again" in line
                   for seat, update in recorder.seats if seat == AWAY_SEAT
                   for line in update.lines)
        assert all(c.due_at < clock.now + DAY for c in await db.clocks.clocks(pausing[1])
                   if c.seat == AWAY_SEAT)
        await service.close()


async def test_a_personal_vacation_is_capped_and_survives_a_restart(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async",
                                  vacations=True)
        with pytest.raises(IllegalAction, match=f"at most {PERSONAL_DAYS} days"):
            await service.start_vacation(HOST, None, days=PERSONAL_DAYS + 1)
        with pytest.raises(IllegalAction, match="not on vacation, and have none"):
            await service.end_vacation(HOST, None)
        clock.now += 4 * HOUR  # 20 hours left
        await service.start_vacation(HOST, None, days=5)
        with pytest.raises(IllegalAction, match="already on vacation;"):
            await service.start_vacation(HOST, None)
        await service.close()
        service = make_service(db, Recorder(), clock)
        await service.start(run_clocks=False)
        assert await due(db, game_id, ClockKind.TURN) == clock.now + 5 * DAY + 20 * HOUR
        clock.now += 2 * DAY
        await service.end_vacation(HOST, None)
        assert await due(db, game_id, ClockKind.TURN) == clock.now + 20 * HOUR
        await service.close()
