"""`/mj vacation start|end|status`: a player away from a league season's games.

The season is the open season of the league of the channel (or of a game thread's channel),
or the server's only league; the budget arithmetic and the pausing are the table service's
(`TableService.start_vacation`). Every answer is private: only the tables of the player's
games are told (by the service) that they are away.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.components import _client
from bot.discord.league import _league_here
from bot.store import Season

vacation = app_commands.Group(name="vacation", description="Time away from your league "
                                                           "games: their clocks pause")


async def _season_here(interaction: discord.Interaction[Any]) -> Season:
    """The open season of the league this command is used for."""
    found = await _league_here(interaction)
    return await _client(interaction).db.leagues.season(found.id, None)


@vacation.command(name="start", description="Go away: your clocks in this league's games "
                                            "pause until you end it or your days run out")
async def start(interaction: discord.Interaction[Any]) -> None:
    """Start the caller's vacation in the league's open season."""
    season = await _season_here(interaction)
    status = await _client(interaction).service.start_vacation(interaction.user.id, season)
    await interaction.response.send_message(
        "You're on vacation: your turn clocks in this league's games are paused, and those "
        f"tables are told. {status.describe()}", ephemeral=True)


@vacation.command(name="end", description="You're back: your clocks run again with the "
                                          "time they had left")
async def end(interaction: discord.Interaction[Any]) -> None:
    """End the caller's vacation in the league's open season."""
    season = await _season_here(interaction)
    status = await _client(interaction).service.end_vacation(interaction.user.id, season)
    await interaction.response.send_message(
        f"Welcome back: your turn clocks run again. {status.describe()}", ephemeral=True)


@vacation.command(name="status", description="Your vacation days in this league's season")
async def status(interaction: discord.Interaction[Any]) -> None:
    """The caller's budget and any vacation under way."""
    season = await _season_here(interaction)
    found = await _client(interaction).service.vacation(interaction.user.id, season)
    await interaction.response.send_message(found.describe(), ephemeral=True)
