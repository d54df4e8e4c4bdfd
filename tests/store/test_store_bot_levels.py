"""Bot levels in the store (migration 0006): each bot holding of a seat keeps its level, a
series keeps its bots' levels for the next game, a server's stand-in level is a setting, and
every change of a server's settings is in its append-only audit log."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from store_helpers import CARD_TEXT, RULES, FakeClock, new_game

from bot.bots import LEVELS
from bot.store import (
    ConstraintViolation,
    Database,
    FinishReason,
    GuildSettings,
    Outcome,
    Pace,
    Person,
    ShippedCardChoice,
    shipped_migrations,
)


async def _lobby(db: Database, guild_id: int = 111) -> int:
    game = await db.games.create_game(
        guild_id=guild_id, channel_id=222, host_user_id=1000, rules=RULES,
        card=ShippedCardChoice("sample-2026", CARD_TEXT), seed=7, pace=Pace("live"),
        hints=True)
    await db.seats.add_seat(game.id, 0, user_id=1000, display_name="Host")
    return game.id


async def test_each_bot_holding_keeps_its_level(db: Database) -> None:
    game_id = await _lobby(db)
    await db.seats.take_seat(game_id, 4, user_id=None, display_name="Bot 1", bot_level="strong")
    await db.seats.take_seat(game_id, 4, user_id=None, display_name="Bot 2")  # no level
    await db.games.start_game(game_id, 4, bot_name=lambda n: f"Bot {n}", bot_level="easy")
    assert await db.seats.bot_levels(game_id) == {1: "strong", 3: "easy"}
    # A person hands seat 0 to a bot, and the strong bot's seat goes to a person.
    await db.seats.replace_seat(game_id, 0, user_id=None, display_name="Bot (for Host)",
                                bot_level="normal")
    await db.seats.replace_seat(game_id, 1, user_id=2000, display_name="Sub")
    assert await db.seats.bot_levels(game_id) == {0: "normal", 3: "easy"}
    assert await db.seats.bot_levels(game_id, first=True) == {1: "strong", 3: "easy"}


async def test_a_level_belongs_to_a_bot_only(db: Database) -> None:
    game_id = await _lobby(db)
    with pytest.raises(ValueError, match="only a bot"):
        await db.seats.take_seat(game_id, 4, user_id=5, display_name="P", bot_level="easy")
    with pytest.raises(ConstraintViolation):  # the lookup table knows the levels
        await db.seats.take_seat(game_id, 4, user_id=None, display_name="B",
                                 bot_level="godlike")
    assert [s.seat for s in await db.seats.seats(game_id)] == [0]  # nothing was seated


async def test_a_series_seats_its_bots_at_their_levels(db: Database) -> None:
    game = await new_game(db, players=3, start=False)
    await db.seats.take_seat(game.id, 4, user_id=None, display_name="Bot 1", bot_level="strong")
    await db.games.start_game(game.id, 4)
    await db.games.finish_game(game.id, Outcome(FinishReason.WALL))
    people = (*(Person(1000 + s, f"Player {s}") for s in range(3)),
              Person(None, "Bot 1", "strong"))
    series = await db.series.begin(game.id, people)
    assert series.people == people
    nxt = await db.series.add_game(series.id, game.id, seed=9, pot=0, seats=(1, 2, 3, 0),
                                   bettor=None)
    assert await db.seats.bot_levels(nxt.id) == {2: "strong"}


async def test_the_stand_in_level_is_a_setting_and_every_change_is_audited(
        db: Database, clock: FakeClock) -> None:
    assert (await db.guilds.settings(5)).bot_level is None  # a new server needs nothing
    assert await db.guilds.audit(5) == []
    await db.guilds.set_settings(5, GuildSettings(bot_level="strong"), by_user=77)
    clock.advance(60)
    await db.guilds.set_settings(5, GuildSettings(bot_level="strong"), by_user=78)  # no change
    await db.guilds.set_settings(5, GuildSettings(bot_level="easy", hints=False), by_user=79)
    assert await db.guilds.settings(5) == GuildSettings(bot_level="easy", hints=False)
    newest, oldest = await db.guilds.audit(5)
    assert (oldest.actor_user_id, json.loads(oldest.before), json.loads(oldest.after)) == (
        77, {"bot_level": None}, {"bot_level": "strong"})
    assert (newest.actor_user_id, json.loads(newest.before), json.loads(newest.after)) == (
        79, {"bot_level": "strong", "hints": None}, {"bot_level": "easy", "hints": False})
    assert newest.at == oldest.at + 60
    assert await db.guilds.audit(6) == []
    with pytest.raises(ConstraintViolation):
        await db.guilds.set_settings(5, GuildSettings(bot_level="godlike"), by_user=77)
    assert len(await db.guilds.audit(5)) == 2  # the refused change left no entry


async def test_the_audit_log_is_append_only(db_path: Path) -> None:
    async with Database(db_path) as db:
        await db.guilds.set_settings(5, GuildSettings(bot_level="strong"), by_user=77)
    conn = sqlite3.connect(db_path)
    try:
        for statement in ("UPDATE guild_audit SET actor_user_id = 1",
                          "DELETE FROM guild_audit"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(statement)
    finally:
        conn.close()


async def test_the_store_knows_every_level_the_bots_offer(db: Database) -> None:
    # A level added to bot.bots.LEVELS needs a migration adding it to bot_levels, or
    # seating such a bot would fail on the foreign key: this test says so first.
    async with db.read() as tx:
        names = {row["name"] for row in await tx.fetchall("SELECT name FROM bot_levels")}
    assert names == set(LEVELS)


async def test_a_version_5_file_upgrades_keeping_its_bots_without_a_level(
        db_path: Path) -> None:
    async with Database(db_path, migrations=shipped_migrations()[:5]) as old:
        game = await new_game(old, players=3, start=False)
        await old.seats.take_seat(game.id, 4, user_id=None, display_name="Bot 1")
        await old.games.start_game(game.id, 4)
    async with Database(db_path) as db:
        assert db.schema_version == len(shipped_migrations())
        assert [s.is_bot for s in await db.seats.seats(game.id)] == [False, False, False, True]
        assert await db.seats.bot_levels(game.id) == {}  # it plays at the default level
        assert (await db.guilds.settings(111)).bot_level is None
