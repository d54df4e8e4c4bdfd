"""What `jongg` prints with no subcommand: the cards it has and a sample analysis, so a
newcomer without a Discord token still sees the engine at work."""

from __future__ import annotations

import random

from bot.analysis import analyze, format_analysis
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.engine.tiles import physical_tiles
from bot.library import DEFAULT_CARD, shipped_card, shipped_cards

SAMPLE_SEED = 2026


def overview() -> int:
    """Print the welcome, the shipped cards and the analysis of one seeded deal."""
    print("Jongg: American Mah Jongg (NMJL-style) for Discord servers.\n")
    print("Cards that come with Jongg:")
    for short, card in shipped_cards().items():
        print(f"  {short:<16} {card.name}: {len(card.hands)} hands")
    deal = random.Random(SAMPLE_SEED).sample(physical_tiles(), 13)
    card = shipped_card(DEFAULT_CARD)
    print(f"\nA sample 13-tile deal (seed {SAMPLE_SEED}) against {card.name}:")
    print(format_analysis(analyze(CardMatcher(card), PlayerHand(tuple(deal)), count=3)))
    print("\nTry:")
    print('  jongg analyze "FF 2026B 222C 2222D J"      what a hand completes or needs')
    print("  jongg card show jongg-teaching            a card's hands")
    print("  jongg card check my-card.jongg            check a card file you wrote")
    print("  jongg bench cards                         how fast the matcher is")
    print("  jongg --help                              every command")
    return 0
