"""`jongg bench TARGET [--json] [--quick] [--games N] [--database WHERE]`: run a benchmark
and print figures and ratios (`--games`: how many games `prompts` plays per set of options;
`--database`: where the store's benchmarks keep their data, see `bot.bench.databases`)."""

from __future__ import annotations

import argparse
import importlib
import json

from bot.bench import DATABASE_TARGETS, TARGETS, BenchResult, side_by_side
from bot.bench.databases import POSTGRESQL, SQLITE, backends, check_choice
from bot.engine.errors import InvalidInput
from bot.progress import Progress

#: How `--database both` labels each run's figures.
LABELS = {SQLITE: "SQLite", POSTGRESQL: "PostgreSQL"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg bench`."""
    parser = subparsers.add_parser("bench", help="measure performance against our goals")
    parser.add_argument("target", choices=sorted(TARGETS))
    parser.add_argument("--json", action="store_true", help="print JSON for machines")
    parser.add_argument("--quick", action="store_true",
                        help="a small sample, to prove the benchmark runs (CI)")
    parser.add_argument("--games", type=int, default=None,
                        help="games per set of options (prompts only; 20 unless set)")
    parser.add_argument(
        "--database", default=None, metavar="WHERE",
        help=f"for {', '.join(sorted(DATABASE_TARGETS))}: sqlite (the default: files in a "
             "temporary folder), postgresql (a throw-away server started for the run), both "
             "(SQLite, then PostgreSQL, side by side with the ratio) or a postgresql:// URL "
             "(new databases on that server, dropped after)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run one benchmark target (once per backend with `--database both`)."""
    module = importlib.import_module(TARGETS[args.target])
    extra = {}
    if args.games is not None:
        if args.target != "prompts" or args.games < 1:
            raise SystemExit("--games N (1 or more) is for `jongg bench prompts` only.")
        extra["games"] = args.games
    if args.database is None:
        choices: tuple[str | None, ...] = (None,)
    elif args.target not in DATABASE_TARGETS:
        raise InvalidInput(f"--database is for `jongg bench "
                           f"{'|'.join(sorted(DATABASE_TARGETS))}` only.")
    else:
        choices = backends(check_choice(args.database))
    runs: list[tuple[str, BenchResult]] = []
    for choice in choices:
        where = {} if choice is None else {"database": choice}
        label = f"bench {args.target}" + ("" if len(choices) == 1 else f" ({choice})")
        runs.append((LABELS.get(choice or SQLITE, "PostgreSQL"),
                     module.run(quick=args.quick, progress=Progress(label, 1), **extra,
                                **where)))
    result = runs[0][1] if len(runs) == 1 else side_by_side(*runs)
    print(json.dumps(result.as_json(), indent=2) if args.json else result.as_text())
    return 0
