"""Persistence: the only package that talks SQL.

    async with Database("jongg.db") as db:
        game = await db.games.create_game(guild_id=…, channel_id=…, host_user_id=…,
                                          rules=rules_json, card=ShippedCardChoice(name, text),
                                          seed=7, pace=Pace("normal", 120, 15), hints=True)
        await db.seats.add_seat(game.id, 0, user_id=…, display_name="Ann")
        …
        await db.games.start_game(game.id, players=4)
        seq = await db.actions.append_action(game.id, expected_seq=0, text="…", actor=…)

A game is stored as the engine defines it — rules, card, seed, players and an append-only list
of one-line actions — kept as text the store never interprets. See `database.py` for how
transactions and migrations work and `migrations/` for the schema.
"""

from bot.store.database import Database
from bot.store.errors import (
    AlreadySeated,
    BadCardUpload,
    CardNameTaken,
    CardNotFound,
    GameNotFound,
    MigrationFailed,
    NotAJonggDatabase,
    NotFound,
    SchemaTooNew,
    SeatEmpty,
    SeatTaken,
    SeqConflict,
    StoreClosed,
    StoreError,
    StoreRefusal,
    TableNotFull,
    WrongStatus,
)
from bot.store.migrate import Migration, shipped_migrations
from bot.store.models import (
    Action,
    CardChoice,
    CardSource,
    Clock,
    ClockKind,
    FinishReason,
    Game,
    GameCard,
    GameRecord,
    GameResult,
    GameStatus,
    GuildSettings,
    Outcome,
    Pace,
    Seat,
    SeatResult,
    SeatScore,
    ServerCard,
    ServerCardChoice,
    ShippedCardChoice,
)
from bot.store.tx import Tx

__all__ = [
    "Action",
    "AlreadySeated",
    "BadCardUpload",
    "CardChoice",
    "CardNameTaken",
    "CardNotFound",
    "CardSource",
    "Clock",
    "ClockKind",
    "Database",
    "FinishReason",
    "Game",
    "GameCard",
    "GameNotFound",
    "GameRecord",
    "GameResult",
    "GameStatus",
    "GuildSettings",
    "Migration",
    "MigrationFailed",
    "NotAJonggDatabase",
    "NotFound",
    "Outcome",
    "Pace",
    "SchemaTooNew",
    "Seat",
    "SeatEmpty",
    "SeatResult",
    "SeatScore",
    "SeatTaken",
    "SeqConflict",
    "ServerCard",
    "ServerCardChoice",
    "ShippedCardChoice",
    "StoreClosed",
    "StoreError",
    "StoreRefusal",
    "TableNotFull",
    "Tx",
    "WrongStatus",
    "shipped_migrations",
]
