"""What goes wrong at real tables: closed DMs, Discord rate limits, a dropped gateway
connection, clicks by people who are not playing, clicks on old prompts, double clicks, and
clocks running out."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fake import FakeDiscord, World
from jongg_table import (
    DONE,
    FrozenClock,
    JonggTable,
    LeakWatch,
    assert_clean,
    custom_ids,
    finished,
    jongg_client,
    kinds_named,
)

from bot.engine.game import Phase

CANT_DM = "I can't send you direct messages"


async def test_closed_dms_play_through_my_rack(fake_discord: FakeDiscord, world: World,
                                               tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    blocked = fake_discord.block_dms(world.bob)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice, world.bob],
                                      bots=1)
        table.closed_dms.add(world.bob.id)
        await LeakWatch.attach(table)
        await table.play()
        await table.result_post()
        await finished(client, table.game_id)

    # The table is told once, naming no tile, and Bob was never sent anything privately
    # after his DMs turned out to be closed.
    told = [m for m in fake_discord.messages_in(table.thread) if CANT_DM in m.content]
    assert len(told) == 1
    assert told[0].mentions == [world.bob.id] and kinds_named(told[0]) == set()
    assert "My rack" in told[0].content
    assert fake_discord.dms(world.bob) == []
    assert blocked.hits == 1
    # Bob played his turns from "My rack", privately.
    racks = [i for i in fake_discord.interactions.values()
             if i.user is world.bob and str(i.payload["data"].get("custom_id", "")
                                             ).startswith("jg:r:")]
    assert len(racks) > 20
    for rack in racks:
        shown = rack.followups[0]
        assert shown.ephemeral and shown.visible_to is world.bob
        versions = [*shown.edits, shown]  # "thinking…", the rack, maybe "You chose …"
        assert any(a.filename == "rack.png" for v in versions for a in v.attachments)
    assert fake_discord.dms(world.alice)
    assert_clean(fake_discord, caplog)


async def test_rate_limited_sends_are_retried(fake_discord: FakeDiscord, world: World,
                                              tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    route = "POST /channels/{channel_id}/messages"
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice], bots=2,
                                      size=3)
        while table.view(world.alice).phase is not Phase.TURN:
            await table.step(world.alice)
        posted = len(table.fake.messages_in(table.thread))
        fault = fake_discord.rate_limit(route, times=2, retry_after=0.05)
        answer = await table.step(world.alice)
        kind = answer.content.removeprefix("You chose: **Discard ").removesuffix("**.")
        assert fault.hits == 2
        # Nothing was lost: the discard's post and the DM that followed both arrived.
        lines = [m.content for m in fake_discord.messages_in(table.thread)[posted:]]
        assert any(f"Alice discards {kind}." in line for line in lines), lines
        statuses = [r.status for r in fake_discord.requests if r.key == route]
        assert statuses.count(429) == 2
        count = table.spectator().action_count
        for _ in range(10):  # and the game goes on
            await table.step(world.alice)
        assert table.spectator().action_count > count + 10
    assert_clean(fake_discord, caplog)


async def test_outsiders_and_stale_clicks_change_nothing(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client,
                                      [world.alice, world.bob, world.carol])
        alice, bob, dave = world.alice, world.bob, world.dave

        async def refused(user: object, message: object, custom_id: str,
                          values: list[str] | None = None) -> str:
            """Click (or select), expect a private refusal and no change to the game."""
            count = table.spectator().action_count
            mark = fake_discord.mark()
            if values is None:
                handle = await fake_discord.click(user, message, custom_id)  # type: ignore[arg-type]
            else:
                handle = await fake_discord.select(user, message, custom_id,  # type: ignore[arg-type]
                                                   values)
            await handle.settled()
            await client.service.flush(table.game_id)
            [answer] = fake_discord.bot_messages(since=mark)
            assert answer.ephemeral and answer.visible_to is user
            assert table.spectator().action_count == count
            return answer.content

        # Alice, on her turn, opens "My rack" as well as having her DM prompt.
        post, rack = table.newest_post(f"jg:r:{table.game_id}")
        opened = await fake_discord.click(alice, post, rack)
        mine = await opened.reply()
        assert mine.ephemeral and custom_ids(mine, "jg:d:")
        # A double click on the DM's discard menu acts once.
        [prompt] = table.prompts(alice)
        [menu] = custom_ids(prompt, "jg:d:")
        first, second = await asyncio.gather(
            fake_discord.select(alice, prompt, menu, ["0"]),
            fake_discord.select(alice, prompt, menu, ["0"]))
        answers = sorted([(await first.reply()).content, (await second.reply()).content])
        await table.settle()
        assert sum(bool(DONE.match(a)) for a in answers) == 1, answers
        assert sum("out of date" in a for a in answers) == 1, answers
        assert table.spectator().action_count == 1

        # Dave is not at the table: Pass, Claim… and My rack tell him so, privately.
        post, claim = table.newest_post(f"jg:c:{table.game_id}:")
        [passing] = custom_ids(post, f"jg:p:{table.game_id}:")
        for custom_id in (passing, claim, rack):
            assert "not playing at this table" in await refused(dave, post, custom_id)
        # The menu Alice opened before she discarded is out of date now.
        [old] = custom_ids(mine, "jg:d:")
        assert "out of date" in await refused(alice, mine, old, ["0"])
        # Bob passes; a second Pass from him is out of date; Carol can still pass.
        await table.step(bob)
        assert "out of date" in await refused(bob, post, passing)
        await table.step(world.carol)
        # The discard is gone: its buttons are out of date, Claim… shows the rack as it is.
        assert "out of date" in await refused(bob, post, passing)
        late = await fake_discord.click(world.carol, post, claim)
        shown = await late.reply()
        assert shown.content.startswith("That discard is no longer open to you")
        assert "rack.png" in shown.files
        assert not custom_ids(shown, "jg:")  # nothing to do: Bob's turn
    assert_clean(fake_discord, caplog)


async def test_clocks_pass_for_silent_seats(fake_discord: FakeDiscord, world: World,
                                            tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        table = await JonggTable.open(fake_discord, world, client,
                                      [world.alice, world.bob, world.carol])
        await table.step(world.alice)
        assert table.spectator().phase is Phase.CLAIM
        post, passing = table.newest_post(f"jg:p:{table.game_id}:")
        assert await client.service.run_due_clocks() == 0
        clock.now += 11  # the live pace gives a claim window 10 seconds
        assert await client.service.run_due_clocks() == 1
        await table.settle()
        seen = table.view(world.bob)
        assert seen.phase is Phase.TURN and seen.turn == 1
        prompt = table.prompts(world.bob)[-1]
        assert "You drew" in prompt.content
        late = await fake_discord.click(world.carol, post, passing)
        assert "out of date" in (await late.reply()).content
        # Bob's turn clock runs out too: the bot discards for him.
        clock.now += 91
        assert await client.service.run_due_clocks() == 1
        await table.settle()
        assert table.spectator().discards[-1][0] == 1
        # His prompt no longer offers what was played for him, and he is told what it was.
        assert custom_ids(prompt, "jg:") == []
        assert "Your time ran out, so this was played for you: Discard" in \
            fake_discord.dms(world.bob)[-1].content
    assert_clean(fake_discord, caplog)


@pytest.mark.parametrize("resumable", [True, False], ids=["resumed", "new session"])
async def test_a_dropped_gateway_connection_does_not_stall_the_game(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, resumable: bool) -> None:
    """The connection drops twice mid-game (a claim window, then a turn) and the game plays to
    its end. A bot that resumes gets the clicks made while it was away; one that must
    IDENTIFY anew gets none of them, so people click once it is back (what happens to a
    click made in between: test_jongg_expiry)."""
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice, world.bob],
                                      bots=2)
        drops = 0
        while not table.over:
            user = table.to_move()[0]
            phase = table.spectator().phase
            if drops < 2 and phase is (Phase.CLAIM if drops == 0 else Phase.TURN):
                drops += 1
                await fake_discord.drop_gateway(resumable=resumable)
                if not resumable:
                    await fake_discord.wait_connected()
            await table.step(user)
        await table.result_post()
        await finished(client, table.game_id)
        assert drops == 2
        gateway = fake_discord.gateway
        assert (gateway.resumes, gateway.identifies) == ((2, 1) if resumable else (0, 3))
    assert_clean(fake_discord, caplog)
