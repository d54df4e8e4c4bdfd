"""`jongg bench TARGET [--json] [--quick] [--games N] [--database WHERE] [--processes N]
[--http-workers N]`: run a benchmark and print figures and ratios (`--games`: how many games
`prompts` plays per set of options; `--database`: where the store's benchmarks keep their
data, see `bot.bench.databases`; `--processes`: how many processes `discord` runs the bot
as; `--http-workers`: how many HTTP workers take its interactions instead)."""

from __future__ import annotations

import argparse
import importlib
import json
from typing import Any

from bot.bench import DATABASE_TARGETS, TARGETS, BenchResult, side_by_side
from bot.bench.databases import POSTGRESQL, SQLITE, backends, check_choice
from bot.cli.options import positive_int
from bot.engine.errors import InvalidInput, echo
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
    parser.add_argument("--games", type=positive_int, default=None,
                        help="games per set of options (prompts only; 20 unless set)")
    parser.add_argument(
        "--database", default=None, metavar="WHERE",
        help=f"for {', '.join(sorted(DATABASE_TARGETS))}: sqlite (the default: files in a "
             "temporary folder), postgresql (a throw-away server started for the run), both "
             "(SQLite, then PostgreSQL, side by side with the ratio) or a postgresql:// URL "
             "(new databases on that server, dropped after)")
    parser.add_argument(
        "--processes", default=None, metavar="N",
        help="for discord: run the bot as N processes, a shard each, sharing one PostgreSQL "
             "database (as jongg run --processes N; the database is then postgresql unless "
             "--database names a postgresql:// URL); two counts, e.g. 1,2, run the bench "
             "once with each, side by side with the ratio")
    parser.add_argument(
        "--http-workers", default=None, metavar="N",
        help="for discord: run the bot as N HTTP workers (as jongg run --http, each a "
             "process of its own, sharing one PostgreSQL database) taking every interaction "
             "in turn, beside one gateway process, and measure only the paced four-person "
             "tables: the most carried within the goals and the bot's CPU per move and per "
             "table; two counts, e.g. 1,2, side by side with the ratio")
    parser.set_defaults(handler=run)


def _process_counts(text: str | None, target: str, option: str = "--processes"
                    ) -> tuple[int | None, ...]:
    """The bot process counts `option` (`--processes`, `--http-workers`) asks for (None: the
    option was not given), or `InvalidInput` saying what is wrong."""
    if text is None:
        return (None,)
    if target != "discord":
        raise InvalidInput(f"{option} is for `jongg bench discord` only.")
    parts = text.split(",")
    try:  # each as every count on the command line is read
        counts = tuple(positive_int(part.strip()) for part in parts)
    except argparse.ArgumentTypeError:
        counts = ()
    if not counts or len(counts) > 2:
        raise InvalidInput(f"{option} takes a count of 1 or more, or two of them "
                           f"(e.g. 1,2), not `{echo(text)}`.")
    return counts


def run(args: argparse.Namespace) -> int:
    """Run one benchmark target (once per backend with `--database both`)."""
    module = importlib.import_module(TARGETS[args.target])
    extra = {}
    if args.games is not None:
        if args.target != "prompts":
            raise SystemExit("--games N is for `jongg bench prompts` only.")
        extra["games"] = args.games
    counts = _process_counts(args.processes, args.target)
    workers = _process_counts(args.http_workers, args.target, "--http-workers")
    if counts != (None,) and workers != (None,):
        raise InvalidInput("--http-workers runs one gateway process beside the workers: "
                           "give it no --processes.")
    # One count varies at most: the processes', or the workers'.
    key, counts = ("http_workers", workers) if workers != (None,) else ("processes", counts)
    database = args.database
    if database is None and (key == "http_workers" or any((c or 1) > 1 for c in counts)):
        database = POSTGRESQL  # several processes share their games in PostgreSQL
    if database is None:
        choices: tuple[str | None, ...] = (None,)
    elif args.target not in DATABASE_TARGETS:
        raise InvalidInput(f"--database is for `jongg bench "
                           f"{'|'.join(sorted(DATABASE_TARGETS))}` only.")
    else:
        choices = backends(check_choice(database))
    if len(choices) > 1 and len(counts) > 1:
        raise InvalidInput("compare databases (--database both) or process counts "
                           "(--processes 1,2), not both at once.")
    runs: list[tuple[str, BenchResult]] = []
    for choice in choices:
        for count in counts:
            where: dict[str, Any] = {} if choice is None else {"database": choice}
            if count is not None:
                where[key] = count
            label, name = f"bench {args.target}", LABELS.get(choice or SQLITE, "PostgreSQL")
            if len(choices) > 1:
                label += f" ({choice})"
            if len(counts) > 1:
                nouns = ("worker", "workers") if key == "http_workers" else (
                    "process", "processes")
                name = f"{count} {nouns[count != 1]}"
                label += f" ({name})"
            runs.append((name, module.run(quick=args.quick, progress=Progress(label, 1),
                                          **extra, **where)))
    result = runs[0][1] if len(runs) == 1 else side_by_side(*runs)
    print(json.dumps(result.as_json(), indent=2) if args.json else result.as_text())
    return 0
