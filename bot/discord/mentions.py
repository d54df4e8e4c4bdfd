"""Who Jongg's messages may ping: nobody, except people a message is meant to call by id.

Names in table narration, lobbies and standings are people's own text and may hold `<@…>`,
`@everyone` or role mentions. The client sends everything with `NO_MENTIONS` by default, so
none of them ever pings. A message that should reach someone (the player whose DMs are
closed, the person handed a seat, the players seated for a league round) lists them with
`pinging(...)`, so only those ids can ping, whatever else the text holds.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

NO_MENTIONS = discord.AllowedMentions.none()


def pinging(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping these users and nobody else."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(user) for user in user_ids])
