"""What the table reads when the game begins: the wall, broken by the dice or not, or no
walls at all."""

from __future__ import annotations

import pytest

from bot.engine.game.events import WallBuilt
from bot.tables.narrate import public_line

NAMES = ("Ann", "Bo", "Cy", "Di")


@pytest.mark.parametrize(("event", "line"), [
    (WallBuilt((3, 4), 7, 99), "The wall is built and broken (dice 3 + 4)."),
    (WallBuilt((), 0, 99), "The wall is built; no dice, so dealing starts at East's end of it."),
    (WallBuilt((), 0, 98, walls=False),
     "No walls: the tiles lie face down in a pool, and everyone picks from it."),
])
def test_the_opening_line_says_how_the_tiles_were_laid_out(event: WallBuilt, line: str) -> None:
    assert public_line(event, NAMES) == line
