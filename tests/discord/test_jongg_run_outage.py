"""`jongg run` on PostgreSQL through a database outage, against the fake Discord: the server
is stopped (`pg_ctl stop -m fast`) mid-game while Alice keeps clicking, then started again.
A post is held up by a rate limit while the server stops, so the process has delivered what
it can't record. Alice's clicks meanwhile are told the database can't be reached and change
nothing; the process logs the outage once and its end once, and no task of it dies; every
move she made is in the log once; no message reaches Discord twice (each outbox entry's
nonce is on one message); the game plays on; and a restart after the outage, once Discord
has forgotten the nonces, posts nothing again."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fake import FakeDiscord, World
from fake.rest import NONCE_WINDOW
from jongg_process import kill, log_path, ready_shards, start, stop
from jongg_table import start_table
from pg_server import MISSING, PgServer, find_binaries
from run_players import Player, quick_answers

from bot.store import Database
from bot.tables.errors import UNREACHABLE
from tests.slowness import within

#: Seconds a post is held up by a rate limit while the database is stopped under it.
HELD = 3.0
#: How many times Alice clicks while the database is away.
CLICKS = 2
#: Seconds the database stays away after Alice's clicks: the process's clocks and senders
#: meet it gone meanwhile.
OUTAGE = 3.0


@pytest.fixture
async def own_server() -> AsyncIterator[PgServer]:
    """A PostgreSQL server of the test's own, which it stops and starts again."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip(MISSING)
    server = PgServer(binaries)
    await asyncio.to_thread(server.__enter__)
    try:
        yield server
    finally:
        await asyncio.to_thread(server.stop)


def posted_twice(fake: FakeDiscord) -> list[tuple[int, str | int]]:
    """The nonces (with their channel) that more than one of the bot's messages carry: an
    outbox entry posted again as a new message."""
    counts = Counter((m.channel.id, m.nonce) for m in fake.bot_messages()
                     if m.nonce is not None)
    return [key for key, count in counts.items() if count > 1]


async def nothing_pending(db: Database, game_id: int) -> None:
    """Wait until the game's outbox holds nothing unrecorded (Alice's turn: nothing moves)."""
    async with within(60, "the outbox to empty"):
        while await db.outbox.pending(game_id):
            await asyncio.sleep(0.1)


async def test_an_outage_mid_game_loses_no_move_and_posts_nothing_twice(
        fake_discord: FakeDiscord, world: World, own_server: PgServer,
        tmp_path: Path) -> None:
    fake = fake_discord
    url = await own_server.create_database()
    process = await start(fake, tmp_path, 0, url, shards=1)
    try:
        async with Database(url) as db:
            await fake.wait_until(lambda: ready_shards(fake) == [(0, 1)], timeout=90,
                                  what="the process's shard to be ready")
            await quick_answers(fake, world, world.alice)
            game_id, _, thread = await start_table(fake, world, [world.alice], bots=3)
            alice = Player(fake, db, world.alice, game_id, thread.id)
            await alice.play(4)

            # Her next move's first post is held up by a rate limit: the database goes away
            # while it is in flight, so the process has delivered what it can't record.
            held = fake.rate_limit("POST /channels/{channel_id}/messages",
                                   retry_after=HELD)
            await alice.play(1)
            await fake.wait_until(lambda: held.hits > 0, timeout=30, what="a post held up")
            await asyncio.to_thread(own_server.halt)
            answers: list[str] = []
            async with within(30, "Alice's clicks while the database is away"):
                # her prompt may be the post held up
                while len(answers) < CLICKS:
                    answer = await alice.click_prompt() or await alice.click_pass()
                    answers += [] if answer is None else [answer]
                    await asyncio.sleep(0.3)
            await asyncio.sleep(OUTAGE)
            await asyncio.to_thread(own_server.resume)
            assert answers == [UNREACHABLE] * CLICKS

            await alice.play(6)  # the game plays on
            assert await alice.moves() == alice.by_dm + alice.by_post
            await nothing_pending(db, game_id)
            assert posted_twice(fake) == []

            text = await stop(process, tmp_path, 0)
            assert process.returncode == 0, text
            # Discord has forgotten the nonces: whatever the restart sent again would be a
            # second message.
            await fake.advance(NONCE_WINDOW + 1)
            process = await start(fake, tmp_path, 0, url, shards=1)
            await fake.wait_until(lambda: ready_shards(fake) == [(0, 1)], timeout=90,
                                  what="the process to be back")
            await alice.play(2)
            assert posted_twice(fake) == []
            assert await alice.moves() == alice.by_dm + alice.by_post

        text = await stop(process, tmp_path, 0)
        assert process.returncode == 0, text
        log = log_path(tmp_path, 0).read_text()
        assert "Task exception was never retrieved" not in log, log
        assert "Traceback" not in log, log
        gone, back = log.count("database unavailable"), log.count("database back")
        assert (gone, back) == (1, 1), log
    finally:
        await kill(process)
