"""Who is at the table: people going away and coming back (vacations, and the edges at which
a planned one begins or one ends by itself), and the bots that keep a seat for a person who
timed out too often in a row until they reclaim it.

A person whose clock runs out too often in a row has their seat kept by a bot until they
reclaim it (`bot.tables.standins`): the moves the table makes for a person are marked in the
log, which is all a restart needs to count again. A vacation pauses a seat's clocks in the
games of its scope (`bot.tables.attendance`); beginning or ending one moves the clocks of
every such game this process holds, each as a move (`Moves.moving`), and tells its table.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection

from bot.engine.errors import IllegalAction
from bot.league.seasons import season_for_channel
from bot.store import Clock, Season, Vacation
from bot.tables.attendance import Attendance, CameBack
from bot.tables.errors import NotRunning, NotSeated
from bot.tables.live import AwayKey, LiveGame
from bot.tables.moves import Moves
from bot.tables.registry import Registry
from bot.tables.standins import reclaim_hint
from bot.tables.vacation import BACK_NOTE, VacationStatus, away_note, budget_until, vacation_status


class Presence:
    """Vacations begun, ended and reaching their edges, stand-ins seated and reclaimed."""

    def __init__(self, registry: Registry, moves: Moves, attendance: Attendance) -> None:
        self.registry = registry
        self.moves = moves
        self.attendance = attendance

    async def away_at_table(self, guild_id: int, channel_id: int, users: Collection[int],
                            *, personal: bool = False) -> dict[int, float]:
        """Which of `users` (a lobby's people) are on vacation now, and until when: in the
        season of the league of this channel, or elsewhere on a personal vacation when the
        table pauses for those (`personal`). A table about to start waits for them, so the
        lobby says so."""
        season = await season_for_channel(self.registry.db, guild_id, channel_id)
        if not users or (season is None and not personal):
            return {}
        return {v.user_id: v.until
                for v in await self.registry.db.vacations.under_way_in(
                    None if season is None else season.id, self.registry.now())
                if v.user_id in users and v.started_at <= self.registry.now()}

    async def vacation(self, user_id: int, season: Season | None) -> VacationStatus:
        """The player's vacation budget in the season (None: their personal vacations, each
        capped instead): days used, and any vacation under way or planned."""
        return vacation_status(season, await self.registry.db.vacations.of(
            None if season is None else season.id, user_id), self.registry.now())

    async def start_vacation(self, user_id: int, season: Season | None, *,
                             start: float | None = None, days: int | None = None
                             ) -> VacationStatus:
        """Start the player's vacation in the season (None: a personal one), now or planned
        from `start`, for `days` (None: until they end it, or the budget or a personal
        vacation's cap runs out): their clocks in the season's games (a personal one: at
        casual tables that pause for vacations) pause meanwhile, claim windows pass for
        them, and those tables are told until when (a planned vacation when it begins, by
        its AWAY clock). Refused (`IllegalAction`) while one is under way or planned, or
        beyond the days left."""
        if season is not None and not season.is_open:
            raise IllegalAction("This league's season is over, so there are no games to "
                                "pause.")
        status = await self.vacation(user_id, season)
        now = self.registry.now()
        begins = now if start is None else max(start, now)
        until = status.start_until(begins, days)  # refuses when none may start
        scope = None if season is None else season.id
        vacation = await self.registry.db.vacations.start(scope, user_id, at=begins, until=until)
        await self.repause(user_id, scope, (vacation.started_at, vacation.until),
                           away_note(vacation.until) if begins <= now else None)
        return await self.vacation(user_id, season)

    async def end_vacation(self, user_id: int, season: Season | None) -> VacationStatus:
        """End the player's vacation in the season (None: their personal one) now (their
        clocks run again with the time they had left, and their tables are told), or
        cancel one planned (nobody was told of it). Refused (`IllegalAction`) when there is
        neither."""
        status = await self.vacation(user_id, season)
        vacation = status.current or status.planned
        if vacation is None:
            raise IllegalAction(f"You're not on vacation{status.where}, and have none "
                                "planned.")
        await self.registry.db.vacations.end(vacation.id, at=self.registry.now())
        await self.repause(user_id, vacation.season_id, None,
                           BACK_NOTE if status.current is not None else None)
        return await self.vacation(user_id, season)

    async def change_vacation_budget(self, league_id: int, days: int, *, by: int,
                                     reason: str) -> tuple[Season, list[Vacation]]:
        """A director changes the open season's vacation budget (audited, with `reason`):
        each vacation under way ends when the new budget ends it (`budget_until`), at once
        if that has passed; the clocks of those players move with it and their tables are
        told (of a vacation only planned, nothing: a cut that leaves it no days calls it
        off). Returns the season and the vacations under way or planned as they now are."""
        now = self.registry.now()
        season, changed = await self.registry.db.vacations.change_budget(
            league_id, days, by=by, reason=reason, at=now, limit=budget_until)
        for vacation in changed:
            # A vacation only planned is nobody's news yet: its table hears when it begins.
            begun = vacation.started_at <= now
            if vacation.ended_at is None:
                await self.repause(vacation.user_id, season.id,
                                   (vacation.started_at, vacation.until),
                                   away_note(vacation.until) if begun else None)
            else:
                await self.repause(vacation.user_id, season.id, None,
                                   BACK_NOTE if begun else None)
        return season, changed

    async def back_elsewhere(self, back: CameBack | None) -> None:
        """After a move that ended the mover's vacation (`back`; None: it ended nothing),
        their other games of its scope run again too."""
        if back is not None and back.game.pauses_for_vacations:
            await self.repause(back.user_id, back.game.season_id, None, BACK_NOTE,
                               was=back.was, skip=back.game.table.game_id)

    async def repause(self, user_id: int, season_id: int | None,
                      away: tuple[float, float] | None, note: str | None, *,
                      was: tuple[float, float] | None = None, skip: int | None = None
                      ) -> None:
        """The user's vacation in the season (None: their personal one) is now `away`
        (None: over): retime their clocks in every game it pauses that they play (but
        `skip`, retimed already), and tell those tables `note` (formatted with the seat
        holder's name; None: nothing to tell). `was`: the stretch they were away for, when
        it is no longer the one kept."""
        key: AwayKey = (user_id, season_id)
        was = self.registry.away.get(key, was)
        if away is None:
            self.registry.away.pop(key, None)
        else:
            self.registry.away[key] = away
        games = [game_id for game_id, live in self.registry.games.items() if not live.closed
                 and live.away_key(user_id) == key and live.table.seat_of(user_id) is not None
                 and game_id != skip]
        for game_id in games:
            with contextlib.suppress(NotRunning):
                await self._retime_away(game_id, user_id, was, note)

    async def _retime_away(self, game_id: int, user_id: int,
                           was: tuple[float, float] | None, note: str | None) -> None:
        """`repause` for one game: the user's seat's clocks retimed (they were away for
        `was`), and the table told `note` (if any)."""
        async with self.moves.moving(game_id) as live:
            seat = live.table.seat_of(user_id)
            if seat is not None:
                self.attendance.retime(live, seat, self.attendance.pauses_away(live, seat, was))
                if note is not None:
                    live.said.append(note.format(name=live.table.names[seat]))
                await self.moves.settle(live, ())

    async def away_edge(self, live: LiveGame, clock: Clock) -> None:
        """A seat's AWAY clock ran out (the caller holds the game): its holder's vacation
        began (planned ahead) or ended by itself (its days ran out), and the table is told
        as `/mj vacation start` and `end` tell it; the next such moment is set again."""
        seat = clock.seat
        assert seat is not None
        await self.registry.db.clocks.clear_clock(clock.game_id, clock.kind, seat=seat)
        key = live.away_key(live.table.user_ids[seat])
        if key is None:
            return
        away = self.registry.away.get(key)
        now = self.registry.now()
        name = live.table.names[seat]
        if away is not None and away[0] <= now < away[1]:
            live.said.append(away_note(away[1]).format(name=name))
        elif away is None or now >= away[1]:
            self.registry.away.pop(key, None)
            live.said.append(BACK_NOTE.format(name=name))
        await self.moves.settle(live, ())

    def stand_in(self, live: LiveGame, seat: int, level: str) -> None:
        """The bot of `level` keeps a person's seat (they timed out too often in a row): it
        plays their moves from now on, and they and the table are told how to take it
        back."""
        live.stand_in_bots[seat] = self.registry.bot(level, live.table, live.state.seed, seat)
        name = live.table.names[seat]
        missed = live.stand_ins.after
        live.told.setdefault(seat, []).append(
            f"You missed {missed} moves in a row, so a bot plays your seat for now. To take "
            f"it back, {reclaim_hint(live.table.game_id)}.")
        live.said.append(f"{name} missed {missed} moves in a row: a bot plays for them until "
                         "they take the seat back.")

    async def reclaim(self, game_id: int, user_id: int, seat: int | None = None) -> int:
        """A person takes back their seat from the bot standing in for them, at once: they
        move next time it is their move, with their own options. `seat`: the seat a button
        was for (refused unless it is theirs). Returns the seat."""
        async with self.moves.moving(game_id) as live:
            mine = live.table.seat_of(user_id)
            if mine is None or (seat is not None and seat != mine):
                raise NotSeated("Only the player whose seat this is can take it back.")
            if not live.stand_ins.stood_in(mine):
                raise IllegalAction("Your seat is yours already: no bot is playing it.")
            await self.registry.db.seats.record_reclaim(game_id, mine, user_id)
            # Durable already: the count starts again even if what follows fails.
            live.stand_ins = live.saved_stand_ins = live.stand_ins.back(mine)
            live.said.append(f"{live.table.names[mine]} is back and plays their own seat.")
            await self.moves.settle(live, (), new_turn=True)
        return mine
