"""Teaching tables through the fake Discord: the lobby says every rack is open, every table
post in the thread shows each seat's rack as that seat's own view has it, a player who keeps
teaching hints on gets a hint in the DM after each draw and one who turned them off gets
none; a league's channel, and a server that doesn't allow them, refuse a teaching table
privately and open nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, Perm, User, World
from jongg_table import JonggTable, assert_clean, jongg_client, open_league

from bot.engine.game import Phase, view
from bot.tables.teaching import BANNER, racks_text

HINT = "**Hint** (teaching table):"


def _dm_texts(fake: FakeDiscord, user: User) -> list[str]:
    """Every version of every DM the bot sent `user`."""
    return [text for m in fake.dms(user) if m.author is fake.bot
            for text in (m.content, *(edit.content or "" for edit in m.edits))]


async def test_a_teaching_table_shows_every_rack_and_hints_to_who_wants_them(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = world.alice, world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        shown = await (await fake_discord.slash(bob, world.tables, "mj settings")).reply()
        assert "Hints after every draw at teaching tables: on" in shown.content
        await (await fake_discord.click(bob, shown, "jg:st:teaching_hints:off")).reply()
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], size=4,
                                      options={"teaching": True})
        assert BANNER in table.lobby.content
        # Play until a claim window some way in: its post (the discard's) is the newest,
        # and nothing has moved since.
        for _ in range(200):
            user = next(u for u in table.humans if table.view(u).legal)
            await table.step(user)
            if table.steps >= 80 and table.spectator().phase is Phase.CLAIM:
                break
        state = client.service.registry.games[table.game_id].state
        assert state.phase is Phase.CLAIM
        posts = [m for m in fake_discord.messages_in(table.thread)
                 if m.author is fake_discord.bot and not m.ephemeral and BANNER in m.content]
        assert len(posts) >= 10, fake_discord.transcript()
        # The newest post shows each rack as it is now, from each seat's own view.
        now = racks_text(table.client.service.table(table.game_id).names,
                         [view(state, seat) for seat in range(4)])
        assert posts[-1].content.endswith(now), (posts[-1].content, now)
        # A hint after each of Alice's draws (a prompt is edited once answered, "You
        # chose …": what it first said counts).
        drew = [text for text in _dm_texts(fake_discord, alice) if " You drew " in text]
        hinted = [text for text in _dm_texts(fake_discord, alice) if HINT in text]
        assert len(drew) >= 3 and hinted == drew, fake_discord.transcript()
        assert all(any(part in text for part in ("Nearest hands:", "Waiting for",
                                                 "MAH JONGG")) for text in hinted)
        assert all(HINT not in text for text in _dm_texts(fake_discord, bob))
    assert_clean(fake_discord, caplog)


async def test_a_league_and_a_server_that_says_no_refuse_a_teaching_table(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        await open_league(fake_discord, world)  # in the tables channel
        refused = await (await fake_discord.slash(world.bob, world.tables, "mj new",
                                                  {"teaching": True})).reply()
        assert refused.ephemeral and refused.visible_to is world.bob
        assert "This is a league's channel, and league games never show anyone's rack" in (
            refused.content)
        # Elsewhere it opens, until a manager says no.
        opened = await fake_discord.slash(world.bob, world.general, "mj new",
                                          {"teaching": True, "players": 2})
        assert BANNER in (await opened.reply()).content
        await opened.settled()
        managers = fake_discord.add_role(world.guild, "Managers", int(Perm.MANAGE_GUILD))
        world.guild.member(world.carol).roles.append(managers)
        await (await fake_discord.slash(world.carol, world.general, "mj config",
                                        {"teaching": False})).reply()
        refused = await (await fake_discord.slash(world.bob, world.general, "mj new",
                                                  {"teaching": True})).reply()
        assert refused.ephemeral and "doesn't allow teaching tables" in refused.content
        assert len(await client.service.db.games.unfinished_games()) == 1
    assert_clean(fake_discord, caplog)
