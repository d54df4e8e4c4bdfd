"""Turning engine values into renderer scenes: the one bridge between `bot.engine` and
`renderer`.

Everything a player is shown as a picture is built here from a seat's `View` (or from a card,
or an analysis), never from the full game state, so a picture cannot show a hidden tile. The
renderer takes tile codes; this module converts kinds with the engine's notation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from bot.analysis import Analysis, Needs, need_words
from bot.engine.cards.model import FIXED_SUITS, SUIT_VARIABLES, Card, Group, Hand
from bot.engine.game.events import EndReason, PassName
from bot.engine.game.rules import STANDARD
from bot.engine.game.state import Phase, finishing
from bot.engine.game.view import MahjongView, SeatView, View
from bot.engine.matcher import Exposure, NearHand, Wait
from bot.engine.tiles import GREEN, RED, SOAP, format_tile, is_suited, suit_of
from bot.tables.narrate import laid_out_words, pass_words
from bot.tables.seat_options import SeatOptions
from bot.tables.series import SeriesTotals
from renderer import (
    AnalysisScene,
    CardGroup,
    CardHand,
    CardSection,
    CardSheet,
    CharlestonStep,
    LaidGroup,
    Latest,
    NearestHand,
    Rack,
    RackScene,
    ResultScene,
    ResultSeat,
    ScoreItem,
    SeatScene,
    SeriesCell,
    SeriesRow,
    SeriesScene,
    TableScene,
)
from renderer.series import MAX_GAMES

#: The renderer's colour slots are 0 green, 1 red, 2 blue: the colours of Bams, Craks, Dots.
_DRAGON_SLOT = {GREEN: 0, RED: 1, SOAP: 2}


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
    return CardGroup(text, slot, form.suit if slot is not None and form.suit else "")


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


def page_names(stem: str, pages: int) -> list[str]:
    """File names for a picture of one page (`card.png`) or of several (`card-1.png`, …)."""
    if pages == 1:
        return [f"{stem}.png"]
    return [f"{stem}-{number}.png" for number in range(1, pages + 1)]


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


def _near_scene(label: str, near: NearHand, needs: Needs, exposed: Sequence[Exposure] = (),
                waits: Sequence[Wait] = ()) -> NearestHand:
    """A near hand's panel: its groups with the missing tiles greyed; its rack's exposures,
    what it needs and the tiles it waits for, in words."""
    laid = [_laid_near(target, have) for target, have in zip(near.target, near.groups,
                                                              strict=True)]
    notes = [f"exposed {' '.join(codes(e.tiles))}" for e in exposed]
    notes += need_words(needs, lambda kinds: " ".join(codes(kinds)))
    if waits:
        notes.append("waiting for " + " ".join(codes(w.tile for w in waits)))
    return NearestHand(label, near.away, tuple(laid), "; ".join(notes))


def analysis_scene(analysis: Analysis) -> AnalysisScene:
    """The nearest hands with the missing tiles greyed, or the completed hand; for two racks,
    each rack's hand and the tiles neither uses."""
    hand = analysis.hand
    if analysis.two_racks:
        split = analysis.split
        racks = []
        for plan, needs, waits in zip(split.plans if split else (), analysis.needs(),
                                      analysis.rack_waits, strict=True):
            racks.append(_near_scene(f"Rack {plan.rack + 1}: {_hand_label(plan.near.hand)}",
                                     plan.near, needs, plan.exposures, waits))
        return AnalysisScene(
            hand=codes(hand.concealed), nearest=tuple(racks),
            title="Hand analysis", heading="Your two racks",
            caption=f"{hand.size} tiles on two racks against {analysis.card_name}"
                    + (f", {split.away} away together" if split else ""),
            spare=codes(split.spare if split else ()))
    nearest: list[NearestHand] = []
    for match in analysis.matches:
        nearest.append(NearestHand(
            f"Mah Jongg: {_hand_label(match.hand)}", 0,
            tuple(LaidGroup(codes(g), color=group_slot(g)) for g in match.groups)))
    if not analysis.matches:
        nearest += [_near_scene(_hand_label(near.hand), near, needs)
                    for near, needs in zip(analysis.nearest, analysis.needs(), strict=True)]
    return AnalysisScene(
        hand=codes(hand.concealed),
        exposures=tuple(codes(e.tiles) for e in hand.exposures),
        nearest=tuple(nearest),
        waits=codes(w.tile for w in analysis.waits),
        title="Hand analysis",
        caption=analysis.note or f"{hand.size} tiles against {analysis.card_name}",
    )


# -- a seat's views ----------------------------------------------------------------------

def _laid(mahjong: MahjongView) -> tuple[LaidGroup, ...]:
    """A Mah Jongg's groups in their card colours, the winning tile marked."""
    winning_group, winning_place = mahjong.winning or (None, None)
    return tuple(LaidGroup(codes(g), color=group_slot(g),
                           winning=winning_place if index == winning_group else None)
                 for index, g in enumerate(mahjong.groups))


def _racks(seat: SeatView) -> tuple[Rack, ...]:
    """What each of a seat's racks shows face up: its exposures, or its Mah Jongg."""
    racks = []
    for rack, dead in enumerate(seat.dead):
        mahjong = next((m for m in seat.mahjongs if m.rack == rack), None)
        racks.append(Rack(
            exposures=tuple(codes(e.tiles) for e in seat.exposures if e.rack == rack),
            mahjong=_laid(mahjong) if mahjong is not None else (),
            hand=f"{mahjong.hand_id}, {mahjong.value} points" if mahjong is not None else "",
            dead=dead))
    return tuple(racks)


def rack_scene(view: View, *, name: str, drawn: int | None = None,
               caption: str = "") -> RackScene:
    """A seat's private rack: its concealed tiles (the tile just drawn apart) and what each
    of its racks shows. In the Siamese-style game the concealed tiles are one pool that
    serves both racks, as the game holds them; exposures belong to their rack."""
    concealed = list(view.concealed)
    if drawn is not None and drawn in concealed:
        concealed.remove(drawn)
    else:
        drawn = None
    return RackScene(codes(concealed), format_tile(drawn) if drawn is not None else None,
                     _racks(view.seats[view.seat]), name=name, caption=caption)


def seat_rack_scene(view: View, options: SeatOptions, *, name: str, drawn: int | None,
                    said: str) -> RackScene:
    """A seat's rack as its holder's options show it: with auto-sort the tile just drawn is
    sorted in (otherwise it waits apart), and the caption (`said`) names the options that
    are on."""
    caption = " · ".join(part for part in (said, options.caption()) if part)
    return rack_scene(view, name=name, drawn=None if options.auto_sort else drawn,
                      caption=caption)


def _charleston_step(view: View) -> CharlestonStep | None:
    """Where the Charleston is, the vote and the courtesy offers included."""
    order = list(PassName)
    if view.phase is Phase.VOTE:
        return CharlestonStep("First Charleston done: vote to go on or stop",
                              order.index(PassName.FIRST_LEFT) + 1, len(order))
    if view.phase is Phase.COURTESY_OFFER:
        return CharlestonStep("Courtesy pass: agree how many tiles to trade",
                              order.index(PassName.COURTESY) + 1, len(order))
    if view.charleston is None or view.charleston.pass_name is None:
        return None
    name = view.charleston.pass_name
    return CharlestonStep(pass_words(name, joint=": ", capital=True), order.index(name) + 1,
                          len(order))


def _latest(view: View) -> Latest | None:
    """The last tile thrown: the discard just called (it lies on the caller's rack), the
    discard that ended the game with a Mah Jongg, or the last discard."""
    if view.called is not None:
        called = view.called
        mahjong = any(m.discarder == called.discarder and m.winning is not None
                      and m.groups[m.winning[0]][m.winning[1]] == called.kind
                      for m in view.seats[called.seat].mahjongs)
        return Latest(format_tile(called.kind), called.discarder, called.seat, mahjong)
    won = view.result.mahjongs if view.result is not None else ()
    if won and won[-1].discarder is not None and won[-1].winning is not None:
        group, place = won[-1].winning
        return Latest(format_tile(won[-1].groups[group][place]), won[-1].discarder, won[-1].seat,
                      mahjong=True)
    if view.discards:
        seat, kind = view.discards[-1]
        return Latest(format_tile(kind), seat)
    return None


def _next_live(view: View, after: int) -> int:
    """The seat that plays after `after` when nobody calls: the next live one."""
    size = len(view.seats)
    return next((seat for step in range(1, size + 1)
                 if view.seats[seat := (after + step) % size].live), (after + 1) % size)


def table_scene(view: View, *, bots: Sequence[bool], title: str = "") -> TableScene:
    """The public table as `view.seat` sees it (other racks only as counts); a spectator view
    (seat -1) gives the picture posted to the whole table. The heading is `title` followed by
    the game played, unless it is the standard game ("Table 10 · 4-player Royale-style")."""
    seats = tuple(SeatScene(seat.player, seat.wind[:1] if seat.wind[:1] in "NEWS" else "",
                            seat.concealed_count, _racks(seat), bots[seat.seat])
                  for seat in view.seats)
    calls_open = view.phase is Phase.CLAIM and view.claim is not None
    turn = view.turn
    if view.claim is not None and calls_open:
        turn = _next_live(view, view.claim.discarder)
    viewer = view.seat if view.seat >= 0 else None
    return TableScene(seats, codes(kind for _, kind in view.discards), view.wall_count, turn,
                      _latest(view), calls_open, _charleston_step(view),
                      view.phase is Phase.OVER, viewer, _heading(view, title))


def _heading(view: View, title: str) -> str:
    game = "" if view.rules == STANDARD.name else view.rules
    return " · ".join(part for part in (title or "Table", game) if part)


def _played_line(hand: Hand, groups: Sequence[Sequence[int]]) -> tuple[CardGroup, ...]:
    """The card line of the pattern that was played, coloured by the suits actually used
    (a printed card's colours are placeholders; the winning hand's are real)."""
    for pattern in hand.patterns:
        sizes = [{form.size for form in group.forms} for group in pattern]
        if len(pattern) == len(groups) and all(
                len(tiles) in size for tiles, size in zip(groups, sizes, strict=True)):
            slots = [group_slot(tiles) if group.forms[0].suit is not None else None
                     for group, tiles in zip(pattern, groups, strict=True)]
            return tuple(CardGroup(_card_group(group).text, slot,
                                   "" if slot is None else "BCD"[slot])
                         for group, slot in zip(pattern, slots, strict=True))
    return card_line(hand)


def result_scene(view: View, card: Card, *, bots: Sequence[bool]) -> ResultScene:
    """The end of a game as `view.seat` sees it: the winning hand and the breakdown, or a
    wall game summary. Amounts are what each seat settles: what changes hands, as the
    table's last line and the series say (the score lines give the hands' points)."""
    result = view.result
    if result is None:
        raise ValueError("the game is not over")
    names = [s.player for s in view.seats]
    # Where a game plays on after a Mah Jongg (the Siamese-style game), each seat shows the
    # Mah Jonggs it laid out: they are what is paid.
    siamese = len(view.seats[0].dead) > 1
    seats = tuple(ResultSeat(
        s.player, result.settlement[s.seat], (),
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


def series_scene(totals: SeriesTotals, *, title: str) -> SeriesScene:
    """A series' summary: each person by running total (ties share a place), with what they
    settled in each game (as the bettor, marked) and their total."""
    order = sorted(range(len(totals.people)), key=lambda p: (-totals.totals[p], p))
    rows = []
    for person in order:
        place = 1 + sum(total > totals.totals[person] for total in totals.totals)
        who = totals.people[person]
        rows.append(SeriesRow(
            place, f"{who.display_name} (bot)" if who.is_bot else who.display_name,
            tuple(SeriesCell(cell.amount, cell.bettor) if (cell := row[person]) else None
                  for row in totals.rounds),
            totals.totals[person]))
    games = totals.games
    subtitle = (f"{games} game{'s' if games != 1 else ''} · the deal passed to the right "
                "after each")
    footer = (f"Games {games - MAX_GAMES + 1}-{games} shown; totals count all {games}."
              if games > MAX_GAMES else "")
    return SeriesScene(title, subtitle, tuple(str(n + 1) for n in range(games)), tuple(rows),
                       footer)
