"""Whether each seat's holder is there to move: a bot plays it, their own options answer for
it, or they are away (in their quiet hours at a table that pauses for them, or on vacation).

A seat's turn clock and its reminders (`bot.tables.reminders`) pause while its holder is
away: in their quiet hours at a table that pauses for them, and on vacation: a league
season's in that season's games, a personal one at a casual table opened to pause for them
(a game's vacation scope, `LiveGame.away_key`). The deadlines are worked out when a clock is
set, with the pauses known then (`bot.tables.timekeeping`); when the pauses change (new quiet
hours, a vacation begun or ended) the running clocks are moved, keeping the time they had left
(`Attendance.retime`). A claim window is the whole table's and never pauses.

A person's own options may answer for their seat (`bot.tables.auto`: a discard they can't
call, auto Mah Jongg, auto-discard). Those answers are ordinary actions, played like a bot's
but only once the table's `auto_delay` has passed since the moment began (the AUTO clock), the
same for every seat, so how long a claim window stays open reveals nothing.

`Attendance` reads and changes only the game it is given and the vacations the registry holds;
the parts that run moves (`bot.tables.moves`, `clocks`, `presence`) ask it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.engine.game import Action, Event, Pass, Phase, seats_to_act, view
from bot.store import ClockKind
from bot.tables.auto import automatic, drawn_tile
from bot.tables.live import LiveGame
from bot.tables.narrate import action_label
from bot.tables.registry import Registry
from bot.tables.reminders import REMINDER_CLOCKS
from bot.tables.timekeeping import Pauses, active_seconds, deadline
from bot.tables.vacation import BACK_NOTE, moved_back

#: The clocks of one seat that pause with it (quiet hours, a vacation): its turn clock and
#: its reminders. A claim window is short and the whole table's, so it never pauses.
SEAT_CLOCKS = (ClockKind.TURN, *REMINDER_CLOCKS)
#: What a seat asked for a move is told when its clock moved (a vacation or quiet hours
#: began, ended or changed): with it comes the prompt again, showing when the move is due.
RETIMED = "Your time for this move changed with your vacation or quiet hours."
NO_PAUSES = Pauses()


@dataclass(frozen=True)
class CameBack:
    """A person who moved in `game` while on a vacation that paused them there: the vacation
    ended with the move (it had the stretch `was`), and their other games of its scope are
    to run again too once the game is let go (`Presence.back_elsewhere`)."""

    game: LiveGame
    user_id: int
    was: tuple[float, float]


class Attendance:
    """Who is there to move at each seat of a held game, and when its clocks pause."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    def away_of(self, live: LiveGame, user: int | None) -> tuple[float, float] | None:
        """The vacation under way or planned that pauses `user`'s seat in this game (of
        its vacation scope, see `LiveGame.away_key`), if any."""
        key = live.away_key(user)
        return None if key is None else self.registry.away.get(key)

    def vacations(self, live: LiveGame) -> dict[int, tuple[float, float]]:
        """The vacations under way or planned of the game's seat holders that pause their
        seats here (none at a game no vacation pauses), by seat."""
        return {seat: away for seat, user in enumerate(live.table.user_ids)
                if (away := self.away_of(live, user)) and self.registry.now() < away[1]}

    def pauses(self, live: LiveGame, seat: int) -> Pauses:
        """When `seat`'s clocks pause: its holder's quiet hours (at a table that pauses for
        them) and their vacation (of the game's vacation scope); never while a bot plays
        the seat (a bot's own, or one standing in for its person)."""
        return self.pauses_away(live, seat, self.away_of(live, live.table.user_ids[seat]))

    def pauses_away(self, live: LiveGame, seat: int,
                    away: tuple[float, float] | None) -> Pauses:
        """`pauses` with the holder away for the stretch `away` (None: not away)."""
        if live.table.user_ids[seat] is None or live.played_by_bot(seat):
            return NO_PAUSES
        pauses = live.table.options_of(seat).pauses(() if away is None else (away,))
        return pauses if live.quiet else replace(pauses, quiet=None)

    def is_away(self, live: LiveGame, seat: int, at: float | None = None) -> bool:
        """Whether the seat's holder is away now (or at the moment `at`): their clocks are
        paused (quiet hours at a table that pauses for them, or a vacation)."""
        moment = self.registry.now() if at is None else at
        return self.pauses(live, seat).paused_at(moment) is not None

    def retime(self, live: LiveGame, seat: int, before: Pauses) -> None:
        """The seat's pauses were `before` and are now what `pauses` says: its running
        clocks (turn and reminders) keep the active time they had left, counted from now.
        When the move it is asked for falls due at another moment, its holder is told and
        so shown the prompt again, with the new deadline (the one they have shows the old).
        The caller holds the lock and settles, which stores them."""
        after = self.pauses(live, seat)
        if after == before:
            return
        now = self.registry.now()
        for kind in SEAT_CLOCKS:
            due = live.clocks.get((kind, seat))
            if due is not None:
                live.clocks[(kind, seat)] = deadline(now, active_seconds(now, due, before),
                                                     after)
                if (kind is ClockKind.TURN and live.clocks[(kind, seat)] != due
                        and seat in seats_to_act(live.state)):
                    live.told.setdefault(seat, []).append(RETIMED)

    def away_edges(self, live: LiveGame, now: float) -> list[tuple[int, float]]:
        """The next moment each seat's holder goes away or comes back (a vacation planned
        ahead beginning, one under way ending by itself), by seat: when the table is told
        (an AWAY clock, `Presence.away_edge`). A vacation that ended by itself is kept
        until the table is told (`away_edge` forgets it then), so one that ended while the
        bot was down is told at once, not lost with the clocks planned at the restart."""
        return [(seat, away[0] if now < away[0] else away[1])
                for seat, user in enumerate(live.table.user_ids)
                if (away := self.away_of(live, user)) is not None]

    async def away_in(self, live: LiveGame) -> None:
        """Read again who is on vacation in the game's vacation scope (its league season,
        or the personal vacations at a casual table that pauses for them) before a move in
        it, when other processes share the database: one of them may have begun or ended a
        vacation since (its own games' clocks it moved itself; this process's next move
        sets the clocks with the pauses as they are now). Read as of the game's soonest
        clock, when that ran out before now (acted on late): a vacation that ended since
        still covers it (as `TableService.start` reads them). A process alone on its
        database made every change itself, so it knows already."""
        registry = self.registry
        if not live.pauses_for_vacations or not registry.db.shared:
            return
        scope = live.season_id
        for key in [key for key in registry.away if key[1] == scope]:
            del registry.away[key]
        since = min([registry.now(), *live.clocks.values()])
        for vacation in await registry.db.vacations.under_way_in(scope, since):
            registry.away[(vacation.user_id, scope)] = (vacation.started_at, vacation.end())

    async def back_by_moving(self, live: LiveGame, seat: int) -> CameBack | None:
        """A person who makes a move while on a vacation that pauses them in this game (its
        season's, or a personal one at a casual table that pauses for them) is back (as on
        correspondence servers): the vacation ends now, this game's clocks run again and
        its table and the person are told, all with the move (the caller holds the game and
        settles). Returns what `Presence.back_elsewhere` needs once the game is let go
        (None: they were not away)."""
        key = live.away_key(live.table.user_ids[seat])
        if key is None:
            return None
        user, scope = key
        registry = self.registry
        was = registry.away.get(key)
        now = registry.now()
        if was is None or not was[0] <= now < was[1]:
            return None
        for vacation in await registry.db.vacations.of(scope, user):
            if vacation.under_way(now):
                await registry.db.vacations.end(vacation.id, at=now)
        before = self.pauses(live, seat)
        del registry.away[key]
        self.retime(live, seat, before)
        live.said.append(BACK_NOTE.format(name=live.table.names[seat]))
        live.told.setdefault(seat, []).append(moved_back(personal=scope is None))
        return CameBack(live, user, was)

    def automatic(self, live: LiveGame, seat: int, at: float | None = None) -> Action | None:
        """The move a person's options make for their seat now (`bot.tables.auto`), if any;
        None for a bot's seat (bots decide for themselves) and whenever the seat is asked.
        In a claim window a seat whose holder is away now (in their quiet hours at a table
        that pauses for them, or on vacation) is never asked: their options answer, and
        where they would ask, the seat passes. So a sleeping player is neither timed out
        nor stood in for, and the answer waits the same delay as every automatic one, so
        the window's length tells nobody who is away. `at`: judge whether they are away at
        that moment instead of now (a window's clock acted on late, as after a restart)."""
        if live.played_by_bot(seat) or live.table.user_ids[seat] is None:
            return None
        table = live.table
        answer = automatic(view(live.state, seat), table.options_of(seat), table.card,
                           table.rules.counts, drawn_tile(live.state, seat))
        if answer is None and live.state.phase is Phase.CLAIM and self.is_away(live, seat, at):
            return Pass(seat)
        return answer

    def play_automatic(self, live: LiveGame, seat: int, action: Action) -> tuple[Event, ...]:
        """Apply a move a seat's options made for it; the seat is told what was played
        (apart from a pass, which is what the seat had no choice but to do, or was made
        while they were away, which `automatic` says they are not asked about)."""
        if not isinstance(action, Pass):
            label = action_label(action, live.table.names, racks=live.table.rules.racks)
            live.told.setdefault(seat, []).append(f"Played for you (your settings): {label}.")
        return live.apply(action, None)

    def answer_automatically(self, live: LiveGame) -> list[Event]:
        """The `auto_delay` ran out: every seat to act whose options answer for it does."""
        events: list[Event] = []
        for seat in seats_to_act(live.state):
            if seat not in seats_to_act(live.state):
                continue  # the window closed on an earlier answer (a Mah Jongg)
            action = self.automatic(live, seat)
            if action is not None:
                events.extend(self.play_automatic(live, seat, action))
        return events
