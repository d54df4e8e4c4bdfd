"""Bot levels as people meet them: a level read from what was typed (on Discord or the
command line), and the label it is shown with. The levels themselves, and the bot each one
builds, are `bot.bots.LEVELS`; a server's chosen level (its stand-ins and the bots that
fill empty seats at Start) is one of its settings, `DEFAULT_LEVEL` until a manager sets it."""

from __future__ import annotations

from bot.bots import DEFAULT_LEVEL, LEVELS
from bot.engine.errors import InvalidInput, echo
from bot.store import Database, GuildSettings


def read_level(text: str) -> str:
    """The level `text` names (case and spaces do not matter); `InvalidInput` naming the
    levels for anything else."""
    wanted = text.strip().lower()
    if wanted in LEVELS:
        return wanted
    raise InvalidInput(f"There is no bot level `{echo(text)}`. Choose one of: "
                       f"{', '.join(LEVELS)}.")


def level_label(level: str) -> str:
    """How a level is shown to people: `Strong`."""
    return level.capitalize()


def server_level(settings: GuildSettings) -> str:
    """The level a server's bots play at: its chosen one, else the default."""
    return settings.bot_level or DEFAULT_LEVEL


async def stored_levels(db: Database, game_id: int) -> dict[int, str]:
    """The level of each bot seat's bot as the store has it, by seat (a bot seated before
    levels existed plays at the default level): what the lobby shows and what a restart
    resumes."""
    kept = await db.seats.bot_levels(game_id)
    return {seat.seat: kept.get(seat.seat, DEFAULT_LEVEL)
            for seat in await db.seats.seats(game_id) if seat.is_bot}
