"""`/mj vacation start|end|status`: a player away from their games for a while.

The vacation is of the open season of the league of the channel (or of a game thread's
channel), or of the server's only league. On a server with no league it is a personal one:
it pauses the player's casual tables opened with `vacations:True`, on every server, and
lasts at most `PERSONAL_DAYS`. The budget arithmetic and the pausing are the table
service's (`TableService.start_vacation`). Every answer is private: only the tables of the
player's games are told (by the service) that they are away.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.components import _client
from bot.discord.league import _league_if_any, _leagues
from bot.league.service import Season
from bot.tables.vacation import PERSONAL_DAYS, parse_start

vacation = app_commands.Group(name="vacation", description="Time away from your games: "
                                                           "their clocks pause")

#: Where the clocks a vacation pauses are, by whether it is personal (see the module).
_WHERE = {False: "this league's games",
          True: "casual tables opened with `vacations:True`"}


async def _season_here(interaction: discord.Interaction[Any]) -> Season | None:
    """The open season of the league this command is used for; None (a personal vacation)
    where the server has no league."""
    found = await _league_if_any(interaction)
    if found is None:
        return None
    return await _leagues(interaction).season(found.id, None)


@vacation.command(name="start", description="Go away: your clocks in this league's games "
                                            "(or casual ones) pause until you end it")
@app_commands.rename(begins="from")
@app_commands.describe(
    begins="Plan it ahead: the day it begins, on your own clock (2026-12-24 or "
           "2026-12-24 18:00); now if left out",
    days=f"How many days (at most what you have left, or {PERSONAL_DAYS} without a league); "
         "until you end it if left out")
async def start(interaction: discord.Interaction[Any],
                begins: app_commands.Range[str, 1, 40] | None = None,
                days: app_commands.Range[int, 1, 365] | None = None) -> None:
    """Start the caller's vacation in the league's open season (a personal one on a server
    without a league), now or planned ahead."""
    season = await _season_here(interaction)
    service = _client(interaction).service
    at = None
    if begins is not None:
        zone_name = (await service.player_options(interaction.user.id)).time_zone
        at = parse_start(begins, zone_name, service.now())
    status = await service.start_vacation(interaction.user.id, season, start=at, days=days)
    said = ("Your vacation is planned: until it begins your clocks run as usual, then they "
            "pause and your tables are told." if status.planned is not None else
            f"You're on vacation: your turn clocks in {_WHERE[status.personal]} are paused, "
            "claim windows pass for you, and those tables are told.")
    await interaction.response.send_message(f"{said} {status.describe()}", ephemeral=True)


@vacation.command(name="end", description="You're back (or a planned vacation is off): your "
                                          "clocks run again with the time they had left")
async def end(interaction: discord.Interaction[Any]) -> None:
    """End the caller's vacation (as `start` finds it), or cancel a planned one."""
    season = await _season_here(interaction)
    service = _client(interaction).service
    before = await service.vacation(interaction.user.id, season)
    status = await service.end_vacation(interaction.user.id, season)
    said = ("Welcome back: your turn clocks run again." if before.current is not None
            else "Your planned vacation is cancelled.")
    await interaction.response.send_message(f"{said} {status.describe()}", ephemeral=True)


@vacation.command(name="status", description="Your vacation days in this league's season, "
                                             "or your personal vacation")
async def status(interaction: discord.Interaction[Any]) -> None:
    """The caller's budget and any vacation under way."""
    season = await _season_here(interaction)
    found = await _client(interaction).service.vacation(interaction.user.id, season)
    await interaction.response.send_message(found.describe(), ephemeral=True)
