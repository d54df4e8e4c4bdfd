"""What the table and each seat read for the engine's events: every event has its entry in
the one narration table, the opening line says how the tiles were laid out, and a seat's own
lines reach only that seat."""

from __future__ import annotations

from typing import get_args

import pytest

from bot.engine.game.events import Dealt, Drew, Event, Received, WallBuilt, for_seat
from bot.tables.narrate import NARRATION, private_line, public_line

NAMES = ("Ann", "Bo", "Cy", "Di")


def test_every_event_of_the_engine_has_its_narration() -> None:
    assert set(NARRATION) == set(get_args(Event))
    assert all(narration.event is kind for kind, narration in NARRATION.items())


@pytest.mark.parametrize(("event", "line"), [
    (WallBuilt((3, 4), 7, 99), "The wall is built and broken (dice 3 + 4)."),
    (WallBuilt((), 0, 99), "The wall is built; no dice, so dealing starts at East's end of it."),
    (WallBuilt((), 0, 98, walls=False),
     "No walls: the tiles lie face down in a pool, and everyone picks from it."),
])
def test_the_opening_line_says_how_the_tiles_were_laid_out(event: WallBuilt, line: str) -> None:
    assert public_line(event, NAMES) == line


@pytest.mark.parametrize(("event", "line"), [
    (Dealt(1, 13, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)), "You were dealt 13 tiles."),
    (Received(1, 2, (0, 9)), "The pass brought you 1 Bam, 1 Crak."),
    (Received(1, 0, ()), None),
    (Drew(1, 0), "You drew 1 Bam."),
])
def test_a_seat_reads_its_own_tiles_and_nobody_else_does(event: Event, line: str | None
                                                         ) -> None:
    assert private_line(event, 1, NAMES) == line
    assert public_line(event, NAMES) is None
    for seat in (0, 2, 3):
        assert private_line(for_seat(event, seat), seat, NAMES) is None
        assert private_line(event, seat, NAMES) is None
