"""The move pipeline: how any change to a game in play is made, whichever process makes it.

Every action goes the same way:

    lock the game (`Database.game_lock`: in every process sharing the database) -> load it
    at the store's revision (the copy held, when nobody changed the game since) -> check the
    seat and the prompt's action counter -> engine.apply -> the bots' answers -> one commit:
    the actions, the clocks of the moment they lead to and the outbox entries that report
    them -> release -> the game's sender delivers the entries

so a message is only sent about a move that is durable, the log, the clocks and what the
players are owed never disagree after a crash, and a restart rebuilds each game by replaying
its log (`bot.tables.restore`) and sends whatever was not confirmed. A prompt made at some
action count stays good until its seat's own options change, so people answering the same
Charleston pass or claim window do not make each other's prompts stale, and a seat is only
sent a new prompt when its options change. The pipeline knows nothing about Discord: the
outside is a `Notifier`, reached through the sender.

Delivery is `bot.tables.delivery`: a sender task per game sends its outbox entries in order
(retrying, moving a deleted thread, telling the host about a missing permission). A game that
is over leaves memory once its last entry is delivered.

`Moves` keeps no state: the games, the vacations and the count of moves under way are the
registry's (`bot.tables.registry`), so any process can make any game's move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence

from bot.engine.errors import InvalidInput, NotYourTurn
from bot.engine.game import (
    Action,
    Event,
    Phase,
    for_seat,
    legal_actions,
    parse_action,
    seats_to_act,
    view,
)
from bot.engine.game.events import Discarded, Drew, EndReason, Exposed, MahjongShown
from bot.engine.game.state import finishing
from bot.league.record import record_finished_game
from bot.store import (
    STALE,
    DatabaseUnavailable,
    DeliveryKind,
    FinishReason,
    GameNotFound,
    GameStatus,
    NewDelivery,
    OutboxEntry,
    Outcome,
    PlayedFor,
    SeatScore,
    SeqConflict,
)
from bot.tables.attendance import Attendance, CameBack
from bot.tables.clock_plan import clock_plan, seat_deadline
from bot.tables.delivery import entry_body
from bot.tables.errors import MOVED_ON, NOT_RUNNING, RESTARTING, NotRunning, Restarting, StalePrompt
from bot.tables.live import LiveGame, PromptOptions
from bot.tables.narrate import private_line, public_line
from bot.tables.notifier import Answer
from bot.tables.registry import Registry
from bot.tables.restore import Restorer

log = logging.getLogger(__name__)


class Moves:
    """Makes every change to a game in play: a click, a clock running out, a seat changing
    hands; see the module docstring for the flow."""

    def __init__(self, registry: Registry, attendance: Attendance, restorer: Restorer) -> None:
        self.registry = registry
        self.attendance = attendance
        self.restorer = restorer

    async def visit(self, game_id: int) -> None:
        """Make this process's copy of a game in play the store's before the outside reads
        it (its table, a seat's view, whether a prompt is current): load the game when this
        process does not hold it (a DM's click reaches the process of shard 0, whatever
        server the game is of), rebuild it when another process changed it since. Raises
        as a move would when the game is not in play."""
        async with self.registry.db.game_lock(game_id):
            await self.current(game_id)

    @contextlib.asynccontextmanager
    async def moving(self, game_id: int) -> AsyncIterator[LiveGame]:
        """Hold a game in play for a move: its lock in every process sharing the database
        (`Database.game_lock`), this process's copy made the store's (`current`), then the
        copy's own lock. Once the move is made, the revision it left the game at is noted,
        so only someone else's change makes the next move rebuild the game. A move begun
        before `close` is let finish; one asked for after is refused. A move the store
        refuses because the log grew under it (`SeqConflict`: a write that did not wait
        for the game's lock) changes nothing, is answered as stale, and the next move
        starts from the game rebuilt."""
        if self.registry.closing:
            raise Restarting(RESTARTING)
        self.registry.moves += 1
        self.registry.no_moves.clear()
        try:
            async with self.registry.db.game_lock(game_id):
                live = await self.current(game_id)
                async with live.lock:
                    try:
                        yield live
                    except SeqConflict as conflict:
                        live.revision = STALE
                        raise StalePrompt(MOVED_ON) from conflict
                    live.revision = await self.registry.db.games.revision(game_id)
        finally:
            self.registry.moves -= 1
            if not self.registry.moves:
                self.registry.no_moves.set()

    async def current(self, game_id: int) -> LiveGame:
        """This process's copy of a game in play, as the store has it (the caller holds the
        game's lock): the copy held, if nobody changed the game since it was last the
        store's (`LiveGame.revision`); the copy caught up on the moves it missed, if only
        other processes' moves and clocks changed it (`Restorer.catch_up`); else the game
        rebuilt from the store, into the same copy if one is held. Raises `IllegalAction`
        if the game is not in play."""
        if self.registry.closing:
            raise Restarting(RESTARTING)
        live = self.registry.games.get(game_id)
        if live is not None and live.closed:
            raise NotRunning(NOT_RUNNING)
        try:
            revision = await self.registry.db.games.revision(game_id)
            if live is not None and live.revision == revision:
                await self.attendance.away_in(live)
                return live
            if live is not None and live.revision.setup == revision.setup:
                caught = await self.restorer.catch_up(live)
                if caught is not None:
                    self.registry.sender.resume(live, caught.orphans, caught.states)
                    live.revision = revision
                    await self.attendance.away_in(live)
                    return live
            if live is None and (await self.registry.db.games.game(game_id)).status is not \
                    GameStatus.PLAYING:
                raise NotRunning(NOT_RUNNING)
        except GameNotFound:
            raise NotRunning(NOT_RUNNING) from None
        live = await self.restore(game_id, into=live)
        if live.closed:
            raise NotRunning(NOT_RUNNING)
        await self.attendance.away_in(live)
        return live

    async def act(self, game_id: int, user_id: int,
                  action: Action | str | Callable[[int], Action],
                  counter: int | None = None, *,
                  answer: Answer | None = None) -> tuple[tuple[Event, ...], CameBack | None]:
        """Apply a player's action. `counter` is the action count the prompt was made at; a
        prompt from an earlier moment is refused as stale and changes nothing. `action` may
        be text, or a function of the seat (for prompts that do not know it). `answer`: the
        click, if its answer may carry the new table picture the move leads to. Returns the
        events, and whether the move ended the player's vacation (their other games are to
        run again: `Presence.back_elsewhere`)."""
        async with self.moving(game_id) as live:
            seat = live.prompt_seat(user_id, counter)
            if isinstance(action, str):
                action = parse_action(action, live.table.rules.players)
            elif callable(action):
                action = action(seat)
            if action.seat != seat:
                raise NotYourTurn("You can only act for your own seat.")
            events = live.apply(action, user_id)
            back = await self.attendance.back_by_moving(live, seat)
            await self.settle(live, events, answer=answer)
        return events, back

    async def act_option(self, game_id: int, user_id: int, counter: int,
                         index: int
                         ) -> tuple[Action, tuple[Event, ...], CameBack | None]:
        """Apply the option at `index` of the user's legal options at action count `counter`
        (what a button carries); returns the action, its events and what `act` returns of a
        vacation it ended."""
        async with self.moving(game_id) as live:
            seat = live.prompt_seat(user_id, counter)
            options = legal_actions(live.state, seat)
            if not 0 <= index < len(options):
                raise StalePrompt("That choice is no longer there; use the newest prompt.")
            action = options[index].action
            events = live.apply(action, user_id)
            back = await self.attendance.back_by_moving(live, seat)
            await self.settle(live, events)
        return action, events, back

    async def settle(self, live: LiveGame, events: Sequence[Event], *,
                     new_turn: bool = False, answer: Answer | None = None) -> None:
        """After actions applied in memory: let the bots answer, commit it all with the
        clocks and the outbox entries that report it (and the lines in `live.said` for the
        table) in one transaction, then finish a game that ended and hand the entries to the
        sender (a new table picture offered to `answer`). If anything fails before the
        commit is done, the game is left as the store has it."""
        try:
            options = live.options.copy()
            for _, _, state, _ in live.unsaved:
                options.update(state)
            collected = [*events, *await self._run_bots(live, options)]
            new_turn = new_turn or any(isinstance(e, Discarded | Exposed | MahjongShown)
                                       for e in collected)
            outbox = self._reports(live, collected, options.changed, new_turn=new_turn)
            options.changed.clear()
            entries = await self._commit(live, outbox)
        except BaseException:
            live.state = live.saved
            live.stand_ins = live.saved_stand_ins
            live.unsaved.clear()
            live.told.clear()
            live.said.clear()
            live.expired.clear()
            raise
        live.options = options
        self.registry.sender.queue(live, entries, live.state, answer=answer if new_turn else None)
        if live.state.phase is Phase.OVER:
            await self._finish_saved(live)

    async def _run_bots(self, live: LiveGame, options: PromptOptions) -> list[Event]:
        """The bots' moves until a person must act or the game is over, noting in `options`
        whose options each changes; with no `auto_delay`, the moves people's options make
        for them too (otherwise those wait for the AUTO clock). Before each bot's move the
        event loop gets its turn: once no person is left to act (a hand declared dead), the
        bots play out the rest of the game here, hundreds of moves."""
        events: list[Event] = []
        while live.state.phase is not Phase.OVER:
            waiting = seats_to_act(live.state)
            bot_seats = [s for s in waiting if live.played_by_bot(s)]
            if bot_seats:
                await asyncio.sleep(0)
                seat = bot_seats[0]
                bot = live.bots.get(seat) or live.stand_in_bots[seat]
                events.extend(live.apply(bot.choose(
                    view(live.state, seat), legal_actions(live.state, seat)), None,
                    None if seat in live.bots else PlayedFor.STAND_IN))
            else:
                answered = next(((s, a) for s in waiting if live.auto_delay <= 0
                                 and (a := self.attendance.automatic(live, s)) is not None), None)
                if answered is None:
                    break
                events.extend(self.attendance.play_automatic(live, *answered))
            options.update(live.state)
        return events

    async def _commit(self, live: LiveGame, outbox: Sequence[NewDelivery]
                      ) -> tuple[OutboxEntry, ...]:
        """Write the unsaved actions, the clocks of the moment they lead to and `outbox` in
        one transaction (nothing when none changed), then take them as saved; returns the
        outbox entries as stored."""
        plan, moment = clock_plan(live, self.attendance)
        unsaved = live.unsaved
        entries: tuple[OutboxEntry, ...] = ()
        if unsaved or plan is not None or outbox:
            entries = await self.registry.db.actions.append_actions(
                live.table.game_id, len(live.saved.actions),
                [(text, actor) for text, actor, _, _ in unsaved], clocks=plan, outbox=outbox,
                played_for={index: played_for
                            for index, (_, _, _, played_for) in enumerate(unsaved)
                            if played_for is not None})
        live.saved = live.state
        live.saved_stand_ins = live.stand_ins
        live.unsaved = []
        if plan is not None:
            live.clocks = {(kind, seat): due for kind, seat, due in plan.clocks}
            live.clock_moment = moment
            self.registry.wake.set()
        return entries

    def _reports(self, live: LiveGame, events: Sequence[Event], changed: set[int], *,
                 new_turn: bool) -> list[NewDelivery]:
        """The outbox entries that report `events` (the state is `live.state`): the lines
        for the table, each human seat's own lines when it learned something, its options
        changed (`changed`) or the turn moved, and the result when the game is over."""
        state = live.state
        at = len(state.actions)
        names = live.table.names
        shown = state.result.declared if state.result is not None else ()
        lines = [line for e in events if (line := public_line(
            e, names, racks=live.table.rules.racks, shown=shown)) is not None]
        lines += live.said
        live.said = []
        acting = set(seats_to_act(state))
        reports: list[NewDelivery] = []
        if lines or new_turn:
            reports.append(NewDelivery(DeliveryKind.TABLE, at, None,
                                       entry_body(lines=lines, new_turn=new_turn)))
        for seat, user in enumerate(live.table.user_ids):
            if user is None:
                continue
            own = [for_seat(e, seat) for e in events]
            private = [line for e in own if (line := private_line(e, seat, names))]
            private += live.told.pop(seat, [])
            drawn = next((e.kind for e in reversed(own)
                          if isinstance(e, Drew) and e.seat == seat), None)
            # A seat whose options are what it was last shown keeps its prompt (prompts stay
            # good until the seat's own options change): no new message for it.
            if private or seat in changed or new_turn or state.phase is Phase.OVER:
                reports.append(NewDelivery(DeliveryKind.SEAT, at, seat, entry_body(
                    user=user, lines=private, drawn=drawn, must_act=seat in acting,
                    deadline=seat_deadline(live, seat, self.attendance),
                    stood_in=live.stand_ins.stood_in(seat), expired=seat in live.expired)))
        live.expired.clear()
        if state.phase is Phase.OVER:
            reports.append(NewDelivery(DeliveryKind.GAME_OVER, at))
        return reports

    async def _finish_saved(self, live: LiveGame) -> None:
        """Finish a game whose last move is committed. That move stands whatever happens
        here, so a database out of reach does not fail it (its player would be told nothing
        changed): the result is written by a task that tries again until the database
        answers, or, if the process stops first, by the next start, which finishes every
        game whose log is over (`restore`)."""
        try:
            await self._finish(live)
        except DatabaseUnavailable as error:
            self.registry.outage.failed(error)
            task = asyncio.create_task(self._finish_when_back(live),
                                       name=f"jongg-finish-{live.table.game_id}")
            self.registry.finishing.add(task)
            task.add_done_callback(self.registry.finishing.discard)

    async def _finish_when_back(self, live: LiveGame) -> None:
        """Write a finished game's result once the database answers again."""
        tries = 1
        while True:
            await asyncio.sleep(self.registry.outage.delay(tries))
            try:
                async with self.registry.db.game_lock(live.table.game_id):
                    await self._finish(live)
            except DatabaseUnavailable as error:
                self.registry.outage.failed(error)
                tries += 1
                continue
            self.registry.outage.answered()
            return

    async def _finish(self, live: LiveGame) -> None:
        result = live.state.result
        assert result is not None
        won = finishing(result.reason, result.declared)
        reason = {EndReason.MAHJONG: FinishReason.MAHJONG}.get(result.reason, FinishReason.WALL)
        scores = tuple(
            SeatScore(seat, result.totals[seat], json.dumps({
                "lines": [{"text": line.text, "points": line.points[seat]}
                          for line in result.lines if line.points[seat]],
                "settlement": result.settlement[seat]}))
            for seat in range(live.table.rules.players))
        # The winner's hand first: a result read without its log names it (see
        # `bot.league.record`).
        hands = [d.hand_id for d in result.declared if d is won]
        hands += [d.hand_id for d in result.declared if d is not won]
        # With the pot the next game of a series starts with, and the bettor's settlement.
        details = json.dumps({"reason": result.reason.value, "hands": hands,
                              "pot": result.pot, "bettor": result.bettor})
        await self.registry.db.games.finish_game(live.table.game_id, Outcome(
            reason, won.seat if won is not None else None, scores, details))
        try:
            await record_finished_game(self.registry.db, live.table.game_id, state=live.state)
        except Exception:
            # The result is safe in the store; the league catches up on the next start.
            log.exception("league record of game %s failed", live.table.game_id)
        await self.registry.close(live)

    async def try_restore(self, game_id: int) -> bool:
        """Restore a game at start-up; a game whose stored card the checker now refuses is
        left as it is, with a warning (the bot goes on with the others)."""
        try:
            async with self.registry.db.game_lock(game_id):
                await self.restore(game_id)
        except InvalidInput as error:
            log.warning("game %s not restored: %s", game_id, error.message)
            return False
        return True

    async def restore(self, game_id: int, *, into: LiveGame | None = None) -> LiveGame:
        """Rebuild a game from the store (the caller holds the game's lock): rules, card,
        seed, first holders' names, then every logged action replayed; then resume its
        undelivered messages. A game that is over is rebuilt only to deliver them. `into`:
        this process's older copy of the game, which becomes the store's (a move or the
        sender may hold it)."""
        rebuilt = await self.restorer.rebuild(game_id, into=into)
        live, game = rebuilt.live, rebuilt.game
        state, actions = live.state, live.state.actions
        self.registry.games[game_id] = live
        self.registry.sender.resume(live, rebuilt.pending, rebuilt.states)
        if game.status.is_over:
            await self.registry.close(live)
        elif actions and state.phase is not Phase.OVER:
            # The seats' old prompts still work (they carry the action counter), so nobody
            # is told anything new unless a bot moves (a game whose bot seats changed hands
            # in the store, or an older version's log).
            async with live.lock:
                await self.settle(live, ())
        elif state.phase is Phase.OVER and game.finished_at is None:
            async with live.lock:
                await self._finish(live)
        live.revision = await self.registry.db.games.revision(game_id)
        return live
