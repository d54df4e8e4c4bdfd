"""`jongg play`: a full game in the terminal against bots, through the table service."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from bot.commands.options import game_seed, output_folder
from bot.engine.game.rules import table_rules
from bot.library import DEFAULT_CARD, shipped_card_paths
from bot.players import make_player
from bot.store import Database
from bot.tables.options import TableOptions
from bot.tables.service import TableService
from bot.tables.terminal import TerminalNotifier, choose_in_terminal

HUMAN = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg play`."""
    parser = subparsers.add_parser("play", help="play a game in the terminal against bots")
    parser.add_argument("--players", type=int, choices=(4, 3, 2), default=4,
                        help="table size; 2 is the Siamese-style game (default: 4)")
    parser.add_argument("--seed", type=game_seed, default=None,
                        help="replay the same deal (a whole number from 0 to 2**63 - 1)")
    parser.add_argument("--name", default="Player", help="your name at the table")
    parser.add_argument("--images", metavar="DIR", type=output_folder, default=None,
                        help="also write the table, your rack and the result as PNG files")
    parser.add_argument("--auto", action="store_true",
                        help="let the baseline bot play your seat too (a demo)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play one game; returns when it ends (or at end of input)."""
    return asyncio.run(_play(args))


async def _play(args: argparse.Namespace) -> int:
    rules = table_rules(args.players)
    card_path = next(p for p in shipped_card_paths() if p.stem == DEFAULT_CARD)
    if args.images is not None:
        args.images.mkdir(parents=True, exist_ok=True)
    out = sys.stdout
    with tempfile.TemporaryDirectory() as folder:
        async with Database(Path(folder) / "play.db") as db:
            service = TableService(db, TerminalNotifier(out, args.images))
            game = await service.open_table(
                guild_id=0, channel_id=0, host_id=HUMAN, host_name=args.name, seed=args.seed,
                options=TableOptions(rules, DEFAULT_CARD, card_path.read_text(),
                                     pace="untimed"))
            print(f"{rules.name}, card {DEFAULT_CARD}, seed {game.seed}. You are East.",
                  file=out)
            table = await service.start_game(game.id, HUMAN)
            helper = make_player("baseline", table.card, rules.counts, game.seed)
            try:
                while True:
                    await service.flush(game.id)
                    if not service.in_play(game.id):
                        break
                    seen = service.view_for(game.id, HUMAN)
                    if args.auto:
                        action = helper.choose(seen, seen.legal)
                    else:
                        action = choose_in_terminal(seen, seen.legal, table.names, input, out,
                                                    rules.racks)
                    await service.act(game.id, HUMAN, action, seen.action_count)
            except EOFError:
                print("\nStopped. (Terminal games are not saved.)", file=out)
            finally:
                await service.close()
    if args.images is not None:
        print(f"Pictures are in {args.images}.", file=out)
    return 0
