"""Which card a server means: shipped cards, the server's own private cards, and its default.

Shipped cards are everyone's; a server's uploaded card is readable only with that server's
id (the store filters every query by guild), so nothing here can hand one server's card to
another. Names of uploaded cards may not shadow a shipped card's, so a name always means one
card. Loading a card and building its matcher take a moment, so both are cached by the card's
text (the cache key is the text itself, which a server can only obtain through its own id).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import Generic, TypeVar

from bot.engine.cards import Card, load_card
from bot.engine.errors import CardError, InvalidInput, echo
from bot.engine.matcher import CardMatcher, matcher_for
from bot.engine.tiles import STANDARD_COUNTS
from bot.library import CARD_SUFFIX, DEFAULT_CARD, shipped_card_paths
from bot.store import CardNotFound, Database, GuildSettings, ServerCard
from bot.store.cards import MAX_CARD_TEXT, check_card_name
from bot.store.cards import MAX_NAME as MAX_NAME  # the longest card name, for the front ends

#: Longest card problem quoted when a stored card can't be used.
MAX_PROBLEM_CHARS = 700

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


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Cached(Generic[K, V]):
    """Results of slow pure work, by key, most recently used kept. Called directly it
    computes in the calling thread (for code already in a worker); `wait` computes in a
    worker thread, and callers asking for a key while it is computed wait for that same
    computation. Errors are not kept: asking again computes again."""

    def __init__(self, compute: Callable[[K], V], keep: int) -> None:
        self._compute = compute
        self._keep = keep
        self._done: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()  # workers store results while the loop reads
        self._running: dict[K, asyncio.Task[V]] = {}

    def __call__(self, key: K) -> V:
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return self._done[key]
        value = self._compute(key)
        with self._lock:
            self._done[key] = value
            while len(self._done) > self._keep:
                self._done.popitem(last=False)
        return value

    async def wait(self, key: K) -> V:
        """The result for `key`, computed off the event loop the first time."""
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return self._done[key]
        loop = asyncio.get_running_loop()
        task = self._running.get(key)
        if task is None or task.get_loop() is not loop:
            task = loop.create_task(asyncio.to_thread(self, key))
            self._running[key] = task
            task.add_done_callback(partial(self._finished, key))
        # Shielded: a caller giving up does not cancel the work the others wait for.
        return await asyncio.shield(task)

    def _finished(self, key: K, task: asyncio.Task[V]) -> None:
        if self._running.get(key) is task:
            del self._running[key]
        if not task.cancelled():
            task.exception()  # retrieved here, so a refusal nobody awaited is not logged


def _compile(key: tuple[str, tuple[int, ...]]) -> CardMatcher:
    text, counts = key
    return matcher_for(_cards(text), counts)


#: Checked cards by their text, and compiled matchers by (text, tile counts).
_cards: _Cached[str, Card] = _Cached(load_card, keep=16)
_matchers: _Cached[tuple[str, tuple[int, ...]], CardMatcher] = _Cached(_compile, keep=8)


def parse_card(text: str) -> Card:
    """The card in a card file's text, checked in this thread (cached; raises `CardError`
    with every problem). On the event loop, use `load_card_async`."""
    return _cards(text)


async def load_card_async(text: str) -> Card:
    """The card in this text, checked in a worker thread the first time (cached; raises
    `CardError` with every problem, a card over the compile budget included)."""
    return await _cards.wait(text)


async def matcher_async(text: str, counts: Sequence[int] = STANDARD_COUNTS) -> CardMatcher:
    """The card in this text compiled for matching, in a worker thread the first time
    (cached; raises `CardError`). Its `card` is the card to play with: the engine finds
    this matcher again from it while anything holds the matcher, so nothing compiles on
    the event loop."""
    return await _matchers.wait((text, tuple(counts)))


async def usable_card(name: str, text: str) -> Card:
    """`load_card_async` for a card someone chose by `name`. A stored card that the checker
    refuses now (uploaded before a limit it breaks, such as the compile budget) is refused
    with an `InvalidInput` saying what is wrong and what to do."""
    try:
        return await load_card_async(text)
    except CardError as error:
        raise unusable_card(name, error) from None


async def playable_matcher(name: str, text: str,
                           counts: Sequence[int] = STANDARD_COUNTS) -> CardMatcher:
    """`matcher_async` for a card a game is about to be played with, refused like
    `usable_card` refuses."""
    await usable_card(name, text)
    return await matcher_async(text, counts)


def unusable_card(name: str, error: CardError) -> InvalidInput:
    """A stored card the checker refuses, as a message for the players and the way out."""
    problems = "; ".join(str(problem)[:MAX_PROBLEM_CHARS] for problem in error.problems[:2])
    return InvalidInput(f"The card `{echo(name)}` can't be used: {problems or error.message} "
                        "A server manager can fix the file and upload it again with "
                        "`/card upload` (replace: True).")


@cache
def shipped_texts() -> dict[str, str]:
    """The shipped cards' file texts by short name (read once: they ship with the code)."""
    return {path.name.removesuffix(CARD_SUFFIX): path.read_text(encoding="utf-8")
            for path in shipped_card_paths()}


async def _shipped(name: str) -> ResolvedCard | None:
    wanted = name.strip().lower()
    for short, text in shipped_texts().items():
        if wanted == short.lower() or wanted == (await load_card_async(text)).name.lower():
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
            found = await _shipped(settings.shipped_card)
            if found is not None:
                return found
    found = await _shipped(DEFAULT_CARD)
    assert found is not None, "the default card ships with Jongg"
    return found


async def resolve_card(db: Database, guild_id: int | None, name: str | None) -> ResolvedCard:
    """The card called `name`, as this server sees it: a shipped card (by short or full
    name) or one of this server's own cards; with no name, the server's default. Outside a
    server (`guild_id` None) only shipped cards exist. Raises `InvalidInput` naming the cards
    that do exist."""
    if name is None or not name.strip():
        return await default_card(db, guild_id)
    found = await _shipped(name)
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


async def read_card_file(data: bytes) -> tuple[str, Card]:
    """An uploaded card file's text and card, checked off the event loop. Raises
    `InvalidInput` for a file that is not UTF-8 text, or `CardError` listing every problem
    by line (a card over the compile budget names its costliest hands)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise InvalidInput(f"That file is too big for a card ({len(data):,} bytes). A card "
                           "file is plain text of a few thousand characters.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput("That file isn't UTF-8 text. Upload the card as a plain text "
                           "`.jongg` file (see the card language guide).") from None
    return text, await load_card_async(text)


async def upload_name(name: str | None, card: Card) -> str:
    """The name to keep an upload under: the one given, else the card's own name. Refuses a
    name that belongs to a shipped card, so a name always means a single card."""
    chosen = check_card_name(name if name and name.strip() else card.name)
    if await _shipped(chosen) is not None:
        raise InvalidInput(f"`{chosen}` is the name of a card that comes with Jongg. Pick "
                           "another name with the `name` option, like `house-2026`.")
    return chosen


async def set_default_card(db: Database, guild_id: int, name: str,
                           by_user: int) -> ResolvedCard:
    """Make the card called `name` the server's default for new tables (`by_user` asked; the
    change is kept in the server's audit log)."""
    chosen = await resolve_card(db, guild_id, name)
    settings = await db.guilds.settings(guild_id)
    await db.guilds.set_settings(guild_id, with_default_card(settings, chosen),
                                 by_user=by_user)
    return chosen


def with_default_card(settings: GuildSettings, chosen: ResolvedCard) -> GuildSettings:
    """`settings` with `chosen` as the default card (the one stored setting `/card default`
    and `/mj config card:` both change)."""
    if chosen.is_private:
        return replace(settings, shipped_card=None, server_card_id=chosen.card_id)
    return replace(settings, shipped_card=chosen.name, server_card_id=None)
