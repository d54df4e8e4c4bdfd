"""Series of games at one table: the rotation of seats and the bettor, Play again, running
totals, and the end of a series. Both front ends (Discord and the terminal) use this.

The standard rules pass the deal to the right after every game: the player who sat South
becomes East and everyone moves one wind. With a fifth person the bettor's place rotates
with the seats: the people stand in a ring (the first game's East, South, West, North, then
its bettor) and each game the ring turns by one, so the old East sits out as the bettor, the
old bettor comes back as North and the rest move one wind. A league's tables keep the seats
its rounds give them, so a game in a league's channel has no Play again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.engine.errors import IllegalAction
from bot.store import Database, Game, GameStatus, Person, Series
from bot.tables.options import read_table_options


@dataclass(frozen=True)
class Seating:
    """Who sits where in one game of a series, as positions in the series' people: `seats`
    East first, and `bettor` (None without a fifth person)."""

    seats: tuple[int, ...]
    bettor: int | None


def seating(people: int, players: int, number: int) -> Seating:
    """The seats of game `number` (0 for the first) of a series of `people` at a table of
    `players`: the ring of people turned `number` places (see the module docstring)."""
    if not players <= people <= players + 1:
        raise ValueError("a series seats its players and at most one bettor")
    seats = tuple((seat + number) % people for seat in range(players))
    return Seating(seats, (players + number) % people if people > players else None)


@dataclass(frozen=True)
class Settled:
    """What one person settled in one game, as a player or (`bettor`) as the bettor."""

    amount: int
    bettor: bool = False


@dataclass(frozen=True)
class SeriesTotals:
    """A series so far: its people, and per finished game what each person settled (None:
    no part in it, a game aborted). `ended` once the host ended it."""

    series_id: int
    people: tuple[Person, ...]
    rounds: tuple[tuple[Settled | None, ...], ...]
    ended: bool

    @property
    def games(self) -> int:
        """How many games the series has finished."""
        return len(self.rounds)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each person's running total: the sum of what they settled."""
        return tuple(sum(cell.amount for row in self.rounds if (cell := row[person]))
                     for person in range(len(self.people)))


async def people_of(db: Database, game: Game) -> tuple[Person, ...]:
    """A game's people in series order: who held each seat at the start (a bot with its
    level, so the next game seats the same bot), then its bettor."""
    rules = read_table_options(game.rules).rules
    levels = await db.seats.bot_levels(game.id, first=True)
    first: dict[int, Person] = {}
    for holder in await db.seats.seat_history(game.id):
        first.setdefault(holder.seat, Person(holder.user_id, holder.display_name,
                                             levels.get(holder.seat)))
    people = [first[seat] for seat in range(rules.players)]
    bettor = await db.series.bettor(game.id)
    if bettor is not None:
        people.append(Person(bettor.user_id, bettor.display_name))
    return tuple(people)


#: A game's settlement per seat and the bettor's (None: no bettor).
Settlement = tuple[tuple[int, ...], int | None]


async def totals(db: Database, series: Series, *, through: int | None = None,
                 last: Settlement | None = None) -> SeriesTotals:
    """The running totals of a series from its stored results: of every game, or of the
    games up to `through`, whose settlement may be given as `last` (a game just over, whose
    result the store may not hold yet)."""
    rounds: list[tuple[Settled | None, ...]] = []
    for number, game_id in enumerate(series.games):
        settled = last if game_id == through and last is not None else await _settled(
            db, game_id)
        if settled is not None:
            game = await db.games.game(game_id)
            rules = read_table_options(game.rules).rules
            placed = seating(len(series.people), rules.players, number)
            row: list[Settled | None] = [None] * len(series.people)
            for seat, amount in enumerate(settled[0]):
                row[placed.seats[seat]] = Settled(amount)
            if placed.bettor is not None and settled[1] is not None:
                row[placed.bettor] = Settled(settled[1], bettor=True)
            rounds.append(tuple(row))
        if game_id == through:
            break
    return SeriesTotals(series.id, series.people, tuple(rounds), series.ended_at is not None)


async def _settled(db: Database, game_id: int) -> Settlement | None:
    """A stored game's settlement, or None while it has none (unfinished, aborted)."""
    result = await db.games.result(game_id)
    if result is None or not result.seats:
        return None
    seats = tuple(int(json.loads(seat.breakdown)["settlement"]) for seat in result.seats)
    bettor = json.loads(result.details).get("bettor")
    return seats, None if bettor is None else int(bettor)


async def series_totals(db: Database, game_id: int,
                        last: Settlement | None = None) -> SeriesTotals | None:
    """The running totals of the series a game belongs to, through that game (whose
    settlement may be given as `last`), or None when it is in no series."""
    series = await db.series.series_of(game_id)
    return None if series is None else await totals(db, series, through=game_id, last=last)


async def league_table(db: Database, game: Game) -> bool:
    """Whether the game was played at a league's table (in its channel), which keeps the
    seats the league's rounds give it."""
    return await db.leagues.league_in_channel(game.guild_id, game.channel_id) is not None


async def may_play_again(db: Database, game: Game) -> str | None:
    """Why this game's table may not play again (a message for a player), or None."""
    if game.status is not GameStatus.FINISHED:
        return "Play again is for a game that has finished."
    if await league_table(db, game):
        return ("This is a league table: the league seats its own games. Ask a director for "
                "the next round.")
    series = await db.series.series_of(game.id)
    if series is not None and series.ended_at is not None:
        return "This series has ended. Start a new table with /mj new."
    if series is not None and series.games[-1] != game.id:
        return "The next game of this series has already begun."
    return None


async def next_game(db: Database, game_id: int, by_user: int, seed: int) -> Game:
    """The next game of the series of finished game `game_id` (beginning the series if it is
    the first), in the lobby with its seats rotated, the pot carried in, and its bettor (if
    any) yet to choose. Only the host may ask; the table layer starts it."""
    game = await db.games.game(game_id)
    if game.host_user_id != by_user:
        raise IllegalAction("Only the table's host can start the next game. It's on its way "
                            "when they press Play again.")
    refusal = await may_play_again(db, game)
    if refusal is not None:
        raise IllegalAction(refusal)
    series = await db.series.begin(game_id, await people_of(db, game))
    rules = read_table_options(game.rules).rules
    placed = seating(len(series.people), rules.players, len(series.games))
    bettor = placed.bettor
    if bettor is not None and series.people[bettor].is_bot:
        bettor = None  # a bot whose turn it is to sit out just sits out: bots don't bet
    result = await db.games.result(game_id)
    pot = 0
    if rules.quarters_pot and result is not None:
        pot = int(json.loads(result.details).get("pot", 0))
    return await db.series.add_game(series.id, game_id, seed=seed, pot=pot,
                                    seats=placed.seats, bettor=bettor)


async def end_series(db: Database, game_id: int, by_user: int) -> SeriesTotals:
    """The host ends the series of a finished game, its last (a game played alone becomes a
    series of one, so it has a summary too); returns its totals."""
    game = await db.games.game(game_id)
    if game.host_user_id != by_user:
        raise IllegalAction("Only the table's host can end the series.")
    series = await db.series.series_of(game_id)
    if series is None:
        series = await db.series.begin(game_id, await people_of(db, game))
    return await totals(db, await db.series.end(series.id, game_id))
