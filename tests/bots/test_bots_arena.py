"""The duplicate arena: every challenger seat played once per seed on the same deal, a
bootstrap clustered by seed, the SPRT's stop (on planted strong-weak pairs: Normal against
random, and Normal against Easy), the same report and log for any number of jobs, the
replayable JSON log and the command (the 20-seed normal-vs-random run is the CI smoke arena,
not a strength claim)."""

from __future__ import annotations

import io
import json
import signal
import statistics
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import bot.bots.arena
import bot.cli.main
from bot.bots.arena import (
    ArenaReport,
    SeatGame,
    arena,
    bootstrap_ci,
    bot_seed_of,
    compare_logs,
    sprt,
)
from bot.engine.errors import InvalidInput
from bot.engine.game import STANDARD, THREE_PLAYER, parse_action, preset, replay
from bot.engine.game.rules import seat_names
from bot.engine.game.state import finishing
from bot.library import shipped_card


def _games(points_by_seed: dict[int, list[int]]) -> list[SeatGame]:
    return [SeatGame(seed, points, won=False, self_picked=False, fed=False, wall=False,
                     dead=False, jokerless=False)
            for seed, points_list in points_by_seed.items() for points in points_list]


def test_the_bootstrap_resamples_seeds_not_games() -> None:
    """Every seed has the same mean but its games differ wildly: resampling whole seeds gives
    that mean every time (an interval of no width), where resampling games would not."""
    games = _games({seed: [100, -100, 40, -40] for seed in range(30)})
    assert bootstrap_ci(games) == (0.0, 0.0)
    spread = _games({seed: [seed * 10] * 4 for seed in range(30)})
    low, high = bootstrap_ci(spread)
    assert low < 145.0 < high


def test_the_bootstrap_is_deterministic() -> None:
    games = _games({seed: [seed % 7 * 25 - 50, 10 - seed % 3] for seed in range(40)})
    assert bootstrap_ci(games) == bootstrap_ci(list(games))
    assert bootstrap_ci(games, seed=1) != bootstrap_ci(games, seed=2)


def test_the_interval_is_a_95_percent_one() -> None:
    """On 400 seeds of one game each, the bootstrap's spread of the mean is the data's
    standard error, so a 95 % interval reaches 1.96 standard errors each side of the mean (a
    90 % one 1.64, a 99 % one 2.58): each side lands within 0.15 of 1.96."""
    points = [seed * 37 % 101 - 50 for seed in range(400)]
    games = _games({seed: [p] for seed, p in enumerate(points)})
    mean, error = statistics.fmean(points), statistics.pstdev(points) / len(points) ** 0.5
    z = statistics.NormalDist().inv_cdf(0.975)
    low, high = bootstrap_ci(games)
    assert (mean - low) / error == pytest.approx(z, abs=0.15)
    assert (high - mean) / error == pytest.approx(z, abs=0.15)


def test_the_interval_ends_hardly_move_with_the_bootstrap_seed() -> None:
    """Enough resamples that the bootstrap's own noise cannot flip a close call: over 20
    bootstrap seeds each end of the interval varies by under 0.04 standard errors of the
    mean (about 0.027 with 10,000 resamples; with 2,000 it is about 0.06)."""
    points = [seed * 37 % 101 - 50 for seed in range(400)]
    games = _games({seed: [p] for seed, p in enumerate(points)})
    error = statistics.pstdev(points) / len(points) ** 0.5
    lows, highs = zip(*(bootstrap_ci(games, seed=s) for s in range(20)), strict=True)
    assert statistics.stdev(lows) / error < 0.04
    assert statistics.stdev(highs) / error < 0.04


def test_the_sprt_tests_the_headline_figure_in_points_a_game(tmp_path: Path) -> None:
    """The SPRT weighs what the report's headline gives, the challenger's points per game
    (each seed's mean over its seat-games, as the log's payments say), not its lead over
    the field, which at four players is 4/3 of that."""
    log = tmp_path / "games.jsonl"
    report = arena(STANDARD, shipped_card(), "normal", "random", 12, seed=5, delta=5.0,
                   log=str(log))
    by_seed: dict[int, list[int]] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        by_seed.setdefault(record["seed"], []).append(
            record["payments"][record["challenger_seat"]])
    per_seed = [statistics.fmean(points) for points in by_seed.values()]
    assert report.sprt is not None and report.sprt.seeds == len(per_seed)
    assert report.sprt.llr == pytest.approx(sprt(per_seed, 5.0).llr)
    assert statistics.fmean(per_seed) == pytest.approx(report.challenger.points_per_game)


def test_sprt_decides_each_way_and_waits_for_enough_seeds() -> None:
    better = [12.0, 8.0, 15.0, 9.0, 11.0, 13.0, 7.0, 10.0, 14.0, 12.0]
    assert sprt(better[:5], 5.0).decision == "undecided"
    assert sprt(better, 5.0).decision == "better"
    worse = [-d for d in better]
    assert sprt(worse, 5.0).decision == "not better"


def _log(players: int, seeds: int, challenger: str, field: str) -> list[dict[str, Any]]:
    rules = {4: STANDARD, 3: THREE_PLAYER}[players]
    stream = io.StringIO()
    arena(rules, shipped_card(), challenger, field, seeds, seed=4, log=stream)
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.mark.parametrize("players", [4, 3])
def test_every_challenger_seat_is_played_once_per_seed_on_the_same_deal(players: int) -> None:
    records = _log(players, 2, "normal", "random")
    assert len(records) == 2 * players
    card = shipped_card()
    for seed in {r["seed"] for r in records}:
        games = [r for r in records if r["seed"] == seed]
        assert sorted(r["challenger_seat"] for r in games) == list(range(players))
        deals = set()
        for record in games:
            chair = record["challenger_seat"]
            assert record["kinds"] == ["normal" if s == chair else "random"
                                       for s in range(players)]
            assert list(record["targets"]) == [seat_names(players)[chair]]
            state, _ = replay(preset(record["rules"]), card, seed, record["players"], [])
            deals.add((state.tiles, state.wall))
        assert len(deals) == 1


def test_same_kind_on_both_sides_is_not_called_better(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = bot.cli.main.main(["arena", "--challenger", "random", "--field", "random", "--seeds",
                         "40", "--seed", "2", "--sprt", "10"])
    assert code == 0
    out = capsys.readouterr().out
    assert "jongg arena: random against random" in out
    verdict = next(line for line in out.splitlines() if "SPRT" in line)
    assert ": not better after" in verdict or ": undecided after" in verdict


@pytest.mark.parametrize(("challenger", "field"), [("normal", "random"), ("normal", "easy")])
def test_sprt_stops_a_strong_challenger_against_a_weak_field_early(challenger: str,
                                                                   field: str) -> None:
    report = arena(STANDARD, shipped_card(), challenger, field, 200, seed=3, delta=5.0)
    assert report.sprt is not None and report.sprt.decision == "better"
    assert report.seeds_played < 50 and report.games == report.seeds_played * 4


def _without_timings(report: ArenaReport) -> dict[str, Any]:
    data = report.as_json()
    for key in ("seconds", "games_per_second"):
        data.pop(key)
    for side in ("challenger", "field"):
        for key in ("decision_p50_ms", "decision_p95_ms"):
            data[side].pop(key)
    return data


def test_jobs_give_the_same_report_and_log_as_one_process() -> None:
    """Two worker processes play the seeds; results are taken in seed order, so the report
    (bar the timings) and every log line are those of one process, an SPRT stop included."""
    logs = [io.StringIO(), io.StringIO()]
    one, two = (arena(STANDARD, shipped_card(), "strong", "easy", 3, seed=6, log=logs[i],
                      jobs=jobs) for i, jobs in enumerate((1, 2)))
    assert _without_timings(one) == _without_timings(two)
    assert logs[0].getvalue() == logs[1].getvalue() and logs[0].getvalue().count("\n") == 12
    stopped = [arena(STANDARD, shipped_card(), "normal", "random", 40, seed=3, delta=5.0,
                     jobs=jobs) for jobs in (1, 2)]
    assert _without_timings(stopped[0]) == _without_timings(stopped[1])
    assert stopped[0].seeds_played < 40


def _signal_without_masks(calls: list[tuple[object, ...]]) -> SimpleNamespace:
    """The `signal` module as Windows has it (no `pthread_sigmask`), its handlers noted in
    `calls` instead of set."""
    names = {name: getattr(signal, name) for name in dir(signal)
             if not name.startswith("_") and name != "pthread_sigmask"}
    names["signal"] = lambda *args: calls.append(args)
    return SimpleNamespace(**names)


def test_jobs_work_where_signals_cant_be_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no signal masks: the parent does not hold Ctrl-C back while workers start
    (it can't), a worker ignores it from its initializer on, and the seeds are played as
    anywhere else."""
    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr(bot.bots.arena, "signal", _signal_without_masks(calls))
    bot.bots.arena._start_worker(None)  # type: ignore[arg-type]
    assert calls == [(signal.SIGINT, signal.SIG_IGN)]
    one, two = (arena(STANDARD, shipped_card(), "easy", "random", 2, seed=9, jobs=jobs)
                for jobs in (1, 2))
    assert _without_timings(one) == _without_timings(two)
    assert calls == [(signal.SIGINT, signal.SIG_IGN)]  # the parent's handler left alone


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The CI smoke arena: 20 seeds, Normal against random, four players, JSON and log."""
    log = tmp_path_factory.mktemp("arena") / "games.jsonl"
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdout", out)
        code = bot.cli.main.main(["arena", "--challenger", "normal", "--field", "random",
                             "--seeds", "20", "--json", "--log", str(log)])
    assert code == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data, log


def test_the_smoke_arena_reports_both_sides_in_json(smoke: tuple[dict[str, Any], Path]) -> None:
    data, _ = smoke
    assert data["seeds_played"] == 20 and data["games"] == 80 and data["sprt"] is None
    mine, theirs = data["challenger"], data["field"]
    assert (mine["kind"], theirs["kind"]) == ("normal", "random")
    assert mine["games"] == 80 and theirs["games"] == 240
    for side in (mine, theirs):
        assert side["ci_low"] <= side["points_per_game"] <= side["ci_high"]
        assert 0 <= side["decision_p50_ms"] <= side["decision_p95_ms"]
        assert side["decisions"] > 0
    # Settlements are zero-sum, so the field's seat-games pay what the challenger's take.
    assert mine["points_per_game"] * 80 == pytest.approx(-theirs["points_per_game"] * 240)


def test_every_logged_game_replays_exactly(smoke: tuple[dict[str, Any], Path]) -> None:
    _, log = smoke
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 80
    card = shipped_card()
    for record in records:
        rules = preset(record["rules"])
        actions = [parse_action(text, rules.players) for text in record["actions"]]
        state, _ = replay(rules, card, record["seed"], record["players"], actions)
        assert state.result is not None
        assert list(state.result.settlement) == record["payments"]
        assert state.result.reason.value == record["result"]
        win = finishing(state.result.reason, state.result.declared)
        winds = seat_names(rules.players)
        assert record["winner"] == (None if win is None else winds[win.seat])
        assert record["feeder"] == (None if win is None or win.discarder is None
                                    else winds[win.discarder])
    assert any(r["winner"] is not None for r in records)


def _exit_code(arguments: list[str]) -> int:
    """The exit code of `jongg arena ...`, whether argparse or the command refused it."""
    try:
        return bot.cli.main.main(["arena", *arguments])
    except SystemExit as stop:
        return int(stop.code or 0)


@pytest.mark.parametrize("arguments", [
    ["--challenger", "nobody", "--field", "random", "--seeds", "2"],
    ["--challenger", "random", "--field", "random", "--seeds", "-3"],
    ["--challenger", "random", "--field", "random", "--seeds", "2", "--sprt", "0"],
    ["--challenger", "random", "--field", "random", "--seeds", "2", "--jobs", "0"],
])
def test_mistakes_are_one_line_and_exit_2(arguments: list[str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code(arguments) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_an_unreadable_card_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card = tmp_path / "bad.jongg"
    card.write_bytes(b"\x00\xffnot a card")
    code = bot.cli.main.main(["arena", "--challenger", "random", "--field", "random",
                         "--seeds", "1", "--card", str(card)])
    assert code == 2
    assert capsys.readouterr().err.startswith("jongg: ")


def _lines(records: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(record) + "\n" for record in records]


def _record(seed: int, seat: int, points: int, challenger: str) -> dict[str, Any]:
    """The parts of an arena log line a comparison reads (the rest plays no part)."""
    payments = [-points // 3] * 4
    payments[seat] = points
    kinds = ["random"] * 4
    kinds[seat] = challenger
    return {"seed": seed, "rules": "standard", "card": "Jongg Original", "kinds": kinds,
            "challenger_seat": seat, "payments": payments}


def test_two_runs_are_compared_seed_by_seed_on_the_shared_deals() -> None:
    before = [_record(seed, seat, 10 * seed + seat, "easy")
              for seed in range(1, 7) for seat in range(4)]
    after = [_record(seed, seat, 30 * seed - seat * seat, "normal")
             for seed in range(1, 7) for seat in range(4)]
    comparison = compare_logs(_lines(before), _lines(after))
    # The games of a seed pair with the same seed's games, wherever their lines are.
    assert compare_logs(_lines(before[::-1]), _lines(after)) == comparison
    by_game = {(r["seed"], r["challenger_seat"]): r["payments"][r["challenger_seat"]]
               for r in before}
    differences = [r["payments"][r["challenger_seat"]]
                   - by_game[r["seed"], r["challenger_seat"]] for r in after]
    assert (comparison.seeds, comparison.games) == (6, 24)
    assert (comparison.before, comparison.after, comparison.field) == ("easy", "normal",
                                                                       "random")
    assert comparison.difference == pytest.approx(sum(differences) / 24)
    assert comparison.after_points - comparison.before_points == pytest.approx(
        comparison.difference)
    assert comparison.ci_low < comparison.difference < comparison.ci_high
    same = compare_logs(_lines(after), _lines(after[::-1]))
    assert (same.difference, same.ci_low, same.ci_high) == (0.0, 0.0, 0.0)


def test_only_deals_both_runs_played_in_full_are_compared() -> None:
    before, after = _log(4, 3, "normal", "random"), _log(4, 3, "normal", "random")
    first_seed = after[0]["seed"]
    partial = [r for r in after if not (r["seed"] == first_seed
                                        and r["challenger_seat"] == 3)]
    comparison = compare_logs(_lines(before), _lines(partial))
    assert (comparison.seeds, comparison.games) == (2, 8)


@pytest.mark.parametrize(("before", "after", "message"), [
    (['{"seed": 1}\n'], None, "Line 1 of the first log is not a game"),
    ([], None, "holds no games"),
    (None, "other field", "different games"),
    (None, "other deals", "share no deal"),
])
def test_logs_that_cant_be_compared_are_refused_plainly(
        before: list[str] | None, after: str | None, message: str) -> None:
    good = _lines(_log(4, 2, "normal", "random"))
    second = good
    if after == "other field":
        second = _lines(_log(4, 2, "normal", "easy"))
    elif after == "other deals":
        second = [line.replace('"seed": ', '"seed": 1') for line in good]
    with pytest.raises(InvalidInput, match=message):
        compare_logs(before if before is not None else good, second)


def test_jongg_arena_compare_prints_the_figures(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    before.write_text("".join(_lines(_log(4, 2, "easy", "random"))), encoding="utf-8")
    after.write_text("".join(_lines(_log(4, 2, "normal", "random"))), encoding="utf-8")
    assert bot.cli.main.main(["arena-compare", str(before), str(after), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["seeds"], data["games"], data["before"], data["after"]) == (2, 8, "easy",
                                                                             "normal")
    assert bot.cli.main.main(["arena-compare", str(before), str(tmp_path / "missing")]) == 2
    assert f"Can't read `{tmp_path / 'missing'}`" in capsys.readouterr().err


def test_a_bot_seeded_apart_from_its_own_kind_plays_other_games_and_its_interval_holds_zero(
) -> None:
    """With the field's bot seeds, a bot against itself replays the field's games exactly (0,
    with no spread); seeded apart (`bot_seed`) it plays games of its own, and the interval of
    two equal bots still holds zero."""
    card = shipped_card()
    same = arena(STANDARD, card, "easy", "easy", 24, seed=5)
    assert (same.challenger.points_per_game, same.challenger.ci_low,
            same.challenger.ci_high) == (0.0, 0.0, 0.0)
    apart = arena(STANDARD, card, "easy", "easy", 24, seed=5, bot_seed=1)
    assert apart.bot_seed == 1 and apart.challenger.points_per_game != 0.0
    assert apart.challenger.ci_low < 0.0 < apart.challenger.ci_high


def test_the_challengers_bot_seeds_never_meet_a_seat_of_any_game() -> None:
    """`bot_seed_of` moves a seeded challenger above every seat seed of every game seed."""
    highest_seat_seed = bot_seed_of(2**31 - 1, 7, 0)
    assert bot_seed_of(0, 0, 1) > highest_seat_seed
    assert bot_seed_of(12345, 2, 0) == 12345 * 8 + 2
