"""Guilds: a server's defaults for new games.

Settings are columns rather than a JSON blob, so the database checks them and a later
migration adds a setting with `ALTER TABLE guilds ADD COLUMN`. A server with no row yet has
every setting at None ("use the bot's default").
"""

from __future__ import annotations

from bot.store.errors import CardNotFound
from bot.store.models import GuildSettings, Pace
from bot.store.rows import Part, check_int, check_name, ensure_guild, opt_int
from bot.store.tx import Tx


class Guilds(Part):
    """`db.guilds`: per-server settings."""

    async def settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (all None for a server never configured)."""
        async with self._db.read() as tx:
            return await _read(tx, guild_id)

    async def set_settings(self, guild_id: int, settings: GuildSettings) -> GuildSettings:
        """Replace the server's settings. A default server card must be one of this server's
        cards (else `CardNotFound`)."""
        pace = settings.pace
        if pace is not None:
            check_name(pace.name, "pace name")
        if settings.rules is not None:
            check_name(settings.rules, "rules")
        if settings.shipped_card is not None:
            check_name(settings.shipped_card, "card name")
        now = self._db.now()
        async with self._db.transaction() as tx:
            await ensure_guild(tx, guild_id, now)
            if settings.server_card_id is not None:
                own = await tx.fetchone(
                    "SELECT 1 FROM server_cards WHERE id = ? AND guild_id = ?",
                    (check_int(settings.server_card_id, "server_card_id"), guild_id))
                if own is None:
                    raise CardNotFound(None)
            await tx.execute(
                """UPDATE guilds SET default_rules = ?, default_shipped_card = ?,
                       default_server_card_id = ?, pace_name = ?, turn_seconds = ?,
                       claim_seconds = ?, hints = ?, updated_at = ?
                   WHERE id = ?""",
                (settings.rules, settings.shipped_card, settings.server_card_id,
                 None if pace is None else pace.name,
                 None if pace is None else pace.turn_seconds,
                 None if pace is None else pace.claim_seconds,
                 None if settings.hints is None else int(settings.hints), now, guild_id))
            return await _read(tx, guild_id)


async def _read(tx: Tx, guild_id: int) -> GuildSettings:
    row = await tx.fetchone(
        "SELECT default_rules, default_shipped_card, default_server_card_id, pace_name, "
        "turn_seconds, claim_seconds, hints FROM guilds WHERE id = ?",
        (check_int(guild_id, "guild_id"),))
    if row is None:
        return GuildSettings()
    pace = (None if row["pace_name"] is None else
            Pace(str(row["pace_name"]), opt_int(row["turn_seconds"]),
                 opt_int(row["claim_seconds"])))
    return GuildSettings(
        rules=None if row["default_rules"] is None else str(row["default_rules"]),
        shipped_card=(None if row["default_shipped_card"] is None
                      else str(row["default_shipped_card"])),
        server_card_id=opt_int(row["default_server_card_id"]),
        pace=pace,
        hints=None if row["hints"] is None else bool(row["hints"]),
    )
