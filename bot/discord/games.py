"""`/mj games`, and "My games" on every DM prompt: every game a person plays, on every server,
those waiting on them first (`bot.tables.waiting`), in one message: only they see it in a
server; in a DM with the bot it is a plain message, which only they read anyway.

Each game gives its table number, its server and channel where this process knows them (the
servers of another process's shards are not in its cache), a link to its thread, and for a
game waiting on the person what they are asked, when it is due (`<t:…:R>`, and the date and
time on their own clock) and a link to their latest prompt when one is known. A list too
long for one message says how many games it leaves out.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.components import _client, answer_error, in_time
from bot.discord.mentions import NO_MENTIONS
from bot.tables.standins import reclaim_hint
from bot.tables.waiting import MyGames, Standing, my_games

if TYPE_CHECKING:
    from bot.discord.client import JonggClient

#: The room the list may take in a message (Discord's limit is 2,000 characters).
LIST_LIMIT = 1900
NO_GAMES = ("You have no games in play. Open a table with `/mj new` in a server's channel, "
            "or press Join on a table's lobby.")


def _link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel or thread, or to a message in it (`guild_id` None: a DM)."""
    path = f"{'@me' if guild_id is None else guild_id}/{channel_id}"
    return f"<https://discord.com/channels/{path}{'' if message_id is None else f'/{message_id}'}>"


def _when(at: float, style: discord.utils.TimestampStyle) -> str:
    """A moment as Discord shows it, in each reader's own time zone."""
    return discord.utils.format_dt(datetime.fromtimestamp(at, UTC), style)


def _where(client: JonggClient, standing: Standing) -> list[str]:
    """The game's server and channel, as far as this process knows them."""
    guild = client.get_guild(standing.guild_id)
    channel = client.get_channel(standing.channel_id)
    found = [discord.utils.escape_markdown(guild.name)] if guild is not None else []
    if isinstance(channel, discord.abc.GuildChannel):
        found.append(f"#{discord.utils.escape_markdown(channel.name)}")
    return found


def _line(client: JonggClient, standing: Standing) -> str:
    """One game of the list."""
    parts = [f"**Table {standing.game_id}**", *_where(client, standing), standing.words]
    if standing.yours:
        parts.append("no clock" if standing.due_at is None else
                     f"due {_when(standing.due_at, 'R')} ({_when(standing.due_at, 'f')})")
    if standing.stood_in:
        parts.append(f"a bot plays your seat: {reclaim_hint(standing.game_id)}")
    parts.append(f"[thread]({_link(standing.guild_id, standing.thread_id or standing.channel_id)})")
    if standing.prompt is not None:
        prompt = standing.prompt
        link = _link(prompt.guild_id, prompt.channel_id, prompt.message_id)
        parts.append(f"[your prompt]({link})")
    return "• " + " · ".join(parts)


def games_text(client: JonggClient, games: MyGames) -> str:
    """The list as one message: a heading, the games waiting on the person, then the others,
    as many as fit, and how many more there are."""
    total = len(games.yours) + len(games.others)
    if not total:
        return NO_GAMES
    lines = [f"**Your games**: {total} in play, {len(games.yours)} waiting on you."]
    # Room kept for the last line, which says how many games did not fit.
    room = LIST_LIMIT - 150
    left: list[Standing] = []
    for heading, standings in (("**Waiting on you**", games.yours),
                               ("**Waiting on others**", games.others)):
        for standing in standings:
            line = _line(client, standing)
            added = [line] if heading in lines else [heading, line]
            if left or sum(len(text) + 1 for text in (*lines, *added)) > room:
                left.append(standing)
            else:
                lines += added
    if left:
        waiting = sum(standing.yours for standing in left)
        lines.append(f"…and {len(left)} more not shown here ({waiting} of them waiting on "
                     "you): the list shows what fits in one message.")
    return "\n".join(lines)


async def show_games(interaction: discord.Interaction[Any]) -> None:
    """Answer with the person's games: privately in a server, plainly in a DM."""
    client = _client(interaction)
    private = interaction.guild_id is not None
    try:
        games = await in_time(interaction, my_games(client.service, interaction.user.id),
                              private=private)
        text = games_text(client, games)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=private,
                                            allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(text, ephemeral=private,
                                                    allowed_mentions=NO_MENTIONS)
    except Exception as error:
        await answer_error(interaction, error)


class GamesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"jg:games"):
    """"My games" on a prompt: the clicker's games, those waiting on them first."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="My games",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id="jg:games"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> GamesButton:
        """Rebuild the button."""
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the clicker's games."""
        await show_games(interaction)
