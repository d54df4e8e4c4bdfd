"""A person's own options (`/mj settings`) and the options of the seats they hold: kept in
the store, and taken by a game in play from its seat's next prompt. Also the DM channel each
person is written to, kept with their options so every process sharing the store finds it.

Options in play are a move (`Moves.moving`): new quiet hours or a new time zone move the
seat's running clocks, keeping the time they had left (`Attendance.retime`), and options that
answer the moment the seat is at answer it.
"""

from __future__ import annotations

import contextlib

from bot.engine.errors import IllegalAction
from bot.store import GameStatus
from bot.tables.attendance import Attendance
from bot.tables.errors import NotRunning, NotSeated
from bot.tables.moves import Moves
from bot.tables.registry import Registry
from bot.tables.seat_options import SeatOptions


class PlayerSettings:
    """Keeps people's own options and their seats' options, and applies them in play."""

    def __init__(self, registry: Registry, moves: Moves, attendance: Attendance) -> None:
        self.registry = registry
        self.moves = moves
        self.attendance = attendance

    async def seat_options(self, game_id: int, user_id: int) -> SeatOptions:
        """The options of the seat this user holds (in the lobby or in play)."""
        live = self.registry.games.get(game_id)
        if live is not None and not live.closed:
            return live.table.options_of(self.registry.get(game_id).held_seat(user_id))
        seat = await self._stored_seat(game_id, user_id)
        kept = await self.registry.db.seats.options(game_id)
        return SeatOptions.from_json(kept.get(seat, "{}"))

    async def _stored_seat(self, game_id: int, user_id: int) -> int:
        """The seat this user holds, as the store has it (for a game not in memory)."""
        seats = await self.registry.db.seats.seats(game_id)
        held = [s.seat for s in seats if s.user_id == user_id]
        if not held:
            raise NotSeated("You're not at this table.")
        return held[0]

    async def set_seat_options(self, game_id: int, user_id: int,
                               options: SeatOptions) -> SeatOptions:
        """Keep the options of the seat this user holds (in the lobby or in play); they
        shape the seat's prompts from its next one, and answer for it now if they answer
        the moment it is at. Returns them. A game that is over (finished or aborted) has no
        next prompt, so it is refused (`IllegalAction`) and nothing is kept."""
        try:
            async with self.moves.moving(game_id) as live:
                seat = self.registry.get(game_id).held_seat(user_id)
                await self.registry.db.seats.set_options(game_id, seat, options.to_json())
                before = self.attendance.pauses(live, seat)
                live.table = live.table.with_options(seat, options)
                # New quiet hours (or zone) move a clock already running: it keeps the
                # time it had left.
                self.attendance.retime(live, seat, before)
                await self.moves.settle(live, ())
            return options
        except NotRunning:  # a lobby: the options wait in the store for the start
            pass
        game = await self.registry.db.games.game(game_id)
        if game.status in (GameStatus.FINISHED, GameStatus.ABORTED):
            raise IllegalAction(f"Table {game_id} is over, so there is no next prompt for "
                                "this to change. Your own settings for future games are in "
                                "`/mj settings`.")
        seat = await self._stored_seat(game_id, user_id)
        await self.registry.db.seats.set_options(game_id, seat, options.to_json())
        return options

    async def player_options(self, user_id: int | None) -> SeatOptions:
        """A person's own options (`/mj settings`), kept across games and servers; the
        defaults for a person who never set them, and for a bot (`user_id` None)."""
        if user_id is None:
            return SeatOptions()
        kept = await self.registry.db.players.options(user_id)
        return SeatOptions() if kept is None else SeatOptions.from_json(kept)

    async def dm_channel(self, user_id: int) -> int | None:
        """The person's DM channel with the bot, if a process sharing the store opened it."""
        return await self.registry.db.players.dm_channel(user_id)

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Keep the person's DM channel with the bot, for every process sharing the store."""
        await self.registry.db.players.set_dm_channel(user_id, channel_id)

    async def set_player_options(self, user_id: int, options: SeatOptions) -> SeatOptions:
        """Keep a person's own options. Every seat they hold in a game in play takes them
        too, from its next prompt (and keeps them, as its own, through a restart), whichever
        process holds the game; games started later begin with them. Returns them."""
        await self.registry.db.players.set_options(user_id, options.to_json())
        for game_id in await self.registry.db.seats.games_in_play(user_id):
            with contextlib.suppress(NotRunning, NotSeated):  # over, or left, meanwhile
                await self.set_seat_options(game_id, user_id, options)
        return options
