"""A Pass click under the table post, answered with the table's next picture.

When someone presses Pass under a discard and the move leads straight to a new table picture
(the bots played on, or the last person passed and a bot discarded), the click's answer can
be that picture: an edit of the clicked post in place (callback type 7), which is the
click's acknowledgement too. Discord counts requests made with an interaction's token
outside the bot's global rate limit, so the table moves on without a channel post, and the
post's lines grow with the turn's story instead of the thread growing a post per bot
discard.

The table service offers the answer to the move's table update (`Answer.take`, right after
the commit); the game's sender delivers it through `TableAnswer.carry`. The click's handler
waits for that, within the time it has to answer, and then takes the answer back
(`TableAnswer.carried`): if the sender did not answer by then (its queue was busy, the
update did not fit), the handler answers "You passed." itself and the sender posts as usual.
The answer lives in memory only: if the bot restarts after the post moved on but before the
delivery was recorded, the update is posted after the restart, so the table sees that
picture twice rather than never.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

log = logging.getLogger(__name__)


class TableAnswer:
    """Implements `bot.tables.notifier.Answer` for one component click: the answer is free
    until the sender uses it, or the handler takes it back `within` seconds after the click,
    whichever comes first."""

    def __init__(self, interaction: discord.Interaction[Any], within: float) -> None:
        self.interaction = interaction
        self._deadline = asyncio.get_running_loop().time() + within
        self._taken = False
        #: No longer free: used, refused, declined or taken back.
        self._closed = False
        self._used = False
        self._decided = asyncio.Event()
        self._lock = asyncio.Lock()

    def take(self) -> None:
        self._taken = True

    @property
    def clicked(self) -> discord.Message | None:
        """The message whose button was pressed (the table post)."""
        return self.interaction.message

    async def carry(self, **fields: Any) -> discord.Message | None:
        """Answer the click by editing the clicked message with `fields` (as
        `InteractionResponse.edit_message` takes them); the message, or None when the answer
        is no longer free or Discord refused it (the caller then posts as usual)."""
        try:
            async with self._lock:
                if self._closed or self.interaction.response.is_done():
                    return None
                self._closed = True
                try:
                    await self.interaction.response.edit_message(**fields)
                except discord.HTTPException:
                    log.info("could not answer a click with the table post", exc_info=True)
                    return None
                self._used = True
                return self.clicked
        finally:
            self._decided.set()

    def decline(self) -> None:
        """The sender will not use the answer (the update does not fit in the post)."""
        self._closed = True
        self._decided.set()

    async def carried(self) -> bool:
        """After the move: whether the table's update answered the click. Waits for the
        sender, until `within` seconds after the click, when the move gave it the answer;
        then takes the answer back, so that the caller answers the click itself if not."""
        if self._taken:
            left = self._deadline - asyncio.get_running_loop().time()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._decided.wait(), max(0.0, left))
        async with self._lock:
            self._closed = True
            return self._used
