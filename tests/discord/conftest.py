"""Fixtures for end-to-end tests of the Discord layer against the fake Discord.

* `fake_discord`: a running `FakeDiscord` with a small world (see `World`): one guild, two text
  channels, four players, and Discord's rate limits on a clock 20 times as fast
  (`TEST_LIMITS`; `@pytest.mark.rate_limits(RateLimits(...))` chooses others;
  `@pytest.mark.shards(N)` makes it recommend N shards, with the world's guild on shard 0).
  At teardown it fails the test if the bot hit routes the fake does not know (set
  `fake.strict = False` to allow that), was refused by the rate limits (a 429 no fault
  injected; a test that provokes them on purpose is marked `@pytest.mark.rate_limited`),
  made more invalid requests than a game's share of Discord's ban limit (`ban_risk`), left
  tasks or heartbeat threads running, or left anything unclosed (ResourceWarning).
  Its waiting helpers' timeouts are in a quiet machine's seconds (`tests/slowness.py`): on a
  busy machine they stretch by how slowly the test's processes ran meanwhile.
* `world`: that guild, its channels and players, by name.
* `loopback_only` (automatic): the network is loopback-only during these tests.
* `loop_lag` (automatic, `loop_lag.py`): a test whose event loop (the bot's) stalls over
  250 ms fails; the terminal summary gives the largest loop lag of the run.
* `make_bot`: a factory for `commands.Bot` with test-friendly options (pass your own).
* `start_bot`: `bot = await start_bot(make_bot())` logs the real client in against the fake and
  waits for on_ready; every bot started is stopped at teardown, before the fake stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import socket
import sys
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import discord
import pytest
from discord.ext import commands

# `tests/discord` has no __init__.py (a package named `discord` there would shadow the real
# one), so make sure the `fake` package beside this file imports under any import mode.
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from fake import CLIENT_OPTIONS, FakeDiscord, RateLimits, World, build_world  # noqa: E402
from fake.ratelimits import ban_risk, describe  # noqa: E402

from tests.slowness import Deadline  # noqa: E402

ClientT = TypeVar("ClientT", bound=discord.Client)


LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
#: Discord's limits on a clock 20 times as fast: the tests play whole games at machine speed
#: (dozens of posts a second in one thread), and discord.py waits a twentieth of what Discord
#: would make it wait, so the rules are kept and the suite stays quick.
TEST_LIMITS = RateLimits(time_scale=0.05)
#: Games one bot token is meant to carry at once (issue 12's goal). They share its invalid-
#: request limit, so one test's game may use this share of it.
GAMES_PER_BOT = 200


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rate_limits(limits): the fake Discord's rate limits "
                                       "for this test (a `RateLimits`)")
    config.addinivalue_line("markers", "rate_limited: the test is refused by the fake's rate "
                                       "limits on purpose; its 429s do not fail it")
    config.addinivalue_line("markers", "shards(count): the fake Discord recommends `count` "
                                       "shards and the world's guild is on shard 0")


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No network but loopback: name lookups and connections to anything else fail in the
    bot (and then fail the test), so a route the fake does not cover cannot quietly reach
    the real Discord."""
    blocked: list[str] = []
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name is not None and name not in LOOPBACK:
            blocked.append(f"lookup {name}")
            raise socket.gaierror(socket.EAI_NONAME, f"network disabled in tests: {name}")
        return real_getaddrinfo(host, *args, **kwargs)

    def connect(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6) and address[0] not in LOOPBACK:
            blocked.append(f"connect {address}")
            raise OSError(errno.ENETUNREACH, f"network disabled in tests: {address}")
        real_connect(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    yield
    if blocked:
        pytest.fail(f"the test tried to reach the network: {blocked}")


@pytest.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    assert discord.__file__ is not None and "site-packages" in discord.__file__, (
        f"`discord` resolves to {discord.__file__}, not discord.py")
    chosen = request.node.get_closest_marker("rate_limits")
    limits: RateLimits = chosen.args[0] if chosen is not None else TEST_LIMITS
    sharded = request.node.get_closest_marker("shards")
    before = set(asyncio.all_tasks())
    async with FakeDiscord(limits=limits,
                           shards=sharded.args[0] if sharded is not None else 1) as fake:
        build_world(fake, shard=None if sharded is None else 0)
        fake.limit = Deadline
        yield fake
    problems: list[str] = []
    if fake.strict and fake.unhandled:
        problems.append("the bot called routes the fake does not know:\n  "
                        + "\n  ".join(f"{r.method} {r.path}" for r in fake.unhandled))
    if fake.rate_limited and request.node.get_closest_marker("rate_limited") is None:
        problems.append("Discord's rate limits refused the bot (429s no fault injected):\n  "
                        + describe(fake.rate_limited))
    risk = ban_risk(fake.limiter.invalid, limits, GAMES_PER_BOT)
    if risk is not None:
        problems.append(risk)
    if fake.loop_thread.alive:
        problems.append("the fake's thread is still running after it stopped")
    if fake.leftover_tasks:
        problems.append(f"tasks still running on the fake's loop when it stopped: "
                        f"{fake.leftover_tasks}")
    if fake.loop_errors:
        problems.append(f"errors on the fake's loop: {fake.loop_errors}")
    for run in fake.runs:
        if run.leftover_tasks:
            problems.append(f"tasks still running after the client stopped: "
                            f"{run.leftover_tasks}")
        if run.leftover_threads:
            problems.append(f"heartbeat threads still alive: {run.leftover_threads}")
    await asyncio.sleep(0)
    current = asyncio.current_task()
    stray = [t for t in asyncio.all_tasks() if t not in before and t is not current
             and not t.done()]
    if stray:
        problems.append(f"tasks left after the fake stopped: {stray}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gc.collect()
    unclosed = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    if unclosed:
        problems.append(f"unclosed resources: {unclosed}")
    if problems:
        pytest.fail("\n".join(problems))


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    guild = fake_discord.guild
    return World(guild, guild.channel("general"), guild.channel("mahjong-tables"),
                 *(fake_discord.user(n) for n in ("alice", "bob", "carol", "dave")))


@pytest.fixture
def make_bot() -> Callable[..., commands.Bot]:
    def make(**options: Any) -> commands.Bot:
        settings: dict[str, Any] = {"command_prefix": commands.when_mentioned,
                                    "intents": discord.Intents.default(), **CLIENT_OPTIONS}
        settings.update(options)
        return commands.Bot(**settings)

    return make


@pytest.fixture
async def start_bot(fake_discord: FakeDiscord
                    ) -> AsyncIterator[Callable[[ClientT], Awaitable[ClientT]]]:
    async with contextlib.AsyncExitStack() as stack:
        async def start(client: ClientT) -> ClientT:
            started: ClientT = await stack.enter_async_context(fake_discord.run(client))
            return started

        yield start
