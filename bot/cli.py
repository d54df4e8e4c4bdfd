"""The `jongg` command: one entry point with a subcommand per job.

Each feature lives in its own module under `bot.commands` with a `register(subparsers)`
function that adds its subcommand and sets `handler`. Errors meant for people
(`MahjongError`) are printed as they are, without a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from bot.engine.errors import CardError, MahjongError

COMMAND_MODULES = (
    "bot.commands.card",
    "bot.commands.analyze",
    "bot.commands.bench",
    "bot.commands.render_demo",
    "bot.commands.simulate",
    "bot.commands.play",
    "bot.commands.run",
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="jongg",
        description="Jongg runs American Mah Jongg (NMJL-style): cards, hand analysis, "
                    "games and leagues. Run a subcommand with --help for details.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from bot.commands.overview import overview

        args.handler = lambda _: overview()
    try:
        code: int = args.handler(args)
    except CardError as exc:
        print(f"jongg: {exc.message}", file=sys.stderr)
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return 2
    except MahjongError as exc:
        print(f"jongg: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("jongg: stopped.", file=sys.stderr)
        return 130
    return code
