"""`FakeDiscord`: the fake Discord a test starts on 127.0.0.1 and points discord.py at.

    async with FakeDiscord() as fake:
        hall = fake.add_guild("Jongg Test Hall")
        general = fake.add_channel(hall, "general")
        alice = fake.add_user("alice")
        fake.add_member(hall, alice)
        async with fake.run(make_bot()) as bot:          # the real discord.py client
            handle = await fake.slash(alice, general, "ping")
            assert (await handle.reply()).content == "pong"

Entering the context starts the fake in a thread of its own, on its own event loop (see
`loop.LoopThread`), serving an ephemeral 127.0.0.1 port, and points `discord.http.Route.BASE`,
`discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` and `discord.asset.Asset.BASE` (avatars) at
it; leaving stops the thread and restores them. Only one fake can be active at a time (those
are process-wide class attributes).

The test-facing API is awaited from the test's loop as before: the users' actions (`slash`,
`click`, ...) run on the fake's loop (`on_fake_loop`), changes to the world and reads of
several things at once run under the fake's lock (`locked`), and the recorded lists
(`messages`, `requests`, `interactions`, ...) are copies taken under it.
Build the world (guilds, channels, users, members) before the bot connects: GUILD_CREATE sends it
all at once, and later additions are not announced on the gateway.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Generator, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, ClassVar, Generic, ParamSpec, Protocol, TypeVar

import discord
from aiohttp import web

from .archive import Archiver
from .clock import Clock
from .endpoint import Endpoint
from .faults import Fault, Faults, RecordedRequest, parse_route, rate_limit_fault
from .gateway import Gateway, Intent, Session
from .interactions import (
    FakeInteraction,
    FakeTimeout,
    InteractionType,
    Resolver,
    base_payload,
    command_options,
    modal_submit_components,
)
from .loop import LoopThread, locked, on_fake_loop, running_loop
from .models import (
    BOT_DEFAULT,
    EVERYONE_DEFAULT,
    JSON,
    SELECT_TYPES,
    Attachment,
    Channel,
    ChannelType,
    ComponentType,
    Guild,
    Member,
    Message,
    MessageType,
    Overwrite,
    Role,
    Snowflakes,
    Upload,
    User,
    guess_content_type,
    iso,
    new_token,
)
from .ratelimits import RateLimiter, RateLimits
from .remote import Address, point_discord
from .rest import API_PREFIX, RestAPI, build_app
from .runner import ClientRun, run_client

T = TypeVar("T")
P = ParamSpec("P")
C = TypeVar("C", bound=discord.Client)

#: How often waiting helpers re-check their condition between changes the fake notices.
POLL_INTERVAL = 0.02
#: How soon after a message changes a person can click it.
REACTION_SECONDS = 0.01


def _wake(*waiters: asyncio.Future[None]) -> None:
    for waiter in waiters:
        if not waiter.done():
            waiter.set_result(None)


def _wake_soon(waiters: Iterable[asyncio.Future[None]]) -> None:
    """Wake `waiters` on their own loops, whichever thread this is: one call into each other
    loop for all its waiters (a few hundred waiting tables cost one wake-up, not hundreds)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
    for waiter in waiters:
        by_loop.setdefault(waiter.get_loop(), []).append(waiter)
    here = running_loop()
    for loop, group in by_loop.items():
        if loop is here:
            _wake(*group)
        else:
            with contextlib.suppress(RuntimeError):  # its loop has closed: nobody waits
                loop.call_soon_threadsafe(_wake, *group)


class Scheduled(Generic[T]):
    """An action the fake runs on its own loop at `due` (`time.monotonic()`), whatever the
    test's loop is doing then; `await` it for the action's result."""

    def __init__(self, due: float, future: asyncio.Future[T]) -> None:
        self.due = due
        self.future = future

    def __await__(self) -> Generator[Any, None, T]:
        return self.future.__await__()


class Limit(Protocol):
    """A waiting helper's time limit, set when the wait starts (`FakeDiscord.limit`)."""

    def passed(self) -> bool:
        """Whether the time is up."""
        ...

    def remaining(self) -> float:
        """Wall-clock seconds until it may be up (it is looked at again by then)."""
        ...

    def describe(self) -> str:
        """The limit, for the message of a wait that timed out."""
        ...


class WallClockLimit:
    """`seconds` on the wall clock: the waiting helpers' limit unless the fake is given
    another kind (`FakeDiscord.limit`)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds

    def passed(self) -> bool:
        return time.monotonic() >= self.ends

    def remaining(self) -> float:
        return max(0.0, self.ends - time.monotonic())

    def describe(self) -> str:
        return f"{self.seconds}s"


#: Suggested discord.py client options for tests (READY -> on_ready without the 2 s wait).
CLIENT_OPTIONS: dict[str, Any] = {"guild_ready_timeout": 0.05}
#: Application flags for "gateway presence / members / message content" intents enabled.
APP_FLAGS_ALL_INTENTS = (1 << 12) | (1 << 14) | (1 << 18)


class FakeDiscord:
    """A fake Discord: world state, REST API, gateway, and the test's hands and eyes."""

    _active: ClassVar[FakeDiscord | None] = None

    def __init__(
        self,
        *,
        bot_name: str = "Jongg",
        token: str = "fake.bot.token",
        heartbeat_interval_ms: int = 41_250,
        interaction_ack_timeout: float = 3.0,
        default_timeout: float = 5.0,
        attachment_size_limit: int = 10 * 1024 * 1024,
        privileged_intents: int = int(Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES
                                      | Intent.MESSAGE_CONTENT),
        limits: RateLimits | None = None,
        shards: int = 1,
        guilds_per_shard: int = 2500,
    ) -> None:
        self.ids = Snowflakes()
        #: The shard count GET /gateway/bot recommends.
        self.shards = shards
        #: Most guilds one gateway session may hold: IDENTIFY past it is closed with 4011
        #: (Sharding required), as Discord does.
        self.guilds_per_shard = guilds_per_shard
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        #: Discord's window for the first response to an interaction.
        self.interaction_ack_timeout = interaction_ack_timeout
        #: How long the waiting helpers wait unless told otherwise.
        self.default_timeout = default_timeout
        #: How the waiting helpers measure their timeouts: the wall clock, unless a test
        #: gives a kind that allows for a busy machine (the conftest's `fake_discord` does).
        self.limit: Callable[[float], Limit] = WallClockLimit
        self.attachment_size_limit = attachment_size_limit
        #: Privileged intents the application has switched on; IDENTIFY asking for
        #: others is closed with 4014, as on Discord.
        self.privileged_intents = privileged_intents
        self.application_flags = APP_FLAGS_ALL_INTENTS

        self.bot = User(self.ids.next(), bot_name, bot=True)
        self.application_id = self.bot.id
        self.owner = User(self.ids.next(), "app-owner")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: list[Guild] = []
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.attachments: dict[int, Attachment] = {}
        self._messages: list[Message] = []
        #: Synced application commands: guild id (None for global) -> definitions.
        self.commands: dict[int | None, list[JSON]] = {}
        self.command_ids: dict[tuple[int | None, str, int], int] = {}
        self._interactions: dict[int, FakeInteraction] = {}
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        self._requests: list[RecordedRequest] = []
        self._unhandled: list[RecordedRequest] = []
        self.faults = Faults()
        self.gateway = Gateway(self)
        #: The fake's time for what lasts minutes or days (tokens, threads, rate-limit
        #: windows): `advance` it.
        self.clock = Clock()
        #: Discord's rate limits (its usual values unless `limits` says otherwise).
        self.limiter = RateLimiter(limits or RateLimits(), self.clock.now)
        self.archiver = Archiver(self)
        #: The app's Interactions Endpoint URL, once set (`set_interactions_endpoint`):
        #: interactions then go there as signed POSTs instead of over the gateway.
        self.endpoint = Endpoint(self)
        #: The REST API's routes (`build_app`).
        self.rest: RestAPI
        #: When True, the conftest fails the test if the bot hit unknown routes.
        self.strict = True
        #: One record per `run()`: tasks and threads the client left behind.
        self.runs: list[ClientRun] = []

        #: The fake's thread and event loop; `lock` is held by that loop while it runs.
        self.loop_thread = LoopThread("fake-discord")
        self._waiters: set[asyncio.Future[None]] = set()
        self._last_change = time.monotonic()
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._saved: Address | None = None

    # -- lifecycle --------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.stop()

    async def start(self) -> None:
        """Start the fake's thread and loop, serve on 127.0.0.1, point discord.py at it."""
        if FakeDiscord._active is not None:
            raise RuntimeError("another FakeDiscord is running; Route.BASE is process-wide")
        self.loop_thread.start()
        try:
            await self._serve()
        except BaseException:
            await self.loop_thread.stop()
            raise
        self._patch()
        FakeDiscord._active = self

    @on_fake_loop
    async def _serve(self) -> None:
        app = build_app(self)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        await web.SockSite(runner, sock).start()
        self._runner = runner

    async def stop(self) -> None:
        """Close the gateway and the server, stop the fake's loop (tasks still running are
        cancelled and kept in `leftover_tasks`) and join its thread."""
        try:
            await self._shut()
        finally:
            await self.loop_thread.stop()
            self._unpatch()
            if FakeDiscord._active is self:
                FakeDiscord._active = None

    @on_fake_loop
    async def _shut(self) -> None:
        try:
            await self.gateway.close_all()
            await self.endpoint.close()
            if self._runner is not None:
                await self._runner.cleanup()
        finally:
            self._runner = None

    @property
    def lock(self) -> threading.RLock:
        """The fake's lock: hold it to read several things at once from the test (the fake
        does nothing meanwhile; never `await` while holding it). `wait_until` conditions run
        under it."""
        return self.loop_thread.lock

    @property
    def leftover_tasks(self) -> list[str]:
        """Tasks still running on the fake's loop when it stopped (cancelled then)."""
        return self.loop_thread.leftover_tasks

    @property
    def loop_errors(self) -> list[str]:
        """What reached the fake loop's exception handler (a failed task nobody awaited)."""
        return self.loop_thread.errors

    def _patch(self) -> None:
        """Point discord.py's REST base, default gateway and CDN base at the fake."""
        self._saved = point_discord(self.address)

    def _unpatch(self) -> None:
        if self._saved is None:
            return
        point_discord(self._saved)
        self._saved = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        return self.url + API_PREFIX

    @property
    def cdn_base(self) -> str:
        """Where avatars and other assets are served (every image is a small grey PNG)."""
        return self.url + "/cdn"

    @property
    def address(self) -> Address:
        """Where a client finds this fake, and the token it accepts: what a bot in another
        process points discord.py at (`remote.point_discord`)."""
        return Address(self.api_base, self.gateway_url, self.cdn_base, self.token,
                       self.public_key)

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self._port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self._port}/resume-gateway"

    def run(self, client: C, *, timeout: float = 10.0, fast_reidentify: bool = True
            ) -> AbstractAsyncContextManager[C]:
        """`async with fake.run(client) as client:` logs the real client in, connects it,
        waits for on_ready, and on exit closes it and waits for its tasks (see
        `runner.run_client`)."""
        return run_client(self, client, timeout=timeout, fast_reidentify=fast_reidentify)

    # -- building the world ------------------------------------------------------------------

    @locked
    def add_user(self, username: str, *, global_name: str | None = None, bot: bool = False,
                 locale: str = "en-US") -> User:
        user = User(self.ids.next(), username, global_name=global_name, bot=bot, locale=locale)
        self.users[user.id] = user
        return user

    @locked
    def add_guild(self, name: str, *, owner: User | None = None,
                  bot_permissions: int = int(BOT_DEFAULT), shard: int | None = None) -> Guild:
        """A guild with @everyone, the bot's managed role and the bot as a member. The owner
        (default: the application owner, who is not a player) is a member too. `shard`:
        an id chosen so the guild is on that shard of `shards`."""
        guild_id = (self.ids.next() if shard is None
                    else self.ids.next_on_shard(shard, self.shards))
        owner = owner or self.owner
        guild = Guild(id=guild_id, name=name, owner_id=owner.id)
        guild.roles.append(Role(guild_id, guild_id, "@everyone", int(EVERYONE_DEFAULT)))
        bot_role = Role(self.ids.next(), guild_id, self.bot.username, bot_permissions,
                        position=1, managed=True)
        guild.roles.append(bot_role)
        self.guilds.append(guild)
        guild.members[self.bot.id] = Member(self.bot, guild, roles=[bot_role])
        guild.members[owner.id] = Member(owner, guild)
        return guild

    @locked
    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        role = Role(self.ids.next(), guild.id, name, int(permissions),
                    position=len(guild.roles))
        guild.roles.append(role)
        return role

    @locked
    def add_member(self, guild: Guild, user: User, *, roles: Iterable[Role] = (),
                   nick: str | None = None, flags: int = 0) -> Member:
        member = Member(user, guild, roles=list(roles), nick=nick, flags=flags)
        guild.members[user.id] = member
        return member

    @locked
    def add_channel(self, guild: Guild, name: str, *,
                    type: ChannelType = ChannelType.GUILD_TEXT, parent: Channel | None = None,
                    topic: str | None = None) -> Channel:
        channel = Channel(self.ids.next(), type, name=name, guild=guild,
                          parent_id=parent.id if parent else None,
                          position=len(guild.channels), topic=topic)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    @locked
    def add_thread(self, parent: Channel, name: str, *, private: bool = False,
                   owner: User | None = None, members: Iterable[User] = (),
                   thread_id: int | None = None) -> Channel:
        guild = parent.guild
        assert guild is not None, "threads live in guild channels"
        kind = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        owner = owner or self.bot
        thread = Channel(thread_id or self.ids.next(), kind, name=name, guild=guild,
                         parent_id=parent.id, owner_id=owner.id)
        for user in (owner, *members):
            thread.thread_members[user.id] = iso()
        guild.channels.append(thread)
        self.channels[thread.id] = thread
        self.archiver.active(thread)
        return thread

    @locked
    def set_permissions(self, channel: Channel, target: Role | User | Member, *,
                        allow: int = 0, deny: int = 0) -> None:
        """Set a channel overwrite for a role or a member (replacing any earlier one)."""
        kind = 0 if isinstance(target, Role) else 1
        channel.overwrites = [o for o in channel.overwrites if o.id != target.id]
        channel.overwrites.append(Overwrite(target.id, kind, int(allow), int(deny)))

    @locked
    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with `user` (created on first use, like Discord)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self.ids.next(), ChannelType.DM, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    # -- looking things up ------------------------------------------------------------------

    @property
    def guild(self) -> Guild:
        """The first guild (most tests have one)."""
        return self.guilds[0]

    def user(self, username: str) -> User:
        for user in self.users.values():
            if user.username == username:
                return user
        raise KeyError(f"no user {username!r}")

    def channel(self, name: str) -> Channel:
        for guild in self.guilds:
            for channel in guild.channels:
                if channel.name == name and not channel.deleted:
                    return channel
        raise KeyError(f"no channel #{name}")

    def as_user(self, value: Any) -> User:
        if isinstance(value, User):
            return value
        if isinstance(value, Member):
            return value.user
        if isinstance(value, int) and value in self.users:
            return self.users[value]
        raise TypeError(f"not a user: {value!r}")

    @locked
    def messages_in(self, channel: Channel, *, deleted: bool = False) -> list[Message]:
        return [m for m in channel.messages if deleted or not m.deleted]

    @locked
    def dms(self, user: User) -> list[Message]:
        """Messages in the bot's DM with `user` (both directions), oldest first."""
        channel = self.dm_channels.get(user.id)
        return [] if channel is None else channel.visible_messages()

    @locked
    def bot_messages(self, *, since: int = 0) -> list[Message]:
        return [m for m in self._messages[since:] if m.author.id == self.bot.id]

    @locked
    def mark(self) -> int:
        """A position in `messages`, for `wait_for_message(since=...)`."""
        return len(self._messages)

    # -- what was recorded: copies taken under the lock, safe to read from the test -------

    @property
    def messages(self) -> list[Message]:
        """Every message, bot's and users', in the order they were created."""
        with self.lock:
            return list(self._messages)

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every REST request, in order."""
        with self.lock:
            return list(self._requests)

    @property
    def unhandled(self) -> list[RecordedRequest]:
        """Requests to routes the fake does not know (answered 404)."""
        with self.lock:
            return list(self._unhandled)

    @property
    def interactions(self) -> dict[int, FakeInteraction]:
        """Every interaction the test started, by id."""
        with self.lock:
            return dict(self._interactions)

    @property
    def failed_requests(self) -> list[RecordedRequest]:
        """Requests Discord refused, except those refused by an injected fault."""
        with self.lock:
            return [r for r in self._requests if r.status >= 400 and r.fault is None]

    @property
    def limits(self) -> RateLimits:
        return self.limiter.limits

    @property
    def rate_limited(self) -> list[RecordedRequest]:
        """Requests the rate limits refused (429s the bot was not meant to get, unlike
        those of `rate_limit` faults), and those refused while banned."""
        with self.lock:
            return list(self.limiter.refused)

    @property
    def invalid_requests(self) -> list[RecordedRequest]:
        """Requests Discord counts towards a ban: answered 401, 403 or 429 (except 429s of
        scope "shared"), injected faults included."""
        with self.lock:
            return [request for _, request in self.limiter.invalid]

    @locked
    def problems(self) -> str:
        """A summary of what went wrong, for failure messages."""
        lines = [f"unknown route: {r.method} {r.path}" for r in self._unhandled]
        lines += [f"refused: {r.method} {r.path} -> {r.status} {r.response}"
                  for r in self.failed_requests if r not in self._unhandled]
        return "\n".join(lines) if lines else "(no failed requests)"

    @locked
    def transcript(self) -> str:
        """Every message as a line: where, who, what (handy in assertion messages)."""
        lines = []
        for message in self._messages:
            where = ("DM " + message.channel.recipient.username if message.channel.recipient
                     else f"#{message.channel.name}")
            tags = [t for t, on in (("ephemeral", message.ephemeral), ("deleted", message.deleted),
                                    ("edited", bool(message.edits))) if on]
            files = f" files={list(message.files)}" if message.attachments else ""
            extra = f" [{', '.join(tags)}]" if tags else ""
            text = message.text.replace("\n", " | ")
            lines.append(f"{where} {message.author.username}{extra}: {text}{files}")
        return "\n".join(lines)

    # -- waiting ----------------------------------------------------------------------------

    def notify(self) -> None:
        """Something changed: wake every waiter (each checks its condition once more).

        A waiter is a bare future of the loop that waits (the test's, or the fake's own),
        woken there with `set_result`: no task per wait and no wake-up left behind once it
        was woken, so a few hundred waiting tables stay cheap."""
        with self.lock:
            self._last_change = time.monotonic()
            waiters, self._waiters = self._waiters, set()
        _wake_soon(waiters)

    async def wait_until(self, check: Callable[[], T | None], *, timeout: float | None = None,
                         what: str = "a condition") -> T:
        """Wait until `check()` returns something truthy, and return it.

        The wait runs on the caller's loop, and so does `check`: it may read the bot's state
        (the bot runs on that loop too). It runs under the fake's lock, so what it reads of
        the fake is a state between two of the fake's steps, never half of one; it must be
        quick and must not wait for anything."""
        limit = self.limit(self.default_timeout if timeout is None else timeout)
        loop = asyncio.get_running_loop()
        while True:
            # Check and register under one hold of the lock: a change the fake makes after
            # the check notifies this waiter.
            with self.lock:
                result = check()
                if result:
                    return result
                if limit.passed():
                    raise FakeTimeout(f"timed out after {limit.describe()} waiting for "
                                      f"{what}\n{self.problems()}\nmessages:\n"
                                      f"{self.transcript()}")
                poll_in = min(max(limit.remaining(), 0.001), POLL_INTERVAL)
                waiter = loop.create_future()
                self._waiters.add(waiter)
            # Wake on any change the fake sees, and poll too: the condition may be about the
            # bot's own state (what it caught, what it cached), which the fake cannot see.
            poll = loop.call_later(poll_in, _wake, waiter)
            try:
                await waiter
            finally:
                poll.cancel()
                with self.lock:
                    self._waiters.discard(waiter)

    async def wait_quiet(self, quiet: float = 0.1, *, timeout: float | None = None) -> None:
        """Wait until nothing has happened for `quiet` seconds."""
        limit = self.limit(self.default_timeout if timeout is None else timeout)
        while (idle := time.monotonic() - self._last_change) < quiet:
            if limit.passed():
                raise FakeTimeout(f"still busy after {limit.describe()}")
            await asyncio.sleep(quiet - idle)

    async def wait_for_message(self, predicate: Callable[[Message], bool] | None = None, *,
                               channel: Channel | None = None, author: User | None = None,
                               dm: User | None = None, since: int = 0,
                               timeout: float | None = None) -> Message:
        """The first message (from position `since` in `messages`) matching every filter.
        `dm=user` means "in the bot's DM with user"."""
        def match(message: Message) -> bool:
            if message.deleted:
                return False
            if channel is not None and message.channel is not channel:
                return False
            if author is not None and message.author is not author:
                return False
            if dm is not None and message.channel.recipient is not dm:
                return False
            return predicate is None or predicate(message)

        def find() -> Message | None:
            return next((m for m in self._messages[since:] if match(m)), None)

        return await self.wait_until(find, timeout=timeout, what="a matching message")

    async def wait_for_dm(self, user: User, *, since: int = 0, timeout: float | None = None
                          ) -> Message:
        """The first DM the bot sent to `user` (from position `since`)."""
        return await self.wait_for_message(lambda m: m.author is self.bot, dm=user,
                                           since=since, timeout=timeout)

    async def wait_connected(self, timeout: float | None = None) -> None:
        """Wait until a bot is connected to the gateway with READY or RESUMED done."""
        await self.wait_until(lambda: self.gateway.connected, timeout=timeout,
                              what="a bot connected to the gateway")

    # -- the Interactions Endpoint URL ------------------------------------------------------

    @property
    def public_key(self) -> str:
        """The app's public key (hex), which checks the signatures of the interactions the
        fake posts to the Interactions Endpoint URL: the bot's `DISCORD_PUBLIC_KEY`."""
        return self.endpoint.public_key

    @on_fake_loop
    async def set_interactions_endpoint(self, *urls: str) -> None:
        """Set the app's Interactions Endpoint URL, as the Developer Portal does once the
        URL answers a signed PING with a PONG and a bad signature with 401 (else
        `EndpointRefused`). From then on interactions are POSTed there (to several URLs in
        turn, as a proxy in front of workers would), not sent over the gateway."""
        await self.endpoint.set(urls)

    # -- faults -----------------------------------------------------------------------------

    @locked
    def fail(self, route: str, *, status: int, code: int = 0, message: str = "",
             times: int | None = 1, when: Callable[[RecordedRequest], bool] | None = None,
             body: JSON | None = None, headers: Mapping[str, str] | None = None) -> Fault:
        """Answer the next `times` requests (None: all) matching `route` ("POST
        /channels/{channel_id}/messages", or a concrete path) with `status` and a Discord
        error body `{"message", "code"}`."""
        method, path = parse_route(route)
        fault = Fault(method, path, status,
                      body if body is not None else {"message": message or f"{status}",
                                                     "code": code},
                      dict(headers or {}), times, when, label=f"{status}/{code}")
        return self.faults.add(fault)

    @locked
    def rate_limit(self, route: str, *, times: int = 1, retry_after: float = 0.05,
                   is_global: bool = False,
                   when: Callable[[RecordedRequest], bool] | None = None) -> Fault:
        """Answer the next `times` requests matching `route` with a 429 discord.py retries
        after `retry_after` seconds."""
        method, path = parse_route(route)
        return self.faults.add(rate_limit_fault(method, path, times=times,
                                                retry_after=retry_after, is_global=is_global,
                                                when=when))

    @locked
    def block_dms(self, user: User) -> Fault:
        """The user does not accept DMs from the bot: opening the DM channel works, sending
        into it answers 403 with code 50007, until `unblock_dms`."""
        def to_user(request: RecordedRequest) -> bool:
            channel = self.channels.get(int(request.params.get("channel_id", 0)))
            return channel is not None and channel.recipient is user

        fault = self.fail("POST /channels/{channel_id}/messages", status=403, code=50007,
                          message="Cannot send messages to this user", times=None,
                          when=to_user)
        fault.label = f"dm-block:{user.id}"
        return fault

    @locked
    def unblock_dms(self, user: User) -> None:
        for fault in list(self.faults.active):
            if fault.label == f"dm-block:{user.id}":
                self.faults.remove(fault)

    @on_fake_loop
    async def drop_gateway(self, *, resumable: bool = True, abort: bool = False,
                           code: int = 4000) -> None:
        """Cut the bot's gateway connection (see `Gateway.drop`)."""
        await self.gateway.drop(resumable=resumable, abort=abort, code=code)

    @on_fake_loop
    async def request_reconnect(self) -> None:
        await self.gateway.request_reconnect()

    @on_fake_loop
    async def invalidate_session(self) -> None:
        await self.gateway.invalidate()

    # -- time ---------------------------------------------------------------------------------

    @on_fake_loop
    async def advance(self, seconds: float) -> None:
        """Let `seconds` pass at once for what Discord measures in minutes or days:
        interaction tokens expire (15 minutes), threads quiet for their whole
        `auto_archive_duration` archive now (THREAD_UPDATE), and rate-limit windows that
        end within `seconds` are over. The 3-second window for an interaction's first
        answer keeps real time (see `clock`)."""
        self.clock.advance(seconds)
        await self.archiver.sweep()
        self.notify()

    # -- state changes the REST layer and the actors share ----------------------------------

    def bot_user_payload(self) -> JSON:
        data = self.bot.payload()
        data.update(verified=True, mfa_enabled=False, locale="en-US", email=None)
        return data

    def message_payload(self, message: Message) -> JSON:
        return message.payload(users=self.users)

    def store_attachment(self, channel: Channel, upload: Upload, *,
                         description: str | None = None, ephemeral: bool = False) -> Attachment:
        attachment_id = self.ids.next()
        filename = upload.filename
        attachment = Attachment(
            id=attachment_id, filename=filename, data=upload.data,
            content_type=(upload.content_type
                          if upload.content_type not in (None, "application/octet-stream")
                          else guess_content_type(filename)),
            description=description, ephemeral=ephemeral,
            url=f"{self.url}/attachments/{channel.id}/{attachment_id}/{filename}")
        self.attachments[attachment_id] = attachment
        return attachment

    def add_message(self, message: Message) -> Message:
        if message.channel.is_thread and not message.ephemeral:
            self.archiver.active(message.channel)
        message.channel.messages.append(message)
        self._messages.append(message)
        self.notify()
        return message

    def record_request(self, record: RecordedRequest, *, known: bool) -> None:
        """Keep a REST request (and, if its route is unknown, in `unhandled` too)."""
        self._requests.append(record)
        if not known:
            self._unhandled.append(record)

    def find_interaction(self, interaction_id: int) -> FakeInteraction | None:
        return self._interactions.get(interaction_id)

    async def dispatch_message(self, event: str, message: Message) -> None:
        """MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE to sessions with the guild- or
        direct-message intent. Without MESSAGE_CONTENT, other people's messages arrive
        without content, embeds, attachments and components unless they mention the bot or
        are DMs, as on Discord. Ephemeral messages are never dispatched."""
        if message.ephemeral:
            return
        intent = Intent.DIRECT_MESSAGES if message.is_dm else Intent.GUILD_MESSAGES

        def build(session: Session) -> JSON:
            if event == "MESSAGE_DELETE":
                data: JSON = {"id": str(message.id), "channel_id": str(message.channel.id)}
                if message.guild is not None:
                    data["guild_id"] = str(message.guild.id)
                return data
            payload = self.message_payload(message)
            hidden = (message.author.id != self.bot.id and not message.is_dm
                      and self.bot.id not in message.mentions
                      and not session.has(Intent.MESSAGE_CONTENT))
            if hidden:
                payload.update(content="", embeds=[], attachments=[], components=[])
            return payload

        await self.gateway.dispatch(event, build, guild=message.guild, intent=intent)

    # -- acting as users --------------------------------------------------------------------

    def later(self, delay: float, action: Callable[P, Awaitable[T]], *args: P.args,
              **kwargs: P.kwargs) -> Scheduled[T]:
        """Run `action(*args, **kwargs)` (`fake.slash`, `fake.click`, any coroutine function)
        on the fake's loop `delay` seconds from now, by the fake's clock, whatever the test's
        loop (which is the bot's) is doing then; await the result later:

            pending = fake.later(0.1, fake.slash, alice, general, "rules", {"query": "joker"})
            time.sleep(0.5)                   # the bot's loop is blocked; the fake is not
            handle = await pending            # handle.created: when the fake sent it
        """
        due = time.monotonic() + delay

        async def at_due() -> T:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            return await action(*args, **kwargs)

        return Scheduled(due, self.loop_thread.submit(at_due()))

    def find_command(self, name: str, channel: Channel, kind: int = 1) -> JSON:
        """The synced command a user in `channel` would get for `name`: the guild's own
        first, then global ones usable there (DMs need the BOT_DM context). Discord lets
        nobody use commands in an archived thread."""
        if self.archiver.archived(channel):
            raise ValueError(f"{channel!r} is archived: Discord lets nobody use commands there")
        guild = channel.guild
        if guild is not None:
            for command in self.commands.get(guild.id, []):
                if command["name"] == name and int(command.get("type", 1)) == kind:
                    return command
        for command in self.commands.get(None, []):
            if command["name"] == name and int(command.get("type", 1)) == kind:
                contexts = command.get("contexts")
                context = 0 if guild is not None else 1
                if contexts is not None and context not in contexts:
                    break
                if guild is None and command.get("dm_permission") is False:
                    break
                return command
        where = f"in {guild.name}" if guild else "in DMs"
        synced = {("global" if k is None else k): [c["name"] for c in v]
                  for k, v in self.commands.items()}
        raise LookupError(f"no command {name!r} (type {kind}) is available {where}; "
                          f"synced: {synced}")

    def _new_interaction(self, kind: InteractionType, user: User, channel: Channel, data: JSON,
                         *, source: Message | None = None, name: str | None = None,
                         data_for_source: bool = True) -> FakeInteraction:
        interaction_id = self.ids.next()
        token = new_token("itoken")
        payload = base_payload(self, kind=kind, id=interaction_id, token=token, user=user,
                               channel=channel, data=data,
                               message=source if data_for_source else None)
        interaction = FakeInteraction(self, id=interaction_id, token=token, kind=kind,
                                      user=user, channel=channel, payload=payload,
                                      source=source, name=name)
        if source is not None:
            interaction.original = source
        self._interactions[interaction_id] = interaction
        self.interactions_by_token[token] = interaction
        return interaction

    async def _send_interaction(self, interaction: FakeInteraction) -> FakeInteraction:
        source = interaction.source
        if source is not None:
            # A person sees a message some time after it changed; the bot has learned what
            # it sent by then (discord.py only files a message's view away once Discord's
            # answer reaches it).
            changed = source.edits[-1].at if source.edits else source.created
            await asyncio.sleep(max(0.0, changed + REACTION_SECONDS - time.monotonic()))
        interaction.created = time.monotonic()
        interaction.issued = self.clock.now()
        interaction.deadline = interaction.created + self.interaction_ack_timeout
        if self.endpoint.urls:
            self.endpoint.deliver(interaction)
            self.notify()
            return interaction
        # Only sessions alive now get it (one reconnecting gets it when it resumes); a bot
        # that is away and comes back with a new IDENTIFY never does, as on Discord.
        sent = await self.gateway.dispatch("INTERACTION_CREATE", interaction.payload,
                                           guild=interaction.channel.guild)
        interaction.delivered_to = [session.shard for session in sent]
        interaction.lost = not sent
        self.notify()
        return interaction

    @staticmethod
    def _split(command: str, subcommand: str | Sequence[str] | None) -> tuple[str, list[str]]:
        parts = command.split()
        if isinstance(subcommand, str):
            parts += subcommand.split()
        elif subcommand is not None:
            parts += list(subcommand)
        return parts[0], parts[1:]

    @on_fake_loop
    async def slash(self, user: User, channel: Channel, command: str,
                    options: Mapping[str, Any] | None = None, *,
                    subcommand: str | Sequence[str] | None = None,
                    lengths: bool = True) -> FakeInteraction:
        """`user` runs `/command [subcommand] options...` in `channel`. `command` may hold the
        subcommand path too ("mj table new"). Option values are typed by the synced
        definition: str/int/float/bool, a User/Member, Channel or Role, or an `Upload` /
        (filename, bytes) for attachments. `lengths=False` sends text options of any length
        (a command definition from before its `max_length`s)."""
        name, path = self._split(command, subcommand)
        definition = self.find_command(name, channel)
        resolver = Resolver(self, channel)
        values = command_options(definition, path, options or {}, resolver, lengths=lengths)
        data: JSON = {"id": definition["id"], "name": name, "type": 1, "options": values}
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        if resolver.resolved:
            data["resolved"] = resolver.resolved
        interaction = self._new_interaction(InteractionType.APPLICATION_COMMAND, user, channel,
                                            data, name=" ".join([name, *path]))
        return await self._send_interaction(interaction)

    @on_fake_loop
    async def autocomplete(self, user: User, channel: Channel, command: str, focused: str,
                           value: Any, options: Mapping[str, Any] | None = None, *,
                           subcommand: str | Sequence[str] | None = None) -> FakeInteraction:
        """`user` is typing `value` into option `focused` of `/command`; await `.choices()`
        on the result."""
        name, path = self._split(command, subcommand)
        definition = self.find_command(name, channel)
        given = dict(options or {})
        given[focused] = value
        values = command_options(definition, path, given, Resolver(self, channel),
                                 focused=focused)
        data: JSON = {"id": definition["id"], "name": name, "type": 1, "options": values}
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        interaction = self._new_interaction(InteractionType.AUTOCOMPLETE, user, channel, data,
                                            name=" ".join([name, *path]))
        return await self._send_interaction(interaction)

    @on_fake_loop
    async def user_command(self, user: User, channel: Channel, name: str, target: User
                           ) -> FakeInteraction:
        """`user` runs the user context-menu command `name` on `target`."""
        resolver = Resolver(self, channel)
        return await self._context_command(user, channel, name, 2, resolver,
                                           resolver.user(target))

    @on_fake_loop
    async def message_command(self, user: User, name: str, target: Message
                              ) -> FakeInteraction:
        """`user` runs the message context-menu command `name` on `target`."""
        resolver = Resolver(self, target.channel)
        return await self._context_command(user, target.channel, name, 3, resolver,
                                           resolver.message(target))

    async def _context_command(self, user: User, channel: Channel, name: str, kind: int,
                               resolver: Resolver, target_id: str) -> FakeInteraction:
        definition = self.find_command(name, channel, kind=kind)
        data: JSON = {"id": definition["id"], "name": name, "type": kind,
                      "target_id": target_id, "resolved": resolver.resolved}
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        interaction = self._new_interaction(InteractionType.APPLICATION_COMMAND, user, channel,
                                            data, name=name)
        return await self._send_interaction(interaction)

    def _usable_component(self, user: User, message: Message, custom_id: str) -> JSON:
        if message.deleted:
            raise ValueError(f"{message!r} was deleted")
        if message.visible_to is not None and message.visible_to is not user:
            raise ValueError(f"{user!r} cannot see the ephemeral {message!r}")
        try:
            component = message.component(custom_id)
        except KeyError as error:
            raise ValueError(error.args[0]) from None
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        return component

    @on_fake_loop
    async def click(self, user: User, message: Message, custom_id: str) -> FakeInteraction:
        """`user` clicks the button `custom_id` on `message`."""
        component = self._usable_component(user, message, custom_id)
        if component.get("type") != ComponentType.BUTTON:
            raise ValueError(f"{custom_id!r} is not a button: {component}")
        data: JSON = {"custom_id": custom_id, "component_type": 2}
        if "id" in component:
            data["id"] = component["id"]
        interaction = self._new_interaction(InteractionType.MESSAGE_COMPONENT, user,
                                            message.channel, data, source=message)
        return await self._send_interaction(interaction)

    @on_fake_loop
    async def select(self, user: User, message: Message, custom_id: str,
                     values: Sequence[Any]) -> FakeInteraction:
        """`user` picks `values` in the select menu `custom_id` on `message` (option values
        for string selects; users, roles or channels for the others)."""
        component = self._usable_component(user, message, custom_id)
        kind = int(component.get("type", 0))
        if kind not in SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is not a select menu: {component}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"{custom_id!r} takes {low}..{high} values, got {len(values)}")
        resolver = Resolver(self, message.channel)
        if kind == ComponentType.STRING_SELECT:
            allowed = [o["value"] for o in component.get("options") or []]
            chosen = [str(v) for v in values]
            bad = [v for v in chosen if v not in allowed]
            if bad:
                raise ValueError(f"{custom_id!r} has no option(s) {bad}; it has {allowed}")
        elif kind == ComponentType.USER_SELECT:
            chosen = [resolver.user(v) for v in values]
        elif kind == ComponentType.ROLE_SELECT:
            chosen = [resolver.role(v) for v in values]
        elif kind == ComponentType.CHANNEL_SELECT:
            chosen = [resolver.channel_option(v) for v in values]
        else:
            chosen = [resolver.mentionable(v) for v in values]
        data: JSON = {"custom_id": custom_id, "component_type": kind, "values": chosen}
        if resolver.resolved:
            data["resolved"] = resolver.resolved
        interaction = self._new_interaction(InteractionType.MESSAGE_COMPONENT, user,
                                            message.channel, data, source=message)
        return await self._send_interaction(interaction)

    @on_fake_loop
    async def submit_modal(self, user: User, opened: FakeInteraction,
                           values: Mapping[str, Any]) -> FakeInteraction:
        """`user` fills in and submits the modal the bot opened in answer to `opened`
        (`values`: custom_id -> text, or a list of values for selects)."""
        modal = await opened.modal()
        if user is not opened.user:
            raise ValueError("only the user the modal was shown to can submit it")
        data: JSON = {"custom_id": modal["custom_id"],
                      "components": modal_submit_components(modal, values)}
        interaction = self._new_interaction(InteractionType.MODAL_SUBMIT, user, opened.channel,
                                            data, source=opened.source)
        return await self._send_interaction(interaction)

    @on_fake_loop
    async def say(self, user: User, channel: Channel, content: str = "", *,
                  files: Sequence[Upload] = (), reply_to: Message | None = None) -> Message:
        """`user` posts a message (MESSAGE_CREATE reaches the bot if its intents allow)."""
        if channel.guild is not None and user.id not in channel.guild.members:
            raise ValueError(f"{user!r} is not in {channel.guild!r}")
        if channel.is_dm and channel.recipient is not user:
            raise ValueError(f"{channel!r} is not {user.username}'s DM with the bot")
        if not await self.archiver.before_post(channel):
            raise ValueError(f"{channel!r} is archived and locked: only a moderator can "
                             "reopen it")
        message = Message(self.ids.next(), channel, user, content=content,
                          type=MessageType.REPLY if reply_to else MessageType.DEFAULT,
                          reference=reply_to)
        message.attachments = [self.store_attachment(channel, f) for f in files]
        self.add_message(message)
        await self.dispatch_message("MESSAGE_CREATE", message)
        return message
