"""`jongg card check|list|show`: validate card files and look at the shipped cards."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.engine.cards import Card, load_card
from bot.engine.errors import CardError
from bot.engine.matcher import CardMatcher
from bot.library import card_from_name_or_path, shipped_cards


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


def _summary(card: Card) -> str:
    variations = len(CardMatcher(card).variations)
    concealed = sum(hand.concealed for hand in card.hands)
    year = f" ({card.year})" if card.year else ""
    return (f"{card.name}{year}: {len(card.hands)} hands in {len(card.sections)} sections, "
            f"{concealed} concealed, {variations} variations")


def check_files(args: argparse.Namespace) -> int:
    """Check each file; print `ok` or each problem as `FILE:LINE: message`."""
    failed = 0
    for name in args.files:
        path = Path(name)
        try:
            card = load_card(path.read_bytes())
        except OSError as exc:
            print(f"{name}: can't read the file ({exc.strerror}).")
            failed += 1
            continue
        except CardError as exc:
            failed += 1
            print(f"{name}: {exc.message}")
            for problem in exc.problems:
                where = f"{name}:{problem.line}" if problem.line else name
                print(f"  {where}: {problem.message}")
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
    card = card_from_name_or_path(args.card)
    print(card.name + (f" ({card.year})" if card.year else ""))
    if card.notes:
        print(card.notes)
    width = max(len(hand.text) for hand in card.hands)
    for section in card.sections:
        print(f"\n[{section}]")
        for hand in card.hands:
            if hand.section != section:
                continue
            mark = "C" if hand.concealed else "X"
            note = f"  {hand.note}" if hand.note else ""
            print(f"  {hand.id:<8} {hand.text:<{width}}  {hand.value:>3} {mark}{note}")
    return 0
