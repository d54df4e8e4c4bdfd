"""The terminal game's rack pictures carry the same caption as its prompt: what to do now."""

from __future__ import annotations

import io
from pathlib import Path

from bot.engine.game import STANDARD, new_game, view
from bot.library import shipped_card
from bot.tables.narrate import headline
from bot.tables.notifier import Delivery, SeatUpdate, Table
from bot.terminal.notifier import TerminalNotifier
from renderer.measure import recording

NAMES = ("Alice", "Bao", "Zoë", "Dee")


async def test_a_rack_picture_in_play_is_captioned_with_the_move_asked_for(
        tmp_path: Path) -> None:
    card = shipped_card("jongg-original")
    table = Table(1, 0, 0, None, NAMES, (1, None, None, None), STANDARD, card, False)
    seen = view(new_game(STANDARD, card, 4, NAMES), 0)
    notifier = TerminalNotifier(io.StringIO(), tmp_path)
    with recording() as drawings:
        await notifier.seat_update(table, 0, SeatUpdate(seen, None, (), True, None),
                                   Delivery("k"))
    (rack,) = drawings
    assert [p.name for p in tmp_path.iterdir()] == ["0001-rack.png"]
    # The caption may wrap over lines; its words are drawn in order.
    drawn = " ".join(run.text for run in rack.texts)
    assert headline(seen, NAMES) in drawn
