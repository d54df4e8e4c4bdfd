"""A table before play and between games: opened and posted, seats taken and left, bots
seated, the bettor's seat chosen, play started, and a series' next game or its end.

Nothing here is a move until the host starts play: the lobby lives in the store alone, so
any process can answer its buttons. Starting play is the game's first move (`Moves.moving`):
the deal's events are reported like any other.
"""

from __future__ import annotations

from dataclasses import replace

from bot.engine.errors import IllegalAction
from bot.engine.game.bettor import bettor_refusal, check_bet
from bot.league.tournament import game_deadline
from bot.server_cards import playable_matcher
from bot.store import Bettor, ClockKind, Game, ServerCardChoice, ShippedCardChoice
from bot.tables.attendance import Attendance
from bot.tables.errors import NotSeated
from bot.tables.levels import read_level, server_level
from bot.tables.moves import Moves
from bot.tables.notifier import Table
from bot.tables.options import TableOptions, read_table_options
from bot.tables.registry import Registry
from bot.tables.series import SeriesTotals, end_series, next_game
from bot.tables.server_config import ConfigChange, change_settings
from bot.tables.teaching import teaching_refusal
from bot.tables.vacation import away_note


def _bot_name(number: int) -> str:
    """What the table calls its `number`-th bot."""
    return f"Bot {number}"


class Lobby:
    """Opens tables, seats people and bots before play, and starts it."""

    def __init__(self, registry: Registry, moves: Moves, attendance: Attendance) -> None:
        self.registry = registry
        self.moves = moves
        self.attendance = attendance

    async def open_table(self, *, guild_id: int, channel_id: int, host_id: int,
                         host_name: str, options: TableOptions,
                         thread_id: int | None = None, seed: int | None = None) -> Game:
        """Create a game in the lobby with the host in East's seat (a seed from `new_seed`
        unless one is given, for replays and tests)."""
        # Refuse a card that can't be played before anything is stored; it is compiled in
        # a worker, ready for Start.
        await playable_matcher(options.card_name, options.card_text, options.rules.counts)
        if options.teaching:
            await self.check_teaching(guild_id, channel_id)
        pace = options.clocks()
        if options.auto_delay is None:  # the table keeps the delay it opens with
            options = replace(options, auto_delay=self.registry.auto_delay)
        game = await self.registry.db.games.create_game(
            guild_id=guild_id, channel_id=channel_id, host_user_id=host_id,
            rules=options.to_json(),
            card=(ShippedCardChoice(options.card_name, options.card_text)
                  if options.server_card_id is None
                  else ServerCardChoice(options.server_card_id)),
            seed=self.registry.new_seed() if seed is None else seed,
            pace=pace, hints=options.hints,
            thread_id=thread_id)
        await self.registry.db.seats.add_seat(game.id, 0, user_id=host_id, display_name=host_name)
        return game

    async def placed(self, game_id: int, *, thread_id: int, lobby_message_id: int) -> None:
        """Where the table was posted: its thread (play is told there) and its lobby message
        (shown again as the lobby changes)."""
        await self.registry.db.games.set_thread(game_id, thread_id)
        await self.registry.db.games.set_lobby_message(game_id, lobby_message_id)

    async def check_teaching(self, guild_id: int, channel_id: int) -> None:
        """Refuse (`IllegalAction`, saying why) a teaching table where it can't be opened:
        in a league's channel, or on a server that doesn't allow them."""
        refusal = await teaching_refusal(self.registry.db, guild_id, channel_id)
        if refusal is not None:
            raise IllegalAction(refusal)

    async def join(self, game_id: int, user_id: int, name: str) -> int:
        """Seat a player in the first free seat (not the bettor: the store refuses them);
        returns the seat."""
        game = await self.registry.db.games.game(game_id)
        rules = read_table_options(game.rules).rules
        seat = await self.registry.db.seats.take_seat(game_id, rules.players, user_id=user_id,
                                                      display_name=name)
        return seat.seat

    async def leave(self, game_id: int, user_id: int) -> None:
        """Take a player out of the lobby."""
        for seat in await self.registry.db.seats.seats(game_id):
            if seat.user_id == user_id:
                await self.registry.db.seats.remove_seat(game_id, seat.seat)
                return
        raise NotSeated("You're not at this table.")

    async def add_bot(self, game_id: int, by_user: int, level: str | None = None) -> int:
        """The host seats a bot of `level` (by default the server's) in the first free
        seat; returns the seat. `InvalidInput` for a level that is not one."""
        game = await self._hosted(game_id, by_user)
        rules = read_table_options(game.rules).rules
        chosen = (await self.registry.server_level(game.guild_id) if level is None
                  else read_level(level))
        bots = sum(seat.is_bot for seat in await self.registry.db.seats.seats(game_id))
        seat = await self.registry.db.seats.take_seat(game_id, rules.players, user_id=None,
                                                      display_name=_bot_name(bots + 1),
                                                      bot_level=chosen)
        return seat.seat

    async def set_server_level(self, guild_id: int, level: str, by_user: int, *,
                               manager: bool) -> str:
        """A server manager chooses the server's bot level (kept in its audit log); it
        applies to bots seated and stand-ins made from then on. Returns the level."""
        settings = await change_settings(self.registry.db, guild_id, ConfigChange(bot_level=level),
                                         by_user, manager=manager)
        return server_level(settings)

    async def start_game(self, game_id: int, by_user: int) -> Table:
        """The host starts play; empty seats get bots. A bettor must have chosen a seat."""
        game = await self._hosted(game_id, by_user)
        rules = read_table_options(game.rules).rules
        bettor = await self.registry.db.series.bettor(game_id)
        if bettor is not None and bettor.seat is None:
            raise IllegalAction(f"{bettor.display_name}, the bettor, hasn't chosen a seat "
                                "to back yet.")
        # A lobby opened before its card broke a limit is refused before anything changes.
        await playable_matcher(game.card.name, game.card.text, rules.counts)
        level = await self.registry.server_level(game.guild_id)
        await self.registry.db.games.start_game(game_id, rules.players, bot_name=_bot_name,
                                                bot_level=level)
        limit = await game_deadline(self.registry.db, game_id)
        if limit is not None:
            await self.registry.db.clocks.set_clock(game_id, ClockKind.GAME_LIMIT, seat=None,
                                                    due_at=limit, at_seq=0)
        async with self.moves.moving(game_id) as live:
            now = self.registry.now()
            live.said.extend(away_note(away[1]).format(name=live.table.names[seat])
                             for seat, away in self.attendance.vacations(live).items()
                             if away[0] <= now)
            await self.moves.settle(live, live.state.opening, new_turn=True)
        return live.table

    async def join_as_bettor(self, game_id: int, user_id: int, name: str) -> Bettor:
        """A fifth person sits by a four-player table in the lobby as its bettor."""
        game = await self.registry.db.games.game(game_id)
        rules = read_table_options(game.rules).rules
        refusal = bettor_refusal(rules)
        if refusal is not None:
            raise IllegalAction(refusal)
        return await self.registry.db.series.add_bettor(game_id, user_id, name)

    async def leave_bet(self, game_id: int, user_id: int) -> None:
        """The bettor leaves the lobby."""
        await self.registry.db.series.remove_bettor(game_id, user_id)

    async def choose_bet(self, game_id: int, user_id: int, seat: int) -> Table | None:
        """The bettor chooses the seat to back, before play. A series' next game, whose
        seats are all held, starts as soon as its bettor has chosen (its table is
        returned); a first game waits for its host's Start."""
        game = await self.registry.db.games.game(game_id)
        rules = read_table_options(game.rules).rules
        check_bet(rules, seat)
        await self.registry.db.series.set_bet(game_id, user_id, seat)
        series = await self.registry.db.series.series_of(game_id)
        if series is None or series.games[0] == game_id:
            return None
        return await self.start_game(game_id, game.host_user_id)

    async def play_again(self, game_id: int, by_user: int) -> tuple[Game, Table | None]:
        """The host plays the next game of a finished game's series (see
        `bot.tables.series`): it starts at once, or, with a bettor, once the bettor has
        chosen a seat. Returns the new game and its table when it started."""
        game = await next_game(self.registry.db, game_id, by_user, self.registry.new_seed())
        if await self.registry.db.series.bettor(game.id) is not None:
            return game, None
        return game, await self.start_game(game.id, by_user)

    async def end_series(self, game_id: int, by_user: int) -> SeriesTotals:
        """The host ends the series of a finished game (`bot.tables.series.end_series`);
        returns its totals."""
        return await end_series(self.registry.db, game_id, by_user)

    async def _hosted(self, game_id: int, user_id: int) -> Game:
        """The game, if this person is its host; `IllegalAction` for anyone else."""
        game = await self.registry.db.games.game(game_id)
        if game.host_user_id != user_id:
            raise IllegalAction("Only the table's host can do that.")
        return game
