"""The table service's `Notifier`, for Discord: thread posts, DMs, and what to do when they fail.

The thread gets a new message per turn (not edits of an old one: edits to old messages are
rate limited), one line per event, and under each discard the Claim/Pass buttons, so claim
windows cost no DMs. When a Pass under the newest post leads straight to the next picture (the
bots played on), the post moves on in place as that click's answer instead
(`bot.discord.answers`): requests made with an interaction's token do not count against the
bot's global rate limit, posts do.

A seat gets a DM with its rack and controls when it must act on its own turn or in the
Charleston, or when something only it may know happened (a draw, a pass). A
closed DM (403, code 50007) is noticed once and the table is told, without revealing anything,
to use "My rack"; that seat gets no more DMs in that game (each refused request counts
against the bot's invalid-request limit).

A seat's prompt and the table's post go as follow-ups on a fresh click when there is one
(`bot.discord.tokens`: the holder's latest click in their DM, the latest click in the
thread), which Discord leaves out of the bot's global rate limit; otherwise (an async
table, a restart, another process got the click, or Discord refused the token) with the
bot's token. A message sent with the bot's token carries a nonce made from the delivery's key
and enforced (discord.py sets `enforce_nonce` with every nonce): when a send is repeated,
because its answer was lost or the bot restarted before recording it, Discord returns the
message it already made instead of posting it again. A follow-up has no nonce: when one fails
in a way that may have made it, its retry first looks for it among the bot's newest messages
there. The messages of a delivery already confirmed are not sent again at all.
Discord's errors become the table service's `DeliveryFailed`: rate limits, server errors and
network trouble are `RetryLater`; a deleted thread or channel (404, code 10003) is
`TableGone`; a missing permission (403, 50013 or 50001) is `NotAllowed`, naming what is
missing where; any other refusal is `Refused`.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.analysis import format_analysis, hint
from bot.discord.answers import TableAnswer
from bot.discord.components import ClaimButton, HintButton, PassButton, RackButton
from bot.discord.followups import FollowUps, delivery_failure
from bot.discord.mentions import NO_MENTIONS, pinging
from bot.discord.series import result_footer
from bot.engine.game import Phase, View
from bot.scenes import result_scene, table_scene
from bot.tables.notifier import (
    Delivery,
    NotAllowed,
    Refused,
    SeatUpdate,
    Table,
    TableGone,
    TableUpdate,
)
from bot.tables.options import Pace
from bot.tables.reminders import Reminder
from bot.tables.teaching import BANNER, racks_text, wants_hints
from renderer import render_result, render_table
from renderer.alt import describe_result, describe_table

if TYPE_CHECKING:
    from discord.types.threads import ThreadArchiveDuration

    from bot.discord.client import JonggClient

log = logging.getLogger(__name__)
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
MESSAGE_LIMIT = 2000
#: DM channels remembered (a few hundred bytes each).
DM_CHANNELS = 10_000
#: The permissions a table post may need, with their names in Discord's settings.
PERMISSION_NAMES = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "attach_files": "Attach Files",
}


def thread_name(game_id: int) -> str:
    """The name of a table's thread."""
    return f"Mah Jongg table {game_id}"


#: Turns this long or longer (seconds) make a slow table.
SLOW_TURN = 3600


def archive_minutes(pace: Pace) -> ThreadArchiveDuration:
    """How long a table's thread may stay quiet before Discord archives it. A table whose
    turns take hours (or have no clock) gets a week, the longest Discord offers: its clocks
    post at least once a day, so its thread stays open for as long as it is played. Others
    get a day: a server has room for only 1,000 active threads, and live tables come and go.
    (An archived thread is no harm: the next post reopens it.)"""
    slow = pace.turn_seconds is None or pace.turn_seconds >= SLOW_TURN
    return 10080 if slow else 1440


def _chunks(lines: tuple[str, ...]) -> list[str]:
    """Lines packed into messages under Discord's length limit."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + len(line) + 1 > MESSAGE_LIMIT:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line[:MESSAGE_LIMIT]
    if current:
        chunks.append(current)
    return chunks


class DiscordNotifier:
    """Implements `bot.tables.notifier.Notifier` on a running client."""

    def __init__(self, client: JonggClient) -> None:
        self.client = client
        #: user id -> their DM channel's id, newest use last (discord.py keeps only 128 DM
        #: channels, and without it every DM would first look the user up).
        self._dm_channels: OrderedDict[int, int] = OrderedDict()
        self._follow_ups = FollowUps(client)

    async def _dm_channel(self, user_id: int, *, afresh: bool = False
                          ) -> discord.PartialMessageable:
        """The user's DM channel, remembered here (up to `DM_CHANNELS` users) and in the
        store, and opened only if no process sharing the store has opened it yet (or,
        `afresh`, because the one kept is not this bot's)."""
        channel_id = self._dm_channels.pop(user_id, None)
        if afresh:
            channel_id = None
        elif channel_id is None:
            channel_id = await self.client.service.settings.dm_channel(user_id)
        if channel_id is None:
            channel_id = (await self.client.create_dm(discord.Object(user_id))).id
            await self.client.service.settings.set_dm_channel(user_id, channel_id)
        self._dm_channels[user_id] = channel_id
        if len(self._dm_channels) > DM_CHANNELS:
            self._dm_channels.popitem(last=False)
        return self.client.get_partial_messageable(channel_id,
                                                    type=discord.ChannelType.private)

    def _place(self, channel_id: int) -> discord.abc.Messageable:
        """Where to post in `channel_id`: the cached channel or thread, else a partial one.
        A post needs only the id, and another shard's servers (or an archived thread) are
        not in this process's cache: fetching them would cost a request per post."""
        channel = self.client.get_channel(channel_id)
        if isinstance(channel, discord.abc.Messageable):
            return channel
        return self.client.get_partial_messageable(channel_id)

    # -- sending, once -------------------------------------------------------------------

    @contextmanager
    def _posting(self, table: Table, where: int) -> Iterator[None]:
        """Turn the errors of a post to the table's place (`where`) into what they mean
        for the delivery; a missing permission is named by `_post`."""
        try:
            yield
        except discord.NotFound as error:
            if error.code != UNKNOWN_CHANNEL:
                delivery_failure(error)
            gone = ("its thread" if where == table.thread_id else "its channel")
            raise TableGone(f"{gone} <#{where}> was deleted") from error
        except discord.Forbidden as error:
            if error.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
                delivery_failure(error)
            raise
        except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as error:
            delivery_failure(error)

    async def _post(self, table: Table, delivery: Delivery, part: int, *,
                    where: int | None = None, by_token: bool = False, **fields: Any) -> None:
        """Post part `part` of a delivery to the table's thread (or `where`), unless it was
        already posted; its nonce makes a repeat of an unconfirmed post harmless. With
        `by_token`, as a follow-up on the latest click in the place while one is fresh
        (`FollowUps.send`), with the bot's token otherwise."""
        if part < len(delivery.sent):
            return
        target = where or table.thread_id or table.channel_id
        if await self._follow_ups.made_already(delivery, part, fields.get("content")):
            return
        if by_token:
            click = self.client.tokens.for_thread(target)
            if click is not None and await self._follow_ups.send(click, delivery, part, fields):
                return
        try:
            with self._posting(table, target):
                channel = self._place(target)
                message = await channel.send(nonce=f"{delivery.key}.{part}", **fields)
        except discord.Forbidden as error:
            needed = ["attach_files"] if "file" in fields else []
            raise NotAllowed(await self._missing(target, needed)) from error
        delivery.sent.append(message.id)

    async def _missing(self, where: int, needed: list[str],
                       thread_permission: str = "send_messages_in_threads") -> str:
        """Which of the permissions a post needs the bot lacks in `where` (read afresh, since
        permission changes are not always announced), worded for the host."""
        try:
            place = await self.client.fetch_channel(where)
            is_thread = isinstance(place, discord.Thread)
            if is_thread:
                assert isinstance(place, discord.Thread)
                place = await self.client.fetch_channel(place.parent_id)
            assert isinstance(place, discord.abc.GuildChannel)
            wanted = ["view_channel", thread_permission if is_thread else "send_messages",
                      *needed]
            me = place.guild.me
            have = place.permissions_for(me) if me is not None else discord.Permissions.none()
            missing = [name for name in wanted if not getattr(have, name)] or wanted
        except discord.HTTPException:
            missing = ["view_channel"]  # it cannot even look at the place
        names = " and ".join(f"**{PERMISSION_NAMES[name]}**" for name in missing)
        plural = "s" if len(missing) > 1 else ""
        return (f"I'm missing the {names} permission{plural} in <#{where}>, so the game's "
                "messages can't be posted there. Please grant it: they go out as soon as I "
                "can post.")

    async def _send_dm(self, user_id: int, delivery: Delivery, text: str, part: int = 0,
                       **extra: Any) -> None:
        """DM a user as part `part` of a delivery, unless it was already sent: as a
        follow-up on their latest click in the DM while one is fresh (`FollowUps.send`), with
        the bot's token otherwise (its nonce makes a repeat of an unconfirmed DM harmless).
        Raises `discord.Forbidden` for closed DMs."""
        if part < len(delivery.sent):
            return
        if await self._follow_ups.made_already(delivery, part, text):
            return
        click = self.client.tokens.for_person(user_id)
        fields = {"content": text, **extra}
        if click is not None and await self._follow_ups.send(click, delivery, part, fields):
            return
        nonce = f"{delivery.key}.{part}"
        try:
            dm = await self._dm_channel(user_id)
            try:
                message = await dm.send(text, nonce=nonce, **extra)
            except discord.NotFound as error:
                if error.code != UNKNOWN_CHANNEL:
                    raise
                # A kept channel Discord does not know: the database was copied from
                # another bot's (`jongg db copy`). Open this bot's own.
                dm = await self._dm_channel(user_id, afresh=True)
                message = await dm.send(text, nonce=nonce, **extra)
        except discord.Forbidden as error:
            if error.code == CANNOT_DM:
                raise
            delivery_failure(error)
        except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as error:
            delivery_failure(error)
        delivery.sent.append(message.id)

    async def _dm(self, table: Table, seat: int, delivery: Delivery, text: str,
                  part: int = 0, **extra: Any) -> None:
        """DM a seat's holder (as part `part` of the delivery); if their DMs turn out to be
        closed, tell the table once to use "My rack" instead (told before it is recorded,
        so a failed notice is retried)."""
        user_id = table.user_ids[seat]
        if user_id is None or self.client.service.dm_closed(table.game_id, seat):
            return
        try:
            await self._send_dm(user_id, delivery, text, part, **extra)
        except discord.Forbidden:
            await self._post(
                table, delivery, part,
                content=f"<@{user_id}>, I can't send you direct messages, so use the "
                        "**My rack** button under the table to see your tiles and play.",
                allowed_mentions=pinging([user_id]))
            await self.client.service.mark_dm_closed(table.game_id, seat)

    # -- the Notifier ---------------------------------------------------------------------

    async def table_update(self, table: Table, update: TableUpdate,
                           delivery: Delivery) -> None:
        """Post the lines; on a new turn, a fresh table picture with its buttons. At a
        teaching table every post ends with the open racks."""
        lines = update.lines
        if update.racks and (lines or update.new_turn):
            lines = (*lines, racks_text(table.names, update.racks))
        chunks = _chunks(lines)
        text = chunks[:-1] if update.new_turn else chunks
        for part, chunk in enumerate(text):
            await self._post(table, delivery, part, by_token=True, content=chunk)
        if not update.new_turn or len(delivery.sent) > len(text):
            return
        scene = table_scene(update.view, bots=table.bots, title=f"Table {table.game_id}")
        png = await asyncio.to_thread(render_table, scene)
        alt = describe_table(scene)
        buttons = discord.ui.View(timeout=None)
        if update.view.phase is Phase.CLAIM:
            buttons.add_item(ClaimButton(table.game_id, update.view.action_count))
            buttons.add_item(PassButton(table.game_id, update.view.action_count))
        if update.view.phase is not Phase.OVER:
            buttons.add_item(RackButton(table.game_id))
            if table.hints:
                buttons.add_item(HintButton(table.game_id))
        last = chunks[-1] if chunks else None
        # A teaching table's post is never an edit of the clicked one, whose racks are old.
        if await self._carried(delivery, text, last, png, alt, buttons,
                               alone=bool(update.racks)):
            return
        await self._post(table, delivery, len(text), by_token=True, content=last,
                         file=discord.File(io.BytesIO(png), filename="table.png",
                                           description=alt),
                         view=buttons)

    async def _carried(self, delivery: Delivery, before: list[str], lines: str | None,
                       png: bytes, alt: str, buttons: discord.ui.View, *,
                       alone: bool = False) -> bool:
        """Deliver a new table picture as the answer to the click that made it, if the
        delivery has one (`bot.discord.answers`): the clicked post shows the new picture
        and buttons, its lines followed by this update's. False when it cannot (no answer;
        lines that need posts `before` the picture or do not fit; a post that must stand
        `alone`; the answer no longer free or refused): then it is posted."""
        answer = delivery.answer
        delivery.answer = None  # offered once: a retry posts
        if not isinstance(answer, TableAnswer):
            return False
        clicked = answer.clicked
        content = "\n".join(part for part in (clicked.content if clicked else None, lines)
                            if part)
        if clicked is None or before or alone or len(content) > MESSAGE_LIMIT:
            answer.decline()
            return False
        message = await answer.carry(
            content=content or None, view=buttons,
            attachments=[discord.File(io.BytesIO(png), filename="table.png",
                                      description=alt)])
        if message is None:
            return False
        delivery.sent.append(message.id)
        return True

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate,
                          delivery: Delivery) -> None:
        """DM the seat its rack and controls when it has something private or must act
        outside a claim window (claim windows are answered under the table's post); at a
        teaching table, with a hint after a draw for a holder who wants one."""
        claim_only = update.view.phase is Phase.CLAIM
        if claim_only and not update.lines:
            return
        if not update.must_act and not update.lines:
            return
        if table.user_ids[seat] is None or self.client.service.dm_closed(table.game_id, seat):
            return
        prompt = await self.client.prompts.build(table, update.view, drawn=update.drawn,
                                                 lines=update.lines, deadline=update.deadline,
                                                 stood_in=update.stood_in)
        text = prompt.text
        if update.drawn is not None and wants_hints(table, seat):
            # From the seat's own view, as the Hint button's; the matcher runs in a worker.
            found = await asyncio.to_thread(hint, table.card, table.rules.counts, update.view)
            text = f"{text}\n**Hint** (teaching table):\n{format_analysis(found)}"[
                :MESSAGE_LIMIT]
        await self._dm(table, seat, delivery, text, file=prompt.file(), view=prompt.view)
        if update.expired and not self.client.service.dm_closed(table.game_id, seat):
            await self._retire(table.user_ids[seat], update.expired)

    async def _retire(self, user_id: int | None, message_ids: tuple[int, ...]) -> None:
        """Take the controls off a DM prompt whose move was made without its holder (their
        clock ran out), so it no longer looks like it is waiting for them. A message they
        deleted is nothing to take them off."""
        if user_id is None:
            return
        dm = await self._dm_channel(user_id)
        for message_id in message_ids:
            try:
                await dm.get_partial_message(message_id).edit(view=None)
            except discord.NotFound:
                continue
            except (discord.DiscordException, aiohttp.ClientError, OSError,
                    TimeoutError) as error:
                delivery_failure(error)

    async def game_over(self, table: Table, view: View, delivery: Delivery) -> None:
        """Post the result picture, with the bettor's payment and the series' running
        totals, and Play again / End series for the host (not at a league's table)."""
        scene = result_scene(view, table.card, bots=table.bots)
        png = await asyncio.to_thread(render_result, scene)
        text, controls = await result_footer(self.client.service.records, table, view)
        if table.teaching:
            text = "\n".join(part for part in (f"**{BANNER}**", text) if part)
        extra: dict[str, Any] = {"content": text} if text else {}
        if controls is not None:
            extra["view"] = controls
        await self._post(table, delivery, 0, by_token=True, allowed_mentions=NO_MENTIONS,
                         file=discord.File(io.BytesIO(png), filename="result.png",
                                           description=describe_result(scene)), **extra)

    async def reminder(self, table: Table, seat: int, reminder: Reminder,
                       delivery: Delivery) -> None:
        """Nudge the seat's holder the way the reminder says: a mention in the table's
        thread, a DM, or both (the mention first)."""
        user_id = table.user_ids[seat]
        if user_id is None:
            return
        soon = "time is nearly up, " if reminder.nearly_up else ""
        text = (f"Table {table.game_id}: {soon}your move is due <t:{int(reminder.due_at)}:R>. "
                "If the clock runs out, the bot plays it for you.")
        if reminder.mention:
            await self._post(table, delivery, 0, content=f"<@{user_id}> {text}",
                             allowed_mentions=pinging([user_id]))
        if reminder.dm:
            await self._dm(table, seat, delivery, text, part=int(reminder.mention))

    async def new_thread(self, table: Table) -> int | None:
        """Open a new public thread for the table in its channel."""
        game = await self.client.service.records.game(table.game_id)
        try:
            with self._posting(table, table.channel_id):
                channel = (self.client.get_channel(table.channel_id)
                           or await self.client.fetch_channel(table.channel_id))
                assert isinstance(channel, discord.TextChannel)
                thread = await channel.create_thread(
                    name=thread_name(table.game_id), type=discord.ChannelType.public_thread,
                    auto_archive_duration=archive_minutes(game.pace))
        except discord.Forbidden as error:
            raise NotAllowed(await self._missing(
                table.channel_id, ["create_public_threads"])) from error
        return thread.id

    async def table_moved(self, table: Table, delivery: Delivery) -> None:
        """Tell the players in the new thread (naming them, so it shows up for them) and
        say in the channel where the table went (if the channel refuses, the thread's
        notice is enough)."""
        players = [user for user in table.user_ids if user is not None]
        await self._post(
            table, delivery, 0,
            content=f"{' '.join(f'<@{user}>' for user in players)} Table {table.game_id}'s "
                    "thread was deleted, so the game carries on here. Your DMs and the "
                    "buttons below work as before.",
            allowed_mentions=pinging(players))
        try:
            await self._post(
                table, delivery, 1, where=table.channel_id,
                content=f"Table {table.game_id}'s thread was deleted; the game carries on "
                        f"in <#{table.thread_id}>.",
                allowed_mentions=NO_MENTIONS)
        except (NotAllowed, Refused) as error:
            # The players were told in the thread; the game must not wait on the channel.
            log.warning("could not say in the channel where table %s went: %s",
                        table.game_id, error)

    async def tell_host(self, table: Table, host_id: int, problem: str,
                        delivery: Delivery) -> None:
        """DM the host what is wrong; if their DMs are closed, say it in the table's
        channel, naming them."""
        text = f"Table {table.game_id} needs you: {problem}"
        try:
            await self._send_dm(host_id, delivery, text)
        except discord.Forbidden:
            await self._post(table, delivery, 0, where=table.channel_id,
                             content=f"<@{host_id}>, {text}",
                             allowed_mentions=pinging([host_id]))
