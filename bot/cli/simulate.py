"""`jongg simulate`: bots play whole seeded games through the engine; print what happened.

    jongg simulate --games 200 --players 4 --bot normal --seed 1
    jongg simulate --games 50 --players 2 --bot random --log games.txt --json
    jongg simulate --games 50 --players 4 --racks 2
    jongg simulate --games 100 --bot normal,random,normal,random

`--bot` names one bot for every seat or one per seat (comma-separated). The report gives how
games ended, wins by seat, self-picks, dead hands, turns and actions per game, and speed;
`--log` writes every game's actions so `replay` can rebuild it (see `bot.bots.simulate`).
"""

from __future__ import annotations

import argparse
import json
import sys

from bot.bots import DEFAULT_LEVEL, PLAYER_KINDS
from bot.bots.simulate import simulate
from bot.cli.options import (
    add_table_size,
    examples,
    game_seed,
    positive_int,
    table_from_args,
)
from bot.engine.game.rules import preset
from bot.library import DEFAULT_CARD, card_from_name_or_path
from bot.progress import Progress


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg simulate`."""
    parser = subparsers.add_parser(
        "simulate", help="let bots play seeded games and report how they went",
        description="Bots play whole games through the engine, each seeing only its own "
                    "seat, and the report says how the games ended and how fast they ran.",
        epilog=examples("jongg simulate --games 5 --players 4 --bot normal",
                        "jongg simulate --games 5 --players 2 --bot random --json",
                        "jongg simulate --games 5 --players 3 --racks 2"))
    parser.add_argument("--games", type=positive_int, default=100,
                        help="games to play (%(default)s)")
    add_table_size(parser)
    parser.add_argument("--rules", default=None,
                        help="a rules preset instead of the table size's default "
                             "(standard, tournament, 3-player, siamese, royale, royale-3); it "
                             "sets the size")
    parser.add_argument("--bot", default=DEFAULT_LEVEL,
                        help=f"bot for every seat, or one per seat comma-separated "
                             f"({', '.join(PLAYER_KINDS)}); default %(default)s")
    parser.add_argument("--seed", type=game_seed, default=1,
                        help="seed of the whole run (%(default)s)")
    parser.add_argument("--card", default=DEFAULT_CARD,
                        help="a shipped card's name or a card file (default: %(default)s)")
    parser.add_argument("--log", default=None, metavar="FILE",
                        help="write every game's actions to FILE (replayable)")
    parser.add_argument("--json", action="store_true", help="print JSON for machines")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the games and print the report."""
    rules = table_from_args(args, preset(args.rules) if args.rules else None)
    card = card_from_name_or_path(args.card)
    kinds = [kind.strip() for kind in args.bot.split(",")]
    player_kind: str | list[str] = kinds[0] if len(kinds) == 1 else kinds
    progress = Progress("simulate", args.games)
    report = simulate(rules, card, args.games, player_kind, args.seed, progress=progress,
                      log=args.log)
    print(json.dumps(report.as_json(), indent=2) if args.json else report.as_text())
    if args.log:
        print(f"wrote {args.games} games to {args.log}", file=sys.stderr)
    return 0
