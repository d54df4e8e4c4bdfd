"""The `jongg` command line: real subcommands, real card files, exit codes and messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.bench.prompts import ALL_ON, CONFIGS, Count, play
from bot.cli.main import EXIT_BAD_INPUT, main
from bot.engine.cards.cost import MAX_CARD_COMBINATIONS, costliest_card_text
from bot.tables.seat_options import SeatOptions

GOOD_CARD = """\
card: CLI Test
year: 2026

[Year]
y1  FF Ya 222b 222c 22c = 25 X -- year and 2s
[Runs]
r1  11a 222a 3333a 444a 55a = 30 X shift=any
"""

BAD_CARD = """\
card: Broken

[Section]
h1  FF 2026 222b = 25 X
h1  FF 1111a 1111b 1111c = 25 X
h3  NNNN EEEE WWWW SS = 25 Q
"""


def test_card_check_accepts_a_good_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "good.jongg"
    path.write_text(GOOD_CARD)
    assert main(["card", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok  {path}: CLI Test (2026): 2 hands in 2 sections")


def test_card_check_lists_every_problem_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jongg"
    path.write_text(BAD_CARD)
    assert main(["card", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:4: group `2026` has numbers or D but no suit" in out
    assert f"{path}:5: hand id `h1` is already used on line 4" not in out  # line 4 failed
    assert f"{path}:6: `Q` must be X (exposures allowed) or C (concealed)." in out
    assert "1 of 1 card files have problems." in out


def test_card_check_refuses_a_card_over_the_compile_budget(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    over, fits = tmp_path / "over.jongg", tmp_path / "fits.jongg"
    over.write_text(costliest_card_text(MAX_CARD_COMBINATIONS + 1))
    fits.write_text(costliest_card_text(MAX_CARD_COMBINATIONS))
    assert main(["card", "check", str(over), str(fits)]) == 1
    out = capsys.readouterr().out
    assert (f"{over}:4: the card spans {MAX_CARD_COMBINATIONS + 1:,} combinations of suits, "
            "numbers and alternatives") in out
    assert "The costliest hands: `c1` on line 4 (4,096), `c2` on line 5 (4,096)" in out
    assert (f"ok  {fits}: Costliest: 8 hands in 1 sections, 0 concealed, 20000 variations "
            f"({MAX_CARD_COMBINATIONS:,} of {MAX_CARD_COMBINATIONS:,} combinations)") in out
    assert "1 of 2 card files have problems." in out


def test_card_check_reports_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["card", "check", "/nonexistent/card.jongg"]) == 1
    assert ("Can't read `/nonexistent/card.jongg`: No such file or directory."
            in capsys.readouterr().out)


def test_analyze_finds_mahjong_on_a_card_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "good.jongg"
    path.write_text(GOOD_CARD)
    assert main(["analyze", "FF 2026B 222C 2222D J", "--card", str(path)]) == 0
    out = capsys.readouterr().out
    assert "MAH JONGG: y1 (Year, 25, exposed), worth 25: FF  2026B  222C  22D J  22D" in out


def test_analyze_shows_waits_for_thirteen_tiles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "good.jongg"
    path.write_text(GOOD_CARD)
    assert main(["analyze", "2233344445566B", "--card", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Waiting for: 5 Bam (r1); Joker (r1)" in out


def test_bad_tiles_give_a_clear_error_and_no_traceback() -> None:
    result = subprocess.run([sys.executable, "-m", "bot", "analyze", "FF 2026Q"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "I don't know the tile `2026Q`. `q` is not a suit (B, C or D)." in result.stderr


def test_unknown_card_name_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "FF", "--card", "no-such-card"]) == 2
    assert "There is no card called `no-such-card`." in capsys.readouterr().err


def test_bench_cards_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "cards", "--quick", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    names = [figure["name"] for figure in report["figures"]]
    assert names == ["mahjong check, median", "nearest hands (5), median",
                     "waits (13 tiles), median", "whole-card check, batch"]
    assert report["info"]["batch_winners"] > 0
    assert all(figure["value"] > 0 for figure in report["figures"])


def test_bench_hints_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "hints", "--quick", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    figures = {figure["name"]: figure for figure in report["figures"]}
    assert figures["two-rack hint, p95"]["value"] > 0
    assert figures["hint with its picture, p95"]["value"] > 0
    assert figures["split of a random deal, max"]["value"] > 0
    assert "turns of seat 0 with two live racks" in report["info"]["holdings"]


def test_no_arguments_shows_cards_and_a_sample(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "jongg-original" in out and "jongg-teaching" in out
    assert "Nearest hands:" in out


def test_bench_loop_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "loop", "--quick", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    figures = {figure["name"]: figure for figure in report["figures"]}
    for mode in ("idle", "(a) on the loop", "(b) in a thread", "(c) in a process"):
        for measure in ("wall time", "loop lag max", "loop lag p99", "round trip max"):
            assert figures[f"{mode}: {measure}"]["value"] >= 0
    assert figures["costliest card: compile"]["value"] > 0
    assert report["info"]["costliest card variations"] == report["info"]["budget_combinations"]
    assert "the card spans 1,024,000 combinations" in report["info"]["old-limit card"]


def test_bench_prompts_counts_the_decision_points_that_need_a_person(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "prompts", "--games", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    shares = [figure["value"] for figure in report["figures"]]
    assert len(shares) == len(CONFIGS) and all(0 < share < 100 for share in shares)
    # The more the options answer, the fewer decision points need the person.
    assert shares == sorted(shares, reverse=True)
    with pytest.raises(SystemExit, match="prompts"):  # the other benchmarks take no --games
        main(["bench", "engine", "--games", "1"])


def test_a_game_of_people_with_every_option_on_asks_no_claim_and_every_turn_by_default(
) -> None:
    every, default = Count(), Count()
    play(ALL_ON, 1, every)
    play(SeatOptions(), 1, default)
    assert every.claims and every.claims_asked == 0  # Mah Jongg calls only, declared at once
    assert default.turns and default.turns_asked == default.turns  # nothing plays a turn
    assert 0 < default.claims_asked < default.claims  # only discards one could call


@pytest.mark.parametrize(("argv", "said"), [
    (["bench", "engine", "--processes", "2"], "for `jongg bench discord` only"),
    (["bench", "discord", "--processes", "0"], "a count of 1 or more"),
    (["bench", "discord", "--processes", "1,2,3"], "a count of 1 or more"),
    (["bench", "discord", "--processes", "2", "--database", "sqlite"], "PostgreSQL"),
    (["bench", "discord", "--processes", "1,2", "--database", "both"], "not both at once"),
    (["bench", "store", "--http-workers", "2"], "for `jongg bench discord` only"),
    (["bench", "discord", "--http-workers", "0"], "a count of 1 or more"),
    (["bench", "discord", "--http-workers", "1", "--database", "sqlite"], "PostgreSQL"),
    (["bench", "discord", "--http-workers", "2", "--processes", "2"], "no --processes"),
])
def test_bench_processes_refuses_what_cannot_run(argv: list[str], said: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """`--processes` (and `--http-workers`) is refused, before anything starts, where it
    makes no sense: another target, a count below 1 or more than two counts, several
    processes on SQLite (they share their games in PostgreSQL), both databases and two
    counts at once, and workers with shard processes."""
    assert main(argv) == EXIT_BAD_INPUT
    assert said in capsys.readouterr().err
