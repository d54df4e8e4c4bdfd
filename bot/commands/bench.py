"""`jongg bench TARGET [--json] [--quick]`: run a benchmark and print figures and ratios."""

from __future__ import annotations

import argparse
import importlib
import json

from bot.bench import TARGETS
from bot.progress import Progress


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg bench`."""
    parser = subparsers.add_parser("bench", help="measure performance against our goals")
    parser.add_argument("target", choices=sorted(TARGETS))
    parser.add_argument("--json", action="store_true", help="print JSON for machines")
    parser.add_argument("--quick", action="store_true",
                        help="a small sample, to prove the benchmark runs (CI)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run one benchmark target."""
    module = importlib.import_module(TARGETS[args.target])
    result = module.run(quick=args.quick, progress=Progress(f"bench {args.target}", 1))
    print(json.dumps(result.as_json(), indent=2) if args.json else result.as_text())
    return 0
