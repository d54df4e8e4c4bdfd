"""The table service with a real SQLite file and a recording notifier: lobby to result,
restarts, stale and concurrent clicks, clocks, bots and what each seat is told."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from table_helpers import (
    ANN,
    BO,
    CARD_TEXT,
    CY,
    HOST,
    Clock,
    Recorder,
    league_season,
    make_service,
    open_game,
    play_out,
)

from bot.engine.errors import IllegalAction
from bot.engine.game import (
    SIAMESE,
    STANDARD,
    THREE_PLAYER,
    Pass,
    Phase,
    RuleSet,
    parse_action,
    replay,
    spectator_view,
)
from bot.engine.game.actions import DeclareDead, Discard
from bot.engine.game.rules import Charleston, WallEnd, Walls
from bot.server_cards import parse_card
from bot.store import Clock as StoredClock
from bot.store import ClockKind, Database, GameStatus, OutboxEntry, StoreError
from bot.tables.errors import NotSeated, StalePrompt
from bot.tables.options import TableOptions
from bot.tables.seat_options import JokerCalls, SeatOptions
from bot.tables.service import TableService


async def _claim_window(service: TableService) -> int:
    """A three-player table of people where the host has just discarded: a claim window."""
    game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO])
    mine = service.view_for(game_id, HOST)
    discard = next(o.action for o in mine.legal if isinstance(o.action, Discard))
    await service.act(game_id, HOST, discard, mine.action_count)
    return game_id


async def claim_clocks(db: Database, game_id: int) -> list[StoredClock]:
    """The game's claim-window clocks (not the automatic answers' clock beside them)."""
    return [c for c in await db.clocks.clocks(game_id) if c.kind is ClockKind.CLAIM]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.mark.parametrize("rules", [STANDARD, THREE_PLAYER, SIAMESE], ids=lambda r: r.name)
async def test_a_whole_game_is_logged_scored_and_told(tmp_path: Path, clock: Clock,
                                                      rules: RuleSet) -> None:
    recorder = Recorder()
    humans = [HOST, ANN, BO, CY][:rules.players]
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, rules, humans)
        await play_out(service, game_id, humans)
        await service.flush(game_id)
        record = await db.games.load_game(game_id)
        assert record.game.status is GameStatus.FINISHED
        result = await db.games.result(game_id)
        assert result is not None and len(result.seats) == rules.players
        # The log replays to the end the table was shown.
        names = tuple(s.display_name for s in record.history if s.from_seq == 0)
        again, _ = replay(rules, parse_card(record.game.card.text), record.game.seed, names,
                          [parse_action(a.text, rules.players) for a in record.actions])
        await service.close()
    assert len(recorder.over) == 1 and recorder.over[0].result is not None
    assert recorder.over[0] == spectator_view(again)
    # Public updates never carry a seat's concealed tiles; private ones are the seat's own.
    assert all(update.view.concealed == () and update.view.seat == -1
               for update in recorder.tables)
    assert all(update.view.seat == seat for seat, update in recorder.seats)


async def test_bots_fill_empty_seats_andplay_out(tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, STANDARD, [HOST])
        assert service.bot_seats(game_id) == (1, 2, 3)
        await play_out(service, game_id, [HOST])
        await service.close()
    assert recorder.over


async def test_stale_and_foreign_clicks_change_nothing(tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, STANDARD, [HOST, ANN, BO, CY])
        mine = service.view_for(game_id, HOST)
        before = await db.actions.next_seq(game_id)
        with pytest.raises(StalePrompt, match="out of date"):
            await service.act(game_id, HOST, mine.legal[0].action, mine.action_count - 1)
        with pytest.raises(NotSeated):
            await service.act(game_id, 999, mine.legal[0].action, mine.action_count)
        with pytest.raises(Exception, match="your own seat"):
            await service.act(game_id, ANN, mine.legal[0].action, mine.action_count)
        assert await db.actions.next_seq(game_id) == before
        await service.close()


async def test_a_double_click_acts_once(tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO])
        mine = service.view_for(game_id, HOST)
        discard = next(o.action for o in mine.legal if isinstance(o.action, Discard))
        results = await asyncio.gather(
            service.act(game_id, HOST, discard, mine.action_count),
            service.act(game_id, HOST, discard, mine.action_count),
            return_exceptions=True)
        assert sum(isinstance(r, StalePrompt) for r in results) == 1
        assert await db.actions.next_seq(game_id) == mine.action_count + 1
        await service.close()


async def test_people_joining_at_once_each_get_a_seat_and_one_start_wins(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game = await service.open_table(
            guild_id=1, channel_id=2, host_id=HOST, host_name="Host",
            options=TableOptions(STANDARD, "jongg-original", CARD_TEXT))
        seats = await asyncio.gather(*(service.join(game.id, user, f"P{user}")
                                       for user in (ANN, BO, CY)))
        assert sorted(seats) == [1, 2, 3]
        with pytest.raises(StoreError, match="full"):
            await service.join(game.id, 999, "Late")
        await service.leave(game.id, CY)
        results = await asyncio.gather(service.start_game(game.id, HOST),
                                       service.start_game(game.id, HOST),
                                       return_exceptions=True)
        refused = [r for r in results if isinstance(r, Exception)]
        assert len(refused) == 1 and "already started" in str(refused[0]), results
        held = await db.seats.seats(game.id)
        assert [(s.seat, s.display_name) for s in held if s.is_bot] == [(3, "Bot 1")]
        await service.close()


#: A table with the house options on: they reach the game through its stored options.
HOUSE = replace(STANDARD, name="House", charleston=Charleston.NONE, walls=Walls.NONE, dice=0,
                quarters_pot=True, pay_for_table=True, wall_end=WallEnd.HOT)


@pytest.mark.parametrize("rules", [STANDARD, THREE_PLAYER, SIAMESE, HOUSE],
                         ids=lambda r: r.name)
async def test_a_restart_rebuilds_the_game_and_play_goes_on(tmp_path: Path, clock: Clock,
                                                            rules: RuleSet) -> None:
    humans = [HOST, ANN, BO, CY][:rules.players]
    async with Database(tmp_path / "j.db") as db:
        first = make_service(db, Recorder(), clock)
        game_id = await open_game(first, rules, humans)
        for _ in range(40):  # into the game, with a claim window likely open
            user = next(u for u in humans if first.view_for(game_id, u).legal)
            mine = first.view_for(game_id, user)
            await first.act(game_id, user, mine.legal[0].action, mine.action_count)
        before = first.registry.games[game_id].state
        await first.close()
    async with Database(tmp_path / "j.db") as db:
        recorder = Recorder()
        second = make_service(db, recorder, clock)
        assert await second.start(run_clocks=False) == 1
        assert second.registry.games[game_id].state == before
        assert second.registry.games[game_id].state.rules == rules
        await play_out(second, game_id, humans)
        await second.close()
    assert recorder.over


#: Automatic answers that wait past the live claim window (10 s), so a test of the claim
#: clock sees it act alone.
LATE_AUTO = 20.0


async def test_claim_clock_passes_for_silent_seats(tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock, auto_delay=LATE_AUTO)
        game_id = await _claim_window(service)
        assert service.spectator(game_id).phase is Phase.CLAIM
        clocks = await db.clocks.clocks(game_id)
        assert [c.kind.value for c in clocks if c.kind is not ClockKind.AUTO] == ["claim"]
        assert await service.run_due_clocks(clock.now + 5) == 0  # not yet
        assert await service.run_due_clocks(clock.now + 11) == 1
        assert service.spectator(game_id).phase is not Phase.CLAIM
        await service.close()


async def test_a_restart_keeps_the_clocks_deadlines(tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        first = make_service(db, Recorder(), clock, auto_delay=LATE_AUTO)
        game_id = await _claim_window(first)
        kept = await db.clocks.clocks(game_id)
        assert ClockKind.CLAIM in [c.kind for c in kept]
        await first.close()
    clock.now += 6  # the bot was down for 6 of the claim window's 10 seconds
    async with Database(tmp_path / "j.db") as db:
        second = make_service(db, Recorder(), clock, auto_delay=LATE_AUTO)
        await second.start(run_clocks=False)
        assert await db.clocks.clocks(game_id) == kept
        assert await second.run_due_clocks(clock.now + 3) == 0
        assert await second.run_due_clocks(clock.now + 4.5) == 1
        assert second.spectator(game_id).phase is not Phase.CLAIM
        await second.close()


async def test_a_move_and_the_bots_answers_are_one_commit(tmp_path: Path,
                                                          clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, STANDARD, [HOST])
        commits: list[int] = []
        append = db.actions.append_actions

        async def counted(game: int, seq: int, actions: Sequence[tuple[str, int | None]],
                          **kwargs: object) -> tuple[OutboxEntry, ...]:
            commits.append(len(actions))
            return await append(game, seq, actions, **kwargs)  # type: ignore[arg-type]

        db.actions.append_actions = counted  # type: ignore[method-assign]
        mine = service.view_for(game_id, HOST)
        await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        after = service.view_for(game_id, HOST).action_count
        assert len(commits) == 1 and commits[0] == after - mine.action_count > 1
        assert await db.actions.next_seq(game_id) == after
        assert {c.at_seq for c in await db.clocks.clocks(game_id)} == {after}
        await service.close()


async def test_a_failed_commit_leaves_the_game_as_stored(tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, STANDARD, [HOST])
        await service.flush(game_id)
        told = len(recorder.seats), len(recorder.tables)
        mine = service.view_for(game_id, HOST)
        append = db.actions.append_actions

        async def broken(*args: object, **kwargs: object) -> None:
            raise StoreError("disk full")

        db.actions.append_actions = broken  # type: ignore[method-assign]
        with pytest.raises(StoreError):
            await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        await service.flush(game_id)
        assert service.view_for(game_id, HOST) == mine
        assert (len(recorder.seats), len(recorder.tables)) == told  # nothing announced
        db.actions.append_actions = append  # type: ignore[method-assign]
        # The same prompt works once the store does.
        await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        assert await db.actions.next_seq(game_id) > mine.action_count
        await service.close()


async def test_async_pace_reminds_then_the_bot_moves(tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO], pace="async")
        count = service.view_for(game_id, HOST).action_count
        day = 24 * 3600
        await service.run_due_clocks(clock.now + 0.8 * day)
        await service.flush(game_id)
        # Reminded as the turn starts and at 75 % of the clock.
        assert [seat for seat, _ in recorder.reminders] == [0, 0]
        assert service.view_for(game_id, HOST).action_count == count
        await service.run_due_clocks(clock.now + day + 1)
        assert service.view_for(game_id, HOST).action_count > count
        await service.close()


async def test_resign_hands_the_seat_to_a_bot(tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO])
        seat = await service.resign(game_id, ANN)
        assert seat in service.bot_seats(game_id)
        with pytest.raises(NotSeated):
            service.view_for(game_id, ANN)
        await play_out(service, game_id, [HOST, BO])
        await service.close()


async def test_a_claim_window_keeps_its_deadline_and_prompts_while_others_answer(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await _claim_window(service)
        (claim,) = await claim_clocks(db, game_id)
        ann = service.view_for(game_id, ANN)
        bo = service.view_for(game_id, BO)
        clock.now += 4
        await service.act(game_id, ANN, Pass, ann.action_count)
        (later,) = await claim_clocks(db, game_id)
        assert later.due_at == claim.due_at and later.at_seq == claim.at_seq + 1
        # Bo's prompt from before Ann answered is still good.
        await service.act(game_id, BO, Pass, bo.action_count)
        assert service.spectator(game_id).phase is not Phase.CLAIM
        await service.close()


async def test_a_league_games_time_limit_stops_it_with_zero_for_everyone(
        tmp_path: Path, clock: Clock) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db", clock=clock) as db:
        await league_season(db, minutes=90)  # every game has a time limit
        service = make_service(db, recorder, clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN, BO])
        limits = [c for c in await db.clocks.clocks(game_id) if c.kind.value == "game_limit"]
        assert [c.due_at for c in limits] == [clock.now + 90 * 60]
        mine = service.view_for(game_id, HOST)
        await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
        assert [c.kind.value for c in await db.clocks.clocks(game_id)].count("game_limit") == 1
        await service.run_due_clocks(clock.now + 90 * 60 + 1)
        await service.flush(game_id)
        result = await db.games.result(game_id)
        assert result is not None and result.reason.value == "timeout"
        assert [s.points for s in result.seats] == [0, 0, 0]
        assert any("Time's up" in line for u in recorder.tables for line in u.lines)
        with pytest.raises(Exception, match="isn't running"):
            service.view_for(game_id, HOST)
        await service.close()


async def test_seat_options_are_kept_through_a_restart_and_not_handed_over(
        tmp_path: Path, clock: Clock) -> None:
    offer = SeatOptions(joker_calls=JokerCalls.OFFER)
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game = await service.open_table(
            guild_id=1, channel_id=2, host_id=HOST, host_name="Host",
            options=TableOptions(THREE_PLAYER, "jongg-original", CARD_TEXT))
        await service.join(game.id, ANN, "Ann")
        # Chosen in the lobby, they are the seat's from the start of play.
        assert await service.seat_options(game.id, ANN) == SeatOptions()
        await service.set_seat_options(game.id, ANN, offer)
        await service.start_game(game.id, HOST)
        assert service.table(game.id).options_of(1) == offer
        await service.set_seat_options(game.id, HOST, offer)
        await service.set_seat_options(game.id, HOST, SeatOptions())
        with pytest.raises(NotSeated):
            await service.set_seat_options(game.id, BO, offer)
        await service.close()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        await service.start(run_clocks=False)
        assert service.table(game.id).seat_options == (SeatOptions(), offer, SeatOptions())
        assert await service.seat_options(game.id, ANN) == offer
        await service.replace_seat(game.id, HOST, 1, BO, "Bo")
        assert service.table(game.id).options_of(1) == SeatOptions()
        await service.close()


async def test_seat_options_of_a_game_that_is_over_are_refused(tmp_path: Path,
                                                               clock: Clock) -> None:
    """A finished or aborted game has no next prompt: changing a seat's options there is
    refused, pointing to the settings for future games, and nothing is kept."""
    offer = SeatOptions(joker_calls=JokerCalls.OFFER)
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        finished = await open_game(service, THREE_PLAYER, [HOST, ANN])
        await play_out(service, finished, [HOST, ANN])
        aborted = await open_game(service, THREE_PLAYER, [HOST, ANN])
        await service.abort(aborted, HOST)
        for game_id in (finished, aborted):
            assert (await db.games.game(game_id)).status in (GameStatus.FINISHED,
                                                              GameStatus.ABORTED)
            with pytest.raises(IllegalAction, match=r"is over.*`/mj settings`"):
                await service.set_seat_options(game_id, ANN, offer)
            assert await service.seat_options(game_id, ANN) == SeatOptions()
        await service.close()


async def test_a_seat_is_never_handed_to_another_bot_account(tmp_path: Path,
                                                              clock: Clock) -> None:
    """`/mj sub` naming some other program's account (a Discord bot) is refused and changes
    nothing: it would never answer its prompts. The table's own bots are seated by level
    (`user_id` None), named after the seat's holder."""
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, THREE_PLAYER, [HOST, ANN])
        before = await db.seats.seat_history(game_id)
        with pytest.raises(IllegalAction, match=r"Other Bot is a bot account.*name me"):
            await service.replace_seat(game_id, HOST, 1, BO, "Other Bot", bot_account=True)
        assert await db.seats.seat_history(game_id) == before
        assert service.table(game_id).user_ids[1] == ANN and service.bot_seats(game_id) == (2,)
        await service.replace_seat(game_id, HOST, 1, None, "Jongg")
        assert service.bot_seats(game_id) == (1, 2)
        assert service.table(game_id).names[1] == "Bot (for Player 1)"
        with pytest.raises(IllegalAction, match="A bot already plays seat 2"):
            await service.replace_seat(game_id, HOST, 1, None, "Jongg")
        await service.close()


async def test_bots_playing_out_a_game_let_the_loop_run_between_their_moves(
        tmp_path: Path, clock: Clock) -> None:
    """A wrong dead-hand declaration leaves the rest of the game to the bots: hundreds of
    moves in one settle, and every other table on the loop waits unless they yield."""
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock)
        game_id = await open_game(service, STANDARD, [HOST])
        mine = service.view_for(game_id, HOST)
        while not any(isinstance(o.action, DeclareDead) for o in mine.legal):
            await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)
            mine = service.view_for(game_id, HOST)
        declare = next(o.action for o in mine.legal if isinstance(o.action, DeclareDead))
        seen: list[int] = []  # the moves made, each time another table gets a turn
        done = asyncio.Event()

        async def another_table() -> None:
            while not done.is_set():
                with contextlib.suppress(IllegalAction):  # over, and gone from memory
                    seen.append(service.spectator(game_id).action_count)
                await asyncio.sleep(0)

        other = asyncio.create_task(another_table())
        await service.act(game_id, HOST, declare, mine.action_count)
        done.set()
        await other
        assert not service.in_play(game_id)
        assert seen[-1] - seen[0] > 100  # the bots played on for a while...
        assert max(b - a for a, b in itertools.pairwise(seen)) <= 1  # ... a move at a time
        await service.close()
