"""A hostile player, a careless host and a crafted interaction against the bettor and the
series controls, end to end through the fake Discord: every one is refused privately and
changes nothing, and the bettor is answered as any outsider is (never with a rack)."""

from __future__ import annotations

import copy
from collections import Counter
from itertools import cycle
from pathlib import Path

import pytest
from fake import FakeDiscord, Message, World
from jongg_table import (
    JonggTable,
    assert_clean,
    custom_ids,
    finished,
    jongg_client,
    lobby_click,
)
from leak_watch import LeakWatch
from test_jongg_leaks import SEED, use_every_control
from test_jongg_series import _newest_game, _next_table

from bot.store import GameStatus


async def test_nobody_but_the_bettor_moves_the_bet_and_the_bettor_sees_no_rack(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    erin = fake_discord.add_user("erin", global_name="Erin")
    frank = fake_discord.add_user("frank", global_name="Frank")
    for user in (erin, frank):
        fake_discord.add_member(world.guild, user)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        opened = await fake_discord.slash(world.bob, world.tables, "mj new", {"players": 4})
        lobby = await opened.reply()
        game_id = int(custom_ids(lobby, "jg:l:")[0].split(":")[2])
        await fake_discord.wait_until(lambda: lobby.thread, what="the table's thread")
        await opened.settled()
        for user in (world.alice, world.carol):
            await lobby_click(fake_discord, user, lobby, f"jg:l:{game_id}:join")
        menu = await (await fake_discord.click(erin, lobby, f"jg:l:{game_id}:bet")).followup()
        # A second Bet, and the bettor's Join at a free seat: private refusals.
        second = await (await fake_discord.click(frank, lobby, f"jg:l:{game_id}:bet")).followup()
        assert second.ephemeral and "bettor already" in second.content
        join = await (await fake_discord.click(erin, lobby, f"jg:l:{game_id}:join")).followup()
        assert join.ephemeral and "You're this table's bettor" in join.content
        await lobby_click(fake_discord, world.dave, lobby, f"jg:l:{game_id}:join")
        chosen = await fake_discord.select(erin, menu, f"jg:bs:{game_id}", ["1"])
        await chosen.reply()
        await fake_discord.wait_until(lambda: "backs South" in lobby.content,
                                      what="the lobby to show the bet")
        # Someone else uses the bettor's menu (a crafted interaction with its custom id).
        menu.visible_to = world.alice
        forged = await (await fake_discord.select(world.alice, menu, f"jg:bs:{game_id}",
                                                  ["3"])).reply()
        menu.visible_to = erin
        assert forged.ephemeral and forged.visible_to is world.alice
        assert "not this table's bettor" in forged.content
        bettor = await client.service.db.series.bettor(game_id)
        assert bettor is not None and (bettor.user_id, bettor.seat) == (erin.id, 1)

        await lobby_click(fake_discord, world.bob, lobby, f"jg:l:{game_id}:start")
        await fake_discord.wait_until(lambda: client.service.in_play(game_id),
                                      what="the game to start")
        await client.service.flush(game_id)
        seated = client.service.table(game_id)
        people = {u.id: u for u in world.players}
        table = JonggTable(fake_discord, world, client, game_id, lobby, lobby.thread,
                           [None if uid is None else people[uid] for uid in seated.user_ids])
        # After Start the bet is fixed: the bettor's own menu is refused.
        late = await (await fake_discord.select(erin, menu, f"jg:bs:{game_id}",
                                                ["2"])).reply()
        assert late.ephemeral and late.visible_to is erin and "already started" in late.content
        bettor = await client.service.db.series.bettor(game_id)
        assert bettor is not None and bettor.seat == 1
        # Every command and control the table offers answers the bettor as an outsider.
        used: Counter[str] = Counter()
        await use_every_control(table, erin, used)
        assert used["/mj rack outsider"] == 1 and used["jg:r: outsider"] >= 1
        assert not fake_discord.dms(erin)
    assert_clean(fake_discord, caplog)


async def test_play_again_and_end_series_pressed_carelessly(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        first = await JonggTable.open(fake_discord, world, client, [world.bob], bots=3)
        await first.play()
        result = await first.result_post()
        again_id, end_id = f"jg:s:{first.game_id}:again", f"jg:s:{first.game_id}:end"
        buttons = copy.deepcopy(result.components)

        def result_copy() -> Message:
            """The result as a phone that has not refreshed still shows it: with buttons."""
            result.components = copy.deepcopy(buttons)
            return result

        # The host presses Play again twice before the first press is answered.
        presses = [await fake_discord.click(world.bob, result_copy(), again_id) for _ in range(2)]
        for press in presses:
            await press.settled()
        series = await client.service.db.series.series_of(first.game_id)
        assert series is not None and len(series.games) == 2
        second_id = series.games[-1]
        assert (await client.service.db.games.game(second_id)).status is GameStatus.PLAYING
        refusals = [f for p in presses for f in p.followups if f.ephemeral]
        assert [r.visible_to for r in refusals] == [world.bob]
        assert "already begun" in refusals[0].content
        # The old result's buttons, pressed again (a stale copy), start nothing more.
        stale = await (await fake_discord.click(world.bob, result_copy(),
                                                again_id)).followup()
        assert stale.ephemeral and "already begun" in stale.content
        assert await _newest_game(client, first.game_id) == second_id
        # End series on the old result would end a series whose next game is being
        # played (and leave that game's result with buttons that refuse): refused too.
        early = await (await fake_discord.click(world.bob, result_copy(), end_id)).followup()
        assert early.ephemeral and "already begun" in early.content
        series = await client.service.db.series.series_of(first.game_id)
        assert series is not None and series.ended_at is None
        second = await _next_table(first, second_id)
        await second.play()
        await finished(client, second_id)
        last = await fake_discord.wait_for_message(
            lambda m: "result.png" in m.files and m is not result, channel=first.thread)
        # End series twice (the second press from a stale copy), then Play again: one
        # summary, then private refusals; a non-host is refused privately.
        end2, again2 = f"jg:s:{second_id}:end", f"jg:s:{second_id}:again"
        stranger = await (await fake_discord.click(world.alice, last, end2)).reply()
        assert stranger.ephemeral and "Only the table's host" in stranger.content
        kept = copy.deepcopy(last.components)
        ended = await fake_discord.click(world.bob, last, end2)
        assert "series.png" in (await ended.followup()).files
        await fake_discord.wait_until(lambda: not last.custom_ids(),
                                      what="the result to lose its buttons")
        last.components = copy.deepcopy(kept)
        twice = await fake_discord.click(world.bob, last, end2)
        refused = await twice.followup()
        assert refused.ephemeral and "has ended" in refused.content
        await twice.settled()
        assert not any("series.png" in f.files for f in twice.followups)
        last.components = copy.deepcopy(kept)
        after = await (await fake_discord.click(world.bob, last, again2)).followup()
        assert after.ephemeral and "has ended" in after.content
        series = await client.service.db.series.series_of(first.game_id)
        assert series is not None and series.ended_at is not None and len(series.games) == 2
    assert_clean(fake_discord, caplog)


async def test_a_royale_table_shows_nobody_another_seats_pool(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob, carol, dave = world.players
    used: Counter[str] = Counter()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", seed=SEED)) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob, carol],
                                      options={"racks": 2})
        assert client.service.table(table.game_id).rules.racks == 2
        watch = await LeakWatch.attach(table)
        players = cycle(table.humans)
        # (A seed of many digits: the watch looks for the seed's digits in a public replay.)
        while not table.over:
            user, seen = next((u, v) for u in table.humans if (v := table.view(u)).legal)
            if table.steps % 90 == 0:
                # /mj rack, Hint, /mj status, /mj replay and the table's buttons, used by a
                # seat and by Dave, who has none: the watch judges every answer.
                for someone in (next(players), dave):
                    await use_every_control(table, someone, used)
                await watch(table)
            await table.step(user, seen)
        await table.result_post()
        await watch(table)
    assert used["/mj rack seated"] and used["/mj rack outsider"] and used["jg:h: seated"]
    assert watch.pictures["rack.png"] > 20 and watch.private > 20
    pictures = [data for message in fake_discord.messages for name, data in
                message.files.items() if name in ("rack.png", "table.png")]
    assert pictures and max(map(len, pictures)) < fake_discord.attachment_size_limit
    assert_clean(fake_discord, caplog)
