"""A person's own settings (`/mj settings`, and "Settings" on the rack message): the options
of `bot.tables.seat_options`, shown privately with a control for each, kept across games and
servers.

Each control carries the option and the value it sets in its custom id, so it works after a
restart; a click keeps the new value (`TableService.set_player_options`, which also applies it
to the games the person is playing) and redraws the message in place.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Collection, Mapping
from typing import Any

import discord

from bot.discord.components import _client, answer_error
from bot.tables.reminders import PACE_MOMENTS, PACE_WORDS, ReminderPoint, ReminderWay
from bot.tables.seat_options import AutoDiscard, AutoMahjong, JokerCalls, SeatOptions
from bot.tables.zones import read_zone

#: The yes/no options, each a button that turns it the other way, with its label.
_TOGGLES = (
    ("auto_sort", "Auto-sort"),
    ("mahjong_calls_only", "Only Mah Jongg calls"),
    ("joker_calls", "Skip joker-only calls"),
    ("skip_deadening", "Skip calls that kill"),
    ("teaching_hints", "Teaching hints"),
)

#: The options of several values, each a menu: (option, placeholder, (value, label) ...).
#: `remind_when` takes several values at once (`_MANY`); the others one.
_MENUS: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    ("auto_mahjong", "Auto Mah Jongg", (
        (AutoMahjong.OFF.value, "Auto Mah Jongg: off (you're asked)"),
        (AutoMahjong.ON.value, "Auto Mah Jongg: on"),
        (AutoMahjong.HOLD_FIRST.value, "Auto Mah Jongg: on, holding the first (two racks)"),
    )),
    ("auto_discard", "Auto-discard the drawn tile", (
        (AutoDiscard.OFF.value, "Auto-discard: off (you're asked)"),
        (AutoDiscard.DRAWN.value, "Auto-discard the drawn tile"),
        (AutoDiscard.UNLESS_USEFUL.value, "Auto-discard it unless useful"),
    )),
    ("remind_when", "Reminders: none (pick when)", (
        (PACE_MOMENTS, f"Reminders: as {PACE_WORDS}"),
        (ReminderPoint.START.value, "Remind me at turn start"),
        (ReminderPoint.THREE_QUARTERS.value, "Remind me at 75 % of my turn clock"),
        (ReminderPoint.NEARLY_UP.value, "Remind me at 90 %: time nearly up"),
    )),
    ("remind_by", "How reminders come", (
        (ReminderWay.THREAD.value, "Reminders: a mention in the table's thread"),
        (ReminderWay.DM.value, "Reminders: by DM"),
        (ReminderWay.BOTH.value, "Reminders: a mention and a DM"),
    )),
)
#: The menus of which several values may be chosen at once (or none).
_MANY = frozenset({"remind_when"})


def _toggled(options: SeatOptions, name: str) -> tuple[bool, str]:
    """Whether a yes/no option is on, and the value a click sets (the other one)."""
    if name == "joker_calls":
        on = options.joker_calls is JokerCalls.SKIP
        return on, (JokerCalls.OFFER if on else JokerCalls.SKIP).value
    on = bool(getattr(options, name))
    return on, "off" if on else "on"


def settings_reply(options: SeatOptions) -> tuple[str, discord.ui.View]:
    """The private settings message: every option in words and a control for each."""
    text = "\n".join(("**Your settings** (every game, on every server; only you see this):",
                      *(f"• {label}: {value}" for label, value in options.entries()),
                      "They change what you're asked and what is played for you, never "
                      "what the rules allow. Set your time zone and quiet hours with "
                      "`/mj settings time_zone: quiet_hours:` (e.g. 23:00-07:00, or off)."))
    controls = discord.ui.View(timeout=None)
    for name, label in _TOGGLES:
        on, value = _toggled(options, name)
        controls.add_item(SettingButton(name, value, label=f"{label}: {'on' if on else 'off'}",
                                        on=on))
    for name, placeholder, values in _MENUS:
        current = getattr(options, name)
        chosen = set(current.split()) if name in _MANY else {current.value}
        controls.add_item(SettingSelect(name, placeholder, values, chosen,
                                        many=name in _MANY))
    return text, controls


async def _set(interaction: discord.Interaction[Any], name: str, value: str) -> None:
    """Keep one option's new value for the clicker and redraw the settings message."""
    client = _client(interaction)
    try:
        current = await client.service.player_options(interaction.user.id)
        kept = await client.service.set_player_options(
            interaction.user.id, current.with_value(name, value))
        text, controls = settings_reply(kept)
        await interaction.response.edit_message(content=text, view=controls)
    except Exception as error:
        await answer_error(interaction, error)


async def show_settings(interaction: discord.Interaction[Any],
                        typed: Mapping[str, str | None] | None = None) -> None:
    """Answer privately with the clicker's settings and their controls, after keeping the
    text settings `typed` (option -> what was typed; None: not given). A value that is not
    one is refused privately, and nothing is kept."""
    client = _client(interaction)
    try:
        options = await client.service.player_options(interaction.user.id)
        given = {name: value for name, value in (typed or {}).items() if value is not None}
        notes: list[str] = []
        if given:
            options, notes = await asyncio.to_thread(_typed, options, given)
            options = await client.service.set_player_options(interaction.user.id, options)
        text, controls = settings_reply(options)
        await interaction.response.send_message("\n".join((*notes, text)), view=controls,
                                                ephemeral=True)
    except Exception as error:
        await answer_error(interaction, error)


def _typed(options: SeatOptions, given: Mapping[str, str]) -> tuple[SeatOptions, list[str]]:
    """`options` with the settings typed (`given`), and what to say about how they were
    read (a time zone guessed from a city, an abbreviation or an offset, or one that
    ignores daylight saving). Run in a worker: reading an offset reads every zone."""
    for name, value in given.items():
        options = options.with_value(name, value)
    note = read_zone(given["time_zone"]).note if "time_zone" in given else ""
    return options, [note] if note else []


class SettingButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"jg:st:(?P<name>[a-z_]+):(?P<value>[a-z-]+)"):
    """A yes/no setting: a click turns it the other way."""

    def __init__(self, name: str, value: str, *, label: str = "…", on: bool = False) -> None:
        style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label[:80], style=style,
                                           custom_id=f"jg:st:{name}:{value}"))
        self.name, self.value = name, value

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> SettingButton:
        """Rebuild the button from its custom id."""
        return cls(match["name"], match["value"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the setting's new value."""
        await _set(interaction, self.name, self.value)


class SettingSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                    template=r"jg:sv:(?P<name>[a-z_]+)"):
    """A setting of several values: the menu's choice is kept (with `many`, any number of
    its values, kept joined by spaces)."""

    def __init__(self, name: str, placeholder: str = "…",
                 values: tuple[tuple[str, str], ...] = (),
                 chosen: Collection[str] = (), *, many: bool = False) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"jg:sv:{name}", placeholder=placeholder,
            min_values=0 if many else 1, max_values=len(values) if many else 1,
            options=[discord.SelectOption(label=label, value=value, default=value in chosen)
                     for value, label in values] or [discord.SelectOption(label="…")]))
        self.name = name

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> SettingSelect:
        """Rebuild the menu from its custom id."""
        return cls(match["name"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the value chosen (the values, for a menu of several)."""
        await _set(interaction, self.name, " ".join(self.item.values))


class SettingsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"jg:set"):
    """"Settings" on the rack message: opens the clicker's settings, privately."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Settings",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id="jg:set"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> SettingsButton:
        """Rebuild the button."""
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the clicker's settings."""
        await show_settings(interaction)


SETTINGS_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    SettingButton, SettingSelect, SettingsButton)
