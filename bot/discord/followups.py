"""Messages sent as follow-ups on a person's click (`bot.discord.tokens`), a request Discord
leaves out of the bot's global rate limit, and what a failed one means. A follow-up has no
nonce, so one that failed in a way that may have made it is looked for among the bot's newest
messages in that place before it is sent again, and a copy too many (discord.py retries a
server error by itself) is deleted.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any, NoReturn

import aiohttp
import discord

from bot.discord.tokens import counting
from bot.tables.notifier import Delivery, Refused, RetryLater

if TYPE_CHECKING:
    from bot.discord.client import JonggClient

log = logging.getLogger(__name__)

#: The bot's newest messages in a place looked at for a follow-up that may have been made.
LOOK_BACK = 10


def delivery_failure(error: Exception) -> NoReturn:
    """Raise what a Discord or network error means for the delivery (or the error itself
    when it is neither)."""
    if isinstance(error, discord.RateLimited):
        raise RetryLater(f"rate limited for {error.retry_after:.1f} s",
                         error.retry_after) from error
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            asked = error.response.headers.get("Retry-After")
            raise RetryLater("rate limited", float(asked) if asked else None) from error
        if error.status >= 500:
            raise RetryLater(f"Discord answered {error.status}") from error
        raise Refused(f"Discord refused it ({error.status}, code {error.code}: "
                      f"{error.text})") from error
    if isinstance(error, aiohttp.ClientError | OSError | TimeoutError):
        raise RetryLater(f"network trouble: {error!r}") from error
    raise error


def files_of(fields: dict[str, Any]) -> list[discord.File]:
    """The files among a message's fields."""
    return [value for value in (fields.get("file"), *fields.get("files", ()))
            if isinstance(value, discord.File)]


class FollowUps:
    """Sends deliveries' parts as follow-ups and keeps the ones whose fate is unknown."""

    def __init__(self, client: JonggClient) -> None:
        self.client = client
        #: Follow-ups that failed in a way that may have made them ("key.part" -> the
        #: place and when the attempt began), looked for before they are sent again.
        self._unsure: dict[str, tuple[int, datetime]] = {}

    async def send(self, click: discord.Interaction[Any], delivery: Delivery, part: int,
                   fields: dict[str, Any]) -> bool:
        """Send part `part` of a delivery as a follow-up on `click`'s token, a request
        Discord leaves out of the bot's global rate limit (`bot.discord.tokens`); True once
        sent. A refusal (the token expired or unknown, a limit discord.py gave up waiting
        for, a body refused) made nothing: the token is forgotten and False says to send it
        with the bot's token, now. A failure that may have made the message (a server
        error, network trouble) is `RetryLater`, and the retry first looks for the message
        (`made_already`): a follow-up has no nonce to make its repeat harmless."""
        key = f"{delivery.key}.{part}"
        began = discord.utils.utcnow()
        try:
            with counting() as tries:
                message = await click.followup.send(wait=True, **fields)
        except discord.HTTPException as error:
            if error.status < 500:
                log.info("a follow-up on a click was refused (%s, code %s); sending it with "
                         "the bot's token", error.status, error.code)
                self.client.tokens.forget(click)
                for file in files_of(fields):
                    file.reset()
                return False
            self._unsure[key] = (click.channel_id or 0, began)
            delivery_failure(error)
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            self._unsure[key] = (click.channel_id or 0, began)
            delivery_failure(error)
        delivery.sent.append(message.id)
        if len(tries) > 1:  # discord.py sent it again after a failure that may have made it
            for repeat in await self._made_since(click.channel_id or 0, began, message.content):
                if repeat.id != message.id:
                    await self._drop(repeat)
        return True

    async def _made_since(self, channel_id: int, began: datetime,
                          content: str | None) -> list[discord.Message]:
        """The bot's messages in `channel_id` since `began` with `content`, oldest first (a
        request with the bot's token, only after a follow-up that may have been made)."""
        place = self.client.get_partial_messageable(channel_id)
        me = self.client.user
        return [message async for message in place.history(limit=LOOK_BACK, after=began)
                if me is not None and message.author.id == me.id
                and message.content == (content or "")]

    async def _drop(self, repeat: discord.Message) -> None:
        """Delete a second copy of a message a follow-up made twice; one that cannot be
        deleted stays (a copy too many, never one too few)."""
        try:
            await repeat.delete()
        except (discord.DiscordException, aiohttp.ClientError, OSError,
                TimeoutError) as error:
            log.warning("could not delete a repeated follow-up %s: %r", repeat.id, error)

    async def made_already(self, delivery: Delivery, part: int, content: str | None) -> bool:
        """After a follow-up for part `part` failed in a way that may have made it: whether
        it was made after all (the bot's newest messages in that place since the attempt
        hold one with its content; then it is recorded as sent). Costs a request with the
        bot's token, only on such a retry."""
        key = f"{delivery.key}.{part}"
        unsure = self._unsure.pop(key, None)
        if unsure is None:
            return False
        channel_id, began = unsure
        try:
            made = await self._made_since(channel_id, began, content)
        except (discord.DiscordException, aiohttp.ClientError, OSError,
                TimeoutError) as error:
            self._unsure[key] = unsure
            delivery_failure(error)
        if not made:
            return False
        delivery.sent.append(made[0].id)
        for repeat in made[1:]:  # each of discord.py's own tries may have made one
            await self._drop(repeat)
        return True
