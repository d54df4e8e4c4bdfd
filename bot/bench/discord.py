"""`jongg bench discord`: click-to-commit and commit-to-messages latency, many games at once.

The real `JonggClient` runs against the fake Discord of `tests/discord/fake` (REST and
gateway on 127.0.0.1, in this same process, on a thread and event loop of its own), with a
SQLite store in a temporary folder. Tables are opened the way people open them (`/mj new`,
then Start, which seats first-option bots in the three empty seats), each with a different
person, who plays their first option through the controls Discord shows them (DM prompts,
the Pass or Claim… buttons under the table post).

Two loads:

* paced (the headline): N games at once, fresh ones for each N, every person answering
  each prompt a think time after it reached them, drawn from `THINK_SECONDS` (1 to 5 s,
  mean 3 s: a brisk live game; the live pace's clocks are 90 s a turn and 10 s a claim
  window). Each of their moves also brings the three bots' answers, so a table here makes
  more work per click than a table of four people. "Concurrent games" is the largest N
  whose click-to-commit and commit-to-messages p95 are both under 100 ms.
* saturated: `SATURATED` games whose people click again the moment their last move is
  told, to find how many moves per second the process can carry at most. Its latency is
  queueing (N clicks always waiting), so it says nothing about the goal.

Timestamps, without touching product code:

* click: `FakeInteraction.created`, set by the fake as it sends INTERACTION_CREATE;
* commit: a wrapper around `service.db.actions.append_actions` stamps each commit on return
  (the first commit after the click holds the person's action, with the bots' answers);
* messages: `RecordedRequest.at`, set by the fake when a request reaches it; the notifier's
  requests are those to the table's thread and the person's DM channel, between the commit
  and the moment `service.flush` has delivered everything.

"Commit to messages" runs to the last of those requests (everything sent about the move,
including the bots' answers to it); the first is kept in the info. Image rendering is
stubbed: `render_table`, `render_result` (bot.discord.notify) and `render_rack`
(bot.discord.prompts) return a constant 1x1 PNG for the run and are restored after.
The fake Discord and the driver share the process (and its GIL), so their work counts
against the bot; the info gives the process's CPU use at each level.

Run from a checkout: the fake lives in `tests/discord`, which is put on `sys.path`.
"""

from __future__ import annotations

import asyncio
import bisect
import gc
import importlib
import itertools
import math
import random
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.bench import BenchResult, Figure, ProgressCallback, Steps
from bot.engine.errors import InvalidInput
from bot.store import OutboxEntry

#: Goals from issue 5: p95 in milliseconds, and games one process sustains at that p95.
LATENCY_GOAL_MS = 100.0
GAMES_GOAL = 200
#: A person's think time before answering a prompt, in seconds (uniform between the two).
THINK_SECONDS = (1.0, 5.0)


@dataclass(frozen=True)
class _Plan:
    """What a run measures: paced levels (games at once) and the person's moves per game at
    each, the think time, and the saturated run's games and moves per game."""

    levels: tuple[int, ...]
    moves: int
    think: tuple[float, float]
    saturated: int
    saturated_moves: int
    #: The fake Discord's rate-limit clock (`RateLimits.time_scale`): as much faster than
    #: Discord's as the think times are faster than live play.
    time_scale: float = 1.0

    @property
    def tables(self) -> int:
        return sum(self.levels) + self.saturated

    @property
    def steps(self) -> int:
        return sum(self.levels) * self.moves + self.saturated * self.saturated_moves


FULL = _Plan(levels=(1, 50, 100, 200, 300, 400), moves=8, think=THINK_SECONDS, saturated=50,
             saturated_moves=6)
#: A smoke run: small levels and think times cut tenfold, so it takes seconds.
QUICK = _Plan(levels=(1, 10), moves=3, think=(0.1, 0.5), saturated=10, saturated_moves=3,
              time_scale=0.1)
#: The fake's waits (Discord's own 3 s acknowledgement window included) are stretched so
#: that a saturated run measures latency instead of failing.
PATIENCE = 300.0
DISCORD_ACK_SECONDS = 3.0
SEED = 20261205
#: Tables opened at once (the lobby is not what is measured).
OPENING = 25

CHECKOUT_TESTS = Path(__file__).resolve().parents[2] / "tests" / "discord"


def _checkout() -> tuple[Any, Any]:
    """The fake Discord package and the test table driver, from the checkout."""
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


@dataclass(frozen=True)
class _Step:
    game_id: int
    click: float
    commit: float
    flushed: float


@dataclass(frozen=True)
class _Level:
    """One load's figures: latency percentiles (ms), moves, their rate and the CPU used."""

    commit_p50: float
    commit_p95: float
    messages_p50: float
    messages_p95: float
    first_message_p95: float
    moves: int
    per_second: float
    cpu: float

    @property
    def meets_goal(self) -> bool:
        return self.commit_p95 < LATENCY_GOAL_MS and self.messages_p95 < LATENCY_GOAL_MS

    def describe(self) -> str:
        return (f"click->commit p50 {self.commit_p50:.1f} / p95 {self.commit_p95:.1f} ms; "
                f"commit->messages p50 {self.messages_p50:.1f} / p95 "
                f"{self.messages_p95:.1f} ms (first message p95 "
                f"{self.first_message_p95:.1f} ms); {self.moves} moves, "
                f"{self.per_second:.0f} moves/s, CPU {self.cpu:.0%} of one core")


def _percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (0 with no samples)."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


class _Harness:
    """One fake Discord, one Jongg client, the tables, and the timestamps."""

    def __init__(self, fake: Any, table_mod: Any, client: Any, channel: Any) -> None:
        self.fake, self.table_mod, self.client, self.channel = fake, table_mod, client, channel
        self.commits: dict[int, list[float]] = defaultdict(list)
        self.clicks: dict[int, list[float]] = defaultdict(list)
        self.channels_of: dict[int, tuple[str, str]] = {}
        self.stalled = 0
        self.people = itertools.count()

    def instrument(self) -> None:
        actions = self.client.service.db.actions
        append = actions.append_actions

        async def append_actions(game_id: int, *args: Any,
                                 **kwargs: Any) -> tuple[OutboxEntry, ...]:
            entries: tuple[OutboxEntry, ...] = await append(game_id, *args, **kwargs)
            self.commits[game_id].append(time.monotonic())
            return entries

        actions.append_actions = append_actions
        for name in ("click", "select"):
            original = getattr(self.fake, name)

            async def act(user: Any, *args: Any, _original: Any = original,
                          **kwargs: Any) -> Any:
                handle = await _original(user, *args, **kwargs)
                self.clicks[user.id].append(handle.created)
                return handle

            setattr(self.fake, name, act)

    async def open_tables(self, count: int, tick: Callable[[], None]) -> list[Any]:
        """`count` new tables, each with a new person, in their Charleston's first pass."""
        gate = asyncio.Semaphore(OPENING)

        async def open_one() -> Any:
            async with gate:
                table = await self._open_table()
            tick()
            return table

        tables = await asyncio.gather(*(open_one() for _ in range(count)))
        return sorted(tables, key=lambda t: t.game_id)

    async def _open_table(self) -> Any:
        fake, table_mod = self.fake, self.table_mod
        number = next(self.people)
        user = fake.add_user(f"player{number}", global_name=f"Player {number}")
        fake.add_member(self.channel.guild, user)
        opened = await fake.slash(user, self.channel, "mj new", {"players": 4})
        lobby = await opened.reply()
        [join] = table_mod.custom_ids(lobby, "jg:l:")[:1]
        game_id = int(join.split(":")[2])
        thread = await fake.wait_until(lambda: lobby.thread, what="the table's thread")
        await table_mod.JonggTable._lobby(fake, user, lobby, f"jg:l:{game_id}:start")
        await self.client.service.flush(game_id)
        seats = [None if uid is None else user
                 for uid in self.client.service.table(game_id).user_ids]
        self.channels_of[game_id] = (str(thread.id), str(fake.dm_channel(user).id))
        return table_mod.JonggTable(fake, None, self.client, game_id, lobby, thread, seats)

    async def drive(self, table: Any, moves: int, out: list[_Step], tick: Callable[[], None],
                    think: Callable[[], float] | None) -> None:
        """The table's person makes up to `moves` moves, each `think()` seconds after the
        last was told (at once without `think`)."""
        [user] = table.humans
        for _ in range(moves):
            if think is not None:
                await asyncio.sleep(think())
            if table.over:
                break
            seen = table.view(user)
            if not seen.legal:
                self.stalled += 1
                break
            before = len(self.commits[table.game_id])
            await table.step(user, seen)
            flushed = time.monotonic()
            commits = self.commits[table.game_id]
            if len(commits) > before:
                out.append(_Step(table.game_id, self.clicks[user.id][-1], commits[before],
                                 flushed))
            tick()

    async def level(self, tables: list[Any], moves: int, tick: Callable[[], None],
                    think: Callable[[], float] | None) -> _Level:
        """Drive `tables` all at once and measure."""
        out: list[_Step] = []
        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(self.drive(t, moves, out, tick, think) for t in tables))
        wall = max(time.perf_counter() - started, 1e-9)
        used = time.process_time() - cpu
        commit, last, first = self.latencies(out)
        return _Level(_percentile(commit, 50), _percentile(commit, 95),
                      _percentile(last, 50), _percentile(last, 95), _percentile(first, 95),
                      len(out), len(out) / wall, used / wall)

    def latencies(self, steps: list[_Step]) -> tuple[list[float], list[float], list[float]]:
        """Click to commit, commit to the last and to the first notifier request, in ms."""
        sent: dict[str, list[float]] = defaultdict(list)
        for request in self.fake.requests:
            channel = request.params.get("channel_id")
            if channel is not None and request.method in ("POST", "PATCH"):
                sent[channel].append(request.at)
        by_game = {game: sorted(sent[thread] + sent[dm])
                   for game, (thread, dm) in self.channels_of.items()}
        to_commit, to_last, to_first = [], [], []
        for step in steps:
            to_commit.append((step.commit - step.click) * 1000)
            times = by_game[step.game_id]
            low = bisect.bisect_left(times, step.commit)
            high = bisect.bisect_right(times, step.flushed)
            if high > low:
                to_first.append((times[low] - step.commit) * 1000)
                to_last.append((times[high - 1] - step.commit) * 1000)
        return to_commit, to_last, to_first


def _late_acks(fake: Any) -> int:
    """Interactions whose callback reached the fake more than 3 s after they were sent."""
    late = 0
    interactions = fake.interactions  # a copy: take it once
    for request in fake.requests:
        if request.route == "/interactions/{interaction_id}/{token}/callback":
            sent = interactions.get(int(request.params["interaction_id"]))
            late += sent is not None and request.at - sent.created > DISCORD_ACK_SECONDS
    return late


@dataclass
class _Totals:
    """What the fake saw over the whole run."""

    requests: int = 0
    refused: int = 0
    late: int = 0
    stalled: int = 0
    problems: str = ""


async def _measure(tables: int, moves: int, think: Callable[[], float] | None,
                   tick: Callable[[], None], folder: Path, totals: _Totals,
                   time_scale: float) -> _Level:
    """One load in a fresh process state: its own fake Discord, client and database, so a
    level's games are all the process holds (as a real bot's would be)."""
    fake_mod, table_mod = _checkout()
    from bot.discord.client import JonggClient

    seeds = itertools.count(SEED)
    limits = fake_mod.RateLimits(time_scale=time_scale)
    async with fake_mod.FakeDiscord(interaction_ack_timeout=PATIENCE,
                                    default_timeout=PATIENCE, limits=limits) as fake:
        guild = fake.add_guild("Jongg Bench Hall")
        channel = fake.add_channel(guild, "mahjong-tables")
        client = JonggClient(folder / f"bench-{tables}-{think is None}.sqlite3",
                             make_bot=table_mod.first_option_bot,
                             new_seed=lambda: next(seeds), now=table_mod.FrozenClock(),
                             run_clocks=False, **fake_mod.CLIENT_OPTIONS)
        async with fake.run(client):
            harness = _Harness(fake, table_mod, client, channel)
            harness.instrument()
            opened = await harness.open_tables(tables, tick)
            measured = await harness.level(opened, moves, tick, think)
            totals.requests += len(fake.requests)
            totals.refused += len(fake.failed_requests)
            if fake.failed_requests or fake.unhandled:
                totals.problems += fake.problems()[:2000]
            totals.late += _late_acks(fake)
            totals.stalled += harness.stalled
    return measured


def _report(plan: _Plan, paced: dict[int, _Level], saturated: _Level,
            totals: _Totals) -> tuple[list[Figure], dict[str, Any]]:
    # The latency figures are those at the goal's load when it was run, else the largest.
    shown = GAMES_GOAL if GAMES_GOAL in paced else max(plan.levels)
    top = paced[shown]
    sustained = max((level for level, measured in paced.items() if measured.meets_goal),
                    default=0)
    figures = [
        Figure("click to commit p50", top.commit_p50, "ms"),
        Figure("click to commit p95", top.commit_p95, "ms", LATENCY_GOAL_MS),
        Figure("commit to messages p50", top.messages_p50, "ms"),
        Figure("commit to messages p95", top.messages_p95, "ms", LATENCY_GOAL_MS),
        Figure("concurrent games", float(sustained), "games", float(GAMES_GOAL),
               lower_is_better=False),
        Figure("moves per second, saturated", saturated.per_second, "moves/s",
               lower_is_better=False),
    ]
    low, high = plan.think
    info: dict[str, Any] = {
        "games": f"1 person + 3 first-option bots each; {plan.moves} moves of the person's "
                 "per game; each level in a fresh fake Discord, client and database",
        "pace": f"each person answers {low:g}-{high:g} s (uniform) after their prompt",
        "rendering": "stubbed (render_table, render_result, render_rack return a 1x1 PNG)",
        "in process": "fake Discord (REST + gateway on 127.0.0.1) on its own thread and "
                      "event loop; bot and driver share one; SQLite in a temporary folder",
        "figures": f"latencies at {shown} games, paced",
    }
    for level, measured in paced.items():
        info[f"{level} games, paced"] = measured.describe()
    info[f"{plan.saturated} games, saturated"] = (
        f"{saturated.describe()} (people clicking again the moment they are told; its "
        "latency is queueing)")
    info["concurrent games"] = ("largest paced level with both p95 under "
                                f"{LATENCY_GOAL_MS:g} ms, of {', '.join(map(str, plan.levels))}")
    info["requests"] = f"{totals.requests} to the fake, {totals.refused} refused"
    info["late acknowledgements"] = (f"{totals.late} interactions answered after Discord's "
                                     "3 s window (the fake's was stretched)")
    if totals.stalled:
        info["stalled tables"] = totals.stalled
    if totals.problems:
        info["refused requests"] = totals.problems
    return figures, info


def run(quick: bool = False, progress: ProgressCallback | None = None) -> BenchResult:
    """Latency percentiles at the goal's paced load (or the largest run), the largest paced
    load meeting the goal, and the saturated throughput."""
    plan = QUICK if quick else FULL
    fake_mod, _ = _checkout()
    total = plan.tables + plan.steps
    tick = Steps(progress, total)

    rng = random.Random(SEED)

    def think() -> float:
        return rng.uniform(*plan.think)

    totals = _Totals()
    paced: dict[int, _Level] = {}
    with tempfile.TemporaryDirectory(prefix="jongg-bench-discord-") as name, \
            _stub_renderers(fake_mod.png(1, 1)):
        folder = Path(name)
        for level in plan.levels:
            gc.collect()  # the last level's garbage is not this one's to pay for
            paced[level] = asyncio.run(_measure(level, plan.moves, think, tick, folder,
                                                totals, plan.time_scale))
        gc.collect()
        saturated = asyncio.run(_measure(plan.saturated, plan.saturated_moves, None, tick,
                                         folder, totals, plan.time_scale))
    if progress is not None:
        progress(total, total)
    figures, info = _report(plan, paced, saturated, totals)
    return BenchResult("discord", tuple(figures), {"quick": quick, **info})
