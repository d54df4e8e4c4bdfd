"""`/rules`, `/card` and `/analyze` end to end: the real Jongg client against the fake Discord.

The fake's standard world has one guild; these tests add a second one ("Other Hall", where
dave manages and bob is a member) before the bot connects, to prove a server's own card never
shows up in another server. In the first guild alice gets a role with Manage Server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from fake import CLIENT_OPTIONS, FakeDiscord, Perm, Upload, World
from fake.models import Channel, Guild

from bot.analysis import read_hand
from bot.discord.client import JonggClient
from bot.discord.commands import register_commands
from bot.discord.lookups import card_problems, register_lookups
from bot.engine.cards.cost import MAX_CARD_COMBINATIONS, costliest_card_text
from bot.engine.errors import CardError, CardProblem, InvalidInput
from bot.library import shipped_card_paths
from bot.rules import full_messages, knowledge_base, short_answer
from bot.server_cards import (
    default_card,
    read_card_file,
    resolve_card,
    set_default_card,
    upload_name,
)
from bot.store import Database

PNG = b"\x89PNG\r\n\x1a\n"
TEACHING = next(p for p in shipped_card_paths() if p.stem == "jongg-teaching").read_text()
HOUSE_CARD = TEACHING.replace("card: Jongg Teaching", "card: House Card")
BROKEN_CARD = b"""card: Broken
[Sec]
h1 11a 222a = 25 X
h2 FFFF 2222a 4444a 66a = abc X
h3 FFFF 2222a 4444a 66q = 25 X
"""
MAHJONG = "2222B 555B 8888B FFF"  # t1 of the teaching card, exactly


class LookupClient(JonggClient):
    """Jongg's client with the look-up commands registered (until `register_commands` adds
    them itself, `register_lookups` is idempotent)."""

    async def setup_hook(self) -> None:
        await super().setup_hook()
        register_lookups(self.tree)
        await self.tree.sync()


@dataclass(frozen=True)
class Other:
    guild: Guild
    lounge: Channel


@pytest.fixture
def other(fake_discord: FakeDiscord, world: World) -> Other:
    """A second server, and managers in both (added before the bot connects)."""
    managers = fake_discord.add_role(world.guild, "Managers", int(Perm.MANAGE_GUILD))
    world.guild.members[world.alice.id].roles.append(managers)
    guild = fake_discord.add_guild("Other Hall")
    lounge = fake_discord.add_channel(guild, "lounge")
    their_managers = fake_discord.add_role(guild, "Managers", int(Perm.MANAGE_GUILD))
    fake_discord.add_member(guild, world.dave, roles=[their_managers])
    fake_discord.add_member(guild, world.bob)
    return Other(guild, lounge)


@pytest.fixture
async def jongg(fake_discord: FakeDiscord, other: Other, tmp_path: Path
                ) -> AsyncIterator[LookupClient]:
    client = LookupClient(tmp_path / "jongg.service.db", sync_commands=False, **CLIENT_OPTIONS)
    async with fake_discord.run(client) as running:
        yield running


# -- every command is described --------------------------------------------------------


def _undescribed(command: app_commands.Command[Any, ..., Any] | app_commands.Group,
                 path: str = "") -> list[str]:
    name = f"{path}/{command.name}"
    missing = [name] if command.description in ("", "…") else []
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            missing += _undescribed(child, name)
    else:
        missing += [f"{name} {p.name}" for p in command.parameters
                    if p.description in ("", "…")]
    return missing


def test_every_slash_command_and_option_is_described() -> None:
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.default()))
    register_commands(tree)
    register_lookups(tree)
    register_lookups(tree)  # twice is harmless
    commands = tree.get_commands()
    assert {"mj", "rules", "card", "analyze"} <= {c.name for c in commands}
    missing = [m for c in commands if not isinstance(c, app_commands.ContextMenu)
               for m in _undescribed(c)]
    assert missing == []


async def test_the_commands_are_synced_with_descriptions(fake_discord: FakeDiscord,
                                                         jongg: LookupClient) -> None:
    synced = {c["name"]: c for c in fake_discord.commands[None]}
    assert {"mj", "rules", "card", "analyze"} <= set(synced)

    def check(entry: dict[str, Any]) -> None:
        assert entry["description"] and entry["description"] != "…", entry["name"]
        for option in entry.get("options", []):
            check(option)

    for entry in synced.values():
        check(entry)


# -- /rules ------------------------------------------------------------------------------


async def test_rules_answers_briefly_with_a_full_rules_button(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    jokers = knowledge_base().by_id["jokers"]
    handle = await fake_discord.slash(world.alice, world.general, "rules", {"topic": "jokers"})
    reply = await handle.reply()
    assert reply.content == short_answer(jokers) and not reply.ephemeral
    assert reply.custom_ids()[0] == "jg:rl:jokers:full"
    assert [f"jg:rl:{r}:short" for r in jokers.related[:3]] == reply.custom_ids()[1:]

    click = await fake_discord.click(world.bob, reply, "jg:rl:jokers:full")
    full = await click.reply()
    assert full.ephemeral and full.visible_to is world.bob
    assert full.content == full_messages(jokers)[0]


async def test_the_full_section_arrives_in_pieces_that_fit(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    longest = max(knowledge_base().topics, key=lambda t: len(full_messages(t)))
    expected = full_messages(longest)
    assert len(expected) > 1, "some topic should be long enough to need two messages"
    handle = await fake_discord.slash(world.alice, world.general, "rules",
                                      {"topic": longest.id})
    click = await fake_discord.click(world.carol, await handle.reply(),
                                     f"jg:rl:{longest.id}:full")
    received = [await click.reply()] + [await click.followup(i)
                                        for i in range(len(expected) - 1)]
    assert [m.content for m in received] == expected
    assert all(m.ephemeral and len(m.content) <= 2000 for m in received)


async def test_rules_reads_a_question_in_free_text(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    handle = await fake_discord.slash(world.bob, world.general, "rules",
                                      {"topic": "how many jokers in a pair", "private": True})
    reply = await handle.reply()
    assert reply.content.startswith("**Jokers**") and reply.ephemeral


async def test_rules_reads_a_hand_of_the_card_in_plain_words(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "rules",
                                      {"hand": "t3", "card": "jongg-teaching"})
    reply = await handle.reply()
    assert not reply.ephemeral
    assert reply.content.startswith("**t3** `5555a 666a 777b FFFF`: Suits, worth 25, exposed")
    assert "• a pung (three alike) of 7s of suit b" in reply.content
    # A typed line is read too (with the server's default card's year), and a hand that
    # isn't on the card is explained privately.
    typed = await (await fake_discord.slash(world.bob, world.general, "rules",
                                            {"hand": "FF Ya 222b 222c 22c",
                                             "private": True})).reply()
    assert typed.ephemeral and "• the year 2026 in suit a" in typed.content
    missing = await (await fake_discord.slash(world.bob, world.general, "rules",
                                              {"hand": "t99"})).reply()
    assert missing.ephemeral and missing.content.startswith(
        "There is no hand `t99` on Jongg Original.")


async def test_related_topics_and_the_topics_menu(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "rules")
    listing = await handle.reply()
    assert listing.content.startswith("**Rules topics.**")
    chosen = await fake_discord.select(world.carol, listing, "jg:rs:variant", ["siamese"])
    answer = await chosen.reply()
    assert answer.ephemeral and answer.content.startswith("**Two players (Siamese-style)**")
    # Every topic is in the menu of its kind.
    official = await fake_discord.select(world.carol, listing, "jg:rs", ["bettor"])
    assert (await official.reply()).content.startswith("**The bettor**")
    house = await fake_discord.select(world.carol, listing, "jg:rs:house", ["house-payments"])
    assert (await house.reply()).content.startswith("**The pot and paying for the table**")

    related = await fake_discord.click(world.carol, answer, "jg:rl:three-player:short")
    assert (await related.reply()).content.startswith("**Three-player games**")


async def test_an_unknown_question_says_what_to_try(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "rules",
                                      {"topic": "pizza delivery"})
    reply = await handle.reply()
    assert reply.ephemeral and "I couldn't find a rule" in reply.content


async def test_every_topic_is_reachable_by_autocomplete(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    kb = knowledge_base()
    everything = await fake_discord.autocomplete(world.alice, world.general, "rules", "topic", "")
    assert [c["value"] for c in await everything.choices()] == [t.id for t in kb.topics[:25]]
    for topic in kb.topics:
        typing = await fake_discord.autocomplete(world.alice, world.general, "rules", "topic",
                                                 topic.title[:5])
        assert topic.id in [c["value"] for c in await typing.choices()], topic.title[:5]


async def test_rules_work_in_direct_messages(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    dm = fake_discord.dm_channel(world.alice)
    handle = await fake_discord.slash(world.alice, dm, "rules", {"topic": "wall game"})
    assert (await handle.reply()).content.startswith("**Wall games**")
    upload = await fake_discord.slash(world.alice, dm, "card upload",
                                      {"file": Upload("house.jongg", HOUSE_CARD.encode())})
    assert "Use this command in a server" in (await upload.reply()).content


# -- /card -------------------------------------------------------------------------------


async def test_card_show_draws_a_shipped_card(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    handle = await fake_discord.slash(world.bob, world.general, "card show",
                                      {"name": "jongg-teaching"})
    reply = await handle.reply()
    assert "**Jongg Teaching**" in reply.content and "comes with Jongg" in reply.content
    # In pages a phone can read, all in the one reply.
    assert sorted(reply.files) == ["card-1.png", "card-2.png"]
    assert all(page.startswith(PNG) for page in reply.files.values())
    # Each page says its hands in words, for screen readers.
    for number, page in enumerate(reply.attachments, start=1):
        alt = page.description or ""
        assert alt.startswith(f"Jongg Teaching. Page {number} of 2."), alt
        assert "exposed, 30 points" in alt


async def test_only_server_managers_upload_cards(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    handle = await fake_discord.slash(world.bob, world.general, "card upload",
                                      {"file": Upload("house.jongg", HOUSE_CARD.encode())})
    reply = await handle.reply()
    assert reply.ephemeral and "Only server managers" in reply.content
    assert await jongg.service.db.cards.cards(world.guild.id) == []


async def test_a_malformed_card_is_refused_line_by_line(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "card upload",
                                      {"file": Upload("broken.jongg", BROKEN_CARD)})
    reply = await handle.reply()
    assert reply.ephemeral and "`broken.jongg` has 3 problems" in reply.content
    for line in ("line 3: hand `h1` has 5 tiles", "line 4: value `abc`",
                 "line 5: group `66q`"):
        assert line in reply.content
    assert await jongg.service.db.cards.cards(world.guild.id) == []

    binary = await fake_discord.slash(world.alice, world.general, "card upload",
                                      {"file": Upload("card.png", PNG + b"\xff\xfe")})
    assert "isn't UTF-8 text" in (await binary.reply()).content


async def test_a_private_card_stays_in_its_server(
        fake_discord: FakeDiscord, world: World, other: Other, jongg: LookupClient) -> None:
    upload = await fake_discord.slash(world.alice, world.general, "card upload",
                                      {"file": Upload("house.jongg", HOUSE_CARD.encode())})
    saved = await upload.reply()
    assert saved.ephemeral and "Saved **House Card**" in saved.content
    again = await fake_discord.slash(world.alice, world.general, "card upload",
                                     {"file": Upload("house.jongg", HOUSE_CARD.encode())})
    assert "already has a card called `House Card`" in (await again.reply()).content
    replaced = await fake_discord.slash(world.alice, world.general, "card upload",
                                        {"file": Upload("house.jongg", HOUSE_CARD.encode()),
                                         "replace": True})
    assert "Saved **House Card**" in (await replaced.reply()).content
    assert len(await jongg.service.db.cards.cards(world.guild.id)) == 1

    shown = await (await fake_discord.slash(world.bob, world.general, "card show",
                                            {"name": "house card"})).reply()
    assert "this server's own card" in shown.content and shown.files["card-1.png"].startswith(PNG)
    typing = await fake_discord.autocomplete(world.bob, world.general, "card show", "name", "ho")
    assert [c["value"] for c in await typing.choices()] == ["House Card"]

    # The other server can't see it, pick it, analyze with it, or find it in its list.
    elsewhere = await fake_discord.slash(world.dave, other.lounge, "card show",
                                         {"name": "House Card"})
    refused = await elsewhere.reply()
    assert refused.ephemeral and "There is no card called `House Card` here" in refused.content
    assert "house" not in refused.content.lower().replace("house card", "")
    typing = await fake_discord.autocomplete(world.dave, other.lounge, "card show", "name", "")
    assert "House Card" not in [c["value"] for c in await typing.choices()]
    listing = await (await fake_discord.slash(world.bob, other.lounge, "card list")).reply()
    assert "House Card" not in listing.content and "Jongg Teaching" in listing.content
    analysis = await fake_discord.slash(world.dave, other.lounge, "analyze",
                                        {"tiles": MAHJONG, "card": "House Card"})
    assert "There is no card called" in (await analysis.reply()).content
    default = await fake_discord.slash(world.dave, other.lounge, "card default",
                                       {"name": "House Card"})
    assert "There is no card called" in (await default.reply()).content
    assert (await default_card(jongg.service.db, other.guild.id)).is_private is False

    # Back home it is the default, analyzes, and can be removed.
    made = await fake_discord.slash(world.alice, world.general, "card default",
                                    {"name": "House Card"})
    assert "will use **House Card**" in (await made.reply()).content
    home = await default_card(jongg.service.db, world.guild.id)
    assert home.is_private and home.name == "House Card" and home.card_id is not None
    result = await fake_discord.slash(world.carol, world.general, "analyze", {"tiles": MAHJONG})
    assert "MAH JONGG: t1" in (await result.reply()).content
    removed = await fake_discord.slash(world.alice, world.general, "card delete",
                                       {"name": "House Card"})
    assert "Removed **House Card**" in (await removed.reply()).content
    assert (await default_card(jongg.service.db, world.guild.id)).name == "jongg-original"


async def test_a_card_over_the_compile_budget_is_refused_naming_its_costliest_hands(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    over = MAX_CARD_COMBINATIONS + 1
    handle = await fake_discord.slash(world.alice, world.general, "card upload", {
        "file": Upload("costly.jongg", costliest_card_text(over).encode())})
    reply = await handle.reply()
    assert reply.ephemeral and "`costly.jongg` has 1 problem, so I didn't save it" in reply.content
    assert f"line 4: the card spans {over:,} combinations" in reply.content
    assert f"at most {MAX_CARD_COMBINATIONS:,}" in reply.content
    for number, line in ((1, 4), (2, 5), (3, 6)):
        assert f"`c{number}` on line {line} (4,096)" in reply.content
    assert "fewer `|` alternatives" in reply.content and len(reply.content) <= 2000
    assert await jongg.service.db.cards.cards(world.guild.id) == []


async def test_a_stored_card_over_the_budget_is_refused_politely_where_it_is_used(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    """A card uploaded before the budget existed is still in the store: every command that
    would check or compile it says why it can't be used and what to do."""
    old = costliest_card_text(MAX_CARD_COMBINATIONS + 1).replace("Costliest", "Old Card")
    await jongg.service.db.cards.save_card(world.guild.id, "Old Card", old,
                                           uploaded_by=world.alice.id)
    refusal = "The card `Old Card` can't be used: line 4: the card spans 20,001 combinations"
    for command, options in (("card show", {"name": "Old Card"}),
                             ("analyze", {"tiles": MAHJONG, "card": "Old Card"}),
                             ("mj new", {"card": "Old Card"})):
        handle = await fake_discord.slash(world.bob, world.tables, command, options)
        reply = await handle.reply()
        assert reply.ephemeral and reply.content.startswith(refusal), (command, reply.content)
        assert "`/card upload` (replace: True)" in reply.content and not reply.files
    listing = await (await fake_discord.slash(world.bob, world.general, "card list")).reply()
    assert refusal in listing.content and "**Jongg Teaching**" in listing.content
    assert await jongg.service.db.games.unfinished_games() == []


async def test_non_managers_can_see_but_not_change_the_default(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    seen = await fake_discord.slash(world.bob, world.general, "card default")
    assert "New tables here use **jongg-original**" in (await seen.reply()).content
    change = await fake_discord.slash(world.bob, world.general, "card default",
                                      {"name": "jongg-teaching"})
    assert "Only server managers" in (await change.reply()).content


# -- /analyze ----------------------------------------------------------------------------


async def test_analyze_shows_mahjong_privately_with_a_picture(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    handle = await fake_discord.slash(world.bob, world.general, "analyze",
                                      {"tiles": MAHJONG, "card": "jongg-teaching"})
    reply = await handle.reply()
    assert reply.ephemeral and reply.visible_to is world.bob
    assert "MAH JONGG: t1" in reply.content and "Jongg Teaching" in reply.content
    assert reply.files["analysis.png"].startswith(PNG)


async def test_analyze_lists_the_nearest_hands_with_what_is_missing(
        fake_discord: FakeDiscord, world: World, jongg: LookupClient) -> None:
    handle = await fake_discord.slash(world.carol, world.general, "analyze",
                                      {"tiles": "FF 2026B 22C J", "exposed": "2222D",
                                       "public": True})
    reply = await handle.reply()
    assert not reply.ephemeral and "Nearest hands:" in reply.content
    assert "Hand: FF 2026B 22C J | exposed 2222D  (13 tiles" in reply.content, "as typed"
    assert "Tiles: F F 2B 0 2B 6B 2C 2C J | exposed 2D 2D 2D 2D" in reply.content
    assert "need" in reply.content and len(reply.content) <= 2000
    assert reply.files["analysis.png"].startswith(PNG)


@pytest.mark.parametrize(("tiles", "message"), [
    ("FF 20Q6B", "I don't know the tile `20Q6B`"),
    ("11111B", "1 Bam 5 times, but a set has only 4"),
    ("FF 2026B 222C 2222D JJ 3C", "That is 16 tiles"),
    ("X 222B", "Blanks (`X`) are never part of a hand"),
])
async def test_analyze_explains_bad_tiles(fake_discord: FakeDiscord, world: World,
                                          jongg: LookupClient, tiles: str, message: str) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "analyze", {"tiles": tiles})
    reply = await handle.reply()
    assert reply.ephemeral and message in reply.content and not reply.files


# -- the pieces without Discord ----------------------------------------------------------


def test_read_hand_checks_the_set() -> None:
    assert read_hand(MAHJONG).size == 14
    assert read_hand("FF 22C", "2222D, 333B J").size == 12
    for tiles, exposed in (("", ""), ("J" * 9, ""), ("3B " * 100, "")):
        with pytest.raises(InvalidInput):
            read_hand(tiles, exposed)


def test_long_problem_lists_are_cut_and_attached_whole() -> None:
    problems = tuple(CardProblem(n, f"hand `h{n}` has a problem that needs fixing") for n in
                     range(1, 101))
    reply, everything = card_problems(CardError("The card has 100 problems.", problems),
                                      "big`name.jongg")
    assert len(reply) <= 2000 and reply != everything
    assert "more: every problem is in the attached file" in reply
    assert everything.count("\n") == 100 and "big'name.jongg" in reply


async def test_resolve_card_by_server(tmp_path: Path) -> None:
    async with Database(tmp_path / "cards.db") as db:
        text, card = await read_card_file(HOUSE_CARD.encode())
        await db.cards.save_card(1, await upload_name(None, card), text, uploaded_by=9)
        assert (await resolve_card(db, None, None)).name == "jongg-original"
        assert (await resolve_card(db, 2, "Jongg Teaching")).name == "jongg-teaching"
        mine = await resolve_card(db, 1, "house card")
        assert mine.is_private and mine.text == HOUSE_CARD and mine.card_id is not None
        for guild in (2, None):
            with pytest.raises(InvalidInput, match="no card called `house card`"):
                await resolve_card(db, guild, "house card")
        assert (await set_default_card(db, 1, "House Card", 9)).is_private
        assert (await default_card(db, 1)).name == "House Card"
        assert (await default_card(db, 2)).name == "jongg-original"
        assert (await set_default_card(db, 2, "jongg-teaching", 9)).name == "jongg-teaching"
        assert (await default_card(db, 2)).name == "jongg-teaching"
        with pytest.raises(InvalidInput, match="comes with Jongg"):
            await upload_name("Jongg Original", card)
        with pytest.raises(InvalidInput, match="UTF-8"):
            await read_card_file(b"\xff\xfe\x00")
