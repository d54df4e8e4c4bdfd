"""Delivering the games' outboxes: a sender task per game while it has something to send.

An outbox entry names what it reports (the action count, the kind, the seat, the lines), not
the message: the sender rebuilds the update from the game's state at that count (kept in
memory, or replayed after a restart), always from the reader's own view, and hands it to the
notifier with the entry's `Delivery` (its key stays the same on every attempt, so a repeated
send is harmless). A game's entries go out in order; games do not wait for each other. A
passing failure is retried with backoff (what the outside asked for, else doubling); a table
whose thread is gone gets a new one and its players are told; a missing permission is told
to the host once while the messages wait; a refusal gives the entry up. Delivered entries
are recorded as sent together, riding with a later commit. A sender first claims its game's
outbox in the store (`Outbox.claim`), renewing the claim when half its lease is gone, so when
several processes share the database one of them drains each game.

A database out of reach (`DatabaseUnavailable`) stops no sender: it keeps in memory what it
delivered and could not record, waits (`Outage`) and tries again until the database answers,
then records it without sending it again; what it has not delivered waits meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.engine.game import GameState, spectator_view, view
from bot.store import (
    OUTBOX_LEASE,
    ClockKind,
    Database,
    DatabaseUnavailable,
    DeliveryKind,
    NewDelivery,
    OutboxEntry,
    StoreClosed,
)
from bot.tables.notifier import (
    Answer,
    Delivery,
    DeliveryFailed,
    NotAllowed,
    Notifier,
    RetryLater,
    SeatUpdate,
    Table,
    TableGone,
    TableUpdate,
)
from bot.tables.outage import Outage
from bot.tables.reminders import nudge
from bot.tables.teaching import open_racks

log = logging.getLogger(__name__)
#: What the host of a table with nowhere to be posted (its thread and channel deleted) can
#: do: its turns go on in the DMs, but its discards are called under its posts.
NOWHERE = ("The game goes on in the players' DMs, but nobody can call a discard; to end it, "
           "use `/mj abort game:{game}` in any channel of this server.")


@dataclass(frozen=True)
class Backoff:
    """How long the sender waits before trying a delivery again after a passing failure:
    what the outside asked for (a rate limit's `retry_after`), else `first` seconds, doubled
    each time up to `cap`. After `attempts` tries the entry is given up."""

    first: float = 1.0
    cap: float = 300.0
    attempts: int = 60

    def delay(self, attempt: int, asked: float | None) -> float:
        """The wait before try number `attempt + 1`."""
        if asked is not None:
            return asked
        return min(self.cap, self.first * 2.0 ** min(attempt - 1, 64))


#: The sender's pacing unless a caller (a test) chooses its own.
DEFAULT_BACKOFF = Backoff()
#: Most delivered entries recorded as sent at once.
SENT_BATCH = 20
#: Seconds a sender waits before asking again for a game's outbox that another process is
#: draining (that process lets it go once it has sent what it holds).
CLAIM_RETRY = 0.5


def delivery_key(entry: OutboxEntry) -> str:
    """The key of an entry's `Delivery`: the same on every attempt, never another entry's."""
    return f"jg{entry.id}"


def entry_body(**fields: object) -> str:
    """An outbox entry's body: the fields the state alone does not give, as JSON."""
    return json.dumps(fields, separators=(",", ":"))


@dataclass(eq=False)
class _Pending:
    """An outbox entry in a game's send queue, with the state it reports."""

    entry: OutboxEntry
    state: GameState
    delivery: Delivery

    @classmethod
    def of(cls, entry: OutboxEntry, state: GameState) -> _Pending:
        """The entry, to deliver with a key of its own (the same on every attempt)."""
        return cls(entry, state, Delivery(delivery_key(entry)))


@dataclass
class Mailbox:
    """One game's deliveries in memory: the entries still to send, in order, the task
    sending them, and who is told when something goes wrong (the host, once a game)."""

    host_id: int
    queue: deque[_Pending] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None
    #: Set while nothing is being delivered.
    idle: asyncio.Event = field(default_factory=asyncio.Event)
    host_told: bool = False
    #: Entries delivered but not yet recorded as sent (entry id, message ids): kept until
    #: the record is written, however long the database is out of reach.
    delivered: list[tuple[int, list[int]]] = field(default_factory=list)
    #: Until when (the event loop's clock) this process's claim on the outbox needs no
    #: renewing.
    claimed_until: float = float("-inf")

    def __post_init__(self) -> None:
        self.idle.set()


class HeldGame(Protocol):
    """What the sender needs of a game the service holds: where it is posted and who sits
    where (`table`, which the sender replaces when the thread moves), its state now,
    whether it is over, its mailbox, and the seats whose holders refuse DMs (a reminder
    they would get by DM is a mention instead)."""

    table: Table
    state: GameState
    closed: bool
    mail: Mailbox
    dm_closed: set[int]


class Sender:
    """Delivers the outbox entries of the games of one table service. `done` is called when
    a game that is over has nothing left to send; `outage` is told when the database can't
    be reached and when it answers again."""

    def __init__(self, db: Database, notifier: Notifier, backoff: Backoff,
                 done: Callable[[HeldGame], Awaitable[None]], outage: Outage) -> None:
        self.db = db
        self.notifier = notifier
        self.backoff = backoff
        self.outage = outage
        self._done = done
        #: Set by `stop`: senders deliver what goes out at once, and retry nothing.
        self._stopping = asyncio.Event()

    async def stop(self, games: Iterable[HeldGame], grace: float) -> None:
        """Let the games' senders deliver for up to `grace` seconds what goes out without a
        retry, then stop them; what is not confirmed stays in the outbox."""
        self._stopping.set()
        tasks = [game.mail.task for game in games if game.mail.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=grace)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def queue(self, game: HeldGame, entries: Sequence[OutboxEntry], state: GameState, *,
              answer: Answer | None = None) -> None:
        """Hand committed entries (reporting `state`) to the game's sender, starting it if it
        is not running (unless the sender is stopping). `answer`: the click that made them,
        offered the table update among them (`Delivery.answer`) when nothing is ahead of it
        (the click waits for it)."""
        pending = [_Pending.of(entry, state) for entry in entries]
        table = next((p for p in pending if p.entry.kind is DeliveryKind.TABLE), None)
        if answer is not None and table is not None and not game.mail.queue:
            table.delivery.answer = answer
            answer.take()
        game.mail.queue.extend(pending)
        self._start(game)

    def _start(self, game: HeldGame) -> None:
        """Start the game's sender if it has something to send or to record and none runs.
        Once stopping, what arrives late is left to the next start."""
        mail = game.mail
        if (mail.queue or mail.delivered) and mail.task is None \
                and not self._stopping.is_set():
            mail.idle.clear()
            mail.task = asyncio.create_task(self._deliver(game),
                                            name=f"jongg-send-{game.table.game_id}")

    def resume(self, game: HeldGame, pending: Sequence[OutboxEntry],
               states: dict[int, GameState]) -> None:
        """Queue the game's `pending` entries (as the store has them) that the sender does
        not have yet, after a restart or when written outside a move, each with the state it
        reports: `states` by action count, the current state for the current count."""
        queued = {waiting.entry.id for waiting in game.mail.queue}
        states = {**states, len(game.state.actions): game.state}
        for entry in pending:
            if entry.id not in queued:
                self.queue(game, [entry], states[entry.at_seq])

    async def _deliver(self, game: HeldGame) -> None:
        """The game's sender: deliver its entries in order, each until it is sent or given
        up, and record them; ends when nothing is left (a later commit starts a new one).
        Entries queued while it lets the claim go are sent before it ends. It never ends
        with an error: what it could not record stays pending in the store, for the next
        start to send again under the same keys."""
        try:
            await self._drain(game)
        except StoreClosed:
            # Shutting down: the entries stay pending in the store for the next start.
            log.warning("the sender of game %s stopped: the store closed", game.table.game_id)
        except Exception:
            # A refusal or a bug, not an outage: retrying would meet it again.
            log.exception("the sender of game %s stopped", game.table.game_id)
        finally:
            game.mail.task = None
            if game.closed and not game.mail.queue and not game.mail.delivered:
                await self._done(game)
            game.mail.idle.set()

    async def _drain(self, game: HeldGame) -> None:
        """Send and record until nothing is left, or until the sender stops. While the
        database can't be reached, wait (`Outage.delay`) and try again: the entry at the
        head of the queue is tried again, what was delivered is recorded, nothing delivered
        is sent again."""
        tries = 0
        while game.mail.queue or game.mail.delivered:
            try:
                sent_all = await self._send_queued(game)
                await self._let_go(game)
            except DatabaseUnavailable as error:
                if self._stopping.is_set():
                    log.warning("the sender of game %s stopped with the database out of "
                                "reach; what it did not record goes out again after the "
                                "next start, under the same keys", game.table.game_id)
                    return
                tries += 1
                self.outage.failed(error)
                await self._pause(self.outage.delay(tries))
                continue
            tries = 0
            if not sent_all:  # closing: what is left waits for the next start
                return

    async def _pause(self, seconds: float) -> None:
        """Wait `seconds`, or less if the sender is told to stop meanwhile."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), seconds)

    async def _send_queued(self, game: HeldGame) -> bool:
        """Send the queue's entries in order while this process holds the game's claim,
        waiting for it while another process sends (that one lets it go once it has sent
        what it holds). False if the sender stopped with entries left."""
        while game.mail.queue:
            if not await self._claim(game):
                if self._stopping.is_set():
                    return False
                await self._pause(CLAIM_RETRY)
                continue
            if not game.mail.queue:  # the other process sent them all
                break
            pending = game.mail.queue[0]
            if await self._attempt(game, pending):
                game.mail.queue.remove(pending)
            elif self._stopping.is_set():  # closing: no retries
                return False
            # What is left when the queue runs out is recorded by `_let_go`, which on a
            # shared database waits for it to be written before it lets the claim go.
            if len(game.mail.delivered) >= SENT_BATCH:
                await self._record_sent(game)
        return True

    async def _claim(self, game: HeldGame) -> bool:
        """Whether this process drains the game's outbox: its claim is renewed in the store
        once half the lease has gone; False while another process holds it (the entries
        stay pending for that one, or for this one once its lease lapses). On each claim the
        queue drops what the store no longer has pending: entries another process sent
        while it held the claim."""
        now = asyncio.get_running_loop().time()
        if now < game.mail.claimed_until:
            return True
        game_id = game.table.game_id
        claimed = await self.db.outbox.claim(game_id)
        self.outage.answered()
        if not claimed:
            log.info("another process sends the messages of game %s", game_id)
            return False
        game.mail.claimed_until = now + OUTBOX_LEASE / 2
        if self.db.shared:  # only another process can have sent what this one queued
            # Only what was queued before the read began was committed before it, so only
            # that can be judged by it: a move that commits during the read queues entries
            # it does not see, which are not sent for all that.
            queued = {waiting.entry.id for waiting in game.mail.queue}
            pending = {entry.id for entry in await self.db.outbox.pending(game_id)}
            done = queued - pending
            if done:
                game.mail.queue = deque(waiting for waiting in game.mail.queue
                                        if waiting.entry.id not in done)
        return True

    async def _let_go(self, game: HeldGame) -> None:
        """The queue is empty: record what was delivered as sent and, when other processes
        may share the database, give the game's claim up (once the record is written), so
        a process that moves the game next sends its messages at once. A file serves one
        process: there the claim stays, and the record rides with a later commit (unless
        the database was out of reach: then the sender waits to see it written)."""
        if not self.db.shared:
            await self._record_sent(game, wait=self.outage.down)
            return
        await self._record_sent(game, wait=True)
        await self.db.outbox.release_claims(game.table.game_id)
        game.mail.claimed_until = float("-inf")

    async def _attempt(self, game: HeldGame, pending: _Pending) -> bool:
        """One try at delivering an entry; True once it is settled (sent or given up),
        False to try the queue's first entry again (after waiting, if it must)."""
        entry = pending.entry
        try:
            await self._notify(game, pending)
        except DeliveryFailed as failure:
            return await self._failed(game, pending, failure)
        except DatabaseUnavailable:  # reading what the update needs: `_drain` tries again
            raise
        except Exception as error:  # a bug, not Discord: retrying would repeat it
            log.exception("delivering %s of game %s failed", entry.kind.value, entry.game_id)
            await self.db.outbox.mark_failed(entry.id, f"{type(error).__name__}: {error}")
            return True
        game.mail.delivered.append((entry.id, pending.delivery.sent))
        return True

    async def _record_sent(self, game: HeldGame, *, wait: bool = False) -> None:
        """Record the delivered entries as sent, together, riding with a later commit (see
        `Outbox.mark_sent`; with `wait`, once written). Until then a crash only means they
        are sent again after the restart, with the same keys. A record the database can't
        take now, waited for or not, puts them back in the mailbox to record again."""
        delivered, game.mail.delivered = game.mail.delivered, []
        if not delivered:
            return
        try:
            written = await self.db.outbox.mark_sent(delivered, wait=wait)
        except DatabaseUnavailable:
            game.mail.delivered[:0] = delivered
            raise
        if written.done():
            self.outage.answered()
        else:
            written.add_done_callback(functools.partial(self._written, game, delivered))

    def _written(self, game: HeldGame, delivered: list[tuple[int, list[int]]],
                 written: asyncio.Future[None]) -> None:
        """A record not waited for is settled: if the database was out of reach, the
        entries go back in the mailbox and the sender starts again to record them."""
        error = None if written.cancelled() else written.exception()
        if isinstance(error, DatabaseUnavailable):
            self.outage.failed(error)
            game.mail.delivered[:0] = delivered
            self._start(game)

    async def _failed(self, game: HeldGame, pending: _Pending, failure: DeliveryFailed) -> bool:
        """Deal with a failed try: move a table whose thread is gone, tell the host about a
        missing permission, wait and retry what may pass, give up the rest."""
        entry = pending.entry
        await self._record_sent(game)  # before waiting: what went out is recorded
        if isinstance(failure, TableGone | NotAllowed | RetryLater):
            attempts = await self.db.outbox.note_attempt(entry.id, str(failure))
            if 0 < attempts < self.backoff.attempts:
                log.warning("delivering %s of game %s failed (%s); attempt %d",
                            entry.kind.value, entry.game_id, failure, attempts)
                if isinstance(failure, TableGone):
                    try:
                        return await self._reopen(game)
                    except TableGone as nowhere:  # its channel is gone too
                        failure = nowhere
                    except DeliveryFailed as again:
                        return await self._failed(game, pending, again)
                    return await self._give_up(game, pending, failure)
                if isinstance(failure, NotAllowed):
                    await self._tell_host(game, str(failure))
                asked = failure.after if isinstance(failure, RetryLater) else None
                await self._pause(self.backoff.delay(attempts, asked))
                return False
        return await self._give_up(game, pending, failure)

    async def _give_up(self, game: HeldGame, pending: _Pending, failure: DeliveryFailed) -> bool:
        """Mark the entry failed for good (and tell the host when the table has nowhere to
        be posted any more); returns True, the entry is settled."""
        entry = pending.entry
        log.error("gave up delivering %s of game %s: %s", entry.kind.value, entry.game_id,
                  failure)
        if isinstance(failure, TableGone):
            await self._tell_host(game, f"{failure}. {NOWHERE.format(game=entry.game_id)}")
        await self.db.outbox.mark_failed(entry.id, str(failure))
        return True

    async def _reopen(self, game: HeldGame) -> bool:
        """The table's thread is gone: open a new one, record it, and put the notice that
        says where the table went first in the queue; the entry that failed follows it.
        Returns False (the queue's first entry is now the notice)."""
        game_id = game.table.game_id
        thread_id = await self.notifier.new_thread(game.table)
        if thread_id is None:
            raise TableGone("the table has nowhere to go")
        await self.db.games.set_thread(game_id, thread_id)
        game.table = replace(game.table, thread_id=thread_id)
        [entry] = await self.db.outbox.add(game_id, [NewDelivery(
            DeliveryKind.MOVED, len(game.state.actions))])
        game.mail.queue.appendleft(_Pending.of(entry, game.state))
        return False

    async def _tell_host(self, game: HeldGame, problem: str) -> None:
        """Tell the host, once a game, what keeps its messages from arriving. The note is
        recorded (so a restart does not repeat it) and sent at once, ahead of the queue it
        is about; it is not retried."""
        if game.mail.host_told:
            return
        [entry] = await self.db.outbox.add(game.table.game_id, [NewDelivery(
            DeliveryKind.HOST, len(game.state.actions), None,
            entry_body(user=game.mail.host_id, problem=problem))])
        game.mail.host_told = True
        note = _Pending.of(entry, game.state)
        try:
            await self._notify(game, note)
        except Exception as error:
            log.warning("could not tell the host of game %s: %s", entry.game_id, error)
            await self.db.outbox.mark_failed(entry.id, str(error))
        else:
            game.mail.delivered.append((entry.id, note.delivery.sent))

    async def _notify(self, game: HeldGame, pending: _Pending) -> None:
        """Rebuild the entry's update from the state it reports, each reader's from their
        own view, and hand it to the notifier. A seat's update goes to whoever held the seat
        when it was made: if the seat has changed hands since, its new holder has been told
        afresh and the old update is dropped."""
        entry, state, delivery = pending.entry, pending.state, pending.delivery
        table = game.table
        body: dict[str, Any] = json.loads(entry.body)
        if entry.seat is not None and table.user_ids[entry.seat] != body["user"]:
            return
        notifier = self.notifier
        if entry.kind is DeliveryKind.TABLE:
            await notifier.table_update(table, TableUpdate(
                tuple(body["lines"]), spectator_view(state), body["new_turn"],
                open_racks(table, state)), delivery)
        elif entry.kind is DeliveryKind.SEAT:
            assert entry.seat is not None
            expired = await self._old_prompt(entry, body) if body.get("expired") else ()
            await notifier.seat_update(table, entry.seat, SeatUpdate(
                view(state, entry.seat), body["drawn"], tuple(body["lines"]),
                body["must_act"], body["deadline"], body.get("stood_in", False), expired),
                delivery)
        elif entry.kind is DeliveryKind.GAME_OVER:
            await notifier.game_over(table, spectator_view(state), delivery)
        elif entry.kind is DeliveryKind.REMINDER:
            assert entry.seat is not None
            # Queued before reminders had kinds of their own: an ordinary reminder.
            clock = ClockKind(body.get("clock", ClockKind.REMINDER.value))
            await notifier.reminder(table, entry.seat, nudge(
                clock, body["due_at"], table.options_of(entry.seat).remind_by,
                dm_closed=entry.seat in game.dm_closed), delivery)
        elif entry.kind is DeliveryKind.MOVED:
            await notifier.table_moved(table, delivery)
        else:
            await notifier.tell_host(table, body["user"], body["problem"], delivery)

    async def _old_prompt(self, entry: OutboxEntry, body: dict[str, Any]) -> tuple[int, ...]:
        """The messages of the last prompt that asked `entry`'s seat holder to act before
        `entry` (none if it was never sent): what a move made for them has left stale."""
        earlier = [e for e in await self.db.outbox.entries(entry.game_id)
                   if e.kind is DeliveryKind.SEAT and e.seat == entry.seat and e.id < entry.id
                   and e.message_ids]
        for old in reversed(earlier):
            asked = json.loads(old.body)
            if asked.get("user") == body["user"] and asked.get("must_act"):
                return old.message_ids
        return ()
