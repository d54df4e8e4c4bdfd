"""The values the league part of the store hands out and takes in (frozen dataclasses).

A league lives in one channel; its seasons follow one another and each fixes how its games
are played. Recorded games keep each seat's counted points, placement and score breakdown.
Ratings are (mu, sigma) pairs of the Weng-Lin model; the store keeps them but the maths is
the caller's (see `RatingModel`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from bot.store.models import FinishReason

#: A skill rating as the store keeps it: (mu, sigma).
RatingPair = tuple[float, float]


class RatingModel(Protocol):
    """How ratings change after a game; `bot.league.ratings` has the Plackett-Luce model.

    The store calls it inside the transaction that records (or corrects) games, so a result
    and the ratings it moves are committed together."""

    def initial(self) -> RatingPair:
        """The rating of a player before their first game."""
        ...

    def rate(self, ratings: Sequence[RatingPair], ranks: Sequence[int]) -> list[RatingPair]:
        """New ratings for players who finished with these ranks (1 best; equal ranks tie)."""
        ...


@dataclass(frozen=True)
class League:
    """A league: its server, name and the channel whose games it records."""

    id: int
    guild_id: int
    name: str
    channel_id: int
    created_by: int
    created_at: float


class StandInGames(Enum):
    """How a season's standings count a game in which a bot played for a person (a timeout,
    or a stand-in keeping their seat): as any other, at half (every seat's counted points
    are half the table's, rounded toward zero), or not at all (recorded, not counted)."""

    COUNT = "count"
    HALF = "half"
    NONE = "none"


class SubCredit(Enum):
    """Whom a season counts a seat for that changed hands during play (`/mj sub`): the
    person who made most of the seat's own moves gets its whole result, or its counted
    points are shared among its holders in proportion to the moves each made (its
    placement, win and rating still go to the one who made most)."""

    MOST_MOVES = "most-moves"
    SHARED = "shared"


@dataclass(frozen=True)
class SeasonSettings:
    """How a season's games are played and ranked.

    `rules` is the engine's RuleSet as JSON (it holds `players` and `scoring` too);
    `min_games` is how many games a player needs to be ranked; `game_minutes` the per-game
    time limit of tournament play (None: no limit); `stand_in_games` how games a bot played
    part of for a person count; `vacation_days` the days each player may be away in the
    season, their games' clocks paused; `sub_credit` whom a seat that changed hands counts
    for."""

    name: str
    players: int
    card_name: str
    scoring: str
    rules: str
    min_games: int = 0
    game_minutes: int | None = None
    #: How standings count a game in which a bot played for a person.
    stand_in_games: StandInGames = StandInGames.COUNT
    vacation_days: int = 7
    #: Whom a seat that changed hands counts for.
    sub_credit: SubCredit = SubCredit.MOST_MOVES


@dataclass(frozen=True)
class Season:
    """One season of a league; `ended_at` is None while it is open."""

    id: int
    league_id: int
    number: int
    settings: SeasonSettings
    started_at: float
    started_by: int
    ended_at: float | None
    ended_by: int | None

    @property
    def is_open(self) -> bool:
        """True until the season is ended."""
        return self.ended_at is None


@dataclass(frozen=True)
class LeaguePlayer:
    """A player of a league, with the name they had when they joined (or first played)."""

    league_id: int
    user_id: int
    display_name: str
    registered: bool
    joined_at: float


@dataclass(frozen=True)
class SeatHolder:
    """Someone who held a seat that changed hands during play (a bot: `user_id` None),
    with how many of the seat's own moves they made (a move a timeout or a stand-in made for
    them is nobody's own). `credited`: the seat's result (placement, win, rating) is theirs.
    `points` are the counted points the season's `SubCredit` gave them (the store fills
    them in; what a caller passes is ignored)."""

    user_id: int | None
    display_name: str
    moves: int
    credited: bool = False
    points: int = 0


@dataclass(frozen=True)
class SeatDetail:
    """What the table layer knows about one seat's game beyond its points (the score
    breakdown), passed in when a game is recorded.

    `hand_id`, `section` and `hand_value` describe the seat's Mah Jongg (None without one);
    `jokerless` means the jokerless bonus was earned; `exposures` the winner's exposures
    before Mah Jongg; `threw` that this seat discarded the winning tile; `penalty` points
    lost to penalties (positive); `dead` that the seat's hand was dead."""

    seat: int
    hand_id: str | None = None
    section: str | None = None
    hand_value: int | None = None
    self_picked: bool = False
    jokerless: bool = False
    exposures: int | None = None
    threw: bool = False
    penalty: int = 0
    dead: bool = False
    #: How many of the seat's moves the table made for its person (a timeout, or a bot
    #: standing in), and how many moves the seat made in all (None: not known).
    played_for: int = 0
    moves: int | None = None
    #: Everyone who held the seat, in the order they first sat there, when it changed
    #: hands during play (empty: one holder); exactly one is `credited`.
    holders: tuple[SeatHolder, ...] = ()

    @property
    def won(self) -> bool:
        """True when the seat went Mah Jongg."""
        return self.hand_id is not None


@dataclass(frozen=True)
class LeagueSeat:
    """One seat of a recorded game: whom it counts for (who held it at the end, or, when
    it changed hands, the holder `detail.holders` marks as credited), counted and table
    points, placement and breakdown."""

    seat: int
    user_id: int | None
    display_name: str
    is_bot: bool
    points: int
    table_points: int
    placement: int
    detail: SeatDetail
    wall_game: bool

    @property
    def won(self) -> bool:
        """True when the seat went Mah Jongg."""
        return self.detail.won


@dataclass(frozen=True)
class LeagueGame:
    """A game recorded in a season. `counted` is False for a game that does not fit the
    season (then `note` says why) or that a director took out of the standings."""

    game_id: int
    season_id: int
    round_id: int | None
    table_no: int | None
    reason: FinishReason
    counted: bool
    note: str
    finished_at: float
    recorded_at: float
    seats: tuple[LeagueSeat, ...]


@dataclass(frozen=True)
class GameTarget:
    """Where a finished game belongs: its league and the season open when it finished."""

    league: League
    season: Season
    game_id: int
    finished_at: float


@dataclass(frozen=True)
class PlayerTotals:
    """One player's season, summed by SQL: what standings are ranked from.

    `mu` and `sigma` are None for a player with no rated game."""

    user_id: int
    display_name: str
    games: int
    wins: int
    points: int
    mu: float | None
    sigma: float | None


@dataclass(frozen=True)
class HandCount:
    """A hand and how many times it was won."""

    hand_id: str
    section: str | None
    wins: int


@dataclass(frozen=True)
class HeadToHead:
    """A player's record against one opponent: games together and who placed higher."""

    user_id: int
    display_name: str
    games: int
    ahead: int
    behind: int
    level: int


@dataclass(frozen=True)
class PlayerStats:
    """One player's season in detail."""

    user_id: int
    display_name: str
    games: int
    wins: int
    self_picks: int
    jokerless_wins: int
    threw: int
    dead: int
    wall_games: int
    points: int
    best_game: int | None
    favourite_hands: tuple[HandCount, ...]
    head_to_head: tuple[HeadToHead, ...]
    mu: float | None
    sigma: float | None
    #: Of every game recorded for the player (counted or not): in how many a bot played
    #: for them, how many of their moves it played, and how many moves they had in those.
    stand_in_games: int = 0
    played_for: int = 0
    stand_in_moves: int = 0


@dataclass(frozen=True)
class SeasonSummary:
    """A season in a league's history: games recorded and counted, and who leads it."""

    season: Season
    games: int
    leader_id: int | None
    leader_name: str | None
    leader_points: int | None


@dataclass(frozen=True)
class AuditEntry:
    """One thing a director did: who, what, why, and the values before and after (JSON)."""

    id: int
    league_id: int
    season_id: int | None
    game_id: int | None
    actor_user_id: int
    action: str
    reason: str
    before: str
    after: str
    at: float


@dataclass(frozen=True)
class RoundTable:
    """One table of a tournament round: its number and the players, East first."""

    table_no: int
    user_ids: tuple[int, ...]


@dataclass(frozen=True)
class Round:
    """A tournament round of a season and its tables."""

    id: int
    season_id: int
    number: int
    seed: int
    started_at: float
    started_by: int
    tables: tuple[RoundTable, ...]


@dataclass(frozen=True)
class RoundScore:
    """A player's total over their table's games in a round."""

    table_no: int
    user_id: int
    display_name: str
    games: int
    points: int


@dataclass(frozen=True)
class ExportRow:
    """One seat of one recorded game, flat, as the CSV export writes it; or, with `share`,
    someone else who held a seat that changed hands (not the one it counts for): their
    points are their share of the seat's, their moves the seat's own moves they made, and
    the rest is the seat's (its game, table points and place) without its win and hand.
    A share is not a game."""

    season: int
    game_id: int
    finished_at: float
    reason: str
    counted: bool
    round: int | None
    table_no: int | None
    seat: int
    user_id: int | None
    display_name: str
    is_bot: bool
    points: int
    table_points: int
    placement: int
    won: bool
    hand_id: str | None
    section: str | None
    hand_value: int | None
    self_picked: bool
    jokerless: bool
    exposures: int | None
    threw: bool
    penalty: int
    wall_game: bool
    dead: bool
    played_for: int
    moves: int | None
    share: bool = False
