"""A server's settings and its own cards, as the front ends read and change them (`/mj
config`, `/card`, the card and defaults of a new table), kept in the table service's store.

What a setting means and how a change is checked is `bot.tables.server_config`; which card a
name means, `bot.server_cards`. This part gives them the service's store, so a front end asks
about a server without holding the store itself.
"""

from __future__ import annotations

from bot.server_cards import (
    ResolvedCard,
    card_names,
    default_card,
    resolve_card,
    set_default_card,
)
from bot.store import GuildAuditEntry, GuildSettings, ServerCard
from bot.tables.registry import Registry
from bot.tables.server_config import (
    ConfigChange,
    ServerConfig,
    change_settings,
    changed_settings,
    server_config,
)

__all__ = ["GuildAuditEntry", "Servers"]


class Servers:
    """A server's settings, their audit log, and the server's cards."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    # -- settings ------------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> GuildSettings:
        """The server's stored settings (None where it keeps the default)."""
        return await self.registry.db.guilds.settings(guild_id)

    async def config(self, guild_id: int) -> ServerConfig:
        """The server's settings as its new tables use them, with who set each
        (`server_config`; the delay of a server that has set none is the service's)."""
        return await server_config(self.registry.db, guild_id, self.registry.auto_delay)

    async def change(self, guild_id: int, change: ConfigChange, by_user: int, *,
                     manager: bool) -> list[str]:
        """A server manager changes the settings `change` names (`change_settings`: all or
        none, anyone else refused); returns the names of those whose values changed."""
        before = await self.settings(guild_id)
        after = await change_settings(self.registry.db, guild_id, change, by_user,
                                      manager=manager)
        return changed_settings(before, after)

    async def history(self, guild_id: int, limit: int) -> list[GuildAuditEntry]:
        """The newest `limit` changes of the server's settings, newest first."""
        return await self.registry.db.guilds.audit(guild_id, limit=limit)

    # -- cards ---------------------------------------------------------------------------------

    async def card(self, guild_id: int | None, name: str | None) -> ResolvedCard:
        """The card called `name` as this server sees it, or its default (`resolve_card`)."""
        return await resolve_card(self.registry.db, guild_id, name)

    async def card_names(self, guild_id: int | None) -> list[str]:
        """Every card name usable here: the shipped cards, then the server's own."""
        return await card_names(self.registry.db, guild_id)

    async def own_card_names(self, guild_id: int) -> list[str]:
        """The names of the cards the server uploaded."""
        return [card.name for card in await self.registry.db.cards.cards(guild_id)]

    async def default_card(self, guild_id: int | None) -> ResolvedCard:
        """The card the server's new tables use."""
        return await default_card(self.registry.db, guild_id)

    async def set_default_card(self, guild_id: int, name: str, by_user: int) -> ResolvedCard:
        """Make the card called `name` the server's default (kept in its audit log)."""
        return await set_default_card(self.registry.db, guild_id, name, by_user)

    async def save_card(self, guild_id: int, name: str, text: str, *, uploaded_by: int,
                        replace: bool) -> ServerCard:
        """Keep a checked card file as one of the server's own cards, under `name`
        (`replace`: in place of the server's card of that name)."""
        return await self.registry.db.cards.save_card(guild_id, name, text,
                                                      uploaded_by=uploaded_by,
                                                      replace=replace)

    async def delete_card(self, guild_id: int, name: str) -> ServerCard:
        """Remove one of the server's own cards (games played with it keep their copy)."""
        return await self.registry.db.cards.delete_card(guild_id, name)
