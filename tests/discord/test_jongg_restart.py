"""The bot process stops in the middle of a claim window and starts again: the game is rebuilt
from its log, the buttons already posted keep working, and play goes on to the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, World
from jongg_table import (
    FrozenClock,
    JonggTable,
    assert_clean,
    assert_no_error_logged,
    custom_ids,
    finished,
    jongg_client,
)

from bot.engine.game import Phase
from bot.scenes import result_scene
from bot.store import Database
from renderer import render_result


async def test_restart_in_a_claim_window(fake_discord: FakeDiscord, world: World,
                                         tmp_path: Path,
                                         caplog: pytest.LogCaptureFixture) -> None:
    database, clock = tmp_path / "j.db", FrozenClock()
    async with fake_discord.run(jongg_client(database, clock)) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice, world.bob],
                                      bots=1)
        # Play into the game until the bot's discard is open to both people, then one of
        # them passes.
        for _ in range(30):
            await table.step(table.to_move()[0])
        while len(table.to_move()) < 2:
            await table.step(table.to_move()[0])
        assert table.spectator().phase is Phase.CLAIM
        first, second = table.to_move()
        post, passing = table.newest_post(f"jg:p:{table.game_id}:")
        await table.done(await fake_discord.click(first, post, passing))
        await table.settle()
        count = table.spectator().action_count
        before = client.service.registry.games[table.game_id].state

    assert not fake_discord.gateway.connected
    mark, requests = fake_discord.mark(), len(fake_discord.requests)
    async with fake_discord.run(jongg_client(database, clock, sync=False)) as client:
        table.client = client
        assert client.service.registry.games[table.game_id].state == before
        assert fake_discord.bot_messages(since=mark) == [], "the restart told people things"
        # The second person answers with the button posted before the restart.
        assert custom_ids(post, "jg:p:") == [passing]
        await table.done(await fake_discord.click(second, post, passing))
        await table.settle()
        assert table.spectator().action_count > count
        # The first person's old Pass is out of date now, and changes nothing.
        again = await fake_discord.click(first, post, passing)
        answer = await again.reply()
        assert answer.ephemeral and "out of date" in answer.content
        after = table.spectator().action_count
        await table.play()
        await table.result_post()
        await finished(client, table.game_id)
        assert not client.service.in_play(table.game_id)

    assert after > count
    # The restarted bot DMed both people in the channels the first one opened (kept in the
    # store), without opening them again.
    later = fake_discord.requests[requests:]
    assert not [r for r in later if r.route == "/users/@me/channels"]
    dms = {fake_discord.dm_channel(user).id for user in (world.alice, world.bob)}
    assert {int(r.path.split("/")[2]) for r in later
            if r.method == "POST" and r.route == "/channels/{channel_id}/messages"} >= dms
    # The log holds every move once: replaying it gives the game as it ended (the result
    # the table was shown), with the moves from before the restart as they were.
    assert table.ended is not None
    assert table.ended.actions[:len(before.actions)] == before.actions
    results = [m for m in fake_discord.messages_in(table.thread) if "result.png" in m.files]
    assert len(results) == 1
    scene = result_scene(table.spectator(), table.ended.card, bots=table.bots)
    assert results[0].files["result.png"] == render_result(scene)
    assert_clean(fake_discord, caplog)


async def test_a_dm_channel_kept_from_another_bot_is_opened_afresh(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A database copied from another bot's (`jongg db copy`) keeps DM channels that are not
    this bot's: the first DM to such a person opens this bot's own channel, and it is kept."""
    database = tmp_path / "j.db"
    async with Database(database) as db:
        await db.players.set_dm_channel(world.alice.id, 4_242_424_242)
    async with fake_discord.run(jongg_client(database)) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice], bots=3)
        assert table.prompts(world.alice)  # her rack came, in her own DM channel
        assert (await client.service.db.players.dm_channel(world.alice.id)
                == fake_discord.dm_channel(world.alice).id)
    # One refusal, the kept channel's, and only once.
    assert [r.path for r in fake_discord.failed_requests] == ["/channels/4242424242/messages"]
    assert_no_error_logged(caplog)
