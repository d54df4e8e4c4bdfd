"""`jongg run`: start the Discord bot (or explain how to get a token and play locally)."""

from __future__ import annotations

import argparse
import logging
import sys

from bot.discord.config import TOKEN_HELP, load_settings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg run`."""
    parser = subparsers.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the bot until stopped."""
    settings = load_settings()
    if settings is None:
        print(TOKEN_HELP, file=sys.stderr)
        return 1
    from bot.discord.client import JonggClient

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: "
                                                    "%(message)s")
    client = JonggClient(settings.database, dev_guild=settings.dev_guild, watch_loop=True)
    client.run(settings.token, log_handler=None)
    return 0
