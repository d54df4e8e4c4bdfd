"""Copying a whole Jongg database into a new one (`jongg db copy SOURCE TARGET`): an SQLite
file into PostgreSQL when the bot grows past one process, back again, or file to file.

What a copy is:

* **Checked first.** The source must exist and be at exactly this version's schema (an older
  one is upgraded by running the bot on it once, a newer one needs a newer Jongg), and
  source and target must be two databases (compared by what they are, not by how they are
  named). The target is then migrated, as the bot would on start, and must hold no data: a
  copy never mixes two databases. Every refusal is a `CopyRefused` and writes no row.
* **One transaction.** The source is read in one snapshot and the target written in one
  transaction, so the target ends with the whole copy or, on any failure, with nothing. (Stop
  the bot first: moves made after the snapshot are not in the copy.)
* **Exact.** Every table of the schema, every column and every id (games, seats, leagues,
  seasons, actions, audit rows, outbox entries…) as the source has them, parents before the
  rows that point at them. The one loop of foreign keys (a server's default card is one of
  its own cards) is closed after both tables are written. Each table's id numbering then
  continues after the source's: past the largest id, and past any id the source handed out
  and deleted since (game and outbox ids are carried by buttons and message nonces, so they
  are never handed out twice).
* **Without claims.** `outbox_claims` and the clock claim columns name the processes that
  used the old database and how long they hold a game's outbox or a clock. Those processes
  never work on the copy, so their claims would only make the copy's first processes wait
  for leases nobody renews; the copy starts with every clock and outbox unclaimed. The
  request budgets (`request_budgets`) are those processes' Discord requests: left out too.

The tables the migrations fill themselves (game statuses, clock kinds and the like) are
already in the migrated target; their rows are copied only where the target lacks them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.backend import (
    Found,
    check_file_target,
    check_target,
    is_postgres,
    open_backend,
    shown_target,
)
from bot.store.database import Database
from bot.store.errors import (
    ConstraintViolation,
    CopyRefused,
    MigrationChanged,
    NotAJonggDatabase,
    SchemaTooNew,
    StoreError,
)
from bot.store.migrate import RECORD_TABLE, Migration, shipped_migrations
from bot.store.tx import TableShape, Tx

#: Tables that are not copied: they belong to the old database's processes (see above).
TRANSIENT_TABLES = frozenset({"outbox_claims", "request_budgets"})
#: Columns written as NULL in the copy, for the same reason.
TRANSIENT_COLUMNS = {"clocks": frozenset({"claimed_by", "claimed_until"})}
#: Columns the target's triggers count up while the rows of other tables go in (a game's
#: revisions): written again at the end with the source's values, so the
#: copy holds the same rows.
COUNTED_COLUMNS = {"games": frozenset({"revision", "setup_revision"})}
#: Rows read and written at a time (progress is reported after each batch).
BATCH_ROWS = 1000

#: Reports one table's progress: called with the rows copied so far.
TableProgress = Callable[[int], object]
#: Makes a table's progress reporter from its name and row count.
ProgressFactory = Callable[[str, int], TableProgress]

_INSERTS = re.compile(r"\bINSERT\s+INTO\s+(\w+)", re.IGNORECASE)


@dataclass(frozen=True)
class CopySummary:
    """What a copy did: the two databases (as messages show them) and the rows copied per
    table, by name (the tables the migrations fill are left out: they come with the
    schema)."""

    source: str
    target: str
    tables: tuple[tuple[str, int], ...]

    @property
    def rows(self) -> int:
        """Rows copied in all."""
        return sum(rows for _, rows in self.tables)

    def as_text(self) -> str:
        """The summary for people: a line, then rows per table."""
        width = max((len(name) for name, _ in self.tables), default=0)
        lines = [f"Copied {self.rows:,} rows in {len(self.tables)} tables from {self.source} "
                 f"to {self.target}:"]
        lines += [f"  {name:<{width}}  {rows:>9,}" for name, rows in self.tables]
        lines.append(f"Not copied: {', '.join(sorted(TRANSIENT_TABLES))} and clock claims "
                     "(they belong to the processes of the old database).")
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        """The summary for machines."""
        return {"source": self.source, "target": self.target, "rows": self.rows,
                "tables": dict(self.tables), "not_copied": sorted(TRANSIENT_TABLES)}


def seeded_tables(migrations: Sequence[Migration]) -> frozenset[str]:
    """The tables the migrations fill themselves (lookup tables such as game_statuses): a
    migrated target already holds their rows, so they are not the target's data."""
    return frozenset(name.lower() for m in migrations
                     for script in (m.script("sqlite"), m.script("postgresql"))
                     for name in _INSERTS.findall(script))


def copy_order(shapes: Sequence[TableShape]) -> tuple[list[TableShape], dict[str, frozenset[str]]]:
    """The tables in an order where every table comes after the tables it points at, and
    the columns to write only once every table is written (keyed by table).

    Where foreign keys make a loop, one reference of the loop whose columns may all be NULL
    is written afterwards (the rows go in with NULL there first); a loop with no such
    reference cannot be copied in one pass and is a bug in the schema."""
    names = {shape.name for shape in shapes}
    waiting = {shape.name: {ref.parent for ref in shape.references
                            if ref.parent in names and ref.parent != shape.name}
               for shape in shapes}
    by_name = {shape.name: shape for shape in shapes}
    order: list[TableShape] = []
    later: dict[str, set[str]] = {}
    while waiting:
        ready = sorted(name for name, parents in waiting.items() if not parents)
        if not ready:
            name, columns, parent = _loop_breaker(by_name, waiting)
            later.setdefault(name, set()).update(columns)
            waiting[name].discard(parent)
            continue
        for name in ready:
            order.append(by_name[name])
            del waiting[name]
        for parents in waiting.values():
            parents.difference_update(ready)
    return order, {name: frozenset(columns) for name, columns in later.items()}


def _loop_breaker(by_name: dict[str, TableShape],
                  waiting: dict[str, set[str]]) -> tuple[str, tuple[str, ...], str]:
    """A reference among the waiting tables that may be NULL: (table, columns, parent)."""
    for name in sorted(waiting):
        shape = by_name[name]
        for ref in shape.references:
            if ref.parent in waiting[name] and set(ref.columns) <= shape.nullable:
                return name, ref.columns, ref.parent
    raise StoreError(f"The foreign keys of tables {', '.join(sorted(waiting))} make a loop "
                     "with no column that may be NULL, so they can't be copied in order.")


async def copy_database(source: str, target: str, *,
                        progress: ProgressFactory | None = None) -> CopySummary:
    """Copy the Jongg database at `source` into the one at `target` (file paths or
    `postgresql://` URLs; see the module's docstring). `progress`, if given, is asked for a
    reporter for each table with rows to copy. Raises `CopyRefused` when the copy can't be made;
    nothing is written then, except the target's migration."""
    migrations = shipped_migrations()
    await _check_pair(source, target, migrations[-1].version)
    try:
        async with Database(source) as reading, Database(target) as writing:
            return await _copy(reading, writing, migrations, progress)
    except (SchemaTooNew, NotAJonggDatabase, MigrationChanged) as error:
        raise CopyRefused(error.message) from error


async def _check_pair(source: str, target: str, latest: int) -> None:
    """The checks made before either database is opened for use (nothing is written)."""
    for given, named in ((source, "The source"), (target, "The target")):
        check_target(given, named)
        if not is_postgres(given):
            check_file_target(given, named)  # a folder, a device: said as such
    shown = shown_target(source)
    found = await _look(source)
    if found is None:
        raise CopyRefused(f"There is no database at {shown}: check the source's path.")
    if found.version == 0:
        raise CopyRefused(f"The source {shown} holds no Jongg database: nothing to copy.")
    if found.version < latest:
        raise CopyRefused(
            f"The source {shown} is at schema version {found.version}, older than this "
            f"Jongg's {latest}. Run the bot on it once (jongg run, with JONGG_DB set to it) "
            "so it is upgraded, then copy it.")
    if found.version > latest:
        raise CopyRefused(
            f"The source {shown} is at schema version {found.version}, newer than this "
            f"Jongg's {latest}. Upgrade Jongg, then copy it.")
    other = await _look(target)
    if other is not None and other.identity == found.identity:
        raise CopyRefused(f"The source and the target are the same database ({shown}). "
                          "Copy into a new, empty one.")


async def _look(target: str) -> Found | None:
    """What is at `target` (see `Backend.look`), a file of another program refused."""
    try:
        return await open_backend(target).look()
    except NotAJonggDatabase as error:
        raise CopyRefused(error.message) from error


async def _copy(reading: Database, writing: Database, migrations: Sequence[Migration],
                progress: ProgressFactory | None) -> CopySummary:
    """The copy itself, once both databases are open: one snapshot of the source, one
    transaction on the target (see the module's docstring)."""
    seeded = seeded_tables(migrations)
    async with reading.read() as source, writing.transaction() as target:
        shapes = [s for s in await target.tables() if s.name != RECORD_TABLE]
        theirs = {s.name: s.columns for s in await source.tables() if s.name != RECORD_TABLE}
        ours = {s.name: s.columns for s in shapes}
        if {n: set(c) for n, c in theirs.items()} != {n: set(c) for n, c in ours.items()}:
            raise CopyRefused(f"The tables of {shown_target(reading.path)} are not the ones "
                              "this Jongg's schema has, though its version is this one's: "
                              "it was changed by hand. Nothing was copied.")
        await _refuse_data(target, shown_target(writing.path),
                           [s for s in shapes if s.name not in seeded])
        order, later = copy_order([s for s in shapes if s.name not in TRANSIENT_TABLES])
        copied = []
        closing: list[tuple[TableShape, frozenset[str], list[tuple[Any, ...]]]] = []
        for shape in order:
            held = later.get(shape.name, frozenset())
            again = held | COUNTED_COLUMNS.get(shape.name, frozenset())
            rows, last_id, deferred = await _copy_table(
                source, target, shape, seeded=shape.name in seeded, later=again,
                blank=TRANSIENT_COLUMNS.get(shape.name, frozenset()) | held,
                progress=progress)
            if shape.name not in seeded:
                copied.append((shape.name, rows))
            if deferred:
                closing.append((shape, again, deferred))
            if shape.key == ("id",):
                counter = await source.id_counter(shape.name)
                await target.set_id_counter(shape.name, max(counter or 0, last_id))
        for shape, again, deferred in closing:
            await _write_later(target, shape, again, deferred)
    return CopySummary(shown_target(reading.path), shown_target(writing.path),
                       tuple(sorted(copied)))


async def _refuse_data(target: Tx, shown: str, shapes: Sequence[TableShape]) -> None:
    """Refuse a target that already holds rows in tables the migrations do not fill."""
    full = [s.name for s in shapes
            if await target.fetchone(f"SELECT 1 FROM {_name(s.name)} LIMIT 1") is not None]
    if full:
        raise CopyRefused(f"The target {shown} already holds data (in {', '.join(full)}). "
                          "Copy into a new, empty database.")


async def _copy_table(source: Tx, target: Tx, shape: TableShape, *, seeded: bool,
                      later: frozenset[str], blank: frozenset[str],
                      progress: ProgressFactory | None
                      ) -> tuple[int, int, list[tuple[Any, ...]]]:
    """Copy one table in batches, in key order (every table has a primary key; a test
    holds the schema to that), the `blank` columns as NULL. Returns the rows copied, the
    largest id (0 if none, or the table has no `id` key) and, for the `later` columns
    (written again at the end), each row's key and values where any is set."""
    row = await source.fetchone(f"SELECT count(*) AS n FROM {_name(shape.name)}")
    total = 0 if row is None else int(row["n"])
    report = (progress(shape.name, total) if progress is not None and total and not seeded
              else None)
    columns = ", ".join(_name(c) for c in shape.columns)
    keys = ", ".join(_name(c) for c in shape.key)
    insert = (f"INSERT INTO {_name(shape.name)} ({columns}) VALUES "
              f"({', '.join('?' for _ in shape.columns)})"
              + (" ON CONFLICT DO NOTHING" if seeded else ""))
    key_at = [shape.columns.index(c) for c in shape.key]
    later_at = [shape.columns.index(c) for c in sorted(later)]
    blank_at = {shape.columns.index(c) for c in blank}
    deferred: list[tuple[Any, ...]] = []
    done = last_id = 0
    after: tuple[Any, ...] | None = None
    while True:
        where = ("" if after is None else
                 f" WHERE ({keys}) > ({', '.join('?' for _ in shape.key)})")
        rows = await source.fetchall(
            f"SELECT {columns} FROM {_name(shape.name)}{where} ORDER BY {keys} LIMIT ?",
            (*(after or ()), BATCH_ROWS))
        if not rows:
            break
        values = [tuple(row) for row in rows]
        deferred += [tuple(v[i] for i in key_at) + tuple(v[i] for i in later_at)
                     for v in values if any(v[i] is not None for i in later_at)]
        written = [tuple(None if i in blank_at else v for i, v in enumerate(value))
                   for value in values]
        try:
            await target.execute_many(insert, written)
        except ConstraintViolation as error:
            raise CopyRefused(f"The target refused a row of {shape.name}: {error}. Nothing "
                              "was copied.") from error
        after = tuple(values[-1][i] for i in key_at)
        done += len(values)
        if shape.key == ("id",):
            last_id = int(after[0])
        if report is not None:
            report(done)
    return done, last_id, deferred


async def _write_later(target: Tx, shape: TableShape, later: frozenset[str],
                       deferred: list[tuple[Any, ...]]) -> None:
    """Set the columns held back to close a foreign-key loop (see `copy_order`), and those
    the target's triggers counted meanwhile (`COUNTED_COLUMNS`)."""
    columns = sorted(later)
    sets = ", ".join(f"{_name(c)} = ?" for c in columns)
    match = " AND ".join(f"{_name(c)} = ?" for c in shape.key)
    width = len(shape.key)
    await target.execute_many(
        f"UPDATE {_name(shape.name)} SET {sets} WHERE {match}",
        [(*row[width:], *row[:width]) for row in deferred])


def _name(identifier: str) -> str:
    """An identifier quoted the same way for both databases (some columns, such as
    `before` and `position`, are key words)."""
    return '"' + identifier.replace('"', '""') + '"'
