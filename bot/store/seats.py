"""Seats: who sits where, and who sat there before.

In the lobby people take and leave seats freely (a leaver's row is simply deleted). Once play
starts a seat can change hands — a player leaves and a bot or a substitute takes over — and
the old holder's row is kept with `left_at`, the new one starting at the current log length,
so disputes and league credit can tell who made which move.
"""

from __future__ import annotations

from bot.store.actions import log_length
from bot.store.errors import AlreadySeated, SeatEmpty, SeatTaken, TableFull
from bot.store.models import GameStatus, Seat
from bot.store.rows import (
    SEAT_COLUMNS,
    Part,
    check_int,
    check_json,
    check_name,
    check_opt_int,
    fetch_game,
    fetch_game_in,
    seat_from_row,
)
from bot.store.tx import Tx


class Seats(Part):
    """`db.seats`: seat holders of games."""

    async def add_seat(self, game_id: int, seat: int, *, user_id: int | None,
                       display_name: str) -> Seat:
        """Seat a person (`user_id`) or a bot (`user_id=None`) in the lobby. Raises
        `SeatTaken`, `AlreadySeated` or `WrongStatus` (the game has started)."""
        check_int(seat, "seat", minimum=0)
        check_opt_int(user_id, "user_id")
        check_name(display_name, "display name")
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.LOBBY)
            await _check_free(tx, game_id, seat, user_id)
            return await insert_seat(tx, game_id, seat, user_id, display_name, 0,
                                     self._db.now())

    async def take_seat(self, game_id: int, players: int, *, user_id: int | None,
                        display_name: str, bot_level: str | None = None) -> Seat:
        """Seat a person (or a bot, `user_id=None`, of `bot_level` if given) in the lobby's
        first free seat of a `players`-seat table. The seat is chosen inside the
        transaction, so people joining at the same moment each get one. Raises
        `AlreadySeated`, `TableFull` or `WrongStatus` (the game has started). The game's
        bettor is refused in the same transaction (`AlreadySeated`), so a Join and a Bet
        pressed together give one place."""
        check_int(players, "players", minimum=1)
        check_opt_int(user_id, "user_id")
        check_name(display_name, "display name")
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.LOBBY)
            await _check_unseated(tx, game_id, user_id)
            if user_id is not None and await tx.fetchone(
                    "SELECT 1 FROM game_bettors WHERE game_id = ? AND user_id = ?",
                    (game_id, user_id)) is not None:
                raise AlreadySeated("You're this table's bettor. Leave the bet first to take "
                                    "a seat.")
            free = await free_seats(tx, game_id, players)
            if not free:
                raise TableFull("This table is full. Start a new one with /mj new.")
            return await insert_seat(tx, game_id, free[0], user_id, display_name, 0,
                                     self._db.now(), bot_level)

    async def remove_seat(self, game_id: int, seat: int) -> Seat:
        """Empty a seat in the lobby; returns who left. Raises `SeatEmpty` or `WrongStatus`."""
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.LOBBY)
            holder = await _holder(tx, game_id, seat)
            await tx.execute("DELETE FROM seats WHERE game_id = ? AND seat = ? "
                             "AND left_at IS NULL", (game_id, seat))
            return holder

    async def replace_seat(self, game_id: int, seat: int, *, user_id: int | None,
                           display_name: str, bot_level: str | None = None) -> Seat:
        """Hand a held seat to someone else (or a bot, of `bot_level` if given) during play;
        the old holder's row is kept. Returns the new holder. Raises `SeatEmpty`,
        `AlreadySeated` or `WrongStatus`."""
        check_opt_int(user_id, "user_id")
        check_name(display_name, "display name")
        now = self._db.now()
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.PLAYING)
            old = await _holder(tx, game_id, seat)
            if user_id is not None and user_id == old.user_id:
                raise AlreadySeated("You already hold that seat.")
            await tx.execute("UPDATE seats SET left_at = ? WHERE game_id = ? AND seat = ? "
                             "AND left_at IS NULL", (now, game_id, seat))
            await _check_free(tx, game_id, seat, user_id)
            return await insert_seat(tx, game_id, seat, user_id, display_name,
                                     await log_length(tx, game_id), now, bot_level)

    async def record_reclaim(self, game_id: int, seat: int, user_id: int) -> int:
        """Note that the seat's holder (`user_id`) took it back from its stand-in now (a
        game in play); returns the log length it was taken back at, from which its timeouts
        in a row count again. Raises `SeatEmpty` or `WrongStatus`, and `AlreadySeated` if
        `user_id` does not hold the seat."""
        check_int(user_id, "user_id")
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.PLAYING)
            holder = await _holder(tx, game_id, seat)
            if holder.user_id != user_id:
                raise AlreadySeated("Only the seat's own player can take it back.")
            at_seq = await log_length(tx, game_id)
            await tx.execute(
                "INSERT INTO seat_reclaims (game_id, seat, at_seq, user_id, at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, seat, at_seq, user_id, self._db.now()))
            return at_seq

    async def reclaims(self, game_id: int) -> dict[int, int]:
        """The log length at which each seat was last taken back from a stand-in, by seat
        (seats never taken back are missing)."""
        async with self._db.read() as tx:
            await fetch_game(tx, game_id)
            rows = await tx.fetchall(
                "SELECT seat, max(at_seq) AS at_seq FROM seat_reclaims WHERE game_id = ? "
                "GROUP BY seat", (game_id,))
        return {int(row["seat"]): int(row["at_seq"]) for row in rows}

    async def seats(self, game_id: int) -> list[Seat]:
        """Who holds each seat now, by seat."""
        async with self._db.read() as tx:
            await fetch_game(tx, game_id)
            rows = await tx.fetchall(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? AND left_at IS NULL "
                "ORDER BY seat", (game_id,))
        return [seat_from_row(row) for row in rows]

    async def games_in_play(self, user_id: int) -> list[int]:
        """The games in play where `user_id` holds a seat now, by id (whichever process
        holds them in memory)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT DISTINCT s.game_id AS game_id FROM seats AS s JOIN games AS g "
                "ON g.id = s.game_id WHERE s.user_id = ? AND s.left_at IS NULL "
                "AND g.status = ? ORDER BY s.game_id",
                (check_int(user_id, "user_id"), GameStatus.PLAYING.value))
        return [int(row["game_id"]) for row in rows]

    async def seat_history(self, game_id: int) -> list[Seat]:
        """Every holding of every seat, in the order they began."""
        async with self._db.read() as tx:
            await fetch_game(tx, game_id)
            rows = await tx.fetchall(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY id", (game_id,))
        return [seat_from_row(row) for row in rows]

    async def set_dm_closed(self, game_id: int, seat: int, closed: bool) -> Seat:
        """Remember that the seat's holder does (or no longer does) refuse DMs, so the table
        offers the "My rack" button instead of failing to send."""
        async with self._db.transaction() as tx:
            await fetch_game(tx, game_id)
            await _holder(tx, game_id, seat)
            await tx.execute("UPDATE seats SET dm_closed = ? WHERE game_id = ? AND seat = ? "
                             "AND left_at IS NULL", (int(closed), game_id, seat))
            return await _holder(tx, game_id, seat)

    async def set_options(self, game_id: int, seat: int, options: str) -> None:
        """Keep the options (JSON, written by the table layer) of the seat's current holder;
        a later holder of the seat starts without them. Raises `SeatEmpty`."""
        check_json(options, "seat options")
        async with self._db.transaction() as tx:
            await fetch_game(tx, game_id)
            await _holder(tx, game_id, seat)
            await tx.execute(
                "INSERT INTO seat_options (seat_id, options) SELECT id, ? FROM seats "
                "WHERE game_id = ? AND seat = ? AND left_at IS NULL "
                "ON CONFLICT (seat_id) DO UPDATE SET options = excluded.options",
                (options, game_id, seat))

    async def options(self, game_id: int) -> dict[int, str]:
        """The options kept for the current holders of a game's seats, by seat (a seat
        whose holder has none kept is left out)."""
        async with self._db.read() as tx:
            await fetch_game(tx, game_id)
            rows = await tx.fetchall(
                "SELECT seats.seat, seat_options.options FROM seats JOIN seat_options "
                "ON seat_options.seat_id = seats.id "
                "WHERE seats.game_id = ? AND seats.left_at IS NULL", (game_id,))
        return {int(row["seat"]): str(row["options"]) for row in rows}

    async def bot_levels(self, game_id: int, *, first: bool = False) -> dict[int, str]:
        """The levels of the bots holding a game's seats now (with `first`, of the bots that
        first held each seat, who sat down at the start), by seat. A bot seated without a
        level (before levels existed) is left out, as is every person."""
        holders = ("seats.left_at IS NULL" if not first else
                   "seats.id IN (SELECT min(id) FROM seats WHERE game_id = ? GROUP BY seat)")
        async with self._db.read() as tx:
            await fetch_game(tx, game_id)
            rows = await tx.fetchall(
                "SELECT seats.seat, seat_bot_levels.level FROM seats JOIN seat_bot_levels "
                "ON seat_bot_levels.seat_id = seats.id "
                f"WHERE seats.game_id = ? AND {holders}",
                (game_id, game_id) if first else (game_id,))
        return {int(row["seat"]): str(row["level"]) for row in rows}


async def _holder(tx: Tx, game_id: int, seat: int) -> Seat:
    row = await tx.fetchone(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ? AND left_at IS NULL",
        (game_id, check_int(seat, "seat", minimum=0)))
    if row is None:
        raise SeatEmpty("That seat is empty. Pick a seat someone is sitting in.")
    return seat_from_row(row)


async def _check_free(tx: Tx, game_id: int, seat: int, user_id: int | None) -> None:
    taken = await tx.fetchone(
        "SELECT display_name FROM seats WHERE game_id = ? AND seat = ? AND left_at IS NULL",
        (game_id, seat))
    if taken is not None:
        raise SeatTaken(f"{taken['display_name']} already has that seat. Pick another one.")
    await _check_unseated(tx, game_id, user_id)


async def _check_unseated(tx: Tx, game_id: int, user_id: int | None) -> None:
    if user_id is not None:
        mine = await tx.fetchone(
            "SELECT seat FROM seats WHERE game_id = ? AND user_id = ? AND left_at IS NULL",
            (game_id, user_id))
        if mine is not None:
            raise AlreadySeated(
                "You already have a seat at this table. Leave it first to change seats.")


async def free_seats(tx: Tx, game_id: int, players: int) -> list[int]:
    """The seats of a `players`-seat table nobody holds, in order."""
    rows = await tx.fetchall("SELECT seat FROM seats WHERE game_id = ? AND left_at IS NULL",
                             (game_id,))
    held = {int(row["seat"]) for row in rows}
    return [seat for seat in range(players) if seat not in held]


async def insert_seat(tx: Tx, game_id: int, seat: int, user_id: int | None, display_name: str,
                      from_seq: int, now: float, bot_level: str | None = None) -> Seat:
    """Give a seat to a person or a bot, of `bot_level` if given (inside the caller's
    transaction). Without a level, the table of bots' levels is not touched."""
    if bot_level is not None:
        if user_id is not None:
            raise ValueError("only a bot has a level")
        check_name(bot_level, "bot level")
    rowid = await tx.insert(
        "INSERT INTO seats (game_id, seat, user_id, display_name, is_bot, from_seq, joined_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, seat, user_id, display_name, int(user_id is None), from_seq, now))
    if bot_level is not None:
        await tx.execute("INSERT INTO seat_bot_levels (seat_id, level) VALUES (?, ?)",
                         (rowid, bot_level))
    row = await tx.fetchone(f"SELECT {SEAT_COLUMNS} FROM seats WHERE id = ?", (rowid,))
    assert row is not None
    return seat_from_row(row)
