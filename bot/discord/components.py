"""Buttons and menus. Every one is a `DynamicItem` whose custom id carries what it needs (the
game, the seat, the game's action counter, the option), so it keeps working after a restart
and a click on an old one says it is out of date instead of acting.

    jg:a:GAME:SEAT:COUNTER:INDEX   play option INDEX of the seat's legal options
    jg:d:GAME:SEAT:COUNTER[:PART]  a menu of options (values are option indexes): the
                                   discards, and moves too many for buttons (PART numbers
                                   the second menu on and up)
    jg:g:GAME:SEAT:COUNTER         the pass menu (values are positions in the tile choice)
    jg:f:GAME:SEAT:COUNTER:WHICH   "Call…" (calls) or "Declare a hand dead…" (dead): opens
                                   those options privately
    jg:x:GAME:SEAT:COUNTER:INDEX   a hand to declare dead: asks to confirm option INDEX
    jg:n:GAME                      Cancel on that question: nothing is declared
    jg:c:GAME:COUNTER              "Claim…" under a discard: shows the clicker's own choices
    jg:p:GAME:COUNTER              "Pass" under a discard
    jg:r:GAME                      "My rack": the clicker's rack and controls, ephemerally
    jg:l:GAME:OP[:LEVEL]           lobby: join, leave, bot (of LEVEL; a lobby posted before
                                   levels has none: the server's level), start, bet
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import discord

from bot.analysis import format_analysis, hint
from bot.bots import LEVELS
from bot.discord.answers import TableAnswer
from bot.engine.errors import IllegalAction
from bot.engine.game import Pass, View
from bot.engine.game.actions import Give
from bot.scenes import analysis_scene
from bot.tables.errors import StalePrompt, describe_error, for_players
from bot.tables.levels import level_label
from bot.tables.narrate import action_label
from bot.tables.notifier import Table
from bot.tables.records import check_game, possible_game
from renderer import render_analysis
from renderer.alt import describe_analysis

if TYPE_CHECKING:
    from bot.discord.client import JonggClient

log = logging.getLogger(__name__)
#: The pass menu's value for "send every tile on blind".
ALL_BLIND = "blind"


def _client(interaction: discord.Interaction[Any]) -> JonggClient:
    from bot.discord.client import JonggClient

    client = interaction.client
    assert isinstance(client, JonggClient)
    return client


class _OfAGame:
    """What every control of a game in play shares: before its click is handled, this
    process's copy of the game is made the store's (`TableService.visit`): a DM's click
    reaches the process of shard 0 whatever server the game is of, and another process may
    have moved the game since. The check always lets the click through (discord.py drops a
    click whose check fails without an answer): a game not in play, or a store that is
    down, is answered by the handler, which meets the same refusal."""

    game: int

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Keep the click (its token may carry the clicker's next prompt, or the table's
        next post: `bot.discord.tokens`) and visit the game; True."""
        client = _client(interaction)
        client.tokens.saw(interaction)
        if not possible_game(self.game):  # the handler refuses it as not found
            return True
        try:
            await client.service.visit(self.game)
        except Exception as error:
            if not for_players(error):
                log.exception("visiting game %s for a click failed", self.game)
        return True


def on_own_question(interaction: discord.Interaction[Any]) -> None:
    """Refuse an answer to a private question (Cancel, Yes or No) clicked anywhere but on
    such a question: only a forged interaction puts it under a message everyone sees,
    which its answer would overwrite."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        raise StalePrompt("That button belongs to a question only its asker sees.")


async def answer_error(interaction: discord.Interaction[Any], error: Exception) -> None:
    """Tell the clicker what went wrong, privately; log what is not meant for players."""
    if not for_players(error):
        log.exception("interaction failed", exc_info=error)
    text = describe_error(error)
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True)
        return
    if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        await _drop_public_loading(interaction)
    await interaction.followup.send(text, ephemeral=True)


async def _drop_public_loading(interaction: discord.Interaction[Any]) -> None:
    """Before a refusal: if the answer so far is a public "thinking…" message, delete it, so
    the refusal goes to the asker alone instead of filling it for the whole channel."""
    try:
        original = await interaction.original_response()
        if original.flags.loading and not original.flags.ephemeral:
            await original.delete()
    except discord.HTTPException:
        log.info("could not clear a public loading message", exc_info=True)


#: How long a move may take before its click is acknowledged with a deferral. Discord gives
#: an interaction 3 s for its first answer; a move normally takes milliseconds, and then the
#: answer itself is the acknowledgement: one request instead of a deferral and an edit.
ANSWER_WITHIN = 1.5

T = TypeVar("T")


async def in_time(interaction: discord.Interaction[Any], work: Awaitable[T], *,
                  private: bool = False) -> T:
    """Run `work` (a move); if it is not done within `ANSWER_WITHIN`, acknowledge the click
    first (privately, "thinking", with `private`; otherwise as an update of the clicked
    message) so Discord does not give up on it, then wait for the rest."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
    if not done:
        if private:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    return await task


async def say_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer a move's click with a line only the clicker sees (after `in_time`)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def _acted(interaction: discord.Interaction[Any], label: str) -> None:
    """After a prompt's action went through: replace the prompt's controls by what was done
    (in DMs and ephemeral racks), so nobody clicks it twice."""
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(content=f"You chose: **{label}**.",
                                                     view=None, attachments=[])
        else:
            await interaction.response.edit_message(content=f"You chose: **{label}**.",
                                                    view=None, attachments=[])
    except discord.HTTPException:
        log.info("could not tidy a prompt after acting", exc_info=True)


class ActButton(_OfAGame, discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"jg:a:(?P<game>\d+):(?P<seat>\d+):(?P<counter>\d+):(?P<index>\d+)"):
    """One of the seat's options as a button."""

    def __init__(self, game: int, seat: int, counter: int, index: int, *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=style, custom_id=f"jg:a:{game}:{seat}:{counter}:{index}"))
        self.game, self.seat, self.counter, self.index = game, seat, counter, index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ActButton:
        """Rebuild the button from its custom id (after a restart too)."""
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["game"]), int(match["seat"]), int(match["counter"]),
                   int(match["index"]), label=item.label or "…", style=item.style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Play the option."""
        await play_option(interaction, self.game, self.seat, self.counter, self.index)


def _check_own(interaction: discord.Interaction[Any], table: Table, seat: int) -> None:
    """Refuse a click on a prompt made for another seat (a message seen by several people)."""
    if table.seat_of(interaction.user.id) != seat:
        raise StalePrompt("This prompt belongs to another seat.")


async def play_option(interaction: discord.Interaction[Any], game: int, seat: int,
                      counter: int, index: int) -> None:
    """Apply option `index` for the clicker, after checking the prompt is theirs."""
    client = _client(interaction)
    try:
        table = client.service.table(game)
        _check_own(interaction, table, seat)
        action, _ = await in_time(interaction, client.service.act_option(
            game, interaction.user.id, counter, index))
        await _acted(interaction, action_label(action, table.names, racks=table.rules.racks))
    except Exception as error:
        await answer_error(interaction, error)


class OptionSelect(_OfAGame, discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"jg:d:(?P<game>\d+):(?P<seat>\d+):(?P<counter>\d+)"
                            r"(?::(?P<part>\d+))?"):
    """A menu of the seat's options, one entry each: the discard menu (one entry per tile
    kind), or moves that do not fit as buttons."""

    def __init__(self, game: int, seat: int, counter: int,
                 options: list[discord.SelectOption] | None = None, *, part: int = 0,
                 placeholder: str = "Discard a tile…") -> None:
        suffix = f":{part}" if part else ""
        super().__init__(discord.ui.Select(
            custom_id=f"jg:d:{game}:{seat}:{counter}{suffix}", placeholder=placeholder,
            options=options or [discord.SelectOption(label="…", value="0")]))
        self.game, self.seat, self.counter = game, seat, counter

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> OptionSelect:
        """Rebuild the menu from its custom id."""
        assert isinstance(item, discord.ui.Select)
        return cls(int(match["game"]), int(match["seat"]), int(match["counter"]),
                   list(item.options), part=int(match["part"] or 0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Play the chosen option (a value that is no option's index, which only a forged
        interaction sends, is refused as a choice that is no longer there)."""
        value = self.item.values[0]
        index = int(value) if value.isascii() and value.isdecimal() else -1
        await play_option(interaction, self.game, self.seat, self.counter, index)


class GiveSelect(_OfAGame, discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"jg:g:(?P<game>\d+):(?P<seat>\d+):(?P<counter>\d+)"):
    """The Charleston (or courtesy) pass: pick the tiles; on a blind pass, fewer than the
    count sends the rest on blind."""

    def __init__(self, game: int, seat: int, counter: int,
                 options: list[discord.SelectOption] | None = None, *, low: int = 1,
                 high: int = 1) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"jg:g:{game}:{seat}:{counter}", placeholder="Choose tiles to pass…",
            min_values=low, max_values=high,
            options=options or [discord.SelectOption(label="…", value="0")]))
        self.game, self.seat, self.counter = game, seat, counter

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> GiveSelect:
        """Rebuild the menu from its custom id."""
        assert isinstance(item, discord.ui.Select)
        return cls(int(match["game"]), int(match["seat"]), int(match["counter"]),
                   list(item.options), low=item.min_values, high=item.max_values)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Pass the chosen tiles (the menu's values are `index:kind`)."""
        client = _client(interaction)
        try:
            chosen = list(self.item.values)
            if ALL_BLIND in chosen and len(chosen) > 1:
                raise IllegalAction("Choose tiles to pass, or pass all blind, not both.")
            kinds = tuple(sorted(int(value.split(":")[1]) for value in chosen
                                 if value != ALL_BLIND))
            blind = self.item.max_values - len(kinds)
            table = client.service.table(self.game)
            _check_own(interaction, table, self.seat)
            await in_time(interaction, client.service.act(
                self.game, interaction.user.id, lambda seat: Give(seat, kinds, blind),
                self.counter))
            await _acted(interaction, action_label(Give(self.seat, kinds, blind), table.names))
        except Exception as error:
            await answer_error(interaction, error)


class Folder(Enum):
    """Options offered behind one button (see `bot.tables.menu`)."""

    CALLS = "calls"
    DEAD = "dead"


def _current_view(interaction: discord.Interaction[Any], game: int, seat: int,
                  counter: int) -> View:
    """The clicker's view, after checking the prompt is theirs and still current."""
    client = _client(interaction)
    _check_own(interaction, client.service.table(game), seat)
    return client.service.prompt_view(game, interaction.user.id, counter)


class FolderButton(_OfAGame, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"jg:f:(?P<game>\d+):(?P<seat>\d+):(?P<counter>\d+)"
                            r":(?P<which>calls|dead)"):
    """"Call…" or "Declare a hand dead…": opens those options, privately."""

    def __init__(self, game: int, seat: int, counter: int, which: Folder, *,
                 label: str = "…") -> None:
        style = (discord.ButtonStyle.primary if which is Folder.CALLS
                 else discord.ButtonStyle.secondary)
        super().__init__(discord.ui.Button(
            label=label[:80], style=style,
            custom_id=f"jg:f:{game}:{seat}:{counter}:{which.value}"))
        self.game, self.seat, self.counter, self.which = game, seat, counter, which

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> FolderButton:
        """Rebuild the button from its custom id."""
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["game"]), int(match["seat"]), int(match["counter"]),
                   Folder(match["which"]), label=item.label or "…")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Answer with the folder's options, only for the clicker."""
        client = _client(interaction)
        try:
            seen = _current_view(interaction, self.game, self.seat, self.counter)
            text, controls = client.prompts.folder(client.service.table(self.game), seen,
                                                   self.which)
            await interaction.response.send_message(text, view=controls, ephemeral=True)
        except Exception as error:
            await answer_error(interaction, error)


class DeadTargetButton(_OfAGame, discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"jg:x:(?P<game>\d+):(?P<seat>\d+):(?P<counter>\d+)"
                                r":(?P<index>\d+)"):
    """One hand that may be declared dead: asks to confirm, naming the hand and the cost of
    being wrong (nothing is declared by this click)."""

    def __init__(self, game: int, seat: int, counter: int, index: int, *,
                 label: str = "…") -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.secondary,
            custom_id=f"jg:x:{game}:{seat}:{counter}:{index}"))
        self.game, self.seat, self.counter, self.index = game, seat, counter, index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any],
                             match: re.Match[str]) -> DeadTargetButton:
        """Rebuild the button from its custom id."""
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["game"]), int(match["seat"]), int(match["counter"]),
                   int(match["index"]), label=item.label or "…")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Turn the list of hands into the question about this one."""
        client = _client(interaction)
        try:
            seen = _current_view(interaction, self.game, self.seat, self.counter)
            text, controls = client.prompts.confirm_dead(client.service.table(self.game),
                                                         seen, self.index)
            await interaction.response.edit_message(content=text, view=controls)
        except Exception as error:
            await answer_error(interaction, error)


class CancelButton(_OfAGame, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"jg:n:(?P<game>\d+)"):
    """Cancel on the dead-hand question: nothing is declared."""

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.secondary,
                                           custom_id=f"jg:n:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> CancelButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Take the question away."""
        try:
            on_own_question(interaction)
            await interaction.response.edit_message(
                content="Nothing declared; your turn goes on.", view=None)
        except Exception as error:
            await answer_error(interaction, error)


class ClaimButton(_OfAGame, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"jg:c:(?P<game>\d+):(?P<counter>\d+)"):
    """Under a discard: "Claim…" shows the clicker's own claim options, privately."""

    def __init__(self, game: int, counter: int) -> None:
        super().__init__(discord.ui.Button(label="Claim…", style=discord.ButtonStyle.primary,
                                           custom_id=f"jg:c:{game}:{counter}"))
        self.game, self.counter = game, counter

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ClaimButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]), int(match["counter"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the clicker's rack with the claim choices."""
        await show_rack(interaction, self.game, self.counter)


class PassButton(_OfAGame, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"jg:p:(?P<game>\d+):(?P<counter>\d+)"):
    """Under a discard: let it go."""

    def __init__(self, game: int, counter: int) -> None:
        super().__init__(discord.ui.Button(label="Pass", style=discord.ButtonStyle.secondary,
                                           custom_id=f"jg:p:{game}:{counter}"))
        self.game, self.counter = game, counter

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PassButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]), int(match["counter"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Pass on the discard for the clicker's seat. When the pass leads straight to a
        new table picture, that picture is the answer: this post, moved on in place
        (`bot.discord.answers`); otherwise the clicker is told privately."""
        client = _client(interaction)
        try:
            answer = TableAnswer(interaction, ANSWER_WITHIN)
            await in_time(interaction, client.service.act(
                self.game, interaction.user.id, Pass, self.counter, answer=answer),
                private=True)
            if not await answer.carried():
                await say_privately(interaction, "You passed.")
        except Exception as error:
            await answer_error(interaction, error)


class RackButton(_OfAGame, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"jg:r:(?P<game>\d+)"):
    """"My rack": the clicker's rack and controls, only for them (works with closed DMs)."""

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="My rack", style=discord.ButtonStyle.success,
                                           custom_id=f"jg:r:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> RackButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the clicker's rack."""
        await show_rack(interaction, self.game, None)


class ReclaimButton(_OfAGame, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"jg:rc:(?P<game>\d+):(?P<seat>\d+)"):
    """Reclaim: on the rack of a seat a bot keeps, gives it back to its own player (anyone
    else is refused privately)."""

    def __init__(self, game: int, seat: int) -> None:
        super().__init__(discord.ui.Button(label="Reclaim", style=discord.ButtonStyle.success,
                                           custom_id=f"jg:rc:{game}:{seat}"))
        self.game = game
        self.seat = seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ReclaimButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Take the seat back for the clicker, if it is theirs."""
        await reclaim_seat(interaction, self.game, self.seat)


async def reclaim_seat(interaction: discord.Interaction[Any], game: int,
                       seat: int | None) -> None:
    """Give the clicker (or the command's user) their seat back from its stand-in, and say
    so privately; `seat` is the seat a button was for."""
    client = _client(interaction)
    try:
        check_game(game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await client.service.reclaim(game, interaction.user.id, seat)
        await interaction.followup.send(
            f"Table {game}: your seat is yours again. You make your own moves from the next "
            "one.", ephemeral=True)
    except Exception as error:
        await answer_error(interaction, error)


async def show_rack(interaction: discord.Interaction[Any], game: int,
                    counter: int | None) -> None:
    """Answer privately with the clicker's rack picture and their controls."""
    client = _client(interaction)
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
        seen = client.service.view_for(game, interaction.user.id)
        note = ""
        if counter is not None and not client.service.is_current(game, interaction.user.id,
                                                                 counter):
            note = "That discard is no longer open to you; here is your rack now.\n"
        prompt = await client.prompts.build(
            client.service.table(game), seen,
            stood_in=client.service.stand_ins(game).stood_in(seen.seat))
        await interaction.followup.send(note + prompt.text, file=prompt.file(),
                                        view=prompt.view, ephemeral=True)
    except Exception as error:
        await answer_error(interaction, error)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"jg:l:(?P<game>\d+):(?P<op>join|leave|bot|start|bet)"
                           rf"(?::(?P<level>{'|'.join(LEVELS)}))?"):
    """The lobby's Join, Leave, Start and Bet buttons, and an Add bot button per level (on
    a row of their own), the server's level marked as the default."""

    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "bot": ("Add bot", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
        "bet": ("Bet", discord.ButtonStyle.secondary),
    }

    def __init__(self, game: int, op: str, level: str | None = None, *,
                 default: bool = False) -> None:
        label, style = self.LABELS[op]
        if level is not None:
            label = f"{label}: {level_label(level)}{' (default)' if default else ''}"
        super().__init__(discord.ui.Button(
            label=label, style=style, row=None if level is None else 1,
            custom_id=f"jg:l:{game}:{op}" + ("" if level is None else f":{level}")))
        self.game, self.op, self.level = game, op, level

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]), match["op"], match["level"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Do the lobby step, then refresh the lobby message."""
        client = _client(interaction)
        try:
            check_game(self.game)
            await interaction.response.defer()
            await client.lobby_step(interaction, self.game, self.op, self.level)
        except Exception as error:
            await answer_error(interaction, error)


def hint_reply(table: Table, seen: View) -> tuple[str, bytes, str]:
    """A Hint for the seat whose view `seen` is, built from that view only: its nearest hands
    and waits as text, a picture and the picture's alt text. Runs the matcher and the
    renderer: call it off the event loop."""
    found = hint(table.card, table.rules.counts, seen)
    scene = analysis_scene(found)
    return format_analysis(found)[:1900], render_analysis(scene), describe_analysis(scene)


class HintButton(_OfAGame, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"jg:h:(?P<game>\d+)"):
    """"Hint" (tables with hints on): the clicker's nearest hands and waits, as a picture
    only they see."""

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Hint", style=discord.ButtonStyle.secondary,
                                           custom_id=f"jg:h:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HintButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Analyze the clicker's hand against the table's card."""
        client = _client(interaction)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            table = client.service.table(self.game)
            if not table.hints:
                raise IllegalAction("Hints are off at this table.")
            seen = client.service.view_for(self.game, interaction.user.id)
            text, png, alt = await asyncio.to_thread(hint_reply, table, seen)
            await interaction.followup.send(
                text, ephemeral=True,
                file=discord.File(io.BytesIO(png), filename="hint.png", description=alt))
        except Exception as error:
            await answer_error(interaction, error)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActButton, OptionSelect, GiveSelect, FolderButton, DeadTargetButton, CancelButton,
    ClaimButton, PassButton, RackButton, ReclaimButton, HintButton, LobbyButton)
