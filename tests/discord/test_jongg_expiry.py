"""Jongg over Discord's long stretches of time: a thread that archived between two moves of an
asynchronous game."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, World
from jongg_table import FrozenClock, JonggTable, assert_clean, jongg_client

from bot.engine.game import Phase

MINUTE = 60
DAY = 24 * 60 * MINUTE


async def test_an_async_game_goes_on_in_a_thread_that_archived(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    clock = FrozenClock()
    alice, bob = world.alice, world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2,
                                      options={"pace": "async"})
        thread = table.thread
        # An async turn may take a day, so the table's thread opens with a week's quiet
        # period, the longest Discord offers: a day without a post does not archive it.
        assert thread.auto_archive_duration == 10080
        while table.spectator().phase is not Phase.TURN or table.to_move() != [alice]:
            await table.step(table.to_move()[0])
        await fake_discord.advance(DAY)
        assert not thread.archived
        # A thread opened with a day's period (as before, or shortened by a moderator)
        # archives when Alice lets her turn run: Discord says so, and the bot forgets it.
        with fake_discord.lock:
            thread.auto_archive_duration = 1440
        await fake_discord.advance(MINUTE)
        assert thread.archived
        await fake_discord.wait_until(lambda: client.get_channel(thread.id) is None,
                                      what="the bot to drop the archived thread")
        mark = fake_discord.mark()
        clock.now += DAY + MINUTE
        assert await client.service.run_due_clocks() >= 1  # her clock plays the move
        await table.settle()
        # The move's post reached the thread and reopened it.
        posts = [m for m in fake_discord.bot_messages(since=mark) if m.channel is thread]
        assert any("Alice discards" in m.content for m in posts), fake_discord.transcript()
        assert not thread.archived
        await fake_discord.wait_until(lambda: client.get_channel(thread.id) is not None,
                                      what="the bot to take the reopened thread back")
        # The players' clicks work: Bob answers the discard under the new post, Alice
        # looks at her rack there, and the game goes on.
        assert table.spectator().phase is Phase.CLAIM
        await table.step(bob)
        post, rack = table.newest_post(f"jg:r:{table.game_id}")
        shown = await table.reply(await fake_discord.click(alice, post, rack))
        assert shown.ephemeral and "rack.png" in shown.files
        moves = table.spectator().action_count
        for _ in range(6):
            await table.step(table.to_move()[0])
        assert table.spectator().action_count > moves
    assert_clean(fake_discord, caplog)
