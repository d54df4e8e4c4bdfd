"""`jongg bench store`: how long the store's operations take that a game makes, on the
database `--database` names (SQLite by default; `--database both` side by side).

One fresh database holds a made-up league season (for the standings read) and the games the
bench starts. Each operation is timed alone, one call after another, as the table service
calls it (so a figure is the latency one caller sees, its transaction and the trips to the
database included; operations per second are one over the mean):

* create + start a game: the lobby's transactions (the game, four seats, the start);
* append one move: `append_actions` with one action, its clocks (a turn and a reminder
  clock replacing the last move's) and its outbox entries (the table's post and each seat's
  update), one commit, round the started games in turn;
* claim due clocks: `claim_due` while a tenth of those games have clocks due;
* outbox claim + mark sent: a sender's work for one move, `Outbox.claim` of the game and
  `mark_sent` of that move's entries (awaited);
* load a game of 300 actions: `load_game`, what a process does for a game not live in it;
* league standings: `league_stats.standings` of the season.

On PostgreSQL the database runs in a server process on the same machine (a throw-away one
has durability off, see `bot.store.throwaway`); on SQLite in this process's thread.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.bench import BenchResult, Figure, ProgressCallback, Steps, percentile
from bot.bench.databases import SQLITE, bench_databases
from bot.bench.seeding import big_season, started_game
from bot.store import (
    ClockKind,
    ClockPlan,
    Database,
    DeliveryKind,
    NewDelivery,
    OutboxEntry,
)


@dataclass(frozen=True)
class _Plan:
    """How many calls each operation gets, the games moves go round, the season's size and
    the length of the game that is loaded."""

    calls: int
    reads: int
    games: int
    season_games: int
    season_players: int
    long_game: int


FULL = _Plan(calls=500, reads=100, games=50, season_games=2_000, season_players=200,
             long_game=300)
QUICK = _Plan(calls=20, reads=10, games=10, season_games=100, season_players=20,
              long_game=300)
#: Goals for the p95 of the operations a click waits for, in milliseconds: a move's commit
#: and a game's load share the click->commit budget (100 ms); standings as
#: `jongg bench league`'s.
APPEND_GOAL_MS = 100.0
LOAD_GOAL_MS = 100.0
STANDINGS_GOAL_MS = 200.0
SEATS = 4
#: A game's clocks after a move, as a live table sets them: the turn's and its reminder.
TURN_SECONDS, REMINDER_SECONDS = 90.0, 60.0
#: One game in this many has its clocks due (in the past) for `claim_due` to find.
DUE_EVERY = 10


async def _timed(call: Callable[[int], Awaitable[Any]], count: int,
                 tick: Callable[[], None]) -> list[float]:
    """Each of `count` calls' wall time in milliseconds (`call(n)` for n = 0, 1, …)."""
    samples = []
    for n in range(count):
        start = time.perf_counter()
        await call(n)
        samples.append((time.perf_counter() - start) * 1000)
    tick()
    return samples


def _move(game_id: int, seq: int, due: float) -> dict[str, Any]:
    """`append_actions`' arguments for one move of a started game at log length `seq`."""
    return {
        "game_id": game_id, "expected_seq": seq, "actions": [(f"discard {seq % SEATS} 3B",
                                                              1000 + seq % SEATS)],
        "clocks": ClockPlan(kinds=(ClockKind.TURN, ClockKind.REMINDER),
                            clocks=((ClockKind.TURN, (seq + 1) % SEATS, due),
                                    (ClockKind.REMINDER, (seq + 1) % SEATS,
                                     due - TURN_SECONDS + REMINDER_SECONDS)),
                            at_seq=seq + 1),
        "outbox": [NewDelivery(DeliveryKind.TABLE, seq + 1, None, '{"post": "table"}'),
                   *(NewDelivery(DeliveryKind.SEAT, seq + 1, seat, '{"post": "rack"}')
                     for seat in range(SEATS))],
    }


async def _measure(target: str, plan: _Plan, progress: ProgressCallback | None
                   ) -> dict[str, list[float]]:
    tick = Steps(progress, 7)
    samples: dict[str, list[float]] = {}
    async with Database(target) as db:
        season = await big_season(db, games=plan.season_games, players=plan.season_players)
        tick()
        games: list[int] = []

        async def create(n: int) -> None:
            game = await started_game(db, n, [1000 + seat for seat in range(SEATS)])
            games.append(game.id)

        samples["create + start a game"] = await _timed(create, plan.calls, tick)
        playing = games[:plan.games]
        seqs = dict.fromkeys(playing, 0)
        sent: list[tuple[int, tuple[OutboxEntry, ...]]] = []

        async def append(n: int) -> None:
            game_id = playing[n % len(playing)]
            due = db.now() + (-1.0 if n % len(playing) % DUE_EVERY == 0 else TURN_SECONDS)
            entries = await db.actions.append_actions(**_move(game_id, seqs[game_id], due))
            seqs[game_id] += 1
            sent.append((game_id, entries))

        samples["append one move (clocks, outbox)"] = await _timed(append, plan.calls, tick)

        async def claim_due(_: int) -> None:
            await db.clocks.claim_due()

        samples["claim due clocks"] = await _timed(claim_due, plan.calls, tick)

        async def deliver(n: int) -> None:
            game_id, entries = sent[n]
            await db.outbox.claim(game_id)
            await db.outbox.mark_sent([(entry.id, [n * 10 + i]) for i, entry in
                                       enumerate(entries)])

        samples["outbox claim + mark sent"] = await _timed(deliver, len(sent), tick)
        long_game = games[-1]
        for seq in range(plan.long_game):
            await db.actions.append_actions(**_move(long_game, seq, db.now() + TURN_SECONDS))

        async def load(_: int) -> None:
            record = await db.games.load_game(long_game)
            assert len(record.actions) == plan.long_game

        samples[f"load a game of {plan.long_game} actions"] = await _timed(load, plan.reads,
                                                                            tick)

        async def standings(_: int) -> None:
            await db.league_stats.standings(season.id)

        samples[f"league standings, {plan.season_games:,} games"] = await _timed(
            standings, plan.reads, tick)
    return samples


def _goal(name: str) -> float | None:
    if name.startswith("append"):
        return APPEND_GOAL_MS
    if name.startswith("load"):
        return LOAD_GOAL_MS
    if name.startswith("league"):
        return STANDINGS_GOAL_MS
    return None


def _figures(samples: dict[str, list[float]]) -> list[Figure]:
    figures = []
    for name, times in samples.items():
        mean = statistics.fmean(times)
        figures += [
            Figure(f"{name}: p50", percentile(times, 50), "ms"),
            Figure(f"{name}: p95", percentile(times, 95), "ms", _goal(name)),
            Figure(f"{name}: mean", mean, "ms"),
            Figure(f"{name}: ops/s", 1000 / mean, "ops/s", lower_is_better=False),
        ]
    return figures


def run(quick: bool = False, progress: ProgressCallback | None = None,
        database: str = SQLITE) -> BenchResult:
    """Time each operation on a fresh database (`database`: see `bot.bench.databases`)."""
    plan = QUICK if quick else FULL
    with bench_databases(database) as databases:
        samples = asyncio.run(_measure(databases.new("store"), plan, progress))
        shown = databases.shown
    info: dict[str, Any] = {
        "database": shown, "quick": quick,
        "calls": {name: len(times) for name, times in samples.items()},
        "moves": f"round {plan.games} started games of {SEATS} seats, one action, 2 clocks "
                 f"and {SEATS + 1} outbox entries each; 1 game in {DUE_EVERY} has its "
                 "clocks due",
        "season": f"{plan.season_games:,} games among {plan.season_players} players",
    }
    return BenchResult("store", tuple(_figures(samples)), info)
