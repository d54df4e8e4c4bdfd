"""Fair play for people who sleep and travel, through the table service with a fake clock: a
claim window answers for a seat whose holder is asleep (quiet hours) or on vacation as their
options would, at the one delay every automatic answer waits, never as a timeout; a single
timeout is told to the seat and to the table; a move made while on vacation ends it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from table_helpers import ANN, BO, HOST, Clock, Recorder, make_service, open_game

from bot.engine.errors import IllegalAction, InvalidInput
from bot.engine.game import THREE_PLAYER, Call, Pass, Phase, parse_action
from bot.engine.game.rules import rules_to_json
from bot.store import ClockKind, Database, PlayedFor, Season, SeasonSettings
from bot.tables.auto import automatic
from bot.tables.seat_options import AutoDiscard, SeatOptions
from bot.tables.service import DEFAULT_AUTO_DELAY, TableService
from bot.tables.timekeeping import zone
from bot.tables.vacation import parse_start

HOUR = 3600
DAY = 24 * HOUR
TOKYO = "Asia/Tokyo"
#: Asleep from 22:00 to 08:00 in Tokyo. The drawn tile goes back out on its own (a move
#: the seat's options make, so the seat plays on while nobody touches it).
SLEEPER = SeatOptions(time_zone=TOKYO, quiet_hours="22:00-08:00",
                      auto_discard=AutoDiscard.DRAWN)
#: Ann hosts and sits East; the host of the other tests (`HOST`) sits South and is the one
#: asleep or away; Bo sits West.
PLAYERS = [ANN, HOST, BO]
AWAY_SEAT = 1


def tokyo(*when: int) -> float:
    """A Tokyo wall-clock time (year, month, day, hour, minute) as a Unix time."""
    return datetime(*when, tzinfo=zone(TOKYO)).timestamp()  # type: ignore[misc]


@pytest.fixture
def clock() -> Clock:
    clock = Clock()
    clock.now = tokyo(2026, 6, 10, 23, 0)  # an hour into the sleeper's night
    return clock


async def league_season(db: Database, vacation_days: int = 7) -> Season:
    """An open three-player season of a league in the channel `open_game` uses."""
    league = await db.leagues.create_league(1, "Friday", 2, created_by=ANN)
    return await db.leagues.start_season(league.id, SeasonSettings(
        "Spring", 3, "jongg-original", "nmjl", rules_to_json(THREE_PLAYER),
        vacation_days=vacation_days), by=ANN)


async def marked(db: Database, game_id: int, kind: PlayedFor, seat: int) -> int:
    """How many of `seat`'s moves the log marks as played for them as `kind`."""
    return sum(1 for a in await db.actions.actions(game_id)
               if a.played_for is kind and parse_action(a.text, 3).seat == seat)


def could_call(service: TableService, game_id: int) -> bool:
    """Whether the away seat would be asked about the discard in the claim window now, were
    it awake and at home: it may call it, and its options do not answer for it."""
    table = service.table(game_id)
    mine = service.view_for(game_id, HOST)
    return any(isinstance(o.action, Call) for o in mine.legal) and automatic(
        mine, table.options_of(AWAY_SEAT), table.card, table.rules.counts, None) is None


async def others_play(service: TableService, game_id: int) -> bool:
    """Ann or Bo, whoever can, passes if they may and plays their first option if not;
    False when neither can move (the away seat's move, or an automatic one, is due)."""
    for user in (ANN, BO):
        theirs = service.view_for(game_id, user)
        if theirs.legal:
            passing = next((o.action for o in theirs.legal
                            if isinstance(o.action, Pass)), theirs.legal[0].action)
            await service.act(game_id, user, passing, theirs.action_count)
            return True
    return False


def asked_in_claim(service: TableService, game_id: int) -> bool:
    """Whether the away seat still has a claim window's question before it."""
    mine = service.view_for(game_id, HOST)
    return mine.phase is Phase.CLAIM and bool(mine.legal)


async def claim_windows_while_away(service: TableService, clock: Clock, game_id: int,
                                   wanted: int) -> int:
    """Play on until the away seat has been in `wanted` claim windows in which it could
    call (the others passing where they can, else playing their first option, the away
    seat's own options discarding for it); in every window the away seat is answered for
    once the automatic delay has passed, and never later. Returns the windows seen.
    Fails if the game never gets there (a scenario that checks nothing)."""
    seen = 0
    for _ in range(400):
        view = service.spectator(game_id)
        if view.phase is Phase.OVER:
            break
        if view.phase is Phase.CLAIM and service.view_for(game_id, HOST).legal:
            seen += could_call(service, game_id)
            clock.now += DEFAULT_AUTO_DELAY + 0.01
            await service.run_due_clocks()
            assert not asked_in_claim(service, game_id), "the away seat was asked"
            if seen >= wanted:
                return seen
            continue
        if not await others_play(service, game_id):
            clock.now += DEFAULT_AUTO_DELAY + 0.01
            await service.run_due_clocks()
    raise AssertionError(f"the away seat could call in only {seen} of {wanted} windows")


@pytest.mark.parametrize("why", ["asleep", "on vacation"])
async def test_a_claim_window_answers_for_a_seat_asleep_or_away_without_a_timeout(
        tmp_path: Path, clock: Clock, why: str) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        service.new_seed = lambda: 1
        if why == "asleep":
            await service.set_player_options(HOST, SLEEPER)
        else:
            await service.set_player_options(HOST, SeatOptions(auto_discard=AutoDiscard.DRAWN))
            season = await league_season(db)
            clock.now = tokyo(2026, 6, 10, 12, 0)  # midday: awake, but away
        game_id = await open_game(service, THREE_PLAYER, PLAYERS, pace="async")
        if why == "on vacation":
            await service.start_vacation(HOST, season)
        assert await claim_windows_while_away(service, clock, game_id, wanted=3) >= 3
        await service.flush(game_id)
        # Passed for: no timeout, no stand-in, nothing told to the table about it.
        assert await marked(db, game_id, PlayedFor.TIMEOUT, AWAY_SEAT) == 0
        assert not service.stand_ins(game_id).stood_in(AWAY_SEAT)
        assert not any("Time ran out" in line for t in recorder.tables for line in t.lines)
        await service.close()


async def test_a_claim_window_opened_before_the_night_passes_for_the_sleeper_at_its_end(
        tmp_path: Path, clock: Clock) -> None:
    """Quiet hours that begin while a window is open: its clock runs out on a sleeper, who
    is passed for as at the delay, not timed out."""
    clock.now = tokyo(2026, 6, 10, 21, 0)
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        service.new_seed = lambda: 1
        await service.set_player_options(HOST, SLEEPER)
        game_id = await open_game(service, THREE_PLAYER, PLAYERS, pace="async")
        for _ in range(400):
            view = service.spectator(game_id)
            if view.phase is Phase.CLAIM and could_call(service, game_id):
                break
            if not await others_play(service, game_id):
                clock.now += DEFAULT_AUTO_DELAY + 0.01
                await service.run_due_clocks()
        else:
            raise AssertionError("the sleeper never could call")
        # The window opened before 22:00 and runs out after it: asleep by then.
        [claim] = [c for c in await db.clocks.clocks(game_id) if c.kind is ClockKind.CLAIM]
        assert clock.now < tokyo(2026, 6, 10, 22, 0) < claim.due_at
        clock.now = claim.due_at + 0.01
        await service.run_due_clocks()
        assert not service.view_for(game_id, HOST).legal or service.spectator(
            game_id).phase is not Phase.CLAIM
        assert await marked(db, game_id, PlayedFor.TIMEOUT, AWAY_SEAT) == 0
        await service.close()


async def play_until_asked(service: TableService, clock: Clock, game_id: int,
                           phase: Phase, *, passes: bool = True) -> None:
    """Play on (the others passing where they may) until the away seat is asked to move in
    `phase` (in a claim window: one it could call in); fails if that never happens. The
    seat passes in claim windows (`passes`), or leaves them to the automatic answer."""
    for _ in range(400):
        mine = service.view_for(game_id, HOST)
        if mine.phase is phase and mine.legal and (
                phase is not Phase.CLAIM or could_call(service, game_id)):
            return
        if mine.legal and mine.phase is not Phase.CLAIM:
            await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        elif mine.legal and passes:
            await service.act(game_id, HOST, Pass(AWAY_SEAT), mine.action_count)
        elif not await others_play(service, game_id):
            clock.now += DEFAULT_AUTO_DELAY + 0.01
            await service.run_due_clocks()
    raise AssertionError(f"the seat was never asked in {phase}")


@pytest.mark.parametrize(("phase", "public", "private"), [
    (Phase.TURN, "the bot made their move", "Discard"),
    (Phase.CLAIM, "a pass was made for them", "Pass"),
])
async def test_a_single_timeout_is_told_to_the_seat_and_the_table(
        tmp_path: Path, clock: Clock, phase: Phase, public: str, private: str) -> None:
    clock.now = tokyo(2026, 6, 10, 12, 0)
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        service.new_seed = lambda: 1
        game_id = await open_game(service, THREE_PLAYER, PLAYERS, pace="live")
        await play_until_asked(service, clock, game_id, phase)
        await service.flush(game_id)
        recorder.seats.clear()
        kind = ClockKind.CLAIM if phase is Phase.CLAIM else ClockKind.TURN
        [ran_out] = [c.due_at for c in await db.clocks.clocks(game_id) if c.kind is kind]
        clock.now = ran_out + 0.01
        for _ in range(3):  # an automatic answer due first re-sets the clocks
            await service.run_due_clocks()
        await service.flush(game_id)
        assert await marked(db, game_id, PlayedFor.TIMEOUT, AWAY_SEAT) == 1
        lines = [line for t in recorder.tables for line in t.lines]
        assert f"Time ran out for Player 1: {public}." in lines
        mine = [line for seat, update in recorder.seats if seat == AWAY_SEAT
                for line in update.lines]
        assert [line for line in mine if line.startswith("Your time ran out")] == [
            next(line for line in mine if line.startswith(
                f"Your time ran out, so this was played for you: {private}"))]
        # Off a claim window the seat's old prompt is to lose its controls.
        told = [e for e in await db.outbox.entries(game_id)
                if e.kind.value == "seat" and e.seat == AWAY_SEAT and "time ran out" in e.body]
        assert [('"expired":true' in e.body) for e in told] == [phase is not Phase.CLAIM]
        await service.close()


async def test_a_move_made_on_vacation_ends_it_in_every_game_of_the_season(
        tmp_path: Path, clock: Clock) -> None:
    clock.now = tokyo(2026, 6, 10, 12, 0)
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        season = await league_season(db)
        service = make_service(db, recorder, clock)
        service.new_seed = lambda: 1
        games = [await open_game(service, THREE_PLAYER, PLAYERS, pace="async")
                 for _ in range(2)]
        await service.start_vacation(HOST, season)
        clock.now += 2 * HOUR
        await play_until_asked(service, clock, games[0], Phase.TURN, passes=False)
        assert (await service.vacation(HOST, season)).current is not None  # still away
        mine = service.view_for(games[0], HOST)
        await service.act(games[0], HOST, mine.legal[0].action, mine.action_count)
        status = await service.vacation(HOST, season)
        assert status.current is None and status.used == 1
        for game_id in games:
            await service.flush(game_id)
        back = [line for t in recorder.tables for line in t.lines
                if line.startswith("Player 1 is back from vacation")]
        assert len(back) == 2  # once in each game
        assert any("playing a move ended your vacation" in line
                   for seat, update in recorder.seats if seat == AWAY_SEAT
                   for line in update.lines)
        # The clocks of the second game no longer wait for the vacation's end.
        assert all(c.due_at < clock.now + DAY for c in await db.clocks.clocks(games[1])
                   if c.seat == AWAY_SEAT)
        await service.close()


def lines_with(recorder: Recorder, text: str) -> list[str]:
    """The table lines told so far that contain `text`."""
    return [line for t in recorder.tables for line in t.lines if text in line]


async def away_clocks(db: Database, game_id: int) -> list[tuple[int | None, float]]:
    return [(c.seat, c.due_at) for c in await db.clocks.clocks(game_id)
            if c.kind is ClockKind.AWAY]


async def test_a_game_started_during_a_vacation_says_so_and_says_when_it_ends_by_itself(
        tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        season = await league_season(db, vacation_days=2)
        service = make_service(db, recorder, clock)
        await service.start(run_clocks=False)
        await service.start_vacation(HOST, season)
        until = clock.now + 2 * DAY
        assert await service.away_at_table(1, 2, [ANN, HOST, BO]) == {HOST: until}
        game_id = await open_game(service, THREE_PLAYER, PLAYERS, pace="async")
        await service.flush(game_id)
        [note] = lines_with(recorder, "Player 1 is on vacation until")
        assert f"<t:{int(until)}:f>" in note and "UTC" not in note
        assert await away_clocks(db, game_id) == [(AWAY_SEAT, until)]
        # Her days run out: the table hears she is back, once, and no clock is left for it.
        clock.now = until + 1
        await service.run_due_clocks()
        await service.run_due_clocks()
        await service.flush(game_id)
        assert len(lines_with(recorder, "Player 1 is back from vacation")) == 1
        assert await away_clocks(db, game_id) == []
        await service.close()


async def test_a_vacation_planned_ahead_begins_and_ends_on_its_own_and_can_be_cancelled(
        tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        season = await league_season(db, vacation_days=5)
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, PLAYERS, pace="async")
        begins = clock.now + DAY
        status = await service.start_vacation(HOST, season, start=begins, days=2)
        assert status.current is None and status.planned is not None
        assert (status.planned.started_at, status.planned.until) == (begins, begins + 2 * DAY)
        with pytest.raises(IllegalAction, match="planned from"):
            await service.start_vacation(HOST, season)
        await service.flush(game_id)
        assert lines_with(recorder, "on vacation") == []  # nobody told yet
        assert await away_clocks(db, game_id) == [(AWAY_SEAT, begins)]
        clock.now = begins + 1
        await service.run_due_clocks()
        await service.flush(game_id)
        assert len(lines_with(recorder, "Player 1 is on vacation until")) == 1
        assert (await service.vacation(HOST, season)).current is not None
        assert await away_clocks(db, game_id) == [(AWAY_SEAT, begins + 2 * DAY)]
        clock.now = begins + 2 * DAY + 1
        await service.run_due_clocks()
        await service.flush(game_id)
        assert len(lines_with(recorder, "Player 1 is back from vacation")) == 1
        status = await service.vacation(HOST, season)
        assert status.current is None and status.planned is None and status.used == 2
        # Planned again, then cancelled: nobody is told, and no clock waits for it.
        await service.start_vacation(HOST, season, start=clock.now + DAY, days=1)
        status = await service.end_vacation(HOST, season)
        assert status.planned is None and status.used == 2
        await service.flush(game_id)
        assert await away_clocks(db, game_id) == []
        assert len(lines_with(recorder, "vacation")) == 2
        with pytest.raises(IllegalAction, match="have 3 vacation days left"):
            await service.start_vacation(HOST, season, days=4)
        await service.close()


def test_a_planned_start_is_read_on_the_players_own_clock() -> None:
    now = tokyo(2026, 6, 10, 12, 0)
    assert parse_start("2026-06-12", TOKYO, now) == tokyo(2026, 6, 12, 0, 0)
    assert parse_start("2026-06-12 18:30", TOKYO, now) == tokyo(2026, 6, 12, 18, 30)
    assert parse_start("2026-06-10", TOKYO, now) == now  # earlier today: now
    for typed, said in (("next week", "can't read"), ("2026-06-09", "has passed"),
                        ("2028-01-01", "at most a year ahead")):
        with pytest.raises(InvalidInput, match=said):
            parse_start(typed, TOKYO, now)
