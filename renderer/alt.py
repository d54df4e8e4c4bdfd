"""Alt text: each picture said in words, for screen readers.

Every `describe_*` function takes the same scene its `render_*` function draws and says what
the picture shows: the tiles by name, the table's state, the result. Built from the scene and
nothing else, the words can say no more than the picture does, so they go wherever the
picture goes (a rack's words only where the rack goes) and never leak a hidden tile.

Lines reuse the picture's own wording (its status lines, rack labels, badges) so the two
agree. Repeated discards are counted in words a screen reader says well (`3 Bam twice`).
Each text is at most `ALT_LIMIT` characters: Discord's limit on an attachment's description,
and about as much as anyone wants read out for one picture.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from renderer.analysis import SPARE_TITLE, away_text
from renderer.card import card_pages, suit_key
from renderer.codes import WIND_CODES, sort_tiles, tile_name
from renderer.faceup import rack_label
from renderer.rack import pool_label
from renderer.result import title_lines, winning_tile_line
from renderer.scenes import (
    AnalysisScene,
    CardGroup,
    CardSection,
    CardSheet,
    LaidGroup,
    Rack,
    RackScene,
    ResultScene,
    TableScene,
)
from renderer.series import SeriesScene
from renderer.standings import StandingsScene, number_text
from renderer.table import latest_line, status_line

#: The longest alt text, in characters (Discord refuses an attachment description longer).
ALT_LIMIT = 1024
_WIND_NAMES = dict(zip(WIND_CODES, ("North", "East", "West", "South"), strict=True))


def _fit(parts: Iterable[str]) -> str:
    """The non-empty parts as sentences, cut with an ellipsis to `ALT_LIMIT` characters."""
    text = " ".join(part if part.endswith((".", "!", "?")) else f"{part}."
                    for part in parts if part)
    return text if len(text) <= ALT_LIMIT else text[:ALT_LIMIT - 1].rstrip() + "…"


def tiles_text(codes: Sequence[str], *, counted: bool = False) -> str:
    """Tiles by name in the order given; with `counted`, each kind once in rack order with
    how often it comes (`3 Bam twice`, `Red 3 times`)."""
    if not counted:
        return ", ".join(tile_name(code) for code in codes)
    counts = Counter(codes)
    times = {1: "", 2: " twice"}
    return ", ".join(tile_name(code) + times.get(counts[code], f" {counts[code]} times")
                     for code in sort_tiles(counts))


def _groups_text(groups: Sequence[Sequence[str]]) -> str:
    return "; ".join(tiles_text(group) for group in groups)


def _laid_text(groups: Sequence[LaidGroup]) -> str:
    """Laid-out groups, each tile still needed said so."""
    return "; ".join(", ".join(tile_name(code) + (" (needed)" if group.missing
                                                  and group.missing[place] else "")
                               for place, code in enumerate(group.tiles))
                     for group in groups)


def _racks_text(racks: Sequence[Rack]) -> list[str]:
    """Each rack's label and what lies face up on it."""
    found: list[str] = []
    for index, rack in enumerate(racks):
        label = rack_label(rack, index, len(racks))
        groups = _laid_text(rack.mahjong) if rack.mahjong else _groups_text(rack.exposures)
        found.append(f"{label}: {groups}" if groups else label)
    return found


def describe_rack(scene: RackScene) -> str:
    """The rack picture in words: the concealed tiles, the one just drawn, what each rack
    shows face up, and the caption."""
    owner = f"{scene.name}'s rack" if scene.name else "Your rack"
    count = len(scene.concealed)
    return _fit([
        f"{owner}: {count} concealed tile{'s' if count != 1 else ''}"
        + (f": {tiles_text(sort_tiles(scene.concealed))}" if count else ""),
        f"Just drawn: {tile_name(scene.drawn)}" if scene.drawn is not None else "",
        pool_label(scene),
        *_racks_text(scene.racks),
        scene.caption,
    ])


def _seat_text(scene: TableScene, index: int) -> str:
    seat = scene.seats[index]
    marks = [_WIND_NAMES[seat.wind]] if seat.wind else []
    marks += [mark for on, mark in ((scene.turn == index, "next" if scene.calls_open
                                     else "to play"), (scene.viewer == index, "you"),
                                    (seat.bot, "bot"), (seat.dead, "dead")) if on]
    hidden = f"{seat.concealed_count} hidden tile{'s' if seat.concealed_count != 1 else ''}"
    if len(seat.racks) > 1:
        hidden += " for both racks"
    head = f"{seat.name} ({', '.join(marks)})" if marks else seat.name
    return f"{head}: {hidden}; " + "; ".join(_racks_text(seat.racks))


def describe_table(scene: TableScene) -> str:
    """The table picture in words: what the table waits for, the last tile thrown, the wall,
    every seat (hidden tiles as a count, face-up tiles by name) and the discards."""
    return _fit([
        scene.title or "The table",
        status_line(scene),
        latest_line(scene, scene.latest) if scene.latest is not None else "",
        scene.charleston.label if scene.charleston is not None else "",
        f"{scene.wall} tiles in the wall",
        *(_seat_text(scene, index) for index in range(len(scene.seats))),
        (f"Discards ({len(scene.discards)}): {tiles_text(scene.discards, counted=True)}"
         if scene.discards else "No discards yet"),
    ])


def _card_line(groups: Sequence[CardGroup]) -> str:
    """A card line as the notation writes it, each group with its suit letter (`2222a`)."""
    return " ".join(group.text + group.suit for group in groups)


def describe_result(scene: ResultScene) -> str:
    """The result picture in words: the headline, the winning hand with its card line, the
    winning tile and the score breakdown, then each seat's amount and revealed hand."""
    title, subtitle = title_lines(scene)
    parts = [title, subtitle]
    if scene.winner is not None:
        hand = scene.hand_label + (f" ({_card_line(scene.card_line)})" if scene.card_line
                                   else "")
        parts += [f"Hand: {hand}" if hand else "",
                  f"Laid out: {_laid_text(scene.groups)}" if scene.groups else "",
                  winning_tile_line(scene)]
        parts += [f"{item.label}: {item.value}" if item.value else item.label
                  for item in scene.breakdown]
    for seat in scene.seats:
        held = _groups_text([sort_tiles(seat.tiles), *seat.exposures] if seat.tiles
                            else seat.exposures)
        amount = f"{seat.amount:+d}" if seat.amount else "0"
        parts.append(f"{seat.name}{' (bot)' if seat.bot else ''}: {amount}"
                     + (" (dead hand)" if seat.dead else "") + (f"; {held}" if held else ""))
    return _fit(parts)


def describe_analysis(scene: AnalysisScene) -> str:
    """The analysis picture in words: the hand, its exposures, the waits, each nearest card
    hand (each rack's, for two racks) with the tiles it still needs marked, and the tiles
    neither rack uses."""
    parts = [scene.title, scene.caption, f"Your hand: {tiles_text(sort_tiles(scene.hand))}"]
    if scene.exposures:
        parts.append(f"Exposed: {_groups_text(scene.exposures)}")
    if scene.waits:
        parts.append(f"Waiting on: {tiles_text(scene.waits)}")
    parts += [f"{near.label}, {away_text(near.away)}: {_laid_text(near.groups)}"
              + (f" ({near.note})" if near.note else "") for near in scene.nearest]
    if scene.spare:
        parts.append(f"{SPARE_TITLE}: {tiles_text(sort_tiles(scene.spare))}")
    return _fit(parts)


def _section_text(section: CardSection) -> str:
    hands = "; ".join(
        f"{_card_line(hand.groups)}, {'concealed' if hand.concealed else 'exposed'}, "
        f"{hand.value} points" for hand in section.hands)
    return f"{section.name}: {hands}"


def describe_card_pages(sheet: CardSheet, *, scale: float = 1.0) -> tuple[str, ...]:
    """Each page of `render_card_pages` in words (the same pages at the same `scale`): the
    card's title, its suit key and each section's hands, line by line."""
    pages = card_pages(sheet, scale=scale)
    title = sheet.title + (" (private card)" if sheet.private else "")
    return tuple(_fit([title, f"Page {number} of {len(pages)}" if len(pages) > 1 else "",
                       suit_key(sheet), *(_section_text(section) for section in sections)])
                 for number, sections in enumerate(pages, start=1))


def describe_series(scene: SeriesScene) -> str:
    """The series picture in words: each person's place, total and games."""
    rows = [f"{row.place}. {row.name}: total {row.total:+d}" + (
        " (" + ", ".join(
            f"{game} {cell.amount:+d}" + (" bet" if cell.bettor else "")
            for game, cell in zip(scene.games, row.cells, strict=False) if cell is not None)
        + ")" if any(row.cells) else "") for row in scene.rows]
    return _fit([scene.title, scene.subtitle, *rows, scene.footer])


def describe_standings(scene: StandingsScene) -> str:
    """The standings picture in words: each player's rank, games, wins, points and rating."""
    rows = [(f"{row.rank}. {row.name}: " if row.rank is not None
             else f"{row.name} (not ranked yet): ")
            + f"{row.games} games, {row.wins} wins, {row.points} points, "
            f"{number_text(row.per_game, 1)} per game"
            + (f", rating {number_text(row.rating, 1)}" if row.rating is not None else "")
            for row in scene.rows]
    return _fit([scene.title, scene.subtitle, *rows, scene.footer])
