"""Time in the fake Discord, proven with the real client and a throwaway bot built here:
interaction tokens that serve 15 minutes and are refused after."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord.ext import commands
from fake import FakeDiscord, World

pytestmark = pytest.mark.filterwarnings("error")

MakeBot = Callable[..., commands.Bot]
StartBot = Callable[[commands.Bot], Awaitable[commands.Bot]]
MINUTE = 60
HOUR = 60 * MINUTE


@dataclass
class Seen:
    """What the bot kept: the interactions it answered to `/note`."""

    notes: list[discord.Interaction[Any]] = field(default_factory=list)


def build_bot(make_bot: MakeBot, seen: Seen) -> commands.Bot:
    bot = make_bot()

    @bot.tree.command(description="Answer now; the test follows up later")
    async def note(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("noted")
        seen.notes.append(interaction)

    @bot.tree.command(description="Ping")
    async def ping(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pong")

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
def seen() -> Seen:
    return Seen()


@pytest.fixture
async def bot(make_bot: MakeBot, start_bot: StartBot, seen: Seen) -> commands.Bot:
    return await start_bot(build_bot(make_bot, seen))


async def refused(attempt: Awaitable[object]) -> tuple[int, int]:
    """Await a request the fake must refuse; its status and Discord error code."""
    with pytest.raises(discord.HTTPException) as caught:
        await attempt
    return caught.value.status, caught.value.code


# -- interaction tokens ----------------------------------------------------------------------


async def test_an_interaction_token_serves_15_minutes_and_is_refused_after(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot, seen: Seen) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "note")
    original = await handle.reply()
    [interaction] = await fake_discord.wait_until(lambda: seen.notes, what="the kept note")
    extra = await interaction.followup.send("one more thing", wait=True)
    await fake_discord.advance(14 * MINUTE + 59)
    await interaction.edit_original_response(content="noted, and edited")
    await extra.edit(content="one more thing, edited")

    await fake_discord.advance(1)
    expired = (401, 50027)  # "Invalid Webhook Token"
    assert await refused(interaction.followup.send("too late")) == expired
    assert await refused(interaction.original_response()) == expired
    assert await refused(interaction.edit_original_response(content="too late")) == expired
    assert await refused(interaction.delete_original_response()) == expired
    assert await refused(extra.edit(content="too late")) == expired
    assert await refused(extra.delete()) == expired
    assert [m.content for m in handle.messages] == ["noted, and edited",
                                                    "one more thing, edited"]
    # What a bot can still do: edit its (visible) message with its own token, and answer a
    # new interaction, whose token is fresh.
    channel = bot.get_partial_messageable(world.general.id)
    await channel.get_partial_message(original.id).edit(content="noted, long ago")
    assert original.content == "noted, long ago"
    again = await fake_discord.slash(world.alice, world.general, "ping")
    assert (await again.reply()).content == "pong"


async def test_skipping_time_leaves_the_three_second_window_to_real_time(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "ping")
    await fake_discord.advance(HOUR)  # while the bot answers: its answer is still on time
    assert (await handle.reply()).content == "pong"
    assert not handle.too_late
