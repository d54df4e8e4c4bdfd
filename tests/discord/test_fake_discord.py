"""The fake Discord harness, proven with a throwaway bot built here (not Jongg's own cogs).

The real discord.py client logs in against the fake, syncs its command tree, and answers slash
commands, button clicks, selects, modals and autocomplete; we assert on what the fake recorded.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fake import (
    CallbackType,
    ChannelType,
    FakeDiscord,
    InteractionFailed,
    Message,
    MessageFlag,
    Perm,
    Upload,
    World,
    png,
    remove_channel,
    walk_components,
)

pytestmark = pytest.mark.filterwarnings("error")

MakeBot = Callable[..., commands.Bot]
StartBot = Callable[[commands.Bot], Awaitable[commands.Bot]]

CARDS = ("jongg-original", "jongg-teaching", "jongg-practice")


HAND_PNG = png(7, 3, grey=0x40)


class SeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"jongg:seat:(?P<table>\d+):(?P<seat>[ESWN])"):
    """A button whose state lives in its custom_id, so it works after a restart."""

    def __init__(self, table: int, seat: str) -> None:
        super().__init__(discord.ui.Button(label=f"Sit {seat}", style=discord.ButtonStyle.primary,
                                           custom_id=f"jongg:seat:{table}:{seat}"))
        self.table = table
        self.seat = seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> SeatButton:
        return cls(int(match["table"]), match["seat"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        text = f"{interaction.user.display_name} sits {self.seat} at table {self.table}"
        if self.seat == "N":  # the slow path: acknowledge first, edit afterwards
            await interaction.response.defer()
            await interaction.edit_original_response(content=text)
        else:
            await interaction.response.edit_message(content=text, view=None)


class NameModal(discord.ui.Modal, title="Your table name"):
    nickname: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Nickname", max_length=20)

    def __init__(self, wind: str) -> None:
        super().__init__()
        self.wind = wind

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"{self.nickname.value} plays {self.wind}",
                                                ephemeral=True)


class WindSelect(discord.ui.View):
    @discord.ui.select(custom_id="jongg:wind", placeholder="Pick a wind",
                       options=[discord.SelectOption(label=w, value=w) for w in "ESWN"])
    async def pick(self, interaction: discord.Interaction[Any],
                   select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_modal(NameModal(select.values[0]))


@dataclass
class Seen:
    """What the test bot saw: exceptions it caught, messages it received, ids it fetched."""

    errors: list[Exception] = field(default_factory=list)
    messages: list[discord.Message] = field(default_factory=list)
    fetched: list[int] = field(default_factory=list)


def build_bot(make_bot: MakeBot, seen: Seen, *, sync: bool = True,
              guild_id: int | None = None) -> commands.Bot:
    """A tiny bot with one command per harness feature. With `guild_id` it also has a
    guild-only `/house` command, synced to that guild."""
    bot = make_bot()
    tree = bot.tree

    @bot.listen()
    async def on_message(message: discord.Message) -> None:
        if bot.user is not None and message.author.id != bot.user.id:
            seen.messages.append(message)

    @tree.command(description="Ping the bot")
    async def ping(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("pong")

    @tree.command(description="A secret only you can see")
    async def secret(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("only for you", ephemeral=True)
        seen.fetched.append((await interaction.original_response()).id)

    @tree.command(description="Show your avatar's size")
    async def avatar(interaction: discord.Interaction[Any]) -> None:
        picture = await interaction.user.display_avatar.read()
        await interaction.response.send_message(f"{len(picture)} bytes of avatar")

    @tree.command(description="Here and gone")
    async def flash(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("flash")
        extra = await interaction.followup.send("and another thing", wait=True)
        await extra.edit(content="never mind")
        await extra.delete()
        seen.fetched.append((await interaction.original_response()).id)
        await interaction.delete_original_response()

    @tree.command(description="Open a table with seats")
    async def table(interaction: discord.Interaction[Any], number: int) -> None:
        view = discord.ui.View(timeout=None)
        for seat in "ESWN":
            view.add_item(SeatButton(number, seat))
        await interaction.response.send_message(f"Table {number} is open", view=view)

    @tree.command(description="Pick a wind")
    async def wind(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Which wind?", view=WindSelect())

    @tree.command(description="Show a card")
    @app_commands.describe(name="Card name")
    async def card(interaction: discord.Interaction[Any], name: str) -> None:
        await interaction.response.send_message(f"card {name}")

    @card.autocomplete("name")
    async def card_names(interaction: discord.Interaction[Any], current: str
                         ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CARDS if current in c]

    @tree.command(description="Invite a player by DM")
    async def invite(interaction: discord.Interaction[Any], player: discord.Member) -> None:
        try:
            await player.send(f"{interaction.user.display_name} invites you to a table")
        except discord.Forbidden as error:
            seen.errors.append(error)
            await interaction.response.send_message(f"I can't DM {player.display_name}",
                                                    ephemeral=True)
        else:
            await interaction.response.send_message("invited", ephemeral=True)

    @tree.command(description="Announce in this channel")
    async def announce(interaction: discord.Interaction[Any], text: str) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            await interaction.channel.send(text)
        except discord.Forbidden as error:
            seen.errors.append(error)
            await interaction.followup.send("I can't post here")
        else:
            await interaction.followup.send("announced")

    @tree.context_menu(name="Invite to table")
    async def invite_menu(interaction: discord.Interaction[Any], member: discord.Member
                          ) -> None:
        await interaction.response.send_message(f"inviting {member.display_name}",
                                                ephemeral=True)

    @tree.context_menu(name="Quote")
    async def quote(interaction: discord.Interaction[Any], message: discord.Message) -> None:
        await interaction.response.send_message(f"> {message.content}")

    @tree.command(description="Open a table thread")
    async def lobby(interaction: discord.Interaction[Any]) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.response.send_message("Opening a thread", ephemeral=True)
        starter = await interaction.channel.send("Table 3 forming")
        thread = await starter.create_thread(name="table-3")
        await thread.send("Welcome to table 3")
        await thread.add_user(interaction.user)
        await starter.edit(content="Table 3 forming (1/4)")
        staff = await interaction.channel.create_thread(
            name="table-3-staff", type=discord.ChannelType.private_thread, invitable=False)
        await staff.send("Staff only")
        history = [m.content async for m in thread.history(limit=10)]
        await interaction.followup.send(f"{len(history)} message(s) in the thread",
                                        ephemeral=True)

    @tree.command(description="Too slow to answer")
    async def slow(interaction: discord.Interaction[Any]) -> None:
        await asyncio.sleep(0.5)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as error:
            seen.errors.append(error)

    @tree.command(description="Say far too much")
    async def ramble(interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.response.send_message("mahjong! " * 300)
        except discord.HTTPException as error:
            seen.errors.append(error)
            await interaction.response.send_message("too long", ephemeral=True)

    mj = app_commands.Group(name="mj", description="Mah Jongg")

    @mj.command(description="DM yourself a picture of a hand")
    async def hand(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.user.send("Your hand", file=discord.File(
            __import__("io").BytesIO(HAND_PNG), filename="hand.png"))
        await interaction.edit_original_response(content="Sent you a DM")

    @mj.command(description="Upload a card file")
    async def upload(interaction: discord.Interaction[Any], card: discord.Attachment) -> None:
        data = await card.read()
        await interaction.response.send_message(f"{card.filename}: {len(data)} bytes",
                                                file=await card.to_file())

    tree.add_command(mj)

    if guild_id is not None:
        @tree.command(description="House rules", guild=discord.Object(guild_id))
        async def house(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("house rules: no jokers in pairs")

    async def setup_hook() -> None:
        bot.add_dynamic_items(SeatButton)
        if sync:
            await tree.sync()
            if guild_id is not None:
                await tree.sync(guild=discord.Object(guild_id))

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
def seen() -> Seen:
    return Seen()


@pytest.fixture
async def bot(make_bot: MakeBot, start_bot: StartBot, seen: Seen, world: World
              ) -> commands.Bot:
    return await start_bot(build_bot(make_bot, seen, guild_id=world.guild.id))


# -- connecting and answering ------------------------------------------------------------------


async def test_client_logs_in_syncs_and_answers_a_deferred_slash_command(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    assert bot.user is not None and bot.user.id == fake_discord.bot.id
    assert bot.get_guild(world.guild.id) is not None
    synced = {c["name"]: c for c in fake_discord.commands[None]}
    assert {"ping", "secret", "table", "mj"} <= set(synced)
    assert [o["name"] for o in synced["mj"]["options"]] == ["hand", "upload"]

    handle = await fake_discord.slash(world.alice, world.general, "ping")
    reply = await handle.reply()

    assert handle.callback is not None
    assert handle.callback.type == CallbackType.DEFERRED_CHANNEL_MESSAGE
    assert reply.content == "pong" and not reply.loading and not reply.ephemeral
    assert reply.channel is world.general and reply.author is fake_discord.bot
    assert handle.messages == [reply]
    routes = [r.key for r in fake_discord.requests]
    assert routes[:3] == ["GET /users/@me", "GET /oauth2/applications/@me",
                          "PUT /applications/{application_id}/commands"]


async def test_ephemeral_message_is_recorded_for_the_user_only(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot, seen: Seen) -> None:
    handle = await fake_discord.slash(world.bob, world.general, "secret")
    reply = await handle.reply()
    assert reply.content == "only for you"
    assert reply.ephemeral and reply.visible_to is world.bob
    assert reply.flags & MessageFlag.EPHEMERAL
    await fake_discord.wait_until(lambda: seen.fetched, what="GET @original")
    assert seen.fetched == [reply.id]


async def test_avatars_come_from_the_fake_cdn(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    handle = await fake_discord.slash(world.dave, world.general, "avatar")
    assert (await handle.reply()).content == f"{len(png(16, 16))} bytes of avatar"
    assert any(r.path.startswith("/cdn/embed/avatars/") for r in fake_discord.requests)


async def test_followups_are_edited_and_deleted(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot, seen: Seen) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "flash")
    original = await handle.reply()
    extra = await handle.followup()
    await fake_discord.wait_until(lambda: original.deleted, what="the original deleted")
    assert extra.deleted and extra.content == "never mind"
    assert [e.content for e in extra.edits] == ["and another thing"]
    assert seen.fetched == [original.id]
    assert fake_discord.messages_in(world.general) == []
    assert [m.content for m in fake_discord.messages_in(world.general, deleted=True)] == [
        "flash", "never mind"]


async def test_autocomplete_and_attachment_options(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    typing = await fake_discord.autocomplete(world.alice, world.general, "card", "name", "teach")
    assert await typing.choices() == [{"name": "jongg-teaching", "value": "jongg-teaching"}]

    card = await fake_discord.slash(world.alice, world.general, "card", {"name": CARDS[0]})
    assert (await card.reply()).content == f"card {CARDS[0]}"

    upload = await fake_discord.slash(world.alice, world.general, "mj upload",
                                      {"card": Upload("mine.jongg", b"r1 11a 222a = 25 X")})
    echoed = await upload.reply()
    assert echoed.content == "mine.jongg: 18 bytes"
    assert echoed.files == {"mine.jongg": b"r1 11a 222a = 25 X"}


async def test_guild_commands_and_commands_in_dms(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    assert [c["name"] for c in fake_discord.commands[world.guild.id]] == ["house"]
    handle = await fake_discord.slash(world.bob, world.general, "house")
    assert handle.payload["data"]["guild_id"] == str(world.guild.id)
    assert (await handle.reply()).content == "house rules: no jokers in pairs"

    dm = fake_discord.dm_channel(world.bob)
    with pytest.raises(LookupError, match="house"):
        await fake_discord.slash(world.bob, dm, "house")
    in_dm = await fake_discord.slash(world.bob, dm, "ping")
    assert "member" not in in_dm.payload and in_dm.payload["context"] == 1
    reply = await in_dm.reply()
    assert reply.channel is dm and reply.content == "pong"


async def test_user_messages_reach_the_bot_as_the_intents_allow(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot, seen: Seen) -> None:
    await fake_discord.say(world.alice, world.general, "anyone for a game?")
    await fake_discord.say(world.alice, world.general, f"{fake_discord.bot.mention} deal me in")
    await fake_discord.say(world.bob, fake_discord.dm_channel(world.bob), "hi bot")
    await fake_discord.wait_until(lambda: len(seen.messages) == 3, what="three messages")
    # No message-content intent: guild messages arrive empty unless they mention the bot.
    assert [m.content for m in seen.messages] == [
        "", f"{fake_discord.bot.mention} deal me in", "hi bot"]
    assert isinstance(seen.messages[2].channel, discord.DMChannel)


async def test_select_opens_a_modal_and_the_submission_is_answered(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    prompt = await (await fake_discord.slash(world.carol, world.tables, "wind")).reply()
    assert prompt.component("jongg:wind")["type"] == 3

    picked = await fake_discord.select(world.carol, prompt, "jongg:wind", ["S"])
    modal = await picked.modal()
    assert modal["title"] == "Your table name"

    submitted = await fake_discord.submit_modal(world.carol, picked, {
        modal_input_id(modal): "Carol the Cat"})
    answer = await submitted.reply()
    assert answer.content == "Carol the Cat plays S" and answer.visible_to is world.carol


def modal_input_id(modal: dict[str, Any]) -> str:
    return str(next(c["custom_id"] for c in walk_components(modal["components"])
                    if c.get("type") == 4))


async def test_thread_created_from_a_message(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    handle = await fake_discord.slash(world.dave, world.general, "lobby")
    await handle.reply()
    thread = await fake_discord.wait_until(
        lambda: next(iter(world.guild.threads), None), what="a thread")
    welcome = await fake_discord.wait_for_message(channel=thread)
    assert (await handle.followup()).content == "1 message(s) in the thread"
    starter = await fake_discord.wait_for_message(channel=world.general,
                                                  predicate=lambda m: m.thread is thread)
    assert starter.content == "Table 3 forming (1/4)"
    assert [e.content for e in starter.edits] == ["Table 3 forming"]
    assert thread.name == "table-3" and thread.parent is world.general
    assert thread.id == starter.id  # Discord gives a message's thread the message's id
    assert welcome.content == "Welcome to table 3"
    assert world.dave.id in thread.thread_members
    staff = world.guild.channel("table-3-staff")
    assert staff.type == ChannelType.PRIVATE_THREAD and not staff.invitable
    assert [m.content for m in staff.visible_messages()] == ["Staff only"]
    assert set(staff.thread_members) == {fake_discord.bot.id}


# -- persistence across a restart ------------------------------------------------------------


async def test_dynamic_button_works_after_the_client_restarts(
        fake_discord: FakeDiscord, world: World, make_bot: MakeBot, seen: Seen) -> None:
    async with fake_discord.run(build_bot(make_bot, seen)):
        opened = await fake_discord.slash(world.alice, world.tables, "table", {"number": 7})
        message = await opened.reply()
    assert message.custom_ids() == [f"jongg:seat:7:{w}" for w in "ESWN"]
    assert not fake_discord.gateway.connected

    async with fake_discord.run(build_bot(make_bot, seen, sync=False)):
        click = await fake_discord.click(world.bob, message, "jongg:seat:7:S")
        updated = await click.reply()

    assert click.callback is not None and click.callback.type == CallbackType.UPDATE_MESSAGE
    assert updated is message
    assert message.content == "Bob sits S at table 7"
    assert message.components == [] and len(message.edits) == 1
    assert fake_discord.gateway.identifies == 2


async def test_deferred_update_then_edit_of_the_clicked_message(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    message = await (await fake_discord.slash(world.alice, world.tables, "table",
                                              {"number": 9})).reply()
    click = await fake_discord.click(world.dave, message, "jongg:seat:9:N")
    updated = await click.reply()
    assert click.callback is not None
    assert click.callback.type == CallbackType.DEFERRED_UPDATE_MESSAGE
    assert updated is message and message.content == "Dave sits N at table 9"
    assert message.custom_ids() == [f"jongg:seat:9:{w}" for w in "ESWN"]
    with pytest.raises(ValueError, match="no component"):
        await fake_discord.click(world.dave, message, "jongg:seat:9:X")


# -- DMs, files and refusals -----------------------------------------------------------------


async def test_dm_with_png_is_recorded_with_the_file_bytes(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "mj hand")
    reply = await handle.reply()
    assert reply.content == "Sent you a DM" and reply.ephemeral

    dm = await fake_discord.wait_for_dm(world.alice)
    assert dm.content == "Your hand"
    assert dm.files == {"hand.png": HAND_PNG}
    picture = dm.attachments[0]
    assert picture.content_type == "image/png" and picture.image_size == (7, 3)
    upload = next(r for r in fake_discord.requests if r.files)
    assert upload.files[0].data == HAND_PNG


async def test_blocked_dm_raises_forbidden_50007_in_the_bot(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot, seen: Seen) -> None:
    fake_discord.block_dms(world.bob)
    handle = await fake_discord.slash(world.alice, world.general, "invite",
                                      {"player": world.bob})
    reply = await handle.reply()
    assert reply.content == "I can't DM Bob"
    [error] = seen.errors
    assert isinstance(error, discord.Forbidden)
    assert error.status == 403 and error.code == 50007
    assert fake_discord.dms(world.bob) == []

    fake_discord.unblock_dms(world.bob)
    again = await fake_discord.slash(world.alice, world.general, "invite", {"player": world.bob})
    assert (await again.reply()).content == "invited"
    assert [m.content for m in fake_discord.dms(world.bob)] == ["Alice invites you to a table"]


async def test_rate_limited_send_is_retried_and_arrives(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    fault = fake_discord.rate_limit("POST /channels/{channel_id}/messages", times=2,
                                    retry_after=0.05)
    handle = await fake_discord.slash(world.alice, world.general, "announce",
                                      {"text": "East deals"})
    assert (await handle.reply()).content == "announced"
    announced = await fake_discord.wait_for_message(channel=world.general,
                                                    predicate=lambda m: not m.ephemeral)
    assert announced.content == "East deals"
    assert fault.hits == 2
    statuses = [r.status for r in fake_discord.requests
                if r.key == "POST /channels/{channel_id}/messages"]
    assert statuses == [429, 429, 200]


async def test_a_repeated_create_with_an_enforced_nonce_returns_the_first_message(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    channel = bot.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    # discord.py sends `enforce_nonce` with every nonce: the repeat is the same message.
    first = await channel.send("East deals", nonce="deal-1")
    again = await channel.send("East deals", nonce="deal-1")
    assert again.id == first.id
    # A lost answer (Discord made the message, the bot saw a 503): the retry makes no copy.
    lost = fake_discord.fail("POST /channels/{channel_id}/messages", status=503)
    lost.effective = True
    with pytest.raises(discord.DiscordServerError):
        await channel.send("South discards", nonce="discard-1")
    retried = await channel.send("South discards", nonce="discard-1")
    assert [m.content for m in fake_discord.messages_in(world.general)] == [
        "East deals", "South discards"]
    assert fake_discord.messages_in(world.general)[1].id == retried.id
    # Without enforcement a nonce is only echoed: two sends, two messages.
    route = discord.http.Route("POST", "/channels/{channel_id}/messages",
                               channel_id=channel.id)
    for _ in range(2):
        await bot.http.request(route, json={"content": "West passes", "nonce": "pass-1"})
    assert [m.content for m in fake_discord.messages_in(world.general)][2:] == [
        "West passes", "West passes"]
    # A nonce is an integer or a string of at most 25 characters.
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("North waits", nonce="n" * 26)
    assert refused.value.code == 50035


async def test_a_deleted_thread_is_gone_for_the_bot(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    tables = bot.get_channel(world.tables.id)
    assert isinstance(tables, discord.TextChannel)
    channel = await tables.create_thread(name="table-9", type=discord.ChannelType.public_thread)
    await fake_discord.wait_until(lambda: bot.get_channel(channel.id),
                                  what="THREAD_CREATE to reach the bot")
    await remove_channel(fake_discord, world.guild.channel("table-9"))
    await fake_discord.wait_until(lambda: bot.get_channel(channel.id) is None or None,
                                  what="THREAD_DELETE to reach the bot")
    with pytest.raises(discord.NotFound) as gone:
        await channel.send("Anyone there?")
    assert gone.value.code == 10003
    assert world.guild.threads == []


async def test_missing_channel_permission_is_a_403(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot, seen: Seen) -> None:
    fake_discord.set_permissions(world.general, world.guild.everyone, deny=Perm.SEND_MESSAGES)
    handle = await fake_discord.slash(world.alice, world.general, "announce", {"text": "hi"})
    assert (await handle.reply()).content == "I can't post here"
    [error] = seen.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50013


async def test_context_menu_commands(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    invited = await fake_discord.user_command(world.alice, world.general, "Invite to table",
                                              world.carol)
    assert (await invited.reply()).content == "inviting Carol"
    said = await fake_discord.say(world.bob, world.general, "Three jokers!")
    quoted = await fake_discord.message_command(world.alice, "Quote", said)
    reply = await quoted.reply()
    assert reply.content == "> Three jokers!"
    await quoted.settled()
    assert quoted.messages == [reply]


async def test_interaction_not_acknowledged_in_time(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot, seen: Seen) -> None:
    fake_discord.interaction_ack_timeout = 0.2
    handle = await fake_discord.slash(world.alice, world.general, "slow")
    with pytest.raises(InteractionFailed, match="did not acknowledge"):
        await handle.acked()
    await fake_discord.wait_until(lambda: seen.errors, what="the late callback's error")
    [error] = seen.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert handle.too_late


async def test_discord_limits_are_enforced(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot, seen: Seen) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "ramble")
    assert (await handle.reply()).content == "too long"
    [error] = seen.errors
    assert isinstance(error, discord.HTTPException)
    assert error.status == 400 and error.code == 50035 and "content" in error.text
    with pytest.raises(ValueError, match="needs option 'number'"):
        await fake_discord.slash(world.alice, world.general, "table")


async def test_unknown_routes_are_answered_404_and_recorded(
        fake_discord: FakeDiscord, bot: commands.Bot) -> None:
    shards, url, _limits = await bot.http.get_bot_gateway()
    assert (shards, url) == (1, fake_discord.gateway_url)
    fake_discord.strict = False
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    [missed] = fake_discord.unhandled
    assert (missed.method, missed.path, missed.status) == ("GET", "/voice/regions", 404)


# -- the fake's own thread ---------------------------------------------------------------------


async def test_the_fake_runs_in_its_own_thread_and_waits_for_its_lock(
        fake_discord: FakeDiscord, world: World) -> None:
    """The fake acts on its own loop, in its own thread; whoever holds its lock sees it
    between two steps (the fake does nothing meanwhile)."""
    ran = threading.Event()

    async def say() -> Message:
        assert threading.current_thread() is not threading.main_thread()
        ran.set()
        return await fake_discord.say(world.bob, world.general, "Pung!")

    with fake_discord.lock:
        pending = fake_discord.later(0, say)
        assert not ran.wait(0.2), "the fake acted while the test held its lock"
        assert fake_discord.messages_in(world.general) == []
    said = await pending
    assert ran.is_set() and fake_discord.messages_in(world.general) == [said]


# -- the gateway -----------------------------------------------------------------------------


async def test_heartbeats_are_acknowledged(
        fake_discord: FakeDiscord, make_bot: MakeBot, start_bot: StartBot, seen: Seen) -> None:
    fake_discord.heartbeat_interval_ms = 50
    client = await start_bot(build_bot(make_bot, seen))
    await fake_discord.wait_until(lambda: fake_discord.gateway.heartbeats >= 3,
                                  what="three heartbeats")
    assert client.latency < 1.0


async def test_dropped_connection_resumes_and_replays_missed_events(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    await fake_discord.drop_gateway(resumable=True)
    # Sent while the bot is away: it must arrive through the RESUME replay.
    handle = await fake_discord.slash(world.alice, world.general, "ping")
    assert (await handle.reply()).content == "pong"
    assert fake_discord.gateway.resumes == 1 and fake_discord.gateway.identifies == 1
    assert fake_discord.gateway.connections[-1].path == "/resume-gateway"

    await fake_discord.drop_gateway(resumable=True, abort=True)
    await fake_discord.wait_connected()
    again = await fake_discord.slash(world.bob, world.general, "ping")
    assert (await again.reply()).content == "pong"
    assert fake_discord.gateway.resumes == 2

    await fake_discord.request_reconnect()
    await fake_discord.wait_until(lambda: fake_discord.gateway.resumes == 3, what="RESUME")
    last = await fake_discord.slash(world.carol, world.general, "ping")
    assert (await last.reply()).content == "pong"
    assert fake_discord.gateway.identifies == 1


async def test_invalidated_session_identifies_again(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    await fake_discord.drop_gateway(resumable=False)
    await fake_discord.wait_until(lambda: fake_discord.gateway.identifies == 2,
                                  what="a second IDENTIFY")
    await fake_discord.wait_connected()
    assert fake_discord.gateway.invalidations == 1
    handle = await fake_discord.slash(world.carol, world.general, "ping")
    assert (await handle.reply()).content == "pong"
    assert bot.is_ready()
