"""Vacations and the season's vacation budget in the store (migration 0009): one vacation
under way per player and season, ended by command (never past its `until`) or lapsing at
it; a version 7 file upgrades keeping its seasons, which get the default budget. Personal
vacations (no season, migration 0017): one open per player, apart from their seasons'; a
version 16 file upgrades keeping its vacations and their ids."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from store_helpers import new_game

from bot.store import (
    BadLeagueInput,
    ClockKind,
    ConstraintViolation,
    Database,
    NoOpenSeason,
    OnVacation,
    SeasonSettings,
    shipped_migrations,
)
from bot.tables.vacation import budget_until, vacation_status

RULES = json.dumps({"name": "standard", "players": 4})
T = 1_700_000_000.0
DAY = 86400.0


def settings(**changes: object) -> SeasonSettings:
    values: dict[str, object] = {"name": "Spring", "players": 4, "card_name": "jongg-original",
                                 "scoring": "nmjl", "rules": RULES, **changes}
    return SeasonSettings(**values)  # type: ignore[arg-type]


async def season_id(db: Database, **changes: object) -> int:
    league = await db.leagues.create_league(1, "Friday", 2, created_by=9)
    return (await db.leagues.start_season(league.id, settings(**changes), by=9)).id


async def test_a_season_keeps_its_vacation_budget(db: Database) -> None:
    league = await db.leagues.create_league(1, "Friday", 2, created_by=9)
    season = await db.leagues.start_season(league.id, settings(vacation_days=3), by=9)
    assert season.settings.vacation_days == 3
    assert (await db.leagues.season(league.id)).settings.vacation_days == 3
    await db.leagues.end_season(league.id, by=9)
    with pytest.raises(BadLeagueInput, match="vacation budget"):
        await db.leagues.start_season(league.id, settings(vacation_days=366), by=9)
    assert (await db.leagues.start_season(league.id, settings(), by=9)).settings.vacation_days == 7


async def test_one_vacation_under_way_per_player_and_season(db: Database) -> None:
    season = await season_id(db)
    first = await db.vacations.start(season, 5, at=T, until=T + 3 * DAY)
    assert first.under_way(T + DAY) and not first.under_way(T + 3 * DAY)
    with pytest.raises(OnVacation):
        await db.vacations.start(season, 5, at=T + DAY, until=T + 2 * DAY)
    other = await db.vacations.start(season, 6, at=T + DAY, until=T + 2 * DAY)  # another player
    ended = await db.vacations.end(first.id, at=T + DAY)
    assert ended.ended_at == T + DAY and ended.end() == T + DAY
    assert [v.user_id for v in await db.vacations.under_way(T + DAY)] == [6]
    assert [v.user_id for v in await db.vacations.under_way_in(season, T + DAY)] == [6]
    assert await db.vacations.under_way_in(season + 1, T + DAY) == []
    # Ending again changes nothing; a vacation is never ended past its `until`.
    assert (await db.vacations.end(first.id, at=T + 2 * DAY)).ended_at == T + DAY
    assert (await db.vacations.end(other.id, at=T + 9 * DAY)).ended_at == T + 2 * DAY
    second = await db.vacations.start(season, 5, at=T + 4 * DAY, until=T + 5 * DAY)
    assert [v.id for v in await db.vacations.of(season, 5)] == [first.id, second.id]


async def test_a_lapsed_vacation_is_closed_when_the_next_starts(db: Database) -> None:
    season = await season_id(db)
    lapsed = await db.vacations.start(season, 5, at=T, until=T + DAY)
    assert await db.vacations.under_way(T + DAY) == []
    await db.vacations.start(season, 5, at=T + 2 * DAY, until=T + 3 * DAY)
    [closed, _] = await db.vacations.of(season, 5)
    assert closed.id == lapsed.id and closed.ended_at == T + DAY


async def test_a_vacation_must_have_a_length(db: Database) -> None:
    season = await season_id(db)
    with pytest.raises(ConstraintViolation):
        await db.vacations.start(season, 5, at=T, until=T)
    assert await db.vacations.of(season, 5) == []


async def test_a_director_changes_the_budget_mid_season(db: Database) -> None:
    """A raise lengthens the vacations under way as if they had started under it; a cut
    below what a player used leaves them none (not fewer) and ends what is under way at
    once, never in the past. Each change is in the audit log with who and why."""
    league = await db.leagues.create_league(1, "Friday", 2, created_by=9)
    season = await db.leagues.start_season(league.id, settings(), by=9)  # 7 days
    used = await db.vacations.start(season.id, 5, at=T, until=T + 7 * DAY)
    await db.vacations.end(used.id, at=T + 3 * DAY)  # 3 days used
    away = await db.vacations.start(season.id, 5, at=T + 4 * DAY, until=T + 8 * DAY)
    other = await db.vacations.start(season.id, 6, at=T + DAY, until=T + 8 * DAY)

    raised, moved = await db.vacations.change_budget(
        league.id, 10, by=9, reason="a long summer", at=T + 5 * DAY, limit=budget_until)
    assert raised.settings.vacation_days == 10
    assert {(v.id, v.until, v.ended_at) for v in moved} == {
        (away.id, T + 11 * DAY, None), (other.id, T + 11 * DAY, None)}

    cut, ended = await db.vacations.change_budget(
        league.id, 2, by=9, reason="short season", at=T + 6 * DAY, limit=budget_until)
    assert cut.settings.vacation_days == 2
    assert {(v.id, v.ended_at) for v in ended} == {(away.id, T + 6 * DAY),
                                                   (other.id, T + 6 * DAY)}
    assert await db.vacations.under_way(T + 6 * DAY) == []
    status = vacation_status(cut, await db.vacations.of(season.id, 5), T + 7 * DAY)
    assert (status.used, status.left) == (5, 0)

    entries = [(e.action, e.reason, json.loads(e.before), json.loads(e.after))
               for e in await db.leagues.audit(league.id, limit=2)]
    assert entries == [
        ("vacation_days", "short season", {"vacation_days": 10}, {"vacation_days": 2}),
        ("vacation_days", "a long summer", {"vacation_days": 7}, {"vacation_days": 10})]
    with pytest.raises(BadLeagueInput, match="already gives 2"):
        await db.vacations.change_budget(league.id, 2, by=9, reason="again",
                                         at=T + 7 * DAY, limit=budget_until)
    with pytest.raises(BadLeagueInput, match="0 to 365"):
        await db.vacations.change_budget(league.id, 400, by=9, reason="why not",
                                         at=T + 7 * DAY, limit=budget_until)
    with pytest.raises(BadLeagueInput, match="Say why"):
        await db.vacations.change_budget(league.id, 3, by=9, reason=" ",
                                         at=T + 7 * DAY, limit=budget_until)
    await db.leagues.end_season(league.id, by=9)
    with pytest.raises(NoOpenSeason):
        await db.vacations.change_budget(league.id, 3, by=9, reason="late",
                                         at=T + 8 * DAY, limit=budget_until)


async def test_a_version_7_file_upgrades_keeping_its_seasons(db_path: Path) -> None:
    async with Database(db_path, migrations=shipped_migrations()[:7]) as old:
        league = await old.leagues.create_league(1, "Friday", 2, created_by=9)
        # The season as version 7 wrote it: without a budget.
        async with old.transaction() as tx:
            await tx.insert(
                "INSERT INTO league_seasons (league_id, number, name, players, card_name, "
                "scoring, rules, min_games, game_minutes, started_at, started_by) "
                "VALUES (?, 1, 'Spring', 4, 'jongg-original', 'nmjl', ?, 0, NULL, ?, 9)",
                (league.id, RULES, T))
    async with Database(db_path) as db:
        assert db.schema_version == len(shipped_migrations()) >= 8
        season = await db.leagues.season(league.id)
        assert season.settings.name == "Spring" and season.settings.vacation_days == 7
        vacation = await db.vacations.start(season.id, 5, at=T, until=T + DAY)
        assert await db.vacations.of(season.id, 5) == [vacation]
        game = await new_game(db)
        await db.clocks.set_clock(game.id, ClockKind.START_REMINDER, seat=0, due_at=T,
                                  at_seq=0)
        assert [c.kind for c in await db.clocks.clocks(game.id)] == [ClockKind.START_REMINDER]
    conn2 = sqlite3.connect(db_path)
    try:
        assert {name for (name,) in conn2.execute("SELECT name FROM clock_kinds")} == {
            kind.value for kind in ClockKind}
    finally:
        conn2.close()


async def test_a_personal_vacation_is_a_scope_of_its_own(db: Database) -> None:
    """A personal vacation (no season) and a season's are apart: each may be under way at
    once, each is listed only in its own scope, and a second personal one is refused (the
    store's check, and the partial unique index under it)."""
    season = await season_id(db)
    mine = await db.vacations.start(None, 5, at=T, until=T + 3 * DAY)
    assert mine.season_id is None
    league = await db.vacations.start(season, 5, at=T, until=T + 2 * DAY)
    with pytest.raises(OnVacation, match=r"already on vacation\.$"):
        await db.vacations.start(None, 5, at=T + DAY, until=T + 2 * DAY)
    theirs = await db.vacations.start(None, 6, at=T + DAY, until=T + 2 * DAY)
    assert await db.vacations.of(None, 5) == [mine]
    assert await db.vacations.of(season, 5) == [league]
    assert [v.id for v in await db.vacations.under_way_in(None, T + DAY)] == [mine.id, theirs.id]
    assert [v.id for v in await db.vacations.under_way_in(season, T + DAY)] == [league.id]
    assert {v.id for v in await db.vacations.under_way(T + DAY)} == {
        mine.id, league.id, theirs.id}
    with pytest.raises(ConstraintViolation):  # the index, should a writer skip the check
        async with db.transaction() as tx:
            await tx.insert("INSERT INTO vacations (season_id, user_id, started_at, until) "
                            "VALUES (NULL, 5, ?, ?)", (T + DAY, T + 2 * DAY))
    # Ended, or lapsed, a personal vacation makes room for the next.
    assert (await db.vacations.end(mine.id, at=T + DAY)).ended_at == T + DAY
    again = await db.vacations.start(None, 5, at=T + 2 * DAY, until=T + 3 * DAY)
    await db.vacations.start(None, 6, at=T + 4 * DAY, until=T + 5 * DAY)  # theirs lapsed
    assert [v.ended_at for v in await db.vacations.of(None, 6)] == [T + 2 * DAY, None]
    assert await db.vacations.of(None, 5) == [replace(mine, ended_at=T + DAY), again]


async def test_a_version_16_file_upgrades_keeping_its_vacations(db_path: Path) -> None:
    """0017 makes the vacations table again on SQLite: its rows, ids and next id are kept,
    and so are its CHECKs and the one-per-season index."""
    async with Database(db_path, migrations=shipped_migrations()[:16]) as old:
        season = await season_id(old)
        first = await old.vacations.start(season, 5, at=T, until=T + DAY)
        second = await old.vacations.start(season, 6, at=T, until=T + DAY)
        async with old.transaction() as tx:  # the newest id gone: it is not given again
            await tx.execute("DELETE FROM vacations WHERE id = ?", (second.id,))
    async with Database(db_path) as db:
        assert db.schema_version == len(shipped_migrations()) >= 17
        assert await db.vacations.of(season, 5) == [first]
        personal = await db.vacations.start(None, 5, at=T, until=T + DAY)
        assert personal.id > second.id
        with pytest.raises(OnVacation):
            await db.vacations.start(season, 5, at=T, until=T + DAY)
        with pytest.raises(ConstraintViolation):
            await db.vacations.start(None, 7, at=T, until=T)
        with pytest.raises(ConstraintViolation):
            async with db.transaction() as tx:
                await tx.insert("INSERT INTO vacations (season_id, user_id, started_at, "
                                "until) VALUES (?, 5, ?, ?)", (season, T, T + DAY))
