"""Settings for `jongg run`, from the environment or a `.env` file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot.engine.errors import InvalidInput
from bot.store.backend import database_target, is_postgres

TOKEN_HELP = """\
Jongg needs a Discord bot token to go online, and none was found.

1. Open https://discord.com/developers/applications and create an application.
2. Under Bot, press Reset Token and copy it.
3. Put it in a file named .env next to where you run Jongg:  DISCORD_TOKEN=your-token
   (or set the DISCORD_TOKEN environment variable). See .env.example and docs/server.md for the
   invite link with exactly the permissions Jongg needs.

Meanwhile you can play right here:  jongg play   (a full game against bots in the terminal)
"""


@dataclass(frozen=True)
class Settings:
    """What the bot process needs: the token, the database (a SQLite file or a
    `postgresql://` URL, `bot.store.backend.database_target`), an optional test guild, and
    the app's public key as written in `DISCORD_PUBLIC_KEY` (checked by `jongg run --http`,
    which needs it: `bot.discord.endpoint.parse_public_key`)."""

    token: str
    database: str
    dev_guild: int | None
    public_key: str | None = None


#: How the token is written in an HTTP header, and so often pasted into DISCORD_TOKEN.
_HEADER_PREFIX = "bot "


def load_settings(env_file: Path | None = None) -> Settings | None:
    """Read the settings; None when there is no token. A token written as in an HTTP header
    (`Bot …`) and a database that can never be used are refused here (`InvalidInput`,
    `BadTarget`), before the bot logs in to Discord."""
    load_dotenv(env_file if env_file is not None else Path.cwd() / ".env")
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        return None
    if token.lower().startswith(_HEADER_PREFIX):
        raise InvalidInput("DISCORD_TOKEN starts with `Bot `: put the token alone in .env "
                           "(DISCORD_TOKEN=your-token); Jongg adds `Bot ` itself.")
    guild = os.environ.get("JONGG_DEV_GUILD", "").strip()
    return Settings(
        token=token,
        database=database_target(),
        dev_guild=int(guild) if guild.isdigit() else None,
        public_key=os.environ.get("DISCORD_PUBLIC_KEY", "").strip() or None,
    )


def uses_database_server() -> bool:
    """Whether JONGG_DB (from the environment or `.env`, once `load_settings` has read it)
    names a database server, which several bot processes can share; a SQLite file is for
    one process."""
    return is_postgres(database_target())
