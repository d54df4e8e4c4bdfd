"""`jongg db copy SOURCE TARGET`: copy a Jongg database into a new one (the copying itself,
its checks and what it leaves out are `bot.store.copy`'s)."""

from __future__ import annotations

import argparse
import asyncio
import json

from bot.progress import Progress


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg db ...`."""
    db = subparsers.add_parser("db", help="copy the bot's database (SQLite or PostgreSQL)")
    actions = db.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    copy = actions.add_parser(
        "copy", help="copy a whole Jongg database into a new, empty one",
        description="Copy every game, league and setting of the Jongg database SOURCE into "
                    "TARGET, ids and all, in one transaction. Each is an SQLite file or a "
                    "postgresql://USER:PASSWORD@HOST:PORT/DATABASE URL, so an SQLite file "
                    "moves to PostgreSQL (and back). Stop the bot first. TARGET is "
                    "migrated and must hold no data; SOURCE must be at this Jongg's schema "
                    "(run the bot on it once to upgrade it). Progress goes to stderr, the "
                    "rows copied per table to stdout.")
    copy.add_argument("source", metavar="SOURCE", help="the database to copy")
    copy.add_argument("target", metavar="TARGET", help="the new database, empty")
    copy.add_argument("--json", action="store_true", help="print the summary as JSON")
    copy.set_defaults(handler=run_copy)


def run_copy(args: argparse.Namespace) -> int:
    """Copy, showing each table's progress, then print the summary."""
    from bot.store.copy import copy_database

    summary = asyncio.run(copy_database(
        args.source, args.target, progress=lambda table, rows: Progress(f"copying {table}", rows)))
    print(json.dumps(summary.as_json(), indent=2) if args.json else summary.as_text())
    return 0
