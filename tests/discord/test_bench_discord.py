"""`jongg bench discord --quick` runs end to end, the fake Discord and the people in a process
of their own, and reports every figure and every level's requests against the limits, with
the bot's games in SQLite and (where the server binaries are) in PostgreSQL."""

from __future__ import annotations

import re

import pytest

from bot.bench.discord import (
    GAMES_GOAL,
    LATENCY_GOAL_MS,
    LIVE_REQUESTS_PER_MOVE_GOAL,
    REQUESTS_PER_MOVE_GOAL,
    run,
)
from bot.bench.discord_measure import Purpose
from bot.store.throwaway import INSTALL, NOT_FOUND, find_binaries

NO_POSTGRES = f"{NOT_FOUND}, so the bench ran on SQLite only ({INSTALL})."


@pytest.mark.parametrize("database", [
    "sqlite",
    pytest.param("postgresql", marks=pytest.mark.skipif(find_binaries() is None,
                                                         reason=NO_POSTGRES)),
])
def test_quick_bench_measures_every_figure(database: str) -> None:
    ticks: list[tuple[int, int]] = []
    result = run(quick=True, progress=lambda done, total: ticks.append((done, total)),
                 database=database)
    figures = {f.name: f for f in result.figures}
    report = result.as_text()
    for name in ("click to commit p95", "commit to messages p95"):
        assert 0 < figures[name].value < 60_000, report
        assert figures[name].goal == LATENCY_GOAL_MS
    assert figures["concurrent games"].goal == GAMES_GOAL
    assert not figures["concurrent games"].lower_is_better
    assert figures["global requests per move, four people"].goal == REQUESTS_PER_MOVE_GOAL
    assert figures["global requests per move, four people"].value > 0, report
    assert figures["moves per second, saturated"].value > 0
    # Live play, by what the requests were for as the bot saw them: together they are what
    # the fake counted against the global limit.
    live = figures["global requests per move in live play, four people"]
    assert live.goal == LIVE_REQUESTS_PER_MOVE_GOAL
    by_purpose = [figures[f"global requests per move in live play, {purpose.value}"].value
                  for purpose in Purpose]
    assert abs(sum(by_purpose) - live.value) < 0.05, report
    census = result.info["census, four people"]
    limited = census.split("bot's token (global-limited): ")[1].split(";")[0]
    counted = sum(float(n) for n in re.findall(r"\d+\.\d+", limited))
    whole = figures["global requests per move, four people"].value
    assert whole > 0 and abs(counted - whole) < 0.05, report
    # Asynchronous tables: no click young enough, so prompts and draws take the bot's token.
    slow = figures["global requests per move, four people, asynchronous"].value
    assert slow > whole, report
    assert figures["global requests per move, asynchronous, prompts"].value > 0, report
    levels = [key for key in result.info if key.endswith(", paced") or "census" in key]
    assert len(levels) == 5, report
    for key in levels:
        assert "requests/s: interaction callbacks" in result.info[key], report
        assert "per move by purpose, bot's token (global-limited): table posts" in (
            result.info[key]), report
        assert " 0 answered 429" in result.info[key], report
    assert "PROBLEMS" not in report, report
    assert "stubbed" in result.info["rendering"]
    assert ticks and ticks[-1][0] == ticks[-1][1]
    assert result.as_json()["target"] == "discord"
    assert result.info["database"].startswith(
        "SQLite" if database == "sqlite" else "PostgreSQL: a throw-away server")


@pytest.mark.skipif(find_binaries() is None, reason=NO_POSTGRES)
def test_quick_bench_runs_the_bot_as_two_processes() -> None:
    """With `processes=2` the bot is two processes sharing one PostgreSQL, a server of
    tables on each shard: both do their part (two CPU shares), and between them nothing is
    refused, and a move costs about what it costs in one process (at the goal; each message
    sent by both processes once cost 18% more: `test_jongg_shards` checks that exactly)."""
    result = run(quick=True, database="postgresql", processes=2)
    report = result.as_text()
    assert "PROBLEMS" not in report, report
    assert "shard k of 2 each" in result.info["processes"], report
    levels = [key for key in result.info if key.endswith(", paced") or "census" in key]
    assert len(levels) == 4, report
    for key in levels:
        assert " 0 answered 429" in result.info[key], report
        assert re.search(r"CPU bot \d+% \+ \d+%", result.info[key]), report
    figures = {f.name: f for f in result.figures}
    per_move = figures["global requests per move, four people"].value
    assert 0 < per_move < 1.1 * REQUESTS_PER_MOVE_GOAL, report


@pytest.mark.skipif(find_binaries() is None, reason=NO_POSTGRES)
def test_quick_bench_runs_the_bot_as_http_workers() -> None:
    """With `http_workers=2` every interaction goes over HTTP to two worker processes in
    turn, beside the gateway's (this one): the paced tables are measured (no census), both
    workers do their part (a CPU share each besides the gateway's), nothing is refused, and
    the bot's CPU per move and per table are there and agree with each other."""
    result = run(quick=True, database="postgresql", http_workers=2)
    report = result.as_text()
    assert "PROBLEMS" not in report, report
    assert "the bot as 2 HTTP workers" in result.info["processes"], report
    assert not any("census" in key for key in result.info), report
    [level] = [key for key in result.info if key.endswith(", paced")]
    assert " 0 answered 429" in result.info[level], report
    shares = re.search(r"CPU bot (\d+)% \+ (\d+)% \+ (\d+)%", result.info[level])
    assert shares, report
    assert all(int(share) > 0 for share in shares.groups()[1:]), report
    # The interactions reached the workers only: their answers rode in the HTTP responses.
    assert "interaction callbacks 0.0," in result.info[level], report
    figures = {f.name: f for f in result.figures}
    for name in ("click to commit p95", "commit to messages p95"):
        assert 0 < figures[name].value < 60_000, report
    assert figures["concurrent games"].value in (0, 4), report  # the quick plan's one level
    per_move, per_table = figures["bot CPU per move"], figures["bot CPU per table"]
    assert 0 < per_move.value < 1000 and 0 < per_table.value < 100, report
    assert figures["tables per core of bot CPU"].value == pytest.approx(
        100 / per_table.value), report
    assert figures["database CPU per move"].value > 0, report
    both = figures["tables per core of bot and database CPU"].value
    assert 0 < both < figures["tables per core of bot CPU"].value, report
    assert figures["machine cores busy"].value > 0, report
