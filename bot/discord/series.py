"""Discord's side of series and the bettor: Play again and End series under a result, the
running totals beside it, the series picture, and the bettor's private choice of a seat.

    jg:s:GAME:OP    under a result: OP `again` (the next game) or `end` (the summary)
    jg:b:GAME       "Choose a seat": opens the seat menu, privately, for the bettor
    jg:bs:GAME      the bettor's seat menu (values are seats)

Only translation: who may do what is decided by the table service and `bot.tables.series`.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.discord.components import answer_error
from bot.discord.mentions import NO_MENTIONS, pinging
from bot.engine.game import View
from bot.engine.game.rules import seat_names
from bot.scenes import series_scene
from bot.tables.notifier import Table
from bot.tables.records import Records, check_game
from bot.tables.series import SeriesTotals
from renderer import render_series
from renderer.alt import describe_series

if TYPE_CHECKING:
    from bot.discord.client import JonggClient


def _client(interaction: discord.Interaction[Any]) -> JonggClient:
    from bot.discord.client import JonggClient

    client = interaction.client
    assert isinstance(client, JonggClient)
    return client


def totals_line(totals: SeriesTotals) -> str:
    """The running totals on one line, in seat-of-the-series order."""
    shown = ", ".join(f"{person.display_name} {total:+d}"
                      for person, total in zip(totals.people, totals.totals, strict=True))
    return f"Series after {totals.games} game{'s' if totals.games != 1 else ''}: {shown}."


async def result_footer(records: Records, table: Table,
                        view: View) -> tuple[str, discord.ui.View | None]:
    """What goes with a result picture: the bettor's payment, the series' running totals
    (through this game, from its own view: the store may not hold its result yet), and Play
    again / End series unless the table may not play again (a league table)."""
    game = await records.game(table.game_id)
    lines = []
    result = view.result
    assert result is not None
    if table.bettor_name is not None and result.bettor is not None:
        lines.append(f"{table.bettor_name}, the bettor, backed "
                     f"{seat_names(4)[view.bet or 0]}: {result.bettor:+d}.")
    totals = await records.series_totals(table.game_id, (result.settlement, result.bettor))
    if totals is not None:
        lines.append(totals_line(totals))
    controls = None if await records.league_table(game) else series_controls(table.game_id)
    return "\n".join(lines), controls


def series_controls(game_id: int) -> discord.ui.View:
    """Play again and End series, for the host."""
    view = discord.ui.View(timeout=None)
    view.add_item(SeriesButton(game_id, "again"))
    view.add_item(SeriesButton(game_id, "end"))
    return view


def series_picture(totals: SeriesTotals, game_id: int) -> tuple[bytes, str]:
    """The series summary as PNG bytes and its alt text (render it off the event loop)."""
    scene = series_scene(totals, title=f"Table {game_id} · series")
    return render_series(scene), describe_series(scene)


class SeriesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"jg:s:(?P<game>\d+):(?P<op>again|end)"):
    """Play again (the next game of the series, the deal passed to the right) or End series
    (the series picture), under a result; the host's, anyone else is told so privately."""

    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "again": ("Play again", discord.ButtonStyle.primary),
        "end": ("End series", discord.ButtonStyle.secondary),
    }

    def __init__(self, game: int, op: str) -> None:
        label, style = self.LABELS[op]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"jg:s:{game}:{op}"))
        self.game, self.op = game, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> SeriesButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Start the next game, or post the series summary; the result loses its buttons."""
        client = _client(interaction)
        try:
            check_game(self.game)
            game = await client.service.records.game(self.game)
            if game.host_user_id != interaction.user.id:
                what = "play again" if self.op == "again" else "end the series"
                await interaction.response.send_message(
                    f"Thanks! Only the table's host can {what}; ask them to press it.",
                    ephemeral=True)
                return
            await interaction.response.defer()
            if self.op == "again":
                await self._again(interaction, client)
            else:
                await self._end(interaction, client)
            await interaction.edit_original_response(view=None)
        except Exception as error:
            await answer_error(interaction, error)

    async def _again(self, interaction: discord.Interaction[Any], client: JonggClient) -> None:
        game, table = await client.service.play_again(self.game, interaction.user.id)
        if table is not None:
            return  # its first table post and DMs go out through the outbox
        bettor = await client.service.records.bettor(game.id)
        assert bettor is not None
        await interaction.followup.send(
            f"Table {game.id} is next. <@{bettor.user_id}>, you sit out this game as the "
            "bettor: choose the seat to back, and the game starts.",
            view=bet_controls(game.id), allowed_mentions=pinging([bettor.user_id]))

    async def _end(self, interaction: discord.Interaction[Any], client: JonggClient) -> None:
        totals = await client.service.end_series(self.game, interaction.user.id)
        png, alt = await asyncio.to_thread(series_picture, totals, self.game)
        await interaction.followup.send(
            f"The series is over. {totals_line(totals)}", allowed_mentions=NO_MENTIONS,
            file=discord.File(io.BytesIO(png), filename="series.png", description=alt))


def bet_controls(game_id: int) -> discord.ui.View:
    """The button that opens the bettor's seat menu."""
    view = discord.ui.View(timeout=None)
    view.add_item(BetButton(game_id))
    return view


def bet_menu(game_id: int, names: list[str]) -> discord.ui.View:
    """The bettor's menu of the four seats (East first), to answer privately."""
    view = discord.ui.View(timeout=None)
    view.add_item(BetSelect(game_id, names))
    return view


async def open_bet_menu(interaction: discord.Interaction[Any], client: JonggClient,
                        game_id: int) -> None:
    """Answer the bettor privately with the seat menu (after a deferral or not)."""
    seats = await client.service.records.seats(game_id)
    names = [f"{wind}: {seats[i].display_name}" if i in seats else f"{wind}: (open)"
             for i, wind in enumerate(seat_names(4))]
    text = "Choose the seat to back. You see the game as a spectator does."
    if interaction.response.is_done():
        await interaction.followup.send(text, view=bet_menu(game_id, names), ephemeral=True)
    else:
        await interaction.response.send_message(text, view=bet_menu(game_id, names),
                                                ephemeral=True)


class BetButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"jg:b:(?P<game>\d+)"):
    """"Choose a seat": the bettor's seat menu, privately (anyone else is told why not)."""

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Choose a seat",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"jg:b:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> BetButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Open the menu for the bettor."""
        client = _client(interaction)
        try:
            check_game(self.game)
            bettor = await client.service.records.bettor(self.game)
            if bettor is None or bettor.user_id != interaction.user.id:
                await interaction.response.send_message(
                    "Only this game's bettor chooses a seat to back.", ephemeral=True)
                return
            await open_bet_menu(interaction, client, self.game)
        except Exception as error:
            await answer_error(interaction, error)


class BetSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                template=r"jg:bs:(?P<game>\d+)"):
    """The bettor's seat menu: the choice is kept, and a series' next game starts."""

    def __init__(self, game: int, names: list[str] | None = None) -> None:
        labels = names or list(seat_names(4))
        super().__init__(discord.ui.Select(
            custom_id=f"jg:bs:{game}", placeholder="The seat to back…",
            options=[discord.SelectOption(label=label[:100], value=str(seat))
                     for seat, label in enumerate(labels)]))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> BetSelect:
        """Rebuild the menu from its custom id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the bet; say so privately; refresh the lobby."""
        client = _client(interaction)
        try:
            check_game(self.game)
            seat = int(self.item.values[0])
            await interaction.response.defer(ephemeral=True, thinking=True)
            started = await client.service.choose_bet(self.game, interaction.user.id, seat)
            wind = seat_names(4)[seat]
            await interaction.followup.send(
                f"You back {wind}." + (" The game is on: follow it in the thread."
                                       if started is not None else
                                       " The game starts when the host presses Start."),
                ephemeral=True)
            await client.refresh_lobby(self.game)
        except Exception as error:
            await answer_error(interaction, error)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (SeriesButton, BetButton,
                                                                BetSelect)
