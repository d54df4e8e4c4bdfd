"""Which click's token may carry a message (`bot.discord.tokens.Tokens`): the newest click
of the person in their DM with the bot, or in the thread, once its answer is final, while it
has a margin of its 15 minutes left, and never one Discord refused."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.tokens import MARGIN, TOKEN_LIFETIME, Tokens

ALICE, BOB, THREAD, GUILD = 11, 12, 500, 900
ANSWERED = discord.InteractionResponseType.message_update
DEFERRED = discord.InteractionResponseType.deferred_message_update


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def click(user: int, *, guild: int | None = None, channel: int = 1, bot_dm: bool = True,
          answer: discord.InteractionResponseType | None = ANSWERED) -> Any:
    """Enough of a `discord.Interaction` for `Tokens`."""
    context = discord.AppCommandContext(dm_channel=bot_dm and guild is None,
                                        guild=guild is not None)
    return SimpleNamespace(user=SimpleNamespace(id=user), guild_id=guild, channel_id=channel,
                           context=context, response=SimpleNamespace(type=answer))


def test_a_persons_newest_answered_click_in_their_dm_carries_their_messages() -> None:
    clock = Clock()
    tokens = Tokens(clock)
    first, second = click(ALICE), click(ALICE, answer=None)
    tokens.saw(first)
    tokens.saw(second)
    # The newest is not answered yet (or only deferred): the one before it carries.
    assert tokens.for_person(ALICE) is first
    second.response.type = DEFERRED
    assert tokens.for_person(ALICE) is first
    second.response.type = ANSWERED
    assert tokens.for_person(ALICE) is second
    assert tokens.for_person(BOB) is None
    # A click in a group DM, or in a server, is not a way into the person's DM.
    tokens.saw(click(BOB, bot_dm=False))
    tokens.saw(click(BOB, guild=GUILD, channel=THREAD))
    assert tokens.for_person(BOB) is None


def test_a_thread_click_carries_the_threads_posts_until_its_margin() -> None:
    clock = Clock()
    tokens = Tokens(clock)
    there = click(BOB, guild=GUILD, channel=THREAD)
    tokens.saw(there)
    assert tokens.for_thread(THREAD) is there and tokens.for_person(BOB) is None
    clock.now += TOKEN_LIFETIME - MARGIN - 1
    assert tokens.for_thread(THREAD) is there
    clock.now += 1
    assert tokens.for_thread(THREAD) is None


def test_a_refused_token_is_never_used_again() -> None:
    tokens = Tokens(Clock())
    older, newer = click(ALICE), click(ALICE)
    tokens.saw(older)
    tokens.saw(newer)
    tokens.forget(newer)
    assert tokens.for_person(ALICE) is older
    tokens.forget(older)
    assert tokens.for_person(ALICE) is None
