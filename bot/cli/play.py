"""`jongg play`: a full game in the terminal against bots, through the table service."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import select
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO, cast

from bot.bots import DEFAULT_LEVEL, LEVELS, Player, make_player
from bot.cli.options import (
    add_table_size,
    game_seed,
    output_folder,
    positive_int,
    table_from_args,
)
from bot.engine.errors import MahjongError
from bot.engine.game.rules import house_options, seat_names
from bot.library import DEFAULT_CARD, shipped_card_paths
from bot.store import Database
from bot.store.rows import INT64_MAX
from bot.tables.levels import level_label, read_level
from bot.tables.options import TableOptions
from bot.tables.seat_options import JokerCalls, SeatOptions
from bot.tables.series import series_totals
from bot.tables.service import TableService, random_seed
from bot.terminal.notifier import TerminalNotifier
from bot.terminal.prompt import Choice, Prompter

HUMAN = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg play`."""
    parser = subparsers.add_parser("play", help="play a game in the terminal against bots")
    add_table_size(parser)
    parser.add_argument("--seed", type=game_seed, default=None,
                        help="replay the same deals: the first game's, and the series' after "
                             "it (a whole number from 0 to 2**63 - 1)")
    parser.add_argument("--name", type=player_name, default="Player",
                        help=f"your name at the table (1 to {MAX_NAME} characters)")
    parser.add_argument("--images", metavar="DIR", type=output_folder, default=None,
                        help="also write the table, your rack and the result as PNG files")
    parser.add_argument("--bots", metavar="LEVEL", default=DEFAULT_LEVEL,
                        help=f"the level of the bots you play against: {', '.join(LEVELS)} "
                             "(default %(default)s)")
    parser.add_argument("--auto", action="store_true",
                        help="let a bot of that level play your seat too (a demo)")
    parser.add_argument("--games", type=positive_int, default=None, metavar="N",
                        help="play a series of N games, one after the other (without it, "
                             "you are asked after each game whether to play again, and "
                             "--auto plays one)")
    parser.add_argument("--joker-calls", choices=[c.value for c in JokerCalls],
                        default=JokerCalls.SKIP.value,
                        help="skip (default) or offer calls that only jokers would fill; "
                             "`joker-calls` changes it during the game")
    parser.set_defaults(handler=run)


#: The longest name at the table: as long as a Discord display name may be.
MAX_NAME = 32


def player_name(text: str) -> str:
    """`--name`: the human seat's name, trimmed; one line of 1 to `MAX_NAME` printable
    characters, as a seat's name must be (an empty one or two lines were a bug report when
    the seat was taken)."""
    name = text.strip()
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise argparse.ArgumentTypeError(f"give a name of 1 to {MAX_NAME} characters, on one "
                                         "line")
    return name


#: How often, in seconds, a question waiting for its answer at a terminal looks for Ctrl-C.
LISTEN_SECONDS = 0.1


class CtrlC:
    """Where one Ctrl-C stops the game (`ctrl_c_stops_the_game`): at a question, the game
    waits in `ask` (the event loop with it), and Ctrl-C raises KeyboardInterrupt there; at
    any other moment its task (`task`) is cancelled, as asyncio's own handler does, so every
    task of the game stops where it waits and the game closes: its senders, the store's
    writer and its connection. (KeyboardInterrupt raised wherever the interpreter was killed
    whichever task ran then, a sender or the store's writer, alone, which printed its
    traceback at the end; and the store closing could be left waiting on it.)"""

    #: The game's task, once it runs; whether it waits in `ask`; whether Ctrl-C came.
    task: asyncio.Task[int] | None = None
    asking = False
    pressed = False

    @classmethod
    def handle(cls, signum: int, frame: object) -> None:
        cls.pressed = True
        if cls.asking or cls.task is None or cls.task.done():
            raise KeyboardInterrupt
        cls.task.cancel()
        cls.task.get_loop().call_soon_threadsafe(lambda: None)  # wakes a loop in select


def ask(prompt: str) -> str:
    """`input(prompt)`, except that at a terminal a Ctrl-C is heard however soon after the
    question it comes. `input` shows the question, then waits in the system's read: a Ctrl-C
    that arrives between the two is only acted on once a line is typed. Here the question is
    shown first and the wait is a `select` that returns every `LISTEN_SECONDS` (Python acts
    on a Ctrl-C between two of them); `input` then reads a line that is already there. Not
    at a terminal (a pipe, a test), `input` asks as it is. Ctrl-C meanwhile raises
    KeyboardInterrupt here (`CtrlC`)."""
    CtrlC.asking = True
    try:
        if os.name != "posix" or not sys.stdin.isatty():
            return input(prompt)
        print(prompt, end="", flush=True)
        while not select.select([sys.stdin], [], [], LISTEN_SECONDS)[0]:
            pass
        return input()
    finally:
        CtrlC.asking = False


def run(args: argparse.Namespace) -> int:
    """Play a game, and more of its series while asked; returns when done (or at end of
    input). Ctrl-C stops it (`CtrlC`): KeyboardInterrupt."""
    try:
        return asyncio.run(_ctrl_c_stops_the_game(_play(args)))
    except asyncio.CancelledError:
        if CtrlC.pressed:
            raise KeyboardInterrupt from None
        raise
    finally:
        CtrlC.task, CtrlC.pressed = None, False


async def _ctrl_c_stops_the_game(game: Coroutine[Any, Any, int]) -> int:
    """Run `game` with Ctrl-C handled by `CtrlC` (in the main thread, where Python handles
    signals; elsewhere as it was), the handler before put back once it is over."""
    if threading.current_thread() is not threading.main_thread():
        return await game
    CtrlC.task = cast("asyncio.Task[int]", asyncio.current_task())
    before = signal.signal(signal.SIGINT, CtrlC.handle)
    try:
        return await game
    finally:
        signal.signal(signal.SIGINT, before)


async def _play(args: argparse.Namespace) -> int:
    rules = table_from_args(args)
    level = read_level(args.bots)
    card_path = next(p for p in shipped_card_paths() if p.stem == DEFAULT_CARD)
    if args.images is not None:
        args.images.mkdir(parents=True, exist_ok=True)
    out = sys.stdout
    with tempfile.TemporaryDirectory() as folder:
        async with Database(Path(folder) / "play.db") as db:
            # Answers the human's options make are played at once: the bots don't read
            # how long a claim window stays open.
            service = TableService(db, TerminalNotifier(out, args.images), auto_delay=0,
                                   new_seed=_series_seeds(args.seed))
            game = await service.open_table(
                guild_id=0, channel_id=0, host_id=HUMAN, host_name=args.name, seed=args.seed,
                options=TableOptions(rules, DEFAULT_CARD, card_path.read_text(),
                                     pace="untimed"))
            await service.set_seat_options(game.id, HUMAN, replace(
                await service.seat_options(game.id, HUMAN),
                joker_calls=JokerCalls(args.joker_calls)))
            house = house_options(rules)
            with_house = f" (house options: {house})" if house else ""
            for _ in range(rules.players - 1):
                await service.add_bot(game.id, HUMAN, level)
            print(f"{rules.name}{with_house}, card {DEFAULT_CARD}, seed {game.seed}, "
                  f"{level_label(level)} bots. You are East. Type `help` at any question.",
                  file=out)
            table = await service.start_game(game.id, HUMAN)
            helper = make_player(level, table.card, rules.counts, game.seed)
            prompter = Prompter(ask, out)
            try:
                game_id, played = game.id, 1
                while True:
                    await _turns(service, game_id, prompter, helper if args.auto else None)
                    await _totals(service, game_id, out)
                    again = (played < args.games if args.games is not None
                             else not args.auto and prompter.agrees("Play again? (yes/no) "))
                    if not again:
                        break
                    game_id, played = await _next(service, game_id, out), played + 1
            except EOFError:
                print("\nStopped. (Terminal games are not saved.)", file=out)
            finally:
                await service.close()
    if args.images is not None:
        print(f"Pictures are in {args.images}.", file=out)
    return 0


def _series_seeds(seed: int | None) -> Callable[[], int]:
    """The table service's `new_seed` for the games after the first: with `--seed`, seeds
    drawn from it, so the same command replays the whole series; without, fresh ones."""
    if seed is None:
        return random_seed
    draw = random.Random(seed)
    return lambda: draw.randint(0, INT64_MAX)


async def _next(service: TableService, game_id: int, out: TextIO) -> int:
    """The next game of the series, rotated as on Discord; says where everyone sits."""
    game, table = await service.play_again(game_id, HUMAN)
    assert table is not None, "a terminal table has no bettor"
    winds = seat_names(table.rules.players)
    seat = table.seat_of(HUMAN)
    assert seat is not None
    print(f"\nThe deal passes to the right: {table.names[0]} is East now, and you sit "
          f"{winds[seat]}. Seed {game.seed}.", file=out)
    return game.id


async def _totals(service: TableService, game_id: int, out: TextIO) -> None:
    """The series' running totals, once it has more than one game."""
    totals = await series_totals(service.db, game_id)
    if totals is None:
        return
    shown = ", ".join(f"{person.display_name} {total:+d}"
                      for person, total in zip(totals.people, totals.totals, strict=True))
    print(f"Series after {totals.games} games: {shown}.", file=out)


async def _turns(service: TableService, game_id: int, prompter: Prompter,
                 helper: Player | None) -> None:
    """Play the human seat until the game is over: a move the table refuses is explained and
    asked for again, never the end of the game."""
    while True:
        await service.flush(game_id)
        if not service.in_play(game_id):
            return
        seen = service.view_for(game_id, HUMAN)
        # With one person at the table, the bots move until that person must.
        assert seen.legal, "the game waits, but not for the person playing"
        if helper is not None:
            choice: Choice = helper.choose(seen, seen.legal)
        else:
            choice = prompter.choose(service.table(game_id), seen)
        if isinstance(choice, SeatOptions):
            await service.set_seat_options(game_id, HUMAN, choice)
            continue
        try:
            await service.act(game_id, HUMAN, choice, seen.action_count)
        except MahjongError as error:
            prompter.refused(seen, error.message)
