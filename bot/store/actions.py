"""A game's action log, and the clocks that run while it is played.

The log is append-only and contiguous: seq 0, 1, 2, … per game. Appending is optimistic: the
caller says which seq it expects to write (the log length it last saw — buttons carry it) and
the append fails with `SeqConflict` if the log has moved, so two clicks, or a click and a
clock, can never both become action N.

Appends are written in groups: every append that arrives while a transaction is being
written waits for the next one, which writes them all (each still checked on its own). One
transaction costs the same few trips to the database's thread however many games it
carries, so a busy process commits more moves per second instead of queueing them. The
outbox's confirmations (entries delivered, `Outbox.mark_sent`) ride in the same groups: they
come as often as moves do, and a transaction of their own each would double the commits. A
confirmation nobody waits for waits up to `CONFIRM_DELAY` for a move to ride with.

Clocks are deadlines kept in the database so they survive restarts. A clock remembers the log
length when it was set; when it runs out the table appends its action with that as the
expected seq, which fails harmlessly if play has moved on. When several processes share the
database, each due clock is acted on by one of them: `claim_due` hands a process the due
clocks nobody else holds, for a lease (`CLOCK_LEASE`); a process that dies holding one
leaves it to the others once the lease lapses.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.store.errors import SeqConflict, StoreClosed, StoreError
from bot.store.models import (
    Action,
    Clock,
    ClockKind,
    ClockPlan,
    GameStatus,
    NewDelivery,
    OutboxEntry,
    PlayedFor,
)
from bot.store.outbox import check_deliveries, insert_deliveries
from bot.store.rows import (
    ACTION_COLUMNS,
    CLOCK_COLUMNS,
    Part,
    action_from_row,
    check_int,
    check_opt_int,
    clock_from_row,
    fetch_game,
    fetch_game_in,
    next_seq,
)
from bot.store.tx import Tx

if TYPE_CHECKING:
    from bot.store.database import Database

#: Longest action text kept; the engine's actions are a few dozen characters.
MAX_ACTION_LENGTH = 1000


def _check_plan(plan: ClockPlan) -> None:
    check_int(plan.at_seq, "at_seq", minimum=0)
    for _, seat, _ in plan.clocks:
        check_opt_int(seat, "seat", minimum=0)
    if len({(kind, seat) for kind, seat, _ in plan.clocks}) != len(plan.clocks):
        raise ValueError("a clock plan sets each clock (kind and seat) once")


async def _replace(tx: Tx, plans: Sequence[tuple[int, ClockPlan]], now: float) -> None:
    """For each (game, plan): stop the game's clocks of the plan's kinds and those the plan
    starts again, then start them (inside the caller's transaction)."""
    await tx.execute_many("DELETE FROM clocks WHERE game_id = ? AND kind = ?",
                          [(game_id, kind.value) for game_id, plan in plans
                           for kind in plan.kinds])
    await tx.execute_many(
        "DELETE FROM clocks WHERE game_id = ? AND kind = ? AND ifnull(seat, -1) = ?",
        [(game_id, kind.value, -1 if seat is None else seat) for game_id, plan in plans
         for kind, seat, _ in plan.clocks])
    await tx.execute_many(
        "INSERT INTO clocks (game_id, kind, seat, due_at, at_seq, set_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, kind.value, seat, float(due_at), plan.at_seq, now)
         for game_id, plan in plans for kind, seat, due_at in plan.clocks])


@dataclass
class _Append:
    """One caller's appends, waiting for the next group transaction."""

    game_id: int
    expected_seq: int
    actions: tuple[tuple[str, int | None], ...]
    clocks: ClockPlan | None
    outbox: tuple[NewDelivery, ...]
    written: asyncio.Future[tuple[OutboxEntry, ...]]
    #: The moves the table made for a person's seat, by index in `actions`.
    played_for: dict[int, PlayedFor]
    #: The outbox entries as stored, once written.
    entries: tuple[OutboxEntry, ...] = ()

    def fail(self, error: BaseException) -> None:
        if not self.written.done():
            self.written.set_exception(error)


def _retrieve(future: asyncio.Future[None]) -> None:
    """Mark a future's failure as seen (a confirmation nobody waited for)."""
    if not future.cancelled():
        future.exception()


@dataclass(eq=False)
class _Confirm:
    """Delivered outbox entries to record as sent (message ids as JSON, the time, the entry
    id), waiting for the next group transaction."""

    rows: tuple[tuple[str, float, int], ...]
    written: asyncio.Future[None]

    def fail(self, error: BaseException) -> None:
        if not self.written.done():
            self.written.set_exception(error)


#: Most appends written in one transaction (SQLite binds at most 32,766 values a statement).
GROUP_LIMIT = 500
#: How long a confirmation nobody waits for may wait for a group of appends to ride with.
CONFIRM_DELAY = 1.0


class Actions(Part):
    """`db.actions`: the append-only action logs."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self._waiting: list[_Append] = []
        self._confirms: list[_Confirm] = []
        #: Confirmations not yet committed (queued or being written).
        self._unconfirmed: set[_Confirm] = set()
        self._confirm_timer: asyncio.TimerHandle | None = None
        self._writer: asyncio.Task[None] | None = None

    async def append_action(self, game_id: int, expected_seq: int, text: str,
                            actor: int | None) -> int:
        """Append one action (the engine's one-line text) as number `expected_seq` and return
        that seq. `actor` is the user who caused it, None for a bot or a clock.

        Raises `SeqConflict` if the log does not hold exactly `expected_seq` actions, and
        `WrongStatus` unless the game is being played."""
        await self.append_actions(game_id, expected_seq, [(text, actor)])
        return expected_seq

    async def append_actions(self, game_id: int, expected_seq: int,
                             actions: Sequence[tuple[str, int | None]], *,
                             clocks: ClockPlan | None = None,
                             outbox: Sequence[NewDelivery] = (),
                             played_for: Mapping[int, PlayedFor] | None = None,
                             ) -> tuple[OutboxEntry, ...]:
        """Append `actions` (each a text and its actor) as numbers `expected_seq` on and, in
        the same transaction, set the game's clocks to `clocks` and add `outbox` to the
        game's outbox: one commit for a move, the bots' answers to it, the clocks of the
        moment it leads to and the messages that report it, so the log, the clocks and what
        is owed to the players never disagree after a crash. `played_for` marks, by index
        in `actions`, the moves the table made for a person's seat (see `PlayedFor`).
        Returns the outbox entries as stored, once committed.

        Raises `SeqConflict` if the log does not hold exactly `expected_seq` actions, and
        `WrongStatus` unless the game is being played; either way nothing of it is written.
        """
        check_int(game_id, "game_id")
        check_int(expected_seq, "expected_seq", minimum=0)
        for text, actor in actions:
            check_opt_int(actor, "actor")
            if (not isinstance(text, str) or not text or "\n" in text or "\r" in text
                    or len(text) > MAX_ACTION_LENGTH):
                raise ValueError("an action is one non-empty line of at most "
                                 f"{MAX_ACTION_LENGTH} characters; got {text!r:.80}")
        marks = dict(played_for or {})
        if not all(0 <= index < len(actions) and isinstance(kind, PlayedFor)
                   for index, kind in marks.items()):
            raise ValueError("played_for marks actions by their index in the append")
        if clocks is not None:
            _check_plan(clocks)
        check_deliveries(outbox)
        if not self._db.is_open:
            raise StoreClosed(f"The database {self._db.path} is closed.")
        request = _Append(game_id, expected_seq, tuple(actions), clocks, tuple(outbox),
                          asyncio.get_running_loop().create_future(), marks)
        self._waiting.append(request)
        self._start_writer()
        return await request.written

    async def confirm_sent(self, rows: Sequence[tuple[str, float, int]], *,
                           wait: bool) -> asyncio.Future[None]:
        """Record outbox entries as sent with a group transaction (for `Outbox`, which checks
        the rows: message ids as JSON, the time, the entry id). With `wait`, return once
        committed; without, return at once and let them ride with the next group of appends,
        or go alone after `CONFIRM_DELAY`. Returns the future settled when they are
        committed or refused (its failure needs no retrieving)."""
        if not self._db.is_open:
            raise StoreClosed(f"The database {self._db.path} is closed.")
        request = _Confirm(tuple(rows), asyncio.get_running_loop().create_future())
        # Nobody may be waiting: a failure leaves the entries pending, to be sent again.
        request.written.add_done_callback(_retrieve)
        self._confirms.append(request)
        self._unconfirmed.add(request)
        request.written.add_done_callback(lambda _: self._unconfirmed.discard(request))
        if wait:
            self._start_writer()
            await request.written
        elif self._writer is None and self._confirm_timer is None:
            self._confirm_timer = asyncio.get_running_loop().call_later(
                CONFIRM_DELAY, self._start_writer)
        return request.written

    async def write_confirmations(self) -> None:
        """Commit the confirmations asked for so far now (before reading the outbox)."""
        if self._unconfirmed:
            self._start_writer()
            await asyncio.gather(*(c.written for c in list(self._unconfirmed)),
                                 return_exceptions=True)

    def _start_writer(self) -> None:
        if self._confirm_timer is not None:
            self._confirm_timer.cancel()
            self._confirm_timer = None
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_waiting(),
                                               name="jongg-store-appends")

    async def wait_written(self) -> None:
        """Wait until every append and confirmation asked for so far is committed or
        refused."""
        if self._confirms:
            self._start_writer()
        while self._writer is not None:
            await asyncio.shield(self._writer)

    async def _write_waiting(self) -> None:
        group: list[_Append] = []
        confirms: list[_Confirm] = []
        try:
            while self._waiting or self._confirms:
                group = self._waiting[:GROUP_LIMIT]
                del self._waiting[:GROUP_LIMIT]
                confirms, self._confirms = self._confirms, []
                try:
                    await self._write(group, confirms)
                except Exception as error:
                    waiting: list[_Append | _Confirm] = [*group, *confirms]
                    for request in waiting:
                        request.fail(error)
        except asyncio.CancelledError:
            closed = StoreClosed("The database closed before the move was saved.")
            left: list[_Append | _Confirm] = [*group, *confirms, *self._waiting,
                                              *self._confirms]
            for request in left:
                request.fail(closed)
            self._waiting.clear()
            self._confirms.clear()
            raise
        finally:
            self._writer = None

    async def _write(self, group: list[_Append], confirms: list[_Confirm]) -> None:
        """One transaction for `group` and `confirms`: each append checked against the log as
        the earlier ones in the group leave it; the refused ones get their error, the rest
        (and the confirmations) are written and told once the commit is done."""
        accepted: list[_Append] = []
        async with self._db.transaction() as tx:
            await tx.execute_many(
                "UPDATE outbox SET state = 'sent', message_ids = ?, done_at = ? "
                "WHERE id = ? AND state = 'pending'",
                [row for confirm in confirms for row in confirm.rows])
            if group:
                accepted = await self._append(tx, group)
        for confirm in confirms:
            if not confirm.written.done():
                confirm.written.set_result(None)
        for request in accepted:
            if not request.written.done():
                request.written.set_result(request.entries)

    async def _append(self, tx: Tx, group: list[_Append]) -> list[_Append]:
        """Write the appends of `group` the log allows (the others get their refusal), with
        their clocks and outbox entries; returns those written."""
        accepted: list[_Append] = []
        ids = sorted({request.game_id for request in group})
        # Another process's appends to these games wait for this commit (and this for
        # theirs), so the log lengths read next stay true until the rows are written.
        await tx.lock_games(ids)
        rows = await tx.fetchall(
            "SELECT g.id AS id, g.status AS status, (SELECT coalesce(max(a.seq), -1) + 1 "
            "FROM actions AS a WHERE a.game_id = g.id) AS next FROM games AS g "
            f"WHERE g.id IN ({', '.join('?' * len(ids))})", ids)
        playing = {int(row["id"]): int(row["next"]) for row in rows
                   if row["status"] == GameStatus.PLAYING.value}
        for request in group:
            actual = playing.get(request.game_id)
            if actual is None:
                try:  # the refusal that says where the game is
                    await fetch_game_in(tx, request.game_id, GameStatus.PLAYING)
                except StoreError as refusal:
                    request.fail(refusal)
                continue
            if actual != request.expected_seq:
                request.fail(SeqConflict(request.game_id, request.expected_seq, actual))
                continue
            playing[request.game_id] = actual + len(request.actions)
            accepted.append(request)
        now = self._db.now()
        await tx.execute_many(
            "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at, played_for) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(r.game_id, r.expected_seq + i, text, actor, now,
              None if i not in r.played_for else r.played_for[i].value)
             for r in accepted for i, (text, actor) in enumerate(r.actions)])
        await _replace(tx, [(r.game_id, r.clocks) for r in accepted
                            if r.clocks is not None], now)
        entries = await insert_deliveries(
            tx, [(r.game_id, d) for r in accepted for d in r.outbox], now)
        start = 0
        for request in accepted:
            request.entries = entries[start:start + len(request.outbox)]
            start += len(request.outbox)
        return accepted

    async def actions(self, game_id: int, *, since: int = 0) -> list[Action]:
        """The game's actions in order, from seq `since` on."""
        async with self._db.read() as tx:
            await fetch_game(tx, game_id)
            rows = await tx.fetchall(
                f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq >= ? "
                "ORDER BY seq", (game_id, check_int(since, "since", minimum=0)))
        return [action_from_row(row) for row in rows]

    async def next_seq(self, game_id: int) -> int:
        """How many actions the log holds: the seq the next action must be appended as."""
        async with self._db.read() as tx:
            await fetch_game(tx, game_id)
            return await next_seq(tx, game_id)


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
            await tx.execute(
                "DELETE FROM clocks WHERE game_id = ? AND kind = ? AND ifnull(seat, -1) = ?",
                (game_id, kind.value, -1 if seat is None else seat))
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
                "DELETE FROM clocks WHERE game_id = ? AND kind = ? AND ifnull(seat, -1) = ?"
                + only,
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
            stopped = await tx.execute(
                "DELETE FROM clocks WHERE game_id = ? AND kind = ? AND ifnull(seat, -1) = ?",
                (check_int(game_id, "game_id"), kind.value, -1 if seat is None else seat))
            if not stopped:
                return ()
            return await insert_deliveries(tx, [(game_id, d) for d in outbox],
                                           self._db.now())

    async def clear_clocks(self, game_id: int, kind: ClockKind | None = None) -> int:
        """Stop all of a game's clocks (of one kind, if given); returns how many."""
        async with self._db.transaction() as tx:
            if kind is None:
                return await tx.execute("DELETE FROM clocks WHERE game_id = ?",
                                        (check_int(game_id, "game_id"),))
            return await tx.execute("DELETE FROM clocks WHERE game_id = ? AND kind = ?",
                                    (check_int(game_id, "game_id"), kind.value))

    async def clocks(self, game_id: int) -> list[Clock]:
        """The game's clocks, soonest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {CLOCK_COLUMNS} FROM clocks AS c WHERE c.game_id = ? "
                "ORDER BY c.due_at, c.id", (check_int(game_id, "game_id"),))
        return [clock_from_row(row) for row in rows]

    async def due_clocks(self, now: float | None = None) -> list[Clock]:
        """Clocks of unfinished games that are due at `now` (default: the store's clock),
        soonest first. They stay set until cleared."""
        when = self._db.now() if now is None else now
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {CLOCK_COLUMNS} FROM clocks AS c JOIN games AS g ON g.id = c.game_id "
                "WHERE c.due_at <= ? AND g.status IN ('lobby', 'playing') "
                "ORDER BY c.due_at, c.id", (float(when),))
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
                "AND game_id IN (SELECT id FROM games WHERE status IN ('lobby', 'playing')) "
                f"{only}RETURNING id, game_id, kind, seat, due_at, at_seq",
                (owner, when + lease, when, owner, when, *(ids or ())))
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
                "AS g ON g.id = c.game_id WHERE g.status IN ('lobby', 'playing')",
                (self._db.owner,))
        return None if row is None or row["due"] is None else float(row["due"])
