"""The handle a transaction or a read works through (see `Database.transaction`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite

from bot.store.errors import StoreClosed, StoreError

#: Parameters for one statement.
Params = Sequence[Any]


class Tx:
    """The handle a transaction (or a read) gets: run statements, fetch rows.

    Valid only inside its `async with` block; using it afterwards raises `StoreClosed`, so a
    handle that escapes cannot write outside a transaction.
    """

    def __init__(self, conn: aiosqlite.Connection, *, writable: bool) -> None:
        self._conn = conn
        self._writable = writable
        self._open = True

    def _check(self, write: bool) -> aiosqlite.Connection:
        if not self._open:
            raise StoreClosed("This transaction has ended; start a new one.")
        if write and not self._writable:
            raise StoreError("A read cannot write; use `Database.transaction()`.")
        return self._conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run a statement that changes rows; returns how many it changed."""
        async with self._check(write=True).execute(sql, params) as cursor:
            return cursor.rowcount

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement once per parameter row (one trip to the database's thread)."""
        if rows:
            await self._check(write=True).executemany(sql, rows)

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT; returns the new row's rowid."""
        row = await self._check(write=True).execute_insert(sql, params)
        if row is None:
            raise StoreError("The insert did not report a row id.")
        return int(row[0])

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """All rows of a query."""
        return list(await self._check(write=False).execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row of a query, or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    def close(self) -> None:
        """End the handle's life (done by the context manager that made it)."""
        self._open = False
