"""The clocks of the games this process runs, acted on as they run out.

A move's commit sets the clocks of the moment it leads to (`bot.tables.clock_plan`); this
part finds those that ran out (claiming each in the store first, so no other process sharing
the database acts on it too) and acts on them, each as a move (`Moves.moving`): a turn or
claim clock plays for the seats it ran out on (a pass, or the bot of the server's level),
an AUTO clock plays the seats' own automatic answers, a reminder nudges its seat, an AWAY
clock tells the table a vacation began or ended (`Presence.away_edge`), and a tournament's
time limit stops the game. Timers are not the engine's business.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.engine.game import Action, Event, Pass, Phase, legal_actions, seats_to_act, view
from bot.league.record import record_finished_game
from bot.league.tournament import TIME_UP, timeout_outcome
from bot.store import (
    Clock,
    ClockKind,
    DatabaseUnavailable,
    DeliveryKind,
    NewDelivery,
    PlayedFor,
)
from bot.tables.attendance import Attendance
from bot.tables.delivery import entry_body
from bot.tables.errors import NotRunning, StalePrompt
from bot.tables.live import LiveGame
from bot.tables.moves import Moves
from bot.tables.narrate import action_label
from bot.tables.options import Timeout
from bot.tables.outage import OUTAGE_CAP
from bot.tables.presence import Presence
from bot.tables.registry import Registry
from bot.tables.reminders import REMINDER_CLOCKS

log = logging.getLogger(__name__)

#: What a table is told was played for a seat whose clock ran out, by the phase it ran out
#: in (anything else: "the bot made their move", followed by the move's own line).
_TIMED_OUT_LINES = {Phase.CLAIM: "a pass was made for them",
                    **dict.fromkeys((Phase.CHARLESTON, Phase.VOTE, Phase.COURTESY_OFFER,
                                     Phase.COURTESY_PASS),
                                    "the bot made their Charleston choice")}

#: Seconds the clock loop waits at least while the only clocks due are other processes'.
OTHERS_DUE_RECHECK = 1.0


class Clocks:
    """Acts on the games' clocks as they run out."""

    def __init__(self, registry: Registry, moves: Moves, attendance: Attendance,
                 presence: Presence) -> None:
        self.registry = registry
        self.moves = moves
        self.attendance = attendance
        self.presence = presence

    async def run_due_clocks(self, now: float | None = None) -> int:
        """Act on every clock of this process's games that has run out (claimed first, so
        no other process sharing the database acts on it too); returns how many acted. A
        clock of another process's server is left unclaimed for that process (`others_due`
        counts those games). Whose a game is is looked up once per game, not per clock."""
        acted = 0
        when = self.registry.now() if now is None else now
        due = {clock.game_id for clock in await self.registry.db.clocks.due_clocks(when)}
        mine = {game_id for game_id in due
                if game_id in self.registry.games or await self.registry.owned(game_id)}
        self.registry.others_due = len(due - mine)
        for clock in await self.registry.db.clocks.claim_due(when, games=mine):
            if clock.kind is ClockKind.GAME_LIMIT:
                acted += await self._time_up(clock.game_id)
                continue
            try:
                async with self.moves.moving(clock.game_id) as live:
                    acted += await self._ran_out(live, clock)
            except NotRunning:  # the game is over: its clocks are of no more use
                await self.registry.db.clocks.clear_clocks(clock.game_id)
            except StalePrompt:  # the log grew under it: the next round reads it again
                log.warning("a clock of game %s raced a move; it will be re-read",
                            clock.game_id)
        return acted

    async def _ran_out(self, live: LiveGame, clock: Clock) -> int:
        """Act on a move clock that ran out (the caller holds the game for a move): one of
        an earlier moment is stopped, a reminder rings, an AUTO clock plays the seats'
        automatic answers, a turn or claim clock moves for the seats it ran out on.
        Returns 1 if a move was made."""
        if clock.kind is ClockKind.AWAY:  # a vacation's edge, of no one moment
            await self.presence.away_edge(live, clock)
            return 0
        if clock.at_seq != len(live.state.actions):
            # Set for an earlier moment: a move since set this moment's clocks (an
            # automatic answer acted on just before it in the same round can have), and
            # those stay.
            await self.registry.db.clocks.clear_clock(clock.game_id, clock.kind, seat=clock.seat,
                                                      at_seq=clock.at_seq)
            return 0
        if clock.kind in REMINDER_CLOCKS:
            await self._remind(live, clock)
            return 0
        if clock.kind is ClockKind.AUTO:
            events = self.attendance.answer_automatically(live)
        else:
            events = await self._time_out(live, clock.seat, clock.due_at)
        await self.moves.settle(live, events)
        return 1

    async def _remind(self, live: LiveGame, clock: Clock) -> None:
        """A reminder clock ran out: stop it and owe its seat a nudge naming when the move
        is due, in one transaction (so a reminder goes out once); only stop it if the move
        is due already."""
        seat = clock.seat
        assert seat is not None
        due_at = live.clocks.get((ClockKind.TURN, seat), clock.due_at)
        if due_at <= self.registry.now():
            # The turn ran out too while the clocks waited (the bot was down past both): its
            # timeout, acted on next, tells the seat; a nudge to a move no longer theirs
            # ("due 1 day ago") would only mislead.
            await self.registry.db.clocks.clear_clock(clock.game_id, clock.kind, seat=seat,
                                                      at_seq=clock.at_seq)
            live.clocks.pop((clock.kind, seat), None)
            return
        entries = await self.registry.db.clocks.ring(clock.game_id, clock.kind, seat=seat, outbox=[
            NewDelivery(DeliveryKind.REMINDER, clock.at_seq, seat,
                        entry_body(user=live.table.user_ids[seat], due_at=due_at,
                                   clock=clock.kind.value))])
        live.clocks.pop((clock.kind, seat), None)
        self.registry.sender.queue(live, entries, live.state)

    async def _time_up(self, game_id: int) -> int:
        """The tournament time limit ran out: the game stops and every seat scores 0.
        Returns 1 if it stopped the game (0: it was over already)."""
        try:
            async with self.moves.moving(game_id) as live:
                if live.state.phase is Phase.OVER:
                    return 0
                await self.registry.db.games.finish_game(
                    game_id, timeout_outcome(live.table.rules.players), outbox=[NewDelivery(
                        DeliveryKind.TABLE, len(live.state.actions), None,
                        entry_body(lines=[TIME_UP], new_turn=False))])
                pending = await self.registry.db.outbox.pending(game_id)
                self.registry.sender.resume(live, pending, {})
                await self.registry.close(live)
        except NotRunning:
            await self.registry.db.clocks.clear_clocks(game_id)
            return 0
        try:
            await record_finished_game(self.registry.db, game_id)
        except Exception:
            log.exception("league record of game %s failed", game_id)
        return 1

    async def _time_out(self, live: LiveGame, seat: int | None, ran_out: float) -> list[Event]:
        """Move for the seats a clock ran out on (at `ran_out`): pass in a claim window
        (unless the table lets the bot play everything), a bot of the server's level
        elsewhere. A seat whose holder was away (asleep or on vacation) when a claim window
        ran out is answered as its options would answer (`Attendance.automatic`), which is
        no timeout, even when the clock is acted on later (the bot was down): they are not
        timed out for a window that closed while they slept because they are awake by the
        time the bot is back. Every other seat is told what was played for it, and so is
        the table (`_timed_out`)."""
        events: list[Event] = []
        level = await self.registry.server_level(live.table.guild_id)
        seats = [seat] if seat is not None else [
            s for s in seats_to_act(live.state) if not live.played_by_bot(s)]
        for waiting in seats:
            if waiting not in seats_to_act(live.state):
                continue
            claim = live.state.phase is Phase.CLAIM
            answer = (self.attendance.automatic(live, waiting, ran_out)
                      if claim and self.attendance.is_away(live, waiting, ran_out) else None)
            if answer is not None:
                events.extend(self.attendance.play_automatic(live, waiting, answer))
                continue
            if claim and live.timeout is Timeout.PASS:
                action: Action = Pass(waiting)
            else:
                action = self.registry.bot(level, live.table, live.state.seed, waiting).choose(
                    view(live.state, waiting), legal_actions(live.state, waiting))
            phase = live.state.phase
            events.extend(live.apply(action, None, PlayedFor.TIMEOUT))
            self._timed_out(live, waiting, action, phase)
            if live.stand_ins.stood_in(waiting):
                self.presence.stand_in(live, waiting, level)
        return events

    def _timed_out(self, live: LiveGame, seat: int, action: Action, phase: Phase) -> None:
        """Tell a seat whose clock ran out, and its table, that a move was made for it
        (`phase`: when). The seat hears the move itself; the table only what it may know
        (a pass in the Charleston names no tile; a discard is told by its own line). Off
        a claim window, the seat's old prompt loses its controls (`LiveGame.expired`)."""
        label = action_label(action, live.table.names, racks=live.table.rules.racks)
        live.told.setdefault(seat, []).append(
            f"Your time ran out, so this was played for you: {label}.")
        public = _TIMED_OUT_LINES.get(phase, "the bot made their move")
        live.said.append(f"Time ran out for {live.table.names[seat]}: {public}.")
        if phase is not Phase.CLAIM:
            live.expired.add(seat)

    async def loop(self) -> None:
        """Act on the clocks as they run out, until cancelled (`TableService.close`)."""
        tries = 0  # rounds in a row that found the database out of reach
        while True:
            due: float | None
            try:
                await self.run_due_clocks()
                due = await self.registry.db.clocks.next_due()
                self.registry.outage.answered()
                tries = 0
            except DatabaseUnavailable as error:  # the clocks wait in the store meanwhile
                self.registry.outage.failed(error)
                tries += 1
                due = self.registry.now() + self.registry.outage.delay(tries)
            except Exception:
                log.exception("clock loop error")
                due = self.registry.now() + OUTAGE_CAP
            # Clocks left due for another process would bring this loop back at once: look
            # again a second later (that process acts on them meanwhile).
            soonest = OTHERS_DUE_RECHECK if self.registry.others_due else 0.05
            wait = 30.0 if due is None else max(soonest, min(30.0, due - self.registry.now()))
            self.registry.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.registry.wake.wait(), wait)
