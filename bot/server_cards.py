"""Which card a server means: shipped cards, the server's own private cards, and its default.

Shipped cards are everyone's; a server's uploaded card is readable only with that server's
id (the store filters every query by guild), so nothing here can hand one server's card to
another. Names of uploaded cards may not shadow a shipped card's, so a name always means one
card. Loading a card and building its matcher take a moment, so both are cached by the card's
text (the cache key is the text itself, which a server can only obtain through its own id).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache

from bot.engine.cards import Card, load_card
from bot.engine.errors import InvalidInput, echo
from bot.engine.matcher import CardMatcher, matcher_for
from bot.library import CARD_SUFFIX, DEFAULT_CARD, shipped_card_paths
from bot.store import CardNotFound, Database, GuildSettings, ServerCard
from bot.store.cards import MAX_CARD_TEXT, check_card_name

#: Largest card upload read from Discord, in bytes (the store keeps up to MAX_CARD_TEXT
#: characters; UTF-8 text is at least one byte per character).
MAX_UPLOAD_BYTES = MAX_CARD_TEXT * 2


@dataclass(frozen=True)
class ResolvedCard:
    """A card chosen by name: its short name, its file text, whether it is the server's own
    (private) card, and then its store id (to start a game with `ServerCardChoice`)."""

    name: str
    text: str
    is_private: bool
    card_id: int | None = None


@lru_cache(maxsize=16)
def parse_card(text: str) -> Card:
    """The card in a card file's text (cached; raises `CardError` with every problem)."""
    return load_card(text)


def card_matcher(text: str) -> CardMatcher:
    """A matcher for the card in this text (both the card and its matcher are cached)."""
    return matcher_for(parse_card(text))


@cache
def shipped_texts() -> dict[str, str]:
    """The shipped cards' file texts by short name (read once: they ship with the code)."""
    return {path.name.removesuffix(CARD_SUFFIX): path.read_text(encoding="utf-8")
            for path in shipped_card_paths()}


def _shipped(name: str) -> ResolvedCard | None:
    wanted = name.strip().lower()
    for short, text in shipped_texts().items():
        if wanted in (short.lower(), parse_card(text).name.lower()):
            return ResolvedCard(short, text, False)
    return None


def _private(card: ServerCard) -> ResolvedCard:
    return ResolvedCard(card.name, card.text, True, card.id)


async def default_card(db: Database, guild_id: int | None) -> ResolvedCard:
    """The card new tables use: the server's chosen default, else Jongg's default."""
    if guild_id is not None:
        settings = await db.guilds.settings(guild_id)
        if settings.server_card_id is not None:
            return _private(await db.cards.card_by_id(guild_id, settings.server_card_id))
        if settings.shipped_card is not None:
            found = _shipped(settings.shipped_card)
            if found is not None:
                return found
    found = _shipped(DEFAULT_CARD)
    assert found is not None, "the default card ships with Jongg"
    return found


async def resolve_card(db: Database, guild_id: int | None, name: str | None) -> ResolvedCard:
    """The card called `name`, as this server sees it: a shipped card (by short or full
    name) or one of this server's own cards; with no name, the server's default. Outside a
    server (`guild_id` None) only shipped cards exist. Raises `InvalidInput` naming the cards
    that do exist."""
    if name is None or not name.strip():
        return await default_card(db, guild_id)
    found = _shipped(name)
    if found is not None:
        return found
    if guild_id is not None:
        try:
            return _private(await db.cards.card(guild_id, name))
        except CardNotFound:
            pass
    known = ", ".join(f"`{n}`" for n in await card_names(db, guild_id))
    raise InvalidInput(f"There is no card called `{echo(name)}` here. The cards you can use "
                       f"here are: {known}.")


async def card_names(db: Database, guild_id: int | None) -> list[str]:
    """Every card name usable here: the shipped cards, then this server's own."""
    names = list(shipped_texts())
    if guild_id is not None:
        names += [card.name for card in await db.cards.cards(guild_id)]
    return names


def read_card_file(data: bytes) -> tuple[str, Card]:
    """An uploaded card file's text and card. Raises `InvalidInput` for a file that is not
    UTF-8 text, or `CardError` listing every problem by line."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise InvalidInput(f"That file is too big for a card ({len(data):,} bytes). A card "
                           "file is plain text of a few thousand characters.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput("That file isn't UTF-8 text. Upload the card as a plain text "
                           "`.jongg` file (see the card language guide).") from None
    return text, parse_card(text)


def upload_name(name: str | None, card: Card) -> str:
    """The name to keep an upload under: the one given, else the card's own name. Refuses a
    name that belongs to a shipped card, so a name always means a single card."""
    chosen = check_card_name(name if name and name.strip() else card.name)
    if _shipped(chosen) is not None:
        raise InvalidInput(f"`{chosen}` is the name of a card that comes with Jongg. Pick "
                           "another name with the `name` option, like `house-2026`.")
    return chosen


async def set_default_card(db: Database, guild_id: int, name: str) -> ResolvedCard:
    """Make the card called `name` the server's default for new tables."""
    chosen = await resolve_card(db, guild_id, name)
    settings = await db.guilds.settings(guild_id)
    if chosen.is_private:
        updated: GuildSettings = replace(settings, shipped_card=None,
                                         server_card_id=chosen.card_id)
    else:
        updated = replace(settings, shipped_card=chosen.name, server_card_id=None)
    await db.guilds.set_settings(guild_id, updated)
    return chosen
