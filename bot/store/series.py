"""Series of games at one table, and the bettor of a game.

A series begins when a finished game's table plays again: that game becomes game 0 and its
people (seat holders, then the bettor) are the series' people, in that order. Each next game
is a copy of the one before it (place, host, rules, card text, pace) with a new seed, the
quarters pot carried in, and the seats the caller's rotation gives. Who sits where and the
running totals follow from the stored games, so they are not stored again.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.errors import AlreadySeated, NotFound, WrongStatus
from bot.store.models import Bettor, Game, GameStatus, Person, Series
from bot.store.rows import (
    Part,
    check_int,
    check_name,
    fetch_game,
    fetch_game_in,
)
from bot.store.seats import insert_seat
from bot.store.tx import Row, Tx

_BETTOR_COLUMNS = "game_id, user_id, display_name, seat"


class SeriesNotFound(NotFound):
    """No series holds that game (or that id)."""

    code = "series_not_found"


class SeriesStore(Part):
    """`db.series`: series of games and the bettors of games."""

    async def series_of(self, game_id: int) -> Series | None:
        """The series a game belongs to, if any."""
        async with self._db.read() as tx:
            row = await tx.fetchone("SELECT series_id FROM series_games WHERE game_id = ?",
                                    (check_int(game_id, "game_id"),))
            return None if row is None else await _fetch_series(tx, int(row["series_id"]))

    async def begin(self, game_id: int, people: Sequence[Person]) -> Series:
        """The series of this finished game: the one it is in, or a new one with it as game
        0 and `people` (its seats in order, then its bettor). Raises `WrongStatus` for a game
        that is not finished."""
        for person in people:
            check_name(person.display_name, "display name")
        now = self._db.now()
        async with self._db.transaction() as tx:
            game = await fetch_game_in(tx, game_id, GameStatus.FINISHED)
            row = await tx.fetchone("SELECT series_id FROM series_games WHERE game_id = ?",
                                    (game_id,))
            if row is not None:
                return await _fetch_series(tx, int(row["series_id"]))
            series_id = await tx.insert(
                "INSERT INTO series (guild_id, host_user_id, created_at) VALUES (?, ?, ?)",
                (game.guild_id, game.host_user_id, now))
            for position, person in enumerate(people):
                await tx.execute(
                    "INSERT INTO series_people (series_id, position, user_id, display_name, "
                    "is_bot) VALUES (?, ?, ?, ?, ?)",
                    (series_id, position, person.user_id, person.display_name,
                     int(person.is_bot)))
                if person.bot_level is not None:
                    await tx.execute(
                        "INSERT INTO series_bot_levels (series_id, position, level) "
                        "VALUES (?, ?, ?)", (series_id, position, person.bot_level))
            await tx.execute(
                "INSERT INTO series_games (game_id, series_id, number) VALUES (?, ?, 0)",
                (game_id, series_id))
            return await _fetch_series(tx, series_id)

    async def add_game(self, series_id: int, after: int, *, seed: int, pot: int,
                       seats: Sequence[int], bettor: int | None) -> Game:
        """The series' next game, in the lobby: a copy of game `after` (which must be the
        series' last game, finished) with `seed`, the pot it starts with, the series'
        people `seats` (positions, East first) in its seats and person `bettor` (a position,
        or None) as its bettor, yet to choose. A second call after the same game (two
        presses of Play again) raises `WrongStatus`, as does an ended series."""
        check_int(seed, "seed")
        check_int(pot, "pot", minimum=0)
        now = self._db.now()
        async with self._db.transaction() as tx:
            series = await _fetch_series(tx, series_id)
            if series.ended_at is not None:
                raise WrongStatus("This series has ended. Start a new table with /mj new.")
            if not series.games or series.games[-1] != after:
                raise WrongStatus("The next game of this series has already begun.")
            await fetch_game_in(tx, after, GameStatus.FINISHED)
            game_id = await tx.insert(
                """INSERT INTO games (guild_id, channel_id, thread_id, host_user_id, status,
                       rules, card_source, card_name, server_card_id, card_text, seed,
                       pace_name, turn_seconds, claim_seconds, hints, created_at)
                   SELECT guild_id, channel_id, thread_id, host_user_id, ?, rules,
                       card_source, card_name, server_card_id, card_text, ?, pace_name,
                       turn_seconds, claim_seconds, hints, ?
                   FROM games WHERE id = ?""", (GameStatus.LOBBY.value, seed, now, after))
            for seat, position in enumerate(seats):
                person = series.people[position]
                await insert_seat(tx, game_id, seat, person.user_id, person.display_name, 0,
                                  now, person.bot_level)
            if bettor is not None:
                person = series.people[bettor]
                assert person.user_id is not None, "a bettor is a person"
                await _insert_bettor(tx, game_id, person.user_id, person.display_name, now)
            await tx.execute(
                "INSERT INTO series_games (game_id, series_id, number, pot) "
                "VALUES (?, ?, ?, ?)", (game_id, series_id, len(series.games), pot))
            return await fetch_game(tx, game_id)

    async def end(self, series_id: int, after: int) -> Series:
        """End a series (no more games) after game `after`, which must be its last game.
        `WrongStatus` when a later game has begun (an End series pressed on an older result
        would end a series whose next game is in play) or it has ended already (two presses
        of End series post one summary)."""
        async with self._db.transaction() as tx:
            series = await _fetch_series(tx, series_id)
            if series.ended_at is not None:
                raise WrongStatus("This series has ended. Start a new table with /mj new.")
            if series.games[-1] != after:
                raise WrongStatus("The next game of this series has already begun.")
            await tx.execute("UPDATE series SET ended_at = ? WHERE id = ?",
                             (self._db.now(), series_id))
            return await _fetch_series(tx, series_id)

    # -- the bettor of a game -------------------------------------------------------------

    async def bettor(self, game_id: int) -> Bettor | None:
        """The game's bettor, if it has one."""
        async with self._db.read() as tx:
            return await fetch_bettor(tx, game_id)

    async def add_bettor(self, game_id: int, user_id: int, display_name: str) -> Bettor:
        """A person sits by a game in the lobby as its bettor. Raises `AlreadySeated` when
        they hold a seat, `WrongStatus` when the game has started or has a bettor."""
        check_int(user_id, "user_id")
        check_name(display_name, "display name")
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.LOBBY)
            seated = await tx.fetchone(
                "SELECT 1 FROM seats WHERE game_id = ? AND user_id = ? AND left_at IS NULL",
                (game_id, user_id))
            if seated is not None:
                raise AlreadySeated("You hold a seat at this table, so you can't bet on it.")
            if await fetch_bettor(tx, game_id) is not None:
                raise WrongStatus("This table has its bettor already.")
            await _insert_bettor(tx, game_id, user_id, display_name, self._db.now())
            bettor = await fetch_bettor(tx, game_id)
        assert bettor is not None
        return bettor

    async def remove_bettor(self, game_id: int, user_id: int) -> None:
        """The bettor leaves a game in the lobby."""
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.LOBBY)
            await tx.execute("DELETE FROM game_bettors WHERE game_id = ? AND user_id = ?",
                             (game_id, user_id))

    async def set_bet(self, game_id: int, user_id: int, seat: int) -> Bettor:
        """The bettor chooses the seat to back, before the game starts (`WrongStatus`
        after); `NotFound` for anyone but the bettor."""
        check_int(seat, "seat", minimum=0)
        async with self._db.transaction() as tx:
            await fetch_game_in(tx, game_id, GameStatus.LOBBY)
            bettor = await fetch_bettor(tx, game_id)
            if bettor is None or bettor.user_id != user_id:
                raise NotFound("You're not this table's bettor.")
            await tx.execute("UPDATE game_bettors SET seat = ? WHERE game_id = ?",
                             (seat, game_id))
            chosen = await fetch_bettor(tx, game_id)
        assert chosen is not None
        return chosen


async def fetch_pot(tx: Tx, game_id: int) -> int:
    """The quarters pot a game starts with, read in `tx`: what its series carried into it
    (a game in no series starts with none)."""
    row = await tx.fetchone("SELECT pot FROM series_games WHERE game_id = ?",
                            (check_int(game_id, "game_id"),))
    return 0 if row is None else int(row["pot"])


async def fetch_bettor(tx: Tx, game_id: int) -> Bettor | None:
    """The game's bettor, read in `tx`."""
    row = await tx.fetchone(f"SELECT {_BETTOR_COLUMNS} FROM game_bettors WHERE game_id = ?",
                            (check_int(game_id, "game_id"),))
    return None if row is None else _bettor_from_row(row)


def _bettor_from_row(row: Row) -> Bettor:
    return Bettor(game_id=int(row["game_id"]), user_id=int(row["user_id"]),
                  display_name=str(row["display_name"]),
                  seat=None if row["seat"] is None else int(row["seat"]))


async def _insert_bettor(tx: Tx, game_id: int, user_id: int, display_name: str,
                         now: float) -> None:
    await tx.execute("INSERT INTO game_bettors (game_id, user_id, display_name, joined_at) "
                     "VALUES (?, ?, ?, ?)", (game_id, user_id, display_name, now))


async def _fetch_series(tx: Tx, series_id: int) -> Series:
    row = await tx.fetchone(
        "SELECT id, guild_id, host_user_id, created_at, ended_at FROM series WHERE id = ?",
        (check_int(series_id, "series_id"),))
    if row is None:
        raise SeriesNotFound("That series doesn't exist (any more).")
    people = await tx.fetchall(
        "SELECT user_id, display_name, level FROM series_people LEFT JOIN series_bot_levels "
        "USING (series_id, position) WHERE series_id = ? ORDER BY position", (series_id,))
    games = await tx.fetchall(
        "SELECT game_id FROM series_games WHERE series_id = ? ORDER BY number", (series_id,))
    return Series(
        id=int(row["id"]), guild_id=int(row["guild_id"]),
        host_user_id=int(row["host_user_id"]),
        people=tuple(Person(None if p["user_id"] is None else int(p["user_id"]),
                            str(p["display_name"]),
                            None if p["level"] is None else str(p["level"])) for p in people),
        games=tuple(int(g["game_id"]) for g in games),
        created_at=float(row["created_at"]),
        ended_at=None if row["ended_at"] is None else float(row["ended_at"]))
