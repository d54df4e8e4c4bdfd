"""Guilds: a server's defaults for new games, and the audit log of every change to them.

Settings are columns rather than a JSON blob, so the database checks them and a later
migration adds a setting with `ALTER TABLE guilds ADD COLUMN`. A server with no row yet has
every setting at None ("use the bot's default"). Every change names who made it and is kept
in `guild_audit` with the settings it changed, before and after, in the same transaction.
"""

from __future__ import annotations

import json

from bot.store.cards import fetch_card
from bot.store.models import GuildAuditEntry, GuildSettings, Pace
from bot.store.rows import (
    Part,
    check_int,
    check_name,
    check_opt_int,
    ensure_guild,
    opt_float,
    opt_int,
)
from bot.store.tx import Row, Tx


class Guilds(Part):
    """`db.guilds`: per-server settings and their audit log."""

    async def settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (all None for a server never configured)."""
        async with self._db.read() as tx:
            return await _read(tx, guild_id)

    async def set_settings(self, guild_id: int, settings: GuildSettings, *,
                           by_user: int) -> GuildSettings:
        """Replace the server's settings, as `by_user` asked; the settings that change are
        kept in the audit log (nothing is logged when nothing changes). A default server
        card must be one of this server's cards (else `CardNotFound`)."""
        check_int(by_user, "by_user")
        pace = settings.pace
        if pace is not None:
            check_name(pace.name, "pace name")
        for text, what in ((settings.rules, "rules"), (settings.shipped_card, "card name"),
                           (settings.bot_level, "bot level")):
            if text is not None:
                check_name(text, what)
        now = self._db.now()
        async with self._db.transaction() as tx:
            await ensure_guild(tx, guild_id, now)
            if settings.server_card_id is not None:
                await fetch_card(tx, guild_id, settings.server_card_id)
            before = _as_json(await _read(tx, guild_id))
            await tx.execute(
                """UPDATE guilds SET default_rules = ?, default_shipped_card = ?,
                       default_server_card_id = ?, pace_name = ?, turn_seconds = ?,
                       claim_seconds = ?, hints = ?, bot_level = ?, auto_delay = ?,
                       teaching = ?, league_channel_id = ?, updated_at = ?
                   WHERE id = ?""",
                (settings.rules, settings.shipped_card, settings.server_card_id,
                 None if pace is None else pace.name,
                 None if pace is None else pace.turn_seconds,
                 None if pace is None else pace.claim_seconds,
                 None if settings.hints is None else int(settings.hints),
                 settings.bot_level, settings.auto_delay,
                 None if settings.teaching is None else int(settings.teaching),
                 check_opt_int(settings.league_channel_id, "league_channel_id"), now,
                 guild_id))
            saved = await _read(tx, guild_id)
            after = _as_json(saved)
            changed = [name for name in after if after[name] != before[name]]
            if changed:
                await tx.execute(
                    "INSERT INTO guild_audit (guild_id, actor_user_id, before, after, at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (guild_id, by_user, json.dumps({name: before[name] for name in changed}),
                     json.dumps({name: after[name] for name in changed}), now))
            return saved

    async def audit(self, guild_id: int, *, limit: int = 20) -> list[GuildAuditEntry]:
        """The server's settings changes, newest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT id, guild_id, actor_user_id, before, after, at FROM guild_audit "
                "WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
                (check_int(guild_id, "guild_id"), check_int(limit, "limit", minimum=1)))
        return [_audit_from_row(row) for row in rows]

    async def latest_changes(self, guild_id: int) -> dict[str, GuildAuditEntry]:
        """For each setting the server ever changed (the audit log's keys, as
        `_as_json`), the newest audit entry that changed it: who set it, and when."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT j.key AS setting, a.id, a.guild_id, a.actor_user_id, a.before, "
                "a.after, a.at FROM guild_audit a, json_each(a.after) j "
                "WHERE a.guild_id = ? AND a.id = (SELECT max(b.id) FROM guild_audit b, "
                "json_each(b.after) k WHERE b.guild_id = a.guild_id AND k.key = j.key)",
                (check_int(guild_id, "guild_id"),))
        return {str(row["setting"]): _audit_from_row(row) for row in rows}


def _as_json(settings: GuildSettings) -> dict[str, object]:
    """The settings as the audit log writes them, one key per setting (what
    `Guilds.latest_changes` is keyed by)."""
    pace = settings.pace
    return {
        "rules": settings.rules,
        "shipped_card": settings.shipped_card,
        "server_card_id": settings.server_card_id,
        "pace": None if pace is None else {"name": pace.name, "turn_seconds": pace.turn_seconds,
                                           "claim_seconds": pace.claim_seconds},
        "hints": settings.hints,
        "bot_level": settings.bot_level,
        "auto_delay": settings.auto_delay,
        "teaching": settings.teaching,
        "league_channel_id": settings.league_channel_id,
    }


def _audit_from_row(row: Row) -> GuildAuditEntry:
    return GuildAuditEntry(id=int(row["id"]), guild_id=int(row["guild_id"]),
                           actor_user_id=int(row["actor_user_id"]), before=str(row["before"]),
                           after=str(row["after"]), at=float(row["at"]))


async def _read(tx: Tx, guild_id: int) -> GuildSettings:
    row = await tx.fetchone(
        "SELECT default_rules, default_shipped_card, default_server_card_id, pace_name, "
        "turn_seconds, claim_seconds, hints, bot_level, auto_delay, teaching, "
        "league_channel_id FROM guilds WHERE id = ?",
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
        bot_level=None if row["bot_level"] is None else str(row["bot_level"]),
        auto_delay=opt_float(row["auto_delay"]),
        teaching=None if row["teaching"] is None else bool(row["teaching"]),
        league_channel_id=opt_int(row["league_channel_id"]),
    )
