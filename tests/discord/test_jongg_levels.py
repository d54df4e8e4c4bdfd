"""Bot levels through the fake Discord: the lobby's Add bot buttons pick a level (the
server's marked as the default) and the lobby names each bot's level; the game plays with
them; `/mj config bot_level:` sets the server's level for a server manager, refuses anyone
else privately, and refuses a mistyped level."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, Perm, World
from jongg_table import JonggTable, assert_clean, components, custom_ids, jongg_client

from bot.bots import DEFAULT_LEVEL


async def test_add_bot_picks_a_level_the_lobby_shows_it_and_the_game_plays(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        opened = await fake_discord.slash(world.bob, world.tables, "mj new", {"players": 2})
        lobby = await opened.reply()
        await opened.settled()
        labels = {str(c["custom_id"]).rsplit(":", 1)[1]: c["label"]
                  for c in components(lobby) if ":bot:" in str(c.get("custom_id", ""))}
        assert labels == {"easy": "Add bot: Easy", "normal": "Add bot: Normal (default)",
                          "strong": "Add bot: Strong"}
        assert "empty seats get Normal bots" in lobby.content
        table = await JonggTable.open(fake_discord, world, client, [world.alice],
                                      bots=["strong", "easy"], size=4)
        # Start gave the last seat a bot of the server's level.
        assert client.service.bot_levels(table.game_id) == {
            1: "strong", 2: "easy", 3: DEFAULT_LEVEL}
        shown = [edit.content for edit in table.lobby.edits if edit.content]
        assert any("South: Bot 1 (Strong)" in text and "West: Bot 2 (Easy)" in text
                   and "North: *(open)*" in text for text in shown), shown
        assert "North: Bot 3 (Normal)" in table.lobby.content
        await table.play()
        await table.result_post()
    assert_clean(fake_discord, caplog)


async def test_a_manager_sets_the_servers_level_others_are_refused_privately(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    managers = fake_discord.add_role(world.guild, "Managers", int(Perm.MANAGE_GUILD))
    world.guild.members[world.alice.id].roles.append(managers)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        refused = await fake_discord.slash(world.bob, world.general, "mj config",
                                           {"bot_level": "strong"})
        answer = await refused.reply()
        assert answer.ephemeral and answer.visible_to is world.bob
        assert "Only server managers (the Manage Server permission)" in answer.content
        typo = await fake_discord.slash(world.alice, world.general, "mj config",
                                        {"bot_level": "hard"})
        answer = await typo.reply()
        assert answer.ephemeral and answer.content == (
            "There is no bot level `hard`. Choose one of: easy, normal, strong.")
        assert await client.service.db.guilds.audit(world.guild.id) == []
        typing = await fake_discord.autocomplete(world.alice, world.general, "mj config",
                                                 "bot_level", "st")
        assert await typing.choices() == [{"name": "Strong", "value": "strong"}]
        chosen = await fake_discord.slash(world.alice, world.general, "mj config",
                                          {"bot_level": "strong"})
        answer = await chosen.reply()
        assert answer.ephemeral and "**Strong**" in answer.content
        [entry] = await client.service.db.guilds.audit(world.guild.id)
        assert entry.actor_user_id == world.alice.id
        shown = await fake_discord.slash(world.bob, world.general, "mj config")
        assert "Stand-in bot level: **Strong** (set by <@" in (await shown.reply()).content
        # New lobbies mark Strong as the default, and a bot added without a level is
        # Strong.
        opened = await fake_discord.slash(world.bob, world.tables, "mj new", {"players": 2})
        lobby = await opened.reply()
        await opened.settled()
        game = int(custom_ids(lobby, "jg:l:")[0].split(":")[2])
        assert "Add bot: Strong (default)" in [c.get("label") for c in components(lobby)]
        assert "empty seats get Strong bots" in lobby.content
        await client.service.add_bot(game, world.bob.id)
        assert await client.service.stored_levels(game) == {1: "strong"}
    assert_clean(fake_discord, caplog)
