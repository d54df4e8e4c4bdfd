"""The handle a transaction or a read works through (see `Database.transaction`).

A `Tx` runs the topic modules' SQL on whichever database the store uses: it checks that the
handle is still open and may write, then hands the statement to the backend's `Conn`, which
knows its database's dialect (placeholders, row ids, errors). Rows come back as `Row`s, read
by column name or position the same way on both databases.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.store.errors import StoreClosed, StoreError

#: Parameters for one statement.
Params = Sequence[Any]


class Row(Protocol):
    """One result row: `row["name"]` or `row[0]`, and `keys()` (sqlite3.Row and
    asyncpg.Record both are)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...

    def keys(self) -> Any: ...


@dataclass(frozen=True)
class Reference:
    """A foreign key: these columns of a table point at table `parent`."""

    parent: str
    columns: tuple[str, ...]


@dataclass(frozen=True)
class TableShape:
    """One table as the database's catalog describes it: its columns in order, those that
    may be NULL, its primary key and its foreign keys (what copying a database needs)."""

    name: str
    columns: tuple[str, ...]
    nullable: frozenset[str]
    key: tuple[str, ...]
    references: tuple[Reference, ...]


class Conn(Protocol):
    """What a backend does for one open transaction; SQL is written as for SQLite (`?`
    placeholders), and the backend translates it for its database."""

    async def execute(self, sql: str, params: Params) -> int:
        """Run a statement; returns how many rows it changed."""

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement once per parameter row."""

    async def insert(self, sql: str, params: Params) -> int:
        """Run an INSERT into a table whose key is `id`; returns the new row's id."""

    async def fetchall(self, sql: str, params: Params) -> list[Row]:
        """All rows of a query."""

    async def reserve_ids(self, table: str, count: int) -> list[int]:
        """`count` new ids of `table`, ascending, for rows the caller inserts with them in
        this transaction."""

    async def lock_games(self, game_ids: Sequence[int]) -> None:
        """Hold the games' rows until the transaction ends, so that another connection's
        writer to the same games waits for this one's commit."""

    async def tables(self) -> list[TableShape]:
        """Every table of the schema (the database's own bookkeeping tables left out), by
        name."""

    async def id_counter(self, table: str) -> int | None:
        """The largest id `table`'s own numbering has handed out (0: none yet), or None when
        the table numbers no ids itself (its ids come from elsewhere, or the database just
        takes the largest plus one)."""

    async def set_id_counter(self, table: str, last: int) -> None:
        """Make `table`'s numbering hand out ids after `last` (nothing to do for a table
        that numbers no ids itself)."""


class Tx:
    """The handle a transaction (or a read) gets: run statements, fetch rows.

    Valid only inside its `async with` block; using it afterwards raises `StoreClosed`, so a
    handle that escapes cannot write outside a transaction.
    """

    def __init__(self, conn: Conn, *, writable: bool) -> None:
        self._conn = conn
        self._writable = writable
        self._open = True

    def _check(self, write: bool) -> Conn:
        if not self._open:
            raise StoreClosed("This transaction has ended; start a new one.")
        if write and not self._writable:
            raise StoreError("A read cannot write; use `Database.transaction()`.")
        return self._conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run a statement that changes rows; returns how many it changed."""
        return await self._check(write=True).execute(sql, params)

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement once per parameter row (one trip to the database)."""
        if rows:
            await self._check(write=True).execute_many(sql, rows)

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT; returns the new row's id."""
        return await self._check(write=True).insert(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of a query."""
        return await self._check(write=False).fetchall(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def reserve_ids(self, table: str, count: int) -> list[int]:
        """`count` new ids of `table` (what its own numbering would give), ascending, so a
        batch of rows can be inserted with their ids in one statement; the caller inserts
        them in this transaction."""
        return await self._check(write=True).reserve_ids(table, count)

    async def lock_games(self, game_ids: Sequence[int]) -> None:
        """Make other writers to these games wait for this transaction (see `Conn`)."""
        if game_ids:
            await self._check(write=True).lock_games(sorted(set(game_ids)))

    async def tables(self) -> list[TableShape]:
        """Every table of the schema, from the database's catalog (see `Conn.tables`)."""
        return await self._check(write=False).tables()

    async def id_counter(self, table: str) -> int | None:
        """The largest id `table`'s numbering has handed out (see `Conn.id_counter`)."""
        return await self._check(write=False).id_counter(table)

    async def set_id_counter(self, table: str, last: int) -> None:
        """Make `table`'s numbering continue after `last` (see `Conn.set_id_counter`)."""
        await self._check(write=True).set_id_counter(table, last)

    def close(self) -> None:
        """End the handle's life (done by the context manager that made it)."""
        self._open = False
