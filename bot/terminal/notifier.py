"""A game in the terminal against bots, through the same table service the Discord bot uses.

It is how a newcomer without a Discord token sees the game, and it keeps the table service
honest: nothing here knows about Discord. This module is what the terminal shows: the table's
lines, the human seat's own lines and rack (with its exposures), and, on request, the
discards and everyone's exposures; with an images folder, the table, the rack and the result
as PNG files. What the human is asked is `bot.terminal.prompt`.
"""

from __future__ import annotations

import shutil
import textwrap
from collections import Counter
from pathlib import Path
from typing import TextIO

from bot.engine.game import View
from bot.engine.game.view import SeatView
from bot.engine.tiles import format_group, format_tile, format_tiles
from bot.scenes import result_scene, seat_rack_scene, table_scene
from bot.tables.menu import layout
from bot.tables.narrate import headline
from bot.tables.notifier import Delivery, SeatUpdate, Table, TableUpdate
from bot.tables.reminders import Reminder
from renderer import render_rack, render_result, render_table


def wrap(text: str, width: int | None = None) -> str:
    """`text` fitted to the terminal's width (`width` columns, by default the terminal's own),
    each line broken between words and continued under its own indent, so no word is cut in
    two at the screen's edge. A word longer than a line stays whole."""
    columns = width if width is not None else shutil.get_terminal_size().columns
    lines = []
    for line in text.splitlines() or [""]:
        indent = " " * (len(line) - len(line.lstrip()))
        lines.extend(textwrap.wrap(line, columns, subsequent_indent=indent + "  ",
                                   break_long_words=False, break_on_hyphens=False)
                     or [line])
    return "\n".join(lines)


def _shown(seat: SeatView, rack: int) -> list[str]:
    """What a rack shows: its exposures (jokers as J) and any Mah Jongg laid out on it."""
    found = [format_group(e.tiles) for e in seat.exposures if e.rack == rack]
    found += [f"Mah Jongg {m.hand_id}" for m in seat.mahjongs if m.rack == rack]
    return found


def _racks(seat: SeatView) -> str:
    """A seat's racks as the table sees them: `666B, 55D J`, `rack 1: 666B · rack 2: —`."""
    if len(seat.dead) == 1:
        shown = ", ".join(_shown(seat, 0)) or "nothing exposed"
        return shown + (" (dead)" if seat.dead[0] else "")
    return " · ".join(f"rack {rack + 1}: " + (", ".join(_shown(seat, rack)) or "—")
                      + (" (dead)" if dead else "") for rack, dead in enumerate(seat.dead))


def rack_line(view: View) -> str:
    """The human seat's rack on one line: its concealed tiles, then what it has exposed."""
    me = view.seats[view.seat]
    tiles = format_tiles(view.concealed)
    if len(me.dead) == 1:
        shown = ", ".join(_shown(me, 0))
        return f"Your rack: {tiles}" + (f"  · exposed: {shown}" if shown else "")
    return f"Your tiles: {tiles}  · {_racks(me)}"


def exposures_text(view: View) -> str:
    """Every seat's exposures and laid-out Mah Jonggs."""
    return "\n".join(["Exposures:", *(f"  {s.player} ({s.wind}): {_racks(s)}"
                                       for s in view.seats)])


def discards_text(view: View) -> str:
    """The discards: each seat's, oldest first, and how many of each tile are out."""
    if not view.discards:
        return "No discards yet."
    lines = [f"Discards ({len(view.discards)}), oldest first:"]
    lines += [f"  {s.player}: {format_tiles(s.discards) if s.discards else '—'}"
              for s in view.seats]
    counts = Counter(kind for _, kind in view.discards)
    lines.append("  By tile: " + ", ".join(
        format_tile(kind) + (f" x{count}" if count > 1 else "")
        for kind, count in sorted(counts.items())))
    if view.claim is None:
        seat, kind = view.discards[-1]
        lines.append(f"  Latest: {view.seats[seat].player}'s {format_tile(kind)}.")
    return "\n".join(lines)


class TerminalNotifier:
    """Prints what the table learns and what the human seat learns; optionally writes the
    table and rack pictures to a folder."""

    def __init__(self, out: TextIO, images: Path | None = None) -> None:
        self.out = out
        self.images = images
        self.pictures = 0

    def _picture(self, name: str, png: bytes) -> None:
        if self.images is None:
            return
        self.pictures += 1
        path = self.images / f"{self.pictures:04d}-{name}.png"
        path.write_bytes(png)

    async def table_update(self, table: Table, update: TableUpdate,
                           delivery: Delivery) -> None:
        """Print the public lines; write a table picture when the turn moved."""
        for line in update.lines:
            print(wrap(f"  {line}"), file=self.out)
        if update.new_turn:
            scene = table_scene(update.view, bots=table.bots, title=f"Table {table.game_id}")
            self._picture("table", render_table(scene))

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate,
                          delivery: Delivery) -> None:
        """Print the seat's private lines, and its rack when it is asked something."""
        for line in update.lines:
            print(wrap(f"  ({line})"), file=self.out)
        if update.must_act and layout(update.view, table.options_of(seat)).asks(update.view):
            print(wrap(rack_line(update.view)), file=self.out)
            self._picture("rack", render_rack(seat_rack_scene(
                update.view, table.options_of(seat), name=table.names[seat],
                drawn=update.drawn, said=headline(update.view, table.names, update.drawn))))

    async def game_over(self, table: Table, view: View, delivery: Delivery) -> None:
        """Write the result picture."""
        self._picture("result", render_result(result_scene(view, table.card, bots=table.bots)))

    async def reminder(self, table: Table, seat: int, reminder: Reminder,
                       delivery: Delivery) -> None:
        """Terminal games have no clocks; nothing to do."""

    async def new_thread(self, table: Table) -> int | None:
        """The terminal never goes away (and has no threads)."""
        return None

    async def table_moved(self, table: Table, delivery: Delivery) -> None:
        """Never asked: the terminal's table cannot move."""

    async def tell_host(self, table: Table, host_id: int, problem: str,
                        delivery: Delivery) -> None:
        """Print what is wrong (the terminal's output never fails, so this is not used)."""
        print(f"(Table {table.game_id}: {problem})", file=self.out)

