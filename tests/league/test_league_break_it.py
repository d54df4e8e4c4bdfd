"""Trying to break the league's records: two bot processes (or two directors) changing one
season at the same moment, a seat handed over mid-game in the export, and an export opened
by a spreadsheet that splits lines on semicolons. Each probe states what must hold:
nothing lost or counted twice, standings, ratings and export that agree. The races run on
SQLite and on PostgreSQL, where two processes' writes are not queued behind one lock."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from league_helpers import DIRECTOR, GUILD, FakeClock, finished_game, season_settings, stored_game

from bot.league.export import read_csv, write_csv
from bot.league.ratings import RATING_MODEL
from bot.league.record import record_finished_game
from bot.store import Database, ExportRow, FinishReason, Outcome, SeatScore, SubCredit

#: Where a spreadsheet starts a formula (OWASP's list for CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture
async def two(either_database: str) -> AsyncIterator[tuple[Database, Database]]:
    """Two connections to one database (on SQLite, then on PostgreSQL), as two bot
    processes have."""
    clock = FakeClock()
    async with (Database(either_database, clock=clock) as one,
                Database(either_database, clock=clock) as other):
        yield one, other


# -- two processes, one season -----------------------------------------------------------


async def test_two_directors_correcting_one_game_at_once_lose_neither_correction(
        two: tuple[Database, Database]) -> None:
    """Two directors, answered by two bot processes, correct two players of the same game at
    the same moment (one Alice's points, the other Dave's), game after game. Both
    corrections stay, each audit entry's "before" is what the game held when it was made,
    and the ratings are what a rebuild from the games gives."""
    one, other = two
    league = await one.leagues.create_league(GUILD, "Club", 222, created_by=DIRECTOR)
    season = await one.leagues.start_season(league.id, season_settings(), by=DIRECTOR)
    games = []
    for _ in range(6):
        game = await finished_game(one, [1, 2, 3, 4], [25, 0, 0, -10], winner=0)
        assert await record_finished_game(one, game.id) is not None
        games.append(game.id)
    for game_id in games:
        await asyncio.gather(
            one.league_games.adjust_points(game_id, 1, 40, guild_id=GUILD, by=DIRECTOR,
                                           reason="the bonus was missed", model=RATING_MODEL),
            other.league_games.adjust_points(game_id, 4, -30, guild_id=GUILD, by=DIRECTOR + 1,
                                             reason="a second penalty", model=RATING_MODEL))
    lost = []
    for game_id in games:
        points = {s.user_id: s.points for s in (await one.league_games.game(game_id)).seats}
        if (points[1], points[4]) != (40, -30):
            lost.append((game_id, points))
    assert not lost, f"corrections lost: {lost}"
    entries = [e for e in await one.leagues.audit(league.id, limit=100)
               if e.action == "adjust_points"]
    assert len(entries) == 2 * len(games)
    befores = Counter((e.game_id, json.loads(e.before)["user_id"], json.loads(e.before)["points"])
                      for e in entries)
    assert befores == Counter({**{(g, 1, 25): 1 for g in games},
                               **{(g, 4, -10): 1 for g in games}})
    ratings = await one.league_games.ratings(season.id)
    await one.league_games.rebuild_ratings(season.id, RATING_MODEL)
    assert await one.league_games.ratings(season.id) == ratings


async def test_two_processes_recording_games_at_once_rate_them_as_a_rebuild_does(
        two: tuple[Database, Database]) -> None:
    """Two processes record games of the same four players at the same moment (two tables
    ended together). Every game moves the ratings once: each player's rated games are the
    games played, and the ratings are what replaying the recorded games gives."""
    one, other = two
    league = await one.leagues.create_league(GUILD, "Club", 222, created_by=DIRECTOR)
    season = await one.leagues.start_season(league.id, season_settings(), by=DIRECTOR)
    pairs = []
    for i in range(6):
        first = await finished_game(one, [1, 2, 3, 4], [25, 0, 0, -10], winner=0, seed=i)
        second = await finished_game(one, [4, 3, 2, 1], [30, -10, -10, -10], winner=0,
                                     seed=100 + i)
        pairs.append((first.id, second.id))
    for first, second in pairs:
        recorded = await asyncio.gather(
            one.league_games.record(first, [], counted=True, model=RATING_MODEL),
            other.league_games.record(second, [], counted=True, model=RATING_MODEL))
        assert all(r is not None and r.counted for r in recorded)
    ratings = await one.league_games.ratings(season.id)
    assert {user: games for user, (_, _, games) in ratings.items()} == {
        user: 2 * len(pairs) for user in (1, 2, 3, 4)}
    await one.league_games.rebuild_ratings(season.id, RATING_MODEL)
    rebuilt = await one.league_games.ratings(season.id)
    assert rebuilt == ratings, "a game's rating update was lost"


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


# -- a director's own text, repeated back ---------------------------------------------------


async def test_a_taken_league_name_is_repeated_as_text_not_markdown(tmp_path: Path) -> None:
    """A director names a league with markdown and a mention, then tries the name (or the
    channel) again: the refusal quotes the name as typed, in code marks, so it can't turn
    bold, hide text or ping anyone in the bot's answer."""
    from bot.store import ChannelHasLeague, LeagueNameTaken

    name = "**Club** ||x|| @everyone"
    async with Database(str(tmp_path / "league.db"), clock=FakeClock()) as db:
        await db.leagues.create_league(GUILD, name, 222, created_by=DIRECTOR)
        for again, channel, refusal in ((name, 333, LeagueNameTaken),
                                        ("Other", 222, ChannelHasLeague)):
            with pytest.raises(refusal) as refused:
                await db.leagues.create_league(GUILD, again, channel, created_by=DIRECTOR)
            assert f"`{name}`" in refused.value.message, refused.value.message


@pytest.mark.parametrize("blank", ["\u200b", "\u200b\u2060\ufeff", "\u3164", " \u200d "])
async def test_a_name_or_reason_that_shows_nothing_is_refused(tmp_path: Path,
                                                              blank: str) -> None:
    """A league name, or a correction's reason for the audit log, typed as only zero-width
    or blank-printing characters: refused as empty (it would show as nothing in standings
    and in the audit), with the limits said; nothing is kept."""
    from bot.store import BadLeagueInput

    async with Database(str(tmp_path / "league.db"), clock=FakeClock()) as db:
        with pytest.raises(BadLeagueInput) as refused:
            await db.leagues.create_league(GUILD, blank, 222, created_by=DIRECTOR)
        assert "1 to" in refused.value.message
        league = await db.leagues.create_league(GUILD, "Club", 222, created_by=DIRECTOR)
        await db.leagues.start_season(league.id, season_settings(), by=DIRECTOR)
        game = await finished_game(db, [1, 2, 3, 4], [25, 0, 0, -10], winner=0)
        assert await record_finished_game(db, game.id) is not None
        with pytest.raises(BadLeagueInput):
            await db.league_games.adjust_points(game.id, 1, 5, guild_id=GUILD, by=DIRECTOR,
                                                reason=blank, model=RATING_MODEL)
        assert await db.leagues.leagues(GUILD) == [league]
