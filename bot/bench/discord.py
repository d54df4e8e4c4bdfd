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
process's (commits, deliveries); `discord_bot` runs and records the bot's processes,
`discord_measure` does the arithmetic.

Worlds, each a fresh fake Discord, client and database:

* census: tables played to the end with every person answering at once, for each table
  shape (four people; one person and three first-option bots). It gives the requests per
  move by kind over whole games (Charleston included) and the most moves per second the bot
  carries (saturated: its latency is queueing, and the global limit paces it). The
  four-person census runs once more as asynchronous tables, whose people answer hours apart:
  no click is young enough to carry a message, so what the bot owes goes out with its token
  (one bot process only); reported apart.
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

`--http-workers N` runs the bot as N `jongg run --http` workers instead, each a process of its
own, taking every interaction from the fake's Interactions Endpoint in turn (as a reverse proxy
in front of them would), beside one gateway process (this one: it registers the commands);
only the paced four-person world is measured (`HTTP`): the most tables carried within the
goals, and the bot's CPU per move and per table (every bot process's, and the throw-away
database server's apart), so that N workers can be set against one.

`--quick` runs a few tables on a clock ten times as fast as Discord's (think times and every
rate-limit window alike), its census games cut short, so it takes seconds. Run from a
checkout: the fake and the people live in `tests/discord`, put on `sys.path`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.bench import BenchResult, Figure, ProgressCallback, Steps, percentile
from bot.bench.databases import SQLITE, bench_databases
from bot.bench.discord_bot import (
    SEED,
    Bot,
    Child,
    Connect,
    Mark,
    Recorded,
    Recording,
    Report,
    checkout,
    stub_renderers,
)
from bot.bench.discord_measure import (
    CHANNEL_LIMIT,
    GLOBAL_LIMIT,
    Budget,
    Purposes,
    budget,
    latencies,
)
from bot.bench.discord_wire import (
    Close,
    Endpoint,
    Halt,
    Kind,
    Open,
    Play,
    Played,
    Shape,
    Start,
    World,
)
from bot.discord.pacing import GlobalLimit
from bot.discord.shards import ONE_SHARD, ShardPlan
from bot.discord.tuning import tune_process
from bot.engine.errors import InvalidInput

#: Goals: p95 in milliseconds, live games on one bot token, and the requests a four-person
#: table's move may cost against the global limit over whole games.
LATENCY_GOAL_MS = 100.0
GAMES_GOAL = 200
REQUESTS_PER_MOVE_GOAL = 1.0
#: ... and in live play, where the people's clicks carry the messages.
LIVE_REQUESTS_PER_MOVE_GOAL = 0.1
#: A person's think time before answering a prompt, in seconds (uniform between the two).
THINK_SECONDS = (2.0, 8.0)
#: People who answer at once (the census).
AT_ONCE = (0.0, 0.0)


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
        return (2 * bool(self.census) + 1 + bool(self.ones) + len(self.levels)
                + len(self.ones))


FULL = _Plan(levels=(50, 100, 150, 200, 250, 300), ones=(200,), seconds=45.0, settle=10.0,
             think=THINK_SECONDS, warmup=(0, 12), census=10, census_moves=None, scale=1.0)
#: A smoke run: a few tables, on a clock ten times as fast as Discord's (think times and
#: rate limits alike), census games cut short; seconds.
QUICK = _Plan(levels=(4,), ones=(2,), seconds=1.5, settle=0.3, think=(0.2, 0.8),
              warmup=(0, 2), census=2, census_moves=60, scale=0.1)

#: `--http-workers`: the paced four-person world alone (the live tables carried), sized to
#: run in minutes for each worker count on a 2-core machine.
HTTP = _Plan(levels=(25, 50, 100, 150), ones=(), seconds=20.0, settle=5.0,
             think=THINK_SECONDS, warmup=(0, 12), census=0, census_moves=None, scale=1.0)
HTTP_QUICK = replace(QUICK, ones=(), census=0)

@dataclass(frozen=True)
class _Run:
    """One measure's figures: latency percentiles (ms), moves and their rate, each process's
    share of one core (and the whole machine's busy cores), the requests against Discord's
    budgets over the measured span and per move, the requests the bot's own pacing held back
    (and the longest wait, ms), and what went wrong."""

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
    machine_cpu: float
    database_cpu: float
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
    def cpu_per_move(self) -> float:
        """The bot's CPU per move, every bot process together, in milliseconds."""
        return sum(self.bot_cpu) / max(self.per_second, 1e-9) * 1000

    @property
    def database_per_move(self) -> float:
        """The database server's CPU per move, in milliseconds (0: not measured)."""
        return self.database_cpu / max(self.per_second, 1e-9) * 1000

    @property
    def cpu_per_table(self) -> float:
        """The bot's CPU per table at this pace, every process together, in cores."""
        return sum(self.bot_cpu) / max(self.tables, 1)

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
                f"people {self.fake_cpu:.0%}, database server {self.database_cpu:.0%} of "
                f"one core (bot {self.cpu_per_move:.2f} ms a move, database "
                f"{self.database_per_move:.2f} ms; bot {self.cpu_per_table:.2%} of a core a "
                f"table; the machine's "
                f"{os.cpu_count()} cores {self.machine_cpu:.2f} busy, all processes); "
                f"{self.budget.describe()}; "
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


async def _world(child: Child, shape: Shape, tables: int, database: str, scale: float,
                 processes: int, start: Start | None, plays: Sequence[Play],
                 tick: Callable[[], None], workers: int = 0,
                 database_pid: int | None = None, stale_clicks: bool = False) -> list[_Run]:
    """One world: a fresh fake Discord (in the child) with `tables` tables of `shape` over
    one server per shard, a bot process per shard (this one runs shard 0's, children the
    others', see `Bot`) and a database; the tables opened and (with `start`) started, then
    each of `plays` measured in turn. With `workers`, that many HTTP workers besides, each a
    child process, take every interaction (the fake's endpoint posts to them in turn, as a
    reverse proxy would), and this process is only the gateway's (it registers the
    commands), as `jongg run` beside `jongg run --http` workers. `database_pid`: the
    database server's process, whose CPU is measured too (None: not measured).
    `stale_clicks`: this process's bot finds every click too old to carry a message (an
    asynchronous table's), so what it owes goes out with the bot's token."""
    fake_mod, _ = checkout()
    address = await child.ask(World(tables, shape, scale, processes, database_pid))
    saved = fake_mod.point_discord(address)
    recording = Recording()
    runs: list[_Run] = []
    try:
        with contextlib.ExitStack() as others:
            here = Bot(database, _shard(0, processes), scale, stale_clicks=stale_clicks)
            async with here.running(address):
                there = [others.enter_context(Child("serve_bot"))
                         for _ in range(1, processes + workers)]
                for index, bot in enumerate(there[:processes - 1], 1):
                    await bot.ask(Connect(address, database, _shard(index, processes),
                                           scale))
                urls = await asyncio.gather(*(
                    bot.ask(Connect(address, database, ONE_SHARD, scale, worker))
                    for worker, bot in enumerate(there[processes - 1:], 1)))
                if urls:
                    await child.ask(Endpoint(tuple(urls)))
                bots: list[Bot | Child] = [here, *there]
                await child.ask(Open())
                if start is not None:
                    await child.ask(start)
                    tick()
                for play in plays:
                    await asyncio.gather(*(bot.ask(Mark()) for bot in bots))
                    played: Played = await child.ask(play)
                    reports = await asyncio.gather(*(bot.ask(Report(played.start,
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


def _summary(shape: Shape, play: Play, played: Played, recording: Recording, scale: float,
             reports: Sequence[Recorded]) -> _Run:
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
        tuple(report.cpu for report in reports), played.cpu / seconds,
        played.machine / seconds, played.database / seconds, spent,
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


def _bot_processes(processes: int, workers: int) -> str:
    """How the bot runs, in the report's words, when it is not one process."""
    if workers:
        return (f"; the bot as {workers} HTTP worker"
                + (" process" if workers == 1 else "s, each a process of its own") +
                " (as `jongg run --http`, children of this one, one database shared) taking "
                "every interaction, the fake's Interactions Endpoint posting to them in "
                "turn as a reverse proxy would; this process is only the gateway's (as a "
                "plain `jongg run` beside the workers: it registers the commands and no "
                "interaction reaches it), its CPU share the first of the bot's")
    if processes == 1:
        return ""
    return (f"; the bot as {processes} processes, shard k of {processes} each (this one "
            f"shard 0's, children the others'), with a server of tables on each shard, one "
            f"database shared, in which the processes count their global-limited requests "
            f"together (each takes what it needs of the token's {GLOBAL_LIMIT[0]} a second); "
            "DM clicks all reach shard 0's process")


def _cpu_figures(run: _Run) -> list[Figure]:
    """The bot's CPU at one paced level (every bot process together): per move, per table,
    and the tables one core of it would carry at that cost; the database server's per move
    (0 when it is not the bench's own), and the tables a core carries counting both."""
    with_database = run.cpu_per_table + run.database_cpu / max(run.tables, 1)
    return [
        Figure("bot CPU per move", run.cpu_per_move, "ms"),
        Figure("database CPU per move", run.database_per_move, "ms"),
        Figure("bot CPU per table", run.cpu_per_table * 100, "% of a core"),
        Figure("tables per core of bot CPU", 1 / max(run.cpu_per_table, 1e-9), "tables",
               lower_is_better=False),
        Figure("tables per core of bot and database CPU", 1 / max(with_database, 1e-9),
               "tables", lower_is_better=False),
        Figure("machine cores busy", run.machine_cpu, "cores"),
    ]


def _report(plan: _Plan, census: dict[Shape, _Run], paced: dict[int, _Run],
            ones: dict[int, _Run], database: str, processes: int, workers: int = 0,
            slow: _Run | None = None) -> tuple[list[Figure], dict[str, Any]]:
    """Figures and info; without a census (`--http-workers`' plans) only the paced ones.
    `slow`: the census of asynchronous four-person tables, reported apart."""
    shown = GAMES_GOAL if GAMES_GOAL in paced else max(paced)
    top = paced[shown]
    sustained = max((level for level, run in paced.items() if run.meets_goal), default=0)
    # CPU at the most tables carried within the goals (beyond, it is queueing's too).
    costed = sustained or shown
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
    ]
    if census:
        four, one = census[Shape.FOUR], census[Shape.ONE]
        figures += [
            Figure("global requests per move, four people", four.global_per_move,
                   "requests", REQUESTS_PER_MOVE_GOAL),
            Figure("global requests per move, one person", one.global_per_move, "requests"),
        ]
    if slow is not None:
        figures += [
            Figure("global requests per move, four people, asynchronous",
                   slow.global_per_move, "requests"),
            *(Figure(f"global requests per move, asynchronous, {purpose.value}", share,
                     "requests") for purpose, share in slow.purposes.global_limited.items()),
        ]
    figures += [
        Figure("global requests per move in live play, four people", top.global_per_move,
               "requests", LIVE_REQUESTS_PER_MOVE_GOAL),
        *(Figure(f"global requests per move in live play, {purpose.value}", share,
                 "requests") for purpose, share in top.purposes.global_limited.items()),
    ]
    if census:
        figures.append(Figure("moves per second, saturated", census[Shape.FOUR].per_second,
                              "moves/s", lower_is_better=False))
    figures += _cpu_figures(paced[costed])
    low, high = plan.think
    info: dict[str, Any] = {
        "processes": "this one: the bot (client, table service, store); a child: the fake "
                     "Discord (REST + gateway on 127.0.0.1) and the people, who act only on "
                     "what Discord shows them" + _bot_processes(processes, workers),
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
        **({"bots": "first-option bots fill the empty seats of one-person tables"}
           if ones else {}),
        "rendering": "stubbed (render_table, render_result, render_rack return a 1x1 PNG)",
        "figures": f"latencies and requests/s at {shown} four-person tables, paced; "
                   f"CPU at {costed} (the most carried within the goals, else the most "
                   "measured); requests per move over whole games (census"
                   + (")" if census else ": not run with --http-workers)"),
    }
    played = ("to the end" if plan.census_moves is None
              else f"for {plan.census_moves} moves each")
    for shape, run in census.items():
        info[f"census, {shape.value}"] = (f"{run.tables} tables played {played}, people "
                                          f"answering at once: {run.describe()}")
    if slow is not None:
        info["census, four people, asynchronous"] = (
            f"{slow.tables} tables played {played}, people answering at once, every click "
            f"too old to carry a message (as hours apart): {slow.describe()}")
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
    if census:
        info["budget"] = _arithmetic(census[Shape.FOUR], paced, plan.scale)
    return figures, info


def run(quick: bool = False, progress: ProgressCallback | None = None,
        database: str = SQLITE, processes: int = 1, http_workers: int | None = None
        ) -> BenchResult:
    """The census of each table shape, then the paced levels; figures at the goal's load
    (or the largest level), the largest level meeting the goal, requests per move, the
    saturated throughput and the bot's CPU. Each world's database is a fresh one of
    `database` (see `bot.bench.databases`). With `processes` above 1 the bot has a shard
    per process, each run by a process of its own with a server of tables on it, all
    sharing the one database, which must then be PostgreSQL (as for `jongg run
    --processes`). With `http_workers` the bot takes its interactions as that many HTTP
    workers (see `_world`), on PostgreSQL too, and only the paced four-person tables are
    measured (`HTTP`): what N workers carry, and at what CPU."""
    if processes < 1 or (http_workers is not None and http_workers < 1):
        raise InvalidInput(f"--processes and --http-workers must be at least 1 (got "
                           f"{http_workers if processes >= 1 else processes}).")
    if http_workers is not None and processes > 1:
        raise InvalidInput("--http-workers runs one gateway process beside the workers: "
                           "give it no --processes.")
    if (processes > 1 or http_workers is not None) and database == SQLITE:
        raise InvalidInput("several bot processes share their games in PostgreSQL, as "
                           "`jongg run --processes` and `jongg run --http` workers do: add "
                           "--database postgresql (a throw-away server) or a "
                           "postgresql:// URL.")
    workers = http_workers or 0
    plan = ((HTTP_QUICK if quick else HTTP) if workers else (QUICK if quick else FULL))
    fake_mod, _ = checkout()
    # Asynchronous tables' census needs one bot process: the others' clicks are theirs.
    asynchronous = bool(plan.census) and processes == 1
    tick = Steps(progress, plan.steps + asynchronous)
    census: dict[Shape, _Run] = {}
    with bench_databases(database) as databases, stub_renderers(fake_mod.png(1, 1)), \
            Child("serve_child") as child:

        def world(shape: Shape, tables: int, start: Start | None, plays: list[Play],
                  stale_clicks: bool = False) -> list[_Run]:
            target = databases.new(f"{shape.name.lower()}_{len(census)}_{tables}")
            tune_process()  # as `jongg run` does (the last world's garbage collected first)
            return asyncio.run(_world(child, shape, tables, target, plan.scale, processes,
                                      start, plays, tick, workers, databases.server_pid,
                                      stale_clicks))

        def whole_games(shape: Shape, *, stale_clicks: bool = False) -> _Run:
            [run] = world(shape, plan.census, None, [Play(
                plan.census, AT_ONCE, None, moves=plan.census_moves, seed=SEED)],
                stale_clicks)
            return run

        for shape in Shape if plan.census else ():
            census[shape] = whole_games(shape)
        slow = whole_games(Shape.FOUR, stale_clicks=True) if asynchronous else None
        start = Start(plan.warmup, SEED)
        paced = dict(zip(plan.levels, world(Shape.FOUR, max(plan.levels), start, [
            Play(level, plan.think, plan.seconds, plan.settle, seed=SEED + level)
            for level in plan.levels]), strict=True))
        ones = dict(zip(plan.ones, world(Shape.ONE, max(plan.ones), start, [
            Play(level, plan.think, plan.seconds, plan.settle, seed=SEED + level)
            for level in plan.ones]), strict=True)) if plan.ones else {}
        shown = databases.shown
    figures, info = _report(plan, census, paced, ones, shown, processes, workers, slow)
    return BenchResult("discord", tuple(figures), {"quick": quick, **info})
