"""Who holds each seat of a game in play: a player resigning, the host (or a server manager)
handing a seat to someone else or to a bot, the host ending the game, and a holder whose DMs
are closed.

A seat handed over is a move (`Moves.moving`): the new holder starts from a clean count of
timeouts and their own options, and the store keeps the bot's level so a restart resumes the
same bot.
"""

from __future__ import annotations

from dataclasses import replace

from bot.engine.errors import IllegalAction, InvalidInput
from bot.store import Game
from bot.tables.errors import NotRunning
from bot.tables.moves import Moves
from bot.tables.player_settings import PlayerSettings
from bot.tables.registry import Registry


def _bot_for(holder: str) -> str:
    """The name of a bot given a person's seat in play (resigned, or handed on by the
    host): it says whose seat it plays."""
    return f"Bot (for {holder})"


class Handover:
    """Seats changing hands in play, and the game ended by its host."""

    def __init__(self, registry: Registry, moves: Moves, settings: PlayerSettings) -> None:
        self.registry = registry
        self.moves = moves
        self.settings = settings

    async def check_manages(self, game_id: int, user_id: int, *, manager: bool) -> Game:
        """The game, if this person may hand its seats over or abort it: its host, or (with
        `manager`) someone who manages the server, so a table whose host left can be
        repaired. Raises `IllegalAction` for anyone else."""
        game = await self.registry.db.games.game(game_id)
        if game.host_user_id != user_id and not manager:
            raise IllegalAction("Only the table's host or a server manager can do that.")
        return game

    async def resign(self, game_id: int, user_id: int) -> int:
        """A player leaves a game in play; a bot of the server's level takes the seat.
        Returns the seat."""
        await self.moves.visit(game_id)
        live = self.registry.get(game_id)
        seat = live.held_seat(user_id)
        await self._hand_over(game_id, seat, None, _bot_for(live.table.names[seat]))
        return seat

    async def replace_seat(self, game_id: int, by_user: int, seat: int, user_id: int | None,
                           name: str, *, manager: bool = False,
                           bot_account: bool = False) -> None:
        """The host (or a server manager) gives a seat to another person, or to a bot of
        the server's level (`user_id` None; it is named after the seat's holder, as a
        resigned seat's bot is). `bot_account`: `user_id` is some other program's account
        (a Discord bot), which is refused: it would never answer its prompts, and the
        table's own bots are seated by level."""
        await self.check_manages(game_id, by_user, manager=manager)
        if bot_account:
            raise IllegalAction(f"{name} is a bot account, so it can't take a seat: only "
                                "people can. To have one of the table's own bots play it "
                                "(at the server's level), name me in `/mj sub` instead.")
        await self.moves.visit(game_id)
        live = self.registry.get(game_id)
        if not 0 <= seat < live.table.rules.players:
            raise InvalidInput(f"There is no seat {seat + 1} at this table.")
        if user_id is None:
            if live.table.user_ids[seat] is None:
                raise IllegalAction(f"A bot already plays seat {seat + 1}.")
            name = _bot_for(live.table.names[seat])
        if user_id is not None and live.table.seat_of(user_id) is not None:
            raise IllegalAction(f"{name} already has a seat at this table.")
        if user_id is not None and user_id == live.table.bettor_id:
            raise IllegalAction(f"{name} is this game's bettor and backs one of its seats, so "
                                "can't play one too.")
        await self._hand_over(game_id, seat, user_id, name)

    async def _hand_over(self, game_id: int, seat: int, user_id: int | None,
                         name: str) -> None:
        """Give a seat in play to a person, or (`user_id` None) to a bot of the server's
        level, kept with the seat so a restart resumes the same bot."""
        async with self.moves.moving(game_id) as live:
            level = (None if user_id is not None
                     else await self.registry.server_level(live.table.guild_id))
            await self.registry.db.seats.replace_seat(live.table.game_id, seat,
                                                      user_id=user_id, display_name=name,
                                                      bot_level=level)
            table = live.table
            names = list(table.names)
            users = list(table.user_ids)
            names[seat], users[seat] = name, user_id
            live.dm_closed.discard(seat)  # the new holder's DMs are not known to be closed
            # ... nor have they timed out (the store's new holding says so already).
            live.stand_ins = live.saved_stand_ins = live.stand_ins.back(seat)
            # ... and they start from their own options (a bot from the defaults).
            own = await self.settings.player_options(user_id)
            live.table = replace(table, names=tuple(names), user_ids=tuple(users)
                                 ).with_options(seat, own)
            if level is not None:
                live.bots[seat] = self.registry.bot(level, live.table, live.state.seed, seat)
                live.levels[seat] = level
            else:
                live.bots.pop(seat, None)
                live.levels.pop(seat, None)
            await self.moves.settle(live, (), new_turn=True)

    async def abort(self, game_id: int, by_user: int, *, manager: bool = False) -> None:
        """End a game without a result (the host, or a server manager)."""
        await self.check_manages(game_id, by_user, manager=manager)
        try:
            async with self.moves.moving(game_id) as live:
                await self.registry.db.games.abort_game(game_id)
                await self.registry.close(live)  # what it owes still goes out
        except NotRunning:  # a lobby (or a game over, which the store refuses to abort)
            await self.registry.db.games.abort_game(game_id)

    async def mark_dm_closed(self, game_id: int, seat: int) -> bool:
        """Record that a seat's DMs are closed; True the first time (so the table is told
        once)."""
        live = self.registry.games.get(game_id)
        if live is None or seat in live.dm_closed:
            return False
        live.dm_closed.add(seat)
        await self.registry.db.seats.set_dm_closed(game_id, seat, True)
        return True
