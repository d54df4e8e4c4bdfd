"""Trying to break the clocks and presence, as a traveller, a night owl, a careless player and a
busy machine would, through the table service with the tests' clock. Each probe asserts what
should hold (nobody loses time they were promised; clocks, reminders and notices come at the
promised moments and only then), not only that nothing crashed. What the other clock files
cover (quiet hours across midnight, the DST nights' arithmetic, a vacation pausing two games,
budgets, reminders ringing once, stand-ins counted) is not repeated here."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from table_helpers import ANN, BO, HOST, Clock, Recorder, make_service, open_game

from bot.engine.game import THREE_PLAYER
from bot.store import ClockKind, Database
from bot.tables.seat_options import SeatOptions
from bot.tables.service import TableService
from bot.tables.timekeeping import Pauses, QuietHours, active_seconds, deadline, zone

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
