"""The clocks that run while a game is played.

Clocks are deadlines kept in the database so they survive restarts. A clock remembers the log
length when it was set; when it runs out the table appends its action with that as the
expected seq, which fails harmlessly if play has moved on. When several processes share the
database, each due clock is acted on by one of them: `claim_due` hands a process the due
clocks nobody else holds, for a lease (`CLOCK_LEASE`); a process that dies holding one
leaves it to the others once the lease lapses.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.store.models import Clock, ClockKind, ClockPlan, GameStatus, NewDelivery, OutboxEntry
from bot.store.outbox import check_deliveries, insert_deliveries
from bot.store.rows import (
    CLOCK_COLUMNS,
    UNFINISHED,
    Part,
    check_int,
    check_opt_int,
    clock_from_row,
    fetch_game_in,
)
from bot.store.tx import Tx

#: Stops one clock: a game's, of a kind, for a seat (-1: the whole table).
_STOP_ONE = "DELETE FROM clocks WHERE game_id = ? AND kind = ? AND ifnull(seat, -1) = ?"
#: Where a clock's game is unfinished (its clocks still run).
_UNFINISHED_GAME = f"g.status IN ({', '.join('?' * len(UNFINISHED))})"


def check_plan(plan: ClockPlan) -> None:
    """Refuse a plan the schema would refuse, before any transaction starts."""
    check_int(plan.at_seq, "at_seq", minimum=0)
    for _, seat, _ in plan.clocks:
        check_opt_int(seat, "seat", minimum=0)
    if len({(kind, seat) for kind, seat, _ in plan.clocks}) != len(plan.clocks):
        raise ValueError("a clock plan sets each clock (kind and seat) once")


async def replace_clocks(tx: Tx, plans: Sequence[tuple[int, ClockPlan]], now: float) -> None:
    """For each (game, plan): stop the game's clocks of the plan's kinds and those the plan
    starts again, then start them (inside the caller's transaction)."""
    await tx.execute_many("DELETE FROM clocks WHERE game_id = ? AND kind = ?",
                          [(game_id, kind.value) for game_id, plan in plans
                           for kind in plan.kinds])
    await tx.execute_many(
        _STOP_ONE,
        [(game_id, kind.value, -1 if seat is None else seat) for game_id, plan in plans
         for kind, seat, _ in plan.clocks])
    await tx.execute_many(
        "INSERT INTO clocks (game_id, kind, seat, due_at, at_seq, set_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, kind.value, seat, float(due_at), plan.at_seq, now)
         for game_id, plan in plans for kind, seat, due_at in plan.clocks])


async def fetch_clocks(tx: Tx, game_id: int) -> list[Clock]:
    """The game's clocks, soonest first."""
    rows = await tx.fetchall(
        f"SELECT {CLOCK_COLUMNS} FROM clocks AS c WHERE c.game_id = ? ORDER BY c.due_at, c.id",
        (game_id,))
    return [clock_from_row(row) for row in rows]


async def stop_clocks(tx: Tx, game_id: int, kind: ClockKind | None = None) -> int:
    """Stop all of a game's clocks (of one kind, if given) inside the caller's transaction;
    returns how many."""
    if kind is None:
        return await tx.execute("DELETE FROM clocks WHERE game_id = ?", (game_id,))
    return await tx.execute("DELETE FROM clocks WHERE game_id = ? AND kind = ?",
                            (game_id, kind.value))


#: How long a claimed clock stays with its process (it is acted on in well under that).
CLOCK_LEASE = 60.0


class Clocks(Part):
    """`db.clocks`: deadlines of unfinished games."""

    #: Whether this process has claimed clocks since it connected.
    _claimed = False

    async def set_clock(self, game_id: int, kind: ClockKind, *, seat: int | None,
                        due_at: float, at_seq: int) -> Clock:
        """Start (or restart) the game's clock for `kind` and `seat` (None: the whole table);
        a clock already set for the same purpose is replaced."""
        check_opt_int(seat, "seat", minimum=0)
        check_int(at_seq, "at_seq", minimum=0)
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.LOBBY, GameStatus.PLAYING)
            await tx.execute(_STOP_ONE, (game_id, kind.value, -1 if seat is None else seat))
            await tx.execute(
                "INSERT INTO clocks (game_id, kind, seat, due_at, at_seq, set_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, kind.value, seat, float(due_at), at_seq, self._db.now()))
        return Clock(game_id, kind, seat, float(due_at), at_seq)

    async def clear_clock(self, game_id: int, kind: ClockKind, *, seat: int | None,
                          at_seq: int | None = None) -> bool:
        """Stop one clock; False if it was not set. With `at_seq`, only while it is still
        the clock set at that log length: a clock found stale must not stop the one a
        later move set for the same purpose."""
        only = "" if at_seq is None else " AND at_seq = ?"
        async with self._db.transaction() as tx:
            return await tx.execute(
                _STOP_ONE + only,
                (check_int(game_id, "game_id"), kind.value, -1 if seat is None else seat,
                 *(() if at_seq is None else (check_int(at_seq, "at_seq"),))),
            ) > 0

    async def ring(self, game_id: int, kind: ClockKind, *, seat: int | None,
                   outbox: Sequence[NewDelivery]) -> tuple[OutboxEntry, ...]:
        """Stop one clock and, in the same transaction, add `outbox` (what its running out
        announces, such as a reminder); returns the entries as stored. Nothing is added if
        the clock was not set, so a clock is announced once even if two runs see it due."""
        check_deliveries(outbox)
        async with self._db.transaction() as tx:
            stopped = await tx.execute(_STOP_ONE, (check_int(game_id, "game_id"), kind.value,
                                                   -1 if seat is None else seat))
            if not stopped:
                return ()
            return await insert_deliveries(tx, [(game_id, d) for d in outbox],
                                           self._db.now())

    async def clear_clocks(self, game_id: int, kind: ClockKind | None = None) -> int:
        """Stop all of a game's clocks (of one kind, if given); returns how many."""
        async with self._db.transaction() as tx:
            return await stop_clocks(tx, check_int(game_id, "game_id"), kind)

    async def clocks(self, game_id: int) -> list[Clock]:
        """The game's clocks, soonest first."""
        async with self._db.read() as tx:
            return await fetch_clocks(tx, check_int(game_id, "game_id"))

    async def due_clocks(self, now: float | None = None) -> list[Clock]:
        """Clocks of unfinished games that are due at `now` (default: the store's clock),
        soonest first. They stay set until cleared."""
        when = self._db.now() if now is None else now
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {CLOCK_COLUMNS} FROM clocks AS c JOIN games AS g ON g.id = c.game_id "
                f"WHERE c.due_at <= ? AND {_UNFINISHED_GAME} ORDER BY c.due_at, c.id",
                (float(when), *UNFINISHED))
        return [clock_from_row(row) for row in rows]

    async def claim_due(self, now: float | None = None, *, lease: float = CLOCK_LEASE,
                        games: Collection[int] | None = None) -> list[Clock]:
        """The clocks of unfinished games due at `now` (default: the store's clock) that
        this process may act on, soonest first, claimed for it until `now + lease`: those
        nobody holds, those it holds already, and those whose claim has lapsed. Another
        process asking at the same moment gets none of them (a conditional update, checked
        again on each row it had to wait for). They stay set until cleared. With `games`,
        only those games' clocks are claimed (a process claims its own servers' clocks and
        leaves the others' free for their processes)."""
        when = float(self._db.now() if now is None else now)
        owner = self._db.owner
        ids = None if games is None else sorted({check_int(g, "game_id") for g in games})
        if ids is not None and not ids:
            return []
        only = "" if ids is None else f"AND game_id IN ({', '.join('?' * len(ids))}) "
        self._claimed = True
        async with self._db.transaction() as tx:
            rows = await tx.fetchall(
                "UPDATE clocks SET claimed_by = ?, claimed_until = ? WHERE due_at <= ? "
                "AND (claimed_by IS NULL OR claimed_by = ? OR claimed_until <= ?) "
                f"AND game_id IN (SELECT g.id FROM games AS g WHERE {_UNFINISHED_GAME}) "
                f"{only}RETURNING id, game_id, kind, seat, due_at, at_seq",
                (owner, when + lease, when, owner, when, *UNFINISHED, *(ids or ())))
        rows.sort(key=lambda row: (float(row["due_at"]), int(row["id"])))
        return [clock_from_row(row) for row in rows]

    async def release_claims(self) -> int:
        """Give up every clock claim this process holds (it is closing); returns how many."""
        if not self._claimed:  # (a database opened at an older schema has no claims)
            return 0
        async with self._db.transaction() as tx:
            return await tx.execute(
                "UPDATE clocks SET claimed_by = NULL, claimed_until = NULL "
                "WHERE claimed_by = ?", (self._db.owner,))

    async def next_due(self) -> float | None:
        """When the soonest clock of an unfinished game runs out, or None if none is set:
        how long a scheduler may sleep. A clock another process holds counts from when its
        claim lapses (it is theirs until then)."""
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT min(CASE WHEN c.claimed_by <> ? AND c.claimed_until > c.due_at "
                "THEN c.claimed_until ELSE c.due_at END) AS due FROM clocks AS c JOIN games "
                f"AS g ON g.id = c.game_id WHERE {_UNFINISHED_GAME}",
                (self._db.owner, *UNFINISHED))
        return None if row is None or row["due"] is None else float(row["due"])
