"""Time that respects people, through the fake Discord: a time zone and quiet hours set with
`/mj settings` (autocomplete, friendly refusals; a city, an abbreviation or an offset read
as the place it means, a fixed-offset zone warned about), reminders each person chose (when
and how) beside the pace's for who never chose, a table's own clocks on `/mj new`, quiet
hours across midnight for two players in two time zones (a paused turn clock, reminders as
a thread mention that wait for the morning, a DM only for who asked), `/mj vacation`
pausing two league games at once, a director changing the season's vacation budget
while a player is away, and a personal vacation pausing a casual table opened with
`vacations:True` (and not one opened without)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from fake import FakeDiscord, Message, User, World
from jongg_table import FrozenClock, JonggTable, assert_clean, jongg_client, open_league

from bot.discord.client import JonggClient
from bot.engine.game import Phase
from bot.store import ClockKind
from bot.tables.reminders import ReminderWay
from bot.tables.timekeeping import zone
from bot.tables.vacation import PERSONAL_DAYS

HOUR = 3600
DAY = 24 * HOUR


def local(zone_name: str, *when: int) -> float:
    """A wall-clock time in a zone (year, month, day, hour) as a Unix time."""
    return datetime(*when, tzinfo=zone(zone_name)).timestamp()  # type: ignore[misc]


async def turn_due(client: JonggClient, game_id: int, seat: int) -> float:
    """When the seat's turn clock runs out, as the store has it."""
    [due] = [c.due_at for c in await client.service.db.clocks.clocks(game_id)
             if c.kind is ClockKind.TURN and c.seat == seat]
    return due


def reminders(fake: FakeDiscord, table: JonggTable, user: User) -> list[Message]:
    """The reminders in the table's thread that mention `user`."""
    return [m for m in fake.messages_in(table.thread)
            if m.content.startswith(f"<@{user.id}> Table {table.game_id}: ")
            and "your move is due <t:" in m.content]


def dm_reminders(fake: FakeDiscord, table: JonggTable, user: User) -> list[Message]:
    return [m for m in fake.dms(user) if m.content.startswith(f"Table {table.game_id}: ")
            and "your move is due <t:" in m.content]


async def until_turn_of(client: JonggClient, table: JonggTable, clock: FrozenClock,
                        user: User) -> None:
    """Play on from a discard until it is `user`'s turn: they answer the claim window, the
    bots and the automatic answers theirs."""
    seat = table.seats.index(user)
    for _ in range(20):
        seen = table.spectator()
        if seen.phase is Phase.TURN and seen.turn == seat:
            return
        if seen.phase is Phase.CLAIM and user in table.to_move():
            await table.step(user)
        else:
            await client.service.run_due_clocks(clock.now + 3)
            await table.settle()
    raise AssertionError(f"it never became {user.username}'s turn")


async def settings(fake: FakeDiscord, world: World, user: User, **typed: str) -> Message:
    return await (await fake.slash(user, world.tables, "mj settings", typed)).reply()


async def test_time_zone_and_quiet_hours_are_set_with_mj_settings(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        typing = await fake_discord.autocomplete(alice, world.tables, "mj settings",
                                                 "time_zone", "new_y")
        assert [c["value"] for c in await typing.choices()] == ["America/New_York"]
        shown = await settings(fake_discord, world, alice, time_zone="america/new_york",
                               quiet_hours="23-7")
        assert shown.ephemeral and shown.visible_to is alice
        assert "Time zone: America/New_York" in shown.content
        assert "Quiet hours: 23:00-07:00" in shown.content
        assert "Reminders: the table's" in shown.content
        assert "Reminded by: a mention in the table's thread" in shown.content
        kept = await client.service.player_options(alice.id)
        assert (kept.time_zone, kept.quiet_hours) == ("America/New_York", "23:00-07:00")
        # Refused privately, with what to write; nothing is kept.
        for typed, said in (({"time_zone": "Mars/Olympus"}, "not a time zone I know"),
                            ({"quiet_hours": "9pm"}, "write them like 23:00-07:00"),
                            ({"quiet_hours": "25-7"}, "not a time of day"),
                            ({"quiet_hours": "6-23"}, "at most 16 hours")):
            refused = await settings(fake_discord, world, alice, **typed)
            assert refused.ephemeral and said in refused.content, refused.content
        assert await client.service.player_options(alice.id) == kept
        # When and how reminders come are menus: any of the moments (or none), and a way.
        redrawn = await (await fake_discord.select(alice, shown, "jg:sv:remind_when",
                                                   ["pace", "start", "90"])).reply()
        assert "Reminders: turn start, 90 % (time nearly up)" in redrawn.content
        redrawn = await (await fake_discord.select(alice, redrawn, "jg:sv:remind_by",
                                                   ["both"])).reply()
        assert "Reminded by: a mention and a DM" in redrawn.content
        kept = await client.service.player_options(alice.id)
        assert (kept.remind_when, kept.remind_by) == ("start 90", ReminderWay.BOTH)
        redrawn = await (await fake_discord.select(alice, redrawn, "jg:sv:remind_when",
                                                   [])).reply()
        assert "Reminders: none" in redrawn.content
        # Quiet hours off again.
        cleared = await settings(fake_discord, world, alice, quiet_hours="off")
        assert "Quiet hours: none" in cleared.content
    assert_clean(fake_discord, caplog)


async def test_time_zones_are_read_forgivingly(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        for typed in ("UTC+9", "JST", "tokyo"):
            typing = await fake_discord.autocomplete(alice, world.tables, "mj settings",
                                                     "time_zone", typed)
            offered = [c["value"] for c in await typing.choices()]
            assert offered[0] == "Asia/Tokyo" and len(offered) <= 25, offered
        assert offered == ["Asia/Tokyo"]
        # An offset is read as the best-known place there, and the answer says so.
        shown = await settings(fake_discord, world, alice, time_zone="UTC+9")
        assert shown.ephemeral and shown.content.startswith(
            "I read `UTC+9` as Asia/Tokyo; if you live elsewhere, choose your city: "
            "Asia/Seoul"), shown.content
        assert "Time zone: Asia/Tokyo" in shown.content
        # A fixed offset is kept, with a warning naming the city zone.
        shown = await settings(fake_discord, world, alice, time_zone="EST")
        assert shown.content.startswith("EST is a fixed offset (UTC-5): it ignores daylight "
                                        "saving"), shown.content
        assert "e.g. America/New_York" in shown.content and "Time zone: EST" in shown.content
        assert (await client.service.player_options(alice.id)).time_zone == "EST"
        # A name nothing matches is refused with the nearest, and nothing changes.
        refused = await settings(fake_discord, world, alice, time_zone="Tokio")
        assert refused.ephemeral and "Did you mean Asia/Tokyo?" in refused.content
        assert (await client.service.player_options(alice.id)).time_zone == "EST"
    assert_clean(fake_discord, caplog)


async def test_a_table_opens_with_its_own_clocks(fake_discord: FakeDiscord, world: World,
                                                 tmp_path: Path,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        refused = await (await fake_discord.slash(alice, world.tables, "mj new", {
            "pace": "async", "turn": "10d"})).reply()
        assert refused.ephemeral and "turn clock must be from 30s to 7d" in refused.content
        assert await client.service.db.games.unfinished_games() == []
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=2,
                                      options={"pace": "live", "turn": "3m", "claim": "20s",
                                               "quiet_hours": True})
        assert "live pace (turn 3m, claim 20s, paused in quiet hours)" in table.lobby.content
        game = await client.service.db.games.game(table.game_id)
        assert (game.pace.turn_seconds, game.pace.claim_seconds) == (180, 20)
    assert_clean(fake_discord, caplog)


async def test_quiet_hours_across_midnight_for_two_players_in_two_time_zones(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = world.alice, world.bob
    # Midnight in New York, 13:00 in Tokyo: Alice's quiet hours have begun, Bob's haven't.
    clock = FrozenClock()
    clock.now = local("America/New_York", 2026, 6, 10, 0)
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        await settings(fake_discord, world, alice, time_zone="America/New_York",
                       quiet_hours="23:00-07:00")
        await (await fake_discord.select(alice, await settings(fake_discord, world, alice),
                                         "jg:sv:remind_by", ["both"])).reply()
        await settings(fake_discord, world, bob, time_zone="Asia/Tokyo",
                       quiet_hours="23:00-07:00")
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=1,
                                      options={"pace": "async"})
        assert table.seats[:2] == [alice, bob]
        # Alice's 24 hours start at 07:00: 16 that day, 8 the next, so 15:00 on the 11th.
        assert await turn_due(client, table.game_id, 0) == local(
            "America/New_York", 2026, 6, 11, 15)
        await client.service.run_due_clocks()
        await client.service.flush(table.game_id)
        assert reminders(fake_discord, table, alice) == []  # not at midnight
        clock.now = local("America/New_York", 2026, 6, 10, 7)  # = 20:00 in Tokyo
        await client.service.run_due_clocks()
        await client.service.flush(table.game_id)
        [mention] = reminders(fake_discord, table, alice)
        assert mention.mentions == [alice.id] and not mention.ephemeral
        assert len(dm_reminders(fake_discord, table, alice)) == 1  # she asked for DMs

        # Alice discards; once the claim window closes it is Bob's turn, at 20:00 Tokyo:
        # 3 hours to his 23:00, 16 the next day, 5 the day after: 12:00 on the 12th.
        await table.step(alice)
        await until_turn_of(client, table, clock, bob)
        assert await turn_due(client, table.game_id, 1) == local("Asia/Tokyo", 2026, 6, 12, 12)
        await client.service.run_due_clocks()
        await client.service.flush(table.game_id)
        assert len(reminders(fake_discord, table, bob)) == 1  # his evening: at once
        assert dm_reminders(fake_discord, table, bob) == []  # a mention only
    assert_clean(fake_discord, caplog)


async def test_reminders_each_person_chose_and_the_paces_for_who_never_chose(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = world.alice, world.bob
    clock = FrozenClock()
    clock.now = local("America/New_York", 2026, 6, 10, 14)
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        # Alice wants only the "time nearly up" reminder, by DM; Bob never chose.
        await settings(fake_discord, world, alice, time_zone="America/New_York",
                       quiet_hours="23:00-07:00")
        shown = await settings(fake_discord, world, alice)
        for menu, values in (("remind_when", ["90"]), ("remind_by", ["dm"])):
            await (await fake_discord.select(alice, shown, f"jg:sv:{menu}", values)).reply()
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=1,
                                      options={"pace": "async", "turn": "10h"})
        assert table.seats[:2] == [alice, bob]

        async def run_clocks_at(*when: int) -> None:
            clock.now = local("America/New_York", *when)
            await client.service.run_due_clocks()
            await client.service.flush(table.game_id)

        # 90 % of her 10 hours is 23:00, as her quiet hours begin: it waits for 07:00.
        for when in ((2026, 6, 10, 14), (2026, 6, 10, 23), (2026, 6, 11, 6)):
            await run_clocks_at(*when)
            assert dm_reminders(fake_discord, table, alice) == []
        await run_clocks_at(2026, 6, 11, 7)
        [dm] = dm_reminders(fake_discord, table, alice)
        due = int(local("America/New_York", 2026, 6, 11, 8))  # the last hour from 07:00
        assert dm.content.startswith(f"Table {table.game_id}: time is nearly up, your move "
                                     f"is due <t:{due}:R>."), dm.content
        await run_clocks_at(2026, 6, 11, 7, 30)
        assert len(dm_reminders(fake_discord, table, alice)) == 1  # once
        assert reminders(fake_discord, table, alice) == []  # never in the thread

        # Bob's turn: the async pace's reminder at its start, a thread mention only.
        await table.step(alice)
        await until_turn_of(client, table, clock, bob)
        await client.service.run_due_clocks()
        await client.service.flush(table.game_id)
        [mention] = reminders(fake_discord, table, bob)
        assert mention.mentions == [bob.id] and "nearly up" not in mention.content
        assert dm_reminders(fake_discord, table, bob) == []
    assert_clean(fake_discord, caplog)


async def test_a_vacation_pauses_two_league_games_at_once(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice = world.alice
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        # Without a league, a vacation is a personal one (which league games ignore).
        personal = await (await fake_discord.slash(alice, world.tables,
                                                   "mj vacation status")).reply()
        assert personal.ephemeral and "A personal vacation" in personal.content
        await open_league(fake_discord, world)  # 7 vacation days, the default
        mixed = await (await fake_discord.slash(alice, world.tables, "mj new", {
            "pace": "async", "vacations": True})).reply()
        assert mixed.ephemeral and "take no vacations option" in mixed.content, mixed.content
        tables = [await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                        options={"pace": "async"}) for _ in range(2)]
        seats = [t.seats.index(alice) for t in tables]
        for table, seat in zip(tables, seats, strict=True):
            assert await turn_due(client, table.game_id, seat) == clock.now + DAY
        clock.now += 4 * HOUR  # 20 hours left in each game

        answer = await (await fake_discord.slash(alice, world.tables,
                                                 "mj vacation start")).reply()
        assert answer.ephemeral and "You're on vacation" in answer.content, answer.content
        assert "0 of 7 used, 7 left" in answer.content
        for table, seat in zip(tables, seats, strict=True):
            await client.service.flush(table.game_id)
            assert await turn_due(client, table.game_id, seat) == clock.now + 7 * DAY + 20 * HOUR
            told = [m for m in fake_discord.messages_in(table.thread)
                    if "Alice is on vacation until" in m.content]
            assert len(told) == 1 and told[0].mentions == []
        again = await (await fake_discord.slash(alice, world.tables,
                                                "mj vacation start")).reply()
        assert again.ephemeral and "already on vacation" in again.content
        counts = [t.spectator().action_count for t in tables]
        await client.service.run_due_clocks(clock.now + DAY)
        assert [t.spectator().action_count for t in tables] == counts  # both paused

        clock.now += 2 * DAY + HOUR  # three started days
        back = await (await fake_discord.slash(alice, world.tables, "mj vacation end")).reply()
        assert back.ephemeral and "3 of 7 used, 4 left" in back.content, back.content
        for table, seat in zip(tables, seats, strict=True):
            await client.service.flush(table.game_id)
            assert await turn_due(client, table.game_id, seat) == clock.now + 20 * HOUR
            assert any("Alice is back from vacation" in m.content
                       for m in fake_discord.messages_in(table.thread))
        status = await (await fake_discord.slash(alice, world.tables,
                                                 "mj vacation status")).reply()
        assert status.ephemeral and "3 of 7 used" in status.content
    assert_clean(fake_discord, caplog)


async def test_a_director_changes_the_vacation_budget_while_a_player_is_away(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """`/league season vacation_days` (directors only, with a reason kept in the audit log):
    a raise lengthens Alice's vacation under way, and her paused clock with it; a cut below
    the days she used ends it at once (her clock runs again, her table is told) and leaves
    her none, not fewer."""
    alice, bob = world.alice, world.bob
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        await open_league(fake_discord, world)  # 7 vacation days
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                      options={"pace": "async"})
        seat = table.seats.index(alice)
        clock.now += 4 * HOUR  # 20 hours left
        away = await (await fake_discord.slash(alice, world.tables,
                                               "mj vacation start")).reply()
        assert "0 of 7 used" in away.content, away.content
        began = clock.now

        refused = await (await fake_discord.slash(
            bob, world.tables, "league season vacation_days",
            {"days": 30, "reason": "more for me"})).reply()
        assert refused.ephemeral and "server managers" in refused.content
        clock.now += DAY
        raised = await (await fake_discord.slash(
            alice, world.tables, "league season vacation_days",
            {"days": 10, "reason": "summer break"})).reply()
        assert not raised.ephemeral and "vacation days 7 → 10" in raised.content, raised.content
        assert "1 vacation under way now ends by the new budget" in raised.content
        await client.service.flush(table.game_id)
        assert await turn_due(client, table.game_id, seat) == began + 10 * DAY + 20 * HOUR

        clock.now += DAY + HOUR  # three started days
        cut = await (await fake_discord.slash(
            alice, world.tables, "league season vacation_days",
            {"days": 1, "reason": "the season ends soon"})).reply()
        assert "vacation days 10 → 1" in cut.content and "(1 at once)" in cut.content
        await client.service.flush(table.game_id)
        assert await turn_due(client, table.game_id, seat) == clock.now + 20 * HOUR
        assert any("Alice is back from vacation" in m.content
                   for m in fake_discord.messages_in(table.thread))
        status = await (await fake_discord.slash(alice, world.tables,
                                                 "mj vacation status")).reply()
        assert "3 of 1 used, 0 left" in status.content, status.content
        again = await (await fake_discord.slash(alice, world.tables,
                                                "mj vacation start")).reply()
        assert again.ephemeral and "used all 1 vacation days" in again.content
        log = await (await fake_discord.slash(alice, world.tables, "league audit")).reply()
        assert "vacation days 7 → 10" in log.content and "summer break" in log.content
        assert "vacation days 10 → 1" in log.content
    assert_clean(fake_discord, caplog)


async def test_a_league_game_started_while_a_player_is_away_says_so_and_a_vacation_is_planned(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = world.alice, world.bob
    clock = FrozenClock()
    clock.now = local("Asia/Tokyo", 2026, 6, 10, 12)
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        await open_league(fake_discord, world)
        away = await (await fake_discord.slash(bob, world.tables, "mj vacation start")).reply()
        assert away.ephemeral and "You're on vacation" in away.content, away.content
        until = int(clock.now + 7 * DAY)
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=1,
                                      options={"pace": "async"})
        assert (f"<@{bob.id}> is on vacation until <t:{until}:f>" in table.lobby.content
                ), table.lobby.content
        [told] = [m for m in fake_discord.messages_in(table.thread)
                  if "Bob is on vacation until" in m.content]
        assert f"<t:{until}:f>" in told.content and "UTC" not in told.content
        assert told.mentions == []

        # Alice plans hers ahead, on her own clock: nothing pauses or is told until then.
        await settings(fake_discord, world, alice, time_zone="Asia/Tokyo")
        refused = await (await fake_discord.slash(alice, world.tables, "mj vacation start", {
            "from": "next week"})).reply()
        assert refused.ephemeral and "write it like 2026-12-24" in refused.content
        planned = await (await fake_discord.slash(alice, world.tables, "mj vacation start", {
            "from": "2026-06-12 18:00", "days": 2})).reply()
        assert planned.ephemeral and "Your vacation is planned" in planned.content, \
            planned.content
        begins = int(local("Asia/Tokyo", 2026, 6, 12, 18))
        assert f"<t:{begins}:f>" in planned.content
        await client.service.flush(table.game_id)
        assert not [m for m in fake_discord.messages_in(table.thread)
                    if "Alice is on vacation" in m.content]
        clock.now = begins + 1
        await client.service.run_due_clocks()
        await client.service.flush(table.game_id)
        assert [m for m in fake_discord.messages_in(table.thread)
                if "Alice is on vacation until" in m.content]
        status = await (await fake_discord.slash(alice, world.tables,
                                                 "mj vacation status")).reply()
        assert "You're on vacation until" in status.content, status.content
        # Her two days run out: the table hears she is back, once, as after /mj vacation end.
        clock.now = begins + 2 * DAY + 1
        await client.service.run_due_clocks()
        await client.service.run_due_clocks()
        await client.service.flush(table.game_id)
        assert len([m for m in fake_discord.messages_in(table.thread)
                    if "Alice is back from vacation" in m.content]) == 1


async def test_a_personal_vacation_pauses_a_casual_table_opened_to_pause_for_it(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """No league on the server: `/mj vacation start` starts a personal vacation, which
    pauses the table opened with `/mj new vacations:True` (its thread told) and leaves the
    one opened without it running."""
    alice = world.alice
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        pausing = await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                        options={"pace": "async", "vacations": True})
        assert "async pace (turn 1d, claim 2h, paused in quiet hours and on vacation)" in (
            pausing.lobby.content), pausing.lobby.content
        running = await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                        options={"pace": "async"})
        seats = {t.game_id: t.seats.index(alice) for t in (pausing, running)}
        clock.now += 4 * HOUR  # 20 hours left in each game
        answer = await (await fake_discord.slash(alice, world.tables,
                                                 "mj vacation start")).reply()
        assert answer.ephemeral and "You're on vacation" in answer.content, answer.content
        assert "casual tables opened with `vacations:True`" in answer.content
        assert f"at most {PERSONAL_DAYS} days" in answer.content
        for table in (pausing, running):
            await client.service.flush(table.game_id)
        assert await turn_due(client, pausing.game_id, seats[pausing.game_id]) == (
            clock.now + PERSONAL_DAYS * DAY + 20 * HOUR)
        assert await turn_due(client, running.game_id, seats[running.game_id]) == (
            clock.now + 20 * HOUR)
        assert [len([m for m in fake_discord.messages_in(t.thread)
                     if "Alice is on vacation until" in m.content])
                for t in (pausing, running)] == [1, 0]
        count = pausing.spectator().action_count
        await client.service.run_due_clocks(clock.now + DAY)
        assert pausing.spectator().action_count == count  # paused

        clock.now += DAY
        back = await (await fake_discord.slash(alice, world.tables, "mj vacation end")).reply()
        assert back.ephemeral and "Welcome back" in back.content, back.content
        await client.service.flush(pausing.game_id)
        assert await turn_due(client, pausing.game_id, seats[pausing.game_id]) == (
            clock.now + 20 * HOUR)
        assert any("Alice is back from vacation" in m.content
                   for m in fake_discord.messages_in(pausing.thread))
    assert_clean(fake_discord, caplog)
