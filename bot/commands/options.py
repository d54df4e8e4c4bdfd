"""Option types and help pieces that several subcommands share, so the same kind of option
is checked the same way everywhere and a mistake is refused while the arguments are read
(one line, exit 2) instead of deep inside a command."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.engine.game.rules import RuleSet, table_rules, with_options
from bot.store.rows import INT64_MAX


def examples(*commands: str) -> str:
    """A help epilog listing example command lines, one per line as written (a test runs
    every example a command's help shows)."""
    return "Examples:\n" + "\n".join(f"  {command}" for command in commands)


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None


def positive_int(text: str) -> int:
    """A count of things to do or show (games, deals, hands): 1 or more. Zero is refused
    rather than quietly read as one."""
    number = _whole_number(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number


def game_seed(text: str) -> int:
    """The seed of a game's deal: 0 to 2**63 - 1, the range a game's seed is stored in."""
    number = _whole_number(text)
    if not 0 <= number <= INT64_MAX:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {INT64_MAX}")
    return number


def output_folder(text: str) -> Path:
    """A folder to write pictures to, created if missing. A file of that name is refused
    here; a folder that can't be created is reported when the command creates it."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"`{text}` is a file; give a folder (it is created "
                                         "if missing)")
    return path


def add_table_size(parser: argparse.ArgumentParser) -> None:
    """`--players`, `--racks` and `--house`: the table's size and house options as every
    command that sets up a game reads them (see `table_from_args`)."""
    parser.add_argument("--players", type=int, choices=(4, 3, 2), default=4,
                        help="table size: 4 (NMJL), 3, or 2 (Siamese-style); default 4")
    parser.add_argument("--racks", type=int, choices=(1, 2), default=None,
                        help="racks per player: 2 at three or four players is the "
                             "Royale-style game (default: 1, and 2 at two players)")
    parser.add_argument("--house", metavar="TEXT", default="",
                        help="house options, e.g. 'charleston=none quarters_pot pot_ante=50' "
                             "(docs/rules-notes.md lists them)")


def table_from_args(args: argparse.Namespace, base: RuleSet | None = None) -> RuleSet:
    """The rules `add_table_size`'s options ask for: `base` (by default the table size's
    preset, `bot.engine.game.rules.table_rules`) with the `--house` options. A mistake in
    them raises `InvalidInput`, which `jongg` reports in one line with exit 2."""
    rules = base if base is not None else table_rules(args.players, racks=args.racks)
    return with_options(rules, args.house)
