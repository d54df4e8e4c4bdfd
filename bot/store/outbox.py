"""The outbox: the messages each game owes the outside, kept until they are confirmed.

Entries are written in the transaction of what they report (a move with `append_actions`, a
result with `finish_game`, a reminder with `Clocks.ring`), so an announcement is durable
exactly when its cause is, and the sender can always find what is still to be told. Within a
game, entries are delivered in the order of their ids; an entry ends sent (with the ids of
the messages it posted) or failed (given up, with the reason), and a game's sent entries are
forgotten once the game is over and nothing of it is pending.

When several processes share the database, one of them drains each game's outbox: it
`claim`s the game for a lease (`OUTBOX_LEASE`) and renews the claim while it sends; another
process's claim is refused until that lease lapses (its process died), and then succeeds,
so a killed process's entries are taken over.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from bot.store.models import DeliveryKind, DeliveryState, NewDelivery, OutboxEntry
from bot.store.rows import (
    OUTBOX_COLUMNS,
    Part,
    check_int,
    check_json,
    check_opt_int,
    entry_from_row,
    fetch_game,
)

if TYPE_CHECKING:
    from bot.store.tx import Tx

#: Longest failure reason kept (a Discord error's text is a line or two).
MAX_ERROR_LENGTH = 500
#: How long a process's claim on a game's outbox lasts unless renewed.
OUTBOX_LEASE = 60.0


def check_deliveries(deliveries: Sequence[NewDelivery]) -> None:
    """Refuse an entry the schema would refuse, before any transaction starts."""
    for delivery in deliveries:
        if not isinstance(delivery.kind, DeliveryKind):
            raise ValueError(f"a delivery's kind is a DeliveryKind, not {delivery.kind!r}")
        check_int(delivery.at_seq, "at_seq", minimum=0)
        check_opt_int(delivery.seat, "seat", minimum=0)
        check_json(delivery.body, "body")


async def insert_deliveries(tx: Tx, deliveries: Sequence[tuple[int, NewDelivery]],
                            now: float) -> tuple[OutboxEntry, ...]:
    """Add `deliveries` (each a game id and an entry) inside the caller's transaction; returns
    them as stored, in the same order. The ids are taken from the table's own numbering
    (`Tx.reserve_ids`) so a batch is one statement however many entries it has."""
    if not deliveries:
        return ()
    ids = await tx.reserve_ids("outbox", len(deliveries))
    entries = tuple(
        OutboxEntry(entry_id, game_id, d.kind, d.at_seq, d.seat, d.body,
                    DeliveryState.PENDING, 0, (), None, now, None)
        for entry_id, (game_id, d) in zip(ids, deliveries, strict=True))
    await tx.execute_many(
        "INSERT INTO outbox (id, game_id, kind, at_seq, seat, body, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(e.id, e.game_id, e.kind.value, e.at_seq, e.seat, e.body, now) for e in entries])
    return entries


async def record_sent(tx: Tx, rows: Sequence[tuple[str, float, int]]) -> None:
    """Record delivered entries as sent inside the caller's transaction, each row the ids of
    the messages it posted (as JSON), the time and the entry id; an entry no longer pending
    stays as it is."""
    await tx.execute_many(
        "UPDATE outbox SET state = ?, message_ids = ?, done_at = ? WHERE id = ? AND state = ?",
        [(DeliveryState.SENT.value, *row, DeliveryState.PENDING.value) for row in rows])


class Outbox(Part):
    """`db.outbox`: each game's deliveries and how far they got."""

    #: Whether this process has claimed a game's outbox since it connected.
    _claimed = False

    async def add(self, game_id: int, deliveries: Sequence[NewDelivery]
                  ) -> tuple[OutboxEntry, ...]:
        """Add entries on their own (notices that report no move); returns them as stored."""
        check_deliveries(deliveries)
        async with self._db.transaction() as tx:
            await fetch_game(tx, game_id)
            return await insert_deliveries(tx, [(game_id, d) for d in deliveries],
                                           self._db.now())

    async def pending(self, game_id: int) -> list[OutboxEntry]:
        """The game's entries still to deliver, in order."""
        await self._db.actions.write_confirmations()
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE game_id = ? AND state = ? "
                "ORDER BY id", (check_int(game_id, "game_id"), DeliveryState.PENDING.value))
        return [entry_from_row(row) for row in rows]

    async def games_with_pending(self) -> list[int]:
        """Every game with something still to deliver, oldest first (what a start resumes,
        finished games included)."""
        await self._db.actions.write_confirmations()
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT DISTINCT game_id FROM outbox WHERE state = ? ORDER BY game_id",
                (DeliveryState.PENDING.value,))
        return [int(row["game_id"]) for row in rows]

    async def entries(self, game_id: int) -> list[OutboxEntry]:
        """Every entry the game still has, in order."""
        await self._db.actions.write_confirmations()
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE game_id = ? ORDER BY id",
                (check_int(game_id, "game_id"),))
        return [entry_from_row(row) for row in rows]

    async def newest_sent(self, game_ids: Collection[int]) -> list[OutboxEntry]:
        """Of each of these games, per kind and seat, the newest entry sent that posted a
        message (ordered by id): where a seat's latest DM and the table's latest post are,
        for a link to them (`bot.tables.waiting`). A game's sent entries are kept until it
        is over, so this answers for every game in play, in one read."""
        ids = [check_int(game_id, "game_id") for game_id in game_ids]
        if not ids:
            return []
        await self._db.actions.write_confirmations()
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE id IN (SELECT MAX(id) FROM outbox "
                f"WHERE game_id IN ({', '.join('?' * len(ids))}) AND state = ? "
                "AND message_ids <> '[]' GROUP BY game_id, kind, seat) ORDER BY id",
                (*ids, DeliveryState.SENT.value))
        return [entry_from_row(row) for row in rows]

    async def has(self, game_id: int, kind: DeliveryKind) -> bool:
        """Whether the game has an entry of `kind` (in any state)."""
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT 1 FROM outbox WHERE game_id = ? AND kind = ? LIMIT 1",
                (check_int(game_id, "game_id"), kind.value))
        return row is not None

    async def mark_sent(self, sent: Sequence[tuple[int, Sequence[int]]], *,
                        wait: bool = True) -> asyncio.Future[None]:
        """Record that entries were delivered, each an entry id and the ids of the messages
        it posted (none when there was nothing to post after all); an entry no longer pending
        stays as it is. They are written with the next group of appends (see `Actions`), so
        confirmations cost no transaction of their own. Without `wait` this returns at once
        and the rows are written within `CONFIRM_DELAY` (the outbox's own reads see them):
        a crash before that only means they are delivered again, which a sender that uses
        each entry's id as its key makes harmless. Returns a future settled once the rows
        are committed, or failed with why they were not (`DatabaseUnavailable`: they may be
        recorded again later)."""
        rows = []
        now = self._db.now()
        for entry_id, message_ids in sent:
            for message_id in message_ids:
                check_int(message_id, "message_id")
            rows.append((json.dumps(list(message_ids)), now, check_int(entry_id, "entry_id")))
        if rows:
            return await self._db.actions.confirm_sent(rows, wait=wait)
        nothing: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        nothing.set_result(None)
        return nothing

    async def mark_failed(self, entry_id: int, error: str) -> bool:
        """Give a pending entry up for good, with the reason; False if it was not pending."""
        async with self._db.transaction() as tx:
            return await tx.execute(
                "UPDATE outbox SET state = ?, error = ?, done_at = ? WHERE id = ? AND state = ?",
                (DeliveryState.FAILED.value, error[:MAX_ERROR_LENGTH], self._db.now(),
                 check_int(entry_id, "entry_id"), DeliveryState.PENDING.value)) > 0

    async def note_attempt(self, entry_id: int, error: str) -> int:
        """Count a failed attempt at a pending entry (keeping the reason); returns how many
        attempts it has had, 0 if it is not pending."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE outbox SET attempts = attempts + 1, error = ? WHERE id = ? "
                "AND state = ?", (error[:MAX_ERROR_LENGTH], check_int(entry_id, "entry_id"),
                                  DeliveryState.PENDING.value))
            row = await tx.fetchone("SELECT attempts FROM outbox WHERE id = ? AND state = ?",
                                    (entry_id, DeliveryState.PENDING.value))
        return 0 if row is None else int(row["attempts"])

    async def forget_sent(self, game_id: int) -> int:
        """Delete the game's sent entries (once it is over and delivered: they are of no
        more use) and its outbox claim; failed ones stay as the record of what never
        arrived. Returns how many entries."""
        await self._db.actions.write_confirmations()
        async with self._db.transaction() as tx:
            game = await fetch_game(tx, game_id)
            if not game.status.is_over:
                raise ValueError(f"game {game_id} is still {game.status.value}")
            # Nothing is left to drain, so nobody needs the game's claim either.
            await tx.execute("DELETE FROM outbox_claims WHERE game_id = ?", (game_id,))
            return await tx.execute("DELETE FROM outbox WHERE game_id = ? AND state = ?",
                                    (game_id, DeliveryState.SENT.value))

    async def claim(self, game_id: int, *, lease: float = OUTBOX_LEASE) -> bool:
        """Claim (or renew the claim on) the game's outbox for this process until `lease`
        seconds from now; False if another process holds it and its lease has not lapsed.
        One statement (an upsert whose condition is checked on the claim row itself), so
        two processes asking at once never both get it."""
        now = self._db.now()
        self._claimed = True
        async with self._db.transaction() as tx:
            row = await tx.fetchone(
                "INSERT INTO outbox_claims (game_id, claimed_by, claimed_until) "
                "VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                "claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until "
                "WHERE outbox_claims.claimed_by = excluded.claimed_by "
                "OR outbox_claims.claimed_until <= ? RETURNING game_id",
                (check_int(game_id, "game_id"), self._db.owner, now + lease, now))
        return row is not None

    async def release_claims(self, game_id: int | None = None) -> int:
        """Give up the claims this process holds: every one (it is closing: another process,
        or this one started again, may drain those games at once), or one game's (it has
        sent all it had of that game: another process that moved the game may send what it
        added without waiting for the lease to lapse). Returns how many."""
        if not self._claimed:  # (a database opened at an older schema has no claims)
            return 0
        only = "" if game_id is None else " AND game_id = ?"
        async with self._db.transaction() as tx:
            return await tx.execute(f"DELETE FROM outbox_claims WHERE claimed_by = ?{only}",
                                    (self._db.owner,) if game_id is None
                                    else (self._db.owner, check_int(game_id, "game_id")))
