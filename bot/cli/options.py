"""Option types and help pieces that several subcommands share, so the same kind of option
is checked the same way everywhere and a mistake is refused while the arguments are read
(one line, exit 2) instead of deep inside a command."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.engine.errors import echo
from bot.engine.game.rules import RuleSet, table_rules, with_options
from bot.store.rows import INT64_MAX


def examples(*commands: str) -> str:
    """A help epilog listing example command lines, one per line as written (a test runs
    every example a command's help shows)."""
    return "Examples:\n" + "\n".join(f"  {command}" for command in commands)


#: The most of anything a count option asks for (games, deals, seeds, hands, workers): more
#: than any run finishes in a day, and small enough that nothing sized by it overflows.
MAX_COUNT = 1_000_000


def _whole_number(text: str, low: int, high: int) -> int:
    """The one rule for numbers typed as options: a whole number from `low` to `high`, or a
    line saying which numbers are allowed."""
    allowed = f"a whole number from {low} to {high}"
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{echo(text)}` is not {allowed}") from None
    if not low <= number <= high:
        raise argparse.ArgumentTypeError(f"must be {allowed}, not {echo(text)}")
    return number


def positive_int(text: str) -> int:
    """A count of things to do or show (games, deals, seeds, hands): 1 to `MAX_COUNT`. Zero
    is refused rather than quietly read as one, and a huge count rather than run for ever."""
    return _whole_number(text, 1, MAX_COUNT)


def game_seed(text: str) -> int:
    """A seed (a game's deal, a run's games): 0 to 2**63 - 1, the range a game's seed is
    stored in."""
    return _whole_number(text, 0, INT64_MAX)


def output_folder(text: str) -> Path:
    """A folder to write pictures to, created if missing. An empty path (which would write
    into the current folder) and a file of that name are refused here; a folder that can't
    be created is reported when the command creates it."""
    if not text.strip():
        raise argparse.ArgumentTypeError("give a folder to write to (an empty path would "
                                         "write into the current folder; use . for that)")
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
