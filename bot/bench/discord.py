"""`jongg bench discord`: how many live games one bot token carries, with a fake Discord in a
process of its own and Discord's rate limits in force.

Two processes, as in production. This one runs only the bot: the real `JonggClient`, the
table service and the store (SQLite files in a temporary folder, or PostgreSQL with
`--database`: see `bot.bench.databases`), with pictures stubbed (`render_table`,
`render_result`, `render_rack` return a 1x1 PNG). A child process started by the bench runs
the fake Discord of `tests/discord/fake` (REST and gateway on 127.0.0.1, with Discord's rate
limits: per-route buckets, the global 50 a second, the invalid-request counter) and the
simulated people of `tests/discord/people.py`, who act only on what Discord shows them: their
DM prompts, the Claim…/Pass buttons under the table's posts (now and then Claim… and the first
choice it shows them). The two talk through a pipe (`discord_wire`); both clocks are
CLOCK_MONOTONIC, so the child's timestamps (clicks, answers, requests) line up with this
process's (commits, deliveries); `discord_measure` does the arithmetic.

Worlds, each a fresh fake Discord, client and database:

* census: tables played to the end with every person answering at once, for each table
  shape (four people; one person and three first-option bots). It gives the requests per
  move by kind over whole games (Charleston included) and the most moves per second the bot
  carries (saturated: its latency is queueing, and the global limit paces it).
* paced, the headline: as many tables of four people as the largest level are opened and
  started; each plays fast until play has begun and a few moves more (so the tables are
  spread over their games rather than all in the Charleston), then waits. Then level by
  level, more of them play at the people's pace, each person answering 2-8 s after a prompt
  (live pace: the table's clocks give 90 s a turn and 10 s a claim window): after a short
  settling, `seconds` are measured at each level while the tables go on. One world of
  one-person tables is measured the same way.

"Concurrent games" is the largest paced level of four-person tables with click->commit and
commit->messages p95 both under 100 ms, no request refused (a 429 least of all), and Discord's
budgets kept by the bot's own request log: at most 50 global-limited requests (everything but
interaction answers) in any second, at most 5 messages in one channel in any 5 seconds. The
info gives, at every level, requests per second by kind against those limits, how many of the
bot's requests its own pacing held back (`bot.discord.pacing`) and each process's CPU;
"budget" gives the arithmetic: requests per move x moves per second per table x tables
against the global limit.

`--quick` runs a few tables on a clock ten times as fast as Discord's (think times and every
rate-limit window alike), its census games cut short, so it takes seconds. Run from a
checkout: the fake and the people live in `tests/discord`, put on `sys.path`.
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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from types import TracebackType
from typing import Any

from discord.webhook.async_ import async_context

from bot.bench import BenchResult, Figure, ProgressCallback, Steps, percentile
from bot.bench.databases import SQLITE, bench_databases
from bot.bench.discord_measure import (
    CHANNEL_LIMIT,
    GLOBAL_LIMIT,
    Budget,
    Commit,
    Purpose,
    Purposes,
    Request,
    budget,
    latencies,
)
from bot.bench.discord_wire import (
    Close,
    Failed,
    Halt,
    Kind,
    Open,
    Play,
    Played,
    Shape,
    Start,
    World,
)
from bot.discord.pacing import GlobalLimit, Sharing
from bot.discord.shards import ONE_SHARD, ShardPlan
from bot.discord.tuning import tune_process
from bot.engine.errors import InvalidInput
from bot.store import OutboxEntry
from bot.tables.delivery import delivery_key
from bot.tables.notifier import Delivery, SeatUpdate

#: Goals: p95 in milliseconds (issue 5), live games on one bot token, and the requests a
#: four-person table's move may cost against the global limit (issue 12).
LATENCY_GOAL_MS = 100.0
GAMES_GOAL = 200
REQUESTS_PER_MOVE_GOAL = 1.0
#: ... and in live play, once the people's clicks carry the messages (issue 30).
LIVE_REQUESTS_PER_MOVE_GOAL = 0.1
#: A person's think time before answering a prompt, in seconds (uniform between the two).
THINK_SECONDS = (2.0, 8.0)
#: People who answer at once (the census).
AT_ONCE = (0.0, 0.0)
SEED = 20261205
#: Apart between the seeds of each bot process's games (each deals its own server's).
SEEDS_PER_PROCESS = 1_000_000
#: How often this process's CPU time is sampled (to take its share over the child's span).
CPU_SAMPLE_SECONDS = 0.1


@dataclass(frozen=True)
class _Plan:
    """What a run measures: paced levels (tables playing at once) of four people and of one
    person, the seconds measured at each after `settle` seconds, the think time, the warm-up
    (moves after play began), the census (tables of each shape played to the end, their
    moves capped or not), and the clock of the rate limits (1: Discord's; think times are
    scaled by the caller)."""

    levels: tuple[int, ...]
    ones: tuple[int, ...]
    seconds: float
    settle: float
    think: tuple[float, float]
    warmup: tuple[int, int]
    census: int
    census_moves: int | None
    scale: float

    @property
    def steps(self) -> int:
        """Progress steps: each census, each paced world's start, each level."""
        return 2 + 2 + len(self.levels) + len(self.ones)


FULL = _Plan(levels=(50, 100, 150, 200, 250, 300), ones=(200,), seconds=45.0, settle=10.0,
             think=THINK_SECONDS, warmup=(0, 12), census=10, census_moves=None, scale=1.0)
#: A smoke run: a few tables, on a clock ten times as fast as Discord's (think times and
#: rate limits alike), census games cut short; seconds.
QUICK = _Plan(levels=(4,), ones=(2,), seconds=1.5, settle=0.3, think=(0.2, 0.8),
              warmup=(0, 2), census=2, census_moves=60, scale=0.1)

CHECKOUT_TESTS = Path(__file__).resolve().parents[2] / "tests" / "discord"


def _checkout() -> tuple[Any, Any]:
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
    _checkout()
    importlib.import_module("people").serve(Connection(handle))


class _Child:
    """A child process (a fresh interpreter, sharing nothing with this one but a socket)
    running `entry` of this module (`serve_child`, `serve_bot`), and the one request at a
    time the bench asks of it."""

    def __init__(self, entry: str) -> None:
        self.entry = entry

    def __enter__(self) -> _Child:
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
def _stub_renderers(picture: bytes) -> Iterator[None]:
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
        parsers = client._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def clicked(data: Any) -> None:
            token = _PURPOSE.set(Purpose.ANSWER)
            try:
                parse(data)
            finally:
                _PURPOSE.reset(token)

        parsers["INTERACTION_CREATE"] = clicked
        client.http.request = self._counted(client.http.request, global_limited=True)
        self._adapter = async_context.get()
        setattr(self._adapter, "request",  # noqa: B010 (the instance's, not the method)
                self._counted(self._adapter.request, global_limited=False))

    def close(self) -> None:
        """Stop counting interaction-token requests (the adapter is discord.py's, shared by
        every client of the process)."""
        del self._adapter.request

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


@dataclass(frozen=True)
class _Connect:
    """A bot process's first request: connect as `plan`'s shards to the fake Discord at
    `address`, the games in `database`, the rate limits on the clock `scale`."""

    address: Any
    database: str
    plan: ShardPlan
    scale: float


@dataclass(frozen=True)
class _Mark:
    """A measure begins: count the pacing's holds and longest wait afresh."""


@dataclass(frozen=True)
class _Report:
    """A measure over `start`..`end` has ended: what was recorded since the last report."""

    start: float
    end: float


@dataclass(frozen=True)
class _Recorded:
    """What one bot process recorded since its last report: its commits, deliveries and
    requests (what each was for), its share of one core over the measure, and how many
    requests its pacing held since the mark (the longest wait, in seconds)."""

    commits: tuple[Commit, ...]
    delivered: dict[str, float]
    requests: tuple[Request, ...]
    cpu: float
    held: int
    longest_wait: float


class _Bot:
    """One bot process's client, as `jongg run` runs it for `plan`'s shards (counting its
    requests against the token's limits with the other processes'), and what the bench
    records of it: its commits and deliveries (`_Recorder`), its CPU time and its pacing's
    holds. The bench's own process runs shard 0's; `serve_bot` runs each other shard's in a
    process of its own, answering the same requests (`ask`)."""

    def __init__(self, database: str, plan: ShardPlan, scale: float) -> None:
        fake_mod, table_mod = _checkout()
        from bot.discord.client import make_client

        seeds = itertools.count(SEED + SEEDS_PER_PROCESS * plan.ids[0])
        usual = GlobalLimit()
        self.pace = GlobalLimit(usual.limit, usual.per * scale, usual.margin * scale,
                                sharing=Sharing(plan.share))
        self.client = make_client(database, shard_plan=plan,
                                  make_bot=table_mod.first_option_bot,
                                  new_seed=lambda: next(seeds), now=table_mod.FrozenClock(),
                                  run_clocks=False, global_limit=self.pace,
                                  **fake_mod.CLIENT_OPTIONS)
        self.clock = _CpuClock()
        self.recorder: _Recorder | None = None
        self._reported = 0
        self._held = 0

    @asynccontextmanager
    async def running(self, token: str) -> AsyncIterator[None]:
        """The client logged in to the fake and ready, recorded; closed after."""
        sampler = asyncio.create_task(self.clock.sample(), name="bench: cpu")
        try:
            async with _connected(self.client, token):
                self.recorder = _Recorder(self.client)
                try:
                    yield
                finally:
                    self.recorder.close()
        finally:
            sampler.cancel()

    async def ask(self, request: object) -> _Recorded | None:
        """Answer `_Mark` (None) or `_Report` (what was recorded since the last one)."""
        recorder = self.recorder
        assert recorder is not None, "asked before the bot was running"
        if isinstance(request, _Mark):
            self._held = self.pace.held
            self.pace.longest_wait = 0.0
            return None
        if not isinstance(request, _Report):
            raise TypeError(f"unknown request {request!r}")
        commits = tuple(recorder.commits[self._reported:])
        self._reported += len(commits)
        delivered, recorder.delivered = recorder.delivered, {}
        requests, recorder.requests = tuple(recorder.requests), []
        return _Recorded(commits, delivered, requests,
                         self.clock.share(request.start, request.end),
                         self.pace.held - self._held, self.pace.longest_wait)


def serve_bot(handle: int) -> None:
    """A bot process's entry (`python -c`), for each shard past the first: one client, as
    `jongg run --shards N --shard-ids K` runs it, answering the bench on the socket `handle`
    it inherited: `_Connect` first (answered None once ready), then `_Mark` and `_Report`
    until None. A failure is answered `Failed`, with its traceback."""
    fake_mod, _ = _checkout()
    tune_process()
    connection = Connection(handle)
    try:
        with _stub_renderers(fake_mod.png(1, 1)):
            asyncio.run(_serve_bot(connection, fake_mod))
    except Exception:
        with contextlib.suppress(OSError):  # the bench may be gone
            connection.send(Failed(traceback.format_exc()))


async def _serve_bot(connection: Connection, fake_mod: Any) -> None:
    setup: _Connect = await asyncio.to_thread(connection.recv)
    fake_mod.point_discord(setup.address)
    bot = _Bot(setup.database, setup.plan, setup.scale)
    async with bot.running(setup.address.token):
        connection.send(None)
        while (request := await asyncio.to_thread(connection.recv)) is not None:
            connection.send(await bot.ask(request))


class _Recording:
    """Every bot process's commits and deliveries in a world, as they are reported."""

    def __init__(self) -> None:
        self.commits: list[Commit] = []
        self.delivered: dict[str, float] = {}

    def add(self, recorded: _Recorded) -> None:
        self.commits += recorded.commits
        self.delivered.update(recorded.delivered)


@dataclass(frozen=True)
class _Run:
    """One measure's figures: latency percentiles (ms), moves and their rate, each process's
    share of one core, the requests against Discord's budgets over the measured span and per
    move, the requests the bot's own pacing held back (and the longest wait, ms), and what
    went wrong."""

    shape: Shape
    tables: int
    answer_p95: float
    commit_p50: float
    commit_p95: float
    messages_p50: float
    messages_p95: float
    first_p95: float
    moves: int
    per_second: float
    bot_cpu: tuple[float, ...]
    fake_cpu: float
    budget: Budget
    per_move: dict[Kind, float]
    purposes: Purposes
    held: int
    longest_wait: float
    over: int
    problems: tuple[str, ...]

    @property
    def global_per_move(self) -> float:
        return sum(n for kind, n in self.per_move.items() if kind.global_limited)

    @property
    def meets_goal(self) -> bool:
        """Both p95 under the goal, nothing refused, within Discord's budgets."""
        return (self.commit_p95 < LATENCY_GOAL_MS and self.messages_p95 < LATENCY_GOAL_MS
                and not self.problems and self.budget.within)

    def describe(self) -> str:
        per_move = ", ".join(f"{kind.value} {n:.2f}" for kind, n in self.per_move.items())
        cpu = " + ".join(f"{share:.0%}" for share in self.bot_cpu)
        text = (f"click->answer p95 {self.answer_p95:.1f} ms; click->commit p50 "
                f"{self.commit_p50:.1f} / p95 {self.commit_p95:.1f} ms; commit->messages "
                f"p50 {self.messages_p50:.1f} / p95 {self.messages_p95:.1f} ms (first "
                f"message p95 {self.first_p95:.1f} ms); {self.moves} moves, "
                f"{self.per_second:.1f} moves/s; CPU bot {cpu}, fake and "
                f"people {self.fake_cpu:.0%} of one core; {self.budget.describe()}; "
                f"{self.held} requests held by the bot's pacing (longest "
                f"{self.longest_wait:.0f} ms); per move: {per_move} (global-limited "
                f"{self.global_per_move:.2f}); {self.purposes.describe()}")
        if self.over:
            text += f"; {self.over} games over"
        if self.problems:
            text += "; PROBLEMS: " + " | ".join(self.problems)
        return text


def _shard(index: int, shards: int) -> ShardPlan:
    """The plan of the bot process with shard `index` of `shards` (one shard: the bot as
    `jongg run` runs it by default)."""
    return ONE_SHARD if shards == 1 else ShardPlan(shards, (index,))


async def _world(child: _Child, shape: Shape, tables: int, database: str, scale: float,
                 processes: int, start: Start | None, plays: Sequence[Play],
                 tick: Callable[[], None]) -> list[_Run]:
    """One world: a fresh fake Discord (in the child) with `tables` tables of `shape` over
    one server per shard, a bot process per shard (this one runs shard 0's, children the
    others', see `_Bot`) and a database; the tables opened and (with `start`) started, then
    each of `plays` measured in turn."""
    fake_mod, _ = _checkout()
    address = await child.ask(World(tables, shape, scale, processes))
    saved = fake_mod.point_discord(address)
    recording = _Recording()
    runs: list[_Run] = []
    try:
        with contextlib.ExitStack() as others:
            here = _Bot(database, _shard(0, processes), scale)
            async with here.running(address.token):
                there = [others.enter_context(_Child("serve_bot"))
                         for _ in range(1, processes)]
                for index, bot in enumerate(there, 1):
                    await bot.ask(_Connect(address, database, _shard(index, processes),
                                           scale))
                bots: list[_Bot | _Child] = [here, *there]
                await child.ask(Open())
                if start is not None:
                    await child.ask(start)
                    tick()
                for play in plays:
                    await asyncio.gather(*(bot.ask(_Mark()) for bot in bots))
                    played: Played = await child.ask(play)
                    reports = await asyncio.gather(*(bot.ask(_Report(played.start,
                                                                     played.end))
                                                     for bot in bots))
                    for report in reports:
                        recording.add(report)
                    runs.append(_summary(shape, play, played, recording, scale, reports))
                    tick()
                await child.ask(Halt())
    finally:
        fake_mod.point_discord(saved)
        await child.ask(Close())
    return runs


def _summary(shape: Shape, play: Play, played: Played, recording: _Recording, scale: float,
             reports: Sequence[_Recorded]) -> _Run:
    found = latencies(played, recording.commits, recording.delivered)
    seconds = max(played.end - played.start, 1e-9)
    moves = sum(c.move and not c.refused for c in played.clicks)
    problems = played.problems
    if found.lost:
        problems += (f"{found.lost} moves answered as done but never committed",)
    # A census counts every request to its end; a paced measure, those of its span.
    measured = played.sent if play.seconds is None else [
        s for s in played.sent if s.at <= played.end]
    spent = budget(measured, seconds, scale)
    made = [r for report in reports for r in report.requests if played.start <= r.at
            and (play.seconds is None or r.at <= played.end)]
    return _Run(
        shape, play.active, percentile(found.answer, 95),
        percentile(found.commit, 50), percentile(found.commit, 95),
        percentile(found.messages, 50), percentile(found.messages, 95),
        percentile(found.first, 95), moves, moves / seconds,
        tuple(report.cpu for report in reports), played.cpu / seconds, spent,
        spent.per_move(moves), Purposes.of(made, moves), sum(report.held for report in reports),
        max(report.longest_wait for report in reports) * 1000, played.over, problems)


def _arithmetic(census: _Run, paced: dict[int, _Run], scale: float) -> str:
    """Requests per move x moves per second per table x tables, against the global limit as
    the bot keeps it (`GlobalLimit`, on the limits' clock `scale`)."""
    rates = [run.per_second / run.tables for run in paced.values() if run.tables]
    per_table = sum(rates) / len(rates) if rates else 0.0
    whole = census.global_per_move
    play = [run.global_per_move for run in paced.values() if run.moves]
    in_play = sum(play) / len(play) if play else 0.0
    kept = GlobalLimit()
    window = kept.window * scale
    allowed = kept.limit / window
    load, load_in_play = whole * per_table, in_play * per_table
    return (f"four-person tables: {whole:.2f} global-limited requests per move over whole "
            f"games (Charleston included; {in_play:.2f} in the paced measures, in play) x "
            f"{per_table:.3f} moves/s per table at the people's pace = {load:.3f} "
            f"requests/s per table ({load_in_play:.3f} in play); Discord allows "
            f"{GLOBAL_LIMIT[0]} per {GLOBAL_LIMIT[1] * scale:g} s, the bot keeps "
            f"{kept.limit} counting at once, each until {window:g} s after its answer (at "
            f"most {allowed:.1f}/s), enough for "
            f"{allowed / load if load else float('inf'):.0f} tables over whole games, "
            f"{allowed / load_in_play if load_in_play else float('inf'):.0f} in play; "
            f"{GAMES_GOAL} tables need {GAMES_GOAL * load:.1f}/s over whole games, "
            f"{GAMES_GOAL * load_in_play:.1f}/s in play (bursts above the mean count too: "
            "see the peaks per level)")


def _bot_processes(processes: int) -> str:
    """How the bot runs, in the report's words, when it is not one process."""
    if processes == 1:
        return ""
    return (f"; the bot as {processes} processes, shard k of {processes} each (this one "
            f"shard 0's, children the others'), with a server of tables on each shard, one "
            f"database shared, in which the processes count their global-limited requests "
            f"together (each takes what it needs of the token's {GLOBAL_LIMIT[0]} a second); "
            "DM clicks all reach shard 0's process")


def _report(plan: _Plan, census: dict[Shape, _Run], paced: dict[int, _Run],
            ones: dict[int, _Run], database: str, processes: int
            ) -> tuple[list[Figure], dict[str, Any]]:
    shown = GAMES_GOAL if GAMES_GOAL in paced else max(paced)
    top = paced[shown]
    sustained = max((level for level, run in paced.items() if run.meets_goal), default=0)
    four, one = census[Shape.FOUR], census[Shape.ONE]
    figures = [
        Figure("click to answer p95", top.answer_p95, "ms"),
        Figure("click to commit p50", top.commit_p50, "ms"),
        Figure("click to commit p95", top.commit_p95, "ms", LATENCY_GOAL_MS),
        Figure("commit to messages p50", top.messages_p50, "ms"),
        Figure("commit to messages p95", top.messages_p95, "ms", LATENCY_GOAL_MS),
        Figure("global requests per second", top.budget.rate(), "requests/s",
               float(GLOBAL_LIMIT[0])),
        Figure("concurrent games", float(sustained), "games", float(GAMES_GOAL),
               lower_is_better=False),
        Figure("global requests per move, four people", four.global_per_move, "requests",
               REQUESTS_PER_MOVE_GOAL),
        Figure("global requests per move, one person", one.global_per_move, "requests"),
        Figure("global requests per move in live play, four people", top.global_per_move,
               "requests", LIVE_REQUESTS_PER_MOVE_GOAL),
        *(Figure(f"global requests per move in live play, {purpose.value}", share,
                 "requests") for purpose, share in top.purposes.global_limited.items()),
        Figure("moves per second, saturated", four.per_second, "moves/s",
               lower_is_better=False),
    ]
    low, high = plan.think
    info: dict[str, Any] = {
        "processes": "this one: the bot (client, table service, store); a child: the fake "
                     "Discord (REST + gateway on 127.0.0.1) and the people, who act only on "
                     "what Discord shows them" + _bot_processes(processes),
        "database": f"{database}, a fresh one per world",
        "limits": "Discord's rate limits in the fake (per-route buckets, 50 a second in all "
                  "but interaction answers, the invalid-request counter)"
                  + ("" if plan.scale == 1 else f", on a clock {plan.scale:g} times "
                                                 "Discord's"),
        "pace": f"each person answers {low:g}-{high:g} s (uniform) after a prompt; the "
                f"tables play fast until play has begun and {plan.warmup[0]}-"
                f"{plan.warmup[1]} moves more, then level by level more of them play at "
                f"that pace, each level measured for {plan.seconds:g} s after "
                f"{plan.settle:g} s",
        "bots": "first-option bots fill the empty seats of one-person tables",
        "rendering": "stubbed (render_table, render_result, render_rack return a 1x1 PNG)",
        "figures": f"latencies and requests/s at {shown} four-person tables, paced; "
                   "requests per move over whole games (census)",
    }
    played = ("to the end" if plan.census_moves is None
              else f"for {plan.census_moves} moves each")
    for shape, run in census.items():
        info[f"census, {shape.value}"] = (f"{run.tables} tables played {played}, people "
                                          f"answering at once: {run.describe()}")
    for level, run in paced.items():
        info[f"{level} tables of four people, paced"] = run.describe()
    for level, run in ones.items():
        info[f"{level} tables of one person, paced"] = run.describe()
    info["concurrent games"] = (
        f"largest paced level of four-person tables with both p95 under "
        f"{LATENCY_GOAL_MS:g} ms, nothing refused, no 429, at most {GLOBAL_LIMIT[0]} "
        f"global-limited requests in any {GLOBAL_LIMIT[1] * plan.scale:g} s and "
        f"{CHANNEL_LIMIT[0]} messages in a channel in any {CHANNEL_LIMIT[1] * plan.scale:g} s, "
        f"of {', '.join(map(str, plan.levels))}")
    info["budget"] = _arithmetic(four, paced, plan.scale)
    return figures, info


def run(quick: bool = False, progress: ProgressCallback | None = None,
        database: str = SQLITE, processes: int = 1) -> BenchResult:
    """The census of each table shape, then the paced levels; figures at the goal's load
    (or the largest level), the largest level meeting the goal, requests per move and the
    saturated throughput. Each world's database is a fresh one of `database` (see
    `bot.bench.databases`). With `processes` above 1 the bot has a shard per process, each
    run by a process of its own with a server of tables on it, all sharing the one
    database, which must then be PostgreSQL (as for `jongg run --processes`)."""
    if processes < 1:
        raise InvalidInput(f"--processes must be at least 1 (got {processes}).")
    if processes > 1 and database == SQLITE:
        raise InvalidInput("several bot processes share their games in PostgreSQL, as "
                           "`jongg run --processes` does: add --database postgresql (a "
                           "throw-away server) or a postgresql:// URL.")
    plan = QUICK if quick else FULL
    fake_mod, _ = _checkout()
    tick = Steps(progress, plan.steps)
    census: dict[Shape, _Run] = {}
    with bench_databases(database) as databases, _stub_renderers(fake_mod.png(1, 1)), \
            _Child("serve_child") as child:

        def world(shape: Shape, tables: int, start: Start | None, plays: list[Play]
                  ) -> list[_Run]:
            target = databases.new(f"{shape.name.lower()}_{len(census)}_{tables}")
            tune_process()  # as `jongg run` does (the last world's garbage collected first)
            return asyncio.run(_world(child, shape, tables, target, plan.scale, processes,
                                      start, plays, tick))

        for shape in Shape:
            [census[shape]] = world(shape, plan.census, None, [Play(
                plan.census, AT_ONCE, None, moves=plan.census_moves, seed=SEED)])
        start = Start(plan.warmup, SEED)
        paced = dict(zip(plan.levels, world(Shape.FOUR, max(plan.levels), start, [
            Play(level, plan.think, plan.seconds, plan.settle, seed=SEED + level)
            for level in plan.levels]), strict=True))
        ones = dict(zip(plan.ones, world(Shape.ONE, max(plan.ones), start, [
            Play(level, plan.think, plan.seconds, plan.settle, seed=SEED + level)
            for level in plan.ones]), strict=True))
        shown = databases.shown
    figures, info = _report(plan, census, paced, ones, shown, processes)
    return BenchResult("discord", tuple(figures), {"quick": quick, **info})
