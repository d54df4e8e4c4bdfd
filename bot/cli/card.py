"""`jongg card check|list|show`: validate card files and look at the shipped cards."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from bot.cli.options import game_seed, positive_int
from bot.engine.cards import Card, load_card
from bot.engine.cards.balance import DEFAULT_DEALS, DEFAULT_SEED, estimate_balance
from bot.engine.cards.cost import MAX_CARD_COMBINATIONS, card_combinations
from bot.engine.errors import CardError, InvalidInput
from bot.engine.matcher import CardMatcher
from bot.library import card_file_bytes, card_from_name_or_path, shipped_cards
from bot.progress import Progress


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg card ...`."""
    card = subparsers.add_parser("card", help="check card files, list and show cards")
    actions = card.add_subparsers(dest="card_command", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate card files; every problem with its line")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(handler=check_files)
    listing = actions.add_parser("list", help="the cards that come with Jongg")
    listing.set_defaults(handler=list_cards)
    show = actions.add_parser("show", help="print a card's hands by section")
    show.add_argument("card", nargs="?", default="jongg-original", metavar="NAME_OR_FILE")
    show.set_defaults(handler=show_card)
    balance = actions.add_parser(
        "balance", help="estimate how hard each hand is, to check that values follow difficulty")
    balance.add_argument("card", nargs="?", default="jongg-original", metavar="NAME_OR_FILE")
    balance.add_argument("--deals", type=positive_int, default=DEFAULT_DEALS,
                         help="random 13-tile deals to measure (default: %(default)s)")
    balance.add_argument("--seed", type=game_seed, default=DEFAULT_SEED)
    balance.add_argument("--json", action="store_true", help="print JSON for machines")
    balance.set_defaults(handler=balance_card)


def _summary(card: Card) -> str:
    variations = len(CardMatcher(card).variations)
    concealed = sum(hand.concealed for hand in card.hands)
    year = f" ({card.year})" if card.year else ""
    return (f"{card.name}{year}: {len(card.hands)} hands in {len(card.sections)} sections, "
            f"{concealed} concealed, {variations} variations "
            f"({card_combinations(card):,} of {MAX_CARD_COMBINATIONS:,} combinations)")


def check_files(args: argparse.Namespace) -> int:
    """Check each file; print `ok` or each problem as `FILE:LINE: message`."""
    failed = 0
    for name in args.files:
        path = Path(name)
        try:
            card = load_card(card_file_bytes(path))
        except CardError as exc:
            failed += 1
            print(f"{name}: {exc.message}")
            for problem in exc.problems:
                where = f"{name}:{problem.line}" if problem.line else name
                print(f"  {where}: {problem.message}")
            continue
        except InvalidInput as exc:  # a folder, a file that can't be read
            print(exc.message)
            failed += 1
            continue
        print(f"ok  {name}: {_summary(card)}")
    if failed:
        print(f"{failed} of {len(args.files)} card files have problems.")
    return 1 if failed else 0


def list_cards(args: argparse.Namespace) -> int:
    """Print the shipped cards with their short names."""
    for short, card in shipped_cards().items():
        print(f"{short:<18} {_summary(card)}")
    return 0


def show_card(args: argparse.Namespace) -> int:
    """Print a card's hands, section by section, as written."""
    print("\n".join(card_from_name_or_path(args.card).listing()))
    return 0


def balance_card(args: argparse.Namespace) -> int:
    """Print each section's values beside its measured difficulty, and the correlation."""
    card = card_from_name_or_path(args.card)
    result = estimate_balance(card, deals=args.deals, seed=args.seed,
                              progress=Progress(f"dealing for {card.name}", args.deals))
    if args.json:
        print(json.dumps(dataclasses.asdict(result), indent=2))
        return 0
    print(f"{card.name}: {result.deals} random deals (seed {result.seed}); "
          "mean tiles away from each hand.")
    print(f"  {'section':<20} {'hands':>5} {'values':>8} {'mean away':>10} {'close':>6}")
    for section in sorted(result.sections, key=lambda s: s.mean_away):
        values = f"{section.min_value}-{section.max_value}"
        print(f"  {section.section:<20} {section.hands:>5} {values:>8} "
              f"{section.mean_away:>10.2f} {section.close_share:>6.1%}")
    print(f"Spearman correlation of value and difficulty: {result.value_away_correlation:.2f} "
          "(1 means values rise exactly with difficulty).")
    return 0
