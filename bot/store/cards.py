"""Server cards: card files a server uploads for its own games.

Real cards are copyrighted, so a server's card must never be readable from another server:
every method takes the guild id and every query filters on it, so an id or name from another
server is simply "not found". Names are unique per server, ignoring case.
"""

from __future__ import annotations

import re

from bot.store.errors import BadCardUpload, CardNameTaken, CardNotFound
from bot.store.models import ServerCard
from bot.store.rows import CARD_COLUMNS, Part, card_from_row, check_int, ensure_guild
from bot.store.tx import Tx

#: Longest card file kept, in characters (a full card is a few thousand).
MAX_CARD_TEXT = 200_000
MAX_NAME = 32
_NAME = re.compile(r"^\w[\w .'-]*$")


def check_card_name(name: str) -> str:
    """The name, trimmed, or a `BadCardUpload` saying what a name may look like."""
    trimmed = name.strip() if isinstance(name, str) else ""
    if not 1 <= len(trimmed) <= MAX_NAME or not _NAME.match(trimmed):
        raise BadCardUpload(
            f"A card name is 1 to {MAX_NAME} characters: letters, digits, spaces, and - _ . ' "
            "(starting with a letter or digit). Try something like `house-2026`."
        )
    return trimmed


class ServerCards(Part):
    """`db.cards`: each server's own card files."""

    async def save_card(self, guild_id: int, name: str, text: str, *, uploaded_by: int,
                        replace: bool = False) -> ServerCard:
        """Keep a card file under `name` for this server. If the name is in use, raise
        `CardNameTaken` unless `replace`, which swaps in the new text under the same id
        (games already played keep the text they used)."""
        name = check_card_name(name)
        if not isinstance(text, str) or not text.strip():
            raise BadCardUpload("That card file is empty. Upload the card's text file.")
        if len(text) > MAX_CARD_TEXT:
            raise BadCardUpload(
                f"That card file is too long ({len(text):,} characters; the most is "
                f"{MAX_CARD_TEXT:,}). Check that it is the right file.")
        check_int(uploaded_by, "uploaded_by")
        now = self._db.now()
        async with self._db.transaction() as tx:
            await ensure_guild(tx, guild_id, now)
            existing = await _find(tx, guild_id, name)
            if existing is not None and not replace:
                raise CardNameTaken(existing.name)
            if existing is None:
                card_id = await tx.insert(
                    "INSERT INTO server_cards (guild_id, name, card_text, uploaded_by, "
                    "uploaded_at) VALUES (?, ?, ?, ?, ?)",
                    (guild_id, name, text, uploaded_by, now))
            else:
                card_id = existing.id
                await tx.execute(
                    "UPDATE server_cards SET name = ?, card_text = ?, uploaded_by = ?, "
                    "uploaded_at = ? WHERE id = ? AND guild_id = ?",
                    (name, text, uploaded_by, now, card_id, guild_id))
            return await fetch_card(tx, guild_id, card_id)

    async def card(self, guild_id: int, name: str) -> ServerCard:
        """This server's card called `name` (any case), or `CardNotFound`."""
        async with self._db.read() as tx:
            card = await _find(tx, guild_id, name.strip())
        if card is None:
            raise CardNotFound(name.strip())
        return card

    async def card_by_id(self, guild_id: int, card_id: int) -> ServerCard:
        """This server's card with this id, or `CardNotFound` (also for another server's)."""
        async with self._db.read() as tx:
            return await fetch_card(tx, guild_id, card_id)

    async def cards(self, guild_id: int) -> list[ServerCard]:
        """This server's cards, by name."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {CARD_COLUMNS} FROM server_cards WHERE guild_id = ? ORDER BY name",
                (check_int(guild_id, "guild_id"),))
        return [card_from_row(row) for row in rows]

    async def delete_card(self, guild_id: int, name: str) -> ServerCard:
        """Remove this server's card called `name` and return it. Games played with it keep
        their copy; a server default pointing at it is cleared."""
        async with self._db.transaction() as tx:
            card = await _find(tx, guild_id, name.strip())
            if card is None:
                raise CardNotFound(name.strip())
            await tx.execute("DELETE FROM server_cards WHERE id = ? AND guild_id = ?",
                             (card.id, guild_id))
            return card


async def _find(tx: Tx, guild_id: int, name: str) -> ServerCard | None:
    row = await tx.fetchone(
        f"SELECT {CARD_COLUMNS} FROM server_cards WHERE guild_id = ? AND name = ?",
        (check_int(guild_id, "guild_id"), name))
    return None if row is None else card_from_row(row)


async def fetch_card(tx: Tx, guild_id: int, card_id: int) -> ServerCard:
    """The server's card with this id, or `CardNotFound` (a card of another server too)."""
    row = await tx.fetchone(
        f"SELECT {CARD_COLUMNS} FROM server_cards WHERE id = ? AND guild_id = ?",
        (check_int(card_id, "card_id"), check_int(guild_id, "guild_id")))
    if row is None:
        raise CardNotFound(None)
    return card_from_row(row)
