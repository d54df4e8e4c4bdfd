"""Time in the fake Discord, proven with the real client and a throwaway bot built here:
interaction tokens that serve 15 minutes and are refused after, threads that archive after
their quiet period and reopen for the next post, and what happens while the bot has no gateway
session (it is lost: a new IDENTIFY gets nothing from before it)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord.ext import commands
from fake import FakeDiscord, IdentifyGate, InteractionFailed, World

pytestmark = pytest.mark.filterwarnings("error")

MakeBot = Callable[..., commands.Bot]
StartBot = Callable[[commands.Bot], Awaitable[commands.Bot]]
MINUTE = 60
HOUR = 60 * MINUTE


class Knock(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"exp:(?P<mode>quiet|loud)"):
    """A button answered privately (quiet) or for everyone in the channel (loud)."""

    def __init__(self, mode: str) -> None:
        super().__init__(discord.ui.Button(label=mode, custom_id=f"exp:{mode}"))
        self.mode = mode

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /) -> Knock:
        return cls(match["mode"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"knock ({self.mode})",
                                                ephemeral=self.mode == "quiet")


def knocks() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Knock("quiet"))
    view.add_item(Knock("loud"))
    return view


@dataclass
class Seen:
    """What the bot kept: the interactions it answered to `/note`, the other people's
    messages it received, and every THREAD_UPDATE as (thread id, archived)."""

    notes: list[discord.Interaction[Any]] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    thread_updates: list[tuple[int, bool]] = field(default_factory=list)


def build_bot(make_bot: MakeBot, seen: Seen) -> commands.Bot:
    bot = make_bot()

    @bot.tree.command(description="Answer now; the test follows up later")
    async def note(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("noted")
        seen.notes.append(interaction)

    @bot.tree.command(description="Ping")
    async def ping(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pong")

    @bot.listen()
    async def on_message(message: discord.Message) -> None:
        if message.author != bot.user:
            seen.messages.append(message.content)

    @bot.listen()
    async def on_raw_thread_update(event: discord.RawThreadUpdateEvent) -> None:
        seen.thread_updates.append((event.thread_id,
                                    bool(event.data["thread_metadata"]["archived"])))

    async def setup_hook() -> None:
        bot.add_dynamic_items(Knock)
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


async def test_a_nonce_is_remembered_for_five_minutes_of_the_fakes_clock(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    channel = bot.get_partial_messageable(world.general.id)
    first = await channel.send("East discards 3 Bam", nonce="jg1.0")
    await fake_discord.advance(5 * MINUTE - 1)
    assert (await channel.send("East discards 3 Bam", nonce="jg1.0")).id == first.id
    await fake_discord.advance(1)
    assert (await channel.send("East discards 3 Bam", nonce="jg1.0")).id != first.id
    assert len(fake_discord.messages_in(world.general)) == 2


# -- threads -------------------------------------------------------------------------------


async def test_a_quiet_thread_archives_and_the_next_message_reopens_it(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot, seen: Seen) -> None:
    tables = bot.get_channel(world.tables.id)
    assert isinstance(tables, discord.TextChannel)
    thread = await tables.create_thread(name="table 1", auto_archive_duration=60,
                                        type=discord.ChannelType.public_thread)
    kept = fake_discord.channels[thread.id]
    first = await thread.send("first move", view=knocks())
    [posted] = fake_discord.messages_in(kept)
    await fake_discord.advance(59 * MINUTE)
    await thread.send("second move")  # activity: the hour starts again
    await fake_discord.advance(59 * MINUTE)
    assert not kept.archived and seen.thread_updates == []

    await fake_discord.advance(MINUTE)
    assert kept.archived
    # THREAD_UPDATE said so: discord.py drops an archived thread from its cache.
    await fake_discord.wait_until(lambda: bot.get_channel(thread.id) is None,
                                  what="the bot to forget the archived thread")
    assert seen.thread_updates == [(thread.id, True)]
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    # Nothing in it can be changed, and nobody can use a command there...
    assert await refused(first.edit(content="edited")) == (400, 50083)
    with pytest.raises(ValueError, match="archived"):
        await fake_discord.slash(world.alice, kept, "ping")
    # ... but its buttons still work: a private answer leaves it archived, an answer
    # everyone sees reopens it.
    quiet = await fake_discord.click(world.alice, posted, "exp:quiet")
    assert (await quiet.reply()).ephemeral and kept.archived
    loud = await fake_discord.click(world.alice, posted, "exp:loud")
    assert (await loud.reply()).content == "knock (loud)"
    assert not kept.archived
    await fake_discord.wait_until(lambda: bot.get_channel(thread.id) is not None,
                                  what="the bot to take the reopened thread back")

    # Quiet for the hour again: archived; the bot's next post reopens it.
    await fake_discord.advance(HOUR)
    assert kept.archived
    await fetched.send("third move")
    assert not kept.archived
    await fake_discord.wait_until(lambda: len(seen.thread_updates) == 4,
                                  what="THREAD_UPDATE for the reopening")
    assert seen.thread_updates == [(thread.id, True), (thread.id, False)] * 2
    assert [m.content for m in fake_discord.messages_in(kept) if not m.ephemeral] == [
        "first move", "second move", "knock (loud)", "third move"]
    refusals = [(r.status, r.response["code"]) for r in fake_discord.failed_requests]
    assert refusals == [(400, 50083)]  # the edit, and nothing else


async def test_a_locked_thread_once_archived_refuses_every_message(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    tables = bot.get_channel(world.tables.id)
    assert isinstance(tables, discord.TextChannel)
    thread = await tables.create_thread(name="table 2", auto_archive_duration=60,
                                        type=discord.ChannelType.public_thread)
    kept = fake_discord.channels[thread.id]
    await thread.edit(locked=True)  # a moderator's lock (the bot may manage threads)
    await thread.send("before the lock bit")
    await fake_discord.advance(HOUR)
    assert kept.archived and kept.locked
    assert await refused(thread.send("after")) == (400, 50083)
    with pytest.raises(ValueError, match="locked"):
        await fake_discord.say(world.alice, kept, "hello?")
    assert kept.archived
    assert [m.content for m in fake_discord.messages_in(kept)] == ["before the lock bit"]


# -- a gap before a new IDENTIFY -------------------------------------------------------------


async def test_what_happens_while_the_bot_has_no_session_never_reaches_it(
        fake_discord: FakeDiscord, world: World, make_bot: MakeBot, seen: Seen) -> None:
    gate = IdentifyGate()
    client = build_bot(make_bot, seen)
    client.before_identify_hook = gate  # type: ignore[method-assign]
    async with fake_discord.run(client, fast_reidentify=False):
        await fake_discord.drop_gateway(resumable=False)
        await gate.reached.wait()  # the old session is over, the new one not begun
        lost = await fake_discord.slash(world.alice, world.general, "ping")
        await fake_discord.say(world.bob, world.general, "anyone there?")
        with pytest.raises(InteractionFailed, match="no bot session"):
            await lost.acked()
        gate.open()
        await fake_discord.wait_connected()
        again = await fake_discord.slash(world.alice, world.general, "ping")
        assert (await again.reply()).content == "pong"
        await fake_discord.say(world.bob, world.general, "there you are")
        await fake_discord.wait_until(lambda: seen.messages, what="the later message")

    assert seen.messages == [""]  # the later one only (no message-content intent)
    assert lost.callback is None and lost.lost and not again.lost
    assert not [r for r in fake_discord.requests if lost.token in r.path]
    gateway = fake_discord.gateway
    assert (gateway.identifies, gateway.resumes, gateway.invalidations) == (2, 0, 1)
