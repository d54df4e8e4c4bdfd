"""Every game message arrives, and is shown once, whatever Discord does: the bot dies between
a move and its post, Discord rate-limits or errors five times in a row, the game's thread is
deleted, or the bot loses a permission it needs."""

from __future__ import annotations

import asyncio
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from fake import FakeDiscord, Message, Perm, RecordedRequest, User, World, remove_channel
from jongg_table import (
    FrozenClock,
    JonggTable,
    assert_clean,
    assert_no_error_logged,
    custom_ids,
    finished,
    jongg_client,
)

from bot.discord.client import JonggClient
from bot.discord.notify import thread_name
from bot.discord.tokens import TOKEN_LIFETIME
from bot.engine.game import Phase
from bot.tables.delivery import Backoff

POSTS = "POST /channels/{channel_id}/messages"
FOLLOW_UPS = "POST /webhooks/{application_id}/{token}"
#: Retries a hundred times quicker than the bot's own pacing.
QUICK = Backoff(first=0.01, cap=0.05, attempts=1000)


class _QuickAsyncio(types.ModuleType):
    """`asyncio` as discord.http sees it, with its own retry pauses (1 + 2n s after a 5xx) on
    the fake's clock, so five server errors in a row take a moment, not 25 s, and come no
    faster, counted in the fake's rate-limit windows, than on Discord. Those pauses are whole
    seconds (ints); the waits the rate limits ask for (floats) are on the fake's clock
    already."""

    def __init__(self, time_scale: float) -> None:
        super().__init__("asyncio")
        self.time_scale = time_scale

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(delay * self.time_scale if isinstance(delay, int) else delay,
                                   result)


@pytest.fixture
def quick_discord_retries(monkeypatch: pytest.MonkeyPatch, fake_discord: FakeDiscord) -> None:
    quick = _QuickAsyncio(fake_discord.limits.time_scale)
    monkeypatch.setattr(discord.http, "asyncio", quick)
    monkeypatch.setattr(discord.webhook.async_, "asyncio", quick)


def _to(channel_id: int) -> Callable[[RecordedRequest], bool]:
    return lambda request: request.params.get("channel_id") == str(channel_id)


async def _alice_to_discard(fake: FakeDiscord, world: World,
                            client: JonggClient) -> JonggTable:
    """A table of Alice, Bob and a bot, played until it is Alice's turn to discard."""
    table = await JonggTable.open(fake, world, client, [world.alice, world.bob], bots=1)
    await _up_to_a_discard(table, world.alice)
    return table


async def _up_to_a_discard(table: JonggTable, user: User) -> None:
    """Play until it is `user`'s turn to discard."""
    for _ in range(200):
        movers = table.to_move()
        if user in movers and table.view(user).phase is Phase.TURN:
            return
        await table.step(movers[0])
    raise AssertionError(f"{user.username} never had a turn")


async def _discard(table: JonggTable, user: User) -> str:
    """`user` discards from their DM prompt (without waiting for what follows); returns the
    tile's name."""
    answer = await table.first_option(user, await table.prompt(user))
    assert answer.content.startswith("You chose: **Discard "), answer.content
    return answer.content.removeprefix("You chose: **Discard ").removesuffix("**.")


def _posts(fake: FakeDiscord, table: JonggTable, text: str) -> list[Message]:
    return [m for m in fake.messages_in(table.thread) if text in m.content]


@pytest.mark.parametrize("made", [False, True],
                         ids=["before-discord-made-it", "after-discord-made-it"])
async def test_a_crash_between_the_move_and_its_post_is_made_good_by_the_restart(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, quick_discord_retries: None, made: bool) -> None:
    database, clock = tmp_path / "j.db", FrozenClock()
    alice = world.alice
    async with fake_discord.run(jongg_client(database, clock, backoff=QUICK)) as client:
        table = await _alice_to_discard(fake_discord, world, client)
        # The post never gets through (or Discord makes it, but its answer is lost), and the
        # bot dies before anything more is confirmed.
        down = fake_discord.fail(POSTS, status=500, times=None, when=_to(table.thread.id))
        down.effective = made
        kind = await _discard(table, alice)
        await fake_discord.wait_until(lambda: down.hits or None, what="the post to be tried")
    fake_discord.faults.remove(down)
    line = f"Alice discards {kind}."
    assert len(_posts(fake_discord, table, line)) == int(made)

    async with fake_discord.run(jongg_client(database, clock, sync=False,
                                             backoff=QUICK)) as client:
        table.client = client
        await client.service.flush(table.game_id)
        # The discard's line, with its Claim/Pass buttons, is there once.
        [post] = _posts(fake_discord, table, line)
        assert custom_ids(post, f"jg:c:{table.game_id}:")
        await table.play()
        await table.result_post()
        await finished(client, table.game_id)
    assert len(_posts(fake_discord, table, line)) == 1
    assert_clean(fake_discord, caplog)


async def test_five_rate_limits_in_a_row_then_the_post_arrives_once(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db", backoff=QUICK)) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice], bots=2,
                                      size=3)
        await _up_to_a_discard(table, world.alice)
        limit = fake_discord.rate_limit(POSTS, times=5, retry_after=0.05,
                                        when=_to(table.thread.id))
        answer = await table.step(world.alice)  # waits until everything is delivered
        kind = answer.content.removeprefix("You chose: **Discard ").removesuffix("**.")
        assert limit.hits == 5
        assert len(_posts(fake_discord, table, f"Alice discards {kind}.")) == 1
        statuses = [r.status for r in fake_discord.requests
                    if r.key == POSTS and _to(table.thread.id)(r)]
        assert statuses[-6:] == [429] * 5 + [200]
        # And the game goes on.
        count = table.spectator().action_count
        for _ in range(10):
            await table.step(world.alice)
        assert table.spectator().action_count > count + 10
    assert_clean(fake_discord, caplog)


@pytest.mark.parametrize("by", [POSTS, FOLLOW_UPS], ids=["bot token", "follow-up"])
async def test_five_server_errors_in_a_row_then_the_post_arrives_once(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, quick_discord_retries: None, by: str) -> None:
    """The table's post goes as a follow-up on a click in the thread while one is fresh,
    with the bot's token once every click there is older than a token's life (here, the
    bot's clock moved past it before each discard); either way five server errors in a row
    (the first of them, the second time, having made the message) leave it shown once."""
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock,
                                             backoff=QUICK)) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice], bots=2,
                                      size=3)
        thread = table.thread
        into_thread = (_to(thread.id) if by == POSTS else
                       lambda r: fake_discord.interactions_by_token[r.params["token"]].channel
                       is thread)
        # Alice's first discard comes before anyone clicked in the thread; after it she
        # passes on the bots' discards there.
        await _up_to_a_discard(table, world.alice)
        await table.step(world.alice)
        for lost in (False, True):
            await _up_to_a_discard(table, world.alice)
            if by == POSTS:
                clock.now += TOKEN_LIFETIME
            # Five 500s; the second time the first of them took effect (Discord made the
            # message and the answer was lost), so a careless retry would show it twice.
            first = fake_discord.fail(by, status=500, when=into_thread)
            first.effective = lost
            rest = fake_discord.fail(by, status=500, times=4, when=into_thread)
            answer = await table.step(world.alice)
            kind = answer.content.removeprefix("You chose: **Discard ").removesuffix("**.")
            assert first.hits + rest.hits == 5
            assert len(_posts(fake_discord, table, f"Alice discards {kind}.")) == 1
            statuses = [r.status for r in fake_discord.requests
                        if r.key == by and into_thread(r)]
            # A follow-up has no nonce: the retry finds the one made in the thread's newest
            # messages instead of sending it again.
            expected = [500] * 5 + ([] if lost and by == FOLLOW_UPS else [200])
            assert statuses[-len(expected):] == expected
    assert_clean(fake_discord, caplog)


async def test_a_follow_up_made_but_answered_500_and_sent_again_shows_once(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, quick_discord_retries: None) -> None:
    """Discord makes the table's post sent as a follow-up but answers 500; discord.py sends
    it again by itself, and that one is answered. A follow-up has no nonce: the bot sees it
    went out twice and deletes the first copy."""
    async with fake_discord.run(jongg_client(tmp_path / "j.db", backoff=QUICK)) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice], bots=2,
                                      size=3)
        thread = table.thread

        def into_thread(request: RecordedRequest) -> bool:
            return fake_discord.interactions_by_token[request.params["token"]].channel is thread

        await _up_to_a_discard(table, world.alice)
        await table.step(world.alice)
        await _up_to_a_discard(table, world.alice)
        made = fake_discord.fail(FOLLOW_UPS, status=500, when=into_thread)
        made.effective = True
        answer = await table.step(world.alice)
        kind = answer.content.removeprefix("You chose: **Discard ").removesuffix("**.")
        assert made.hits == 1
        assert len(_posts(fake_discord, table, f"Alice discards {kind}.")) == 1
        copies = [m for m in fake_discord.messages_in(thread, deleted=True)
                  if f"Alice discards {kind}." in m.content]
        assert len(copies) == 2 and copies[0].deleted
        for _ in range(6):
            await table.step(table.to_move()[0])
    assert_clean(fake_discord, caplog)


async def test_a_deleted_thread_is_replaced_and_the_game_finishes_there(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = world.alice, world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db", backoff=QUICK)) as client:
        table = await _alice_to_discard(fake_discord, world, client)
        old = table.thread
        await remove_channel(fake_discord, old)
        await table.step(alice)  # her discard's post finds the thread gone
        [new] = world.guild.threads
        assert new.name == thread_name(table.game_id) and new.parent is world.tables
        assert (await client.service.db.games.game(table.game_id)).thread_id == new.id
        # The players are told in the new thread (named, so it shows up for them) and in
        # the channel, and the discard's post follows.
        notice, post, *_ = fake_discord.messages_in(new)
        assert set(notice.mentions) == {alice.id, bob.id}
        assert "thread was deleted" in notice.content and "carries on here" in notice.content
        pointer = fake_discord.messages_in(world.tables)[-1]
        assert f"<#{new.id}>" in pointer.content and pointer.mentions == []
        assert "Alice discards" in post.content and custom_ids(post, "jg:c:")
        table.thread = new
        await table.play()
        await table.result_post()
        await finished(client, table.game_id)
        # A click on an old button of the finished game gets a kind answer.
        last = table.table_posts()[-1]
        [rack] = custom_ids(last, f"jg:r:{table.game_id}")
        answer = await (await fake_discord.click(bob, last, rack)).reply()
        assert answer.ephemeral and "isn't running" in answer.content
    # Only the posts to the deleted thread failed, each once: the table moved at the first.
    failed = fake_discord.failed_requests
    assert [(r.status, r.response["code"]) for r in failed] == [(404, 10003)]
    assert all(r.params["channel_id"] == str(old.id) for r in failed)
    assert_no_error_logged(caplog)


async def test_a_missing_permission_is_told_to_the_host_once_and_nothing_is_lost(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db", backoff=QUICK)) as client:
        table = await _alice_to_discard(fake_discord, world, client)
        # Someone takes the bot's Attach Files away in the tables' channel (and its thread).
        me = world.guild.member(fake_discord.bot)
        fake_discord.set_permissions(world.tables, me, deny=Perm.ATTACH_FILES)
        kind = await _discard(table, alice)

        def refusals() -> int:
            return sum(r.status == 403 for r in fake_discord.requests
                       if r.key == POSTS and _to(table.thread.id)(r))

        await fake_discord.wait_until(lambda: refusals() >= 4 or None,
                                      what="the post to be refused a few times")
        told = [m for m in fake_discord.dms(alice) if "needs you" in m.content]
        assert len(told) == 1
        assert "**Attach Files**" in told[0].content and "Send" not in told[0].content
        assert f"<#{table.thread.id}>" in told[0].content
        # The permission comes back: the post goes out once, and so does the rest.
        fake_discord.set_permissions(world.tables, me)
        await client.service.flush(table.game_id)
        assert len(_posts(fake_discord, table, f"Alice discards {kind}.")) == 1
        await table.play()
        await table.result_post()
        await finished(client, table.game_id)
    assert len([m for m in fake_discord.dms(alice) if "needs you" in m.content]) == 1
    assert {(r.status, r.response["code"]) for r in fake_discord.failed_requests} == {
        (403, 50013)}
    assert_no_error_logged(caplog)
