"""Every way a person or their machine can make `jongg` fail ends in one clear line on stderr
and a non-zero exit, never a traceback: bad options, impossible hands, paths that can't be
written, huge or endless files, a reader that goes away, and a bug in Jongg itself (one line
naming the file that holds the traceback). `jongg run`'s failures (token, network, database)
are in tests/discord/test_jongg_run.py."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

import pytest

import bot.cli.card
from bot.cli.main import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_BUG, EXIT_FAILED, main
from bot.engine.cards.parser import MAX_FILE_BYTES
from bot.engine.errors import CardError
from bot.library import card_file_bytes
from bot.store.rows import INT64_MAX

ROOT = Path(__file__).resolve().parents[1]
HAND = "FF 2026B 222C 2222D J"


def run_jongg(*args: str, stdout: int | None = subprocess.PIPE,
              timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` in a fresh process, as a person runs it: stdout buffered as in a
    shell (PYTHONUNBUFFERED, which some CI sets, would hide a failure at the last flush)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "bot", *args], stdout=stdout,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=env,
                          timeout=timeout, check=False)


def one_line(err: str) -> str:
    """The single line a failure printed (the test fails if there is more or none)."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# -- options refused while the arguments are read ------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["analyze", HAND, "--count", "0"],
     "jongg analyze: argument --count: must be a whole number from 1 to 1000000, not 0."),
    (["analyze", HAND, "--count", "many"],
     "jongg analyze: argument --count: `many` is not a whole number from 1 to 1000000."),
    (["simulate", "--games", "0"],
     "jongg simulate: argument --games: must be a whole number from 1 to 1000000, not 0."),
    # A count or a seed too large to mean anything was taken, and ran for ever (#33 item 6).
    (["simulate", "--games", "99999999999999999999999"],
     "jongg simulate: argument --games: must be a whole number from 1 to 1000000, not "
     "99999999999999999999999."),
    (["simulate", "--seed", "-1"],
     f"jongg simulate: argument --seed: must be a whole number from 0 to {INT64_MAX}, not -1."),
    (["arena", "--challenger", "easy", "--field", "easy", "--seeds", "2", "--seed", "2**70"],
     f"jongg arena: argument --seed: `2**70` is not a whole number from 0 to {INT64_MAX}."),
    (["card", "balance", "--seed", "99999999999999999999"],
     f"jongg card balance: argument --seed: must be a whole number from 0 to {INT64_MAX}, not "
     "99999999999999999999."),
    (["bench", "prompts", "--games", "0"],
     "jongg bench: argument --games: must be a whole number from 1 to 1000000, not 0."),
    (["render-demo", "--out", ""],
     "jongg render-demo: argument --out: give a folder to write to (an empty path would "
     "write into the current folder; use . for that)."),
    (["card", "balance", "--deals", "0"],
     "jongg card balance: argument --deals: must be a whole number from 1 to 1000000, not 0."),
    (["play", "--seed", "99999999999999999999999"],
     f"jongg play: argument --seed: must be a whole number from 0 to {INT64_MAX}, not "
     "99999999999999999999999."),
    (["play", "--seed", "-1"],
     f"jongg play: argument --seed: must be a whole number from 0 to {INT64_MAX}, not -1."),
    (["play", "--players", "5"],
     "jongg play: argument --players: invalid choice: 5 (choose from 4, 3, 2)."),
])
def test_a_bad_option_is_one_line_and_exit_2(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == EXIT_BAD_INPUT
    prog = message.split(":")[0]
    assert one_line(capsys.readouterr().err) == f"{message} See `{prog} --help`."


def test_the_largest_seed_is_accepted(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the game stops at its first prompt
    assert main(["play", "--seed", str(INT64_MAX)]) == 0
    assert f"seed {INT64_MAX}" in capsys.readouterr().out


# -- analyze: hands checked against a real set, and said back as read ----------------------

@pytest.mark.parametrize(("tiles", "exposed", "message"), [
    ("3B 3B 3B 3B 3B", "", "That hand has 3 Bam 5 times, but a set has only 4."),
    ("JJJJJJJJJ", "", "That hand has Joker 9 times, but a set has only 8."),
    ("FF", "3333B, 3333B", "That hand with its exposures has 3 Bam 8 times, but a set has "
                           "only 4."),
    ("", "", "Give the tiles in your hand, like `FF 2026B 222C 2222D J`."),
    ("   ", "", "Give the tiles in your hand"),
    ("3B " * 20_000, "", "That is too long for one hand."),
    (HAND + " 3C", "", "That is 15 tiles, but a hand holds 13 between turns and 14"),
    ("FF 10Q", "", "I don't know the tile `10Q`."),
])
def test_analyze_refuses_a_hand_no_set_can_hold(
        tiles: str, exposed: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", tiles, "--exposed", exposed]) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert one_line(captured.err).startswith(f"jongg: {message}")
    assert captured.out == ""


def test_analyze_says_how_it_read_a_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "FF 10B 2026B", "--exposed", "222C, 0D 0D J", "--count", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # `10B` is no ten: said at once. A year reads as players expect and needs no note.
    assert lines[0] == "0 is Soap: `10B` is 1 Bam + Soap; `0D` is Soap; `0D` is Soap."
    assert lines[1].startswith("Hand: FF 10B 2026B | exposed 222C, 0D 0D J  (14 tiles")
    assert lines[2] == "Tiles: F F 1B 0 2B 0 2B 6B | exposed 2C 2C 2C, 0 0 J"


@pytest.mark.parametrize(("typed", "said"), [
    # A year with its suit is said back as typed, not sorted as a rack into `226B 0`.
    ("2026B 6C", ["Hand: 2026B 6C  (5 tiles, card: Jongg Original)",
                  "Tiles: 2B 0 2B 6B 6C"]),
    # Words are said back shortened, as every echo of a person's text is.
    ("north, east, west, south, red dragon, green dragon, soap, flower, joker",
     ["Hand: north, east, west, south, red dragon, g…  (9 tiles, card: Jongg Original)",
      "Tiles: N E W S R G 0 F J"]),
    # Tiles typed one by one need no second line.
    ("3b 4B 0", ["Hand: 3b 4B 0  (3 tiles, card: Jongg Original)", "Note: a hand has 13 "
                 "tiles between turns and 14 to declare; this one has 3, so only the nearest "
                 "hands are shown."]),
])
def test_analyze_says_the_hand_back_as_typed_then_tile_by_tile(
        typed: str, said: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", typed, "--count", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == said


def test_analyze_shows_exactly_count_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "FF 2026B 222C", "--count", "2"]) == 0
    assert capsys.readouterr().out.count(" away  ") == 2


# -- paths that can't be used --------------------------------------------------------------

@pytest.mark.parametrize("command", [["play", "--auto", "--images"], ["render-demo", "--out"]])
def test_a_picture_folder_that_is_a_file(command: list[str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "pictures"
    afile.write_text("not a folder")
    with pytest.raises(SystemExit) as stopped:
        main([*command, str(afile)])
    assert stopped.value.code == EXIT_BAD_INPUT
    assert f"`{afile}` is a file; give a folder (it is created if missing)" in one_line(
        capsys.readouterr().err)


@pytest.mark.parametrize("command", [["play", "--auto", "--images"], ["render-demo", "--out"],
                                     ["simulate", "--games", "1", "--log"]])
def test_a_path_that_cant_be_created(command: list[str], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("a file, so nothing can be made inside it")
    inside = afile / "inside"
    assert main([*command, str(inside)]) == EXIT_FAILED
    captured = capsys.readouterr()
    assert one_line(captured.err) == f"jongg: can't use `{inside}`: Not a directory."
    assert captured.out == ""  # refused before any game was played


def test_analyze_counts_one_tile_as_one_tile(capsys: pytest.CaptureFixture[str]) -> None:
    # "(1 tiles, card: …)".
    assert main(["analyze", "J"]) == 0
    assert capsys.readouterr().out.startswith("Hand: J  (1 tile, card: Jongg Original)")


def test_exposures_without_commas_are_told_about_commas(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "J", "--exposed", "RRRR GGG J"]) == EXIT_BAD_INPUT
    assert one_line(capsys.readouterr().err).endswith(
        "Separate exposures with commas, like `333B, NNN J`.")


# -- huge and endless card files -----------------------------------------------------------

def test_a_huge_card_file_is_refused_by_its_size_before_reading(tmp_path: Path) -> None:
    huge = tmp_path / "huge.jongg"
    with huge.open("wb") as file:
        file.truncate(200 * 1024 * 1024)  # sparse: 200 MB that take no disk
    tracemalloc.start()
    try:
        with pytest.raises(CardError, match="too large"):
            card_file_bytes(huge)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MAX_FILE_BYTES // 4  # nothing of it was read


def test_card_check_refuses_a_huge_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    huge = tmp_path / "huge.jongg"
    with huge.open("wb") as file:
        file.truncate(200 * 1024 * 1024)
    assert main(["card", "check", str(huge)]) == 1
    out = capsys.readouterr().out
    assert f"{huge}: The card file is too large." in out
    assert f"a card file may be at most {MAX_FILE_BYTES // 1024} KiB." in out


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_read_only_up_to_the_limit() -> None:
    result = run_jongg("card", "check", "/dev/zero", timeout=60)  # read whole, it never ends
    assert result.returncode == 1
    assert "/dev/zero: The card file is too large." in result.stdout
    assert result.stderr == ""


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_arena_log_is_refused_at_its_first_long_line() -> None:
    # `arena-compare /dev/zero /dev/null` grew without bound (4.6 GB in 20 s).
    result = run_jongg("arena-compare", "/dev/zero", "/dev/null", timeout=60)
    assert result.returncode == EXIT_BAD_INPUT
    assert one_line(result.stderr) == (
        "jongg: Line 1 of `/dev/zero` is too long for an arena log (written by jongg arena "
        "--log) (at most 1,048,576 bytes a line).")


@pytest.mark.parametrize("command", [
    ["arena-compare", "{folder}", "{folder}"],
    ["analyze", HAND, "--card", "{folder}"],
    ["card", "show", "{folder}"],
])
def test_a_folder_given_for_a_file_is_called_a_folder(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `--card /tmp` was answered "There is no card called `/tmp`".
    assert main([part.format(folder=tmp_path) for part in command]) == EXIT_BAD_INPUT
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"jongg: `{tmp_path}` is a folder; give a"), line


def test_card_check_says_a_folder_is_one_and_checks_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    card = ROOT / "data" / "cards" / "jongg-original.jongg"
    assert main(["card", "check", str(tmp_path), str(card)]) == 1
    out = capsys.readouterr().out
    assert f"`{tmp_path}` is a folder; give a card file." in out
    assert f"ok  {card}: " in out


# -- a reader that goes away ---------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["card", "show", "jongg-original"],   # more than a pipe's buffer: fails while printing
    ["analyze", HAND],                    # a few lines: fails at the last flush
    [],                                   # the overview
])
def test_a_closed_pipe_ends_quietly(command: list[str]) -> None:
    # `jongg ... | head -1` with head already gone: the read end is closed before jongg runs,
    # so every write fails, whatever the timing.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = run_jongg(*command, stdout=write_end)
    finally:
        os.close(write_end)
    assert result.stderr == ""
    assert result.returncode == EXIT_BROKEN_PIPE


# -- a bug in Jongg ------------------------------------------------------------------------

def _broken_list_cards(args: object) -> int:
    raise ZeroDivisionError("a planted bug")


def test_a_bug_is_one_line_naming_the_file_with_the_details(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bot.cli.card, "list_cards", _broken_list_cards)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["card", "list"]) == EXIT_BUG
    line = one_line(capsys.readouterr().err)
    assert line.startswith("jongg: something went wrong inside Jongg (ZeroDivisionError: a "
                           "planted bug). That is a bug: the details are in ")
    [report] = tmp_path.glob("jongg-error-*.txt")
    assert str(report) in line
    details = report.read_text()
    assert details.startswith("jongg card list\nPython ")
    assert "Traceback (most recent call last)" in details
    assert "_broken_list_cards" in details and "ZeroDivisionError: a planted bug" in details


def test_a_bug_shows_its_traceback_when_no_file_can_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bot.cli.card, "list_cards", _broken_list_cards)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    assert main(["card", "list"]) == EXIT_BUG
    err = capsys.readouterr().err
    assert "ZeroDivisionError: a planted bug" in err.splitlines()[-2]
    assert err.splitlines()[-1].endswith("That is a bug: the details are above; please "
                                         "include them when you report it.")
