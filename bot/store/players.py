"""Players: each person's own options, kept across games and servers, and their DM channel
with the bot.

The options are JSON written by the table layer (`bot.tables.seat_options`); the store only
checks that they are JSON. A person with none kept has every default.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.store.rows import Part, check_int, check_json


class Players(Part):
    """`db.players`: per-person options and DM channels."""

    async def options(self, user_id: int) -> str | None:
        """The person's options as kept (None: never set, every default applies)."""
        found = await self.options_of((user_id,))
        return found.get(user_id)

    async def options_of(self, user_ids: Collection[int]) -> dict[int, str]:
        """The options kept for each of these people, by user id (a person with none kept is
        left out)."""
        ids = [check_int(user, "user id") for user in user_ids]
        if not ids:
            return {}
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT user_id, options FROM player_options WHERE user_id IN "
                f"({', '.join('?' * len(ids))})", tuple(ids))
        return {int(row["user_id"]): str(row["options"]) for row in rows}

    async def set_options(self, user_id: int, options: str) -> None:
        """Keep the person's options (JSON), replacing what was kept."""
        check_json(options, "player options")
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO player_options (user_id, options) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET options = excluded.options",
                (check_int(user_id, "user id"), options))

    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the person's DM channel with the bot, if a process has opened it."""
        async with self._db.read() as tx:
            row = await tx.fetchone("SELECT channel_id FROM dm_channels WHERE user_id = ?",
                                    (check_int(user_id, "user id"),))
        return None if row is None else int(row["channel_id"])

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Keep the person's DM channel (Discord gives one per person, so a second process
        that opened it at the same moment keeps the same id)."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
                (check_int(user_id, "user id"), check_int(channel_id, "channel id")))
