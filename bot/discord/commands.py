"""The `/mj` slash commands: open a table, play from the keyboard, and manage a game.

Each command only translates: it finds the game of the thread it is used in, calls the table
service, and answers (privately, for anything about one's own tiles).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import math
import re
import time
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot.bots import LEVELS
from bot.discord.components import (
    LobbyButton,
    answer_error,
    in_time,
    on_own_question,
    reclaim_seat,
    say_privately,
    show_rack,
)
from bot.discord.games import show_games
from bot.discord.league import register_league_commands
from bot.discord.lookups import register_lookups
from bot.discord.mentions import NO_MENTIONS, pinging
from bot.discord.names import known_as
from bot.discord.notify import PERMISSION_NAMES, archive_minutes, thread_name
from bot.discord.server_config import HISTORY_ENTRIES, LABELS, config_text, history_text
from bot.discord.settings import show_settings
from bot.discord.vacation import vacation
from bot.engine.errors import IllegalAction, MahjongError
from bot.engine.game.actions import Discard
from bot.engine.game.bettor import bettor_refusal
from bot.engine.game.rules import Scoring, suggest_options, table_rules, with_options
from bot.engine.tiles import format_tile, parse_tile, tile_name
from bot.league.seasons import season_rules
from bot.server_cards import MAX_NAME, usable_card
from bot.tables.levels import level_label
from bot.tables.options import PACES, Timeout
from bot.tables.records import Game, GameStatus, check_game
from bot.tables.replay import LogKind, game_log, log_kind
from bot.tables.seat_options import JokerCalls
from bot.tables.server_config import SETTINGS, ConfigChange, new_table_options, pace_text
from bot.tables.standins import DEFAULT_STAND_IN_AFTER, MOST_STAND_IN_AFTER
from bot.tables.zones import zone_choices


def _client(interaction: discord.Interaction[Any]) -> Any:
    return interaction.client


def lobby_buttons(game_id: int, level: str, *, bettor: bool = False) -> discord.ui.View:
    """The lobby's buttons (Bet, with `bettor`, at a table that takes a bettor), with an
    Add bot button per level below them, `level` (the server's) marked as the default."""
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "start", *(("bet",) if bettor else ())):
        view.add_item(LobbyButton(game_id, op))
    for each in LEVELS:
        view.add_item(LobbyButton(game_id, "bot", each, default=each == level))
    return view


async def _game_here(interaction: discord.Interaction[Any], number: int | None = None) -> int:
    """The game whose thread this command was used in (or the one `number` names, of this
    server), with this process's copy of it made the store's (another process may have
    moved it since: `TableService.visit`). A game not in play is refused by the command
    itself, as it would be without the visit."""
    client = _client(interaction)
    if number is not None:
        game: Game | None = await client.service.records.game(number,
                                                              guild_id=interaction.guild_id)
    else:
        channel = interaction.channel
        if channel is None:
            raise IllegalAction("Use this command in a game's thread.")
        game = await client.service.records.in_thread(channel.id)
    if game is None:
        raise IllegalAction("There is no game in this channel; use it in a game's thread, "
                            "or start one with /mj new.")
    with contextlib.suppress(MahjongError):
        await client.service.visit(game.id)
    return int(game.id)


def _is_manager(interaction: discord.Interaction[Any]) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)


#: Text options, with the longest value Discord lets a person send (the echo of a bad value
#: is shortened too, but a limit keeps a pasted novel from reaching the bot at all).
CardName = app_commands.Range[str, 1, MAX_NAME]
ChoiceText = app_commands.Range[str, 1, 20]
TileText = app_commands.Range[str, 1, 30]
HouseText = app_commands.Range[str, 1, 200]
ZoneText = app_commands.Range[str, 1, 64]
QuietText = app_commands.Range[str, 1, 30]

#: The /mj commands about a person rather than a server's tables: they work in a DM with the
#: bot too.
ANYWHERE = frozenset({"mj games", "mj settings", "mj help"})
IN_A_SERVER = ("That command works in a server, at its tables. Here in a DM, `/mj games` "
               "(your games), `/mj settings` and `/mj help` work.")


class _Tables(app_commands.Group):
    """The /mj group. Discord offers a group everywhere or in servers only, so it is offered
    in DMs too, for the commands in `ANYWHERE`; any other is refused there, privately, before
    it runs (the /mj vacation commands refuse on their own: a league lives on a server)."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """True, or `CheckFailure` saying where the command works."""
        command = interaction.command
        if (interaction.guild_id is None and command is not None
                and command.qualified_name not in ANYWHERE):
            raise app_commands.CheckFailure(IN_A_SERVER)
        return True


mj = _Tables(name="mj", description="Play American Mah Jongg at this server's tables",
             allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True))
mj.add_command(vacation)


@mj.command(name="new", description="Open a table in its own thread, with a lobby to join")
@app_commands.describe(
    players="4 (standard), 3, or 2 (Siamese-style, two racks each)",
    racks="racks per player: 2 at three or four players is the Royale-style game",
    card="the card to play (ours, or this server's own); the server's default if not given",
    scoring="card payments (nmjl), tournament points, or siamese points",
    pace="live (seconds per move), relaxed, or async (hours, with reminders); the server's "
         "default (/mj config) if not given",
    hints="show a Hint button with the nearest hands",
    timeout="when a clock runs out: pass on claims, or let the bot play the move",
    stand_in_after="timeouts in a row before a bot keeps the seat until its player reclaims "
                   "it (0: never; default 3)",
    turn="the turn clock instead of the pace's, e.g. 2m or 12h (30s to 7d)",
    claim="the claim window instead of the pace's, e.g. 15s or 1h (5s to 1d)",
    quiet_hours="pause each player's turn clock in their quiet hours (on at async tables)",
    vacations="pause a player's clocks while they're on a personal vacation (/mj "
              "vacation start); off by default",
    teaching="a teaching table: every rack is open to everyone at it, with hints after "
             "each draw (never in a league)",
    house="house options, e.g. charleston=none quarters_pot pot_ante=50 (see /rules "
          "house-rules)",
)
@app_commands.choices(players=[app_commands.Choice(name=f"{n} players", value=n)
                               for n in (4, 3, 2)],
                      racks=[app_commands.Choice(name="1 rack each", value=1),
                             app_commands.Choice(name="2 racks each (Siamese/Royale-style)",
                                                 value=2)])
@app_commands.choices(
    scoring=[app_commands.Choice(name=s.value, value=s.value) for s in Scoring],
    pace=[app_commands.Choice(name=p, value=p) for p in PACES if p != "untimed"],
    timeout=[app_commands.Choice(name=t.value, value=t.value) for t in Timeout],
)
async def new(interaction: discord.Interaction[Any], players: int = 4,
              racks: int | None = None,
              card: CardName | None = None, scoring: ChoiceText | None = None,
              pace: ChoiceText | None = None, hints: bool = True,
              timeout: ChoiceText = "pass", house: HouseText | None = None,
              teaching: bool = False,
              turn: ChoiceText | None = None, claim: ChoiceText | None = None,
              quiet_hours: bool | None = None, vacations: bool = False,
              stand_in_after: app_commands.Range[int, 0, MOST_STAND_IN_AFTER] = (
                  DEFAULT_STAND_IN_AFTER)) -> None:
    """Post the lobby, open its thread, and create the game, with the `house` options (see
    `bot.engine.game.rules.with_options`; a mistake in them is refused privately, before
    anything is posted). In a league's channel the table plays the open season's rules and
    card, so its games count."""
    client = _client(interaction)
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        raise IllegalAction("Open tables in a text channel (not a thread or a DM).")
    missing = [PERMISSION_NAMES[flag] for flag in TABLE_PERMISSIONS
               if not getattr(interaction.app_permissions, flag)]
    if missing:  # refused privately, before anything is posted
        raise _no_tables_here(channel.id, missing)
    guild_id = channel.guild.id
    servers = client.service.servers
    season = await client.leagues.open_season(guild_id, channel.id)
    if season is not None:
        if house:
            raise IllegalAction("This is a league's channel: its tables play the season's "
                                "rules, so they take no house options. Open the table in "
                                "another channel, or ask a director to start a season with "
                                "them (`/league season start house:`).")
        if vacations:
            raise IllegalAction("This is a league's channel: its games pause for the "
                                "season's vacations (`/mj vacation start`), so they take no "
                                "vacations option.")
        rules = season_rules(season)
        chosen = await servers.card(guild_id, season.settings.card_name)
    else:
        rules = with_options(table_rules(players, scoring, racks), house or "")
        chosen = await servers.card(guild_id, card)
    options = new_table_options(await servers.settings(guild_id), rules, chosen,
                                pace=pace, hints=hints, timeout=Timeout(timeout),
                                teaching=teaching, turn=turn, claim=claim,
                                quiet_hours=quiet_hours, vacations=vacations,
                                stand_in_after=stand_in_after)
    options.clocks()  # clock lengths out of bounds are refused privately, before posting
    if teaching:  # refused privately, before anything is posted
        await client.service.check_teaching(guild_id, channel.id)
    # Checked (in a worker) before the public deferral, so a card that can't be used is
    # refused privately; the table opens with it compiled, off the loop too.
    await usable_card(chosen.name, chosen.text)
    await interaction.response.defer(thinking=True)
    game = await client.service.open_table(
        guild_id=guild_id, channel_id=channel.id, host_id=interaction.user.id,
        host_name=known_as(interaction.user), options=options)
    message = await interaction.followup.send(
        await client.lobby_text(game.id),
        view=lobby_buttons(game.id, await client.service.server_level(guild_id),
                           bettor=bettor_refusal(rules) is None), wait=True,
        allowed_mentions=NO_MENTIONS)
    # A follow-up message carries no guild for discord.py, so open the thread through the
    # channel (same request: a thread started from the lobby message).
    thread = None
    try:
        thread = await channel.create_thread(name=thread_name(game.id), message=message,
                                             auto_archive_duration=archive_minutes(game.pace))
        await client.service.placed(game.id, thread_id=thread.id, lobby_message_id=message.id)
        await thread.send("The game will be played here once the host presses Start.")
    except discord.Forbidden as error:
        # The permissions changed since the command was sent: a table that can't be played
        # here is called off, its lobby taken away, and the host told what is missing.
        await client.service.abort(game.id, interaction.user.id)
        for made in (thread, message):
            if made is not None:
                with contextlib.suppress(discord.HTTPException):
                    await made.delete()
        needed = "create_public_threads" if thread is None else "send_messages_in_threads"
        raise _no_tables_here(channel.id, [PERMISSION_NAMES[needed]]) from error


#: What the bot needs in a channel to hold its tables: to see it, to open each table's
#: thread, and to post there with pictures (`PERMISSION_NAMES` names them as Discord's
#: settings do).
TABLE_PERMISSIONS = ("view_channel", "create_public_threads", "send_messages_in_threads",
                     "attach_files")


def _no_tables_here(channel_id: int, missing: list[str]) -> IllegalAction:
    """The refusal of a table in a channel where the bot lacks `missing` permissions."""
    names = " and ".join(f"**{name}**" for name in missing)
    plural = "s" if len(missing) > 1 else ""
    return IllegalAction(f"I can't open a table in <#{channel_id}>: I'm missing the {names} "
                         f"permission{plural} there. A server manager can grant it, or open "
                         "the table in another channel.")


async def _card_choices(interaction: discord.Interaction[Any],
                        current: str) -> list[app_commands.Choice[str]]:
    """The cards usable in this server, filtered by what was typed."""
    names = await _client(interaction).service.servers.card_names(interaction.guild_id)
    wanted = current.strip().lower()
    return [app_commands.Choice(name=n, value=n) for n in names if wanted in n.lower()][:25]


@new.autocomplete("card")
async def new_card_names(interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
    """The cards a new table may play, filtered by what was typed."""
    return await _card_choices(interaction, current)


@new.autocomplete("house")
async def new_house_options(interaction: discord.Interaction[Any],
                            current: str) -> list[app_commands.Choice[str]]:
    """The house options text with its last word completed (option names and values)."""
    return [app_commands.Choice(name=text, value=text) for text in suggest_options(current)]


@mj.command(name="config", description="This server's settings for its tables; server "
                                        "managers can change them")
@app_commands.describe(
    card="the card new tables use (the same setting as /card default)",
    pace="the pace of new tables that choose none (it starts from that pace's clocks)",
    turn_seconds="the default pace's turn clock, in seconds",
    claim_seconds="the default pace's claim window, in seconds",
    bot_level="easy, normal or strong: the bots that fill empty seats at Start and stand in "
              "for absent players",
    auto_delay="seconds every automatic answer waits (the same for every seat), 0 to 30",
    teaching="whether teaching tables (every rack open) may be opened here",
    league_channel="the main league's channel: /league used elsewhere looks there first",
    history="(managers) show the latest changes instead",
    reset="put one setting back to its default",
)
@app_commands.choices(reset=[app_commands.Choice(name=LABELS[name][0], value=name)
                             for name in SETTINGS])
async def config(interaction: discord.Interaction[Any], card: CardName | None = None,
                 pace: ChoiceText | None = None, turn_seconds: int | None = None,
                 claim_seconds: int | None = None, bot_level: ChoiceText | None = None,
                 auto_delay: float | None = None, teaching: bool | None = None,
                 league_channel: discord.TextChannel | None = None,
                 history: bool = False, reset: ChoiceText | None = None) -> None:
    """Show the server's settings, each with where it comes from, or (a server manager)
    change the ones given, all or none; each change is kept in the server's audit log, which
    `history` shows. A new server needs none: each has a default."""
    servers = _client(interaction).service.servers
    guild_id = interaction.guild_id
    if guild_id is None:
        raise IllegalAction("Use this command in a server.")
    manager = _is_manager(interaction)
    change = ConfigChange(
        card=card, pace=pace, turn_seconds=turn_seconds, claim_seconds=claim_seconds,
        bot_level=bot_level, auto_delay=auto_delay, teaching=teaching,
        league_channel_id=None if league_channel is None else league_channel.id, reset=reset)
    if history:
        if not manager:
            raise IllegalAction("Only server managers (the Manage Server permission) can see "
                                "the changes of this server's settings.")
        text = history_text(await servers.history(guild_id, HISTORY_ENTRIES))
    else:
        changed: list[str] | None = None
        if not change.empty:
            changed = await servers.change(guild_id, change, interaction.user.id,
                                           manager=manager)
        text = config_text(await servers.config(guild_id), changed=changed)
    await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)


@config.autocomplete("card")
async def config_card_names(interaction: discord.Interaction[Any],
                            current: str) -> list[app_commands.Choice[str]]:
    """The cards a server's default may be, filtered by what was typed."""
    return await _card_choices(interaction, current)


@config.autocomplete("pace")
async def config_paces(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
    """The paces with their clocks, filtered by what was typed (suggested, as the bot levels
    are, so a pace typed past the suggestions is answered in words)."""
    wanted = current.strip().lower()
    return [app_commands.Choice(name=pace_text(PACES[name][0]), value=name) for name in PACES
            if wanted in name]


@config.autocomplete("bot_level")
async def config_levels(interaction: discord.Interaction[Any],
                        current: str) -> list[app_commands.Choice[str]]:
    """The bot levels, filtered by what was typed."""
    wanted = current.strip().lower()
    return [app_commands.Choice(name=level_label(level), value=level) for level in LEVELS
            if wanted in level]


@mj.command(name="rack", description="See your rack and your choices (only you see it)")
async def rack(interaction: discord.Interaction[Any]) -> None:
    """The caller's rack, ephemerally."""
    await show_rack(interaction, await _game_here(interaction), None)


@mj.command(name="discard", description="Discard a tile from your rack")
@app_commands.describe(tile="the tile, e.g. 3B, 5 crak, red, soap, joker")
async def discard(interaction: discord.Interaction[Any], tile: TileText) -> None:
    """Discard by name (with autocomplete from the rack)."""
    client = _client(interaction)
    game_id = await _game_here(interaction)
    kind = parse_tile(tile)
    await in_time(interaction, client.service.act(game_id, interaction.user.id,
                                                  lambda seat: Discard(seat, kind)),
                  private=True)
    await say_privately(interaction, f"You discarded {tile_name(kind)}.")


@discard.autocomplete("tile")
async def discard_tiles(interaction: discord.Interaction[Any],
                        current: str) -> list[app_commands.Choice[str]]:
    """The tiles the caller may discard now, filtered by what they typed."""
    try:
        game_id = await _game_here(interaction)
        seen = _client(interaction).service.view_for(game_id, interaction.user.id)
    except Exception:
        return []
    kinds = sorted({o.action.kind for o in seen.legal if isinstance(o.action, Discard)})
    wanted = current.strip().lower()
    return [app_commands.Choice(name=tile_name(k), value=format_tile(k)) for k in kinds
            if wanted in tile_name(k).lower() or wanted in format_tile(k).lower()][:25]


@mj.command(name="options", description="How you're asked at this table (only you see it)")
@app_commands.describe(joker_calls="offer or skip calls that only jokers would fill "
                                   "(skipped at first)")
@app_commands.choices(joker_calls=[
    app_commands.Choice(name="skip calls only jokers would fill", value=JokerCalls.SKIP.value),
    app_commands.Choice(name="offer every call", value=JokerCalls.OFFER.value)])
async def seat_options(interaction: discord.Interaction[Any],
                       joker_calls: ChoiceText | None = None) -> None:
    """Show the caller's options at this table, or change them."""
    client = _client(interaction)
    game_id = await _game_here(interaction)
    if joker_calls is None:
        options = await client.service.seat_options(game_id, interaction.user.id)
        tail = (" Change joker-only calls for this game with `/mj options joker_calls:`, or "
                "any setting for every game with `/mj settings`.")
    else:
        current = await client.service.seat_options(game_id, interaction.user.id)
        options = await client.service.set_seat_options(
            game_id, interaction.user.id, replace(current, joker_calls=JokerCalls(joker_calls)))
        tail = " It applies from your next prompt."
    await interaction.response.send_message(f"Table {game_id}: {options.describe()}{tail}",
                                            ephemeral=True)


@mj.command(name="settings", description="Your own settings for every game (only you see "
                                           "them)")
@app_commands.describe(time_zone="where you live, e.g. America/New_York (your quiet hours "
                                 "are read there)",
                       quiet_hours="when your turn clocks pause at async tables, e.g. "
                                   "23:00-07:00 on your clock, or off")
async def settings(interaction: discord.Interaction[Any],
                   time_zone: ZoneText | None = None,
                   quiet_hours: QuietText | None = None) -> None:
    """Show the caller's settings with a control for each (`bot.discord.settings`), after
    keeping a time zone or quiet hours typed here."""
    await show_settings(interaction, {"time_zone": time_zone, "quiet_hours": quiet_hours})


@settings.autocomplete("time_zone")
async def settings_zones(interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
    """The zones what was typed may mean (`bot.tables.zones`: a name, a city, an
    abbreviation, an offset), the best-known first; read in a worker, since an offset reads
    every zone's file the first time."""
    names = await asyncio.to_thread(zone_choices, current[:100])
    return [app_commands.Choice(name=name, value=name) for name in names]


@mj.command(name="games", description="Your games on every server, those waiting on you "
                                        "first (only you see it)")
async def games(interaction: discord.Interaction[Any]) -> None:
    """The caller's games in play: their move's deadline and links first, then whose move it
    is in the others. Works in a DM with the bot too."""
    await show_games(interaction)


@mj.command(name="status", description="Where this table's game is")
async def status(interaction: discord.Interaction[Any]) -> None:
    """Phase, whose turn, the wall and the seats."""
    client = _client(interaction)
    game_id = await _game_here(interaction)
    game = await client.service.records.game(game_id)
    if game.status is not GameStatus.PLAYING:
        text = await client.lobby_text(game_id)
    else:
        seen = client.service.spectator(game_id)
        table = client.service.table(game_id)
        turn = table.names[seen.turn] if seen.turn is not None else "—"
        text = (f"Table {game_id}: {seen.phase.value}, turn: {turn}, "
                f"{seen.wall_count} tiles in the wall, {seen.action_count} moves so far.")
    await interaction.response.send_message(text, ephemeral=True,
                                            allowed_mentions=NO_MENTIONS)


@mj.command(name="resign", description="Leave this game for good; a bot plays your seat")
async def resign(interaction: discord.Interaction[Any]) -> None:
    """Hand the caller's seat to a bot of the server's level, for good (unlike a stand-in,
    which the player can reclaim: resigning gives the seat up)."""
    client = _client(interaction)
    game_id = await _game_here(interaction)
    client.service.seat_of(game_id, interaction.user.id)  # refuse privately, before deferring
    await interaction.response.defer(thinking=True)
    seat = await client.service.resign(game_id, interaction.user.id)
    level = await _stand_in_level(client, game_id)
    await interaction.followup.send(f"{interaction.user.display_name} resigned; a {level} bot "
                                    f"plays seat {seat + 1} from now on.")


async def _stand_in_level(client: Any, game_id: int) -> str:
    """The level of the bot just given a seat of the game, for the table to read: the
    server's (asked of the server, since the game may be over already, its bots done)."""
    game = await client.service.records.game(game_id)
    return level_label(await client.service.server_level(game.guild_id))


@mj.command(name="reclaim", description="Take your seat back from the bot standing in for you")
@app_commands.describe(game="the table number (in its thread you may leave it out)")
async def reclaim(interaction: discord.Interaction[Any], game: int | None = None) -> None:
    """The caller's seat, kept by a bot after too many timeouts in a row, is theirs again."""
    await reclaim_seat(interaction, await _game_here(interaction) if game is None else game,
                       None)


@mj.command(name="sub", description="(Host or server manager) hand a seat to another player")
@app_commands.describe(seat="the seat number, 1 (East) to 4",
                       user="who takes it over (name me to hand it to one of my bots)")
async def sub_seat(interaction: discord.Interaction[Any],
                   seat: app_commands.Range[int, 1, 4], user: discord.Member) -> None:
    """The host, or a server manager (for a table whose host has gone), seats another
    person: a substitute, who plays on with the seat's tiles and their own options. Naming
    this bot itself hands the seat to one of its bots, of the server's level; another bot
    account is refused by the table service (it would never answer)."""
    client = _client(interaction)
    game_id = await _game_here(interaction)
    manager = _is_manager(interaction)
    await client.service.check_manages(game_id, interaction.user.id, manager=manager)
    ours = client.user is not None and user.id == client.user.id
    await interaction.response.defer(thinking=True)
    await client.service.replace_seat(game_id, interaction.user.id, seat - 1,
                                      None if ours else user.id, known_as(user),
                                      manager=manager, bot_account=user.bot and not ours)
    if ours:
        level = await _stand_in_level(client, game_id)
        await interaction.followup.send(f"A {level} bot now plays seat {seat}.")
        return
    await interaction.followup.send(f"{user.mention} now plays seat {seat}.",
                                    allowed_mentions=pinging([user.id]))


#: How long a Yes/No question waits for its answer (seconds): well inside the 15 minutes an
#: interaction's token lasts, so an unanswered question can still be tidied away with it.
CONFIRM_SECONDS = 60.0


class AbortButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"jg:x:(?P<game>\d+):(?P<answer>yes|no):(?P<until>\d+)"):
    """Yes or No to `/mj abort`'s question, on a message only the asker sees. Everything
    it needs is in its custom id (the game, the answer, until when the question waits), so
    whichever process takes the click can answer it."""

    def __init__(self, game: int, answer: str, until: int) -> None:
        label, style = (("Yes, abort it", discord.ButtonStyle.danger) if answer == "yes"
                        else ("No", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"jg:x:{game}:{answer}:{until}"))
        self.game, self.answer, self.until = game, answer, until

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> AbortButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]), match["answer"], int(match["until"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Abort on Yes (the asker's right to is checked again), keep the game on No or once
        the question has stopped waiting."""
        try:
            on_own_question(interaction)
            check_game(self.game)
        except MahjongError as error:
            await answer_error(interaction, error)
            return
        if time.time() > self.until:
            await interaction.response.edit_message(content=NO_ANSWER, view=None)
            return
        if self.answer == "no":
            await interaction.response.edit_message(content="Kept the game going.", view=None)
            return
        await interaction.response.edit_message(content="Aborting…", view=None)
        client = _client(interaction)
        aborted = False
        try:
            await client.service.abort(self.game, interaction.user.id,
                                       manager=_is_manager(interaction))
            aborted = True
            await client.refresh_lobby(self.game)
        except Exception as error:
            if not aborted:  # the question must not go on saying "Aborting…"
                with contextlib.suppress(discord.HTTPException):
                    await interaction.edit_original_response(content=NOT_ABORTED)
            await answer_error(interaction, error)
            return
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(f"Table {self.game} was aborted by "
                               f"{interaction.user.display_name}.")


#: What an abort question says once it has stopped waiting unanswered.
NO_ANSWER = "No answer, so nothing changed. Run the command again if you still want to."
#: What an abort question says when Yes was refused (the game ended meanwhile, say).
NOT_ABORTED = "Nothing was aborted."


@mj.command(name="abort", description="(Host or server manager) end this game with no result")
@app_commands.describe(game="the table number: to abort a table from outside its thread (when "
                            "its channel is gone)")
async def abort(interaction: discord.Interaction[Any], game: int | None = None) -> None:
    """Ask for confirmation (`AbortButton` answers it); once the question stops waiting,
    take its buttons away if nobody answered."""
    client = _client(interaction)
    game_id = await _game_here(interaction, game)
    await client.service.check_manages(game_id, interaction.user.id,
                                       manager=_is_manager(interaction))
    until = math.ceil(time.time() + CONFIRM_SECONDS)
    question = discord.ui.View(timeout=None)
    for answer in ("yes", "no"):
        question.add_item(AbortButton(game_id, answer, until))
    await interaction.response.send_message(f"Abort table {game_id}? Nobody scores.",
                                            view=question, ephemeral=True)
    await asyncio.sleep(CONFIRM_SECONDS)
    with contextlib.suppress(discord.HTTPException):  # then it stays as it was
        asked = await interaction.original_response()
        if asked.components:  # unanswered (an answer took the buttons away)
            await interaction.edit_original_response(content=NO_ANSWER, view=None)


@mj.command(name="replay", description="A game's log: what the table has seen so far, or "
                                         "every move once it is over")
@app_commands.describe(game="the table number")
async def replay_log(interaction: discord.Interaction[Any], game: int) -> None:
    """The game's log as a text file, privately (only for this server's games): the public
    record while it is played, the full log with the seed once it is over, nothing in the
    lobby (see `bot.tables.replay`)."""
    client = _client(interaction)
    record = await client.service.records.game(game, guild_id=interaction.guild_id)
    if log_kind(record.status) is LogKind.NOTHING:
        await interaction.response.send_message(
            f"Table {record.id} hasn't started yet, so there is nothing to replay. Its log "
            "opens once the host presses Start.", ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    actions = await client.service.records.actions(record.id)
    log = await asyncio.to_thread(game_log, record, actions)
    if log.kind is LogKind.FULL:
        text, name = f"Table {record.id}: {log.moves} moves.", f"table-{record.id}.txt"
    else:
        text = (f"Table {record.id} is still being played: here is what everyone at the table "
                f"has seen in {log.moves} moves. The full log, with the seed, comes once the "
                "game is over.")
        name = f"table-{record.id}-so-far.txt"
    data = "\n".join(log.lines).encode()
    await interaction.followup.send(text, ephemeral=True,
                                    file=discord.File(io.BytesIO(data), filename=name))


@mj.command(name="help", description="What Jongg does and how to start")
async def help_command(interaction: discord.Interaction[Any]) -> None:
    """A short guide."""
    await interaction.response.send_message(
        "**Jongg** runs American Mah Jongg (NMJL-style) here.\n"
        "• `/mj new` opens a table in a thread; press Join, and the host presses Start "
        "(empty seats get bots).\n"
        "• Your rack comes by DM with buttons; if your DMs are closed, use **My rack** under "
        "the table.\n"
        "• Under each discard, **Claim…** shows your own calls privately; **Pass** lets it go. "
        "Calls only jokers would fill are skipped unless you ask for them with `/mj options`."
        "\n"
        "• Declaring another hand dead is on your turn, under **Declare a hand dead…**: you "
        "are asked to confirm, since a wrong call kills your own hand.\n"
        "• `/mj discard`, `/mj rack`, `/mj status`, `/mj options`, `/mj resign`, `/mj replay` "
        "help along the way; `/mj games` (here or in a DM with me) lists your games on every "
        "server, those waiting on you first.\n"
        "• Miss too many moves in a row and a bot keeps your seat: **Reclaim** on your rack "
        "or `/mj reclaim` takes it back. The host hands a seat on with `/mj sub`.\n"
        "• **Add bot** in the lobby seats an Easy, Normal or Strong bot; `/mj config` shows "
        "this server's settings: the level of its other bots, its default card and pace, "
        "and more (server managers set them).\n"
        "• `/rules` answers rules questions; `/card show` draws a card; `/analyze` checks a "
        "hand (only you see it); `/league` keeps a server's standings.", ephemeral=True)


def register_commands(tree: app_commands.CommandTree[Any]) -> None:
    """Add every command group to the tree: tables, rules and cards, leagues."""
    tree.add_command(mj)
    register_lookups(tree)
    register_league_commands(tree)

