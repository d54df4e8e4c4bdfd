"""The values the store hands out and takes in: frozen dataclasses and enums, never raw rows.

The store keeps the engine's data as text it does not interpret: the RuleSet options as JSON,
the card file, each action as one line. Times are UTC epoch seconds (floats). Discord ids are
plain ints (snowflakes fit SQLite's 64-bit integers).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class GameStatus(Enum):
    """Where a game is in its life. `LOBBY` and `PLAYING` are unfinished: they come back after
    a restart. `FINISHED` and `ABORTED` are final."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"

    @property
    def is_over(self) -> bool:
        """True once nothing more can happen in the game."""
        return self in (GameStatus.FINISHED, GameStatus.ABORTED)


class CardSource(Enum):
    """Where a game's card came from: a card shipped with the bot, or a server's own card."""

    SHIPPED = "shipped"
    SERVER = "server"


class ClockKind(Enum):
    """What a clock is for: a seat's turn, the claim window after a discard, a nudge, a
    league game's tournament time limit, the moves seats' options play for them, the nudge
    at the start of a turn, the one when time is nearly up, or a seat holder's vacation
    beginning or ending, when the table is told."""

    TURN = "turn"
    CLAIM = "claim"
    REMINDER = "reminder"
    GAME_LIMIT = "game_limit"
    AUTO = "auto"
    START_REMINDER = "start_reminder"
    NEARLY_UP_REMINDER = "nearly_up_reminder"
    AWAY = "away"


class FinishReason(Enum):
    """Why a game ended. `ABORT` games end in the `ABORTED` status, the rest in `FINISHED`."""

    MAHJONG = "mahjong"
    WALL = "wall"
    ABORT = "abort"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Pace:
    """How fast a table plays: a name the table layer chooses, and the clock lengths it uses
    (None means that clock is off)."""

    name: str
    turn_seconds: int | None = None
    claim_seconds: int | None = None

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a pace needs a name")
        for seconds in (self.turn_seconds, self.claim_seconds):
            if seconds is not None and seconds <= 0:
                raise ValueError("clock lengths are positive numbers of seconds")


# -- choosing a card for a new game ---------------------------------------------------------------


@dataclass(frozen=True)
class ShippedCardChoice:
    """Play a card that ships with the bot. The caller passes the file's text, which the game
    keeps as its snapshot."""

    name: str
    text: str


@dataclass(frozen=True)
class ServerCardChoice:
    """Play one of the server's own cards; the store copies its text into the game so later
    edits or deletion of the card never change the game."""

    card_id: int


CardChoice = ShippedCardChoice | ServerCardChoice


# -- rows ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameCard:
    """The card a game is played with: where it came from and the exact text used.

    `server_card_id` is None for shipped cards, and also once a server card is deleted
    (the game still has `text`)."""

    source: CardSource
    name: str
    server_card_id: int | None
    text: str


@dataclass(frozen=True)
class Game:
    """One game: where it lives on Discord, who hosts it, how it is played and its status.

    `rules` is the RuleSet options as JSON text, `seed` the engine's seed; with the card text
    and the action log (and, in a series, the pot and the bet: see `GameRecord`) they
    rebuild the game exactly."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    host_user_id: int
    status: GameStatus
    rules: str
    card: GameCard
    seed: int
    pace: Pace
    hints: bool
    created_at: float
    started_at: float | None
    finished_at: float | None


@dataclass(frozen=True)
class Seat:
    """One person's (or bot's) time holding a seat.

    A seat can change hands during play; each holder gets a row. The holder took over when the
    log held `from_seq` actions (0 for whoever sat down before play) and `left_at` is set once
    they gave it up. `user_id` is None for a bot."""

    game_id: int
    seat: int
    user_id: int | None
    display_name: str
    is_bot: bool
    dm_closed: bool
    from_seq: int
    joined_at: float
    left_at: float | None


@dataclass(frozen=True)
class Action:
    """One entry of a game's append-only log: the engine's one-line text for the action, who
    caused it (None for a bot or a clock), when, and whether the table played it for a
    person's seat (`played_for`, None otherwise)."""

    game_id: int
    seq: int
    text: str
    actor_user_id: int | None
    created_at: float
    played_for: PlayedFor | None = None


class PlayedFor(Enum):
    """Why the table played a move for a person's seat: their clock ran out,
    or the bot keeping their seat (after too many timeouts in a row) moved."""

    TIMEOUT = "timeout"
    STAND_IN = "stand-in"


@dataclass(frozen=True)
class Clock:
    """A deadline that survives restarts.

    `seat` is None for a clock that concerns the whole table (a claim window). `at_seq` is the
    number of actions in the log when the clock was set — the `expected_seq` to pass to
    `append_action` when it runs out, so a clock overtaken by play fails with `SeqConflict`
    instead of acting twice."""

    game_id: int
    kind: ClockKind
    seat: int | None
    due_at: float
    at_seq: int


@dataclass(frozen=True)
class ClockPlan:
    """The clocks a game should have after a move: every clock of `kinds` stops, and
    `clocks` (each a kind, a seat or None for the whole table, and a due time) start, all
    tied to log length `at_seq`."""

    kinds: tuple[ClockKind, ...]
    clocks: tuple[tuple[ClockKind, int | None, float], ...]
    at_seq: int


class DeliveryKind(Enum):
    """What an outbox entry delivers: a post to the table, a seat's private update, the
    result, a reminder, the notices that the table moved to a new thread, or a note to the
    host."""

    TABLE = "table"
    SEAT = "seat"
    GAME_OVER = "game_over"
    REMINDER = "reminder"
    MOVED = "moved"
    HOST = "host"


class DeliveryState(Enum):
    """Where an outbox entry is: still to send, sent (with its message ids), or given up."""

    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"


@dataclass(frozen=True)
class NewDelivery:
    """An entry to add to a game's outbox: its kind, the action count it reports, the seat it
    is for (None: the whole table) and `body`, JSON text the store keeps as is."""

    kind: DeliveryKind
    at_seq: int
    seat: int | None = None
    body: str = "{}"


@dataclass(frozen=True)
class OutboxEntry:
    """One delivery a game owes, as stored. `id` orders a game's entries and is never handed
    out twice; `message_ids` are what it posted once sent, `error` the last failure."""

    id: int
    game_id: int
    kind: DeliveryKind
    at_seq: int
    seat: int | None
    body: str
    state: DeliveryState
    attempts: int
    message_ids: tuple[int, ...]
    error: str | None
    created_at: float
    done_at: float | None


@dataclass(frozen=True)
class Revision:
    """Where a game stands in the store (`Games.revision`): `changes` counts every change to
    what the game is rebuilt from, `setup` those other than its log and its clocks (seats,
    seats' options, stand-ins taken back, the game's thread and status). A copy whose
    `setup` is still the store's missed only moves and clocks."""

    changes: int
    setup: int


#: The revision of a copy that must be rebuilt before it is used.
STALE = Revision(-1, -1)


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to rebuild a game after a restart, read at one moment: besides the
    game, its seats and its log, the quarters pot it started with (carried in a series) and
    its bettor."""

    game: Game
    seats: tuple[Seat, ...]
    history: tuple[Seat, ...]
    actions: tuple[Action, ...]
    clocks: tuple[Clock, ...]
    pot: int = 0
    bettor: Bettor | None = None


# -- series and the bettor ----------------------------------------------------------------------


@dataclass(frozen=True)
class Bettor:
    """The fifth person at a four-player game who backs one seat (`seat`, None until they
    choose, in the lobby). A person, never a bot."""

    game_id: int
    user_id: int
    display_name: str
    seat: int | None


@dataclass(frozen=True)
class Person:
    """One of a series' people: a Discord user, or a bot (`user_id` None) known by its name
    and, once it has one, its level (None: a bot of the default level)."""

    user_id: int | None
    display_name: str
    bot_level: str | None = None

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this place."""
        return self.user_id is None


@dataclass(frozen=True)
class Series:
    """Games one table played in a row: its people, in the order they sat in its first game
    (its seats, then its bettor), and its games' ids in order (game N is `games[N]`).
    `ended_at` is set once the host ended it."""

    id: int
    guild_id: int
    host_user_id: int
    people: tuple[Person, ...]
    games: tuple[int, ...]
    created_at: float
    ended_at: float | None


# -- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatScore:
    """What the table reports for one seat at the end: points won or lost (negative) and how
    they were reached, as JSON text the store keeps as is."""

    seat: int
    points: int
    breakdown: str = "{}"


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as the table reports it to `finish_game`.

    `winner_seat` is set exactly when the reason is `MAHJONG`. `details` is JSON text for the
    game as a whole (the winning hand, the wall count, …)."""

    reason: FinishReason
    winner_seat: int | None = None
    scores: tuple[SeatScore, ...] = ()
    details: str = "{}"

    def __post_init__(self) -> None:
        if (self.reason is FinishReason.MAHJONG) != (self.winner_seat is not None):
            raise ValueError("a winner seat is given exactly when the game ends in Mah Jongg")
        seats = [score.seat for score in self.scores]
        if len(set(seats)) != len(seats):
            raise ValueError("each seat is scored at most once")


@dataclass(frozen=True)
class SeatResult:
    """One seat's result, with who held the seat when the game ended."""

    seat: int
    user_id: int | None
    display_name: str
    is_bot: bool
    points: int
    breakdown: str


@dataclass(frozen=True)
class GameResult:
    """The stored end of a game."""

    game_id: int
    reason: FinishReason
    winner_seat: int | None
    details: str
    seats: tuple[SeatResult, ...]
    recorded_at: float


# -- server cards and guild settings ------------------------------------------------------------


@dataclass(frozen=True)
class ServerCard:
    """A card file one server uploaded for its own games; no other server can read it."""

    id: int
    guild_id: int
    name: str
    text: str
    uploaded_by: int
    uploaded_at: float


@dataclass(frozen=True)
class GuildSettings:
    """A server's defaults for new games. None means "use the bot's default".

    At most one of `shipped_card` (a shipped card's name) and `server_card_id` is set; a
    deleted server card simply stops being the default."""

    rules: str | None = None
    shipped_card: str | None = None
    server_card_id: int | None = None
    pace: Pace | None = None
    hints: bool | None = None
    #: The level of the bots that fill empty seats and stand in for absent players.
    bot_level: str | None = None
    #: Seconds every automatic answer waits at the server's new tables.
    auto_delay: float | None = None
    #: Whether teaching tables (every rack open) may be opened here.
    teaching: bool | None = None
    #: The channel of the server's main league (it may hold no league yet).
    league_channel_id: int | None = None

    def __post_init__(self) -> None:
        if self.shipped_card is not None and self.server_card_id is not None:
            raise ValueError("the default card is either a shipped card or a server card")
        if self.auto_delay is not None and not self.auto_delay >= 0:
            raise ValueError("the automatic answers' delay is a number of seconds, 0 or more")


@dataclass(frozen=True)
class GuildAuditEntry:
    """One change of a server's settings: who made it, when, and the settings that changed,
    before and after (JSON objects keyed by setting name)."""

    id: int
    guild_id: int
    actor_user_id: int
    before: str
    after: str
    at: float
