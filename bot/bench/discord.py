"""`jongg bench discord`: click-to-commit and commit-to-messages latency, many games at once.

The real `JonggClient` runs against the fake Discord of `tests/discord/fake` (REST and
gateway on 127.0.0.1, in this same process and event loop), with a SQLite store in a
temporary folder. N tables are opened the way people open them (`/mj new`, then Start, which
seats first-option bots in the three empty seats), each with a different human. Then every
human plays their first option through the controls Discord shows them (DM prompts, the Pass
or Claim… buttons under the table post), all tables at once (`asyncio.gather`), for a fixed
number of steps each; a table whose game ends stops early.

Timestamps, without touching product code:

* click: `FakeInteraction.created`, set by the fake as it sends INTERACTION_CREATE;
* commit: a wrapper around `service.db.actions.append_actions` stamps each commit on return
  (the first commit after the click holds the human's action, with the bots' answers);
* messages: `RecordedRequest.at`, set by the fake when a request reaches it; the notifier's
  requests are those to the table's thread and the human's DM channel, between the commit
  and the moment `service.flush` has delivered everything.

"Commit to messages" runs to the last of those requests (everything sent about the move,
including the bots' answers to it); the first is kept in the info. Image rendering is
stubbed: `render_table`, `render_result` (bot.discord.notify) and `render_rack`
(bot.discord.prompts) return a constant 1x1 PNG for the run and are restored after.
The fake Discord and the driver share the process, so their work counts against the bot.

Run from a checkout: the fake lives in `tests/discord`, which is put on `sys.path`.
"""

from __future__ import annotations

import asyncio
import bisect
import importlib
import itertools
import math
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.bench import BenchResult, Figure, ProgressCallback
from bot.engine.errors import InvalidInput

#: Goals from issue 5: p95 in milliseconds, and games one process sustains at that p95.
LATENCY_GOAL_MS = 100.0
GAMES_GOAL = 200
#: (concurrency levels, steps per table at each level); the last level is the headline.
FULL = ((1, 5, 10, 25, 50, 100, 200), 6)
QUICK = ((1, 10), 5)
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


def _percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (0 with no samples)."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


class _Harness:
    """One fake Discord, one Jongg client, N tables, and the timestamps."""

    def __init__(self, fake_mod: Any, table_mod: Any, fake: Any, client: Any,
                 users: list[Any], tables_channel: Any) -> None:
        self.fake_mod, self.table_mod = fake_mod, table_mod
        self.fake, self.client = fake, client
        self.users, self.channel = users, tables_channel
        self.commits: dict[int, list[float]] = defaultdict(list)
        self.clicks: dict[int, list[float]] = defaultdict(list)
        self.tables: list[Any] = []
        self.channels_of: dict[int, tuple[str, str]] = {}
        self.stalled = 0

    def instrument(self) -> None:
        actions = self.client.service.db.actions
        append = actions.append_actions

        async def append_actions(game_id: int, *args: Any, **kwargs: Any) -> None:
            await append(game_id, *args, **kwargs)
            self.commits[game_id].append(time.monotonic())

        actions.append_actions = append_actions
        for name in ("click", "select"):
            original = getattr(self.fake, name)

            async def act(user: Any, *args: Any, _original: Any = original,
                          **kwargs: Any) -> Any:
                handle = await _original(user, *args, **kwargs)
                self.clicks[user.id].append(handle.created)
                return handle

            setattr(self.fake, name, act)

    async def open_table(self, user: Any) -> None:
        fake, table_mod = self.fake, self.table_mod
        opened = await fake.slash(user, self.channel, "mj new", {"players": 4})
        lobby = await opened.reply()
        [join] = table_mod.custom_ids(lobby, "jg:l:")[:1]
        game_id = int(join.split(":")[2])
        thread = await fake.wait_until(lambda: lobby.thread, what="the table's thread")
        await table_mod.JonggTable._lobby(fake, user, lobby, f"jg:l:{game_id}:start")
        await self.client.service.flush(game_id)
        seats = [None if uid is None else user
                 for uid in self.client.service.table(game_id).user_ids]
        self.tables.append(table_mod.JonggTable(fake, None, self.client, game_id, lobby,
                                                thread, seats))
        self.channels_of[game_id] = (str(thread.id), str(fake.dm_channel(user).id))

    async def drive(self, table: Any, steps: int, out: list[_Step],
                    tick: Callable[[], None]) -> None:
        [user] = table.humans
        for _ in range(steps):
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
    for request in fake.requests:
        if request.route == "/interactions/{interaction_id}/{token}/callback":
            sent = fake.interactions.get(int(request.params["interaction_id"]))
            late += sent is not None and request.at - sent.created > DISCORD_ACK_SECONDS
    return late


async def _measure(levels: tuple[int, ...], steps: int, progress: ProgressCallback | None,
                   folder: Path) -> tuple[list[Figure], dict[str, Any]]:
    fake_mod, table_mod = _checkout()
    from bot.discord.client import JonggClient

    most = max(levels)
    total = most + sum(levels) * steps
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(min(done, total), total)

    seeds = itertools.count(SEED)
    async with fake_mod.FakeDiscord(interaction_ack_timeout=PATIENCE,
                                    default_timeout=PATIENCE) as fake:
        guild = fake.add_guild("Jongg Bench Hall")
        channel = fake.add_channel(guild, "mahjong-tables")
        users = [fake.add_user(f"player{i}", global_name=f"Player {i}") for i in range(most)]
        for user in users:
            fake.add_member(guild, user)
        client = JonggClient(folder / "bench.sqlite3", make_bot=table_mod.first_option_bot,
                             new_seed=lambda: next(seeds), now=table_mod.FrozenClock(),
                             run_clocks=False, **fake_mod.CLIENT_OPTIONS)
        async with fake.run(client):
            harness = _Harness(fake_mod, table_mod, fake, client, users, channel)
            harness.instrument()
            started = time.perf_counter()
            gate = asyncio.Semaphore(OPENING)

            async def open_one(user: Any) -> None:
                async with gate:
                    await harness.open_table(user)
                tick()

            await asyncio.gather(*(open_one(u) for u in users))
            harness.tables.sort(key=lambda t: t.game_id)
            opening = time.perf_counter() - started
            results: dict[int, tuple[float, float, float, float, int, float]] = {}
            rates: dict[int, float] = {}
            for level in levels:
                out: list[_Step] = []
                started = time.perf_counter()
                await asyncio.gather(*(harness.drive(t, steps, out, tick)
                                       for t in harness.tables[:level]))
                wall = time.perf_counter() - started
                commit, last, first = harness.latencies(out)
                results[level] = (_percentile(commit, 50), _percentile(commit, 95),
                                  _percentile(last, 50), _percentile(last, 95), len(out),
                                  _percentile(first, 95))
                rates[level] = len(out) / max(wall, 1e-9)
            if progress is not None:
                progress(total, total)
            requests = len(fake.requests)
            late = _late_acks(fake)
            failed = len(fake.failed_requests)
    top = results[most]
    sustained = max((level for level, r in results.items()
                     if r[1] < LATENCY_GOAL_MS and r[3] < LATENCY_GOAL_MS), default=0)
    figures = [
        Figure("click to commit p50", top[0], "ms"),
        Figure("click to commit p95", top[1], "ms", LATENCY_GOAL_MS),
        Figure("commit to messages p50", top[2], "ms"),
        Figure("commit to messages p95", top[3], "ms", LATENCY_GOAL_MS),
        Figure("concurrent games", float(sustained), "games", float(GAMES_GOAL),
               lower_is_better=False),
    ]
    info: dict[str, Any] = {
        "games": f"{most} tables, 1 human + 3 first-option bots each, {steps} human steps "
                 "per table, all tables at once",
        "rendering": "stubbed (render_table, render_result, render_rack return a 1x1 PNG)",
        "in process": "fake Discord (REST + gateway on 127.0.0.1), bot and driver share "
                      "one event loop; SQLite in a temporary folder",
        "opening": f"{most} tables in {opening:.1f} s",
    }
    for level, r in results.items():
        info[f"{level} games"] = (
            f"click->commit p50 {r[0]:.1f} / p95 {r[1]:.1f} ms; commit->messages p50 "
            f"{r[2]:.1f} / p95 {r[3]:.1f} ms (first message p95 {r[5]:.1f} ms); "
            f"{r[4]} steps, {rates[level]:.0f} steps/s")
    info["concurrent games"] = ("largest level tried with both p95 under "
                                f"{LATENCY_GOAL_MS:g} ms, of {', '.join(map(str, levels))}")
    info["requests"] = f"{requests} to the fake, {failed} refused"
    info["late acknowledgements"] = (f"{late} interactions answered after Discord's 3 s "
                                     "window (the fake's was stretched)")
    if harness.stalled:
        info["stalled tables"] = harness.stalled
    return figures, info


def run(quick: bool = False, progress: ProgressCallback | None = None) -> BenchResult:
    """Latency percentiles at the largest load and the largest load meeting the goal."""
    levels, steps = QUICK if quick else FULL
    fake_mod, _ = _checkout()
    with tempfile.TemporaryDirectory(prefix="jongg-bench-discord-") as folder, \
            _stub_renderers(fake_mod.png(1, 1)):
        figures, info = asyncio.run(_measure(levels, steps, progress, Path(folder)))
    info = {"quick": quick, **info}
    return BenchResult("discord", tuple(figures), info)
