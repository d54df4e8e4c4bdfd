"""`jongg db copy` (bot.store.copy): a league database built through the store API goes from
SQLite to PostgreSQL and back, and every table comes back as it was, row by row and column
by column (claims aside: they are not copied); what the store reads back (standings,
ratings, audit logs, games' logs) is the same; new rows get fresh ids, past ids the source
handed out and deleted. And the copies it refuses, each with nothing written."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from league_helpers import (
    DIRECTOR,
    GUILD,
    FakeClock,
    card_text,
    league_with_season,
    play_and_finish,
    stored_game,
)

from bot.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, main
from bot.engine.game import preset
from bot.league.ratings import RATING_MODEL
from bot.league.record import record_finished_game
from bot.store import (
    ClockKind,
    Database,
    DeliveryKind,
    GuildSettings,
    NewDelivery,
    Person,
    shipped_migrations,
)
from bot.store.copy import copy_database, copy_order, seeded_tables
from bot.store.errors import CopyRefused, StoreError
from bot.store.tx import Reference, TableShape

#: The tables a copy leaves empty: claims and request budgets of the old database's processes.
NOT_COPIED = frozenset({"outbox_claims", "request_budgets"})

#: Each table's rows, as dicts of column to value, in primary-key order.
Contents = dict[str, list[dict[str, Any]]]


async def build_league_database(db: Database, clock: FakeClock) -> dict[str, int]:
    """A league server's database as the bot leaves it: a server with settings (its default
    card one of its own) and their audit, a league with a season, players, a round, three
    finished games played by bots and recorded (ratings, a director's correction, a seat
    handed on during play), a series
    with a bot of its own, its next game and a bettor, and a game in play with options, a
    reclaimed seat, a clock and an outbox claimed by a process that was killed (and the
    requests it counted against Discord's limits), and a
    vacation in the season and a personal one. Some ids are deleted
    after use (a server card, sent outbox entries). Returns ids the tests look at."""
    league, season = await league_with_season(db)
    card = await db.cards.save_card(GUILD, "house", card_text(), uploaded_by=DIRECTOR)
    spare = await db.cards.save_card(GUILD, "spare", card_text(), uploaded_by=DIRECTOR)
    await db.cards.delete_card(GUILD, "spare")  # the largest card id, now gone
    await db.guilds.set_settings(GUILD, GuildSettings(server_card_id=card.id,
                                                      bot_level="strong"), by_user=DIRECTOR)
    for user in (1, 2, 3, 4):
        await db.leagues.join(league.id, user, f"P{user}")
    await db.league_rounds.start_round(season.id, 1, [[1, 2, 3, 4]], seed=5, by=DIRECTOR)
    rules = preset("tournament")
    finished = []
    for seed in (2, 3, 4):
        game = await stored_game(db, [1, 2, 3, 4], seed=seed, rules=rules)
        # The last game's seat 1 is handed to player 5 (a holder beside the seat's).
        await play_and_finish(db, game, rules, seed, sub=(40, 1, 5) if seed == 4 else None)
        await record_finished_game(db, game.id)
        finished.append(game.id)
        clock.advance(600)
    await db.league_games.adjust_points(finished[0], 1, 10, guild_id=GUILD, by=DIRECTOR,
                                        reason="scored by hand", model=RATING_MODEL)
    series = await db.series.begin(finished[-1], [
        Person(1, "P1"), Person(2, "P2"), Person(3, "P3"), Person(None, "Bot", "easy")])
    after = await db.series.add_game(series.id, finished[-1], seed=9, pot=4,
                                     seats=[1, 2, 3, 0], bettor=None)
    await db.series.add_bettor(after.id, 5, "P5")

    live = await stored_game(db, [1, 2, 3, 4], seed=11, rules=rules)
    await db.actions.append_action(live.id, 0, "pass 0", 1)
    await db.seats.set_options(live.id, 0, json.dumps({"auto_sort": False}))
    await db.players.set_options(2, json.dumps({"auto_mahjong": True}))
    await db.players.set_dm_channel(2, 4242)
    await db.seats.record_reclaim(live.id, 1, 2)
    await db.clocks.set_clock(live.id, ClockKind.TURN, seat=1, due_at=clock.now + 10,
                              at_seq=1)
    clock.advance(20)
    assert await db.clocks.claim_due()  # claimed by this process
    await db.outbox.add(live.id, [NewDelivery(DeliveryKind.TABLE, 1)])
    assert await db.outbox.claim(live.id)
    await db.budgets.take("global", wanted=1, limit=50, held=[], lasts=1.0)
    await db.vacations.start(season.id, 3, at=clock.now, until=clock.now + 86_400)
    await db.vacations.start(None, 3, at=clock.now, until=clock.now + 86_400)  # personal
    sent = await db.outbox.add(finished[0], [NewDelivery(DeliveryKind.GAME_OVER, 1),
                                             NewDelivery(DeliveryKind.SEAT, 1, seat=2)])
    await db.outbox.mark_sent([(entry.id, [77]) for entry in sent])
    assert await db.outbox.forget_sent(finished[0]) == 2  # the largest outbox ids, gone
    db.owner = "a process killed since"  # so closing leaves its claims where they are
    return {"league": league.id, "season": season.id, "live": live.id,
            "last_game": live.id, "last_card": spare.id, "last_outbox": sent[-1].id}


def primary_keys(path: Path) -> dict[str, list[str]]:
    """Each table of an SQLite file (its own bookkeeping and the migration records aside)
    with its primary key, read with the sqlite3 module itself."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name <> 'schema_migrations'")]
        return {name: [r[1] for r in sorted(conn.execute(f"PRAGMA table_info({name})"),
                                            key=lambda r: r[5]) if r[5]] for name in names}
    finally:
        conn.close()


def sqlite_contents(path: Path) -> Contents:
    """Every table of an SQLite file (as `primary_keys` lists them) ordered by its key."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        return {name: [dict(row) for row in conn.execute(
                    f"SELECT * FROM {name} ORDER BY {', '.join(key)}")]
                for name, key in primary_keys(path).items()}
    finally:
        conn.close()


async def pg_contents(url: str, keys: dict[str, list[str]]) -> Contents:
    """The same tables of a PostgreSQL database, read with asyncpg, in the same order."""
    conn = await asyncpg.connect(url)
    try:
        found = {}
        for name, key in keys.items():
            rows = await conn.fetch(f"SELECT * FROM {name} ORDER BY {', '.join(key)}")
            found[name] = [dict(row) for row in rows]
        return found
    finally:
        await conn.close()


def without_claims(contents: Contents) -> Contents:
    """What a copy must hold: the source's rows with no claims (see bot.store.copy)."""
    expected = {name: rows for name, rows in contents.items() if name not in NOT_COPIED}
    expected["clocks"] = [{**row, "claimed_by": None, "claimed_until": None}
                          for row in contents["clocks"]]
    expected.update({name: [] for name in NOT_COPIED})
    return expected


async def read_back(db: Database, ids: dict[str, int]) -> dict[str, Any]:
    """What the store's API reads back: standings, ratings, audit logs, games and logs."""
    games = [game.id for game in await db.games.games_of_guild(GUILD, limit=100)]
    return {
        "standings": await db.league_stats.standings(ids["season"]),
        "ratings": await db.league_games.ratings(ids["season"]),
        "league_audit": await db.leagues.audit(ids["league"], limit=100),
        "guild_audit": await db.guilds.audit(GUILD, limit=100),
        "settings": await db.guilds.settings(GUILD),
        "games": [await db.games.load_game(game) for game in sorted(games)],
        "history": await db.league_stats.history(ids["league"]),
        "clocks": await db.clocks.clocks(ids["live"]),
        "outbox": await db.outbox.entries(ids["live"]),
    }


async def check_fresh_ids(target: str, ids: dict[str, int]) -> None:
    """New rows in a copy get ids past every id the source handed out, deleted ones too."""
    async with Database(target, clock=FakeClock()) as db:
        game = await stored_game(db, [1, 2, 3, 4], seed=99)
        assert game.id == ids["last_game"] + 1
        card = await db.cards.save_card(GUILD, "new", card_text(), uploaded_by=DIRECTOR)
        assert card.id == ids["last_card"] + 1
        (entry,) = await db.outbox.add(game.id, [NewDelivery(DeliveryKind.TABLE, 0)])
        assert entry.id == ids["last_outbox"] + 1


@pytest.fixture(scope="module")
def league_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """The league database, built once for the module (bots play its games)."""
    path = tmp_path_factory.mktemp("league") / "league.sqlite3"

    async def build() -> dict[str, int]:
        clock = FakeClock()
        async with Database(path, clock=clock) as db:
            return await build_league_database(db, clock)

    return path, asyncio.run(build())


@pytest.fixture
def league_file(league_template: tuple[Path, dict[str, int]],
                tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """A copy of the league database of the test's own."""
    template, ids = league_template
    path = tmp_path / "league.sqlite3"
    shutil.copyfile(template, path)
    return path, ids


async def test_sqlite_to_postgresql_to_sqlite_keeps_every_row(
        league_file: tuple[Path, dict[str, int]], pg_url: str, tmp_path: Path) -> None:
    source, ids = league_file
    original = sqlite_contents(source)
    data = set(original) - seeded_tables(shipped_migrations())
    assert not [name for name in data if not original[name]], "every table has rows"
    async with Database(source) as db:
        before = await read_back(db, ids)

    there = await copy_database(str(source), pg_url)
    assert dict(there.tables) == {name: len(original[name])
                                  for name in data - NOT_COPIED}
    keys = primary_keys(source)
    assert await pg_contents(pg_url, keys) == without_claims(original)

    back = tmp_path / "back.sqlite3"
    await copy_database(pg_url, str(back))
    assert sqlite_contents(back) == without_claims(original)
    for target in (pg_url, str(back)):
        async with Database(target) as db:
            found = await read_back(db, ids)
        assert found == {**before, "clocks": found["clocks"]}
        assert [(c.kind, c.seat, c.due_at) for c in found["clocks"]] == [
            (c.kind, c.seat, c.due_at) for c in before["clocks"]]
        await check_fresh_ids(target, ids)


async def test_sqlite_to_sqlite(league_file: tuple[Path, dict[str, int]],
                                tmp_path: Path) -> None:
    source, ids = league_file
    target = tmp_path / "copy.sqlite3"
    await copy_database(str(source), str(target))
    assert sqlite_contents(target) == without_claims(sqlite_contents(source))
    await check_fresh_ids(str(target), ids)


async def test_the_command_prints_a_summary_and_progress(
        league_file: tuple[Path, dict[str, int]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    source, _ = league_file
    assert await jongg("db", "copy", str(source), str(tmp_path / "a.sqlite3"), "--json") == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    original = sqlite_contents(source)
    assert summary["tables"]["actions"] == len(original["actions"]) > 0
    assert summary["not_copied"] == ["outbox_claims", "request_budgets"]
    assert f"copying actions: {len(original['actions'])}/{len(original['actions'])}" in err
    assert await jongg("db", "copy", str(source), str(tmp_path / "b.sqlite3")) == 0
    out, _ = capsys.readouterr()
    assert out.startswith(f"Copied {summary['rows']:,} rows in ")
    assert any(line.split() == ["league_audit", str(len(original["league_audit"]))]
               for line in out.splitlines())


# -- refusals --------------------------------------------------------------------------------


async def jongg(*args: str) -> int:
    """Run `jongg ARGS` as the command line does (its own event loop, so in a thread)."""
    return await asyncio.to_thread(main, list(args))


async def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run `jongg db copy ARGS`, which must refuse: exit 2 and one line on stderr."""
    assert await jongg("db", "copy", *args) == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert not out
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


async def test_a_target_that_holds_data_is_refused(
        league_file: tuple[Path, dict[str, int]], pg_url: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    source, _ = league_file
    await copy_database(str(source), pg_url)
    keys = primary_keys(source)
    before = await pg_contents(pg_url, keys)
    line = await refused(capsys, str(source), pg_url)
    assert line.startswith("jongg: The target postgresql://")
    assert "already holds data (in actions, clocks, dm_channels, game_bettors, games," in line
    assert await pg_contents(pg_url, keys) == before


async def test_the_same_database_is_refused(
        league_file: tuple[Path, dict[str, int]], pg_url: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    source, _ = league_file
    before = sqlite_contents(source)
    other_name = source.parent / ".." / source.parent.name / source.name
    line = await refused(capsys, str(source), str(other_name))
    assert "are the same database" in line
    assert sqlite_contents(source) == before
    await copy_database(str(source), pg_url)
    assert "are the same database" in await refused(capsys, pg_url, pg_url + "?sslmode=disable")


async def test_a_missing_source_is_refused(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    line = await refused(capsys, str(tmp_path / "nope.sqlite3"), str(tmp_path / "new.sqlite3"))
    assert line == f"jongg: There is no database at {tmp_path / 'nope.sqlite3'}: check the " \
                   "source's path."
    assert not (tmp_path / "new.sqlite3").exists()


@pytest.mark.parametrize(("url", "why"), [
    ("postgresql://jongg:secret@127.0.0.1:port/jongg", "is not a valid PostgreSQL URL"),
    ("postgresql://jongg@127.0.0.1:5432", "names no database"),
    ("postgres://jongg@127.0.0.1:5432/", "names no database"),
    ("mysql://jongg@127.0.0.1/jongg", "is neither a file path nor a postgresql:// URL"),
])
async def test_a_malformed_url_is_refused(league_file: tuple[Path, dict[str, int]],
                                          url: str, why: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    source, _ = league_file
    line = await refused(capsys, str(source), url)
    assert why in line
    assert "secret" not in line  # a URL is shown without its password
    assert why in await refused(capsys, url, str(source))


async def test_an_unreachable_server_is_one_line(league_file: tuple[Path, dict[str, int]],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    source, _ = league_file
    assert await jongg("db", "copy", str(source), "postgresql://jongg:secret@127.0.0.1:1/x") \
        == EXIT_FAILED
    out, err = capsys.readouterr()
    assert not out
    assert err.startswith("jongg: Can't connect to the PostgreSQL database "
                          "postgresql://jongg@127.0.0.1:1/x: ")
    assert len(err.splitlines()) == 1


async def test_a_source_at_another_schema_is_refused(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    old = tmp_path / "old.sqlite3"
    async with Database(old, migrations=shipped_migrations()[:5]):
        pass
    line = await refused(capsys, str(old), str(tmp_path / "new.sqlite3"))
    assert "is at schema version 5, older than this Jongg's" in line
    assert "Run the bot on it once" in line
    conn = sqlite3.connect(old)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 5  # not upgraded by the copy
    conn.execute(f"PRAGMA user_version = {len(shipped_migrations()) + 1}")
    conn.close()
    assert "newer than this Jongg's" in await refused(capsys, str(old), str(tmp_path / "n.sqlite3"))
    assert not (tmp_path / "new.sqlite3").exists()


async def test_an_empty_source_is_refused(pg_empty_url: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert "holds no Jongg database" in await refused(capsys, pg_empty_url,
                                                 str(tmp_path / "new.sqlite3"))


async def test_a_target_of_another_program_is_refused(
        league_file: tuple[Path, dict[str, int]], tmp_path: Path) -> None:
    source, _ = league_file
    other = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(other)
    conn.execute("PRAGMA application_id = 1234")
    conn.close()
    with pytest.raises(CopyRefused, match="some other program"):
        await copy_database(str(source), str(other))


async def test_a_row_the_target_refuses_leaves_it_empty(tmp_path: Path, pg_url: str) -> None:
    # SQLite's NOCASE folds ASCII letters only, PostgreSQL's nocase every letter: two card
    # names that differ in an accented capital are two names here, one name there.
    source = tmp_path / "cards.sqlite3"
    async with Database(source, clock=FakeClock()) as db:
        await db.cards.save_card(GUILD, "Émile", card_text(), uploaded_by=DIRECTOR)
        await db.cards.save_card(GUILD, "émile", card_text(), uploaded_by=DIRECTOR)
    with pytest.raises(CopyRefused, match="The target refused a row of server_cards"):
        await copy_database(str(source), pg_url)
    found = await pg_contents(pg_url, primary_keys(source))
    assert not [name for name in set(found) - seeded_tables(shipped_migrations())
                if found[name]]


async def test_a_source_changed_by_hand_is_refused(league_file: tuple[Path, dict[str, int]],
                                                   tmp_path: Path) -> None:
    source, _ = league_file
    conn = sqlite3.connect(source)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.close()
    with pytest.raises(CopyRefused, match="changed by hand"):
        await copy_database(str(source), str(tmp_path / "new.sqlite3"))


def test_every_table_has_a_primary_key(tmp_path: Path) -> None:
    # The copy reads each table in key order (a page at a time), so a table needs a key.
    path = tmp_path / "schema.sqlite3"

    async def migrate() -> None:
        async with Database(path):
            pass

    asyncio.run(migrate())
    keys = primary_keys(path)
    assert keys and not [name for name, key in keys.items() if not key]


def shape(name: str, *refs: tuple[str, str], nullable: frozenset[str] = frozenset()
          ) -> TableShape:
    return TableShape(name, ("id", *(column for column, _ in refs)), nullable, ("id",),
                      tuple(Reference(parent, (column,)) for column, parent in refs))


def test_parents_come_first_and_a_loop_is_closed_afterwards() -> None:
    tables = [shape("cards", ("guild", "guilds")),
              shape("guilds", ("card", "cards"), nullable=frozenset({"card"})),
              shape("games", ("guild", "guilds"), ("card", "cards")),
              shape("moves", ("game", "games"), ("self", "moves"))]
    order, later = copy_order(tables)
    assert [t.name for t in order] == ["guilds", "cards", "games", "moves"]
    assert later == {"guilds": frozenset({"card"})}
    tables[1] = shape("guilds", ("card", "cards"))  # the loop's references may not be NULL
    with pytest.raises(StoreError, match="make a loop"):
        copy_order(tables)
