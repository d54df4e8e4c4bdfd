"""The fake Discord's shards, proven with throwaway discord.py bots (not Jongg's).

As on Discord, each guild's events go to the session of shard `(guild_id >> 22) % count`,
DMs to shard 0, GET /gateway/bot recommends the fake's shard count, and an IDENTIFY with a
shard pair Discord would refuse is closed with 4010 (4011 when a session would hold too many
guilds).
"""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fake import CLIENT_OPTIONS, Channel, FakeDiscord, Guild, Message, World
from fake.gateway import Op, shard_of

pytestmark = [pytest.mark.filterwarnings("error"), pytest.mark.shards(2)]


class Where(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"where:(?P<n>\d+)"):
    """A button that says which bot (and shard) answered its click."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Where?", custom_id=f"where:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> Where:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(answer(interaction), ephemeral=True)


def answer(interaction: discord.Interaction[Any]) -> str:
    bot = interaction.client
    assert isinstance(bot, ShardBot)
    shard = None if interaction.guild is None else interaction.guild.shard_id
    return f"{bot.name} shard {shard}"


class ShardBot(commands.AutoShardedBot):
    """A sharded bot with `/where` (answered with its name) and a Where? button; it counts
    the interactions it gets. Only the bot named `syncs` syncs the commands."""

    def __init__(self, name: str, *, syncs: bool, **options: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=discord.Intents.default(), **CLIENT_OPTIONS, **options)
        self.name = name
        self.syncs = syncs
        self.seen: list[int] = []

        @self.tree.command(description="Which bot answers")
        @app_commands.allowed_contexts(guilds=True, dms=True)
        async def where(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message(answer(interaction),
                                                    view=where_view())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Where)
        if self.syncs:
            await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.seen.append(interaction.id)


def where_view() -> discord.ui.View:
    view = discord.ui.View()
    view.add_item(Where(1))
    return view


def far_hall(fake: FakeDiscord, world: World) -> tuple[Guild, Channel]:
    """A second guild, on shard 1, with alice in it."""
    guild = fake.add_guild("Far Hall", shard=1)
    channel = fake.add_channel(guild, "far-tables")
    fake.add_member(guild, world.alice)
    return guild, channel


def test_guild_ids_can_be_chosen_on_a_shard() -> None:
    fake = FakeDiscord(shards=3)
    guilds = [fake.add_guild(f"g{i}", shard=i % 3) for i in range(9)]
    assert [shard_of(g.id, 3) for g in guilds] == [i % 3 for i in range(9)]
    assert [g.id for g in guilds] == sorted({g.id for g in guilds})  # unique, increasing
    with pytest.raises(ValueError):
        fake.add_guild("nowhere", shard=3)


async def test_gateway_bot_recommends_the_count_and_a_bot_that_asks_runs_every_shard(
        fake_discord: FakeDiscord, world: World) -> None:
    far, _ = far_hall(fake_discord, world)
    bot = ShardBot("auto", syncs=False)  # no shard_count: discord.py asks /gateway/bot
    async with fake_discord.run(bot):
        assert bot.shard_count == 2
        assert sorted(bot.shards) == [0, 1]
        assert {g.id: g.shard_id for g in bot.guilds} == {world.guild.id: 0, far.id: 1}
    assert sorted(s.shard for s in fake_discord.gateway.sessions) == [(0, 2), (1, 2)]


async def test_each_guild_reaches_only_its_shard_and_dms_reach_shard_zero(
        fake_discord: FakeDiscord, world: World) -> None:
    far, far_tables = far_hall(fake_discord, world)
    fake = fake_discord
    first = ShardBot("first", syncs=True, shard_count=2, shard_ids=[0])
    second = ShardBot("second", syncs=False, shard_count=2, shard_ids=[1])
    async with fake.run(first), fake.run(second):
        assert [g.id for g in first.guilds] == [world.guild.id]
        assert [g.id for g in second.guilds] == [far.id]

        here = await fake.slash(world.alice, world.general, "where")
        there = await fake.slash(world.alice, far_tables, "where")
        dm = await fake.slash(world.alice, fake.dm_channel(world.alice), "where")
        assert (await here.reply()).content == "first shard 0"
        assert (await there.reply()).content == "second shard 1"
        assert (await dm.reply()).content == "first shard None"
        assert (first.seen, second.seen) == ([here.id, dm.id], [there.id])

        # Clicks follow their message's guild; a click in a DM goes to shard 0.
        for handle, who in ((there, "second shard 1"), (dm, "first shard None"),
                            (here, "first shard 0")):
            message: Message = await handle.reply()
            click = await fake.click(world.alice, message, "where:1")
            assert (await click.reply()).content == who
        assert len(first.seen) == 4 and len(second.seen) == 2


async def identify_closes_with(fake: FakeDiscord, shard: Any) -> int | None:
    """IDENTIFY over a raw websocket with this `shard` field (None: without one); the close
    code the fake answers with, or None if it sent READY."""
    data: dict[str, Any] = {"token": fake.token, "intents": 1, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    async with aiohttp.ClientSession() as session, \
            session.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == Op.HELLO
        await ws.send_json({"op": Op.IDENTIFY, "d": data})
        reply = await ws.receive()
        if reply.type is aiohttp.WSMsgType.TEXT:
            assert reply.json()["t"] == "READY"
            await ws.close()
            return None
        return ws.close_code


async def test_a_shard_pair_discord_refuses_is_closed_with_4010(
        fake_discord: FakeDiscord) -> None:
    for wrong in ([2, 2], [-1, 2], [0, 0], [0], "0,2", [True, 2]):
        assert await identify_closes_with(fake_discord, wrong) == 4010, wrong
    assert await identify_closes_with(fake_discord, [1, 2]) is None
    assert await identify_closes_with(fake_discord, None) is None


async def test_a_session_holding_too_many_guilds_must_shard_4011(
        fake_discord: FakeDiscord, world: World) -> None:
    far_hall(fake_discord, world)
    fake_discord.guilds_per_shard = 1
    assert await identify_closes_with(fake_discord, None) == 4011
    assert await identify_closes_with(fake_discord, [0, 1]) == 4011
    assert await identify_closes_with(fake_discord, [0, 2]) is None
