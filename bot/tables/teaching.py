"""Teaching tables: every rack open to everyone at the table, for people learning the game
together (the teaching card is written for them), with a hint after every draw for the
players who want one.

Privacy stays a property of views: nothing here reads the game state but through the
engine's `view` of each seat, and `open_racks` is the one place a table's update is given
every seat's view, only at a table opened as a teaching table. Every other table's updates
carry the spectator view alone, as before. A teaching table is never a league game: it is
refused in a league's channel (and on a server that does not allow teaching tables), and a
league would not count one (`bot.league.record`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.game import GameState, View, view
from bot.engine.tiles import format_group, format_tiles
from bot.league.seasons import season_for_channel
from bot.store import Database
from bot.tables.notifier import Table
from bot.tables.server_config import teaching_allowed

#: What the lobby and every table post of a teaching table say.
BANNER = "Teaching table: every rack is open"


async def teaching_refusal(db: Database, guild_id: int, channel_id: int) -> str | None:
    """Why a teaching table can't be opened in this channel (None when it can): a league's
    channel plays league games, which never show a rack, and a server may not allow them."""
    if await season_for_channel(db, guild_id, channel_id) is not None:
        return ("This is a league's channel, and league games never show anyone's rack: "
                "open the teaching table in another channel.")
    if not teaching_allowed(await db.guilds.settings(guild_id)):
        return ("This server doesn't allow teaching tables (a server manager can allow "
                "them with `/mj config teaching:True`).")
    return None


def open_racks(table: Table, state: GameState) -> tuple[View, ...]:
    """Every seat's own view at a teaching table, for everyone at it; nothing at any other
    table."""
    if not table.teaching:
        return ()
    return tuple(view(state, seat) for seat in range(state.size))


def racks_text(names: Sequence[str], racks: Sequence[View]) -> str:
    """The open racks as the table reads them: the banner, then each seat's concealed tiles
    and its exposures (`East (Ann): 1B 2B … · exposed 666B`)."""
    lines = [f"**{BANNER}**"]
    for seen in racks:
        me = seen.seats[seen.seat]
        shown = ", ".join(format_group(e.tiles) for e in me.exposures)
        lines.append(f"{me.wind} ({names[seen.seat]}): {format_tiles(seen.concealed) or '—'}"
                     + (f" · exposed {shown}" if shown else ""))
    return "\n".join(lines)


def wants_hints(table: Table, seat: int) -> bool:
    """Whether the seat is given a hint after every draw: a person's seat at a teaching
    table whose holder keeps teaching hints on."""
    return (table.teaching and table.user_ids[seat] is not None
            and table.options_of(seat).teaching_hints)
