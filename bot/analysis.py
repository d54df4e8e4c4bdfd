"""Hand analysis as plain text: what a hand completes, how far it is from the nearest card
hands, and what it waits for.

Shared by `jongg analyze`, the `/analyze` command and hints (Discord's Hint button, the
terminal game's `hint`), so every place tells a player the same thing in the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import Card
from bot.engine.cards.compile import HAND_SIZE
from bot.engine.game import View
from bot.engine.matcher import (
    CardMatcher,
    Exposure,
    MahjongMatch,
    NearHand,
    PlayerHand,
    Wait,
    matcher_for,
)
from bot.engine.tiles import format_group, format_tiles, tile_name


@dataclass(frozen=True)
class Analysis:
    """Everything `analyze` found for one hand."""

    hand: PlayerHand
    card_name: str
    matches: tuple[MahjongMatch, ...]
    nearest: tuple[NearHand, ...]
    waits: tuple[Wait, ...]


def analyze(matcher: CardMatcher, hand: PlayerHand, count: int = 5) -> Analysis:
    """Run the matcher's questions that fit the hand's size."""
    matches = tuple(matcher.mahjong(hand)) if hand.size == HAND_SIZE else ()
    waits = tuple(matcher.waits(hand)) if hand.size == HAND_SIZE - 1 else ()
    return Analysis(hand, matcher.card.name, matches, tuple(matcher.nearest(hand, count)), waits)


#: How many nearest hands a hint shows.
HINT_HANDS = 3


def hint(card: Card, counts: Sequence[int], view: View) -> Analysis:
    """A hint for the seat whose view this is, from that view only: its nearest hands (with
    what each needs) and its waits, against the table's card. Runs the matcher: off an
    event loop, call it in a worker."""
    return analyze(matcher_for(card, counts), seat_hand(view), count=HINT_HANDS)


def seat_hand(view: View) -> PlayerHand:
    """The hand a seat holds, from its own view only: its concealed tiles and exposures."""
    mine = view.seats[view.seat]
    return PlayerHand(view.concealed, tuple(Exposure(e.kind, len(e.tiles), e.jokers)
                                            for e in mine.exposures))


def _hand_label(match_hand: NearHand | MahjongMatch) -> str:
    hand = match_hand.hand
    kind = "concealed" if hand.concealed else "exposed"
    return f"{hand.id} ({hand.section}, {hand.value}, {kind})"


def format_analysis(analysis: Analysis) -> str:
    """The analysis as a few short lines of text, ready for a terminal or a chat message."""
    hand = analysis.hand
    lines = [f"Hand: {hand}  ({hand.size} tiles, card: {analysis.card_name})"]
    if hand.size not in (HAND_SIZE, HAND_SIZE - 1):
        lines.append(f"Note: a hand has 13 tiles between turns and 14 to declare; this one has "
                     f"{hand.size}, so only the nearest hands are shown.")
    for match in analysis.matches:
        laid_out = "  ".join(format_group(g) for g in match.groups)
        bonus = " jokerless" if match.jokerless and not match.hand.singles_and_pairs else ""
        lines.append(f"MAH JONGG: {_hand_label(match)}{bonus}, worth {match.score_value}: "
                     f"{laid_out}")
    if analysis.waits:
        lines.append("Waiting for: " + "; ".join(
            f"{tile_name(w.tile)} ({', '.join(h.id for h in w.hands)})" for w in analysis.waits))
    if not analysis.nearest:
        lines.append("No hand on this card can be made with these exposures.")
    elif not analysis.matches:
        lines.append("Nearest hands:")
        for near in analysis.nearest:
            target = "  ".join(format_group(g) for g in near.target)
            lines.append(f"  {near.away} away  {_hand_label(near)}: {target}")
            needs = []
            if near.need_natural:
                needs.append(f"need {format_tiles(near.need_natural)}")
            if near.need_any:
                needs.append(f"need {format_tiles(near.need_any)} or jokers")
            if near.unused:
                needs.append(f"not used: {format_tiles(near.unused)}")
            if needs:
                lines.append("           " + "; ".join(needs))
    return "\n".join(lines)
