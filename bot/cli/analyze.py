"""`jongg analyze "TILES"`: what a hand completes, its nearest card hands and its waits."""

from __future__ import annotations

import argparse

from bot.analysis import analyze, format_analysis, read_hand, soap_note, typed_hand
from bot.cli.options import examples, positive_int
from bot.engine.matcher import CardMatcher
from bot.library import DEFAULT_CARD, card_from_name_or_path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg analyze`."""
    parser = subparsers.add_parser(
        "analyze", help="analyze a hand against a card",
        description="Analyze a hand: Mah Jongg (14 tiles), waits (13 tiles) and the nearest "
                    "card hands. The hand is checked against a real set (no tile more often "
                    "than a set has it, 14 tiles at most), said back as typed and then tile "
                    "by tile as it was read.",
        epilog=examples('jongg analyze "FF 2026B 222C 2222D J"',
                        'jongg analyze "2026B 22B" --exposed "222C, 2222D J"'))
    parser.add_argument("tiles", help='concealed tiles, e.g. "FF 2026B 222C 22D J"')
    parser.add_argument("--exposed", default="",
                        help='exposures separated by commas, e.g. "333B, NNN J"')
    parser.add_argument("--card", default=DEFAULT_CARD,
                        help="a shipped card's name or a card file (default: %(default)s)")
    parser.add_argument("--count", type=positive_int, default=5,
                        help="how many nearest hands to show (default: %(default)s)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print how the hand was read and its analysis."""
    hand = read_hand(args.tiles, args.exposed)
    matcher = CardMatcher(card_from_name_or_path(args.card))
    note = soap_note(args.tiles, args.exposed)
    if note is not None:
        print(note)
    print(format_analysis(analyze(matcher, hand, args.count),
                          typed_hand(args.tiles, args.exposed)))
    return 0
