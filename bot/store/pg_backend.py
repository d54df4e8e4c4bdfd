"""The PostgreSQL backend: a pool of asyncpg connections, for several bot processes.

A transaction holds one pooled connection for its length. Within one process, write
transactions take turns (an `asyncio.Lock`), as they do on SQLite, so the store behaves in
one process exactly as it does there; reads run side by side, each at REPEATABLE READ, READ
ONLY, so every query of a read sees one committed snapshot. Between processes, writes run at
READ COMMITTED and the store's guarantees hold by row locks and conditional updates: an
append locks its games' rows (`lock_games`) before it reads their log lengths, so another
process's append to the same game waits for this commit and then sees it; a clock or an
outbox entry is claimed by an UPDATE whose condition PostgreSQL checks again on the row it
waited for, so only one process gets it; unique keys refuse the rest.

The topic modules' SQL is SQLite's: `?` placeholders become `$1, $2, …` here, and the few
SQLite names that SQL uses (`ifnull`, two-argument `min`/`max`, `json_valid`, `json_each`
of text, the `nocase` collation) are defined by the first PostgreSQL migration. Rows read
the same as SQLite's: `sum()` of integers is an int (PostgreSQL's NUMERIC is decoded to an
int when it has no fraction, else a float), JSON stays the text that was written.

Migrations take an advisory lock (`pg_advisory_xact_lock`) inside each migration's
transaction, so when several processes start at once one migrates and the others wait and
then find the work done. A game's lock is a session advisory lock on a connection of a small
pool of its own, so moves that wait for their games never starve the pool transactions use.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from functools import lru_cache

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.backend import Backend, Found, GameLocks
from bot.store.errors import (
    ConstraintViolation,
    DatabaseUnavailable,
    MigrationFailed,
    NotAJonggDatabase,
    SchemaTooNew,
    StoreClosed,
)
from bot.store.migrate import (
    APPLICATION_ID,
    RECORD_TABLE,
    Migration,
    check_recorded,
    check_sequence,
)
from bot.store.tx import Conn, Params, Reference, Row, TableShape

#: The advisory lock key (two int4s) that migrations hold: "Jngg", 0.
MIGRATION_LOCK = (APPLICATION_ID, 0)
#: Connections for transactions, and for holding games' locks.
POOL_SIZE = 10
LOCK_POOL_SIZE = 20

#: What asyncpg raises when it can't connect (an unreachable server, a refused login, a
#: database that does not exist).
_CONNECT_ERRORS = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError)

#: A connection of ours: a pool's (what transactions get) or a plain one.
PgConnection = asyncpg.Connection | PoolConnectionProxy

#: What a statement or a pooled connection raises when the server is out of reach: the
#: network's errors, the connection classes of PostgreSQL's own (08…), and a server shutting
#: down, crashed, starting up or out of connections.
_LOST_ERRORS = (OSError, asyncpg.PostgresConnectionError, asyncpg.AdminShutdownError,
                asyncpg.CrashShutdownError, asyncpg.CannotConnectNowError,
                asyncpg.TooManyConnectionsError)

# A `?` outside quotes and comments (the topic modules' placeholders).
_TOKENS = re.compile(r"""('(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\?)""")


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """SQLite's `?` placeholders as PostgreSQL's `$1, $2, …` (quoted text and comments
    are left as they are)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(0) != "?":
            return match.group(0)
        count += 1
        return f"${count}"

    return _TOKENS.sub(number, sql)


def _numeric(text: str) -> int | float:
    """A NUMERIC as SQLite would have it: `sum()` of integers is an int, `avg()` a float."""
    return float(text) if any(c in text for c in ".eEN") else int(text)


def _rowcount(status: str) -> int:
    """How many rows a command changed, from its status ("UPDATE 3", "INSERT 0 1")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


@contextmanager
def _mapped() -> Iterator[None]:
    """Turns PostgreSQL's constraint errors into the store's `ConstraintViolation`."""
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as error:
        raise ConstraintViolation(str(error)) from error


def connection_lost(error: BaseException, conn: PgConnection | None) -> bool:
    """Whether `error` says the server can't be reached (not that a statement was wrong):
    one of `_LOST_ERRORS`; the client's protocol out of step with the server ("cannot
    switch to state …"), which a connection cut half way through an operation leaves
    behind (the store never lets two tasks share a connection, the other way to cause
    it); or the client library's refusal to use a connection `conn` that has closed."""
    if isinstance(error, _LOST_ERRORS):
        return True
    if isinstance(error, asyncpg.InternalClientError):
        return not isinstance(error, asyncpg.exceptions.OutdatedSchemaCacheError)
    return isinstance(error, asyncpg.InterfaceError) and conn is not None and _closed(conn)


def _closed(conn: PgConnection) -> bool:
    """Whether a connection held by the caller has closed. A pooled one the pool took
    back while it was held (the pool does so the moment it closes) counts as closed."""
    try:
        return conn.is_closed()
    except asyncpg.InterfaceError:  # "connection has been released back to the pool"
        return True


class PgConn:
    """`Conn` for one pooled asyncpg connection inside a transaction."""

    def __init__(self, conn: PgConnection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params) -> int:
        with _mapped():
            return _rowcount(await self._conn.execute(numbered(sql), *params))

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        with _mapped():
            await self._conn.executemany(numbered(sql), rows)

    async def insert(self, sql: str, params: Params) -> int:
        with _mapped():
            return int(await self._conn.fetchval(numbered(sql) + " RETURNING id", *params))

    async def fetchall(self, sql: str, params: Params) -> list[Row]:
        with _mapped():
            return list(await self._conn.fetch(numbered(sql), *params))

    async def reserve_ids(self, table: str, count: int) -> list[int]:
        rows = await self._conn.fetch(
            "SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id "
            "FROM generate_series(1, $2)", table, count)
        return sorted(int(row["id"]) for row in rows)

    async def lock_games(self, game_ids: Sequence[int]) -> None:
        # In id order, so two writers of the same games never wait for each other in a ring.
        await self._conn.execute(
            "SELECT id FROM games WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE",
            list(game_ids))

    async def tables(self) -> list[TableShape]:
        columns = await self._conn.fetch(
            "SELECT table_name, column_name, is_nullable = 'YES' AS nullable "
            "FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name IN (SELECT tablename FROM pg_tables "
            "WHERE schemaname = current_schema()) ORDER BY table_name, ordinal_position")
        keys = await self._conn.fetch(
            "SELECT c.conrelid::regclass::text AS child, c.contype::text AS kind, "
            "c.confrelid::regclass::text AS parent, "
            "array_agg(a.attname::text ORDER BY k.ord) AS columns "
            "FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY "
            "AS k(attnum, ord) JOIN pg_attribute a ON a.attrelid = c.conrelid "
            "AND a.attnum = k.attnum WHERE c.contype IN ('p', 'f') "
            "AND c.connamespace = current_schema()::regnamespace "
            "GROUP BY c.oid, c.conrelid, c.contype, c.confrelid ORDER BY c.conname")
        shapes: dict[str, tuple[list[str], set[str]]] = {}
        for row in columns:
            names, nullable = shapes.setdefault(row["table_name"], ([], set()))
            names.append(row["column_name"])
            if row["nullable"]:
                nullable.add(row["column_name"])
        primary: dict[str, tuple[str, ...]] = {}
        references: dict[str, list[Reference]] = {}
        for row in keys:
            if row["kind"] == "p":
                primary[row["child"]] = tuple(row["columns"])
            else:
                references.setdefault(row["child"], []).append(
                    Reference(row["parent"], tuple(row["columns"])))
        return [TableShape(name, tuple(names), frozenset(nullable), primary.get(name, ()),
                           tuple(references.get(name, ())))
                for name, (names, nullable) in sorted(shapes.items())]

    async def id_counter(self, table: str) -> int | None:
        row = await self._conn.fetchrow(
            "SELECT s.seq IS NOT NULL AS numbered, "
            "coalesce(pg_sequence_last_value(s.seq::regclass), 0) AS last "
            "FROM (SELECT pg_get_serial_sequence($1, 'id') AS seq) AS s", table)
        return int(row["last"]) if row is not None and row["numbered"] else None

    async def set_id_counter(self, table: str, last: int) -> None:
        # setval(…, 1, false) is a sequence that has handed out nothing yet.
        await self._conn.execute(
            "SELECT setval(s.seq, greatest($2::bigint, 1), $2::bigint > 0) "
            "FROM (SELECT pg_get_serial_sequence($1, 'id') AS seq) AS s "
            "WHERE s.seq IS NOT NULL", table, last)


async def _setup(conn: PgConnection) -> None:
    await conn.set_type_codec("numeric", encoder=str, decoder=_numeric,
                              schema="pg_catalog", format="text")


class PostgresBackend(Backend):
    """A PostgreSQL server (see the module's docstring)."""

    name = "postgresql"

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self._pool: asyncpg.Pool | None = None
        self._lock_pool: asyncpg.Pool | None = None
        self._games = GameLocks()
        self._writer = asyncio.Lock()

    def _unavailable(self, error: Exception) -> DatabaseUnavailable:
        return DatabaseUnavailable(
            f"Can't connect to the PostgreSQL database {self.shown}: {error}. Check "
            "that the server runs and that JONGG_DB names a database you may use.")

    def _lost(self, error: Exception) -> DatabaseUnavailable:
        return DatabaseUnavailable(
            f"The PostgreSQL database {self.shown} can't be reached just now: "
            f"{type(error).__name__}: {error}")

    @asynccontextmanager
    async def _reaching(self, conn: PgConnection | None) -> AsyncIterator[None]:
        """The block's connection-level failures (`connection_lost`) as the store's
        `DatabaseUnavailable`. `conn`: the connection the block uses (None: it gets one),
        held for the whole block, so a client-side error can be judged by whether it
        closed (a pooled connection can't be asked once it is back in the pool)."""
        try:
            yield
        except Exception as error:
            if connection_lost(error, conn):
                if conn is not None and not _closed(conn):
                    conn.terminate()  # out of step with the server: the pool replaces it
                raise self._lost(error) from error
            raise

    async def connect(self, migrations: Sequence[Migration]) -> int:
        # No connection is kept open while idle (min_size=0): asyncpg would otherwise keep
        # reconnecting in the background while the server is away, logging each failure.
        pool = await asyncpg.create_pool(self.target, min_size=0, max_size=POOL_SIZE,
                                         init=_setup)
        try:
            try:
                conn = await pool.acquire()
            except _CONNECT_ERRORS as error:
                raise self._unavailable(error) from error
            try:
                version = await _migrate(conn, migrations, self.shown)
            finally:
                await pool.release(conn)
            self._lock_pool = await asyncpg.create_pool(self.target, min_size=0,
                                                        max_size=LOCK_POOL_SIZE)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        return version

    async def look(self) -> Found:
        """The highest migration recorded (0: none), on a connection of its own that
        changes nothing; the identity is the server's start time and the database's oid."""
        try:
            conn = await asyncpg.connect(self.target)
        except _CONNECT_ERRORS as error:
            raise self._unavailable(error) from error
        try:
            identity = await conn.fetchval(
                "SELECT 'postgresql:' || pg_postmaster_start_time() || ':' || oid "
                "FROM pg_database WHERE datname = current_database()")
            version = 0
            if await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", RECORD_TABLE):
                version = int(await conn.fetchval(
                    f"SELECT coalesce(max(version), 0) FROM {RECORD_TABLE}"))
        finally:
            await conn.close()
        return Found(version, str(identity))

    async def close(self) -> None:
        pools = (self._pool, self._lock_pool)
        self._pool = self._lock_pool = None
        for pool in pools:
            if pool is not None:
                await pool.close()

    @property
    def is_open(self) -> bool:
        return self._pool is not None

    @asynccontextmanager
    async def _session(self, writable: bool) -> AsyncIterator[Conn]:
        pool = self._pool
        if pool is None:
            raise StoreClosed(f"The database {self.shown} is closed.")
        async with self._reaching(None), pool.acquire() as conn, self._reaching(conn):
            transaction = conn.transaction(
                isolation="read_committed" if writable else "repeatable_read",
                readonly=not writable)
            await transaction.start()
            try:
                yield PgConn(conn)
            except BaseException:
                # If this is cancelled too, the pool rolls back as it takes the connection.
                await transaction.rollback()
                raise
            with _mapped():
                await transaction.commit()

    @asynccontextmanager
    async def _write_session(self) -> AsyncIterator[Conn]:
        async with self._writer, self._session(writable=True) as conn:
            yield conn

    def session(self, *, writable: bool) -> AbstractAsyncContextManager[Conn]:
        return self._write_session() if writable else self._session(writable=False)

    @asynccontextmanager
    async def _hold(self, game_id: int) -> AsyncIterator[None]:
        async with self._games.hold(game_id):  # one waiter per game in this process
            pool = self._lock_pool
            if pool is None:
                raise StoreClosed(f"The database {self.shown} is closed.")
            async with self._reaching(None):
                conn = await pool.acquire()
            try:
                async with self._reaching(conn):
                    await conn.execute("SELECT pg_advisory_lock($1::bigint)", game_id)
                try:
                    yield
                finally:
                    # If this is cancelled, the pool's reset unlocks all as it takes it back.
                    try:
                        await conn.execute("SELECT pg_advisory_unlock($1::bigint)", game_id)
                    except Exception as error:
                        if not connection_lost(error, conn):
                            raise
                        # The lock went with the connection; what the block did stands.
            finally:
                await pool.release(conn)

    async def settle(self) -> None:
        """VACUUM ANALYZE, what autovacuum does in time: fresh statistics, and the
        visibility map without which a covering index (standings) still reads the table."""
        pool = self._pool
        if pool is None:
            raise StoreClosed(f"The database {self.shown} is closed.")
        async with pool.acquire() as conn:
            await conn.execute("VACUUM ANALYZE")  # (VACUUM runs outside any transaction)

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """An advisory lock on the server: held against every process."""
        return self._hold(game_id)


async def _migrate(conn: PgConnection, migrations: Sequence[Migration],
                   shown: str) -> int:
    """Bring the database up to the last of `migrations`, one transaction each under the
    migration lock; returns its schema version (the highest version recorded)."""
    ordered = check_sequence(migrations)
    latest = ordered[-1].version if ordered else 0
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *MIGRATION_LOCK)
        exists = await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", RECORD_TABLE)
        if not exists:
            others = await conn.fetchval(
                "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
            if others:
                raise NotAJonggDatabase(
                    f"The PostgreSQL database {shown} holds tables of some other program. "
                    "Give Jongg a database of its own (createdb jongg).")
            await conn.execute(
                f"CREATE TABLE {RECORD_TABLE} (version BIGINT PRIMARY KEY, name TEXT NOT NULL, "
                "checksum TEXT, applied_at DOUBLE PRECISION NOT NULL)")
        recorded = await conn.fetch(f"SELECT version, name, checksum FROM {RECORD_TABLE}")
    current = max((int(row["version"]) for row in recorded), default=0)
    if current > latest:
        raise SchemaTooNew(shown, current, latest)
    check_recorded([(int(r["version"]), r["name"], r["checksum"]) for r in recorded],
                   ordered, shown)
    for migration in ordered:
        if migration.version > current:
            await _apply_one(conn, migration)
    return int(await conn.fetchval(f"SELECT coalesce(max(version), 0) FROM {RECORD_TABLE}"))


async def _apply_one(conn: PgConnection, migration: Migration) -> None:
    """Apply one migration in its own transaction, or leave the database as it was."""
    try:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *MIGRATION_LOCK)
            done = await conn.fetchval(
                f"SELECT count(*) FROM {RECORD_TABLE} WHERE version >= $1", migration.version)
            if done:  # another process got there first
                return
            await conn.execute(migration.script("postgresql"))
            await conn.execute(
                f"INSERT INTO {RECORD_TABLE} (version, name, checksum, applied_at) "
                "VALUES ($1, $2, $3, $4)",
                migration.version, migration.name, migration.checksum, time.time())
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise MigrationFailed(migration.version, migration.name, str(error)) from error
