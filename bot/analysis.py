"""Hand analysis as plain text: what a hand completes, how far it is from the nearest card
hands, and what it waits for.

Shared by `jongg analyze`, the `/analyze` command and hints (Discord's Hint button, the
terminal game's `hint`), so every place checks a typed hand the same way and tells a player
the same thing in the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import Card
from bot.engine.cards.compile import HAND_SIZE
from bot.engine.errors import InvalidInput, echo
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
from bot.engine.tiles import (
    BLANK,
    STANDARD_COUNTS,
    format_group,
    format_tile,
    format_tiles,
    kind_counts,
    soap_readings,
    tile_name,
)

#: Tiles in a year written as one token (`2026B`), whose 0 every player reads as Soap.
YEAR_TILES = 4
#: Longest text accepted for tiles or exposures (a full hand is about 40 characters).
MAX_TILES_TEXT = 200


@dataclass(frozen=True)
class Analysis:
    """Everything `analyze` found for one hand."""

    hand: PlayerHand
    card_name: str
    matches: tuple[MahjongMatch, ...]
    nearest: tuple[NearHand, ...]
    waits: tuple[Wait, ...]


def read_hand(tiles: str, exposed: str = "") -> PlayerHand:
    """A hand typed by a person, checked against a real set: 1 to 14 tiles, no blanks, no
    more copies of a tile than a set holds (exposures included). Raises `InvalidInput` saying
    what to fix."""
    if len(tiles) > MAX_TILES_TEXT or len(exposed) > MAX_TILES_TEXT:
        raise InvalidInput("That is too long for one hand. A hand is 13 or 14 tiles, like "
                           "`FF 2026B 222C 2222D J`.")
    hand = PlayerHand.parse(tiles, exposed)
    if hand.size == 0:
        raise InvalidInput("Give the tiles in your hand, like `FF 2026B 222C 2222D J`.")
    if hand.size > HAND_SIZE:
        raise InvalidInput(f"That is {hand.size} tiles, but a hand holds 13 between turns and "
                           f"{HAND_SIZE} to declare Mah Jongg. Check for a tile typed twice.")
    counts = kind_counts(hand.concealed + tuple(t for e in hand.exposures for t in e.tiles))
    if counts[BLANK]:
        raise InvalidInput("Blanks (`X`) are never part of a hand; leave them out.")
    where = " with its exposures" if hand.exposures else ""
    for kind, count in enumerate(counts):
        if count > STANDARD_COUNTS[kind]:
            raise InvalidInput(f"That hand{where} has {tile_name(kind)} {count} times, but a "
                               f"set has only {STANDARD_COUNTS[kind]}.")
    return hand


def soap_note(*texts: str) -> str | None:
    """One line saying how tokens with a 0 among a suit's numbers were read (`10B` is a 1 Bam
    and a Soap: there is no ten), or None when there are none. A year (`2026B`, four digits)
    reads as players expect and needs no note. Each text must be readable by `parse_tiles`."""
    readings = [(token, kinds) for text in texts for token, kinds in soap_readings(text)
                if len(kinds) != YEAR_TILES]
    if not readings:
        return None
    return "0 is Soap: " + "; ".join(
        f"`{echo(token)}` is " + " + ".join(tile_name(kind) for kind in kinds)
        for token, kinds in readings) + "."


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


def typed_hand(tiles: str, exposed: str = "") -> str:
    """A hand as a person typed it for `read_hand`, its exposures after a bar, as
    `format_analysis` repeats it back."""
    return f"{tiles} | exposed {exposed}" if exposed.strip() else tiles


def _tile_by_tile(hand: PlayerHand) -> str:
    """A hand's tiles one by one in the order read (`2026B` is 2B 0 2B 6B), exposures after
    a bar."""
    shown = " ".join(format_tile(kind) for kind in hand.concealed)
    if hand.exposures:
        shown += " | exposed " + ", ".join(" ".join(format_tile(kind) for kind in e.tiles)
                                           for e in hand.exposures)
    return shown


def format_analysis(analysis: Analysis, typed: str | None = None) -> str:
    """The analysis as a few short lines of text, ready for a terminal or a chat message.
    A hand a person `typed` is said back as they wrote it (shortened if long), then as the
    tiles it was read as, one by one; a seat's own hand (a hint) as its rack shows it."""
    hand = analysis.hand
    tiles = "1 tile" if hand.size == 1 else f"{hand.size} tiles"
    shown = str(hand) if typed is None else echo(typed)
    lines = [f"Hand: {shown}  ({tiles}, card: {analysis.card_name})"]
    one_by_one = _tile_by_tile(hand)
    if typed is not None and " ".join(typed.split()).upper() != one_by_one.upper():
        lines.append(f"Tiles: {one_by_one}")
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
