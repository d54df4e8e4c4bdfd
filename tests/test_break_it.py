"""A hostile pass over everything outside the Discord front end: what a careless operator, a
hostile card writer, a typist with a strange keyboard and a busy machine do to `jongg`.

Each probe states the property that must hold (one clear line and the right exit code, no
traceback, nothing written or lost), not only that nothing crashed. The commands run as a
person runs them: `python -m bot` in a fresh process, with stdin and stdout as pipes.
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from league_helpers import DIRECTOR, GUILD, card_text, league_with_season, table_rules

import bot.cli.card
from bot.cli.main import main
from bot.engine.errors import CardError
from bot.engine.game import preset
from bot.league.export import COLUMNS, read_csv, write_csv
from bot.league.ratings import RATING_MODEL
from bot.server_cards import read_card_file
from bot.store import (
    Database,
    FinishReason,
    Outcome,
    Pace,
    SeatDetail,
    SeatScore,
    ShippedCardChoice,
)

ROOT = Path(__file__).resolve().parents[1]
#: A card that checks: three lines of header and section, then one hand.
GOOD = "card: House\n[S]\nh1 FF 1111a 2222a 3333a = 25 X\n"
EXIT_BUG = 70


@pytest.fixture(autouse=True)
def own_temp_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands' temp folder (where a bug report would go) is the test's own."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))


def run_jongg(*args: str, stdin: bytes = b"", env: dict[str, str] | None = None,
              cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    """`python -m bot ARGS` in a fresh process, `stdin` piped in, output kept as bytes (some
    probes look for bytes a terminal would act on). `env` is added to this one's. The
    timeout only stops a command that hangs (nothing here is timed: a busy machine may take
    long, never that long)."""
    full = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    full["PYTHONPATH"] = str(ROOT)
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin,
                          capture_output=True, env=full, cwd=cwd, timeout=timeout, check=False)


def no_bug(result: subprocess.CompletedProcess[bytes]) -> str:
    """The stderr of a command that must not have met a bug in Jongg (or died of one)."""
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode != EXIT_BUG, err[-2000:]
    assert "Traceback" not in err and "went wrong inside Jongg" not in err, err[-2000:]
    return err


# -- the terminal game, fed what people and pipes type --------------------------------------

@pytest.mark.parametrize("typed", [
    "\u00b2",          # a superscript two: str.isdigit() says yes, int() says no
    "9" * 5000,        # more digits than int() reads from text (Python's 4300-digit limit)
])
def test_play_a_number_python_cannot_read_is_answered(typed: str) -> None:
    """At any question, an answer that looks like a number but is none is answered and the
    question asked again, as any other typo is; the game then stops at the end of input."""
    result = run_jongg("play", "--seed", "1", stdin=f"{typed}\nhelp\n".encode())
    no_bug(result)
    out = result.stdout.decode()
    assert result.returncode == 0
    assert "Type a number from the list, or:" in out  # `help` was read after it
    assert out.rstrip().endswith("Stopped. (Terminal games are not saved.)")


@pytest.mark.parametrize("count", ["\u00b2", "1,\u00b3", "9" * 5000])
def test_bench_counts_python_cannot_read_are_refused(count: str) -> None:
    """`jongg bench discord --processes ²` is an option mistake (one line, exit 2), like
    `--processes 0`."""
    result = run_jongg("bench", "discord", "--processes", count)
    err = no_bug(result)
    assert result.returncode == 2, err
    assert err.startswith("jongg: --processes takes a count of 1 or more"), err
    assert len(err.splitlines()) == 1


def test_play_garbage_control_characters_and_huge_lines_then_eof() -> None:
    """Control characters, a 100,000-character line, 40,000 tiles at once, tile names that
    are almost right and a pasted BOM are each answered with what went wrong; the game stops
    cleanly at end of input."""
    lines = ["3B " * 40_000, "q" * 100_000, "\x1b[2J\x00\x07\x08\x7f", "4 bamm",
             "soapp", "redd", "\ufeffhelp", "-1", "0x10", "1e3"]
    result = run_jongg("play", "--seed", "1", stdin=("\n".join(lines) + "\n").encode())
    no_bug(result)
    out = result.stdout.decode()
    assert result.returncode == 0
    assert out.count("Tiles to pass: ") == len(lines) + 1  # each answered, asked again
    assert "Pass exactly 3 tiles." in out
    for word in ("bamm", "soapp", "redd"):
        assert f"I don't know the tile `{word}`" in out
    assert max(len(line) for line in out.splitlines()) < 400  # nothing typed echoed whole
    assert out.rstrip().endswith("Stopped. (Terminal games are not saved.)")


def test_play_input_that_is_not_utf8() -> None:
    """A byte that is not UTF-8 (a Latin-1 terminal's `é`, a binary file piped in) under an
    ordinary UTF-8 locale, where Python reads stdin strictly: answered like any other typo,
    not a bug report."""
    result = run_jongg("play", "--seed", "1", stdin=b"caf\xe9\nhelp\n",
                       env={"PYTHONIOENCODING": "utf-8"})
    no_bug(result)
    out = result.stdout.decode("utf-8", "replace")
    assert result.returncode == 0
    assert "Type a number from the list, or:" in out
    assert out.rstrip().endswith("Stopped. (Terminal games are not saved.)")


@pytest.mark.parametrize("name", ["", "   ", "Ann\nBob"])
def test_play_refuses_a_name_no_seat_can_hold_in_one_line(name: str) -> None:
    """`--name` that no seat can hold (empty, blank, two lines) is an option mistake: one
    line and exit 2, before any game starts."""
    result = run_jongg("play", "--seed", "1", "--name", name)
    err = no_bug(result)
    assert result.returncode == 2, err
    assert len(err.splitlines()) == 1 and err.startswith("jongg play: argument --name: "), err
    assert result.stdout == b""


@pytest.mark.parametrize("ante", ["99999999999999999999999", "9" * 5000])
def test_a_house_ante_too_large_to_keep_is_refused_before_play(ante: str) -> None:
    """`--house pot_ante=10**23` was taken, and the first wall game's result, which no
    database column holds, ended the series in a bug report (5,000 digits, which int()
    can't read, at once). Refused at once instead, like any house option that makes no
    sense."""
    for command in (["play", "--auto", "--games", "12", "--seed", "1"],
                    ["simulate", "--games", "1"]):
        result = run_jongg(*command, "--house", f"quarters_pot pot_ante={ante}")
        err = no_bug(result)
        assert result.returncode == 2, err
        assert err.startswith("jongg: ") and "ante" in err, err
        assert len(err.splitlines()) == 1 and result.stdout == b""


# -- file names and output that are not UTF-8 ----------------------------------------------

@pytest.mark.skipif(sys.platform != "linux", reason="needs a file system of bytes")
@pytest.mark.parametrize("exists", [True, False])
def test_a_file_name_that_is_not_utf8(tmp_path: Path, exists: bool) -> None:
    """A card file named in Latin-1 (an old archive) under a UTF-8 locale: `card check`
    names it (however it shows) and checks it; it must not end in two tracebacks and an
    empty bug report left in the temp folder."""
    name = os.fsdecode(b"caf\xe9.jongg")
    if exists:
        (tmp_path / name).write_text(GOOD)
    reports = tmp_path / "reports"
    reports.mkdir()
    result = run_jongg("card", "check", name, cwd=tmp_path,
                       env={"PYTHONIOENCODING": "utf-8", "TMPDIR": str(reports)})
    no_bug(result)
    out = result.stdout.decode("utf-8", "replace")
    assert result.returncode == (0 if exists else 1)
    assert ("ok  caf" if exists else "Can't read `caf") in out
    assert not list(reports.iterdir())


def _planted_bug(args: object) -> int:
    raise ZeroDivisionError("a planted bug")


def test_a_bug_report_keeps_a_command_line_utf8_cant_hold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The bug report is written whatever the command line held: a file name Python decoded
    as lone surrogates crashed the report itself, which left an empty report file behind
    and showed two tracebacks."""
    monkeypatch.setattr(bot.cli.card, "show_card", _planted_bug)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    name = os.fsdecode(b"caf\xe9.jongg")
    assert main(["card", "show", name]) == EXIT_BUG
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    [report] = tmp_path.glob("jongg-error-*.txt")
    assert report.read_text().startswith("jongg card show caf\\udce9.jongg\nPython ")
    assert "ZeroDivisionError: a planted bug" in report.read_text()


# -- card files a hostile or careless writer makes -----------------------------------------

#: Characters a terminal or a chat acts on rather than shows: escape sequences (clear the
#: screen, set the window title, hide text), NUL, the bell, a right-to-left override.
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize(("text", "line"), [
    ("card: Evil\x1b]0;pwned\x07\x1b[2J Card\n[S]\nh1 FF 1111a 2222a 3333a = 25 X\n", 1),
    ("card: House\nnotes: \x1b[8mhidden\n[S]\nh1 FF 1111a 2222a 3333a = 25 X\n", 2),
    ("card: House\n[S\x1b[5m]\nh1 FF 1111a 2222a 3333a = 25 X\n", 2),
    ("card: House\n[S]\nh1 FF 1111a 2222a 3333a = 25 X -- small \x00print\n", 3),
    ("card: House\n[S]\nh1 FF 1111a 2222a 3333a = 25 X -- \u202eevil\n", 3),
    ("\x00" * 300, 1),
])
def test_control_characters_in_a_card_are_refused_with_their_line(
        tmp_path: Path, text: str, line: int) -> None:
    """A card file is untrusted input: a character a terminal or a chat would act on (an
    escape sequence, NUL, a bidi override) is a problem on its line, and `card check` never
    prints one back."""
    path = tmp_path / "hostile.jongg"
    path.write_bytes(text.encode())
    result = run_jongg("card", "check", str(path))
    no_bug(result)
    out = result.stdout.decode()
    assert result.returncode == 1, out
    assert f"{path}:{line}: " in out, out
    assert not CONTROLS.search(out), repr(out)


def test_a_line_break_only_python_sees_does_not_shift_line_numbers(
        tmp_path: Path) -> None:
    """Editors count lines by line feeds; a form feed or U+2028 inside a note is not a new
    line to them. The problem on the fourth line is reported on line 4."""
    path = tmp_path / "breaks.jongg"
    path.write_bytes("card: House\n[S]\nh1 FF 1111a 2222a 3333a = 25 X -- a\u2028b\x0cc\n"
                     "h2 FF 1111a 2222a 3333a = 25 Q\n".encode())
    result = run_jongg("card", "check", str(path))
    no_bug(result)
    out = result.stdout.decode()
    assert result.returncode == 1
    assert f"{path}:4: `Q` must be X (exposures allowed) or C (concealed)." in out, out


@pytest.mark.parametrize(("data", "said"), [
    (GOOD.encode("utf-16"), "save the card as UTF-8 text"),
    ((GOOD.rstrip("\n") + " -- " + "x" * 100_000 + "\n").encode(), ":3: line is longer than"),
    (b"card: House\n[S]\n" + b"h1 FF 1111a 2222a 3333a = 25 X\n" * 2000,
     "is already used on line 3"),
    (b"card: House\n[S]\n", "the card has no hands"),
    (b"card: House\n[S]\nh1 FFFFFF FFFFFF 11a = 25 X jokers=no\n", ".jongg:3: "),
])
def test_malformed_card_files_are_refused_with_what_to_change(
        tmp_path: Path, data: bytes, said: str) -> None:
    """UTF-16, a 100,000-character note, 2,000 copies of one hand, no hands, and
    a hand no set can make (twelve flowers, no jokers): each refused,
    saying what is wrong."""
    path = tmp_path / "malformed.jongg"
    path.write_bytes(data)
    result = run_jongg("card", "check", str(path))
    no_bug(result)
    out = result.stdout.decode()
    assert result.returncode == 1 and said in out, out
    assert len(out) < 400_000


# -- a card a server uploads, kept on either database ---------------------------------------

@pytest.fixture
async def db(either_database: str) -> AsyncIterator[Database]:
    async with Database(either_database) as database:
        yield database


async def test_a_card_the_checker_takes_is_kept_whole_on_either_database(
        db: Database) -> None:
    """What `/card upload` checks and accepts is what the store then keeps: a card with a
    NUL in a comment (an editor's leftover) is either refused by the checker, naming the
    line, or stored and read back exactly, on SQLite and on PostgreSQL alike (PostgreSQL's
    text holds no NUL)."""
    data = b"card: House\n# saved by an old editor \x00\n[S]\nh1 FF 1111a 2222a 3333a = 25 X\n"
    try:
        text, _ = await read_card_file(data)
    except CardError as refused:
        assert [p.line for p in refused.problems] == [2], refused.problems
        return
    saved = await db.cards.save_card(GUILD, "house", text, uploaded_by=DIRECTOR)
    assert saved.text == text


# -- league exports with names a spreadsheet would run --------------------------------------

NAMES = ["=cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tTab+1"]


async def test_a_stored_season_exports_no_formula_in_any_cell(tmp_path: Path) -> None:
    """Names of people and a card's section that a spreadsheet would run as formulas come out
    of a real season's export inert in every column, and read back unchanged."""
    async with Database(tmp_path / "league.db") as db:
        _, season = await league_with_season(db)
        rules = preset("tournament")
        game = await db.games.create_game(
            guild_id=GUILD, channel_id=222, host_user_id=1, rules=table_rules(rules),
            card=ShippedCardChoice("jongg-original", card_text()), seed=7,
            pace=Pace("live", 90, 10), hints=True)
        for seat, name in enumerate(NAMES):
            await db.seats.add_seat(game.id, seat, user_id=seat + 1, display_name=name)
        await db.games.start_game(game.id, 4)
        points = [75, -25, -25, -25]
        await db.games.finish_game(game.id, Outcome(
            FinishReason.MAHJONG, 0, tuple(SeatScore(s, p) for s, p in enumerate(points)),
            '{"reason": "mahjong", "hands": ["r1"]}'))
        await db.league_games.record(
            game.id, [SeatDetail(0, "r1", "=HYPERLINK(\"http://x\")", 25)], counted=True,
            model=RATING_MODEL)
        rows = await db.league_stats.export_rows(season.id)
    text = write_csv(rows)
    back = read_csv(text)
    assert [r.display_name for r in back] == NAMES
    assert back[0].section == rows[0].section == "=HYPERLINK(\"http://x\")"
    for cells in list(csv.reader(io.StringIO(text)))[1:]:
        assert len(cells) == len(COLUMNS)
        for cell in cells:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            assert not re.match(r"-[^0-9]|-\d+[^0-9.]", cell), cell  # -2+3, not -25


# -- the database, held or wrong ------------------------------------------------------------

def _jongg_database(path: Path) -> None:
    async def make() -> None:
        async with Database(path):
            pass
    asyncio.run(make())


def test_copy_from_a_database_another_program_holds(tmp_path: Path) -> None:
    """A source held by another program (a backup tool with an exclusive lock) is busy,
    not "not an SQLite database": a bounded wait, one line saying it is in use and naming
    it, exit 1 (try again), nothing written."""
    source, target = tmp_path / "jongg.sqlite3", tmp_path / "copy.sqlite3"
    _jongg_database(source)
    holder = sqlite3.connect(source, isolation_level=None)
    try:
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        result = run_jongg("db", "copy", str(source), str(target))
    finally:
        holder.close()
    err = no_bug(result)
    assert result.returncode == 1, err
    assert len(err.splitlines()) == 1 and str(source) in err and "locked" in err, err
    assert "not an SQLite database" not in err, err
    assert not target.exists()


def test_copy_into_a_database_another_program_holds(tmp_path: Path) -> None:
    """The same for the target: the copy waits a bounded time, says so in one line, and the
    target is as it was (empty, its schema intact)."""
    source, target = tmp_path / "jongg.sqlite3", tmp_path / "copy.sqlite3"
    _jongg_database(source)
    _jongg_database(target)
    before = target.read_bytes()
    holder = sqlite3.connect(target, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        result = run_jongg("db", "copy", str(source), str(target))
        holder.execute("ROLLBACK")
    finally:
        holder.close()
    err = no_bug(result)
    assert result.returncode == 1, err
    assert len(err.splitlines()) == 1 and "locked" in err, err
    assert target.read_bytes() == before


@pytest.mark.parametrize("side", ["source", "target"])
def test_copy_with_a_folder_for_a_database(tmp_path: Path, side: str) -> None:
    """A folder named for either database is called a folder (as JONGG_DB's is), not "not
    an SQLite database Jongg can read (disk I/O error)"."""
    source = tmp_path / "jongg.sqlite3"
    _jongg_database(source)
    folder = tmp_path / "backups"
    folder.mkdir()
    args = [str(folder), str(tmp_path / "new.sqlite3")] if side == "source" else [
        str(source), str(folder)]
    result = run_jongg("db", "copy", *args)
    err = no_bug(result)
    assert result.returncode == 2, err
    assert len(err.splitlines()) == 1 and f"{folder} is a folder" in err, err
    assert list(folder.iterdir()) == []
