"""What the store keeps of a game, read for the front ends: the game itself (where it lives,
its status and pace), who holds its seats, its bettor, its log, and the series it belongs
to. A front end reads these to word a lobby, a status or a result; it changes a game only
through the table service's moves and lobby.

The values are the store's (`Game`, `GameStatus`, …), re-exported here for the front ends.
"""

from __future__ import annotations

from bot.store import Action, Bettor, Game, GameNotFound, GameStatus, Seat
from bot.store.rows import INT64_MAX
from bot.tables.registry import Registry
from bot.tables.series import SeriesTotals, Settlement, league_table, series_totals

__all__ = ["Game", "GameStatus", "Records", "check_game", "possible_game"]


def possible_game(game_id: int) -> bool:
    """Whether a game may have this id: one the store can hold. Only a forged custom id
    carries another, which the store would take for a bug, not for a game not found."""
    return 0 < game_id <= INT64_MAX


def check_game(game_id: int) -> None:
    """Refuse a game id from outside (a custom id) that no game can have, as a game not
    found."""
    if not possible_game(game_id):
        raise GameNotFound(game_id)


class Records:
    """The stored record of the games, read."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    async def game(self, game_id: int, *, guild_id: int | None = None) -> Game:
        """The game with this id, or `GameNotFound`. Pass `guild_id` when the id came from a
        person (a command's option), so a game of another server is "not found"."""
        return await self.registry.db.games.game(game_id, guild_id=guild_id)

    async def in_thread(self, thread_id: int) -> Game | None:
        """The latest game played in this thread, if any."""
        return await self.registry.db.games.game_by_thread(thread_id)

    async def seats(self, game_id: int) -> dict[int, Seat]:
        """Who holds each seat now, by seat (open seats left out)."""
        return {seat.seat: seat for seat in await self.registry.db.seats.seats(game_id)}

    async def bettor(self, game_id: int) -> Bettor | None:
        """The game's bettor, if it has one."""
        return await self.registry.db.series.bettor(game_id)

    async def actions(self, game_id: int) -> list[Action]:
        """The game's log, in order."""
        return await self.registry.db.actions.actions(game_id)

    async def series_totals(self, game_id: int,
                            last: Settlement | None = None) -> SeriesTotals | None:
        """The running totals of the game's series through it (`series_totals`), None when
        it is in no series."""
        return await series_totals(self.registry.db, game_id, last)

    async def league_table(self, game: Game) -> bool:
        """Whether the game was played at a league's table, which never plays again."""
        return await league_table(self.registry.db, game)
