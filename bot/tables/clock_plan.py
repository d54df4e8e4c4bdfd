"""The clocks a moment of play needs, worked out when a move is committed.

A moment (a claim window, a seat's turn, a Charleston pass: `live.moment_of`) keeps its
deadlines while it lasts, so a seat's clock does not restart while others answer; each clock
is tied to the action count it was set at, so one left from an earlier moment is known for
stale. The deadlines count the seats' pauses known when they are set (`Attendance.pauses`).
"""

from __future__ import annotations

from bot.engine.game import Phase, seats_to_act
from bot.store import ClockKind, ClockPlan
from bot.tables.attendance import NO_PAUSES, Attendance
from bot.tables.live import LiveGame, moment_of
from bot.tables.reminders import REMINDER_CLOCKS, reminder_clocks
from bot.tables.timekeeping import Pauses, deadline

#: The clocks that belong to one moment of play (re-set after every move).
MOVE_CLOCKS = (ClockKind.TURN, ClockKind.CLAIM, ClockKind.AUTO, *REMINDER_CLOCKS)


def clock_plan(live: LiveGame, attendance: Attendance
               ) -> tuple[ClockPlan | None, tuple[object, ...]]:
    """The clocks the moment now needs (None: the pace has none, or the game is over),
    and the moment. Within one moment (a claim window, a Charleston pass) a seat's
    deadline stays where it was while others answer; every clock is re-tied to the new
    action count so it stays valid."""
    state = live.state
    moment = moment_of(state)
    if state.phase is Phase.OVER:
        return None, moment
    humans = [s for s in seats_to_act(state) if not live.played_by_bot(s)]
    # Seats whose options will answer for them once the delay has passed.
    answered = {seat for seat in humans if attendance.automatic(live, seat) is not None
                } if live.auto_delay > 0 else set()
    answering = bool(answered)
    now = attendance.registry.now()
    edges = attendance.away_edges(live, now)
    if not (live.pace.turn_seconds or live.pace.claim_seconds or answering or edges):
        return None, moment
    earlier = live.clocks if moment == live.clock_moment else {}
    wanted: list[tuple[ClockKind, int | None, float]] = [
        (ClockKind.AWAY, seat, due) for seat, due in edges]

    def arm(kind: ClockKind, seat: int | None, seconds: float,
            pauses: Pauses = NO_PAUSES) -> None:
        wanted.append((kind, seat, earlier.get((kind, seat),
                                               deadline(now, seconds, pauses))))

    if answering:
        arm(ClockKind.AUTO, None, live.auto_delay)
    if state.phase is Phase.CLAIM and live.pace.claim_seconds:
        arm(ClockKind.CLAIM, None, live.pace.claim_seconds)
    elif live.pace.turn_seconds:
        for seat in humans:
            pauses = attendance.pauses(live, seat)
            arm(ClockKind.TURN, seat, live.pace.turn_seconds, pauses)
            if seat in answered:
                continue  # no nudge for a move the seat's options are about to make
            # Each reminder rings once a moment: one that is gone while its turn clock
            # runs has rung.
            for kind, share in reminder_clocks(
                    live.table.options_of(seat).reminder_points(), live.remind_at):
                if not ((ClockKind.TURN, seat) in earlier and (kind, seat) not in earlier):
                    arm(kind, seat, live.pace.turn_seconds * share, pauses)
    # A league game's time limit is not among the kinds replaced, so it stays.
    return ClockPlan((*MOVE_CLOCKS, ClockKind.AWAY), tuple(wanted),
                     len(state.actions)), moment


def seat_deadline(live: LiveGame, seat: int, attendance: Attendance) -> float | None:
    """When a move the seat is asked for now falls due (quiet hours and vacation
    counted on a turn; a claim window never pauses): the deadline its clock keeps while
    the moment lasts (`clock_plan` keeps it too), so a prompt sent again mid-moment (a
    seat reclaimed in someone's window) shows the time really left, not a fresh clock."""
    key = (ClockKind.CLAIM, None) if live.state.phase is Phase.CLAIM else (ClockKind.TURN, seat)
    if moment_of(live.state) == live.clock_moment and key in live.clocks:
        return live.clocks[key]
    now = attendance.registry.now()
    if live.state.phase is Phase.CLAIM:
        seconds = live.pace.claim_seconds
        return None if seconds is None else now + seconds
    seconds = live.pace.turn_seconds
    return None if seconds is None else deadline(now, seconds, attendance.pauses(live, seat))
