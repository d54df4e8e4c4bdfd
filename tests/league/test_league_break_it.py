"""Trying to break the league's records: two bot processes (or two directors) changing one
season at the same moment, a seat handed over mid-game in the export, and an export opened
by a spreadsheet that splits lines on semicolons. Each probe states what must hold:
nothing lost or counted twice, standings, ratings and export that agree. The races run on
SQLite and on PostgreSQL, where two processes' writes are not queued behind one lock."""

from __future__ import annotations

import csv
import io

import pytest

from bot.league.export import read_csv, write_csv
from bot.store import ExportRow

#: Where a spreadsheet starts a formula (OWASP's list for CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# -- exports --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [
    "x;=1+1", "Ann;@SUM(1)", "b;-2+3", "e;+1+1", ";=1", "=1;=2", "f;'=1", "g;;h", "i;'",
])
def test_a_spreadsheet_splitting_lines_at_semicolons_finds_no_formula(name: str) -> None:
    """A player's name with a semicolon and then a formula. A spreadsheet set for a country
    whose list separator is `;` (much of Europe) opens a CSV split at semicolons, and a quote
    in the middle of such a cell keeps nothing together. However the line is split, no cell
    starts a formula, and the name still reads back exactly as it was."""
    row = ExportRow(season=1, game_id=7, finished_at=1_700_000_000.0, reason="mahjong",
                    counted=True, round=None, table_no=None, seat=0, user_id=5,
                    display_name=name, is_bot=False, points=25, table_points=25, placement=1,
                    won=True, hand_id="r1", section="Runs", hand_value=25, self_picked=False,
                    jokerless=False, exposures=None, threw=False, penalty=0, wall_game=False,
                    dead=False, played_for=0, moves=40)
    text = write_csv([row])
    assert read_csv(text) == [row]
    for separator in (",", ";"):
        for cells in csv.reader(io.StringIO(text), delimiter=separator):
            formulas = [c for c in cells if c.startswith(FORMULA_STARTS) and not _number(c)]
            assert not formulas, (separator, cells)


def _number(cell: str) -> bool:
    """Whether a spreadsheet reads the cell as a plain number (a negative one is no formula)."""
    try:
        float(cell)
    except ValueError:
        return False
    return True
