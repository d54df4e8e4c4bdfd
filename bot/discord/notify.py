"""The table service's `Notifier`, for Discord: thread posts, DMs, and the closed-DM fallback.

The thread gets a new message per turn (not edits of an old one: edits to old messages are
rate limited), one line per event, and under each discard the Claim/Pass buttons, so claim
windows cost no DMs. A seat gets a DM with its rack and controls when it must act on its own
turn or in the Charleston, or when something only it may know happened (a draw, a pass). A
closed DM (403, code 50007) is noticed once and the table is told, without revealing anything,
to use "My rack"; that seat gets no more DMs in that game (each refused request counts
against the bot's invalid-request limit). Discord's own errors are logged and never reach the
game.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.components import ClaimButton, HintButton, PassButton, RackButton
from bot.discord.mentions import pinging
from bot.engine.game import Phase, View
from bot.scenes import result_scene, table_scene
from bot.tables.notifier import SeatUpdate, Table, TableUpdate
from renderer import render_result, render_table

if TYPE_CHECKING:
    from bot.discord.client import JonggClient

log = logging.getLogger(__name__)
CANNOT_DM = 50007
MESSAGE_LIMIT = 2000
#: DM channels remembered (a few hundred bytes each).
DM_CHANNELS = 10_000


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

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The user's DM channel, opened once and remembered (up to `DM_CHANNELS` users)."""
        channel_id = self._dm_channels.pop(user_id, None)
        if channel_id is None:
            channel_id = (await self.client.create_dm(discord.Object(user_id))).id
        self._dm_channels[user_id] = channel_id
        if len(self._dm_channels) > DM_CHANNELS:
            self._dm_channels.popitem(last=False)
        return self.client.get_partial_messageable(channel_id,
                                                    type=discord.ChannelType.private)

    async def _channel(self, table: Table) -> discord.abc.Messageable:
        target = table.thread_id or table.channel_id
        channel = self.client.get_channel(target)
        if channel is None:
            channel = await self.client.fetch_channel(target)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def table_update(self, table: Table, update: TableUpdate) -> None:
        """Post the lines; on a new turn, a fresh table picture with its buttons."""
        channel = await self._channel(table)
        chunks = _chunks(update.lines)
        if not update.new_turn:
            for chunk in chunks:
                await channel.send(chunk)
            return
        for chunk in chunks[:-1]:
            await channel.send(chunk)
        scene = table_scene(update.view, bots=table.bots, title=f"Table {table.game_id}")
        png = await asyncio.to_thread(render_table, scene)
        buttons = discord.ui.View(timeout=None)
        if update.view.phase is Phase.CLAIM:
            buttons.add_item(ClaimButton(table.game_id, update.view.action_count))
            buttons.add_item(PassButton(table.game_id, update.view.action_count))
        if update.view.phase is not Phase.OVER:
            buttons.add_item(RackButton(table.game_id))
            if table.hints:
                buttons.add_item(HintButton(table.game_id))
        await channel.send(chunks[-1] if chunks else None,
                           file=discord.File(io.BytesIO(png), filename="table.png"),
                           view=buttons)

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate) -> None:
        """DM the seat its rack and controls when it has something private or must act
        outside a claim window (claim windows are answered under the table's post)."""
        claim_only = update.view.phase is Phase.CLAIM
        if claim_only and not update.lines:
            return
        if not update.must_act and not update.lines:
            return
        user_id = table.user_ids[seat]
        if user_id is None or self.client.service.dm_closed(table.game_id, seat):
            return
        prompt = await self.client.prompts.build(table, update.view, drawn=update.drawn,
                                                 lines=update.lines, deadline=update.deadline)
        await self._dm(table, seat, user_id, prompt.text, file=prompt.file(),
                       view=prompt.view)

    async def _dm(self, table: Table, seat: int, user_id: int, text: str,
                  **extra: Any) -> None:
        try:
            dm = await self._dm_channel(user_id)
            await dm.send(text, **extra)
        except discord.Forbidden as error:
            if error.code != CANNOT_DM:
                raise
            if await self.client.service.mark_dm_closed(table.game_id, seat):
                channel = await self._channel(table)
                await channel.send(
                    f"<@{user_id}>, I can't send you direct messages, so use the **My rack** "
                    "button under the table to see your tiles and play.",
                    allowed_mentions=pinging([user_id]))

    async def game_over(self, table: Table, view: View) -> None:
        """Post the result picture."""
        channel = await self._channel(table)
        scene = result_scene(view, table.card, bots=table.bots)
        png = await asyncio.to_thread(render_result, scene)
        await channel.send(file=discord.File(io.BytesIO(png), filename="result.png"))

    async def reminder(self, table: Table, seat: int, due_at: float) -> None:
        """DM a nudge before the clock runs out."""
        user_id = table.user_ids[seat]
        if user_id is not None and not self.client.service.dm_closed(table.game_id, seat):
            await self._dm(table, seat, user_id,
                           f"Table {table.game_id}: your move is due <t:{int(due_at)}:R>. "
                           "If the clock runs out, the bot plays it for you.")
