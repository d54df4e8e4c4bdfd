"""A game's action log.

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
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.store.clocks import check_plan, replace_clocks
from bot.store.errors import SeqConflict, StoreClosed, StoreError
from bot.store.models import (
    Action,
    ClockPlan,
    GameStatus,
    NewDelivery,
    OutboxEntry,
    PlayedFor,
)
from bot.store.outbox import check_deliveries, insert_deliveries, record_sent
from bot.store.rows import (
    ACTION_COLUMNS,
    Part,
    action_from_row,
    check_int,
    check_opt_int,
    fetch_game,
    fetch_game_in,
)
from bot.store.tx import Tx

if TYPE_CHECKING:
    from bot.store.database import Database

#: Longest action text kept; the engine's actions are a few dozen characters.
MAX_ACTION_LENGTH = 1000


async def fetch_actions(tx: Tx, game_id: int, since: int = 0) -> list[Action]:
    """The game's actions in order, from seq `since` on."""
    rows = await tx.fetchall(
        f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq >= ? ORDER BY seq",
        (game_id, since))
    return [action_from_row(row) for row in rows]


async def log_length(tx: Tx, game_id: int) -> int:
    """How many actions the game's log holds (so the seq the next one gets)."""
    row = await tx.fetchone(
        "SELECT coalesce(max(seq), -1) + 1 AS next FROM actions WHERE game_id = ?", (game_id,))
    return 0 if row is None else int(row["next"])


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
            check_plan(clocks)
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
            await record_sent(tx, [row for confirm in confirms for row in confirm.rows])
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
        await replace_clocks(tx, [(r.game_id, r.clocks) for r in accepted
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
            return await fetch_actions(tx, game_id, check_int(since, "since", minimum=0))

    async def next_seq(self, game_id: int) -> int:
        """How many actions the log holds: the seq the next action must be appended as."""
        async with self._db.read() as tx:
            await fetch_game(tx, game_id)
            return await log_length(tx, game_id)
