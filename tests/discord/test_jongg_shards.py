"""Jongg with its two shards in two clients, as two processes run them (`jongg run --shards 2
--shard-ids 0` and `--shard-ids 1`), against a fake Discord with two shards: each client gets
only its own server's slash commands and clicks and plays its games; DM clicks all go to
shard 0's client, as Discord sends them, which plays them whatever server the game is of.
The clients share one PostgreSQL database, as processes do."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from contextlib import AsyncExitStack

import discord
import pytest
from controls import first_choice
from discord.http import Route
from fake import Channel, FakeDiscord, FakeInteraction, RateLimits, World
from fake.ratelimits import uses_interaction_token
from jongg_table import JonggTable, assert_clean, far_world, finished, jongg_client

from bot.bench.discord_measure import peak
from bot.discord.client import JonggClient
from bot.discord.shards import ShardPlan

pytestmark = pytest.mark.shards(2)

FIRST, SECOND = ShardPlan(2, (0,)), ShardPlan(2, (1,))


async def both_shards(fake: FakeDiscord, stack: AsyncExitStack,
                      database: str) -> list[JonggClient]:
    """A client for each shard, as the two processes run them, sharing `database`; closed
    with `stack`."""
    return [await stack.enter_async_context(fake.run(jongg_client(database, shard_plan=plan)))
            for plan in (FIRST, SECOND)]


def shard_expected(world: World, handle: FakeInteraction) -> tuple[int, int]:
    """Where Discord sends an interaction: DMs and the first server to shard 0."""
    guild = handle.channel.guild
    return (0, 2) if guild is None or guild is world.guild else (1, 2)


async def test_two_shard_clients_each_play_their_own_servers_games(
        fake_discord: FakeDiscord, world: World, pg_url: str,
        caplog: pytest.LogCaptureFixture) -> None:
    fake = fake_discord
    far = far_world(fake, world)
    database = pg_url  # one PostgreSQL for both, as processes share one server
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(
            fake.run(jongg_client(database, shard_plan=FIRST)))
        second = await stack.enter_async_context(
            fake.run(jongg_client(database, shard_plan=SECOND)))
        assert [g.id for g in first.guilds] == [world.guild.id]
        assert [g.id for g in second.guilds] == [far.guild.id]
        syncs = [r for r in fake.requests if r.method == "PUT" and "/commands" in r.path]
        assert len(syncs) == 1  # shard 0's process registers the commands, once

        near = await JonggTable.open(fake, world, first, [world.alice], bots=3)
        away = await JonggTable.open(fake, far, second, [world.bob], bots=3)
        away.also = (first,)
        assert first.service.in_play(near.game_id) and not first.service.in_play(away.game_id)
        assert second.service.in_play(away.game_id)
        assert not second.service.in_play(near.game_id)

        # Bob's rack came by DM from the far server's client, but a click in a DM goes to
        # shard 0, whose client loads the game from the store and makes the move.
        [prompt] = away.prompts(world.bob)
        custom_id, values = first_choice(prompt)
        before = away.view(world.bob).action_count
        stray = await (fake.click(world.bob, prompt, custom_id) if values is None
                       else fake.select(world.bob, prompt, custom_id, values))
        assert stray.delivered_to == [(0, 2)]
        assert (await stray.reply()).content.startswith("You chose: ")
        await away.refresh()
        assert away.view(world.bob).action_count > before
        assert first.service.in_play(away.game_id)

        # From here on Bob's DM clicks reach the first client and the table's buttons the
        # second: each move is made by whichever the click reached, in order.
        assert await near.play() > 10
        assert await away.play() > 10
        await finished(first, near.game_id)
        await finished(second, away.game_id)

    sent = fake.interactions.values()
    assert {h.channel.guild.id for h in sent if h.channel.guild} == {world.guild.id, far.guild.id}
    assert any(h.channel.guild is None for h in sent)  # near's DM prompts were clicked
    wrong = [(h.describe(), h.delivered_to) for h in sent
             if h.delivered_to != [shard_expected(world, h)]]
    assert not wrong
    # Shard 0's client posted to the far server's thread, which is not in its cache,
    # without reading the channel first: a post needs only the channel's id.
    reads = [r.path for r in fake.requests
             if r.method == "GET" and r.route == "/channels/{channel_id}"]
    assert not reads
    # Each message went out once, whichever client made the move it reports.
    nonces = [r.json.get("nonce") for r in fake.requests
              if r.method == "POST" and r.route == "/channels/{channel_id}/messages"
              and isinstance(r.json, dict)]
    assert len(nonces) == len(set(nonces)) > 20
    assert_clean(fake, caplog)


async def read_channels(client: JonggClient, channels: Sequence[Channel]) -> None:
    """Read each channel once, all at once: no channel's own bucket holds a read back, so
    only the global limit (the bot token's, across every process) binds."""
    await asyncio.gather(*(
        client.http.request(Route("GET", "/channels/{channel_id}", channel_id=c.id))
        for c in channels))


@pytest.mark.rate_limits(RateLimits())  # Discord's own windows: 50 requests a second
async def test_the_processes_together_keep_under_the_bots_global_limit(
        fake_discord: FakeDiscord, world: World, pg_url: str) -> None:
    fake = fake_discord
    channels = [fake.add_channel(world.guild, f"room-{n}") for n in range(60)]
    far_world(fake, world)
    async with AsyncExitStack() as stack:
        clients = await both_shards(fake, stack, pg_url)
        assert all(client.pace.sharing.budgets is not None for client in clients)
        start = len(fake.requests)
        await asyncio.gather(*(read_channels(client, channels) for client in clients))
    assert fake.rate_limited == []
    burst = [r for r in fake.requests[start:] if r.route == "/channels/{channel_id}"]
    assert len(burst) == 120
    counted = [r.at for r in fake.requests if not uses_interaction_token(r)]
    assert peak(counted, 1.0) <= 50
    assert peak([r.at for r in burst], 1.0) > 40  # the token's limit nearly all in use


@pytest.mark.rate_limits(RateLimits())
async def test_a_busy_process_uses_what_an_idle_one_leaves(
        fake_discord: FakeDiscord, world: World, pg_url: str) -> None:
    """All the work in one process of two (as every DM click reaches shard 0's): it takes
    nearly the whole global limit, not its half, and never more than the whole."""
    fake = fake_discord
    channels = [fake.add_channel(world.guild, f"room-{n}") for n in range(100)]
    far_world(fake, world)
    async with AsyncExitStack() as stack:
        busy, idle = await both_shards(fake, stack, pg_url)
        start = len(fake.requests)
        await read_channels(busy, channels)
        await read_channels(idle, channels[:5])  # the idle one may still send
    assert fake.rate_limited == []
    burst = [r.at for r in fake.requests[start:] if r.route == "/channels/{channel_id}"]
    assert len(burst) == 105
    counted = [r.at for r in fake.requests if not uses_interaction_token(r)]
    assert peak(counted, 1.0) <= 50
    assert peak(burst[:100], 1.0) >= 40  # at least 80 % of the limit, in one process


@pytest.mark.rate_limits(RateLimits(time_scale=0.1))
async def test_the_processes_together_keep_to_a_bucket_the_token_shares(
        fake_discord: FakeDiscord, world: World, pg_url: str) -> None:
    """Opening a DM channel is a bucket of the whole bot token (5 a window in the fake, as
    Discord's default): two processes opening DMs at once count them together (the
    bucket's limit and window learnt from the headers of their first), so neither is
    refused."""
    fake = fake_discord
    people = [fake.add_user(f"person-{n}") for n in range(40)]
    far_world(fake, world)
    async with AsyncExitStack() as stack:
        clients = await both_shards(fake, stack, pg_url)
        start = len(fake.requests)
        opened = await asyncio.gather(*(
            client.create_dm(discord.Object(person.id))
            for n, person in enumerate(people) for client in clients[n % 2:] + clients[:n % 2]))
    assert {channel.id for channel in opened} == {fake.dm_channel(p).id for p in people}
    dms = [r for r in fake.requests[start:] if r.route == "/users/@me/channels"]
    assert len(dms) == 80
    assert fake.rate_limited == []
