"""The table service: the one place the outside (the Discord app, the terminal game, the
tests) drives games through.

`TableService` is a facade: it wires the service's parts together and hands each call to the
part that owns it. They share one `Registry` (the games this process holds, the vacations that
pause their clocks, the clock loop's wake-up, the store and the sender) and keep no state of
their own:

- `bot.tables.moves`: the move pipeline every change to a game in play goes through (lock,
  load, apply, bots, one commit, release, send), whichever process makes it;
- `bot.tables.restore`: a game rebuilt from its log;
- `bot.tables.attendance`: who is there to move at a seat (bots, a person's own options, quiet
  hours and vacations pausing the clocks), and `bot.tables.clock_plan`: the clocks a moment
  needs;
- `bot.tables.clocks`: clocks acted on as they run out, and the clock loop;
- `bot.tables.presence`: vacations begun and ended, stand-ins seated and reclaimed;
- `bot.tables.lobby`: a table before play; `bot.tables.handover`: seats changing hands in play;
  `bot.tables.player_settings`: people's own options and their seats'.

The front ends reach three parts directly, for what they keep rather than for moves:
`servers` (`bot.tables.servers`: a server's settings and cards), `records`
(`bot.tables.records`: the stored games, read) and `settings` (people's DM channels).

The service knows nothing about Discord: the outside is a `Notifier`.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Collection

from bot.bots import Player, make_player
from bot.engine.cards import Card
from bot.engine.game import Action, Event, Phase, RuleSet, View, seats_to_act, spectator_view, view
from bot.store import Bettor, ClockKind, Database, Game, Season, Vacation
from bot.tables.attendance import Attendance
from bot.tables.clocks import Clocks
from bot.tables.delivery import DEFAULT_BACKOFF, Backoff, Sender
from bot.tables.handover import Handover
from bot.tables.levels import stored_levels
from bot.tables.lobby import Lobby
from bot.tables.moves import Moves
from bot.tables.notifier import Answer, Notifier, Table
from bot.tables.options import TableOptions
from bot.tables.outage import Outage
from bot.tables.player_settings import PlayerSettings
from bot.tables.presence import Presence
from bot.tables.records import Records
from bot.tables.registry import BotFactory, Registry
from bot.tables.restore import Restorer
from bot.tables.seat_options import SeatOptions
from bot.tables.series import SeriesTotals
from bot.tables.servers import Servers
from bot.tables.standins import StandIns
from bot.tables.vacation import VacationStatus
from bot.tables.waiting import SeatMoment

__all__ = ["DEFAULT_AUTO_DELAY", "BotFactory", "TableService", "every_guild", "level_bot",
           "random_seed"]


#: Seconds every automatic answer waits (a seat that can't call, or whose options skip every
#: call it could make, and the moves a seat's options play for it), counted from when the
#: moment began (the claim window opened, the turn started) and kept while others answer:
#: the same for every seat, so how long a claim window stays open reveals nothing about who
#: could call. About the time a person takes to glance and pass.
DEFAULT_AUTO_DELAY = 3.0


def random_seed() -> int:
    """A fresh seed for a new game's deal."""
    return random.SystemRandom().randrange(2**62)


def every_guild(guild_id: int) -> bool:
    """A process that runs every server (the bot's one shard): every game is its own."""
    return True


def level_bot(level: str, card: Card, rules: RuleSet, seed: int) -> Player:
    """The bot of a level (`bot.bots.LEVELS`), as people meet it at a table."""
    return make_player(level, card, rules.counts, seed)


class TableService:
    """Drives every game of one bot process, through the parts the module docstring names."""

    def __init__(self, db: Database, notifier: Notifier, *,
                 now: Callable[[], float] = time.time,
                 make_bot: BotFactory = level_bot,
                 new_seed: Callable[[], int] = random_seed,
                 backoff: Backoff = DEFAULT_BACKOFF,
                 auto_delay: float = DEFAULT_AUTO_DELAY,
                 owns: Callable[[int], bool] = every_guild) -> None:
        self.registry = Registry(db, notifier, now=now, make_bot=make_bot,
                                 new_seed=new_seed, backoff=backoff, auto_delay=auto_delay,
                                 owns=owns)
        self.attendance = Attendance(self.registry)
        self.moves = Moves(self.registry, self.attendance, Restorer(self.registry))
        self.presence = Presence(self.registry, self.moves, self.attendance)
        self.clocks = Clocks(self.registry, self.moves, self.attendance, self.presence)
        self.lobby = Lobby(self.registry, self.moves, self.attendance)
        self.settings = PlayerSettings(self.registry, self.moves, self.attendance)
        self.handover = Handover(self.registry, self.moves, self.settings)
        self.servers = Servers(self.registry)
        self.records = Records(self.registry)
        self._clock_task: asyncio.Task[None] | None = None

    @property
    def db(self) -> Database:
        """The store the games are kept in."""
        return self.registry.db

    @property
    def notifier(self) -> Notifier:
        """How the outside is told."""
        return self.registry.notifier

    @property
    def sender(self) -> Sender:
        """Delivers the games' outboxes."""
        return self.registry.sender

    @property
    def now(self) -> Callable[[], float]:
        """The service's clock."""
        return self.registry.now

    @property
    def auto_delay(self) -> float:
        """Seconds an automatic answer waits at a table opened without a delay of its own."""
        return self.registry.auto_delay

    @property
    def new_seed(self) -> Callable[[], int]:
        """Where new games' seeds come from."""
        return self.registry.new_seed

    @new_seed.setter
    def new_seed(self, new_seed: Callable[[], int]) -> None:
        self.registry.new_seed = new_seed

    @property
    def outage(self) -> Outage:
        """Whether the database is out of reach, as the sender and the clocks last found."""
        return self.registry.outage

    @property
    def others_due(self) -> int:
        """Games of servers this process does not own that the last `run_due_clocks` found
        clocks due in."""
        return self.registry.others_due

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self, *, run_clocks: bool = True) -> int:
        """Rebuild every unfinished game from its log, resume every game's undelivered
        messages (finished games' too) and start the clock loop; returns how many unfinished
        games were restored. Only the games of servers this process `owns`: another
        process runs the others."""
        restored = 0
        # The vacations under way when the soonest of this process's clocks still to act on
        # ran out, not only now: a claim window that ran out while the bot was down, on a
        # player away then, is theirs to pass, not a timeout, and a vacation that ended
        # meanwhile is still to be told over (`Attendance.away_edges`).
        since = self.now()
        for clock in await self.db.clocks.due_clocks(since):
            if clock.due_at < since and await self.registry.owned(clock.game_id):
                since = clock.due_at
                break  # soonest first
        for vacation in await self.db.vacations.under_way(since):
            self.registry.away[(vacation.user_id, vacation.season_id)] = (
                vacation.started_at, vacation.end())
        started = [game.id for game in await self.db.games.unfinished_games()
                   if game.started_at is not None and self.registry.owns(game.guild_id)]
        for game_id in started:
            restored += await self.moves.try_restore(game_id)
        for game_id in await self.db.outbox.games_with_pending():
            if (game_id not in self.registry.games and game_id not in started
                    and await self.registry.owned(game_id)):
                await self.moves.try_restore(game_id)
        if run_clocks:
            self._clock_task = asyncio.create_task(self.clocks.loop(), name="jongg-clocks")
        return restored

    async def close(self, grace: float = 5.0) -> None:
        """Refuse new moves, stop the clock loop, let the moves under way finish (each is
        committed and its messages queued), then let the senders deliver for up to `grace`
        seconds what goes out without a retry, and stop them. Nothing is lost: a move
        refused here was never applied, and what is not confirmed stays in the outbox for
        the next start (sent with the same keys, so what did go out is not shown twice)."""
        self.registry.closing = True
        if self._clock_task is not None:
            self._clock_task.cancel()
            await asyncio.gather(self._clock_task, return_exceptions=True)
            self._clock_task = None
        await self.registry.no_moves.wait()  # a move is done once its entries are queued
        for waiting in self.registry.finishing:  # the next start finishes those games
            waiting.cancel()
        await asyncio.gather(*self.registry.finishing, return_exceptions=True)
        await self.registry.sender.stop(list(self.registry.games.values()), grace)

    async def flush(self, game_id: int) -> None:
        """Wait until the game's sender has nothing left to deliver (after retries)."""
        live = self.registry.games.get(game_id)
        if live is not None:
            await live.mail.idle.wait()

    def in_play(self, game_id: int) -> bool:
        """Whether the game is being played (not over, aborted or unknown)."""
        live = self.registry.games.get(game_id)
        return live is not None and not live.closed

    # -- the lobby (`bot.tables.lobby`) ------------------------------------------------------

    async def open_table(self, *, guild_id: int, channel_id: int, host_id: int,
                         host_name: str, options: TableOptions,
                         thread_id: int | None = None, seed: int | None = None) -> Game:
        """Create a game in the lobby with the host in East's seat (`Lobby.open_table`)."""
        return await self.lobby.open_table(guild_id=guild_id, channel_id=channel_id,
                                           host_id=host_id, host_name=host_name,
                                           options=options, thread_id=thread_id, seed=seed)

    async def placed(self, game_id: int, *, thread_id: int, lobby_message_id: int) -> None:
        """Record where the table was posted (`Lobby.placed`)."""
        await self.lobby.placed(game_id, thread_id=thread_id, lobby_message_id=lobby_message_id)

    async def check_teaching(self, guild_id: int, channel_id: int) -> None:
        """Refuse (`IllegalAction`) a teaching table where it can't be opened."""
        await self.lobby.check_teaching(guild_id, channel_id)

    async def join(self, game_id: int, user_id: int, name: str) -> int:
        """Seat a player in the first free seat; returns the seat."""
        return await self.lobby.join(game_id, user_id, name)

    async def leave(self, game_id: int, user_id: int) -> None:
        """Take a player out of the lobby."""
        await self.lobby.leave(game_id, user_id)

    async def add_bot(self, game_id: int, by_user: int, level: str | None = None) -> int:
        """The host seats a bot of `level` (by default the server's); returns the seat."""
        return await self.lobby.add_bot(game_id, by_user, level)

    async def stored_levels(self, game_id: int) -> dict[int, str]:
        """The level of each bot seat's bot as the store has it, by seat (a bot seated
        before levels existed plays at the default level): what the lobby shows and what a
        restart resumes."""
        return await stored_levels(self.db, game_id)

    async def server_level(self, guild_id: int) -> str:
        """The level of a server's bots: those that fill empty seats at Start and those that
        stand in for absent players (a timeout, a player who leaves)."""
        return await self.registry.server_level(guild_id)

    async def set_server_level(self, guild_id: int, level: str, by_user: int, *,
                               manager: bool) -> str:
        """A server manager chooses the server's bot level (`Lobby.set_server_level`)."""
        return await self.lobby.set_server_level(guild_id, level, by_user, manager=manager)

    async def start_game(self, game_id: int, by_user: int) -> Table:
        """The host starts play; empty seats get bots (`Lobby.start_game`)."""
        return await self.lobby.start_game(game_id, by_user)

    async def join_as_bettor(self, game_id: int, user_id: int, name: str) -> Bettor:
        """A fifth person sits by a four-player table in the lobby as its bettor."""
        return await self.lobby.join_as_bettor(game_id, user_id, name)

    async def leave_bet(self, game_id: int, user_id: int) -> None:
        """The bettor leaves the lobby."""
        await self.lobby.leave_bet(game_id, user_id)

    async def choose_bet(self, game_id: int, user_id: int, seat: int) -> Table | None:
        """The bettor chooses the seat to back (`Lobby.choose_bet`)."""
        return await self.lobby.choose_bet(game_id, user_id, seat)

    async def play_again(self, game_id: int, by_user: int) -> tuple[Game, Table | None]:
        """The host plays the next game of a finished game's series (`Lobby.play_again`)."""
        return await self.lobby.play_again(game_id, by_user)

    async def end_series(self, game_id: int, by_user: int) -> SeriesTotals:
        """The host ends a finished game's series (`Lobby.end_series`)."""
        return await self.lobby.end_series(game_id, by_user)

    # -- play (`bot.tables.moves`) -----------------------------------------------------------

    def table(self, game_id: int) -> Table:
        """The table of a game in play."""
        return self.registry.get(game_id).table

    def seat_of(self, game_id: int, user_id: int) -> int:
        """The seat this user holds in a game in play; `NotSeated` if none."""
        return self.registry.get(game_id).held_seat(user_id)

    def view_for(self, game_id: int, user_id: int) -> View:
        """The view of the seat this user holds (for "My rack" and slash commands)."""
        live = self.registry.get(game_id)
        return view(live.state, live.held_seat(user_id))

    def seat_moment(self, game_id: int, user_id: int) -> SeatMoment:
        """Where the seat this user holds in a game in play stands now (after `visit`), for
        the list of their games (`bot.tables.waiting`): their view, whether they are asked
        (they must act, and neither a bot nor their own options answer for them), when that
        move falls due by the clocks the store keeps (this copy holds them as they are
        stored), and since when their options have been what they are."""
        live = self.registry.get(game_id)
        seat = live.held_seat(user_id)
        state = live.state
        asked = (seat in seats_to_act(state) and not live.played_by_bot(seat)
                 and self.attendance.automatic(live, seat) is None)
        clocks = [(ClockKind.CLAIM, None)] if state.phase is Phase.CLAIM else []
        due = next((live.clocks[key] for key in [*clocks, (ClockKind.TURN, seat)]
                    if key in live.clocks), None)
        return SeatMoment(live.table, view(state, seat), asked, due if asked else None,
                          live.options.since[seat], live.stand_ins.stood_in(seat),
                          seat in live.dm_closed)

    def prompt_view(self, game_id: int, user_id: int, counter: int) -> View:
        """The view behind a prompt made for this user at action count `counter`, after
        checking it still shows their options (for a control that opens more of a prompt)."""
        live = self.registry.get(game_id)
        return view(live.state, live.prompt_seat(user_id, counter))

    def spectator(self, game_id: int) -> View:
        """What anyone may see of a game in play."""
        return spectator_view(self.registry.get(game_id).state)

    async def visit(self, game_id: int) -> None:
        """Make this process's copy of a game in play the store's before the outside reads
        it (`Moves.visit`)."""
        await self.moves.visit(game_id)

    async def act(self, game_id: int, user_id: int,
                  action: Action | str | Callable[[int], Action],
                  counter: int | None = None, *,
                  answer: Answer | None = None) -> tuple[Event, ...]:
        """Apply a player's action (`Moves.act`); a move that ends their vacation lets
        their other games run again too."""
        events, back = await self.moves.act(game_id, user_id, action, counter, answer=answer)
        await self.presence.back_elsewhere(back)
        return events

    async def act_option(self, game_id: int, user_id: int, counter: int,
                         index: int) -> tuple[Action, tuple[Event, ...]]:
        """Apply the option at `index` of the user's legal options at action count `counter`
        (what a button carries); returns the action and its events."""
        action, events, back = await self.moves.act_option(game_id, user_id, counter, index)
        await self.presence.back_elsewhere(back)
        return action, events

    def is_current(self, game_id: int, user_id: int, counter: int) -> bool:
        """Whether a prompt made for this user at action count `counter` still shows their
        options (other seats' answers in the same Charleston pass or claim window do not
        change them)."""
        return self.registry.get(game_id).is_current(user_id, counter)

    # -- clocks (`bot.tables.clocks`) --------------------------------------------------------

    async def run_due_clocks(self, now: float | None = None) -> int:
        """Act on every clock of this process's games that has run out
        (`Clocks.run_due_clocks`); returns how many acted."""
        return await self.clocks.run_due_clocks(now)

    # -- seats in play (`bot.tables.handover`) and options (`bot.tables.player_settings`) ----

    async def check_manages(self, game_id: int, user_id: int, *, manager: bool) -> Game:
        """The game, if this person may hand its seats over or abort it
        (`Handover.check_manages`)."""
        return await self.handover.check_manages(game_id, user_id, manager=manager)

    async def resign(self, game_id: int, user_id: int) -> int:
        """A player leaves a game in play; a bot of the server's level takes the seat.
        Returns the seat."""
        return await self.handover.resign(game_id, user_id)

    async def replace_seat(self, game_id: int, by_user: int, seat: int, user_id: int | None,
                           name: str, *, manager: bool = False,
                           bot_account: bool = False) -> None:
        """The host (or a server manager) gives a seat to another person, or to a bot
        (`Handover.replace_seat`)."""
        await self.handover.replace_seat(game_id, by_user, seat, user_id, name,
                                        manager=manager, bot_account=bot_account)

    async def abort(self, game_id: int, by_user: int, *, manager: bool = False) -> None:
        """End a game without a result (the host, or a server manager)."""
        await self.handover.abort(game_id, by_user, manager=manager)

    async def mark_dm_closed(self, game_id: int, seat: int) -> bool:
        """Record that a seat's DMs are closed; True the first time."""
        return await self.handover.mark_dm_closed(game_id, seat)

    async def seat_options(self, game_id: int, user_id: int) -> SeatOptions:
        """The options of the seat this user holds (in the lobby or in play)."""
        return await self.settings.seat_options(game_id, user_id)

    async def set_seat_options(self, game_id: int, user_id: int,
                               options: SeatOptions) -> SeatOptions:
        """Keep the options of the seat this user holds (`PlayerSettings.set_seat_options`)."""
        return await self.settings.set_seat_options(game_id, user_id, options)

    async def player_options(self, user_id: int | None) -> SeatOptions:
        """A person's own options (`/mj settings`); the defaults for a bot (None)."""
        return await self.settings.player_options(user_id)

    async def set_player_options(self, user_id: int, options: SeatOptions) -> SeatOptions:
        """Keep a person's own options (`PlayerSettings.set_player_options`)."""
        return await self.settings.set_player_options(user_id, options)

    # -- stand-ins and vacations (`bot.tables.presence`) -------------------------------------

    async def reclaim(self, game_id: int, user_id: int, seat: int | None = None) -> int:
        """A person takes back their seat from the bot standing in for them
        (`Presence.reclaim`). Returns the seat."""
        return await self.presence.reclaim(game_id, user_id, seat)

    async def away_at_table(self, guild_id: int, channel_id: int, users: Collection[int],
                            *, personal: bool = False) -> dict[int, float]:
        """Which of a lobby's people are on vacation now, and until when
        (`Presence.away_at_table`)."""
        return await self.presence.away_at_table(guild_id, channel_id, users,
                                                 personal=personal)

    async def vacation(self, user_id: int, season: Season | None) -> VacationStatus:
        """The player's vacation budget in the season, or their personal vacations (None)."""
        return await self.presence.vacation(user_id, season)

    async def start_vacation(self, user_id: int, season: Season | None, *,
                             start: float | None = None, days: int | None = None
                             ) -> VacationStatus:
        """Start the player's vacation in the season (None: a personal one), now or planned
        (`Presence.start_vacation`)."""
        return await self.presence.start_vacation(user_id, season, start=start, days=days)

    async def end_vacation(self, user_id: int, season: Season | None) -> VacationStatus:
        """End the player's vacation now, or cancel one planned (`Presence.end_vacation`)."""
        return await self.presence.end_vacation(user_id, season)

    async def change_vacation_budget(self, league_id: int, days: int, *, by: int,
                                     reason: str) -> tuple[Season, list[Vacation]]:
        """A director changes the open season's vacation budget
        (`Presence.change_vacation_budget`)."""
        return await self.presence.change_vacation_budget(league_id, days, by=by,
                                                          reason=reason)

    def dm_closed(self, game_id: int, seat: int) -> bool:
        """Whether the seat's holder is known to refuse DMs (they play through "My rack")."""
        live = self.registry.games.get(game_id)
        return live is not None and seat in live.dm_closed

    def stand_ins(self, game_id: int) -> StandIns:
        """Each seat's timeouts in a row in a running game, and which seats a bot keeps."""
        return self.registry.get(game_id).stand_ins

    def bot_seats(self, game_id: int) -> tuple[int, ...]:
        """Seats played by bots in a running game."""
        return tuple(sorted(self.registry.get(game_id).bots))

    def bot_levels(self, game_id: int) -> dict[int, str]:
        """The level of each bot seat's bot in a running game, by seat."""
        return dict(self.registry.get(game_id).levels)
