"""A seat's private message: text, the rack picture and controls, built from its view only.

The controls come from the view's legal options: the discard menu, the pass menu (with blind
passes where allowed), and a button for every other option (Mah Jongg first). When there are
more moves than buttons fit (many ways to call a tile, two racks), Mah Jongg and Pass stay
buttons and the rest go into menus, so every option is offered within Discord's five rows.
A call that would leave no hand possible is marked, so the player is warned before choosing.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass

import discord

from bot.discord.components import ALL_BLIND, ActButton, GiveSelect, OptionSelect
from bot.engine.game import Option, View
from bot.engine.game.actions import Call, CallMahjong, DeclareDead, Discard, Give, Mahjong, Pass
from bot.engine.tiles import format_tile, tile_name
from bot.scenes import rack_scene
from bot.tables.narrate import action_label, headline
from bot.tables.notifier import Table
from renderer import render_rack

#: Discord allows 25 entries in a menu, 5 rows of controls, 5 buttons to a row; a menu
#: takes a row of its own.
MENU_LIMIT = 25
ROWS = 5
PER_ROW = 5


@dataclass(frozen=True)
class Prompt:
    """A ready message: its text, the rack PNG and the controls."""

    text: str
    png: bytes
    view: discord.ui.View

    def file(self) -> discord.File:
        """The rack picture as an attachment (a fresh file object each send)."""
        return discord.File(io.BytesIO(self.png), filename="rack.png")


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
                    lines: tuple[str, ...] = (), deadline: float | None = None) -> Prompt:
        """The prompt for `view.seat`."""
        said = headline(view, table.names, drawn)
        scene = rack_scene(view, name=table.names[view.seat], drawn=drawn, caption=said)
        png = await asyncio.to_thread(render_rack, scene)
        text = "\n".join((*lines, f"**{said}**"))
        if deadline is not None and view.legal:
            text += f" (time left: <t:{int(deadline)}:R>)"
        text = f"Table {table.game_id} · {text}" if len(text) < 1900 else text[:1900]
        return Prompt(text, png, self.controls(table, view))

    def controls(self, table: Table, view: View) -> discord.ui.View:
        """The seat's options as menus and buttons, every one of them offered."""
        controls = discord.ui.View(timeout=None)
        game, seat, counter = table.game_id, view.seat, view.action_count
        names, racks = table.names, table.rules.racks
        discards = [discord.SelectOption(label=tile_name(o.action.kind), value=str(i),
                                         description=format_tile(o.action.kind))
                    for i, o in enumerate(view.legal) if isinstance(o.action, Discard)]
        menus = [("Discard a tile…", chunk) for chunk in _chunks(discards)]
        give = next((o.choice for o in view.legal
                     if isinstance(o.action, Give) and o.choice and o.choice.count), None)
        give_rows = 0 if give is None else 1
        buttons = [(i, o) for i, o in enumerate(view.legal)
                   if not isinstance(o.action, Discard)
                   and not (isinstance(o.action, Give) and o.choice and o.choice.count)]
        buttons.sort(key=lambda item: (not isinstance(item[1].action, Mahjong | CallMahjong),
                                       isinstance(item[1].action, Pass)))
        if len(buttons) > (ROWS - len(menus) - give_rows) * PER_ROW:
            # Too many for buttons: Mah Jongg and Pass stay buttons, the rest go in menus.
            key = [(i, o) for i, o in buttons
                   if isinstance(o.action, Mahjong | CallMahjong | Pass)]
            more = [_entry(i, o, names, racks) for i, o in buttons if (i, o) not in key]
            menus += [("Call, swap or declare…", chunk) for chunk in _chunks(more)]
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
        for index, option in buttons[:free * PER_ROW]:
            label = action_label(option.action, names, racks=racks)
            if option.deadens:
                label = f"⚠ {label} (leaves no hand possible)"
            controls.add_item(ActButton(game, seat, counter, index, label=label,
                                        style=_style(option.action)))
        return controls


def _entry(index: int, option: Option, names: tuple[str, ...],
           racks: int) -> discord.SelectOption:
    """A menu entry for an option that did not fit as a button."""
    label = action_label(option.action, names, racks=racks)
    if option.deadens:
        return discord.SelectOption(label=f"⚠ {label}"[:100], value=str(index),
                                    description="leaves no hand possible")
    return discord.SelectOption(label=label[:100], value=str(index))
