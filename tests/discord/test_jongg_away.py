"""Fair play for people who sleep and travel, through the fake Discord: claim windows answer
for a player asleep (quiet hours, two time zones, across midnight) or on a league vacation as
their settings would, at the automatic delay and never as a timeout (nor when a window's
own clock runs out after bedtime); a move clicked on a DM
prompt while on vacation ends it (told privately and in the thread); a single timeout is told
to the player (with what was played) and to the table, and the stale DM prompt loses its
controls."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from fake import FakeDiscord, Message, User, World
from jongg_table import FrozenClock, JonggTable, assert_clean, jongg_client, open_league

from bot.discord.client import JonggClient
from bot.engine.game import Call, Phase, parse_action
from bot.store import ClockKind, PlayedFor
from bot.tables.auto import automatic
from bot.tables.service import DEFAULT_AUTO_DELAY
from bot.tables.timekeeping import zone

NEW_YORK = "America/New_York"
TOKYO = "Asia/Tokyo"


def local(zone_name: str, year: int, month: int, day: int, hour: int, minute: int = 0
          ) -> float:
    """A wall-clock time in a zone as a Unix time."""
    return datetime(year, month, day, hour, minute, tzinfo=zone(zone_name)).timestamp()


async def settings(fake: FakeDiscord, world: World, user: User, **typed: str) -> Message:
    """`/mj settings` with the text options `typed`; the private answer."""
    return await (await fake.slash(user, world.tables, "mj settings", typed)).reply()


async def auto_discard(fake: FakeDiscord, world: World, user: User, value: str) -> None:
    """Set the user's auto-discard with the settings menu ("drawn": the drawn tile goes
    back out on its own once the automatic delay has passed; "off": they are asked)."""
    shown = await settings(fake, world, user)
    redrawn = await (await fake.select(user, shown, "jg:sv:auto_discard", [value])).reply()
    assert ("Auto-discard the drawn tile: " + ("off" if value == "off" else "on")
            in redrawn.content), redrawn.content


async def timeouts(client: JonggClient, table: JonggTable, user: User) -> int:
    """How many of `user`'s seat's moves the log marks as made because their time ran
    out."""
    seat = table.seats.index(user)
    players = len(table.seats)
    return sum(1 for a in await client.service.db.actions.actions(table.game_id)
               if a.played_for is PlayedFor.TIMEOUT
               and parse_action(a.text, players).seat == seat)


def could_call(client: JonggClient, table: JonggTable, user: User) -> bool:
    """Whether `user` would be asked about the discard in the claim window now, were they
    awake and at home: they may call it, and their settings do not answer for them."""
    live = client.service.table(table.game_id)
    mine = table.view(user)
    return mine.phase is Phase.CLAIM and any(isinstance(o.action, Call) for o in mine.legal) \
        and automatic(mine, live.options_of(table.seats.index(user)), live.card,
                      live.rules.counts, None) is None


def time_ran_out(fake: FakeDiscord, table: JonggTable) -> list[str]:
    """The thread's "Time ran out" lines."""
    return [line for m in fake.messages_in(table.thread) for line in m.content.splitlines()
            if "Time ran out" in line]


async def clock_due(client: JonggClient, table: JonggTable, kind: ClockKind) -> float:
    """When the game's one clock of `kind` runs out, as the store has it."""
    [due] = [c.due_at for c in await client.service.db.clocks.clocks(table.game_id)
             if c.kind is kind]
    return due


async def run_clocks(client: JonggClient, table: JonggTable, clock: FrozenClock,
                     at: float) -> None:
    """Move the clock to `at` (never back), act on the clocks due, and wait for what they
    led to be delivered."""
    clock.now = max(clock.now, at)
    await client.service.run_due_clocks()
    await table.settle()


async def play_opening(table: JonggTable) -> None:
    """Everyone plays their first option until the first discard: the Charleston, and East's
    first turn (which has no drawn tile for auto-discard to throw)."""
    for _ in range(100):
        if table.spectator().phase is Phase.CLAIM:
            return
        [first, *_] = table.to_move()
        await table.step(first)
    raise AssertionError("nobody ever discarded")


async def away_windows(client: JonggClient, table: JonggTable, clock: FrozenClock,
                       away: User, wanted: int) -> int:
    """Play on while `away` is asleep or on vacation, until they have been in `wanted` claim
    windows in which they could have called (and the game is not in a claim window): the
    other people pass (or play their first option), the bots play, and `away`'s own
    settings make their turns. In every claim window `away` is in, once the others have
    answered, it closes at its opening plus the automatic delay: not a moment later, and
    not by its own clock. Returns those windows; fails if the game never got there (or
    stalls), so the scenario always checks something."""
    seen = 0
    for _ in range(600):
        assert not table.over, f"the game ended after {seen} of {wanted} windows"
        now = table.spectator()
        if now.phase is Phase.CLAIM and table.view(away).legal:
            opened, count = clock.now, now.action_count
            seen += could_call(client, table, away)
            # The others answer first, so only `away` keeps the window open.
            while (table.spectator().action_count == count
                   and (others := [u for u in table.to_move() if u is not away])):
                await table.step(others[0])
            if table.spectator().action_count == count:
                answered = [c.due_at for c in await client.service.db.clocks.clocks(table.game_id)
                            if c.kind is ClockKind.AUTO]
                assert answered and answered[0] <= opened + DEFAULT_AUTO_DELAY, (
                    f"{away.username} is waited for in a claim window, not answered for")
                assert await clock_due(client, table, ClockKind.CLAIM) > (
                    opened + DEFAULT_AUTO_DELAY)
                await run_clocks(client, table, clock, opened + DEFAULT_AUTO_DELAY)
                assert table.spectator().action_count > count, (
                    f"the claim window stayed open for {away.username}")
            continue
        if seen >= wanted and now.phase is not Phase.CLAIM:
            return seen
        others = [u for u in table.to_move() if u is not away]
        if others:
            await table.step(others[0])
        else:  # `away`'s own settings move for them once the delay has passed
            count = now.action_count
            await run_clocks(client, table, clock, clock.now + DEFAULT_AUTO_DELAY)
            assert table.spectator().action_count > count, (
                f"nothing moved for {away.username} at {now.phase}")
    raise AssertionError(f"{away.username} could call in only {seen} of {wanted} windows")


async def test_sleepers_in_two_time_zones_are_never_timed_out_on_claims(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Alice sleeps 22:00-08:00 in New York, Bob 23:00-07:00 in Tokyo, at an async table.
    Through each one's night, before and after their midnight, every claim window they
    could call in is answered for them at the automatic delay, while the other plays:
    nothing is marked a timeout and the thread never says time ran out."""
    alice, bob = world.alice, world.bob
    clock = FrozenClock()
    # 08:30 in New York, 21:30 in Tokyo: both awake, for the Charleston.
    clock.now = local(NEW_YORK, 2026, 6, 10, 8, 30)
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        await settings(fake_discord, world, alice, time_zone=NEW_YORK,
                       quiet_hours="22:00-08:00")
        await settings(fake_discord, world, bob, time_zone=TOKYO, quiet_hours="23:00-07:00")
        for user in (alice, bob):
            await auto_discard(fake_discord, world, user, "drawn")
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2,
                                      options={"pace": "async"})
        await play_opening(table)
        nights = (
            # Alice's night: 23:00 and 01:30 in New York (12:00 and 14:30 in Tokyo).
            (alice, local(NEW_YORK, 2026, 6, 10, 23)),
            (alice, local(NEW_YORK, 2026, 6, 11, 1, 30)),
            # Bob's: 23:30 and 02:00 in Tokyo (10:30 and 13:00 in New York).
            (bob, local(TOKYO, 2026, 6, 11, 23, 30)),
            (bob, local(TOKYO, 2026, 6, 12, 2)),
        )
        for sleeper, night in nights:
            clock.now = night
            assert await away_windows(client, table, clock, sleeper, wanted=2) >= 2
            assert clock.now < night + 3600  # still that night
        await client.service.flush(table.game_id)
        for user in (alice, bob):
            assert await timeouts(client, table, user) == 0
            assert not client.service.stand_ins(table.game_id).stood_in(
                table.seats.index(user))
            assert not any("time ran out" in m.content.lower()
                           for m in fake_discord.dms(user))
        assert time_ran_out(fake_discord, table) == []
    assert_clean(fake_discord, caplog)


async def test_a_claim_window_that_runs_out_after_bedtime_is_no_timeout(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A claim window Alice could call in opens at 21:00 in New York, an hour before her
    quiet hours; nobody answers, and its two hours run out at 23:00, while she sleeps: she
    is passed for as her settings would, not timed out, and nobody is told time ran out."""
    alice = world.alice
    clock = FrozenClock()
    clock.now = local(NEW_YORK, 2026, 6, 10, 21)
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        await settings(fake_discord, world, alice, time_zone=NEW_YORK,
                       quiet_hours="22:00-08:00")
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                      options={"pace": "async"})
        for _ in range(400):
            if could_call(client, table, alice):
                break
            await table.step(alice)
        else:
            raise AssertionError("Alice never could call")
        count = table.spectator().action_count
        due = await clock_due(client, table, ClockKind.CLAIM)
        assert clock.now < local(NEW_YORK, 2026, 6, 10, 22) < due  # asleep by then
        await run_clocks(client, table, clock, due + 0.01)
        assert table.spectator().action_count > count and not could_call(client, table, alice)
        assert await timeouts(client, table, alice) == 0
        assert not client.service.stand_ins(table.game_id).stood_in(table.seats.index(alice))
        assert time_ran_out(fake_discord, table) == []
        assert not any("time ran out" in m.content.lower() for m in fake_discord.dms(alice))
    assert_clean(fake_discord, caplog)


async def test_a_move_clicked_on_vacation_ends_it(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Mid-game in a league, Alice goes on vacation: the claim windows she could call in
    are passed for her at the automatic delay, never as timeouts. Then she clicks a move
    on her DM prompt: that ends her vacation (`/mj vacation status` shows none under way,
    one day used), the thread says she is back, and her next DM tells her why."""
    alice, bob = world.alice, world.bob
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        await open_league(fake_discord, world)  # 7 vacation days
        await auto_discard(fake_discord, world, alice, "drawn")
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2,
                                      options={"pace": "async"})
        await play_opening(table)
        away = await (await fake_discord.slash(alice, world.tables,
                                               "mj vacation start")).reply()
        assert away.ephemeral and "You're on vacation" in away.content, away.content
        clock.now += 3600
        assert await away_windows(client, table, clock, alice, wanted=2) >= 2
        assert await timeouts(client, table, alice) == 0
        assert time_ran_out(fake_discord, table) == []
        still = await (await fake_discord.slash(alice, world.tables,
                                                "mj vacation status")).reply()
        assert "You're on vacation until" in still.content, still.content

        # She is asked again (auto-discard off) and, on her turn, clicks her DM prompt.
        await auto_discard(fake_discord, world, alice, "off")
        for _ in range(100):
            mine = table.view(alice)
            if mine.phase is Phase.TURN and mine.legal:
                break
            await away_windows(client, table, clock, alice, wanted=0)
            others = [u for u in table.to_move() if u is not alice]
            if others:
                await table.step(others[0])
        else:
            raise AssertionError("it never became Alice's turn")
        assert "Alice is back" not in "\n".join(
            m.content for m in fake_discord.messages_in(table.thread))
        dms_before = len(fake_discord.dms(alice))
        await table.step(alice)  # the first option on her newest DM prompt

        status = await (await fake_discord.slash(alice, world.tables,
                                                 "mj vacation status")).reply()
        assert "You're on vacation" not in status.content, status.content
        assert "1 of 7 used" in status.content, status.content
        back = [m for m in fake_discord.messages_in(table.thread)
                if "Alice is back from vacation" in m.content]
        assert len(back) == 1 and back[0].mentions == []
        news = [m.content for m in fake_discord.dms(alice)[dms_before:]]
        assert news and "Welcome back: playing a move ended your vacation" in news[0], news
        assert await timeouts(client, table, alice) == 0
    assert_clean(fake_discord, caplog)


@pytest.mark.parametrize(("phase", "public", "private"), [
    (Phase.CHARLESTON, "the bot made their Charleston choice", "Pass"),
    (Phase.TURN, "the bot made their move", "Discard"),
])
async def test_a_timeout_off_a_claim_window_is_told_and_the_old_prompt_loses_its_controls(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, phase: Phase, public: str, private: str) -> None:
    """At a live table Alice lets her clock run out in the Charleston or on her turn: a
    DM tells her time ran out and what was played for her, the thread says the bot moved
    for her (once), and the DM prompt she left loses its buttons and menus."""
    alice = world.alice
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                      options={"pace": "live"})
        for _ in range(200):
            mine = table.view(alice)
            if mine.phase is phase and mine.legal:
                break
            await table.step(alice)
        else:
            raise AssertionError(f"Alice was never asked in {phase}")
        left = await table.prompt(alice)
        assert left.components, "her prompt has no controls to lose"
        dms_before = len(fake_discord.dms(alice))

        await run_clocks(client, table, clock,
                         await clock_due(client, table, ClockKind.TURN) + 0.01)
        assert await timeouts(client, table, alice) == 1
        assert time_ran_out(fake_discord, table) == [f"Time ran out for Alice: {public}."]
        told = [m for m in fake_discord.dms(alice)[dms_before:]
                if "Your time ran out" in m.content]
        assert len(told) == 1 and (f"Your time ran out, so this was played for you: {private}"
                                   in told[0].content), told[0].content
        [stored] = [m for m in fake_discord.dms(alice) if m.id == left.id]
        assert stored.components == [], "the prompt she left keeps its controls"
    assert_clean(fake_discord, caplog)


async def test_a_claim_window_timeout_says_a_pass_was_made(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """At a live table Alice, awake, lets a claim window she could call in run out: the
    thread says a pass was made for her, and her DM says the pass was played for her."""
    alice = world.alice
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                      options={"pace": "live"})
        for _ in range(400):
            if could_call(client, table, alice):
                break
            await table.step(alice)
        else:
            raise AssertionError("Alice never could call")
        dms_before = len(fake_discord.dms(alice))
        due = await clock_due(client, table, ClockKind.CLAIM)
        assert due > clock.now + DEFAULT_AUTO_DELAY  # she is asked: no automatic answer
        await run_clocks(client, table, clock, due + 0.01)
        assert not could_call(client, table, alice)
        assert await timeouts(client, table, alice) == 1
        assert time_ran_out(fake_discord, table) == [
            "Time ran out for Alice: a pass was made for them."]
        told = [m for m in fake_discord.dms(alice)[dms_before:]
                if "Your time ran out" in m.content]
        assert len(told) == 1 and ("Your time ran out, so this was played for you: Pass"
                                   in told[0].content), told[0].content
    assert_clean(fake_discord, caplog)
