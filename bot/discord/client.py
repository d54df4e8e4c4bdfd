"""The Discord client: opens the store (`bot.tables.storage`) with the table and league
services over it, starts them and the commands, and closes them.

No privileged intents, and of the others only guilds (the channels and threads the bot posts
in): everything players do arrives through interactions, which come whatever the intents, so
message, typing and reaction events would only be work for the bot (on a busy server, every
message anyone writes). Guild state is kept by id in the store, never as discord objects.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.discord.buckets import one_request_per_bucket
from bot.discord.components import DYNAMIC_ITEMS, answer_error
from bot.discord.games import GamesButton
from bot.discord.mentions import NO_MENTIONS
from bot.discord.names import known_as
from bot.discord.notify import DiscordNotifier
from bot.discord.pacing import GlobalLimit, Sharing
from bot.discord.prompts import PromptBuilder
from bot.discord.series import DYNAMIC_ITEMS as SERIES_ITEMS
from bot.discord.series import open_bet_menu
from bot.discord.settings import SETTINGS_ITEMS
from bot.discord.shards import ONE_SHARD, ShardPlan
from bot.discord.tokens import Tokens, count_tries
from bot.engine.errors import IllegalAction
from bot.engine.game.bettor import bettor_refusal
from bot.engine.game.rules import house_options, seat_names
from bot.league.service import LeagueService
from bot.loopwatch import LoopWatch
from bot.rules import knowledge_base
from bot.tables.delivery import DEFAULT_BACKOFF, Backoff
from bot.tables.levels import level_label
from bot.tables.options import (
    describe_clocks,
    read_table_options,
)
from bot.tables.records import GameStatus
from bot.tables.service import BotFactory, TableService, level_bot, random_seed
from bot.tables.standins import stand_in_text
from bot.tables.storage import Storage, is_postgres
from bot.tables.teaching import BANNER
from bot.tables.vacation import when

log = logging.getLogger(__name__)


class JonggClient(discord.Client):
    """The bot. `service` (the table service) and `leagues` (the league service) exist once
    `setup_hook` has opened the store they keep their data in (`storage`).

    `make_bot` builds the bots that fill empty seats, `new_seed` gives each new game's deal
    its seed, `now` is the table clocks' time source, `run_clocks=False` leaves clocks to
    `service.run_due_clocks` (tests pass their own), `backoff` paces the retries of game
    messages that failed and `watch_loop` runs a loop-lag watchdog from `setup_hook` to
    `close` that logs a warning when the event loop stalls (`jongg run` turns it on; the tests
    watch the loop themselves); other keyword options go to `discord.Client`. Messages ping
    nobody unless they name whom (`bot.discord.mentions`), requests of one rate-limit
    bucket go one at a time (`bot.discord.buckets`), and requests keep under Discord's
    global rate limit (`global_limit`, `bot.discord.pacing`). When other processes run some
    of the shards, this one counts its requests against the global limit and each bucket
    the bot token shares with theirs, in the database they share (or, a SQLite file being
    one process's, within its own part of each, `shard_plan.share`).

    `shard_plan` is which of the bot's shards this process runs (`bot.discord.shards`): it
    resumes and times only their servers' games, and registers the commands only if it
    runs shard 0. With more than one shard, build the client with `make_client`. `owner`
    names the process in the store's clock and outbox claims (by default by its shards): the
    process restarted in this one's place, named alike, resumes its claims at once."""

    def __init__(self, database: str | Path, *, dev_guild: int | None = None,
                 sync_commands: bool = True, make_bot: BotFactory = level_bot,
                 new_seed: Callable[[], int] = random_seed,
                 now: Callable[[], float] = time.time, run_clocks: bool = True,
                 backoff: Backoff = DEFAULT_BACKOFF, watch_loop: bool = False,
                 global_limit: GlobalLimit | None = None,
                 shard_plan: ShardPlan = ONE_SHARD, owner: str | None = None,
                 **options: Any) -> None:
        options.setdefault("allowed_mentions", NO_MENTIONS)
        self.shard_plan = shard_plan
        self.owner = owner or f"jongg {shard_plan.describe()}"
        #: Whether other processes may spend the bot token's limits too (the other shards'
        #: processes, HTTP workers and their gateway process, all on one database server):
        #: counted together in that database (`bot.discord.pacing`).
        self.shares_token = shard_plan.shares or is_postgres(str(database))
        self.pace = global_limit or GlobalLimit(sharing=Sharing(shard_plan.share))
        super().__init__(intents=discord.Intents(guilds=True),
                         http_trace=count_tries(self.pace.trace()),
                         **options)
        one_request_per_bucket(self.http, self.pace.sharing if self.shares_token else None)
        self.database = database
        self.dev_guild = dev_guild
        self.sync_commands = sync_commands
        self.make_bot = make_bot
        self.new_seed = new_seed
        self.now = now
        self.run_clocks = run_clocks
        self.backoff = backoff
        self.loop_watch = LoopWatch(where=True) if watch_loop else None
        self.tree = _Tree(self)
        self.prompts = PromptBuilder()
        self.tokens = Tokens(now)
        self.storage: Storage
        self.service: TableService
        self.leagues: LeagueService

    async def setup_hook(self) -> None:
        """Open the store, rebuild unfinished games, register commands and buttons."""
        from bot.discord.commands import AbortButton, register_commands

        if self.loop_watch is not None:
            self.loop_watch.start()  # first: restoring games must not stall the loop either
        self.storage = await Storage.open(self.database, owner=self.owner)
        if self.shares_token:  # the token's limits, counted together
            self.pace.sharing.budgets = self.storage.shared_budgets()
        self.service = self.storage.table_service(
            DiscordNotifier(self), now=self.now, make_bot=self.make_bot,
            new_seed=self.new_seed, backoff=self.backoff, owns=self.shard_plan.owns)
        self.leagues = self.storage.league_service()
        restored = await self.service.start(run_clocks=self.run_clocks)
        log.info("restored %d unfinished games (%s)", restored, self.shard_plan.describe())
        recorded = await self.leagues.record_missed_games()
        if recorded:
            log.info("recorded %d finished games in their leagues", recorded)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *SERIES_ITEMS, *SETTINGS_ITEMS, GamesButton,
                               AbortButton)
        await asyncio.to_thread(knowledge_base)  # the rules index, costly to build
        register_commands(self.tree)
        if self.sync_commands and self.shard_plan.syncs_commands:
            if self.dev_guild is not None:
                guild = discord.Object(self.dev_guild)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()

    async def close(self) -> None:
        """Stop the service, close the store, disconnect, then stop watching the loop."""
        if hasattr(self, "service"):
            await self.service.close()
        if hasattr(self, "storage"):
            self.pace.sharing.budgets = None  # what is sent from here on: its part alone
            await self.storage.close()
        await super().close()
        if self.loop_watch is not None:
            await self.loop_watch.stop()

    # -- the lobby ---------------------------------------------------------------------------

    async def lobby_text(self, game_id: int) -> str:
        """The lobby message: the table's settings (with the options in which it differs
        from its preset, see `preset_of`) and who sits where."""
        records = self.service.records
        game = await records.game(game_id)
        stored = read_table_options(game.rules)
        rules = stored.rules
        clocks = describe_clocks(game.pace, quiet=stored.quiet, vacations=stored.vacations)
        seats = await records.seats(game_id)
        levels = await self.service.stored_levels(game_id)
        lines = [f"**Table {game.id}** · {rules.name} · card {game.card.name} · "
                 f"{stored.pace} pace{clocks} · hints {'on' if game.hints else 'off'} · "
                 f"on timeout: {stored.timeout.value} · {stand_in_text(stored.stand_in_after)}"]
        house = house_options(rules)
        if house:
            lines.append(f"House options: `{house}`")
        if stored.teaching:
            lines.append(f"**{BANNER}**: everyone at the table sees every rack, and players "
                         "who keep teaching hints on get a hint after every draw.")
        for index, wind in enumerate(seat_names(rules.players)):
            holder = seats.get(index)
            who = "*(open)*" if holder is None else (
                f"{holder.display_name} ({level_label(levels[index])})" if holder.is_bot
                else f"<@{holder.user_id}>")
            lines.append(f"{wind}: {who}")
        away = await self.service.away_at_table(
            game.guild_id, game.channel_id,
            [s.user_id for s in seats.values() if s.user_id is not None],
            personal=stored.vacations)
        lines += [f"<@{user}> is on vacation until {when(until)} at the latest: the game "
                  "waits for them (their clocks are paused)." for user, until in away.items()]
        bettor = await records.bettor(game_id)
        if bettor is not None:
            backs = ("choosing a seat" if bettor.seat is None
                     else f"backs {seat_names(rules.players)[bettor.seat]}")
            lines.append(f"Bettor: <@{bettor.user_id}> ({backs})")
        elif bettor_refusal(rules) is None and game.status is GameStatus.LOBBY:
            lines.append("A fifth person may press Bet to back one seat.")
        if game.status is GameStatus.LOBBY:
            level = level_label(await self.service.server_level(game.guild_id))
            lines.append(f"Join, then the host presses Start (empty seats get {level} bots, "
                         "this server's level: `/mj config` shows it).")
        else:
            lines.append(_LOBBY_STATUS[game.status])
        return "\n".join(lines)

    async def refresh_lobby(self, game_id: int) -> None:
        """Show the lobby message as the game is now: its buttons go once the game has left
        the lobby (started, aborted), so nobody presses Join on a table that is gone."""
        game = await self.service.records.game(game_id)
        if game.lobby_message_id is None:
            return
        message = self.get_partial_messageable(game.channel_id).get_partial_message(
            game.lobby_message_id)
        await message.edit(content=await self.lobby_text(game_id),
                           view=await self._lobby_view(game.id, game.status))

    async def _lobby_view(self, game_id: int, status: GameStatus) -> discord.ui.View | None:
        """The lobby's buttons while it is a lobby (Bet at tables that take a bettor)."""
        from bot.discord.commands import lobby_buttons

        if status is not GameStatus.LOBBY:
            return None
        game = await self.service.records.game(game_id)
        rules = read_table_options(game.rules).rules
        return lobby_buttons(game_id, await self.service.server_level(game.guild_id),
                             bettor=bettor_refusal(rules) is None)

    async def lobby_step(self, interaction: discord.Interaction[Any], game_id: int,
                         op: str, level: str | None = None) -> None:
        """Join, bet (then choose a seat, privately), leave, add a bot (of `level`, by
        default the server's) or start, then refresh the lobby message."""
        user = interaction.user
        if op == "join":
            await self.service.join(game_id, user.id, known_as(user))
        elif op == "bet":
            await self.service.join_as_bettor(game_id, user.id, known_as(user))
            await open_bet_menu(interaction, self, game_id)
        elif op == "leave":
            bettor = await self.service.records.bettor(game_id)
            if bettor is not None and bettor.user_id == user.id:
                await self.service.leave_bet(game_id, user.id)
            else:
                await self.service.leave(game_id, user.id)
        elif op == "bot":
            await self.service.add_bot(game_id, user.id, level)
        else:
            # /mj new shows the lobby before Discord has made the table's thread; a game
            # started before the thread is recorded would be posted in the channel.
            if (await self.service.records.game(game_id)).thread_id is None:
                raise IllegalAction("The table's thread is still being opened: press Start "
                                    "again in a moment.")
            await self.service.start_game(game_id, user.id)
        game = await self.service.records.game(game_id)
        await interaction.edit_original_response(
            content=await self.lobby_text(game_id),
            view=await self._lobby_view(game_id, game.status), allowed_mentions=NO_MENTIONS)


class ShardedJonggClient(JonggClient, discord.AutoShardedClient):
    """The bot running several of its shards in this process (`shard_plan.ids` of
    `shard_plan.count`): discord.py's AutoShardedClient connects one gateway session for
    each."""

    def __init__(self, database: str | Path, *, shard_plan: ShardPlan, **options: Any) -> None:
        super().__init__(database, shard_plan=shard_plan, shard_count=shard_plan.count,
                         shard_ids=list(shard_plan.ids), **options)


def make_client(database: str | Path, *, shard_plan: ShardPlan = ONE_SHARD,
                 **options: Any) -> JonggClient:
    """The client for `shard_plan`: the plain one for the bot's one shard (as the bot has
    always run), the sharded one otherwise. Options as for `JonggClient`."""
    if shard_plan.sharded:
        return ShardedJonggClient(database, shard_plan=shard_plan, **options)
    return JonggClient(database, shard_plan=shard_plan, **options)


#: The lobby message's last line once the game has left the lobby, by where it is.
_LOBBY_STATUS = {
    GameStatus.PLAYING: "The game is on: follow it in the thread.",
    GameStatus.FINISHED: "The game is over: the result is in the thread.",
    GameStatus.ABORTED: "This table was aborted. Open a new one with /mj new.",
}


class _Tree(app_commands.CommandTree[JonggClient]):
    """The command tree, answering every failed command privately and politely."""

    async def on_error(self, interaction: discord.Interaction[JonggClient],
                       error: app_commands.AppCommandError) -> None:
        """Show a player's error as it is; log anything else and apologize."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, app_commands.CheckFailure):
            cause = IllegalAction(str(cause))
        await answer_error(interaction, cause)
