"""Trying to break the clocks and presence end to end, through the fake Discord: a traveller
typing the time zones at the edges of the clock face (half- and quarter-hour offsets, UTC+14
and UTC-12) and names that are almost right, a night owl asking for quiet hours all day, and
the bot stopped and started again on the same database while a clock was due, with the wall
clock jumped forward by days. Each probe asserts what should hold (a clear private answer;
nobody timed out for time their quiet hours covered; no move lost or made twice; no
traceback logged), not only that nothing crashed. The service-level probes are in
`tests/tables/test_clocks_break_it.py`; what the other clock files cover is not repeated."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from fake import FakeDiscord, Message, User, World
from jongg_table import FrozenClock, JonggTable, assert_clean, jongg_client, open_league
from test_jongg_away import NEW_YORK, clock_due, timeouts

from bot.engine.game import Phase
from bot.store import ClockKind
from bot.tables.timekeeping import zone


def local(zone_name: str, *when: int) -> float:
    """A wall-clock time in a zone (year, month, day, hour[, minute]) as a Unix time."""
    return datetime(*when, tzinfo=zone(zone_name)).timestamp()  # type: ignore[misc]


async def settings(fake: FakeDiscord, world: World, user: User, **typed: str) -> Message:
    """`/mj settings` with the text options `typed`; the private answer."""
    return await (await fake.slash(user, world.tables, "mj settings", typed)).reply()


def private_to(answer: Message, user: User) -> None:
    """A short answer only `user` sees, worded for them (not the bot's apology)."""
    assert answer.ephemeral and answer.visible_to is user, answer.content
    assert 0 < len(answer.content) < 2000, answer.content
    assert "Sorry, something went wrong" not in answer.content, answer.content


async def test_zones_at_the_edges_and_names_almost_right_get_clear_private_answers(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A traveller types offsets as people write them: UTC+5:45 is Kathmandu and UTC+5:30
    Kolkata, and the answer says so without offering the same city under its old spelling
    (Asia/Katmandu, Asia/Calcutta: the zone database keeps both names) as somewhere else to
    choose; UTC+14 is Kiritimati, UTC-12 the fixed zone with its warning. A name almost
    right is refused, naming the place once; quiet hours of 23 hours are refused; and every
    answer is private, with nothing kept from a refusal."""
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        for typed, place, alias in (("UTC+5:45", "Asia/Kathmandu", "Asia/Katmandu"),
                                    ("+05:30", "Asia/Kolkata", "Asia/Calcutta")):
            shown = await settings(fake_discord, world, alice, time_zone=typed)
            private_to(shown, alice)
            assert shown.content.startswith(f"I read `{typed}` as {place}"), shown.content
            assert f"Time zone: {place}" in shown.content
            assert alias not in shown.content, shown.content
        shown = await settings(fake_discord, world, alice, time_zone="UTC+14")
        assert shown.content.startswith("I read `UTC+14` as Pacific/Kiritimati"), shown.content
        shown = await settings(fake_discord, world, alice, time_zone="UTC-12")
        private_to(shown, alice)
        assert "Etc/GMT+12 is a fixed offset (UTC-12)" in shown.content, shown.content
        kept = await client.service.player_options(alice.id)
        assert kept.time_zone == "Etc/GMT+12"
        refused = await settings(fake_discord, world, alice, time_zone="Asia/Kathmandoo")
        private_to(refused, alice)
        assert refused.content.endswith("Did you mean Asia/Kathmandu?"), refused.content
        refused = await settings(fake_discord, world, alice, quiet_hours="8-7")
        private_to(refused, alice)
        assert "at most 16 hours" in refused.content, refused.content
        assert await client.service.player_options(alice.id) == kept
    assert_clean(fake_discord, caplog)


async def test_a_restart_days_late_while_a_turn_clock_is_due_moves_once_and_owes_nothing_old(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Alice (New York, quiet hours 22:00-08:00) has a day's clock for her first Charleston
    pass at an async table: it runs out at 19:00 the next day, counting only her waking
    hours. The bot stops at that very moment, before acting on it, and starts again on the
    same database three days later, at 23:30 her time, while she sleeps. The timeout is
    made once (one move, marked so, told once in the thread), with no reminder of the turn
    that ran out; her next clock starts at her next 08:00 and her prompt says so. Started
    once more at the same moment, the bot says and does nothing new."""
    alice = world.alice
    database, clock = tmp_path / "j.db", FrozenClock()
    clock.now = local(NEW_YORK, 2026, 6, 10, 9)
    async with fake_discord.run(jongg_client(database, clock)) as client:
        await settings(fake_discord, world, alice, time_zone=NEW_YORK, quiet_hours="22-8")
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                      options={"pace": "async"})
        assert table.seats[0] is alice and table.spectator().phase is Phase.CHARLESTON
        due = await clock_due(client, table, ClockKind.TURN)
        assert due == local(NEW_YORK, 2026, 6, 11, 19)  # 13 hours, a night, then 11
        clock.now = due  # due this very moment: the bot stops before acting on it
        before = [a.text for a in await client.service.db.actions.actions(table.game_id)]

    clock.now = local(NEW_YORK, 2026, 6, 14, 23, 30)
    mark = fake_discord.mark()
    async with fake_discord.run(jongg_client(database, clock, sync=False)) as client:
        table.client = client
        for _ in range(3):
            await client.service.run_due_clocks()
            await table.settle()
        after = [a.text for a in await client.service.db.actions.actions(table.game_id)]
        assert after[:len(before)] == before
        assert await timeouts(client, table, alice) == 1
        said = [m.content for m in fake_discord.bot_messages(since=mark)]
        assert sum("Time ran out for Alice" in text for text in said) == 1, said
        assert not [text for text in said if "your move is due" in text], said
        # Her next pass is asked for at once, on a clock that starts at her 08:00.
        assert table.view(alice).legal
        again = await clock_due(client, table, ClockKind.TURN)
        assert again == local(NEW_YORK, 2026, 6, 16, 18)  # 14 waking hours, then 10
        assert f"<t:{int(again)}:R>" in table.prompts(alice)[-1].content
        count = table.spectator().action_count

    mark = fake_discord.mark()
    async with fake_discord.run(jongg_client(database, clock, sync=False)) as client:
        table.client = client
        await client.service.run_due_clocks()
        await table.settle()
        assert table.spectator().action_count == count
        assert fake_discord.bot_messages(since=mark) == [], "the restart told people things"
        assert await timeouts(client, table, alice) == 1
    assert_clean(fake_discord, caplog)


async def test_a_budget_cut_tells_the_director_a_planned_vacation_apart(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Bob plans a vacation three days ahead; then the director cuts the season's vacation
    days to none. The director's answer counts it as planned and called off, not as a
    vacation under way (nobody is away yet), and Bob's status says he has none."""
    alice, bob = world.alice, world.bob
    clock = FrozenClock()  # 2027-01-15 08:00 UTC; a player's clock is UTC unless set
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)):
        await open_league(fake_discord, world)  # 7 vacation days
        planned = await (await fake_discord.slash(bob, world.tables, "mj vacation start", {
            "from": "2027-01-18 12:00", "days": 3})).reply()
        assert "Your vacation is planned" in planned.content, planned.content
        cut = await (await fake_discord.slash(
            alice, world.tables, "league season vacation_days",
            {"days": 0, "reason": "no breaks in the final"})).reply()
        assert "under way" not in cut.content, cut.content
        assert "1 planned vacation now ends by it too (1 called off)." in cut.content, \
            cut.content
        status = await (await fake_discord.slash(bob, world.tables,
                                                 "mj vacation status")).reply()
        assert "planned" not in status.content, status.content
    assert_clean(fake_discord, caplog)


async def test_a_vacation_begun_mid_turn_shows_the_turn_due_after_it(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Alice is asked for a move at an async table and goes on a two-day vacation: her clock
    pauses, so the move falls due two days later than her prompt said. She is told so, with
    the prompt again showing the new deadline (the one she had would have her late the day
    she is back); and when her vacation ends by itself, what she was shown still holds."""
    from test_jongg_clocks import DAY, HOUR, turn_due

    alice = world.alice
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        await open_league(fake_discord, world)
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                      options={"pace": "async"})
        seat = table.seats.index(alice)
        before = await turn_due(client, table.game_id, seat)
        shown = await table.prompt(alice)
        assert f"<t:{int(before)}:R>" in shown.content, shown.content
        clock.now += 4 * HOUR
        await (await fake_discord.slash(alice, world.tables, "mj vacation start",
                                        {"days": 2})).reply()
        await client.service.flush(table.game_id)
        after = await turn_due(client, table.game_id, seat)
        assert after == before + 2 * DAY
        again = await table.prompt(alice)
        assert again is not shown and f"<t:{int(after)}:R>" in again.content, again.content
        assert any("Your time for this move changed" in m.content
                   for m in fake_discord.dms(alice)), [m.content for m in fake_discord.dms(alice)]
        clock.now += 2 * DAY + HOUR  # the vacation ends by itself; the deadline shown stands
        await client.service.run_due_clocks()
        await client.service.flush(table.game_id)
        assert await turn_due(client, table.game_id, seat) == after
    assert_clean(fake_discord, caplog)
