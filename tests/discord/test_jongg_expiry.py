"""Jongg over Discord's long stretches of time: a thread that archived between two moves of an
asynchronous game, prompts answered long after the interaction that showed them has expired,
and a click lost while the bot reconnected with a new session."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import CallbackType, FakeDiscord, IdentifyGate, InteractionFailed, World
from fake.interactions import TOKEN_LIFETIME
from jongg_table import (
    FrozenClock,
    JonggTable,
    assert_clean,
    custom_ids,
    jongg_client,
)

from bot.discord import commands, components
from bot.engine.game import Phase

MINUTE = 60
DAY = 24 * 60 * MINUTE


async def test_an_async_game_goes_on_in_a_thread_that_archived(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    clock = FrozenClock()
    alice, bob = world.alice, world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2,
                                      options={"pace": "async"})
        thread = table.thread
        # An async turn may take a day, so the table's thread opens with a week's quiet
        # period, the longest Discord offers: a day without a post does not archive it.
        assert thread.auto_archive_duration == 10080
        while table.spectator().phase is not Phase.TURN or table.to_move() != [alice]:
            await table.step(table.to_move()[0])
        await fake_discord.advance(DAY)
        assert not thread.archived
        # A thread opened with a day's period (as before, or shortened by a moderator)
        # archives when Alice lets her turn run: Discord says so, and the bot forgets it.
        with fake_discord.lock:
            thread.auto_archive_duration = 1440
        await fake_discord.advance(MINUTE)
        assert thread.archived
        await fake_discord.wait_until(lambda: client.get_channel(thread.id) is None,
                                      what="the bot to drop the archived thread")
        # Its buttons still work: Bob looks at his rack, privately, and it stays archived.
        post, rack = table.newest_post(f"jg:r:{table.game_id}")
        shown = await table.reply(await fake_discord.click(bob, post, rack))
        assert shown.ephemeral and "rack.png" in shown.files and thread.archived
        mark = fake_discord.mark()
        clock.now += DAY + MINUTE
        assert await client.service.run_due_clocks() >= 1  # her clock plays the move
        await table.settle()
        # The move's post reached the thread and reopened it.
        posts = [m for m in fake_discord.bot_messages(since=mark) if m.channel is thread]
        assert any("Alice discards" in m.content for m in posts), fake_discord.transcript()
        assert not thread.archived
        await fake_discord.wait_until(lambda: client.get_channel(thread.id) is not None,
                                      what="the bot to take the reopened thread back")
        # Bob answers the discard under the new post, Alice looks at her rack there, and
        # the game goes on.
        assert table.spectator().phase is Phase.CLAIM
        await table.step(bob)
        post, rack = table.newest_post(f"jg:r:{table.game_id}")
        shown = await table.reply(await fake_discord.click(alice, post, rack))
        assert shown.ephemeral and "rack.png" in shown.files
        moves = table.spectator().action_count
        for _ in range(6):
            await table.step(table.to_move()[0])
        assert table.spectator().action_count > moves
    assert_clean(fake_discord, caplog)


@pytest.mark.parametrize("answer_within", [components.ANSWER_WITHIN, 0.0],
                         ids=["answered", "deferred first"])
async def test_prompts_answered_long_after_they_were_shown(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
        answer_within: float) -> None:
    """The Charleston's stop vote waits twenty minutes for both people: Alice's DM prompt,
    and Bob's rack (his DMs are closed), shown privately in answer to a click whose token
    expired meanwhile. Their votes are answered through their own clicks, never an old
    token: at once, or (a move that takes a while) acknowledged first and told after."""
    monkeypatch.setattr(components, "ANSWER_WITHIN", answer_within)
    alice, bob = world.alice, world.bob
    fake_discord.block_dms(bob)
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        table.closed_dms.add(bob.id)
        while table.spectator().phase is not Phase.VOTE:
            await table.step(table.to_move()[0])
        assert table.to_move() == [alice, bob]
        prompt = await table.prompt(alice)
        rack = await table.prompt(bob)  # "My rack", answered privately
        [shown_by] = [i for i in fake_discord.interactions.values() if rack in i.messages]
        # Twenty minutes pass for Discord and for the bot alike (the bot judges its clicks'
        # tokens by its own clock).
        await fake_discord.advance(20 * MINUTE)
        clock.now += 20 * MINUTE
        assert shown_by.token_expired
        before = set(fake_discord.interactions)
        await table.first_option(bob, rack)
        await table.settle()
        await table.first_option(alice, prompt)
        await table.settle()
        assert table.spectator().phase is not Phase.VOTE
        votes = [i for key, i in fake_discord.interactions.items() if key not in before]
        way = (CallbackType.DEFERRED_UPDATE_MESSAGE if answer_within == 0
               else CallbackType.UPDATE_MESSAGE)
        assert [v.callback.type if v.callback else None for v in votes] == [way, way]
        for _ in range(4):
            await table.step(table.to_move()[0])
    assert_clean(fake_discord, caplog)


async def test_a_click_lost_while_the_bot_reconnected_is_made_again(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """The bot's connection drops for good: until it has identified anew, nobody's click
    reaches it (Discord tells them it failed). Alice clicks again once it is back, and her
    move is made once."""
    alice = world.alice
    gate = IdentifyGate()
    client = jongg_client(tmp_path / "j.db")
    client.before_identify_hook = gate  # type: ignore[method-assign]
    async with fake_discord.run(client, fast_reidentify=False):
        table = await JonggTable.open(fake_discord, world, client, [alice, world.bob],
                                      bots=2)
        while table.to_move() != [alice]:
            await table.step(table.to_move()[0])
        prompt = await table.prompt(alice)
        count = table.spectator().action_count
        await fake_discord.drop_gateway(resumable=False)
        await gate.reached.wait()
        with pytest.raises(InteractionFailed, match="no bot session"):
            await table.first_option(alice, prompt)
        gate.open()
        await fake_discord.wait_connected()
        await table.settle()
        assert table.spectator().action_count == count, "the lost click made a move"
        assert custom_ids(prompt, "jg:"), "her prompt changed while the bot was away"
        await table.first_option(alice, prompt)  # the same click, made again
        await table.settle()
        made = await client.service.db.actions.actions(table.game_id, since=count)
        assert [a.actor_user_id for a in made].count(alice.id) == 1
        for _ in range(4):
            await table.step(table.to_move()[0])
    assert fake_discord.gateway.identifies == 2
    assert_clean(fake_discord, caplog)


async def test_an_unanswered_abort_question_is_tidied_away_in_time(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """`/mj abort` asks Yes or No, and nobody answers. Once the question stops waiting its
    buttons would do nothing, so the bot takes them away, with the question's own token: it
    waits a minute, far inside the token's 15."""
    assert commands.CONFIRM_SECONDS <= TOKEN_LIFETIME / 10
    monkeypatch.setattr(commands, "CONFIRM_SECONDS", 0.2)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice, world.bob],
                                      bots=2)
        asking = await fake_discord.slash(world.alice, table.thread, "mj abort")
        question = await asking.reply()
        assert question.ephemeral and question.buttons()
        await fake_discord.wait_until(lambda: not question.buttons(),
                                      what="the unanswered question to lose its buttons")
        assert "nothing changed" in question.content
        assert client.service.in_play(table.game_id)
    assert_clean(fake_discord, caplog)
