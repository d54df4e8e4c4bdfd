"""Turning engine values into renderer scenes: the one bridge between `bot.engine` and
`renderer`.

Everything a player is shown as a picture is built here from a seat's `View` (or from a card,
or an analysis), never from the full game state, so a picture cannot show a hidden tile. The
renderer takes tile codes; this module converts kinds with the engine's notation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from bot.analysis import Analysis
from bot.engine.cards.model import FIXED_SUITS, SUIT_VARIABLES, Card, Group, Hand
from bot.engine.game.events import EndReason, PassName
from bot.engine.game.state import finishing
from bot.engine.game.view import MahjongView, View
from bot.engine.tiles import GREEN, RED, SOAP, format_tile, is_suited, suit_of
from bot.tables.narrate import laid_out_words
from renderer import (
    AnalysisScene,
    CardGroup,
    CardHand,
    CardSection,
    CardSheet,
    CharlestonStep,
    LaidGroup,
    NearestHand,
    Rack,
    RackScene,
    ResultScene,
    ResultSeat,
    ScoreItem,
    SeatScene,
    TableScene,
)

#: The renderer's colour slots are 0 green, 1 red, 2 blue: the colours of Bams, Craks, Dots.
_DRAGON_SLOT = {GREEN: 0, RED: 1, SOAP: 2}
_PASS_LABELS = {
    PassName.FIRST_RIGHT: "First Charleston: pass right",
    PassName.FIRST_ACROSS: "First Charleston: pass across",
    PassName.FIRST_LEFT: "First Charleston: pass left",
    PassName.SECOND_LEFT: "Second Charleston: pass left",
    PassName.SECOND_ACROSS: "Second Charleston: pass across",
    PassName.SECOND_RIGHT: "Second Charleston: pass right",
    PassName.COURTESY: "Courtesy pass",
}


def codes(kinds: Iterable[int]) -> tuple[str, ...]:
    """Tile kinds as the renderer's text codes."""
    return tuple(format_tile(kind) for kind in kinds)


def group_slot(kinds: Sequence[int]) -> int | None:
    """The colour of a laid-out group: its suit's, or its dragon's suit's; None for winds and
    flowers."""
    for kind in kinds:
        if is_suited(kind):
            return int(suit_of(kind))
    return next((_DRAGON_SLOT[k] for k in kinds if k in _DRAGON_SLOT), None)


# -- cards -------------------------------------------------------------------------------

def _card_group(group: Group) -> CardGroup:
    form = group.forms[0]
    text = "/".join(f.body for f in group.forms)
    if form.suit in SUIT_VARIABLES:
        slot: int | None = SUIT_VARIABLES.index(form.suit)
    elif form.suit in FIXED_SUITS:
        slot = FIXED_SUITS[form.suit]
    else:
        slot = None
    return CardGroup(text, slot)


def card_line(hand: Hand) -> tuple[CardGroup, ...]:
    """A hand as printed: its groups with colour slots, alternatives joined by `or`."""
    line: list[CardGroup] = []
    for index, pattern in enumerate(hand.patterns):
        if index:
            line.append(CardGroup("or"))
        line.extend(_card_group(group) for group in pattern)
    return tuple(line)


def card_sheet(card: Card, *, private: bool = False) -> CardSheet:
    """A whole card, section by section, for `/card show` and the card image."""
    sections = tuple(
        CardSection(section, tuple(
            CardHand(card_line(hand), hand.value, hand.concealed, hand.note, hand.id)
            for hand in card.hands if hand.section == section))
        for section in card.sections)
    subtitle = f"{card.year}" if card.year else ""
    return CardSheet(card.name, sections, subtitle=subtitle, notes=card.notes, private=private)


def card_columns(sheet: CardSheet) -> int:
    """Columns for a card sheet: two for a full card, so the picture stays readable on a
    phone instead of becoming one very tall strip."""
    hands = sum(len(section.hands) for section in sheet.sections)
    return 2 if hands > 20 else 1


def _hand_label(hand: Hand) -> str:
    kind = "concealed" if hand.concealed else "exposed"
    return f"{hand.id} · {hand.section} · {hand.value} · {kind}"


# -- analysis ----------------------------------------------------------------------------

def _laid_near(target: Sequence[int], have: Sequence[int]) -> LaidGroup:
    """A group of a near hand: the tiles held (jokers included) in place, the rest greyed."""
    if len(set(target)) == 1:
        shown = (*have, *target[len(have):])
        missing = tuple(i >= len(have) for i in range(len(target)))
        return LaidGroup(codes(shown), missing, group_slot(target))
    held = Counter(have)
    flags = []
    for kind in target:
        flags.append(held[kind] == 0)
        held[kind] -= 1
    return LaidGroup(codes(target), tuple(flags), group_slot(target))


def analysis_scene(analysis: Analysis) -> AnalysisScene:
    """The nearest hands with the missing tiles greyed, or the completed hand."""
    nearest: list[NearestHand] = []
    for match in analysis.matches:
        nearest.append(NearestHand(
            f"Mah Jongg: {_hand_label(match.hand)}", 0,
            tuple(LaidGroup(codes(g), color=group_slot(g)) for g in match.groups)))
    for near in () if analysis.matches else analysis.nearest:
        laid = [_laid_near(target, have) for target, have in zip(near.target, near.groups,
                                                                  strict=True)]
        notes = []
        if near.need_natural:
            notes.append("needs " + " ".join(codes(near.need_natural)))
        if near.need_any:
            notes.append("open for jokers: " + " ".join(codes(near.need_any)))
        nearest.append(NearestHand(_hand_label(near.hand), near.away, tuple(laid),
                                   "; ".join(notes)))
    hand = analysis.hand
    return AnalysisScene(
        hand=codes(hand.concealed),
        exposures=tuple(codes(e.tiles) for e in hand.exposures),
        nearest=tuple(nearest),
        waits=codes(w.tile for w in analysis.waits),
        title="Hand analysis",
        caption=f"{hand.size} tiles against {analysis.card_name}",
    )


# -- a seat's views ----------------------------------------------------------------------

def rack_scene(view: View, *, name: str, drawn: int | None = None,
               caption: str = "") -> RackScene:
    """A seat's private rack. Two racks in the Siamese-style game: the concealed tiles are one
    pool (they move freely) shared out over both racks; exposures stay on their own rack."""
    me = view.seats[view.seat]
    racks_count = len(me.dead)
    concealed = list(view.concealed)
    if drawn is not None and drawn in concealed:
        concealed.remove(drawn)
    else:
        drawn = None
    concealed.sort()
    # Tiles move freely between a Siamese player's racks, so they are simply shared out in
    # rack order to keep each rack about a phone's width.
    share = -(-len(concealed) // racks_count)
    racks = []
    for rack in range(racks_count):
        exposures = tuple(codes(e.tiles) for e in me.exposures if e.rack == rack)
        exposures += tuple(codes(t for g in m.groups for t in g)
                           for m in me.mahjongs if m.rack == rack)
        label = f"Rack {rack + 1}" if racks_count > 1 else ""
        last = rack == racks_count - 1
        racks.append(Rack(codes(concealed[rack * share:(rack + 1) * share]), exposures,
                          format_tile(drawn) if last and drawn is not None else None, label))
    return RackScene(tuple(racks), name=name, caption=caption)


def _charleston_step(view: View) -> CharlestonStep | None:
    if view.charleston is None or view.charleston.pass_name is None:
        return None
    order = list(PassName)
    name = view.charleston.pass_name
    return CharlestonStep(_PASS_LABELS[name], order.index(name) + 1, len(order))


def table_scene(view: View, *, bots: Sequence[bool], title: str = "") -> TableScene:
    """The public table as `view.seat` sees it (other racks only as counts); a spectator view
    (seat -1) gives the picture posted to the whole table."""
    seats = []
    for seat in view.seats:
        racks = len(seat.dead)
        counts = (seat.concealed_count,) if racks == 1 else (seat.concealed_count, 0)
        exposures = tuple(codes(e.tiles) for e in seat.exposures)
        exposures += tuple(codes(t for g in m.groups for t in g) for m in seat.mahjongs)
        dead = all(seat.dead) if racks > 1 else seat.dead[0]
        note = "one rack dead" if racks > 1 and any(seat.dead) and not dead else ""
        seats.append(SeatScene(seat.player, seat.wind[:1] if seat.wind[:1] in "NEWS" else "",
                               counts, exposures, dead, bots[seat.seat], note))
    latest_by = view.discards[-1][0] if view.discards else None
    viewer = view.seat if view.seat >= 0 else None
    return TableScene(tuple(seats), codes(kind for _, kind in view.discards), view.wall_count,
                      view.turn, latest_by, _charleston_step(view), viewer, title)


def _played_line(hand: Hand, groups: Sequence[Sequence[int]]) -> tuple[CardGroup, ...]:
    """The card line of the pattern that was played, coloured by the suits actually used
    (a printed card's colours are placeholders; the winning hand's are real)."""
    for pattern in hand.patterns:
        sizes = [{form.size for form in group.forms} for group in pattern]
        if len(pattern) == len(groups) and all(
                len(tiles) in size for tiles, size in zip(groups, sizes, strict=True)):
            return tuple(
                CardGroup(_card_group(group).text,
                          group_slot(tiles) if group.forms[0].suit is not None else None)
                for group, tiles in zip(pattern, groups, strict=True))
    return card_line(hand)


def _laid(mahjong: MahjongView) -> tuple[LaidGroup, ...]:
    return tuple(LaidGroup(codes(g), color=group_slot(g)) for g in mahjong.groups)


def result_scene(view: View, card: Card, *, bots: Sequence[bool]) -> ResultScene:
    """The end of a game as `view.seat` sees it: the winning hand and the breakdown, or a
    wall game summary. Amounts are each seat's total for the game."""
    result = view.result
    if result is None:
        raise ValueError("the game is not over")
    amounts = result.settlement if any(result.settlement) else result.totals
    names = [s.player for s in view.seats]
    # Where a game plays on after a Mah Jongg (the Siamese-style game), each seat shows the
    # Mah Jonggs it laid out: they are what is paid.
    siamese = len(view.seats[0].dead) > 1
    seats = tuple(ResultSeat(
        s.player, amounts[s.seat], (),
        tuple(codes(t for g in m.groups for t in g) for m in result.mahjongs
              if siamese and m.seat == s.seat),
        all(s.dead), bots[s.seat]) for s in view.seats)
    breakdown = tuple(ScoreItem(line.text, "") for line in result.lines)
    first = finishing(result.reason, result.mahjongs)
    if first is None:
        title = "Wall game" if result.reason is EndReason.WALL else "Game over"
        if not result.mahjongs:
            return ResultScene(seats, None, title, breakdown=breakdown)
        caption = laid_out_words(result.mahjongs, names) + "."
        title = "Tiles ran out" if result.reason is EndReason.WALL else title
        return ResultScene(seats, None, title, breakdown=breakdown, caption=caption)
    hand = card.hand(first.hand_id)
    how = ("picked the winning tile" if first.self_picked
           else f"took the winning tile from {view.seats[first.discarder].player}"
           if first.discarder is not None else "won")
    return ResultScene(seats, first.seat, "Mah Jongg!", _hand_label(hand),
                       _played_line(hand, first.groups), _laid(first), breakdown,
                       f"{view.seats[first.seat].player} {how}.")
