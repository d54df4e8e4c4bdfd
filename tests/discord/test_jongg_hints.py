"""The Hint button under the table: the clicker's own nearest hands, privately; only at
tables with hints on."""

from __future__ import annotations

from pathlib import Path

from fake import FakeDiscord, World
from jongg_table import JonggTable, custom_ids, jongg_client

from bot.engine.tiles import format_tiles


async def test_hint_shows_only_the_clickers_hand(fake_discord: FakeDiscord, world: World,
                                                 tmp_path: Path) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice, world.bob],
                                      bots=1)
        post, hint = table.newest_post(f"jg:h:{table.game_id}")
        answer = await table.reply(await fake_discord.click(world.bob, post, hint))
        assert answer.ephemeral
        assert answer.files["hint.png"].startswith(b"\x89PNG")
        bob = format_tiles(table.view(world.bob).concealed)
        assert f"Hand: {bob}" in answer.content
        assert "Nearest hands:" in answer.content
        # A non-player is told so, privately.
        refused = await (await fake_discord.click(world.carol, post, hint)).reply()
        assert refused.ephemeral and "not playing" in refused.content


async def test_no_hint_button_when_hints_are_off(fake_discord: FakeDiscord, world: World,
                                                 tmp_path: Path) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice], bots=2,
                                      options={"hints": False})
        assert all(not custom_ids(post, "jg:h:") for post in table.table_posts())
