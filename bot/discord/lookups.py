"""Look-ups that work in any channel and answer at once: `/rules`, `/card …` and `/analyze`.

* `/rules [topic]` answers from the rules knowledge base (`bot.rules`): a short answer with a
  "Full rules" button and buttons for related topics; free text is ranked to the best topic.
* `/card show|list|upload|default|delete`: card pictures, and a server's own private cards
  (uploaded by server managers, checked line by line, never visible in another server).
* `/analyze TILES [exposed]`: what a hand completes or how far it is from the nearest hands,
  as text and a picture, privately unless asked otherwise.

Buttons and menus here are `DynamicItem`s whose custom id carries the topic, so they keep
working after a restart:

    jg:rl:TOPIC:full    the topic's full section (privately, split to fit messages)
    jg:rl:TOPIC:short   the topic's short answer (privately)
    jg:rs               the topics menu under the topic list
"""

from __future__ import annotations

import asyncio
import io
import re
from functools import lru_cache
from typing import Any

import discord
from discord import app_commands

from bot.analysis import MAX_TILES_TEXT, analyze, format_analysis, read_hand, typed_hand
from bot.card_reading import read_line
from bot.discord.components import _client, answer_error
from bot.discord.mentions import NO_MENTIONS
from bot.engine.cards import Card
from bot.engine.errors import CardError, IllegalAction, InvalidInput, echo
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.rules import MESSAGE_LIMIT, Kind, Topic, full_messages, knowledge_base, short_answer
from bot.rules import topics_list as rules_topics_list
from bot.scenes import analysis_scene, card_sheet, page_names
from bot.server_cards import (
    MAX_NAME,
    MAX_UPLOAD_BYTES,
    ResolvedCard,
    load_card_async,
    parse_card,
    playable_matcher,
    read_card_file,
    unusable_card,
    upload_name,
    usable_card,
)
from bot.tables.servers import Servers
from renderer import render_analysis, render_card_pages
from renderer.alt import describe_analysis, describe_card_pages

#: Text options, with the longest value Discord lets a person send.
CardName = app_commands.Range[str, 1, MAX_NAME]
TilesText = app_commands.Range[str, 1, MAX_TILES_TEXT]
TopicText = app_commands.Range[str, 1, 200]
#: Most related-topic buttons under an answer.
MAX_RELATED = 3
#: Discord takes at most ten files in one message; a longer card goes in several.
MAX_FILES = 10


def _servers(interaction: discord.Interaction[Any]) -> Servers:
    """The servers' settings and cards, as the table service keeps them."""
    return _client(interaction).service.servers


def _guild_id(interaction: discord.Interaction[Any]) -> int:
    """The server the command was used in; server cards only exist inside one."""
    if interaction.guild_id is None:
        raise IllegalAction("Use this command in a server: a server's cards belong to it.")
    return interaction.guild_id


def _require_manager(interaction: discord.Interaction[Any]) -> None:
    """Server cards are managed by people who may manage the server."""
    if not interaction.permissions.manage_guild:
        raise IllegalAction("Only server managers (the Manage Server permission) can change "
                            "this server's cards. Ask one of them.")


# -- /rules ------------------------------------------------------------------------------

def _topic(topic_id: str) -> Topic:
    topic = knowledge_base().topic(topic_id)
    if topic is None:
        raise InvalidInput("That rules topic no longer exists. Use `/rules` for the list.")
    return topic


def topic_view(topic: Topic) -> discord.ui.View:
    """Under an answer: "Full rules", then up to three related topics."""
    view = discord.ui.View(timeout=None)
    view.add_item(RulesButton(topic.id, "full"))
    kb = knowledge_base()
    for other in topic.related[:MAX_RELATED]:
        related = kb.topic(other)
        if related is not None:
            view.add_item(RulesButton(related.id, "short", label=related.title))
    return view


def topics_menu() -> discord.ui.View:
    """The topic list's menus, one per kind of rule (official, variants, house rules), so
    every topic is offered while each menu keeps to Discord's 25 options."""
    view = discord.ui.View(timeout=None)
    kinds = {topic.kind for topic in knowledge_base().topics}
    for kind in Kind:
        if kind in kinds:
            view.add_item(RulesTopicSelect(kind.value))
    return view


class RulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"jg:rl:(?P<topic>[a-z0-9-]{1,40}):(?P<mode>full|short)"):
    """A topic's full section ("Full rules") or a related topic's short answer."""

    def __init__(self, topic: str, mode: str, *, label: str | None = None) -> None:
        text = label or ("Full rules" if mode == "full" else topic)
        style = discord.ButtonStyle.primary if mode == "full" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=text[:80], style=style,
                                           custom_id=f"jg:rl:{topic}:{mode}"))
        self.topic, self.mode = topic, mode

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> RulesButton:
        """Rebuild the button from its custom id (after a restart too)."""
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(match["topic"], match["mode"], label=label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the clicker privately."""
        try:
            topic = _topic(self.topic)
            if self.mode == "full":
                await send_pieces(interaction, full_messages(topic))
            else:
                await interaction.response.send_message(
                    short_answer(topic), view=topic_view(topic), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)
        except Exception as error:
            await answer_error(interaction, error)


#: Each menu's placeholder, by the kind of rule it offers.
_MENU_NAMES = {Kind.OFFICIAL: "Pick a topic of the standard game…",
               Kind.VARIANT: "Pick a variant…", Kind.HOUSE: "Pick a house rule…"}


class RulesTopicSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                       template=r"jg:rs(?::(?P<kind>variant|house))?"):
    """A menu of the topics of one kind under the topic list (the official topics' menu
    keeps the id `jg:rs` that menus posted before there were several carry)."""

    def __init__(self, kind: str = Kind.OFFICIAL.value) -> None:
        chosen = Kind(kind)
        options = [discord.SelectOption(label=t.title[:100], value=t.id,
                                        description=t.kind.label)
                   for t in knowledge_base().topics if t.kind is chosen][:25]
        custom_id = "jg:rs" if chosen is Kind.OFFICIAL else f"jg:rs:{chosen.value}"
        super().__init__(discord.ui.Select(custom_id=custom_id,
                                           placeholder=_MENU_NAMES[chosen], options=options))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> RulesTopicSelect:
        """Rebuild the menu (its options come from the knowledge base)."""
        return cls(match["kind"] or Kind.OFFICIAL.value)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the chosen topic's short answer privately."""
        try:
            topic = _topic(self.item.values[0])
            await interaction.response.send_message(short_answer(topic), view=topic_view(topic),
                                                    ephemeral=True,
                                                    allowed_mentions=NO_MENTIONS)
        except Exception as error:
            await answer_error(interaction, error)


async def send_pieces(interaction: discord.Interaction[Any], pieces: list[str]) -> None:
    """Several messages, privately: the first as the answer, the rest as follow-ups."""
    first, *rest = pieces
    await interaction.response.send_message(first, ephemeral=True,
                                            allowed_mentions=NO_MENTIONS)
    for piece in rest:
        await interaction.followup.send(piece, ephemeral=True, allowed_mentions=NO_MENTIONS)


@app_commands.command(name="rules", description="Look up a rule: pick a topic, or ask in your "
                                                "own words")
@app_commands.describe(topic="a topic, or a question like: how many jokers in a pair",
                       private="only you see the answer (default: everyone in the channel)",
                       hand="read a hand of the card in plain words: its id (t1) or its line "
                            "(FF 2222a 555a 8888a)",
                       card="the card the hand is on (default: this server's default card)")
async def rules_command(interaction: discord.Interaction[Any], topic: TopicText | None = None,
                        private: bool = False, hand: TopicText | None = None,
                        card: CardName | None = None) -> None:
    """The short answer for a topic or question, or the list of topics; with `hand`, that
    hand of the card read in plain words (`bot.card_reading`)."""
    if hand is not None:
        chosen = await _servers(interaction).card(interaction.guild_id, card)
        found = await usable_card(chosen.name, chosen.text)
        await interaction.response.send_message(read_line(found, hand)[:MESSAGE_LIMIT],
                                                ephemeral=private,
                                                allowed_mentions=NO_MENTIONS)
        return
    kb = knowledge_base()
    if topic is None or not topic.strip():
        await interaction.response.send_message(rules_topics_list(kb.topics),
                                                view=topics_menu(), ephemeral=private)
        return
    answer = kb.lookup(topic[:MAX_TILES_TEXT])
    if answer is None:
        raise InvalidInput(f"I couldn't find a rule about “{echo(topic)}”. Try other "
                           "words (like `jokers`, `charleston`, `dead hand`), or `/rules` "
                           "alone for the list of topics.")
    await interaction.response.send_message(short_answer(answer.topic, answer.also),
                                            view=topic_view(answer.topic), ephemeral=private,
                                            allowed_mentions=NO_MENTIONS)


def rule_choices(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for `/rules topic`: topic titles, their ids as values."""
    return [app_commands.Choice(name=t.title, value=t.id)
            for t in knowledge_base().complete(current[:MAX_TILES_TEXT])]


@rules_command.autocomplete("topic")
async def _rules_topics(interaction: discord.Interaction[Any],
                        current: str) -> list[app_commands.Choice[str]]:
    return rule_choices(current)


@rules_command.autocomplete("card")
async def _rules_cards(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
    return await _card_choices(interaction, current)


# -- /card -------------------------------------------------------------------------------

card_group = app_commands.Group(name="card",
                                description="See the cards, and manage this server's own cards")


@lru_cache(maxsize=8)
def card_pictures(text: str, private: bool) -> tuple[tuple[bytes, ...], tuple[str, ...]]:
    """A card sheet as PNG pages and each page's alt text (cached by the card's text).
    Checks the card and draws it, so call it off the event loop."""
    sheet = card_sheet(parse_card(text), private=private)
    return render_card_pages(sheet), describe_card_pages(sheet)


def _card_line(chosen: ResolvedCard, card: Card) -> str:
    year = f" ({card.year})" if card.year else ""
    where = ("this server's own card, shown only here" if chosen.is_private
             else "comes with Jongg")
    return (f"**{card.name}**{year} · `{chosen.name}` · {len(card.hands)} hands in "
            f"{len(card.sections)} sections · {where}")


async def _card_choices(interaction: discord.Interaction[Any], current: str, *,
                        own_only: bool = False) -> list[app_commands.Choice[str]]:
    """Card names usable here (this server's own cards only ever in this server)."""
    try:
        servers = _servers(interaction)
        guild = interaction.guild_id
        if own_only:
            names = [] if guild is None else await servers.own_card_names(guild)
        else:
            names = await servers.card_names(guild)
    except Exception:
        return []
    wanted = current.strip().lower()
    return [app_commands.Choice(name=n, value=n) for n in names if wanted in n.lower()][:25]


@card_group.command(name="show", description="A card's hands as a picture")
@app_commands.describe(name="the card (default: this server's default card)",
                       private="only you see it (default: everyone in the channel)")
async def card_show(interaction: discord.Interaction[Any], name: CardName | None = None,
                    private: bool = False) -> None:
    """The card sheet image; a server's own card only in that server."""
    # Resolve and check first (a quick read, and a check in a worker), so a wrong name or a
    # card that can't be used is answered privately, then defer for the drawing.
    chosen = await _servers(interaction).card(interaction.guild_id, name)
    card = await usable_card(chosen.name, chosen.text)
    await interaction.response.defer(ephemeral=private, thinking=True)
    pages, alts = await asyncio.to_thread(card_pictures, chosen.text, chosen.is_private)
    files = [discord.File(io.BytesIO(page), filename=name, description=alt)
             for page, alt, name in zip(pages, alts, page_names("card", len(pages)),
                                        strict=True)]
    for start in range(0, len(files), MAX_FILES):
        text = _card_line(chosen, card) if not start else f"**{card.name}**, more pages"
        await interaction.followup.send(text, ephemeral=private,
                                        files=files[start:start + MAX_FILES],
                                        allowed_mentions=NO_MENTIONS)


@card_group.command(name="list", description="The cards you can use here")
async def card_list(interaction: discord.Interaction[Any]) -> None:
    """Shipped cards, this server's own cards, and which one new tables use."""
    servers = _servers(interaction)
    default = await servers.default_card(interaction.guild_id)
    lines = ["**Cards you can use here**"]
    for name in await servers.card_names(interaction.guild_id):
        chosen = await servers.card(interaction.guild_id, name)
        try:
            line = _card_line(chosen, await load_card_async(chosen.text))
        except CardError as error:  # stored before a limit it breaks: say so, list the rest
            line = unusable_card(chosen.name, error).message
        mark = " · **default for new tables**" if chosen.name == default.name else ""
        lines.append(f"• {line}{mark}")
    if interaction.guild_id is not None:
        lines.append("Server managers can add this server's own card with `/card upload`.")
    await interaction.response.send_message("\n".join(lines)[:MESSAGE_LIMIT], ephemeral=True,
                                            allowed_mentions=NO_MENTIONS)


def card_problems(error: CardError, filename: str) -> tuple[str, str]:
    """The reply to a card file with problems (fitting one message) and the full list as
    text, for an attached file when the reply can't hold every line."""
    shown_name = filename.replace("`", "'")[:60]
    count = len(error.problems) or 1
    head = (f"`{shown_name}` has {count} problem{'s' if count != 1 else ''}, so I didn't "
            "save it. Fix these lines and upload it again:")
    lines = [f"• {problem}" for problem in error.problems] or [f"• {error.message}"]
    full = "\n".join([head, *lines])
    if len(full) <= MESSAGE_LIMIT:
        return full, full
    kept: list[str] = [head]
    for index, line in enumerate(lines):
        tail = f"…and {len(lines) - index} more: every problem is in the attached file."
        if len("\n".join([*kept, line[:300], tail])) > MESSAGE_LIMIT:
            kept.append(tail)
            break
        kept.append(line[:300])
    return "\n".join(kept), full


@card_group.command(name="upload", description="(Server managers) Add this server's own card "
                                               "file, kept for this server only")
@app_commands.describe(file="the card file: plain text in Jongg's card language (.jongg)",
                       name="what to call it here (default: the card's own name)",
                       replace="replace this server's card of the same name")
async def card_upload(interaction: discord.Interaction[Any], file: discord.Attachment,
                      name: CardName | None = None, replace: bool = False) -> None:
    """Check the file line by line; keep it for this server only."""
    guild_id = _guild_id(interaction)
    _require_manager(interaction)
    if file.size > MAX_UPLOAD_BYTES:
        raise InvalidInput(f"That file is too big for a card ({file.size:,} bytes). A card "
                           "file is plain text of a few thousand characters.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = await file.read()
    try:
        text, card = await read_card_file(data)
    except CardError as error:
        reply, everything = card_problems(error, file.filename)
        extra: dict[str, Any] = {}
        if reply != everything:
            extra["file"] = discord.File(io.BytesIO(everything.encode()),
                                         filename="card-problems.txt")
        await interaction.followup.send(reply, ephemeral=True, **extra)
        return
    chosen = await upload_name(name, card)
    saved = await _servers(interaction).save_card(guild_id, chosen, text,
                                                  uploaded_by=interaction.user.id,
                                                  replace=replace)
    year = f" ({card.year})" if card.year else ""
    await interaction.followup.send(
        f"Saved **{saved.name}**: {card.name}{year}, {len(card.hands)} hands in "
        f"{len(card.sections)} sections. Only this server can see or play it. See it with "
        f"`/card show name:{saved.name}`; make it the default for new tables with "
        f"`/card default name:{saved.name}`.", ephemeral=True, allowed_mentions=NO_MENTIONS)


@card_group.command(name="default", description="The card new tables here use; server "
                                                "managers can change it")
@app_commands.describe(name="the card new tables should use (leave out to see the current one)")
async def card_default(interaction: discord.Interaction[Any],
                       name: CardName | None = None) -> None:
    """Show or set the server's default card."""
    guild_id = _guild_id(interaction)
    servers = _servers(interaction)
    if name is None or not name.strip():
        chosen = await servers.default_card(guild_id)
        text = (f"New tables here use **{chosen.name}**. Server managers can change it with "
                "`/card default name:`.")
    else:
        _require_manager(interaction)
        chosen = await servers.set_default_card(guild_id, name, interaction.user.id)
        text = f"New tables on this server will use **{chosen.name}**."
    await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)


@card_group.command(name="delete", description="(Server managers) Remove one of this server's "
                                               "own cards")
@app_commands.describe(name="the server card to remove")
async def card_delete(interaction: discord.Interaction[Any], name: CardName) -> None:
    """Remove a server card; games already played with it keep their copy."""
    guild_id = _guild_id(interaction)
    _require_manager(interaction)
    removed = await _servers(interaction).delete_card(guild_id, name)
    await interaction.response.send_message(
        f"Removed **{removed.name}** from this server's cards. Games already played with it "
        "keep their copy.", ephemeral=True, allowed_mentions=NO_MENTIONS)


@card_show.autocomplete("name")
async def _show_names(interaction: discord.Interaction[Any],
                      current: str) -> list[app_commands.Choice[str]]:
    return await _card_choices(interaction, current)


@card_default.autocomplete("name")
async def _default_names(interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
    return await _card_choices(interaction, current)


@card_delete.autocomplete("name")
async def _delete_names(interaction: discord.Interaction[Any],
                        current: str) -> list[app_commands.Choice[str]]:
    return await _card_choices(interaction, current, own_only=True)


# -- /analyze ----------------------------------------------------------------------------

def analysis_reply(matcher: CardMatcher, hand: PlayerHand, typed: str,
                   chosen: ResolvedCard) -> tuple[str, bytes, str]:
    """The analysis of the hand a person `typed` as a message (fitting Discord's limit), a
    picture and its alt text. Runs the matcher and the renderer, so call it off the event
    loop."""
    result = analyze(matcher, hand)
    where = " (this server's card)" if chosen.is_private else ""
    head = f"**Hand analysis** against **{result.card_name}**{where}"
    body = format_analysis(result, typed)
    room = MESSAGE_LIMIT - len(head) - len("\n```\n\n```") - 2
    if len(body) > room:
        body = body[:room - 1].rsplit("\n", 1)[0] + "\n…"
    scene = analysis_scene(result)
    return f"{head}\n```\n{body}\n```", render_analysis(scene), describe_analysis(scene)


@app_commands.command(name="analyze", description="What your tiles complete, or how far they "
                                                  "are from the nearest hands")
@app_commands.describe(tiles="your concealed tiles, e.g. FF 2026B 222C 2222D J",
                       exposed="your exposures, separated by commas, e.g. 333B, NNN J",
                       card="the card to check against (default: this server's default card)",
                       public="show the answer to the channel (default: only you)")
async def analyze_command(interaction: discord.Interaction[Any], tiles: TilesText,
                          exposed: TilesText = "", card: CardName | None = None,
                          public: bool = False) -> None:
    """Mah Jongg, waits and the nearest hands, as text and a picture."""
    hand = read_hand(tiles, exposed)
    chosen = await _servers(interaction).card(interaction.guild_id, card)
    await usable_card(chosen.name, chosen.text)  # a refusal is answered privately
    await interaction.response.defer(ephemeral=not public, thinking=True)
    matcher = await playable_matcher(chosen.name, chosen.text)
    text, picture, alt = await asyncio.to_thread(analysis_reply, matcher, hand,
                                                 typed_hand(tiles, exposed), chosen)
    await interaction.followup.send(text, ephemeral=not public,
                                    file=discord.File(io.BytesIO(picture),
                                                      filename="analysis.png",
                                                      description=alt),
                                    allowed_mentions=NO_MENTIONS)


@analyze_command.autocomplete("card")
async def _analyze_cards(interaction: discord.Interaction[Any],
                         current: str) -> list[app_commands.Choice[str]]:
    return await _card_choices(interaction, current)


# -- registration ------------------------------------------------------------------------

LOOKUP_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (RulesButton, RulesTopicSelect)
LOOKUP_COMMANDS: tuple[app_commands.Command[Any, ..., Any] | app_commands.Group, ...] = (
    rules_command, card_group, analyze_command)


def register_lookups(tree: app_commands.CommandTree[Any]) -> None:
    """Add `/rules`, `/card` and `/analyze` and their buttons. Loads and checks the rules
    files first, so a broken one stops the bot at start. Safe to call twice."""
    knowledge_base()
    for command in LOOKUP_COMMANDS:
        if tree.get_command(command.name) is None:
            tree.add_command(command)
    tree.client.add_dynamic_items(*LOOKUP_ITEMS)
