"""The CSV export: what the store exports is written and read back unchanged, even with names
a spreadsheet would take for formulas."""

from __future__ import annotations

import csv
import io

import pytest
from league_helpers import finished_game, league_with_season

from bot.engine.errors import InvalidInput
from bot.league.export import COLUMNS, read_csv, write_csv
from bot.league.ratings import RATING_MODEL
from bot.store import Database, ExportRow, SeatDetail


def row(**changes: object) -> ExportRow:
    values: dict[str, object] = {
        "season": 1, "game_id": 7, "finished_at": 1_700_000_000.25, "reason": "mahjong",
        "counted": True, "round": None, "table_no": None, "seat": 0, "user_id": 5,
        "display_name": "Ann", "is_bot": False, "points": 25, "table_points": 25,
        "placement": 1, "won": True, "hand_id": "r1", "section": "Runs", "hand_value": 25,
        "self_picked": False, "jokerless": True, "exposures": 2, "threw": False, "penalty": 0,
        "wall_game": False, "dead": False, "played_for": 3, "moves": 40}
    values.update(changes)
    return ExportRow(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [
    "=HYPERLINK(\"x\")", "+1", "-2", "@me", "'quoted", "''", "a,b", 'say "hi"', "line\nbreak",
    "\tTab", "Ünïcödé 🀄", " spaced ",
])
def test_names_survive_the_round_trip(name: str) -> None:
    rows = [row(display_name=name), row(seat=1, user_id=None, is_bot=True, display_name="Bot",
                                        won=False, hand_id=None, section=None, hand_value=None,
                                        exposures=None, points=-10, placement=4, round=2,
                                        table_no=3)]
    text = write_csv(rows)
    assert read_csv(text) == rows
    cells = data_rows(text)[0]
    assert not cells[COLUMNS.index("display_name")].startswith(("=", "+", "-", "@", "\t"))


def data_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))[1:]


def test_the_header_and_values_are_plain() -> None:
    text = write_csv([row()])
    header, line = text.splitlines()
    assert header.split(",") == list(COLUMNS)
    assert "2023-11-14T22:13:20.250000+00:00" in line
    assert ",1,,," in line  # counted, then the empty round and table


def test_bad_files_are_refused_with_the_line() -> None:
    with pytest.raises(InvalidInput, match="first line"):
        read_csv("name,points\nA,1\n")
    good = write_csv([row()])
    with pytest.raises(InvalidInput, match="Line 2"):
        read_csv(good.replace(",1,,,", ",yes,,,", 1))
    with pytest.raises(InvalidInput, match="Line 2 has 3 values"):
        read_csv(good.splitlines()[0] + "\r\n1,2,3\r\n")
    assert read_csv(good.splitlines()[0] + "\r\n") == []


async def test_a_stored_season_round_trips(db: Database) -> None:
    _, season = await league_with_season(db)
    for points, winner in [([25, 0, 0, -10], 0), ([10, 10, 10, 0], None)]:
        game = await finished_game(db, [1, 2, None, 4], points, winner=winner)
        details = [SeatDetail(0, "r1", "Runs", 25, jokerless=True, exposures=1),
                   SeatDetail(3, threw=True, penalty=10)] if winner is not None else [
                       SeatDetail(3, dead=True)]
        await db.league_games.record(game.id, details, counted=True, model=RATING_MODEL)
    rows = await db.league_stats.export_rows(season.id)
    assert len(rows) == 8
    assert read_csv(write_csv(rows)) == rows
    assert rows[0].jokerless and rows[3].threw and rows[7].dead and rows[6].is_bot
