"""A seat's private message: text, the rack picture and controls, built from its view only.

The controls come from the view's legal options as `bot.tables.menu` lays them out for the
seat: the discard menu, the pass menu (with blind passes where allowed), a button for every
other option (Mah Jongg first, Pass last), one "Call…" button when a discard can be called
two or more ways (it opens the calls, privately) and, last, "Declare a hand dead…" (it opens
a question naming the hand and what a wrong declaration costs, answered Yes or Cancel). When
there are more moves than buttons fit (many joker exchanges), Mah Jongg, Pass and those two
stay buttons and the rest go into menus, so every option is offered within Discord's five
rows. A call that would leave no hand possible is marked, so the player is warned before
choosing.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.components import (
    ALL_BLIND,
    ActButton,
    CancelButton,
    DeadTargetButton,
    Folder,
    FolderButton,
    GiveSelect,
    OptionSelect,
    ReclaimButton,
)
from bot.discord.games import GamesButton
from bot.discord.settings import SettingsButton
from bot.engine.game import Option, View
from bot.engine.game.actions import Call, CallMahjong, DeclareDead, Discard, Give, Mahjong, Pass
from bot.engine.tiles import format_tile, tile_name
from bot.scenes import seat_rack_scene
from bot.tables.errors import StalePrompt
from bot.tables.menu import (
    DEAD_CHOICE,
    calls_choice,
    calls_heading,
    dead_question,
    dead_target,
    layout,
)
from bot.tables.narrate import action_label, headline
from bot.tables.notifier import Table
from renderer import render_rack
from renderer.alt import describe_rack

#: Discord allows 25 entries in a menu, 5 rows of controls, 5 buttons to a row; a menu
#: takes a row of its own.
MENU_LIMIT = 25
ROWS = 5
PER_ROW = 5


@dataclass(frozen=True)
class Prompt:
    """A ready message: its text, the rack PNG, the controls and the picture's alt text
    (built from the same seat's view, so it goes only where the rack goes)."""

    text: str
    png: bytes
    view: discord.ui.View
    alt: str

    def file(self) -> discord.File:
        """The rack picture as an attachment with its alt text (a fresh file object each
        send)."""
        return discord.File(io.BytesIO(self.png), filename="rack.png", description=self.alt)


def _style(action: object) -> discord.ButtonStyle:
    if isinstance(action, Mahjong | CallMahjong):
        return discord.ButtonStyle.success
    if isinstance(action, Call):
        return discord.ButtonStyle.primary
    if isinstance(action, DeclareDead):
        return discord.ButtonStyle.danger
    return discord.ButtonStyle.secondary


def _chunks(entries: list[discord.SelectOption]) -> list[list[discord.SelectOption]]:
    return [entries[i:i + MENU_LIMIT] for i in range(0, len(entries), MENU_LIMIT)]


class PromptBuilder:
    """Builds prompts; rendering runs in a worker thread so the event loop never waits."""

    async def build(self, table: Table, view: View, *, drawn: int | None = None,
                    lines: tuple[str, ...] = (), deadline: float | None = None,
                    stood_in: bool = False) -> Prompt:
        """The prompt for `view.seat`; with `stood_in` (a bot keeps the seat), a Reclaim
        button first."""
        said = headline(view, table.names, drawn)
        scene = seat_rack_scene(view, table.options_of(view.seat), name=table.names[view.seat],
                                drawn=drawn, said=said)
        png = await asyncio.to_thread(render_rack, scene)
        text = "\n".join((*lines, f"**{said}**"))
        if deadline is not None and view.legal:
            text += f" (time left: <t:{int(deadline)}:R>)"
        text = f"Table {table.game_id} · {text}" if len(text) < 1900 else text[:1900]
        controls = self.controls(table, view)
        if stood_in:
            with contextlib.suppress(ValueError):
                controls.add_item(ReclaimButton(table.game_id, view.seat))
        if controls.children:
            # Beside the moves (a rack with nothing to do has no controls at all): the
            # person's settings and their other games. With every row taken, `/mj settings`
            # and `/mj games` still open them.
            for extra in (SettingsButton(), GamesButton()):
                with contextlib.suppress(ValueError):
                    controls.add_item(extra)
        return Prompt(text, png, controls, describe_rack(scene))

    def controls(self, table: Table, view: View) -> discord.ui.View:
        """The seat's options as menus and buttons, every one of them offered: directly, or
        behind "Call…" (two or more calls) and "Declare a hand dead…" (see
        `bot.tables.menu`)."""
        controls = discord.ui.View(timeout=None)
        game, seat, counter = table.game_id, view.seat, view.action_count
        offered = layout(view, table.options_of(seat))
        discards: list[discord.SelectOption] = []
        buttons: list[discord.ui.Item[Any]] = []
        for index in offered.direct:
            action = view.legal[index].action
            if isinstance(action, Discard):
                discards.append(discord.SelectOption(
                    label=tile_name(action.kind), value=str(index),
                    description=format_tile(action.kind)))
            elif not isinstance(action, Give):
                buttons.append(self._button(table, view, index))
        menus = [("Discard a tile…", chunk) for chunk in _chunks(discards)]
        give = next((o.choice for o in view.legal
                     if isinstance(o.action, Give) and o.choice and o.choice.count), None)
        give_rows = 0 if give is None else 1
        if offered.calls:
            buttons.append(FolderButton(game, seat, counter, Folder.CALLS,
                                        label=calls_choice(view, offered)))
        buttons.sort(key=lambda item: _rank(item, view))
        if offered.dead:
            buttons.append(FolderButton(game, seat, counter, Folder.DEAD, label=DEAD_CHOICE))
        if len(buttons) > (ROWS - len(menus) - give_rows) * PER_ROW:
            # Too many for buttons (many joker exchanges): Mah Jongg, Pass and the folders
            # stay buttons, the rest go in menus.
            key = [b for b in buttons if not isinstance(b, ActButton)
                   or isinstance(view.legal[b.index].action, Mahjong | CallMahjong | Pass)]
            more = [_entry(b.index, view.legal[b.index], table.names, table.rules.racks)
                    for b in buttons if isinstance(b, ActButton) and b not in key]
            menus += [("Swap or play…", chunk) for chunk in _chunks(more)]
            buttons = key
        menus = menus[:ROWS - give_rows]
        for part, (placeholder, entries) in enumerate(menus):
            controls.add_item(OptionSelect(game, seat, counter, entries, part=part,
                                           placeholder=placeholder))
        if give is not None:
            entries = [discord.SelectOption(label=tile_name(kind), value=f"{i}:{kind}")
                       for i, kind in enumerate(give.kinds[:MENU_LIMIT - 1])]
            if give.blind_max >= give.count:
                # A blind pass may send on every tile unseen; a menu needs one choice.
                entries.append(discord.SelectOption(
                    label=f"Pass all {give.count} blind (none of mine)", value=ALL_BLIND))
            low = max(give.count - give.blind_max, 1)
            controls.add_item(GiveSelect(game, seat, counter, entries, low=low,
                                         high=give.count))
        free = ROWS - len(menus) - give_rows
        for button in buttons[:free * PER_ROW]:
            controls.add_item(button)
        return controls

    def _button(self, table: Table, view: View, index: int,
                label: str | None = None) -> ActButton:
        """Option `index` as a button (a call that leaves no hand possible says so)."""
        option = view.legal[index]
        if label is None:
            label = action_label(option.action, table.names, racks=table.rules.racks)
            if option.deadens:
                label = f"⚠ {label} (leaves no hand possible)"
        return ActButton(table.game_id, view.seat, view.action_count, index, label=label,
                         style=_style(option.action))

    def folder(self, table: Table, view: View, which: Folder) -> tuple[str, discord.ui.View]:
        """What a folder opens, privately: the calls on the discard, or the hands that may
        be declared dead (straight to the confirmation when there is one)."""
        offered = layout(view, table.options_of(view.seat))
        controls = discord.ui.View(timeout=None)
        if which is Folder.CALLS:
            indexes = offered.calls
            if len(indexes) > ROWS * PER_ROW:
                for part, chunk in enumerate(_chunks(
                        [_entry(i, view.legal[i], table.names, table.rules.racks)
                         for i in indexes])[:ROWS]):
                    controls.add_item(OptionSelect(table.game_id, view.seat, view.action_count,
                                                   chunk, part=part, placeholder="Call…"))
            else:
                for index in indexes:
                    controls.add_item(self._button(table, view, index))
            return calls_heading(view, table.names, offered), controls
        if len(offered.dead) == 1:
            return self.confirm_dead(table, view, offered.dead[0])
        for index in offered.dead[:ROWS * PER_ROW]:
            action = view.legal[index].action
            assert isinstance(action, DeclareDead)
            controls.add_item(DeadTargetButton(
                table.game_id, view.seat, view.action_count, index,
                label=dead_target(view, action, table.names)))
        return ("Whose hand? You'll be asked to confirm; a wrong declaration costs you "
                "your own hand."), controls

    def confirm_dead(self, table: Table, view: View,
                     index: int) -> tuple[str, discord.ui.View]:
        """The question that confirms declaring option `index`'s hand dead, with Yes and
        Cancel."""
        action = view.legal[index].action if 0 <= index < len(view.legal) else None
        if not isinstance(action, DeclareDead):  # only a forged custom id points elsewhere
            raise StalePrompt("That choice is no longer there; use the newest prompt.")
        controls = discord.ui.View(timeout=None)
        controls.add_item(self._button(table, view, index, label="Yes, declare it dead"))
        controls.add_item(CancelButton(table.game_id))
        return dead_question(view, action, table.names), controls


def _rank(item: discord.ui.Item[Any], view: View) -> tuple[bool, bool]:
    """Buttons in order: Mah Jongg first, Pass last, the rest as the engine lists them."""
    if not isinstance(item, ActButton):
        return (True, False)
    action = view.legal[item.index].action
    return (not isinstance(action, Mahjong | CallMahjong), isinstance(action, Pass))


def _entry(index: int, option: Option, names: tuple[str, ...],
           racks: int) -> discord.SelectOption:
    """A menu entry for an option that did not fit as a button."""
    label = action_label(option.action, names, racks=racks)
    if option.deadens:
        return discord.SelectOption(label=f"⚠ {label}"[:100], value=str(index),
                                    description="leaves no hand possible")
    return discord.SelectOption(label=label[:100], value=str(index))
