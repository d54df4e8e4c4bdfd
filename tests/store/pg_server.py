"""The store tests' throw-away PostgreSQL server (`bot.store.throwaway`), with what a run
says when it cannot start one.

Each test gets a database of its own, copied from a template migrated once per run, so a
test costs a `CREATE DATABASE` instead of the whole schema.
"""

from __future__ import annotations

from bot.store.throwaway import INSTALL, NOT_FOUND, find_binaries
from bot.store.throwaway import ThrowawayServer as PgServer

__all__ = ["MISSING", "TEMPLATE", "PgServer", "find_binaries"]

#: What a run says when the PostgreSQL cases cannot run.
MISSING = (f"{NOT_FOUND}, so the store tests ran on SQLite only. Install them to run them "
           f"on PostgreSQL too ({INSTALL}).")

#: The migrated database every test's database copies.
TEMPLATE = "jongg_template"
