"""The people's recent clicks, kept so that per-move messages go out on interaction tokens.

Discord leaves the interaction endpoints (the callback, the original response and the
follow-ups, `/webhooks/{application.id}/{interaction.token}/...`) out of the bot's global
rate limit of 50 requests a second, and an interaction's token lasts 15 minutes. In live play
each person clicks every few seconds, so the next message the game owes them can be a
follow-up on their latest click instead of a message sent with the bot's token:

* a seat's prompt (its rack and controls, a draw) as a follow-up on the holder's latest
  click in their DM with the bot: a new message there, from the bot, that notifies as a DM
  does;
* the table's post as a follow-up on the latest click made under the table's posts in its
  thread, by anyone at the table: a new message in the thread that everyone sees.

A click's token is used only once its answer is final (a message, or an update of the
clicked message; not a deferral, after which the click's handler still has something to
show), and only while it has `MARGIN` seconds of its life left, by the bot's own clock from
when the click arrived.
A token Discord refused is forgotten (Discord asks that a webhook answered 404 is not used
again). The clicks live in memory only: after a restart, or in a process that did not get
the click (another shard's), messages go out with the bot's token as before.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

#: How long Discord keeps an interaction's token valid, in seconds.
TOKEN_LIFETIME = 15 * 60
#: Seconds of a token's life left unused: the click reached the bot after Discord made it,
#: and a follow-up may wait for its bucket or for Discord's retries.
MARGIN = 120
#: People and threads remembered (one click each, about a kilobyte).
KEPT = 10_000
#: The answers that are final: a follow-up after them is a new message, and the click's
#: handler has nothing more to show. (After a deferral the handler still edits its answer,
#: and after a "thinking" one the first follow-up would replace the loading message.)
ANSWERED = frozenset({discord.InteractionResponseType.channel_message,
                      discord.InteractionResponseType.message_update})


#: The requests made while `counting` is open in this task (None: not counting).
_TRIES: ContextVar[list[str] | None] = ContextVar("jongg_tries", default=None)


def count_tries(trace: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
    """`trace` (the client's `http_trace`), also counting the requests made under
    `counting`: discord.py sends a follow-up again by itself after a server error, and a
    follow-up has no nonce, so its caller needs to know whether it went out more than once."""
    trace.on_request_start.append(_counted)
    return trace


async def _counted(session: aiohttp.ClientSession, context: SimpleNamespace,
                   params: aiohttp.TraceRequestStartParams) -> None:
    tries = _TRIES.get()
    if tries is not None:
        tries.append(params.method)


@contextmanager
def counting() -> Iterator[list[str]]:
    """The requests this task makes meanwhile (their methods), as they are made."""
    tries: list[str] = []
    token = _TRIES.set(tries)
    try:
        yield tries
    finally:
        _TRIES.reset(token)


@dataclass(frozen=True)
class Click:
    """A click the bot received: the interaction, and when it arrived (the bot's clock)."""

    interaction: discord.Interaction[Any]
    at: float


class Tokens:
    """The latest clicks: per person, made in their DM with the bot; per thread, made there.
    Each place keeps its newest two clicks, so that a click whose answer is not yet sent
    does not hide the one before it."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self._people: OrderedDict[int, tuple[Click, ...]] = OrderedDict()
        self._threads: OrderedDict[int, tuple[Click, ...]] = OrderedDict()

    def saw(self, interaction: discord.Interaction[Any]) -> None:
        """Keep a click on a game's control: in the clicker's DM with the bot, under their
        user id; in a server's thread or channel, under its id."""
        if interaction.channel_id is None:
            return
        if interaction.guild_id is None:
            if not _in_bot_dm(interaction):
                return
            place, key = self._people, interaction.user.id
        else:
            place, key = self._threads, interaction.channel_id
        click = Click(interaction, self.now())
        place[key] = (click, *place.pop(key, ())[:1])
        if len(place) > KEPT:
            place.popitem(last=False)

    def for_person(self, user_id: int) -> discord.Interaction[Any] | None:
        """The person's newest click in their DM whose token may carry a message to them."""
        return self._usable(self._people, user_id)

    def for_thread(self, channel_id: int) -> discord.Interaction[Any] | None:
        """The newest click in the thread (or channel) whose token may carry a post to it."""
        return self._usable(self._threads, channel_id)

    def forget(self, interaction: discord.Interaction[Any]) -> None:
        """Discord refused the token: never use it again."""
        for place in (self._people, self._threads):
            for key, clicks in list(place.items()):
                kept = tuple(c for c in clicks if c.interaction is not interaction)
                if len(kept) != len(clicks):
                    if kept:
                        place[key] = kept
                    else:
                        del place[key]

    def _usable(self, place: OrderedDict[int, tuple[Click, ...]],
                key: int) -> discord.Interaction[Any] | None:
        fresh_after = self.now() - (TOKEN_LIFETIME - MARGIN)
        for click in place.get(key, ()):
            if click.at <= fresh_after:
                return None  # the older one is older still
            if click.interaction.response.type in ANSWERED:
                return click.interaction
        return None


def _in_bot_dm(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click was made in the clicker's DM with this bot (context BOT_DM: a
    follow-up there is a message only they and the bot see), not in a group DM or a DM
    between people (context PRIVATE_CHANNEL)."""
    return interaction.context.dm_channel
