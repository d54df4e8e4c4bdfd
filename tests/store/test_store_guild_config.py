"""A server's settings in the store (migration 0010 beside 0001 and 0006): the automatic
answers' delay, whether teaching tables are allowed and the main league's channel round trip
with the older settings, every change is in the audit log with who made it, the newest change
of each setting is found for `/mj config`, and a version 7 file upgrades keeping every row."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from store_helpers import CARD_TEXT, FakeClock, new_game

from bot.store import Database, GuildSettings, Pace, shipped_migrations

GUILD = 5


async def test_each_new_setting_round_trips_and_is_audited(db: Database,
                                                           clock: FakeClock) -> None:
    assert await db.guilds.settings(GUILD) == GuildSettings()  # a new server needs none
    changes: list[tuple[str, object]] = [("auto_delay", 7.5), ("teaching", False),
                                         ("league_channel_id", 4242)]
    settings = GuildSettings(bot_level="easy", pace=Pace("async", 3600, 600))
    await db.guilds.set_settings(GUILD, settings, by_user=70)
    for number, (name, value) in enumerate(changes, start=1):
        clock.advance(10)
        settings = replace(settings, **{name: value})
        assert await db.guilds.set_settings(GUILD, settings, by_user=70 + number) == settings
        assert await db.guilds.settings(GUILD) == settings
        [newest, *_] = await db.guilds.audit(GUILD)
        assert (newest.actor_user_id, json.loads(newest.before), json.loads(newest.after)) == (
            70 + number, {name: None}, {name: value})
    # Set back to the default: that is a change too.
    await db.guilds.set_settings(GUILD, replace(settings, teaching=None), by_user=99)
    assert (await db.guilds.settings(GUILD)).teaching is None
    assert json.loads((await db.guilds.audit(GUILD))[0].after) == {"teaching": None}
    assert len(await db.guilds.audit(GUILD)) == 5


async def test_the_newest_change_of_each_setting_says_who_and_when(
        db: Database, clock: FakeClock) -> None:
    assert await db.guilds.latest_changes(GUILD) == {}
    await db.guilds.set_settings(GUILD, GuildSettings(bot_level="strong", auto_delay=2.0),
                                 by_user=1)
    clock.advance(60)
    await db.guilds.set_settings(GUILD, GuildSettings(bot_level="easy", auto_delay=2.0),
                                 by_user=2)
    await db.guilds.set_settings(GUILD + 1, GuildSettings(teaching=True), by_user=3)
    latest = await db.guilds.latest_changes(GUILD)
    assert set(latest) == {"bot_level", "auto_delay"}
    assert (latest["bot_level"].actor_user_id, latest["auto_delay"].actor_user_id) == (2, 1)
    assert latest["bot_level"].at == latest["auto_delay"].at + 60
    assert set(await db.guilds.latest_changes(GUILD + 1)) == {"teaching"}


async def test_a_negative_delay_is_refused_by_the_model_and_the_table(
        sqlite_db: Database, db_path: Path) -> None:
    with pytest.raises(ValueError, match="0 or more"):
        GuildSettings(auto_delay=-1.0)
    await sqlite_db.guilds.set_settings(GUILD, GuildSettings(auto_delay=1.0), by_user=1)
    conn = sqlite3.connect(db_path)
    try:
        for column, value in (("auto_delay", -3.0), ("teaching", 2)):
            with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
                conn.execute(f"UPDATE guilds SET {column} = ?", (value,))
    finally:
        conn.close()
    assert (await sqlite_db.guilds.settings(GUILD)).auto_delay == 1.0


async def test_a_file_from_before_the_settings_upgrades_keeping_every_row(
        db_path: Path) -> None:
    config = next(m.version for m in shipped_migrations() if m.name == "config")
    async with Database(db_path, migrations=shipped_migrations()[:config - 1]) as old:
        game = await new_game(old, guild_id=111)
        card = await old.cards.save_card(111, "house", CARD_TEXT, uploaded_by=8)
        await old.players.set_options(1001, '{"auto_sort": false}')
    conn = sqlite3.connect(db_path)
    try:
        # The settings as the version before wrote them (today's code writes the new columns
        # too).
        with conn:
            conn.execute("UPDATE guilds SET bot_level = 'strong', pace_name = 'relaxed', "
                         "turn_seconds = 600, claim_seconds = 30, hints = 0 WHERE id = 111")
            conn.execute("INSERT INTO guild_audit (guild_id, actor_user_id, before, after, at) "
                         """VALUES (111, 8, '{"bot_level": null}', '{"bot_level": "strong"}', 1)""")
        before = {table: conn.execute(f"SELECT * FROM {table}").fetchall()
                  for (table,) in conn.execute(
                      "SELECT name FROM sqlite_master WHERE type = 'table' "
                      "AND name NOT LIKE 'sqlite_%'")}
    finally:
        conn.close()
    async with Database(db_path) as db:
        assert db.schema_version == len(shipped_migrations())
        assert await db.guilds.settings(111) == GuildSettings(
            bot_level="strong", pace=Pace("relaxed", 600, 30), hints=False)
        assert (await db.games.game(game.id)).seed == game.seed
        assert (await db.cards.card_by_id(111, card.id)).text == CARD_TEXT
        assert len(await db.guilds.audit(111)) == 1
    conn = sqlite3.connect(db_path)
    try:
        for table, rows in before.items():
            after = conn.execute(f"SELECT * FROM {table}").fetchall()
            if table == "guilds":  # the same rows, with the three new columns at NULL
                after = [row[:-3] for row in after]
                assert all(row[-3:] == (None, None, None) for row in
                           conn.execute("SELECT * FROM guilds").fetchall())
            if table == "games":  # the same rows, with later steps' revisions at 0
                assert all(row[-2:] == (0, 0) for row in after)
                after = [row[:-2] for row in after]
            later = {"clock_kinds": {("nearly_up_reminder",), ("away",)},
                     "audit_actions": {("vacation_days",)}}
            if table in later:  # the same names, and those later steps add
                assert set(after) - set(rows) == later[table], table
                after, rows = sorted(r for r in after if r in rows), sorted(rows)
            if table == "schema_migrations":  # the same rows, and the upgrade's own
                assert [row[0] for row in after[len(rows):]] == list(
                    range(len(rows) + 1, len(shipped_migrations()) + 1))
                after = after[:len(rows)]
            assert after == rows, table
    finally:
        conn.close()
