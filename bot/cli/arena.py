"""`jongg arena`: the duplicate arena, one bot kind against another on the same deals.

    jongg arena --challenger normal --field easy --seeds 200
    jongg arena --challenger strong --field normal --seeds 2000 --jobs 2 --json
    jongg arena --challenger normal --field random --seeds 500 --sprt 10 --log games.jsonl

Each seed's deal is played once with the challenger in every seat and field bots in the
others, so tile luck cancels; the report gives both sides' points per game (95 % bootstrap
interval clustered by seed), win, self-pick, feeding, wall-game, dead-hand and jokerless
rates, mean value of wins and decision times (see `bot.bots.arena`). `--sprt D` stops as
soon as "better by at least D points a game" or "not better" is decided.

    jongg arena-compare old.jsonl new.jsonl

compares the challengers of two runs' logs on the deals both played, game by game (a change
to a bot measured against the bot before it: the games of a small change stay alike, so the
paired interval is much narrower than either run's own).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from bot.bots import PLAYER_KINDS
from bot.bots.arena import arena, compare_logs
from bot.cli.options import (
    add_table_size,
    examples,
    game_seed,
    positive_int,
    table_from_args,
)
from bot.files import limited_lines
from bot.library import DEFAULT_CARD, card_from_name_or_path
from bot.progress import Progress


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg arena`."""
    parser = subparsers.add_parser(
        "arena", help="measure one bot against another on duplicate deals",
        description="Every seed's deal is played with the challenger in each seat and field "
                    "bots in the others (tile luck cancels out); the report compares the "
                    "two sides' points and play.",
        epilog=examples("jongg arena --challenger normal --field easy --seeds 3",
                        "jongg arena --challenger strong --field normal --seeds 3 "
                        "--players 2 --json"))
    kinds = ", ".join(PLAYER_KINDS)
    parser.add_argument("--challenger", required=True, help=f"the bot measured ({kinds})")
    parser.add_argument("--field", required=True, help=f"the bot in the other seats ({kinds})")
    parser.add_argument("--seeds", type=positive_int, required=True,
                        help="deals to play (the most, with --sprt)")
    add_table_size(parser)
    parser.add_argument("--seed", type=game_seed, default=1,
                        help="seed the deals are drawn from (%(default)s)")
    parser.add_argument("--card", default=DEFAULT_CARD,
                        help="a shipped card's name or a card file (default: %(default)s)")
    parser.add_argument("--sprt", type=float, default=None, metavar="D",
                        help="stop when the challenger is shown to make at least D points "
                             "a game (the headline figure), or not to make more than 0 "
                             "(alpha = beta = 0.05)")
    parser.add_argument("--log", default=None, metavar="FILE",
                        help="write every game as a JSON line to FILE (replayable)")
    parser.add_argument("--jobs", type=positive_int, default=1,
                        help="worker processes playing the seeds (%(default)s); the report "
                             "and log are the same for any number")
    parser.add_argument("--bot-seed", type=int, default=0, metavar="K",
                        help="seed the challenger's bots apart from the field's (K > 0), so "
                             "a bot against itself is two differently seeded copies; 0, the "
                             "default, plays each seat with the same bot seed")
    parser.add_argument("--json", action="store_true", help="print JSON for machines")
    parser.set_defaults(handler=run)
    compare = subparsers.add_parser(
        "arena-compare", help="compare the challengers of two arena logs of the same deals",
        description="Pairs the challenger's games of two arena runs' logs (--log) seed by "
                    "seed and seat by seat, on the deals both played in full, and reports "
                    "how many points a game the second run's challenger made more, with a "
                    "95 %% interval from a bootstrap clustered by seed.",
        epilog=examples("jongg arena --challenger easy --field random --seeds 2 --log a.jsonl "
                        "&& jongg arena --challenger normal --field random --seeds 2 "
                        "--log b.jsonl && jongg arena-compare a.jsonl b.jsonl"))
    compare.add_argument("before", help="the first run's log")
    compare.add_argument("after", help="the second run's log")
    compare.add_argument("--json", action="store_true", help="print JSON for machines")
    compare.set_defaults(handler=run_compare)


def run(args: argparse.Namespace) -> int:
    """Play the arena and print the report."""
    card = card_from_name_or_path(args.card)
    report = arena(table_from_args(args), card, args.challenger, args.field,
                   args.seeds, args.seed, delta=args.sprt,
                   progress=Progress("arena", args.seeds), log=args.log, jobs=args.jobs,
                   bot_seed=args.bot_seed)
    print(json.dumps(report.as_json(), indent=2) if args.json else report.as_text())
    if args.log:
        print(f"wrote {report.games} games to {args.log}", file=sys.stderr)
    return 0


#: The largest arena log read, and its longest line: a game is a line of a few kilobytes
#: (about 7 KB at four players), so a run of 100,000 deals fits with room to spare.
MAX_LOG_BYTES = 4 * 1024**3
MAX_LOG_LINE_BYTES = 1024**2


def _log_lines(name: str) -> Iterator[str]:
    """The lines of an arena log, within `MAX_LOG_BYTES` and `MAX_LOG_LINE_BYTES`."""
    return limited_lines(Path(name), limit=MAX_LOG_BYTES, line_limit=MAX_LOG_LINE_BYTES,
                         what="an arena log (written by jongg arena --log)")


def run_compare(args: argparse.Namespace) -> int:
    """Compare two arena logs and print the figures."""
    comparison = compare_logs(_log_lines(args.before), _log_lines(args.after),
                              (args.before, args.after))
    print(json.dumps(comparison.as_json(), indent=2) if args.json else comparison.as_text())
    return 0
