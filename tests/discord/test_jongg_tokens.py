"""Per-move messages on interaction tokens (`bot.discord.tokens`): while a person's latest
click in their DM is fresh, their next prompt is a follow-up on it, and while a click under
the table's posts is fresh, the table's next post is a follow-up on that; Discord leaves
those requests out of the bot's global rate limit. Once every click is older than a token's
life (less a margin), the bot's token carries them again, and a token Discord refuses falls
back to it at once: every message arrives once, and each only where it belongs (the leak
watch looks after every step)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import (
    CallbackType,
    FakeDiscord,
    FakeInteraction,
    Message,
    RecordedRequest,
    User,
    World,
)
from fake.rest import INVALID_WEBHOOK_TOKEN
from jongg_table import FrozenClock, JonggTable, LeakWatch, assert_clean, jongg_client

from bot.discord.tokens import MARGIN, TOKEN_LIFETIME
from bot.store import DeliveryState

FOLLOW_UPS = "POST /webhooks/{application_id}/{token}"
POSTS = "POST /channels/{channel_id}/messages"


def _made_by(fake: FakeDiscord, message: Message) -> FakeInteraction | None:
    """The interaction whose follow-up made `message` (None: the bot's own token made it,
    or it is a click's answer)."""
    handle = fake.interactions.get(message.interaction_id or 0)
    if handle is None or message not in handle.followups:
        return None
    return handle


def _prompts(fake: FakeDiscord, user: User, since: int = 0) -> list[Message]:
    """The bot's new messages in `user`'s DM (not answers to clicks) since `since`."""
    return [m for m in fake.bot_messages(since=since) if m.channel is fake.dm_channel(user)
            and (m.interaction_id is None or _made_by(fake, m) is not None)]


def _carries(fake: FakeDiscord, request: RecordedRequest) -> bool:
    """Whether a follow-up request is on a click already answered with a message or an
    update (one that carries a per-move message, not a click's own answer)."""
    handle = fake.interactions_by_token[request.params["token"]]
    return handle.callback is not None and handle.callback.type in (
        CallbackType.CHANNEL_MESSAGE, CallbackType.UPDATE_MESSAGE)


async def _play_until_prompted(table: JonggTable, users: list[User], since: int) -> None:
    """Play on until each of `users` got a new prompt since `since`."""
    for _ in range(200):
        if all(_prompts(table.fake, user, since) for user in users):
            return
        await table.step(table.to_move()[0])
    raise AssertionError("not everyone was prompted")


async def test_prompts_and_posts_ride_on_fresh_clicks_and_on_the_bots_token_after(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    clock = FrozenClock()
    alice, bob = world.alice, world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        await LeakWatch.attach(table)
        for _ in range(60):
            await table.step(table.to_move()[0])
        for user in (alice, bob):
            prompts = _prompts(fake_discord, user)
            carried = [_made_by(fake_discord, m) for m in prompts]
            # The deal's prompt came before any click of theirs; from then on, each one
            # rode on a click of their own, made in their own DM.
            assert carried[0] is None and len(prompts) > 5, fake_discord.transcript()
            for handle in carried[1:]:
                assert handle is not None, [m.content for m in prompts]
                assert handle.user is user and handle.channel is fake_discord.dm_channel(user)
        posts = [m for m in fake_discord.messages_in(table.thread) if m.author is fake_discord.bot]
        carriers = [h for h in (_made_by(fake_discord, m) for m in posts) if h]
        assert len(carriers) > 5 and all(h.channel is table.thread for h in carriers)
        # Every click is now older than a token may be used: the next prompts and posts go
        # with the bot's token, without a token call Discord would refuse.
        await fake_discord.advance(TOKEN_LIFETIME - MARGIN)
        clock.now += TOKEN_LIFETIME - MARGIN
        since = fake_discord.mark()
        posted = len(fake_discord.requests)
        await table.step(table.to_move()[0])
        await _play_until_prompted(table, [alice, bob], since)
        for user in (alice, bob):
            first = _prompts(fake_discord, user, since)[0]
            assert _made_by(fake_discord, first) is None
        made = [r for r in fake_discord.requests[posted:] if r.key in (POSTS, FOLLOW_UPS)]
        assert made[0].key == POSTS, "the first post after the pause rode on an old click"
        # Once they click again, their clicks carry the messages again.
        since = fake_discord.mark()
        await _play_until_prompted(table, [alice, bob], since)
        for _ in range(8):
            await table.step(table.to_move()[0])
        for user in (alice, bob):
            assert _made_by(fake_discord, _prompts(fake_discord, user, since)[-1]) is not None
    assert_clean(fake_discord, caplog)


@pytest.mark.parametrize("refusal", ["expired", "unknown"])
async def test_a_token_discord_refuses_falls_back_to_the_bots_token(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, refusal: str) -> None:
    """The bot's clock says its clicks are fresh, Discord says no: the tokens expired (the
    fake's clock moved past their life, the bot's did not), or a follow-up is refused as an
    unknown webhook. Each message goes with the bot's token instead, once; each refused
    token is not used again."""
    alice, bob = world.alice, world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        await LeakWatch.attach(table)
        for _ in range(30):
            await table.step(table.to_move()[0])
        if refusal == "expired":
            await fake_discord.advance(TOKEN_LIFETIME)
        else:
            # (Only follow-ups of messages: a click's own answers are not what is tested.)
            fake_discord.fail(FOLLOW_UPS, status=404, code=10015, message="Unknown Webhook",
                              times=3, when=lambda r: _carries(fake_discord, r))
        since = fake_discord.mark()
        before = len(fake_discord.requests)
        await table.step(table.to_move()[0])
        await _play_until_prompted(table, [alice, bob], since)
        for _ in range(10):
            await table.step(table.to_move()[0])
        refused = [r for r in fake_discord.requests[before:]
                   if r.key == FOLLOW_UPS and r.status >= 400]
        assert refused, "no token was refused"
        tokens = [r.params["token"] for r in refused]
        assert len(tokens) == len(set(tokens)), "a refused token was used again"
        if refusal == "expired":
            assert all(r.response["code"] == INVALID_WEBHOOK_TOKEN for r in refused)
        # Nothing lost, nothing twice: every entry of the outbox was sent, and each post in
        # the thread and each prompt since is one of the messages an entry recorded.
        entries = await client.service.db.outbox.entries(table.game_id)
        assert all(e.state is DeliveryState.SENT for e in entries), entries
        recorded = {message for e in entries for message in e.message_ids}
        shown = [m for m in fake_discord.bot_messages(since=since)
                 if (m.channel is table.thread or m.channel.is_dm) and not m.ephemeral
                 and (m.interaction_id is None or _made_by(fake_discord, m) is not None)]
        assert shown and all(m.id in recorded for m in shown), [m.content for m in shown
                                                                if m.id not in recorded]
    late = [i for i in fake_discord.interactions.values() if i.callback is None]
    assert not late
    assert all(r.key == FOLLOW_UPS for r in fake_discord.failed_requests)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
