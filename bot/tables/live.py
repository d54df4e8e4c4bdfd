"""A game as the table service holds it in memory (`LiveGame`), and what each seat's prompts
are good for (`PromptOptions`).

Both are plain records with the small rules that read or change only themselves: applying an
action in memory, checking that a prompt still shows its seat's options, whether a bot makes a
seat's moves. Everything that needs the store, the clock or other games is in the service's
parts (`bot.tables.moves` and its neighbours).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, fields

from bot.bots import Player
from bot.engine.game import (
    Action,
    Event,
    GameState,
    Option,
    apply,
    format_action,
    legal_actions,
)
from bot.store import STALE, ClockKind, Pace, PlayedFor, Revision
from bot.tables.delivery import Mailbox
from bot.tables.errors import NotSeated, StalePrompt
from bot.tables.notifier import Table
from bot.tables.options import Timeout
from bot.tables.standins import StandIns

#: Whose vacation, in which scope: (user, season id), or (user, None) for a personal one.
AwayKey = tuple[int, int | None]


@dataclass
class PromptOptions:
    """Each seat's legal options and the action count since which they have been the same:
    a prompt made at any count from then on still shows the seat's options, so it stays
    good while other seats answer the same Charleston pass or claim window."""

    options: list[tuple[Option, ...]]
    since: list[int]
    #: Seats whose options changed since the outside was last told.
    changed: set[int] = field(default_factory=set)

    @classmethod
    def of(cls, state: GameState) -> PromptOptions:
        """The options at `state`, as if they had always been so."""
        count = len(state.actions)
        return cls([legal_actions(state, s) for s in range(state.size)],
                   [count] * state.size, set(range(state.size)))

    def copy(self) -> PromptOptions:
        """A copy to change while a commit is pending (the original stays as it was if the
        commit fails)."""
        return PromptOptions(list(self.options), list(self.since), set(self.changed))

    def update(self, state: GameState) -> None:
        """Note whose options `state` changed."""
        for seat in range(state.size):
            now = legal_actions(state, seat)
            if now != self.options[seat]:
                self.options[seat] = now
                self.since[seat] = len(state.actions)
                self.changed.add(seat)

    def current(self, seat: int, counter: int, count: int) -> bool:
        """Whether a prompt made for `seat` at action count `counter` still shows its
        options (`count` is the action count now)."""
        return self.since[seat] <= counter <= count


@dataclass
class LiveGame:
    """A game the service holds in memory: in play, or over and still delivering."""

    table: Table
    state: GameState
    #: The state as the store has it: what `state` returns to if a commit fails.
    saved: GameState
    timeout: Timeout
    pace: Pace
    remind_at: float | None
    #: Seconds every automatic answer waits: the table's own, kept from its opening.
    auto_delay: float
    bots: dict[int, Player]
    #: The level of each bot seat's bot (the same keys as `bots`).
    levels: dict[int, str]
    options: PromptOptions
    mail: Mailbox
    dm_closed: set[int] = field(default_factory=set)
    #: Actions applied since `saved` (text, actor, the state after it, whether the table
    #: played it for a person's seat), not yet committed.
    unsaved: list[tuple[str, int | None, GameState, PlayedFor | None]] = field(
        default_factory=list)
    #: The move clocks as the store has them, (kind, seat) -> due time, and the moment
    #: (phase, turn, discards, Charleston step) they were set for.
    clocks: dict[tuple[ClockKind, int | None], float] = field(default_factory=dict)
    clock_moment: tuple[object, ...] = ()
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Over (finished, timed out or aborted): takes no more moves, leaves once delivered.
    closed: bool = False
    #: What seats' options played for them since the outside was last told, by seat.
    told: dict[int, list[str]] = field(default_factory=dict)
    #: Lines for the whole table since it was last told (beyond what the events say).
    said: list[str] = field(default_factory=list)
    #: Seats a move was made for when their clock ran out, since the outside was last
    #: told: their old prompt is to lose its controls.
    expired: set[int] = field(default_factory=set)
    #: Each seat's timeouts in a row (`bot.tables.standins`), and as the store has them
    #: (counted from the log when the game is restored).
    stand_ins: StandIns = field(default_factory=lambda: StandIns(0, ()))
    saved_stand_ins: StandIns = field(default_factory=lambda: StandIns(0, ()))
    #: The bots standing in for people, by seat (used while `stand_ins` says so).
    stand_in_bots: dict[int, Player] = field(default_factory=dict)
    #: Whether the seats' turn clocks pause in their holders' quiet hours.
    quiet: bool = False
    #: The league season the game counts for (None: not a league's game): its players'
    #: vacations pause their clocks.
    season_id: int | None = None
    #: Whether a casual table's clocks pause for its players' personal vacations (its
    #: `vacations` option; a league's game pauses for its season's, whatever this says).
    vacations: bool = False
    #: The game's revision in the store when this copy was last made the store's (see
    #: `Moves.current`).
    revision: Revision = STALE

    @property
    def pauses_for_vacations(self) -> bool:
        """Whether vacations pause the seats' clocks here: in a league's game always (its
        season's, `season_id`), at a casual table when it was opened to (personal ones,
        of the scope None)."""
        return self.season_id is not None or self.vacations

    def away_key(self, user: int | None) -> AwayKey | None:
        """Where `Registry.away` keeps the vacation that would pause `user`'s seat here:
        (user, the game's season), (user, None) for a personal one at a casual table that
        pauses for them; None for a bot, or a game no vacation pauses."""
        if user is None or not self.pauses_for_vacations:
            return None
        return (user, self.season_id)

    def become(self, fresh: LiveGame) -> None:
        """Take every field of `fresh` (the game rebuilt from the store) but the lock and
        the mailbox, which a move and the sender may be holding."""
        for name in (f.name for f in fields(self)):
            if name not in ("lock", "mail"):
                setattr(self, name, getattr(fresh, name))

    def played_by_bot(self, seat: int) -> bool:
        """Whether a bot makes `seat`'s moves: a bot's seat, or a person's the bot keeps."""
        return seat in self.bots or self.stand_ins.stood_in(seat)

    def held_seat(self, user_id: int) -> int:
        """The seat this user holds here; `NotSeated` if none."""
        seat = self.table.seat_of(user_id)
        if seat is None:
            raise NotSeated("You're not playing at this table.")
        return seat

    def prompt_seat(self, user_id: int, counter: int | None) -> int:
        """The user's seat, after checking a prompt made at action count `counter` (None:
        no prompt) is current (the caller holds the lock)."""
        seat = self.table.seat_of(user_id)
        if seat is None:
            raise NotSeated("You're not playing at this table, so you can't act here.")
        if counter is not None and not self.options.current(seat, counter,
                                                            len(self.state.actions)):
            raise StalePrompt("This prompt is out of date; nothing was changed. Use the "
                              "newest one (or My rack).")
        return seat

    def is_current(self, user_id: int, counter: int) -> bool:
        """Whether a prompt made for this user at action count `counter` still shows their
        options (other seats' answers in the same Charleston pass or claim window do not
        change them)."""
        seat = self.table.seat_of(user_id)
        return seat is not None and self.options.current(seat, counter,
                                                         len(self.state.actions))

    def apply(self, action: Action, actor: int | None,
              played_for: PlayedFor | None = None) -> tuple[Event, ...]:
        """Apply one action in memory (the caller holds the lock; `Moves.settle` commits
        it). `played_for`: the table made the move for a person's seat; a move the person
        made (`actor`) starts their count of timeouts in a row again."""
        state, events = apply(self.state, action)
        self.unsaved.append((format_action(action, self.table.rules.players), actor, state,
                             played_for))
        self.state = state
        self.stand_ins = self.stand_ins.after_move(action.seat, actor, played_for)
        return tuple(events)


def moment_of(state: GameState) -> tuple[object, ...]:
    """One moment of play, as the clocks see it: a claim window, a seat's turn, a
    Charleston pass. Its clocks keep their deadlines while it lasts."""
    return (state.phase, state.turn.seat if state.turn else None, len(state.discards),
            state.charleston.step if state.charleston else None)
