"""Hand analysis as plain text: what a hand completes, how far it is from the nearest card
hands, and what it waits for; for a player of two racks, which tiles go to which rack.

Shared by `jongg analyze`, the `/analyze` command and hints (Discord's Hint button, the
terminal game's `hint`), so every place checks a typed hand the same way and tells a player
the same thing in the same words.

What a hand still needs is told by what can fill each place (`Needs`): a tile the player can
still get, or a joker. A tile is out of reach when the set holds no more copies than the
player's own tiles and the tiles face up on the table, so "need 3D or jokers" is said only
while a 3D can come; otherwise the place needs a joker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.cards import Card
from bot.engine.cards.compile import HAND_SIZE
from bot.engine.errors import InvalidInput, echo
from bot.engine.game import View
from bot.engine.game.seen import live_racks, rack_exposures, visible_counts
from bot.engine.matcher import (
    CardMatcher,
    Exposure,
    MahjongMatch,
    NearHand,
    PlayerHand,
    Wait,
    matcher_for,
)
from bot.engine.rack_split import Split, split_racks
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
class Needs:
    """What a near hand still needs, by what may fill each place: `naturals`, places only
    that tile fills; `either`, places that tile or a joker fills; `jokers`, joker-able places
    whose tile can't come any more, so only a joker fills them; `gone`, places only a tile
    that can't come any more fills (this way of making the hand is blocked)."""

    naturals: tuple[int, ...]
    either: tuple[int, ...]
    jokers: tuple[int, ...]
    gone: tuple[int, ...]


@dataclass(frozen=True)
class Analysis:
    """Everything `analyze` (or a hint) found for one hand.

    `coming` counts, per kind, the copies the player can still get: the set less its own
    tiles (and, for a hint, the tiles face up on the table). With two live racks, `split`
    is the plan for both (None when no pair of hands can be made) and `rack_waits` the tiles
    that complete each rack of it; `nearest` and `waits` are then empty. `note` says what
    the analysis covers when that is not plain from the hand."""

    hand: PlayerHand
    card_name: str
    matches: tuple[MahjongMatch, ...]
    nearest: tuple[NearHand, ...]
    waits: tuple[Wait, ...]
    coming: tuple[int, ...] = STANDARD_COUNTS
    split: Split | None = None
    rack_waits: tuple[tuple[Wait, ...], ...] = ()
    two_racks: bool = False
    note: str = ""

    def needs(self) -> tuple[Needs, ...]:
        """What each hand shown still needs: each nearest hand on its own (they are
        alternatives), or the split's two racks together (they share what can come)."""
        if self.two_racks:
            coming = list(self.coming)
            return tuple(sort_needs(plan.near, coming)
                         for plan in (self.split.plans if self.split else ()))
        return tuple(sort_needs(near, list(self.coming)) for near in self.nearest)


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


def analyze(matcher: CardMatcher, hand: PlayerHand, count: int = 5,
            visible: Sequence[int] | None = None, note: str = "") -> Analysis:
    """Run the matcher's questions that fit the hand's size. `visible` counts, per kind, the
    tiles face up on the table, the hand's exposures among them (by default only those)."""
    matches = tuple(matcher.mahjong(hand)) if hand.size == HAND_SIZE else ()
    waits = tuple(matcher.waits(hand)) if hand.size == HAND_SIZE - 1 else ()
    if visible is None:
        visible = kind_counts(t for e in hand.exposures for t in e.tiles)
    return Analysis(hand, matcher.card.name, matches, tuple(matcher.nearest(hand, count)), waits,
                    _coming(matcher.counts, hand.concealed, visible), note=note)


def _coming(counts: Sequence[int], concealed: Sequence[int],
            visible: Sequence[int]) -> tuple[int, ...]:
    """Copies of each kind that can still come: the set less the player's concealed tiles
    and the tiles face up."""
    held = kind_counts(concealed)
    return tuple(max(0, n - have - seen) for n, have, seen in zip(counts, held, visible,
                                                                  strict=True))


def sort_needs(near: NearHand, coming: list[int]) -> Needs:
    """What `near` needs, sorted by what can fill each place given `coming` (copies per kind
    still to come), which is used up as the places take copies: natural-only places first,
    since a joker can't fill them."""
    def share(kinds: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        can: list[int] = []
        cannot: list[int] = []
        for kind in kinds:
            if coming[kind] > 0:
                coming[kind] -= 1
                can.append(kind)
            else:
                cannot.append(kind)
        return tuple(can), tuple(cannot)

    naturals, gone = share(near.need_natural)
    either, jokers = share(near.need_any)
    return Needs(naturals, either, jokers, gone)


def need_words(needs: Needs, show: Callable[[Sequence[int]], str] = format_tiles) -> list[str]:
    """What a hand needs in words (tiles written by `show`), as the text and the picture
    say it: "need 2B", "need 5B or jokers", "need a joker for 3D (no more 3D can come)"."""
    words = []
    if needs.naturals:
        words.append(f"need {show(needs.naturals)}")
    if needs.either:
        words.append(f"need {show(needs.either)} or jokers")
    if needs.jokers:
        count = len(needs.jokers)
        jokers = "a joker" if count == 1 else f"{count} jokers"
        which = show(sorted(set(needs.jokers)))
        of = which if len(set(needs.jokers)) == 1 else "these"
        words.append(f"need {jokers} for {show(needs.jokers)} (no more {of} can come)")
    if needs.gone:
        words.append(f"need {show(needs.gone)}, which can't come any more")
    return words


#: How many nearest hands a hint shows.
HINT_HANDS = 3


def hint(card: Card, counts: Sequence[int], view: View) -> Analysis:
    """A hint for the seat whose view this is, from that view only, against the table's card:
    its nearest hands (with what each needs) and its waits; with two live racks, the split
    of its tiles between them. Runs the matcher: off an event loop, call it in a worker."""
    matcher = matcher_for(card, counts)
    visible = visible_counts(view)
    if view.claim is not None:
        visible[view.claim.kind] -= 1  # the discard on offer can still be called
    mine = view.seats[view.seat]
    racks = live_racks(view) or tuple(range(len(mine.dead)))
    exposures = {rack: rack_exposures(view, view.seat, rack) for rack in racks}
    if len(racks) == 2:
        found = split_racks(matcher, view.concealed, exposures, visible=visible)
        split = found[0] if found else None
        return Analysis(seat_hand(view), card.name, (), (), (),
                        _coming(counts, view.concealed, visible), split,
                        _rack_waits(matcher, split), two_racks=True)
    rack = racks[0]
    note = (f"Only rack {rack + 1} can still win: the nearest hands for it from all your "
            "tiles." if len(mine.dead) == 2 else "")
    return analyze(matcher, PlayerHand(view.concealed, exposures[rack]), HINT_HANDS, visible,
                   note)


def _rack_waits(matcher: CardMatcher, split: Split | None) -> tuple[tuple[Wait, ...], ...]:
    """For each rack of a split, the tiles that complete its 13 tiles when it is one away."""
    if split is None:
        return ()
    return tuple(tuple(matcher.waits(PlayerHand(plan.keep, plan.exposures)))
                 if plan.near.away == 1 else () for plan in split.plans)


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


def _waits_text(waits: Sequence[Wait]) -> str:
    return "; ".join(f"{tile_name(w.tile)} ({', '.join(h.id for h in w.hands)})" for w in waits)


def _near_lines(label: str, near: NearHand, needs: Needs, kept: str = "") -> list[str]:
    """A near hand in two lines: how far, which hand, its tiles; then what it keeps and
    needs."""
    target = "  ".join(format_group(g) for g in near.target)
    away = "Mah Jongg" if near.away == 0 and kept else f"{near.away} away"
    words = [kept] if kept else []
    words += need_words(needs)
    if near.unused:
        words.append(f"not used: {format_tiles(near.unused)}")
    lines = [f"  {label}{away}  {_hand_label(near)}: {target}"]
    if words:
        lines.append("           " + "; ".join(words))
    return lines


def format_analysis(analysis: Analysis, typed: str | None = None) -> str:
    """The analysis as a few short lines of text, ready for a terminal or a chat message.
    A hand a person `typed` is said back as they wrote it (shortened if long), then as the
    tiles it was read as, one by one; a seat's own hand (a hint) as its rack shows it."""
    if analysis.two_racks:
        return _format_two_racks(analysis)
    hand = analysis.hand
    tiles = "1 tile" if hand.size == 1 else f"{hand.size} tiles"
    shown = str(hand) if typed is None else echo(typed)
    lines = [f"Hand: {shown}  ({tiles}, card: {analysis.card_name})"]
    one_by_one = _tile_by_tile(hand)
    if typed is not None and " ".join(typed.split()).upper() != one_by_one.upper():
        lines.append(f"Tiles: {one_by_one}")
    if analysis.note:
        lines.append(f"Note: {analysis.note}")
    elif hand.size not in (HAND_SIZE, HAND_SIZE - 1):
        lines.append(f"Note: a hand has 13 tiles between turns and 14 to declare; this one has "
                     f"{hand.size}, so only the nearest hands are shown.")
    for match in analysis.matches:
        laid_out = "  ".join(format_group(g) for g in match.groups)
        bonus = " jokerless" if match.jokerless and not match.hand.singles_and_pairs else ""
        lines.append(f"MAH JONGG: {_hand_label(match)}{bonus}, worth {match.score_value}: "
                     f"{laid_out}")
    if analysis.waits:
        lines.append("Waiting for: " + _waits_text(analysis.waits))
    if not analysis.nearest:
        lines.append("No hand on this card can be made with these exposures.")
    elif not analysis.matches:
        lines.append("Nearest hands:")
        for near, needs in zip(analysis.nearest, analysis.needs(), strict=True):
            lines += _near_lines("", near, needs)
    return "\n".join(lines)


def _format_two_racks(analysis: Analysis) -> str:
    """A two-rack hint: each rack's hand, the tiles it keeps and what it needs, and the tiles
    neither rack uses."""
    hand = analysis.hand
    lines = [f"Hand: {hand}  ({hand.size} tiles on two racks, card: {analysis.card_name})"]
    split = analysis.split
    if split is None:
        lines.append("No pair of hands on this card can be made on your two racks.")
        return "\n".join(lines)
    lines.append(f"Your two racks, {split.away} away together:")
    for plan, needs, waits in zip(split.plans, analysis.needs(), analysis.rack_waits,
                                  strict=True):
        exposed = ", ".join(str(e) for e in plan.exposures)
        kept = f"keep {format_tiles(plan.keep)}" if plan.keep else "keep nothing yet"
        if exposed:
            kept += f" (exposed {exposed})"
        lines += _near_lines(f"Rack {plan.rack + 1}: ", plan.near, needs, kept)
        if waits:
            lines.append(f"           waiting for: {_waits_text(waits)}")
    if split.spare:
        lines.append(f"  Neither rack (discard candidates): {format_tiles(split.spare)}")
    return "\n".join(lines)
