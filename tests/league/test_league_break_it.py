"""Trying to break the league's records: two bot processes (or two directors) changing one
season at the same moment, a seat handed over mid-game in the export, and an export opened
by a spreadsheet that splits lines on semicolons. Each probe states what must hold:
nothing lost or counted twice, standings, ratings and export that agree. The races run on
SQLite and on PostgreSQL, where two processes' writes are not queued behind one lock."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from dataclasses import replace

import pytest
from league_helpers import DIRECTOR, GUILD, finished_game, season_settings, stored_game

from bot.league.export import read_csv, write_csv
from bot.league.record import record_finished_game
from bot.store import Database, ExportRow, FinishReason, Outcome, SeatScore, SubCredit

#: Where a spreadsheet starts a formula (OWASP's list for CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# -- exports --------------------------------------------------------------------------------


async def _handed_over(db: Database) -> int:
    """A finished game of 1000-1003 whose seat 1 player 1005 took over after 12 moves of the
    log: 1001 made 3 of the seat's moves and 1005 made 5. Seat 1 won 40."""
    game = await stored_game(db, [1000, 1001, 1002, 1003])
    winds = ("East", "South", "West", "North")
    log = [(f"{winds[seq % 4]}: pass", None) for seq in range(32)]
    await db.actions.append_actions(game.id, 0, log[:12])
    await db.seats.replace_seat(game.id, 1, user_id=1005, display_name="P1005")
    await db.actions.append_actions(game.id, 12, log[12:])
    await db.games.finish_game(game.id, Outcome(
        FinishReason.MAHJONG, 1, tuple(SeatScore(s, p) for s, p in
                                       enumerate([-10, 40, -15, -15])),
        json.dumps({"reason": "mahjong", "hands": ["r1"]})))
    return game.id


@pytest.mark.parametrize("credit", list(SubCredit), ids=lambda c: c.value)
async def test_the_export_adds_up_to_the_standings_when_a_seat_changed_hands(
        db: Database, credit: SubCredit) -> None:
    """A season's export is what a director checks the standings against: summing each
    player's counted rows must give their standings points, and their own seats (not the
    shares of someone else's) their games. A seat handed over mid-game in a season that
    shares such seats gives both holders points, and the export must show both."""
    league = await db.leagues.create_league(GUILD, "Club", 222, created_by=DIRECTOR)
    season = await db.leagues.start_season(
        league.id, replace(season_settings(), sub_credit=credit), by=DIRECTOR)
    assert await record_finished_game(db, await _handed_over(db)) is not None
    plain = await finished_game(db, [1001, 1002, 1003, 1000], [20, 0, 0, -5], winner=0)
    assert await record_finished_game(db, plain.id) is not None

    totals = {t.user_id: t for t in await db.league_stats.standings(season.id)}
    rows = read_csv(write_csv(await db.league_stats.export_rows(season.id)))
    points: Counter[int] = Counter()
    for row in rows:
        if row.counted and row.user_id is not None:
            points[row.user_id] += row.points
    assert dict(points) == {user: t.points for user, t in totals.items() if t.points}, (
        "the export does not add up to the standings")
    seats = Counter((r.game_id, r.seat) for r in rows if not r.share)
    assert set(seats.values()) == {1} and len(seats) == 8
    games = Counter(r.user_id for r in rows if r.counted and not r.share and r.user_id)
    assert dict(games) == {user: t.games for user, t in totals.items() if t.games}
    wins = Counter(r.user_id for r in rows if r.counted and r.won and r.user_id)
    assert dict(wins) == {user: t.wins for user, t in totals.items() if t.wins}
    [share] = [r for r in rows if r.share]
    assert (share.user_id, share.seat, share.moves) == (1001, 1, 3)


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
