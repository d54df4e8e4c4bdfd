"""What the table service's parts share: the games this process holds, the vacations that
pause their clocks, the clock loop's wake-up, and the means every part uses (the store, the
notifier's sender, the time, the bot factory).

The parts (`bot.tables.moves`, `clocks`, `presence`, `restore`, `lobby`, `handover`,
`player_settings`) keep no state of their own: everything a game's move, a clock or a
vacation changes is here, held once, so no part works from a stale copy of another's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.bots import Player
from bot.engine.cards import Card
from bot.engine.game import RuleSet
from bot.store import Database, StoreError
from bot.tables.delivery import Backoff, HeldGame, Sender
from bot.tables.errors import NOT_RUNNING, RESTARTING, NotRunning, Restarting
from bot.tables.levels import server_level
from bot.tables.live import AwayKey, LiveGame
from bot.tables.notifier import Notifier, Table
from bot.tables.outage import Outage

log = logging.getLogger(__name__)

#: Builds the bot for a seat: its level (`bot.bots.LEVELS`), the card, the rules and a
#: seed of its own.
BotFactory = Callable[[str, Card, RuleSet, int], Player]


class Registry:
    """The games one table service holds and what its parts share to drive them."""

    def __init__(self, db: Database, notifier: Notifier, *, now: Callable[[], float],
                 make_bot: BotFactory, new_seed: Callable[[], int], backoff: Backoff,
                 auto_delay: float, owns: Callable[[int], bool]) -> None:
        self.db = db
        self.notifier = notifier
        self.now = now
        self.make_bot = make_bot
        self.new_seed = new_seed
        #: Seconds every automatic answer waits at a table opened without a delay of its
        #: own (a server's, `bot.tables.server_config`), kept with the table: by default
        #: `bot.tables.service.DEFAULT_AUTO_DELAY`; 0 answers at once, as bots do (the
        #: terminal, where nobody reads the timing). A game stored before tables kept theirs
        #: plays with it too.
        self.auto_delay = auto_delay
        #: Whether a server's games are this process's to resume and to time (the bot's
        #: processes each run some of its Discord shards: `bot.discord.shards`).
        self.owns = owns
        #: Whether the database is out of reach, as the sender and the clocks last found.
        self.outage = Outage(backoff)
        self.sender = Sender(db, notifier, backoff, self.retire, self.outage)
        #: The games held in memory, by id.
        self.games: dict[int, LiveGame] = {}
        #: Vacations under way or planned, (user, season) -> (start, end): that user's clocks
        #: pause in the season's games meanwhile; (user, None) is a personal vacation, which
        #: pauses their casual tables opened to pause for vacations.
        self.away: dict[AwayKey, tuple[float, float]] = {}
        #: Set when a commit changes the clocks: the clock loop looks again at once.
        self.wake = asyncio.Event()
        #: Set by `TableService.close`: moves are refused from then on (`Restarting`).
        self.closing = False
        #: Moves begun and not yet done (`Moves.moving`), and set while there are none:
        #: `TableService.close` lets them finish.
        self.moves = 0
        self.no_moves = asyncio.Event()
        self.no_moves.set()
        #: Games of servers it does not own that the last `Clocks.run_due_clocks` found
        #: clocks due in.
        self.others_due = 0
        #: Finished games whose result waits for the database to answer again
        #: (`Moves._finish_saved`); stopped by `TableService.close`.
        self.finishing: set[asyncio.Task[None]] = set()

    def get(self, game_id: int) -> LiveGame:
        """The game in play as this process holds it (after `Moves.visit`, for reads)."""
        if self.closing:
            raise Restarting(RESTARTING)
        live = self.games.get(game_id)
        if live is None or live.closed:
            raise NotRunning(NOT_RUNNING)
        return live

    def bot(self, level: str, table: Table, seed: int, seat: int) -> Player:
        """The bot of `level` for a seat, with a seed of the seat's own."""
        return self.make_bot(level, table.card, table.rules, (seed * 8 + seat) % 2**63)

    async def server_level(self, guild_id: int) -> str:
        """The level of a server's bots: those that fill empty seats at Start and those that
        stand in for absent players (a timeout, a player who leaves)."""
        return server_level(await self.db.guilds.settings(guild_id))

    async def owned(self, game_id: int) -> bool:
        """Whether a game not held in memory is of a server this process `owns`."""
        return self.owns((await self.db.games.game(game_id)).guild_id)

    async def close(self, live: LiveGame) -> None:
        """The game is over (finished, timed out or aborted, as the store has it): it takes
        no more moves, and leaves memory once its messages are out."""
        live.closed = True
        if live.mail.task is None:
            await self.retire(live)

    async def retire(self, done: HeldGame) -> None:
        """A game that is over and delivered leaves memory; the store forgets what was sent."""
        game_id = done.table.game_id
        if self.games.get(game_id) is done:
            del self.games[game_id]
        try:
            await self.db.outbox.forget_sent(game_id)
        except StoreError:
            log.exception("could not tidy the outbox of game %s", game_id)
