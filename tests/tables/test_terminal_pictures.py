"""The terminal game's pictures: the rack's caption is its prompt's (what to do now), and
the table's header names the table and the game."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.engine.game import STANDARD, RuleSet, new_game, spectator_view, view
from bot.engine.game.rules import ROYALE
from bot.library import shipped_card
from bot.tables.narrate import headline
from bot.tables.notifier import Delivery, SeatUpdate, Table, TableUpdate
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


@pytest.mark.parametrize(("rules", "header"), [(STANDARD, "Table 12"),
                                               (ROYALE, "Table 12 · 4-player Royale-style")])
async def test_a_table_picture_in_play_names_the_table_and_its_game(
        rules: RuleSet, header: str, tmp_path: Path) -> None:
    card = shipped_card("jongg-original")
    table = Table(12, 0, 0, None, NAMES, (1, None, None, None), rules, card, False)
    seen = spectator_view(new_game(rules, card, 4, NAMES))
    notifier = TerminalNotifier(io.StringIO(), tmp_path)
    with recording() as drawings:
        await notifier.table_update(table, TableUpdate((), seen, True), Delivery("k"))
    (picture,) = drawings
    assert [p.name for p in tmp_path.iterdir()] == ["0001-table.png"]
    assert header in [run.text for run in picture.texts]
