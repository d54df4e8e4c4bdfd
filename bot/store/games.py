"""Games: creating them, finding them, their life from lobby to result.

A game row holds everything needed, with its action log, to rebuild the game exactly: the
rules as JSON text, a snapshot of the card text (so editing or deleting a server card never
changes a game), the seed and the pace. Statuses only move forward:
lobby → playing → finished, and lobby or playing → aborted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.store.actions import fetch_actions
from bot.store.cards import fetch_card
from bot.store.clocks import fetch_clocks, stop_clocks
from bot.store.errors import GameNotFound, TableNotFull
from bot.store.models import (
    CardChoice,
    CardSource,
    FinishReason,
    Game,
    GameRecord,
    GameResult,
    GameStatus,
    NewDelivery,
    Outcome,
    Pace,
    Revision,
    SeatResult,
    ShippedCardChoice,
)
from bot.store.outbox import check_deliveries, insert_deliveries
from bot.store.rows import (
    GAME_COLUMNS,
    SEAT_COLUMNS,
    UNFINISHED,
    Part,
    check_int,
    check_json,
    check_name,
    check_opt_int,
    ensure_guild,
    fetch_game,
    fetch_game_in,
    game_from_row,
    opt_int,
    seat_from_row,
)
from bot.store.seats import free_seats, insert_seat
from bot.store.series import fetch_bettor, fetch_pot

if TYPE_CHECKING:
    from bot.store.tx import Tx

class Games(Part):
    """`db.games`: games and their results."""

    async def create_game(self, *, guild_id: int, channel_id: int, host_user_id: int,
                          rules: str, card: CardChoice, seed: int, pace: Pace, hints: bool,
                          thread_id: int | None = None,
                          lobby_message_id: int | None = None) -> Game:
        """A new game in the lobby. `rules` is the RuleSet options as JSON text. A server
        card must belong to `guild_id` (else `CardNotFound`); its current text is copied into
        the game."""
        check_json(rules, "rules")
        check_int(seed, "seed")
        check_name(pace.name, "pace name")
        now = self._db.now()
        async with self._db.transaction() as tx:
            await ensure_guild(tx, guild_id, now)
            if isinstance(card, ShippedCardChoice):
                source, name, card_id, text = CardSource.SHIPPED, card.name, None, card.text
                check_name(name, "card name")
            else:
                own = await fetch_card(tx, guild_id, card.card_id)
                source, name, card_id, text = CardSource.SERVER, own.name, own.id, own.text
            game_id = await tx.insert(
                """INSERT INTO games (guild_id, channel_id, thread_id, lobby_message_id,
                       host_user_id, status, rules, card_source, card_name, server_card_id,
                       card_text, seed, pace_name, turn_seconds, claim_seconds, hints,
                       created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (guild_id, check_int(channel_id, "channel_id"),
                 check_opt_int(thread_id, "thread_id"),
                 check_opt_int(lobby_message_id, "lobby_message_id"),
                 check_int(host_user_id, "host_user_id"), GameStatus.LOBBY.value, rules,
                 source.value, name, card_id, text, seed, pace.name, pace.turn_seconds,
                 pace.claim_seconds, int(hints), now),
            )
            return await fetch_game(tx, game_id)

    async def game(self, game_id: int, *, guild_id: int | None = None) -> Game:
        """The game with this id, or `GameNotFound`. Pass `guild_id` when the id came from a
        player (a button, a command) so a game of another server is "not found"."""
        async with self._db.read() as tx:
            return await fetch_game(tx, game_id, guild_id)

    async def revision(self, game_id: int) -> Revision:
        """The game's revision: counted up by the database whenever something the game is
        rebuilt from changes (its triggers), so a process holding the game in memory can
        tell whether anyone changed it since, and whether only its log and clocks did.
        Raises `GameNotFound`."""
        async with self._db.read() as tx:
            row = await tx.fetchone("SELECT revision, setup_revision FROM games WHERE id = ?",
                                    (check_int(game_id, "game_id"),))
        if row is None:
            raise GameNotFound(game_id)
        return Revision(int(row["revision"]), int(row["setup_revision"]))

    async def game_by_thread(self, thread_id: int) -> Game | None:
        """The most recent game played in this Discord thread, if any."""
        async with self._db.read() as tx:
            row = await tx.fetchone(
                f"SELECT {GAME_COLUMNS} FROM games AS g WHERE g.thread_id = ? "
                "ORDER BY g.id DESC LIMIT 1", (check_int(thread_id, "thread_id"),))
        return None if row is None else game_from_row(row)

    async def unfinished_games(self) -> list[Game]:
        """Every game in the lobby or playing, oldest first: what to rebuild on start."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {GAME_COLUMNS} FROM games AS g WHERE g.status IN (?, ?) ORDER BY g.id",
                UNFINISHED)
        return [game_from_row(row) for row in rows]

    async def load_game(self, game_id: int) -> GameRecord:
        """The game with its current seats, seat history, whole action log, clocks, the
        pot it started with and its bettor, all read from one snapshot."""
        async with self._db.read() as tx:
            game = await fetch_game(tx, game_id)
            seat_rows = await tx.fetchall(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY id", (game_id,))
            actions = await fetch_actions(tx, game_id)
            clocks = await fetch_clocks(tx, game_id)
            bettor = await fetch_bettor(tx, game_id)
            pot = await fetch_pot(tx, game_id)
        history = tuple(seat_from_row(row) for row in seat_rows)
        return GameRecord(
            game=game,
            seats=tuple(sorted((s for s in history if s.left_at is None), key=lambda s: s.seat)),
            history=history,
            actions=tuple(actions),
            clocks=tuple(clocks),
            pot=pot,
            bettor=bettor,
        )

    async def set_thread(self, game_id: int, thread_id: int | None) -> Game:
        """Record the Discord thread the game is played in."""
        return await self._set_column(game_id, "thread_id", check_opt_int(thread_id, "thread_id"))

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> Game:
        """Record the message that shows the lobby (to edit it as people join)."""
        return await self._set_column(game_id, "lobby_message_id",
                                      check_opt_int(message_id, "message_id"))

    async def _set_column(self, game_id: int, column: str, value: int | None) -> Game:
        async with self._db.transaction() as tx:
            await fetch_game(tx, game_id)
            await tx.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
            return await fetch_game(tx, game_id)

    async def start_game(self, game_id: int, players: int, *,
                         bot_name: Callable[[int], str] | None = None,
                         bot_level: str | None = None) -> Game:
        """Move a game from the lobby to play. Seats 0 … players-1 must all be held (else
        `TableNotFull`) and no other seat may be. With `bot_name`, empty seats are first
        given to bots (named by their number among the table's bots, of `bot_level` if
        given) in the same transaction, so a second Start finds the game started
        (`WrongStatus`), never a half-filled table."""
        check_int(players, "players", minimum=1)
        now = self._db.now()
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.LOBBY)
            if bot_name is not None:
                bots = await tx.fetchone(
                    "SELECT count(*) AS n FROM seats WHERE game_id = ? AND is_bot = 1 "
                    "AND left_at IS NULL", (game_id,))
                number = 0 if bots is None else int(bots["n"])
                for seat in await free_seats(tx, game_id, players):
                    number += 1
                    await insert_seat(tx, game_id, seat, None, bot_name(number), 0, now,
                                      bot_level)
            rows = await tx.fetchall(
                "SELECT seat FROM seats WHERE game_id = ? AND left_at IS NULL ORDER BY seat",
                (game_id,))
            held = [int(row["seat"]) for row in rows]
            if held != list(range(players)):
                raise TableNotFull(
                    f"The table needs {players} players and has {len(held)}. "
                    "Wait for more to join, or fill the empty seats with bots."
                    if len(held) < players else
                    f"The seats don't match a {players}-player table; ask the host to check "
                    "who is sitting where."
                )
            await tx.execute(
                "UPDATE games SET status = ?, started_at = ? WHERE id = ?",
                (GameStatus.PLAYING.value, now, game_id))
            return await fetch_game(tx, game_id)

    async def finish_game(self, game_id: int, outcome: Outcome, *,
                          outbox: Sequence[NewDelivery] = ()) -> GameResult:
        """End a game with its result: `FINISHED`, or `ABORTED` when the reason is `ABORT`.

        Each scored seat (and the winner) must be held; the result records who held it. The
        game's clocks are removed and `outbox` (what announces the end, if the moves did not)
        is added in the same transaction. Only a playing game can finish; a lobby can only be
        aborted. A second finish raises `WrongStatus`."""
        check_deliveries(outbox)
        for score in outcome.scores:
            check_json(score.breakdown, "breakdown")
            check_int(score.points, "points")
        check_json(outcome.details, "details")
        aborting = outcome.reason is FinishReason.ABORT
        allowed = (GameStatus.LOBBY, GameStatus.PLAYING) if aborting else (GameStatus.PLAYING,)
        now = self._db.now()
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, *allowed)
            rows = await tx.fetchall(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? AND left_at IS NULL",
                (game_id,))
            holders = {seat.seat: seat for seat in map(seat_from_row, rows)}
            wanted = [score.seat for score in outcome.scores]
            if outcome.winner_seat is not None:
                wanted.append(outcome.winner_seat)
            missing = sorted(set(wanted) - holders.keys())
            if missing:
                raise ValueError(f"game {game_id} has nobody in seats {missing}")
            await tx.execute(
                "INSERT INTO results (game_id, reason, winner_seat, details, recorded_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, outcome.reason.value, outcome.winner_seat, outcome.details, now))
            for score in outcome.scores:
                holder = holders[score.seat]
                await tx.execute(
                    "INSERT INTO result_seats (game_id, seat, user_id, display_name, is_bot, "
                    "points, breakdown) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, score.seat, holder.user_id, holder.display_name,
                     int(holder.is_bot), score.points, score.breakdown))
            status = GameStatus.ABORTED if aborting else GameStatus.FINISHED
            await tx.execute("UPDATE games SET status = ?, finished_at = ? WHERE id = ?",
                             (status.value, now, game_id))
            await stop_clocks(tx, game_id)
            await insert_deliveries(tx, [(game_id, d) for d in outbox], now)
            result = await _fetch_result(tx, game_id)
        assert result is not None
        return result

    async def abort_game(self, game_id: int, details: str = "{}") -> GameResult:
        """Call a game off (from the lobby or during play) with no points for anyone."""
        return await self.finish_game(game_id, Outcome(FinishReason.ABORT, details=details))

    async def result(self, game_id: int) -> GameResult | None:
        """How the game ended, or None while it has not."""
        async with self._db.read() as tx:
            await fetch_game(tx, game_id)
            return await _fetch_result(tx, game_id)

    async def games_of_guild(self, guild_id: int, *, limit: int = 50) -> list[Game]:
        """The server's most recent games, newest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {GAME_COLUMNS} FROM games AS g WHERE g.guild_id = ? "
                "ORDER BY g.id DESC LIMIT ?",
                (check_int(guild_id, "guild_id"), check_int(limit, "limit", minimum=1)))
        return [game_from_row(row) for row in rows]


async def _fetch_result(tx: Tx, game_id: int) -> GameResult | None:
    row = await tx.fetchone(
        "SELECT reason, winner_seat, details, recorded_at FROM results WHERE game_id = ?",
        (game_id,))
    if row is None:
        return None
    seat_rows = await tx.fetchall(
        "SELECT seat, user_id, display_name, is_bot, points, breakdown FROM result_seats "
        "WHERE game_id = ? ORDER BY seat", (game_id,))
    return GameResult(
        game_id=game_id,
        reason=FinishReason(row["reason"]),
        winner_seat=opt_int(row["winner_seat"]),
        details=str(row["details"]),
        seats=tuple(
            SeatResult(seat=int(r["seat"]), user_id=opt_int(r["user_id"]),
                       display_name=str(r["display_name"]), is_bot=bool(r["is_bot"]),
                       points=int(r["points"]), breakdown=str(r["breakdown"]))
            for r in seat_rows
        ),
        recorded_at=float(row["recorded_at"]),
    )

