"""Nothing private leaks: across a whole four-player game, no message to the thread or to
another person shows a seat's concealed tiles, and the pictures are the spectator's."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, World
from jongg_table import JonggTable, LeakWatch, assert_clean, jongg_client

from bot.scenes import result_scene
from renderer import render_result


async def test_no_message_shows_another_seats_tiles(fake_discord: FakeDiscord, world: World,
                                                    tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, world.players)
        watch = LeakWatch(table, pictures=4)
        watch(table)
        table.watchers.append(watch)
        await table.play()
        result = await table.result_post()
        spectator = table.spectator()
        assert table.ended is not None
        scene = result_scene(spectator, table.ended.card, bots=table.bots)
        assert result.files["result.png"] == render_result(scene)
    assert watch.messages > 500
    assert watch.images >= 25  # table pictures drawn from the spectator view, exactly
    assert watch.private > 100  # the check has teeth: people were shown their own tiles
    assert_clean(fake_discord, caplog)
