"""Turning rows into the store's dataclasses, and checks shared by the API modules.

Internal to `bot.store`: the column lists here must match the SELECTs that use them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from bot.store.errors import GameNotFound, WrongStatus
from bot.store.models import (
    Action,
    CardSource,
    Clock,
    ClockKind,
    DeliveryKind,
    DeliveryState,
    Game,
    GameCard,
    GameStatus,
    OutboxEntry,
    Pace,
    PlayedFor,
    Seat,
    ServerCard,
)

if TYPE_CHECKING:
    from bot.store.database import Database
    from bot.store.tx import Row, Tx

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


class Part:
    """Base of the API topic objects (`db.games`, `db.actions`, …): they share the database."""

    def __init__(self, db: Database) -> None:
        self._db = db


# -- checks on values passed in -----------------------------------------------------------------


def check_int(value: int, what: str, *, minimum: int = INT64_MIN) -> int:
    """An int that SQLite can store (a Discord id, a seed, a seat); raises ValueError, since a
    bad value here is a bug in the caller, not a player's mistake."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an int, not {type(value).__name__}")
    if not minimum <= value <= INT64_MAX:
        raise ValueError(f"{what} must be between {minimum} and {INT64_MAX}; got {value}")
    return value


def check_opt_int(value: int | None, what: str, *, minimum: int = INT64_MIN) -> int | None:
    """`check_int`, letting None through."""
    return None if value is None else check_int(value, what, minimum=minimum)


def check_json(text: str, what: str) -> str:
    """JSON text the store keeps without reading it."""
    try:
        json.loads(text)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what} must be JSON text: {error}") from None
    return text


def check_name(text: str, what: str) -> str:
    """A non-empty single line of text (a display name, a pace name)."""
    if not isinstance(text, str) or not text.strip() or "\n" in text or "\r" in text:
        raise ValueError(f"{what} must be a non-empty single line of text")
    return text


# -- converting columns -------------------------------------------------------------------------


def opt_int(value: Any) -> int | None:
    """An INTEGER column that may be NULL."""
    return None if value is None else int(value)


def opt_float(value: Any) -> float | None:
    """A REAL column that may be NULL."""
    return None if value is None else float(value)


GAME_COLUMNS = """
    g.id, g.guild_id, g.channel_id, g.thread_id, g.lobby_message_id, g.host_user_id, g.status,
    g.rules, g.card_source, g.card_name, g.server_card_id, g.card_text, g.seed, g.pace_name,
    g.turn_seconds, g.claim_seconds, g.hints, g.created_at, g.started_at, g.finished_at
"""


#: The statuses of the games not over yet (their clocks run; a restart brings them back).
UNFINISHED = (GameStatus.LOBBY.value, GameStatus.PLAYING.value)


def game_from_row(row: Row) -> Game:
    """A `Game` from a row selected with `GAME_COLUMNS`."""
    return Game(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        thread_id=opt_int(row["thread_id"]),
        lobby_message_id=opt_int(row["lobby_message_id"]),
        host_user_id=int(row["host_user_id"]),
        status=GameStatus(row["status"]),
        rules=str(row["rules"]),
        card=GameCard(
            source=CardSource(row["card_source"]),
            name=str(row["card_name"]),
            server_card_id=opt_int(row["server_card_id"]),
            text=str(row["card_text"]),
        ),
        seed=int(row["seed"]),
        pace=Pace(str(row["pace_name"]), opt_int(row["turn_seconds"]),
                  opt_int(row["claim_seconds"])),
        hints=bool(row["hints"]),
        created_at=float(row["created_at"]),
        started_at=opt_float(row["started_at"]),
        finished_at=opt_float(row["finished_at"]),
    )


SEAT_COLUMNS = """
    game_id, seat, user_id, display_name, is_bot, dm_closed, from_seq, joined_at, left_at
"""


def seat_from_row(row: Row) -> Seat:
    """A `Seat` from a row selected with `SEAT_COLUMNS`."""
    return Seat(
        game_id=int(row["game_id"]),
        seat=int(row["seat"]),
        user_id=opt_int(row["user_id"]),
        display_name=str(row["display_name"]),
        is_bot=bool(row["is_bot"]),
        dm_closed=bool(row["dm_closed"]),
        from_seq=int(row["from_seq"]),
        joined_at=float(row["joined_at"]),
        left_at=opt_float(row["left_at"]),
    )


ACTION_COLUMNS = "game_id, seq, action, actor_user_id, created_at, played_for"


def action_from_row(row: Row) -> Action:
    """An `Action` from a row selected with `ACTION_COLUMNS`."""
    return Action(
        game_id=int(row["game_id"]),
        seq=int(row["seq"]),
        text=str(row["action"]),
        actor_user_id=opt_int(row["actor_user_id"]),
        created_at=float(row["created_at"]),
        played_for=None if row["played_for"] is None else PlayedFor(row["played_for"]),
    )


CLOCK_COLUMNS = "c.game_id, c.kind, c.seat, c.due_at, c.at_seq"


def clock_from_row(row: Row) -> Clock:
    """A `Clock` from a row selected with `CLOCK_COLUMNS`."""
    return Clock(
        game_id=int(row["game_id"]),
        kind=ClockKind(row["kind"]),
        seat=opt_int(row["seat"]),
        due_at=float(row["due_at"]),
        at_seq=int(row["at_seq"]),
    )


OUTBOX_COLUMNS = """
    id, game_id, kind, at_seq, seat, body, state, attempts, message_ids, error, created_at,
    done_at
"""


def entry_from_row(row: Row) -> OutboxEntry:
    """An `OutboxEntry` from a row selected with `OUTBOX_COLUMNS`."""
    return OutboxEntry(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        kind=DeliveryKind(row["kind"]),
        at_seq=int(row["at_seq"]),
        seat=opt_int(row["seat"]),
        body=str(row["body"]),
        state=DeliveryState(row["state"]),
        attempts=int(row["attempts"]),
        message_ids=tuple(int(i) for i in json.loads(row["message_ids"])),
        error=None if row["error"] is None else str(row["error"]),
        created_at=float(row["created_at"]),
        done_at=opt_float(row["done_at"]),
    )


CARD_COLUMNS = "id, guild_id, name, card_text, uploaded_by, uploaded_at"


def card_from_row(row: Row) -> ServerCard:
    """A `ServerCard` from a row selected with `CARD_COLUMNS`."""
    return ServerCard(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        text=str(row["card_text"]),
        uploaded_by=int(row["uploaded_by"]),
        uploaded_at=float(row["uploaded_at"]),
    )


# -- queries shared by the modules ---------------------------------------------------------------


async def fetch_game(tx: Tx, game_id: int, guild_id: int | None = None) -> Game:
    """The game with this id (on this guild, if given), or `GameNotFound`."""
    row = await tx.fetchone(f"SELECT {GAME_COLUMNS} FROM games AS g WHERE g.id = ?",
                            (check_int(game_id, "game_id"),))
    if row is None or (guild_id is not None and int(row["guild_id"]) != guild_id):
        raise GameNotFound(game_id)
    return game_from_row(row)


async def fetch_game_in(tx: Tx, game_id: int, *statuses: GameStatus) -> Game:
    """The game, which must be in one of `statuses`; otherwise a `WrongStatus` that tells the
    player where the game actually is."""
    game = await fetch_game(tx, game_id)
    if game.status not in statuses:
        raise WrongStatus(_status_message(game))
    return game


def _status_message(game: Game) -> str:
    if game.status is GameStatus.LOBBY:
        return f"Game #{game.id} hasn't started yet."
    if game.status is GameStatus.PLAYING:
        return f"Game #{game.id} has already started; follow it in its thread."
    return f"Game #{game.id} is over; start a new game to play again."


async def ensure_guild(tx: Tx, guild_id: int, now: float) -> None:
    """Create the guild's row on first use."""
    await tx.execute(
        "INSERT INTO guilds (id, created_at, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (id) DO NOTHING",
        (check_int(guild_id, "guild_id"), now, now),
    )
