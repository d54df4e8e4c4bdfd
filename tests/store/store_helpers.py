"""Helpers for the store tests: a clock the tests move, a game ready to play, and a count of
the transactions a block begins."""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any

from bot.store import Database, Game, Pace, ShippedCardChoice

RULES = json.dumps({"name": "standard", "players": 4})
CARD_TEXT = "# a tiny card for the store tests\nhand 1: FFFF 2026 222 222\n"

class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


async def new_game(db: Database, *, guild_id: int = 111, players: int = 4,
                   start: bool = True, seed: int = 7, first_user: int = 1000) -> Game:
    """A game with `players` people seated (user ids first_user, first_user+1, …), started
    unless `start` is False."""
    game = await db.games.create_game(
        guild_id=guild_id, channel_id=222, host_user_id=first_user, rules=RULES,
        card=ShippedCardChoice("sample-2026", CARD_TEXT), seed=seed,
        pace=Pace("normal", turn_seconds=120, claim_seconds=15), hints=True)
    for seat in range(players):
        await db.seats.add_seat(game.id, seat, user_id=first_user + seat,
                                display_name=f"Player {seat}")
    if start:
        game = await db.games.start_game(game.id, players)
    return game


class Transactions:
    """Counts the write transactions `db` begins inside a `with` block (`count`)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.count = 0
        self._begin = db.transaction

    def __enter__(self) -> Transactions:
        def counted() -> Any:
            self.count += 1
            return self._begin()

        self.db.transaction = counted  # type: ignore[method-assign]
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.db.transaction = self._begin  # type: ignore[method-assign]
