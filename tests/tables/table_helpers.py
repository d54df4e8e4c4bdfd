"""What the table service tests share: a recording notifier, first-option bots, a clock the
tests move, and tables opened and played through the service."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.engine.game import THREE_PLAYER, Action, Option, RuleSet, View
from bot.engine.game.rules import rules_to_json
from bot.library import shipped_card_paths
from bot.store import Database, SeasonSettings
from bot.tables.delivery import DEFAULT_BACKOFF, Backoff
from bot.tables.notifier import Delivery, SeatUpdate, Table, TableUpdate
from bot.tables.options import TableOptions
from bot.tables.reminders import Reminder
from bot.tables.service import DEFAULT_AUTO_DELAY, TableService, every_guild

CARD_PATH = next(p for p in shipped_card_paths() if p.name == "jongg-original.jongg")
CARD_TEXT = CARD_PATH.read_text()
HOST, ANN, BO, CY = 1001, 1002, 1003, 1004


class FirstOption:
    """A bot that plays the first legal option: simple and deterministic."""

    def choose(self, view: View, options: Sequence[Option]) -> Action:
        return options[0].action


@dataclass
class Recorder:
    """A notifier that keeps every call."""

    tables: list[TableUpdate] = field(default_factory=list)
    seats: list[tuple[int, SeatUpdate]] = field(default_factory=list)
    over: list[View] = field(default_factory=list)
    reminders: list[tuple[int, Reminder]] = field(default_factory=list)

    async def table_update(self, table: Table, update: TableUpdate,
                           delivery: Delivery) -> None:
        self.tables.append(update)

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate,
                          delivery: Delivery) -> None:
        self.seats.append((seat, update))

    async def game_over(self, table: Table, view: View, delivery: Delivery) -> None:
        self.over.append(view)

    async def reminder(self, table: Table, seat: int, reminder: Reminder,
                       delivery: Delivery) -> None:
        self.reminders.append((seat, reminder))

    async def new_thread(self, table: Table) -> int | None:
        return None

    async def table_moved(self, table: Table, delivery: Delivery) -> None:
        raise AssertionError("a recorded table never moves")

    async def tell_host(self, table: Table, host_id: int, problem: str,
                        delivery: Delivery) -> None:
        raise AssertionError("a recorded table never fails")


class Clock:
    """The table clocks' time: it moves when a test moves it."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def make_service(db: Database, recorder: Recorder, clock: Clock, *,
                 backoff: Backoff = DEFAULT_BACKOFF,
                 auto_delay: float = DEFAULT_AUTO_DELAY,
                 owns: Callable[[int], bool] = every_guild) -> TableService:
    """The service with first-option bots, the test's clock and `recorder` as its notifier
    (automatic answers wait `auto_delay` seconds of that clock); `owns`: the servers whose
    games are its own (a process's shards)."""
    return TableService(db, recorder, now=clock, backoff=backoff, auto_delay=auto_delay,
                        make_bot=lambda level, card, rules, seed: FirstOption(), owns=owns)


async def open_game(service: TableService, rules: RuleSet, humans: Sequence[int],
                 pace: str = "live", *, guild_id: int = 1, turn: str | None = None,
                 vacations: bool = False) -> int:
    """A started table (in server `guild_id`, with the turn clock `turn` if given, pausing
    for personal vacations if `vacations`): the first of `humans` hosts, the others join,
    bots fill the rest."""
    game = await service.open_table(
        guild_id=guild_id, channel_id=2, host_id=humans[0], host_name="Host",
        options=TableOptions(rules, "jongg-original", CARD_TEXT, pace=pace, turn=turn,
                             vacations=vacations))
    for index, user in enumerate(humans[1:], start=1):
        await service.join(game.id, user, f"Player {index}")
    await service.start_game(game.id, humans[0])
    return game.id


async def play_out(service: TableService, game_id: int, humans: Sequence[int],
                limit: int = 5000) -> None:
    """Humans play their first option until the game ends."""
    for _ in range(limit):
        if not service.in_play(game_id):
            return
        table = service.table(game_id)
        state_view = service.spectator(game_id)
        moved = False
        for user in humans:
            mine = service.view_for(game_id, user)
            if mine.legal:
                await service.act(game_id, user, mine.legal[0].action, mine.action_count)
                moved = True
                break
        assert moved, f"nobody can move at {state_view.phase} ({table.names})"
    raise AssertionError("the game did not end")


async def league_season(db: Database, minutes: int) -> None:
    """A league with an open three-player season in the channel `open_game` uses: every game
    opened there has a time limit of `minutes`."""
    league = await db.leagues.create_league(1, "Friday", 2, created_by=HOST)
    await db.leagues.start_season(league.id, SeasonSettings(
        "Spring", 3, "jongg-original", "nmjl", rules_to_json(THREE_PLAYER),
        game_minutes=minutes), by=HOST)


async def let_clocks_run(service: TableService, db: Database, clock: Clock,
                         game_id: int) -> None:
    """Ann plays her first option whenever she can; otherwise the next clock runs out."""
    mine = service.view_for(game_id, ANN)
    if mine.legal:
        await service.act(game_id, ANN, mine.legal[0].action, mine.action_count)
        return
    due = await db.clocks.next_due()
    assert due is not None, "nobody is waiting for anything"
    clock.now = max(clock.now, due) + 0.01
    await service.run_due_clocks()
