"""A game in the terminal against bots, through the same table service the Discord bot uses.

It is how a newcomer without a Discord token sees the game, and it keeps the table service
honest: nothing here knows about Discord. The human seat answers a numbered menu (or types a
tile to discard, or the tiles to pass); `--auto` lets the baseline bot play that seat too.
With an images folder, the table and the rack are also written as PNG files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from bot.engine.errors import MahjongError
from bot.engine.game import Action, Option, View
from bot.engine.game.actions import Discard, Give, Pass
from bot.engine.tiles import format_tiles, parse_tiles
from bot.scenes import rack_scene, result_scene, table_scene
from bot.tables.narrate import action_label, headline
from bot.tables.notifier import Delivery, SeatUpdate, Table, TableUpdate
from renderer import render_rack, render_result, render_table


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
            print(f"  {line}", file=self.out)
        if update.new_turn:
            self._picture("table", render_table(table_scene(update.view, bots=table.bots)))

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate,
                          delivery: Delivery) -> None:
        """Print the seat's private lines and rack."""
        for line in update.lines:
            print(f"  ({line})", file=self.out)
        if update.must_act and any(not isinstance(o.action, Pass) for o in update.view.legal):
            print(f"Your rack: {format_tiles(update.view.concealed)}", file=self.out)
            self._picture("rack", render_rack(rack_scene(
                update.view, name=table.names[seat], drawn=update.drawn,
                caption=headline(update.view, table.names, update.drawn))))

    async def game_over(self, table: Table, view: View, delivery: Delivery) -> None:
        """Write the result picture."""
        self._picture("result", render_result(result_scene(view, table.card, bots=table.bots)))

    async def reminder(self, table: Table, seat: int, due_at: float,
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


Ask = Callable[[str], str]


def choose_in_terminal(view: View, options: Sequence[Option], names: Sequence[str],
                       ask: Ask, out: TextIO, racks: int) -> Action:
    """Ask the human for one of the options until the answer is one; EOF raises EOFError."""
    if len(options) == 1 and isinstance(options[0].action, Pass):
        return options[0].action  # nothing to call on this discard: no need to ask
    for number, option in enumerate(options, start=1):
        warn = "  (warning: this would leave no hand possible)" if option.deadens else ""
        print(f"  {number:>2}. {action_label(option.action, names, racks=racks)}{warn}",
              file=out)
    while True:
        answer = ask("Choose a number, or type a tile to discard / tiles to pass: ").strip()
        if not answer:
            continue
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1].action
        try:
            kinds = parse_tiles(answer)
        except MahjongError as error:
            print(error.message, file=out)
            continue
        for option in options:
            action = option.action
            if isinstance(action, Discard) and kinds == (action.kind,):
                return action
            if isinstance(action, Give) and option.choice is not None and kinds:
                blind = option.choice.count - len(kinds)
                if 0 <= blind <= option.choice.blind_max:
                    return Give(view.seat, kinds, blind)
        print("That isn't one of the choices; try again.", file=out)
