"""Each person's own options in the store (migration 0007): kept by user id across games and
servers, replaced whole, read for several people at once; a version 6 file upgrades keeping
every seat's own options. Each person's DM channel (migration 0013), kept for every process
sharing the store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_helpers import new_game

from bot.store import ClockKind, Database, shipped_migrations


async def test_a_persons_options_round_trip_and_are_replaced_whole(db: Database) -> None:
    assert await db.players.options(5) is None  # never set: the table layer's defaults
    await db.players.set_options(5, '{"auto_discard": "drawn"}')
    await db.players.set_options(6, '{"auto_sort": false}')
    await db.players.set_options(5, '{"auto_mahjong": "on"}')
    assert await db.players.options(5) == '{"auto_mahjong": "on"}'
    assert await db.players.options_of([5, 6, 7]) == {5: '{"auto_mahjong": "on"}',
                                                     6: '{"auto_sort": false}'}
    assert await db.players.options_of([]) == {}


async def test_options_must_be_json(db: Database) -> None:
    with pytest.raises(ValueError, match="player options"):
        await db.players.set_options(5, "not json")
    assert await db.players.options(5) is None


async def test_a_dm_channel_is_kept_for_every_process_sharing_the_store(
        db_target: str) -> None:
    async with Database(db_target) as first, Database(db_target) as second:
        assert await first.players.dm_channel(5) is None  # never opened
        await first.players.set_dm_channel(5, 9001)
        assert await second.players.dm_channel(5) == 9001
        await second.players.set_dm_channel(5, 9001)  # opened at the same moment: harmless
        assert await first.players.dm_channel(5) == 9001
        assert await first.players.dm_channel(6) is None
        with pytest.raises(ValueError, match="channel id"):
            await first.players.set_dm_channel(6, "9002")  # type: ignore[arg-type]
        assert await second.players.dm_channel(6) is None


async def test_a_version_6_file_upgrades_keeping_each_seats_own_options(
        db_path: Path) -> None:
    async with Database(db_path, migrations=shipped_migrations()[:6]) as old:
        game = await new_game(old, players=4)
        await old.seats.set_options(game.id, 1, '{"joker_calls": "offer"}')
    async with Database(db_path) as db:
        assert db.schema_version == len(shipped_migrations())
        assert await db.seats.options(game.id) == {1: '{"joker_calls": "offer"}'}
        assert await db.players.options(1001) is None  # nobody has options of their own yet
        await db.clocks.set_clock(game.id, ClockKind.AUTO, seat=None, due_at=1.0, at_seq=0)
        assert [c.kind for c in await db.clocks.clocks(game.id)] == [ClockKind.AUTO]
    conn = sqlite3.connect(db_path)
    try:
        assert {name for (name,) in conn.execute("SELECT name FROM clock_kinds")} == {
            kind.value for kind in ClockKind}
    finally:
        conn.close()
