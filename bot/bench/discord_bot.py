"""The bot's side of `jongg bench discord`: the processes the bench starts (the fake Discord's
and, past the first shard or as HTTP workers, the bot's), each bot process's client as
`jongg run` runs it, and what the bench records of it (commits, deliveries, requests and what
each was for, CPU time). `bot.bench.discord` plans the worlds and does the reporting.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
import socket
import subprocess
import sys
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from types import TracebackType
from typing import Any

from discord.webhook.async_ import AsyncWebhookAdapter

from bot.bench.discord_measure import Commit, Purpose, Request
from bot.bench.discord_wire import Failed
from bot.discord.endpoint import InteractionsEndpoint, parse_public_key, serving
from bot.discord.pacing import GlobalLimit, Sharing
from bot.discord.shards import ShardPlan
from bot.discord.tuning import tune_process
from bot.engine.errors import InvalidInput
from bot.store import OutboxEntry
from bot.tables.delivery import delivery_key
from bot.tables.notifier import Delivery, SeatUpdate

#: The seed of the first game a bot process deals.
SEED = 20261205
#: Apart between the seeds of each bot process's games (each deals its own server's).
SEEDS_PER_PROCESS = 1_000_000
#: How often this process's CPU time is sampled (to take its share over the child's span).
CPU_SAMPLE_SECONDS = 0.1

CHECKOUT_TESTS = Path(__file__).resolve().parents[2] / "tests" / "discord"


def checkout() -> tuple[Any, Any]:
    """The fake Discord package and the test table helpers, from the checkout."""
    if not (CHECKOUT_TESTS / "fake" / "__init__.py").is_file():
        raise InvalidInput(f"jongg bench discord needs the fake Discord in {CHECKOUT_TESTS}: "
                           "run it from a checkout of Jongg.")
    if str(CHECKOUT_TESTS) not in sys.path:
        sys.path.insert(0, str(CHECKOUT_TESTS))
    try:
        return importlib.import_module("fake"), importlib.import_module("jongg_table")
    except ImportError as missing:
        raise InvalidInput(f"jongg bench discord needs the test tools ({missing.name} is "
                           "missing): pip install -e '.[test]'.") from None


def serve_child(handle: int) -> None:
    """The fake Discord's process entry (`python -c`): the fake and the people
    (`people.serve`), answering on the socket `handle` it inherited."""
    checkout()
    importlib.import_module("people").serve(Connection(handle))


class Child:
    """A child process (a fresh interpreter, sharing nothing with this one but a socket)
    running `entry` of this module (`serve_child`, `serve_bot`), and the one request at a
    time the bench asks of it."""

    def __init__(self, entry: str) -> None:
        self.entry = entry

    def __enter__(self) -> Child:
        ours, theirs = socket.socketpair()
        with theirs:
            self.process = subprocess.Popen(
                [sys.executable, "-c", f"from {__name__} import {self.entry}; "
                                       f"{self.entry}({theirs.fileno()})"],
                pass_fds=[theirs.fileno()])
        self.connection = Connection(ours.detach())
        return self

    async def ask(self, request: object) -> Any:
        """Send `request`; its answer, once the child has done it."""
        self.connection.send(request)
        reply = await asyncio.to_thread(self.connection.recv)
        if isinstance(reply, Failed):
            raise RuntimeError(f"the {self.entry} process failed:\n{reply.traceback}")
        return reply

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        with contextlib.suppress(OSError):  # it may be gone already
            self.connection.send(None)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.connection.close()


@contextmanager
def stub_renderers(picture: bytes) -> Iterator[None]:
    """Every picture the bot draws is `picture` for the duration."""
    from bot.discord import notify, prompts

    def stub(*_: object, **__: object) -> bytes:
        return picture

    saved = [(notify, "render_table"), (notify, "render_result"), (prompts, "render_rack")]
    originals = [getattr(module, name) for module, name in saved]
    try:
        for module, name in saved:
            setattr(module, name, stub)
        yield
    finally:
        for (module, name), original in zip(saved, originals, strict=True):
            setattr(module, name, original)


#: How discord.py sends a request with an interaction's token (`_Recorder` counts them).
_WEBHOOK_REQUEST = AsyncWebhookAdapter.request
#: What the bot's process is doing, for the requests it makes meanwhile (`_Recorder`).
_PURPOSE: ContextVar[Purpose] = ContextVar("bench_purpose", default=Purpose.OTHER)
#: The notifier's calls and what their requests are for (a seat's update: a draw when it
#: shows the tile drawn).
_DELIVERIES = {"table_update": Purpose.TABLE, "game_over": Purpose.TABLE,
               "seat_update": Purpose.PROMPT, "reminder": Purpose.OTHER,
               "new_thread": Purpose.OTHER, "table_moved": Purpose.OTHER,
               "tell_host": Purpose.OTHER}


class _Recorder:
    """Stamps the bot's commits, deliveries and requests, by wrapping some of its objects'
    methods for the run (product code is untouched): the store's `append_actions` (the moves
    committed, their movers, their outbox entries), the notifier's calls (when each entry's
    delivery returned, and what the requests made meanwhile are for), the gateway's
    INTERACTION_CREATE (requests of the tasks a click starts are answers, unless they
    deliver something), and the two ways discord.py sends a request: with the bot's token
    (`HTTPClient.request`, global-limited) and with an interaction's (the webhook adapter,
    exempt). `close` puts them back."""

    def __init__(self, client: Any) -> None:
        self.commits: list[Commit] = []
        self.delivered: dict[str, float] = {}
        self.requests: list[Request] = []
        actions = client.service.db.actions
        append = actions.append_actions

        async def append_actions(game_id: int, expected_seq: int,
                                 moves: list[tuple[str, int | None]],
                                 **kwargs: Any) -> tuple[OutboxEntry, ...]:
            entries: tuple[OutboxEntry, ...] = await append(game_id, expected_seq, moves,
                                                            **kwargs)
            self.commits.append(Commit(
                game_id, frozenset(actor for _, actor in moves if actor is not None),
                time.monotonic(), tuple(delivery_key(entry) for entry in entries)))
            return entries

        actions.append_actions = append_actions
        notifier = client.service.sender.notifier
        for name, purpose in _DELIVERIES.items():
            setattr(notifier, name, self._stamped(getattr(notifier, name), purpose))
        state = client._connection
        parse = state.parse_interaction_create

        def clicked(data: Any) -> None:
            token = _PURPOSE.set(Purpose.ANSWER)
            try:
                parse(data)
            finally:
                _PURPOSE.reset(token)

        # The gateway's dispatch finds it in `parsers`; an HTTP worker's endpoint calls the
        # method itself.
        state.parsers["INTERACTION_CREATE"] = state.parse_interaction_create = clicked
        client.http.request = self._counted(client.http.request, global_limited=True)
        # Every webhook adapter's: discord.py's own, and an HTTP worker's `InlineAnswer`s.
        setattr(AsyncWebhookAdapter, "request",  # noqa: B010 (mypy: assigning a method)
                self._counted(_WEBHOOK_REQUEST, global_limited=False))

    def close(self) -> None:
        """Stop counting interaction-token requests (the adapter class is discord.py's,
        shared by every client of the process)."""
        setattr(AsyncWebhookAdapter, "request", _WEBHOOK_REQUEST)  # noqa: B010

    def _counted(self, send: Callable[..., Awaitable[Any]], *, global_limited: bool
                 ) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.requests.append(Request(time.monotonic(), _PURPOSE.get(), global_limited))
            return await send(*args, **kwargs)
        return counted

    def _stamped(self, deliver: Callable[..., Awaitable[Any]], purpose: Purpose
                 ) -> Callable[..., Awaitable[Any]]:
        async def stamped(*args: Any) -> Any:
            update = args[2] if purpose is Purpose.PROMPT else None
            drew = isinstance(update, SeatUpdate) and update.drawn is not None
            token = _PURPOSE.set(Purpose.DRAW if drew else purpose)
            try:
                result = await deliver(*args)
            finally:
                _PURPOSE.reset(token)
            if args and isinstance(args[-1], Delivery):
                self.delivered[args[-1].key] = time.monotonic()
            return result
        return stamped


class _CpuClock:
    """This process's CPU time, sampled in the background, so its share of one core over a
    span the child names afterwards can be read."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []

    async def sample(self) -> None:
        while True:
            self.samples.append((time.monotonic(), time.process_time()))
            await asyncio.sleep(CPU_SAMPLE_SECONDS)

    def at(self, moment: float) -> float:
        """CPU seconds used by `moment` (interpolated between samples)."""
        before = max((s for s in self.samples if s[0] <= moment), default=self.samples[0])
        after = min((s for s in self.samples if s[0] >= moment), default=self.samples[-1])
        if after[0] == before[0]:
            return before[1]
        share = (moment - before[0]) / (after[0] - before[0])
        return before[1] + share * (after[1] - before[1])

    def share(self, start: float, end: float) -> float:
        return (self.at(end) - self.at(start)) / max(end - start, 1e-9)


@asynccontextmanager
async def _connected(client: Any, token: str) -> AsyncIterator[None]:
    """The client logged in to the fake and ready; closed after."""
    await client.login(token)
    connect = asyncio.create_task(client.connect(reconnect=False), name="bench: connect")
    ready = asyncio.create_task(client.wait_until_ready(), name="bench: ready")
    try:
        done, _ = await asyncio.wait({connect, ready}, timeout=60,
                                     return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if connect in done:
                connect.result()
            raise RuntimeError("the bot was not ready after 60 s")
        yield
    finally:
        await client.close()
        await asyncio.gather(connect, return_exceptions=True)


@asynccontextmanager
async def _serving(client: Any, address: Any) -> AsyncIterator[str]:
    """The client logged in to the fake (REST only) and serving its interactions on a free
    port of 127.0.0.1, as `jongg run --http` runs a worker; yields its URL; closed after."""
    async with client:
        await client.login(address.token)
        endpoint = InteractionsEndpoint(client, parse_public_key(address.public_key))
        async with serving(endpoint) as url:
            yield url


@dataclass(frozen=True)
class Connect:
    """A bot process's first request: connect as `plan`'s shards to the fake Discord at
    `address`, the games in `database`, the rate limits on the clock `scale`; or, with
    `worker` (its number, from 1), serve the interactions as an HTTP worker (answered with
    its URL)."""

    address: Any
    database: str
    plan: ShardPlan
    scale: float
    worker: int | None = None


@dataclass(frozen=True)
class Mark:
    """A measure begins: count the pacing's holds and longest wait afresh."""


@dataclass(frozen=True)
class Report:
    """A measure over `start`..`end` has ended: what was recorded since the last report."""

    start: float
    end: float


@dataclass(frozen=True)
class Recorded:
    """What one bot process recorded since its last report: its commits, deliveries and
    requests (what each was for), its share of one core over the measure, and how many
    requests its pacing held since the mark (the longest wait, in seconds)."""

    commits: tuple[Commit, ...]
    delivered: dict[str, float]
    requests: tuple[Request, ...]
    cpu: float
    held: int
    longest_wait: float


class Bot:
    """One bot process's client, as `jongg run` runs it for `plan`'s shards (counting its
    requests against the token's limits with the other processes'), or as `jongg run
    --http` runs worker `worker` (commands left to the gateway's process), and what the
    bench records of it: its commits and deliveries (`_Recorder`), its CPU time and its
    pacing's holds. The bench's own process runs shard 0's; `serve_bot` runs each other
    shard's, and each HTTP worker, in a process of its own, answering the same requests
    (`ask`). With `stale_clicks` no click's token is kept to carry a message, as at tables
    whose people answer hours apart."""

    def __init__(self, database: str, plan: ShardPlan, scale: float,
                 worker: int | None = None, *, stale_clicks: bool = False) -> None:
        fake_mod, table_mod = checkout()
        from bot.discord.client import make_client

        seeds = itertools.count(SEED + SEEDS_PER_PROCESS * (plan.ids[0] + (worker or 0)))
        usual = GlobalLimit()
        self.pace = GlobalLimit(usual.limit, usual.per * scale, usual.margin * scale,
                                sharing=Sharing(plan.share))
        self.worker = worker
        as_worker: dict[str, Any] = {} if worker is None else {
            "sync_commands": False, "owner": f"jongg bench http worker {worker}"}
        self.client = make_client(database, shard_plan=plan,
                                  make_bot=table_mod.first_option_bot,
                                  new_seed=lambda: next(seeds), now=table_mod.FrozenClock(),
                                  run_clocks=False, global_limit=self.pace,
                                  **fake_mod.CLIENT_OPTIONS, **as_worker)
        if stale_clicks:
            # No click kept to carry a later message, as if each were older than a token's
            # life by then: the people of asynchronous tables, who answer hours apart.
            self.client.tokens.saw = lambda interaction: None  # type: ignore[method-assign]
        self.clock = _CpuClock()
        self.recorder: _Recorder | None = None
        self._reported = 0
        self._held = 0

    @asynccontextmanager
    async def running(self, address: Any) -> AsyncIterator[str | None]:
        """The client logged in to the fake at `address` and ready (an HTTP worker: serving,
        its URL yielded), recorded; closed after."""
        sampler = asyncio.create_task(self.clock.sample(), name="bench: cpu")
        try:
            async with contextlib.AsyncExitStack() as stack:
                url = None
                if self.worker is None:
                    await stack.enter_async_context(_connected(self.client, address.token))
                else:
                    url = await stack.enter_async_context(_serving(self.client, address))
                self.recorder = _Recorder(self.client)
                try:
                    yield url
                finally:
                    self.recorder.close()
        finally:
            sampler.cancel()

    async def ask(self, request: object) -> Recorded | None:
        """Answer `Mark` (None) or `Report` (what was recorded since the last one)."""
        recorder = self.recorder
        assert recorder is not None, "asked before the bot was running"
        if isinstance(request, Mark):
            self._held = self.pace.held
            self.pace.longest_wait = 0.0
            return None
        if not isinstance(request, Report):
            raise TypeError(f"unknown request {request!r}")
        commits = tuple(recorder.commits[self._reported:])
        self._reported += len(commits)
        delivered, recorder.delivered = recorder.delivered, {}
        requests, recorder.requests = tuple(recorder.requests), []
        return Recorded(commits, delivered, requests,
                         self.clock.share(request.start, request.end),
                         self.pace.held - self._held, self.pace.longest_wait)


def serve_bot(handle: int) -> None:
    """A bot process's entry (`python -c`), for each shard past the first and each HTTP
    worker: one client, as `jongg run --shards N --shard-ids K` (or `jongg run --http`) runs
    it, answering the bench on the socket `handle` it inherited: `Connect` first (answered
    once ready: None, or the worker's URL), then `Mark` and `Report` until None. A failure
    is answered `Failed`, with its traceback."""
    fake_mod, _ = checkout()
    tune_process()
    connection = Connection(handle)
    try:
        with stub_renderers(fake_mod.png(1, 1)):
            asyncio.run(_serve_bot(connection, fake_mod))
    except Exception:
        with contextlib.suppress(OSError):  # the bench may be gone
            connection.send(Failed(traceback.format_exc()))


async def _serve_bot(connection: Connection, fake_mod: Any) -> None:
    setup: Connect = await asyncio.to_thread(connection.recv)
    fake_mod.point_discord(setup.address)
    bot = Bot(setup.database, setup.plan, setup.scale, setup.worker)
    async with bot.running(setup.address) as url:
        connection.send(url)
        while (request := await asyncio.to_thread(connection.recv)) is not None:
            connection.send(await bot.ask(request))


class Recording:
    """Every bot process's commits and deliveries in a world, as they are reported."""

    def __init__(self) -> None:
        self.commits: list[Commit] = []
        self.delivered: dict[str, float] = {}

    def add(self, recorded: Recorded) -> None:
        self.commits += recorded.commits
        self.delivered.update(recorded.delivered)
