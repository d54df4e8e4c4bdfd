"""`jongg analyze "TILES"`: what a hand completes, its nearest card hands and its waits."""

from __future__ import annotations

import argparse

from bot.analysis import analyze, format_analysis
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.library import DEFAULT_CARD, card_from_name_or_path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg analyze`."""
    parser = subparsers.add_parser(
        "analyze", help="analyze a hand against a card",
        description="Analyze a hand: Mah Jongg (14 tiles), waits (13 tiles) and the nearest "
                    "card hands. Example: jongg analyze \"FF 2026B 222C 2222D\" "
                    "--exposed \"222D J\"")
    parser.add_argument("tiles", help='concealed tiles, e.g. "FF 2026B 222C 22D J"')
    parser.add_argument("--exposed", default="",
                        help='exposures separated by commas, e.g. "333B, NNN J"')
    parser.add_argument("--card", default=DEFAULT_CARD,
                        help="a shipped card's name or a card file (default: %(default)s)")
    parser.add_argument("--count", type=int, default=5, help="how many nearest hands to show")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the analysis."""
    hand = PlayerHand.parse(args.tiles, args.exposed)
    matcher = CardMatcher(card_from_name_or_path(args.card))
    print(format_analysis(analyze(matcher, hand, max(1, args.count))))
    return 0
