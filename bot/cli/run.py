"""`jongg run`: start the Discord bot (or explain how to get a token and play locally)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from bot.cli.config import TOKEN_HELP, load_settings, uses_database_server
from bot.discord.shards import parse_shard_plan, split_shards
from bot.discord.tuning import tune_process
from bot.engine.errors import InvalidInput


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg run`."""
    parser = subparsers.add_parser(
        "run", help="start the Discord bot (needs DISCORD_TOKEN)",
        description="Start the Discord bot. One process runs the whole bot; a bot on very "
                    "many servers runs its Discord shards in several processes (see "
                    "\"Shards and processes\" in docs/operating.md): `--shards 4 "
                    "--shard-ids 0,1` runs "
                    "shards 0 and 1 of 4 here, `--processes 2 --shards 4` runs the four shards "
                    "in two processes (with JONGG_DB=postgresql://...). `--http HOST:PORT` "
                    "runs a worker that takes the bot's interactions over HTTP (Discord's "
                    "Interactions Endpoint URL; see \"Interactions over HTTP\" in "
                    "docs/operating.md).")
    parser.add_argument("--shards", type=int, metavar="N",
                        help="how many shards the bot has in all (default: 1)")
    parser.add_argument("--shard-ids", metavar="IDS",
                        help="the shards this process runs, e.g. 0,1 (default: all of them)")
    parser.add_argument("--processes", type=int, metavar="N",
                        help="run the bot as N processes, the shards (--shards, by default "
                             "N) split evenly between them, each restarted if it crashes; "
                             "more than 1 needs JONGG_DB=postgresql://...")
    parser.add_argument("--http", metavar="HOST:PORT",
                        help="take the bot's interactions over HTTP on HOST:PORT (Discord's "
                             "Interactions Endpoint URL, behind which several such workers "
                             "may serve): needs DISCORD_PUBLIC_KEY; opens no gateway "
                             "connection (a plain `jongg run` keeps one)")
    parser.set_defaults(handler=run)


#: Why `--processes` above 1 is refused with a SQLite file.
ONE_FILE_ONE_PROCESS = (
    "several processes need a database server they can share, and JONGG_DB is a SQLite file "
    "(one process at a time). Run `jongg run` without --processes, or set "
    "JONGG_DB=postgresql://... (see \"Shards and processes\" in docs/operating.md).")


def run(args: argparse.Namespace) -> int:
    """Run the bot (the shards `--shards`/`--shard-ids` name) until stopped, or, with
    `--processes`, a supervisor of that many bot processes."""
    if args.http is not None:
        return serve_http(args)
    if args.processes is not None:
        return supervise(args)
    plan = parse_shard_plan(args.shards, args.shard_ids)
    settings = load_settings()
    if settings is None:
        print(TOKEN_HELP, file=sys.stderr)
        return 1
    from bot.discord.client import make_client

    prepare_process()
    client = make_client(settings.database, dev_guild=settings.dev_guild, watch_loop=True,
                         shard_plan=plan)
    client.run(settings.token, log_handler=None)
    return 0


def prepare_process() -> None:
    """Logging and tuning for a process that serves the bot."""
    import discord

    # Jongg uses no voice: discord.py's start-up warnings that its voice libraries (PyNaCl,
    # davey) are missing would only alarm whoever starts the bot. These flags are the ones
    # discord.py itself clears after warning once.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: "
                                                    "%(message)s")
    tune_process()


def serve_http(args: argparse.Namespace) -> int:
    """`jongg run --http HOST:PORT`: a worker that takes interactions over HTTP until it is
    stopped (SIGINT or SIGTERM), with no gateway connection.

    Every worker may take any interaction, so every worker resumes every unfinished game and
    runs every game's clocks: a clock is claimed in the store before it acts (one process
    gets it) and acts under the game's lock at the store's revision, so none fires twice."""
    if args.shards is not None or args.shard_ids is not None or args.processes is not None:
        raise InvalidInput("--http takes no --shards, --shard-ids or --processes: a worker "
                           "takes interactions from every server (shards are the gateway's). "
                           "Start as many `jongg run --http HOST:PORT` workers as you like "
                           "behind one URL, and one plain `jongg run` for the gateway.")
    from bot.discord.endpoint import parse_address, parse_public_key

    host, port = parse_address(args.http)
    settings = load_settings()
    if settings is None:
        print(TOKEN_HELP, file=sys.stderr)
        return 1
    key = parse_public_key(settings.public_key)
    from bot.discord.client import JonggClient
    from bot.discord.endpoint import run_worker

    prepare_process()
    # Named by its address: a worker restarted in its place takes its claims back at once.
    client = JonggClient(settings.database, dev_guild=settings.dev_guild, watch_loop=True,
                         sync_commands=False, owner=f"jongg http {args.http}")

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await run_worker(client, settings.token, key, host, port, stop)

    asyncio.run(main())
    return 0


def supervise(args: argparse.Namespace) -> int:
    """`jongg run --processes N`: check the options, then run the supervisor until it is
    stopped (`bot.supervisor`)."""
    if args.shard_ids is not None:
        raise InvalidInput("--processes gives each process its shards itself: leave out "
                           "--shard-ids (or start each process yourself with jongg run "
                           "--shards N --shard-ids ...).")
    count = parse_shard_plan(args.shards, None).count if args.shards is not None else None
    plans = split_shards(args.processes if count is None else count, args.processes)
    settings = load_settings()
    if len(plans) > 1 and not uses_database_server():
        raise InvalidInput(ONE_FILE_ONE_PROCESS)
    if settings is None:
        print(TOKEN_HELP, file=sys.stderr)
        return 1
    from bot.supervisor import Supervisor

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: "
                                                    "%(message)s")
    return asyncio.run(Supervisor(plans).run())
