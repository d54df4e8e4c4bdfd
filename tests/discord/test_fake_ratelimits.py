"""Discord's rate limits in the fake: what a client that does not wait is refused, and that the
real discord.py client, which reads the headers and waits, is refused nothing.

Requests "by hand" go through a bare aiohttp session (no discord.py in the way, so nothing
waits before sending); the rest through the real client, as the bot makes them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands
from discord.http import handle_message_parameters
from fake import Bucket, FakeDiscord, Perm, RateLimits, RecordedRequest, World
from fake.ratelimits import BAN_BODY, CHANNEL_MESSAGES, RateLimiter, ban_risk, bucket_hash

from bot.discord.client import JonggClient

pytestmark = pytest.mark.filterwarnings("error")

MakeBot = Callable[..., commands.Bot]
StartBot = Callable[[commands.Bot], Awaitable[commands.Bot]]
#: Discord's usual limits on a clock 5 times as fast: a channel's window is 1 s here, so a
#: burst made by hand fits in one window however loaded the machine is.
ROOMY = RateLimits(time_scale=0.2)
#: The headers Discord puts on every answer.
RATE_LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
                      "X-RateLimit-Reset-After", "X-RateLimit-Bucket")


@dataclass
class Answer:
    status: int
    headers: Mapping[str, str]
    body: Any


class ByHand:
    """REST requests made without discord.py: nothing waits before it sends."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.session = session

    async def call(self, method: str, path: str, body: Any = None, *,
                   token: str | None = None) -> Answer:
        headers = {"Authorization": f"Bot {token or self.fake.token}"}
        async with self.session.request(method, self.fake.api_base + path, json=body,
                                        headers=headers) as response:
            data: Any = (await response.json() if response.content_type == "application/json"
                         else await response.text())
            return Answer(response.status, response.headers.copy(), data)

    async def post(self, channel_id: int, text: str) -> Answer:
        return await self.call("POST", f"/channels/{channel_id}/messages", {"content": text})


@asynccontextmanager
async def by_hand(fake: FakeDiscord) -> AsyncIterator[ByHand]:
    async with aiohttp.ClientSession() as session:
        yield ByHand(fake, session)


def window(fake: FakeDiscord, route: str = CHANNEL_MESSAGES) -> float:
    """A route's window in seconds, on the fake's clock."""
    return fake.limits.bucket(route).per * fake.limits.time_scale


def posts(fake: FakeDiscord, channel_id: int) -> list[RecordedRequest]:
    return [r for r in fake.requests
            if r.key == CHANNEL_MESSAGES and r.params["channel_id"] == str(channel_id)]


async def sending_bot(make_bot: MakeBot, start_bot: StartBot) -> commands.Bot:
    """A client that only logs in (no commands synced): the test sends through it."""
    return await start_bot(make_bot())


def text_channel(bot: commands.Bot, channel_id: int) -> discord.TextChannel:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# -- buckets -------------------------------------------------------------------------------


@pytest.mark.rate_limits(ROOMY)
@pytest.mark.rate_limited
async def test_a_burst_over_a_bucket_is_refused_when_nobody_waits(
        fake_discord: FakeDiscord, world: World) -> None:
    fake = fake_discord
    per = window(fake)
    async with by_hand(fake) as http:
        burst = [await http.post(world.general.id, f"deal {n}") for n in range(6)]
        elsewhere = await http.post(world.tables.id, "another channel, another bucket")
        refused = burst[-1]
        await fake.advance(refused.body["retry_after"])  # what the 429 asks for, no more
        later = await http.post(world.general.id, "the next window")

    assert [a.status for a in burst] == [200] * 5 + [429]
    assert [a.headers["X-RateLimit-Remaining"] for a in burst] == ["4", "3", "2", "1", "0", "0"]
    assert {a.headers["X-RateLimit-Limit"] for a in burst} == {"5"}
    assert {a.headers["X-RateLimit-Bucket"] for a in burst} == {bucket_hash(CHANNEL_MESSAGES)}
    assert refused.body == {"message": "You are being rate limited.",
                            "retry_after": refused.body["retry_after"], "global": False}
    retry = refused.body["retry_after"]
    assert 0 < retry <= per
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert float(refused.headers["Retry-After"]) == retry
    assert float(refused.headers["X-RateLimit-Reset-After"]) == retry
    assert float(refused.headers["X-RateLimit-Reset"]) == pytest.approx(time.time(), abs=per)
    assert refused.headers["Via"]  # without it discord.py would take the 429 for a ban
    assert "X-RateLimit-Global" not in refused.headers

    assert elsewhere.status == 200 and elsewhere.headers["X-RateLimit-Remaining"] == "4"
    assert later.status == 200 and later.headers["X-RateLimit-Remaining"] == "4"
    assert [m.content for m in fake.messages_in(world.general)] == [
        "deal 0", "deal 1", "deal 2", "deal 3", "deal 4", "the next window"]
    [limited] = fake.rate_limited
    assert limited.limited == "user" and limited.json == {"content": "deal 5"}
    assert fake.invalid_requests == [limited]


def _request(method: str, route: str, **params: str) -> RecordedRequest:
    return RecordedRequest(method, route.format(**params), route, params, {})


def test_a_routes_limit_is_kept_per_channel_guild_and_token() -> None:
    """Each route's bucket is counted per top-level resource (its major parameter); the
    other parameters (which message, which member) share it."""
    limiter = RateLimiter(RateLimits(), clock=lambda: 0.0)  # time stands still

    def admitted(method: str, route: str, *params: dict[str, str]) -> list[bool]:
        return [limiter.admit(_request(method, route, **p)) is None for p in params]

    edit = "/channels/{channel_id}/messages/{message_id}"
    member = "/guilds/{guild_id}/members/{user_id}"
    followup = "/webhooks/{application_id}/{token}"
    in_channel_1 = [{"channel_id": "1", "message_id": str(n)} for n in range(6)]
    in_guild_1 = [{"guild_id": "1", "user_id": str(n)} for n in range(6)]
    token_a = [{"application_id": "9", "token": "a"}] * 6
    assert admitted("PATCH", edit, *in_channel_1) == [True] * 5 + [False]
    assert admitted("PATCH", edit, {"channel_id": "2", "message_id": "0"}) == [True]
    assert admitted("GET", member, *in_guild_1) == [True] * 5 + [False]
    assert admitted("GET", member, {"guild_id": "2", "user_id": "0"}) == [True]
    assert admitted("POST", followup, *token_a) == [True] * 5 + [False]
    assert admitted("POST", followup, {"application_id": "9", "token": "b"}) == [True]
    # A route without a top-level resource has one bucket for the whole bot.
    assert admitted("POST", "/users/@me/channels", *[{}] * 6) == [True] * 5 + [False]
    assert [r.limited for r in limiter.refused] == ["user"] * 4


async def test_discord_py_waits_out_a_bucket_and_is_refused_nothing(
        fake_discord: FakeDiscord, world: World, make_bot: MakeBot,
        start_bot: StartBot) -> None:
    bot = await sending_bot(make_bot, start_bot)
    general = text_channel(bot, world.general.id)
    for n in range(11):  # one after the other, as the bot's sender posts a game
        await general.send(f"line {n}")

    sent = posts(fake_discord, world.general.id)
    assert len(sent) == 11 and {r.status for r in sent} == {200}
    assert fake_discord.rate_limited == []
    # It had to wait: 11 messages at 5 a window take at least three windows.
    assert sent[-1].at - sent[0].at >= 2 * window(fake_discord)


async def test_the_bots_sends_that_overlap_wait_their_turn_and_are_refused_nothing(
        fake_discord: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Handlers and games side by side, each sending into its channel many at once, through
    the bot's own HTTP client (`JonggClient`, which sends a bucket's requests one at a time,
    `bot.discord.buckets`). Without that, discord.py lets up to ten out into a channel's window
    of five in a few rounds like these, and is refused."""
    fake = fake_discord
    channels = [fake.add_channel(world.guild, f"table-{n}") for n in range(8)]
    http = JonggClient(tmp_path / "unused.sqlite3").http
    await http.static_login(fake.token)

    async def rounds(channel_id: int) -> None:
        for round_ in range(4):
            await asyncio.gather(*(http.send_message(channel_id, params=handle_message_parameters(
                content=f"round {round_}, line {n}")) for n in range(16)))

    try:
        await asyncio.gather(*(rounds(channel.id) for channel in channels))
    finally:
        await http.close()

    sent = [r for channel in channels for r in posts(fake, channel.id)]
    assert fake.rate_limited == []
    assert len(sent) == 8 * 4 * 16 and {r.status for r in sent} == {200}


# -- the global limit ----------------------------------------------------------------------


#: Only the global limit binds (50 requests per 10 s: Discord's second, stretched so that a
#: loaded machine still sends 51 requests within it).
GLOBAL_ONLY = RateLimits(default=Bucket(1000, 1.0), time_scale=10.0)


@pytest.mark.rate_limits(GLOBAL_ONLY)
@pytest.mark.rate_limited
async def test_the_global_limit_refuses_the_51st_request_but_not_interactions(
        fake_discord: FakeDiscord, world: World, make_bot: MakeBot,
        start_bot: StartBot) -> None:
    bot = make_bot()

    @bot.tree.command(description="Answers with a follow-up")
    async def ping(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("pong")

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    await start_bot(bot)
    async with by_hand(fake_discord) as http:
        answers = []
        while not answers or answers[-1].status != 429:
            answers.append(await http.call("GET", "/users/@me"))
        refused = answers[-1]
        handle = await fake_discord.slash(world.alice, world.general, "ping")
        reply = await handle.reply()

    counted = [r for r in fake_discord.requests if not r.path.startswith(
        ("/interactions/", "/webhooks/")) and r.limited is None]
    assert len(counted) == 50  # the bot's own (login, sync) and ours, then a refusal
    assert refused.body["global"] is True and refused.body["retry_after"] > 0
    assert refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert float(refused.headers["Retry-After"]) == refused.body["retry_after"]
    # The interaction's callback and follow-up are exempt: answered while the limit holds.
    assert reply.content == "pong"
    assert [r.limited for r in fake_discord.rate_limited] == ["global"]


@pytest.mark.rate_limits(GLOBAL_ONLY)
@pytest.mark.rate_limited
async def test_the_global_limit_is_the_tokens_across_connections(
        fake_discord: FakeDiscord) -> None:
    # Two processes of one bot: separate connections, one token. 26 requests each is
    # under the limit for either alone, over it for both together.
    async with by_hand(fake_discord) as first, by_hand(fake_discord) as second:
        answers = [await http.call("GET", "/users/@me")
                   for _ in range(26) for http in (first, second)]
    assert [a.status for a in answers] == [200] * 50 + [429, 429]
    assert all(a.body["global"] is True for a in answers[50:])
    assert len({r.connection for r in fake_discord.requests}) == 2


#: Discord's windows ten times as long (a channel's 5 s is 50 s, the global second 10 s), so
#: that within the test only the fake's clock can end them.
SLOW = RateLimits(default=Bucket(1000, 1.0), time_scale=10.0)


@pytest.mark.rate_limits(SLOW)
@pytest.mark.rate_limited
async def test_a_day_on_the_fakes_clock_refills_the_buckets_and_the_global_limit(
        fake_discord: FakeDiscord, world: World) -> None:
    fake = fake_discord
    async with by_hand(fake) as http:
        sent = [await http.post(world.general.id, f"deal {n}") for n in range(6)]
        calls: list[Answer] = []
        while not calls or calls[-1].status != 429:
            calls.append(await http.call("GET", "/users/@me"))
        await fake.advance(24 * 3600)
        again = await http.post(world.general.id, "a day later")
        me = await http.call("GET", "/users/@me")

    assert [a.status for a in sent] == [200] * 5 + [429]
    assert sent[-1].body["retry_after"] > 40  # the window had most of its 50 s to run
    assert len(calls) == 50 - 5 + 1 and calls[-1].body["global"] is True
    assert again.status == 200 and again.headers["X-RateLimit-Remaining"] == "4"
    assert float(again.headers["X-RateLimit-Reset-After"]) == pytest.approx(50, abs=1)
    assert me.status == 200


# -- invalid requests ----------------------------------------------------------------------


#: Buckets of one request per minute: one for reactions (the resource's own, shared by
#: everyone), one for pins (the bot's).
TIGHT = RateLimits(buckets={
    "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me":
        Bucket(1, 60.0, scope="shared"),
    "PUT /channels/{channel_id}/messages/pins/{message_id}": Bucket(1, 60.0)})


@pytest.mark.rate_limits(TIGHT)
@pytest.mark.rate_limited
async def test_invalid_requests_are_401_403_and_429_except_shared_ones(
        fake_discord: FakeDiscord, world: World) -> None:
    fake = fake_discord
    fake.set_permissions(world.tables, world.guild.roles[0], deny=Perm.VIEW_CHANNEL)
    async with by_hand(fake) as http:
        first = await http.post(world.general.id, "react to me")
        message = f"/channels/{world.general.id}/messages/{first.body['id']}"
        statuses = [
            (await http.call("GET", "/users/@me", token="not.the.token")).status,
            (await http.post(world.tables.id, "hidden channel")).status,
            (await http.call("PUT", f"{message}/reactions/%F0%9F%80%84/@me")).status,
            (await http.call("PUT", f"{message}/reactions/%F0%9F%80%84/@me")).status,
            (await http.call("PUT", f"/channels/{world.general.id}/messages/pins/"
                                    f"{first.body['id']}")).status,
            (await http.call("PUT", f"/channels/{world.general.id}/messages/pins/"
                                    f"{first.body['id']}")).status,
            (await http.call("GET", "/channels/1/messages/2")).status,
        ]
        fake.rate_limit("GET /users/@me", retry_after=0.01)
        injected = await http.call("GET", "/users/@me")

    assert statuses == [401, 403, 204, 429, 204, 429, 404]
    assert injected.status == 429
    shared, mine = fake.rate_limited
    assert (shared.limited, mine.limited) == ("shared", "user")
    # Counted: the 401, the 403, the bot's own 429 and the injected one; not the shared
    # 429 (the resource's limit, not the bot's doing), not the 404.
    assert [r.status for r in fake.invalid_requests] == [401, 403, 429, 429]
    assert shared not in fake.invalid_requests and mine in fake.invalid_requests


async def test_too_many_invalid_requests_get_the_bot_banned() -> None:
    """Past the invalid-request limit Cloudflare answers for Discord: a 429 without `Via` or
    JSON, which discord.py does not retry."""
    limits = RateLimits(invalid=Bucket(3, 600.0))
    async with FakeDiscord(limits=limits) as fake, by_hand(fake) as http:
        refused = [(await http.call("GET", "/users/@me", token="wrong")).status
                   for _ in range(3)]
        banned = await http.call("GET", "/users/@me")
        client = discord.http.HTTPClient(asyncio.get_running_loop())
        try:
            with pytest.raises(discord.HTTPException) as error:
                await client.static_login(fake.token)
        finally:
            await client.close()
        await fake.advance(600)  # the invalid requests leave the 10-minute window
        forgiven = await http.call("GET", "/users/@me")
    assert refused == [401, 401, 401]
    assert banned.status == 429 and banned.body == BAN_BODY
    assert "Via" not in banned.headers and "X-RateLimit-Limit" not in banned.headers
    assert error.value.status == 429
    assert [r.limited for r in fake.rate_limited] == ["ban", "ban"]
    assert forgiven.status == 200


def _invalid_at(*times: float) -> list[tuple[float, RecordedRequest]]:
    """401s answered at these times of the fake's clock."""
    return [(at, RecordedRequest("GET", "/users/@me", "/users/@me", {}, {}, status=401))
            for at in times]


def test_the_ban_check_fails_a_game_over_its_share_of_the_limit() -> None:
    """10,000 invalid requests per 10 minutes, shared by 200 games: a game may make 50 in
    any 10 minutes (30 s on the tests' clock)."""
    limits = RateLimits(time_scale=0.05)
    assert ban_risk(_invalid_at(*range(50)), limits, 200) is None  # 50 within 30 s
    problem = ban_risk(_invalid_at(*(n / 10 for n in range(51))), limits, 200)
    assert problem is not None and problem.startswith("51 invalid requests (401, 403, 429) "
                                                      "within 30 s")
    # 100 in all, but never more than 50 in a window.
    assert ban_risk(_invalid_at(*range(50), *range(100, 150)), limits, 200) is None


async def test_a_bot_that_retries_a_refusal_in_a_loop_fails_the_ban_check() -> None:
    """What the end-to-end conftest checks after each test, on a bot that keeps retrying a
    403 the way nobody should."""
    async with FakeDiscord(limits=RateLimits(time_scale=0.05)) as fake, by_hand(fake) as http:
        hall = fake.add_guild("Hall")
        hidden = fake.add_channel(hall, "hidden")
        fake.set_permissions(hidden, hall.roles[0], deny=Perm.VIEW_CHANNEL)
        for _ in range(60):  # refused for the permission, then for the bucket too
            assert (await http.post(hidden.id, "let me in")).status in (403, 429)
        problem = ban_risk(fake.limiter.invalid, fake.limits, 200)
    assert problem is not None and problem.startswith("60 invalid requests")


# -- headers ---------------------------------------------------------------------------------


@pytest.mark.rate_limits(RateLimits(time_scale=240.0))  # a reaction a minute
@pytest.mark.rate_limited
async def test_every_api_answer_carries_the_rate_limit_headers(
        fake_discord: FakeDiscord, world: World) -> None:
    fake = fake_discord
    fake.strict = False  # one route is unknown on purpose
    fake.set_permissions(world.tables, world.guild.roles[0], deny=Perm.VIEW_CHANNEL)
    async with by_hand(fake) as http:
        posted = await http.post(world.general.id, "hello")
        message = f"/channels/{world.general.id}/messages/{posted.body['id']}"
        answers = {
            "ok": await http.call("GET", "/users/@me"),
            "created": posted,
            "no content": await http.call("PUT", f"{message}/reactions/%F0%9F%80%84/@me"),
            "same bucket": await http.call("DELETE", f"{message}/reactions/%F0%9F%80%84/@me"),
            "refused": await http.post(world.tables.id, "hidden"),
            "unauthorized": await http.call("GET", "/users/@me", token="wrong"),
            "unknown route": await http.call("GET", "/no/such/route"),
            "unknown interaction": await http.call("POST", "/interactions/1/tok/callback",
                                                   {"type": 1}),
            "unknown webhook": await http.call("POST", f"/webhooks/{fake.application_id}/tok",
                                               {"content": "hi"}),
        }
    # Adding and removing a reaction share one bucket: the removal waits for the window.
    assert [a.status for a in answers.values()] == [200, 200, 204, 429, 403, 401, 404, 404,
                                                    404]
    for what, answer in answers.items():
        missing = [h for h in (*RATE_LIMIT_HEADERS, "Via") if h not in answer.headers]
        assert not missing, f"{what}: no {missing}"
    hashes = {what: a.headers["X-RateLimit-Bucket"] for what, a in answers.items()}
    assert hashes["no content"] == hashes["same bucket"]
    assert len({hashes[w] for w in ("ok", "created", "no content", "unknown interaction")}) == 4
