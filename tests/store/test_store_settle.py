"""`Database.settle`: after bulk writes, PostgreSQL's tables are vacuumed and analyzed (as
autovacuum would do in time, so a covering index is read without the table), SQLite's file
is left as it is; on both the data stays, and a closed database refuses."""

from __future__ import annotations

import asyncpg
import pytest

from bot.bench.seeding import big_season
from bot.store import Database, StoreClosed


async def test_settle_keeps_the_data_and_refuses_when_closed(db: Database) -> None:
    season = await big_season(db, games=20, players=5)  # settles
    await db.settle()
    assert len(await db.league_stats.standings(season.id)) == 5
    await db.close()
    with pytest.raises(StoreClosed):
        await db.settle()


async def test_on_postgresql_every_table_is_vacuumed_and_analyzed(pg_url: str) -> None:
    async with Database(pg_url) as db:
        await big_season(db, games=20, players=5)
    conn = await asyncpg.connect(pg_url)
    try:
        rows = await conn.fetch("SELECT relname, last_vacuum, last_analyze "
                                "FROM pg_stat_user_tables")
    finally:
        await conn.close()
    assert rows and all(r["last_vacuum"] and r["last_analyze"] for r in rows), rows
