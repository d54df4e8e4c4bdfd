"""The name Jongg keeps for a person: what seats, lobbies, results and standings show.

A person's display name (server nickname, global name or user name, as discord.py picks it)
is their own text. The store keeps a name only if it has something to show on one line
(`bot.store.rows.check_name`), and a display name made only of whitespace or invisible
characters (an ideographic space, a zero-width space) shows nothing: such a person is kept
under their user name instead, which Discord never leaves blank, so no one is refused a
seat for how they are called, nor seated under a name nobody can see.
"""

from __future__ import annotations

import discord

from bot.engine.errors import shows_something


def known_as(user: discord.abc.User) -> str:
    """The name to keep for `user`: their display name, or their user name when the display
    name shows nothing."""
    name = user.display_name
    return name if shows_something(name) else user.name
