"""`jongg bench TARGET [--json] [--quick] [--games N]`: run a benchmark and print figures and
ratios (`--games`: how many games `prompts` plays per set of options)."""

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
    parser.add_argument("--games", type=int, default=None,
                        help="games per set of options (prompts only; 20 unless set)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run one benchmark target."""
    module = importlib.import_module(TARGETS[args.target])
    extra = {}
    if args.games is not None:
        if args.target != "prompts" or args.games < 1:
            raise SystemExit("--games N (1 or more) is for `jongg bench prompts` only.")
        extra["games"] = args.games
    result = module.run(quick=args.quick, progress=Progress(f"bench {args.target}", 1),
                        **extra)
    print(json.dumps(result.as_json(), indent=2) if args.json else result.as_text())
    return 0
