"""One Ctrl-C stops any command at once and cleanly: at a prompt of the terminal game, while
worker processes play the arena, and during start-up. The prompt and the arena are run in a
pseudo-terminal, where Ctrl-C is what a person sends: the terminal's interrupt character,
which the terminal turns into SIGINT for every process of the command."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

import bot.cli.main
from bot.cli.main import EXIT_INTERRUPTED, main
from tests.slowness import Deadline, watch

#: How long a command may take to show what the test waits for, and to end after Ctrl-C,
#: in a quiet machine's seconds (`tests/slowness.py`: the command's wait for a CPU is left
#: out). Generous: they only bound a test on a machine too busy to answer; a stopped command
#: ends in well under a second.
SHOWN_WITHIN = 120.0
ENDED_WITHIN = 20.0

CTRL_C = b"\x03"
#: The repository this test is in: the command it runs is this one's code.
ROOT = str(Path(__file__).resolve().parent.parent)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are Unix's")


@dataclass(frozen=True)
class Stopped:
    """How a command ended after Ctrl-C: its exit code (None if it had to be killed), what
    it printed from Ctrl-C on, and the seconds from Ctrl-C to its end."""

    code: int | None
    after: str
    seconds: float

    def said(self) -> list[str]:
        """The lines printed after Ctrl-C, without the terminal's echo of it (`^C`) and
        progress bars (they redraw with carriage returns)."""
        lines = self.after.replace("^C", "\n").replace("\r", "\n").splitlines()
        return [line.strip() for line in lines if line.strip() and "[" not in line]


def _read(fd: int, timeout: float) -> bytes | None:
    """What the terminal has to read within `timeout` seconds; None once every process of
    the command has closed it."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return b""
    try:
        return os.read(fd, 65536) or None
    except OSError:  # Linux's answer once the last process holding the terminal is gone
        return None


def ctrl_c_after(shown: str, *args: str, code: str | None = None) -> Stopped:
    """Run `jongg args` in a pseudo-terminal, press Ctrl-C once `shown` is on the screen,
    and see how it ends. `code`: Python that runs the command instead of `python -m bot`
    (with the arguments in `sys.argv[1:]`)."""
    run = ["-m", "bot"] if code is None else ["-c", code]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, with the terminal as its own
        # Fault handler on: a command that does not stop is made to say where it hangs.
        os.execve(sys.executable, [sys.executable, *run, *args],
                  {**os.environ, "PYTHONFAULTHANDLER": "1", "PYTHONPATH": ROOT})
    watch(pid)
    output = b""
    ended = False
    try:
        showing = Deadline(SHOWN_WITHIN)
        while shown.encode() not in output:
            assert not showing.passed(), (showing.describe(), output)
            output += _read(fd, 0.1) or b""
        os.write(fd, CTRL_C)
        pressed, output = time.monotonic(), b""
        ending = Deadline(ENDED_WITHIN)
        # Read until every process of the command is gone (its workers too), so what any of
        # them printed on the way out is seen.
        while not ending.passed():
            if (more := _read(fd, 0.05)) is None:
                break
            output += more
        while not ending.passed():
            reaped, status = os.waitpid(pid, os.WNOHANG)
            if reaped:
                ended = True
                return Stopped(os.waitstatus_to_exitcode(status),
                               output.decode(errors="replace"), time.monotonic() - pressed)
            time.sleep(0.05)
        # The fault handler prints every thread's stack, after "Fatal Python error: Aborted".
        output += f"[not ended within {ending.describe()}]".encode()
        os.kill(pid, signal.SIGABRT)
        while (more := _read(fd, 1.0)) is not None and more:
            output += more
        return Stopped(None, output.decode(errors="replace"), time.monotonic() - pressed)
    finally:
        if not ended and not os.waitpid(pid, os.WNOHANG)[0]:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)


def _stopped_cleanly(stopped: Stopped) -> None:
    """One line and the exit code of a command stopped by Ctrl-C; nothing from any other
    process (a worker's "Process SpawnPoolWorker-1:" and traceback, threading's "Exception
    ignored")."""
    assert stopped.code == EXIT_INTERRUPTED, stopped
    assert stopped.said() == ["jongg: stopped."], stopped


def test_one_ctrl_c_at_a_prompt_of_the_terminal_game_stops_it() -> None:
    # asyncio.run's own Ctrl-C handler only asks the game to stop, which it can't while
    # input() waits: the first Ctrl-C was lost and the second left the database's thread
    # running.
    _stopped_cleanly(ctrl_c_after("Tiles to pass:", "play", "--seed", "1"))


@pytest.mark.parametrize("after", ["You are East", "pass across", "Play begins"])
def test_one_ctrl_c_while_the_bots_play_the_terminal_game_stops_it(after: str) -> None:
    # Ctrl-C raised KeyboardInterrupt in whichever task ran: often the sender printing the
    # table, which died alone and printed "Task exception was never retrieved" and its
    # traceback after "jongg: stopped.". What was played before it may still be told.
    stopped = ctrl_c_after(after, "play", "--seed", "1", "--auto", "--games", "3")
    assert stopped.code == EXIT_INTERRUPTED, stopped
    assert stopped.said()[-1:] == ["jongg: stopped."], stopped
    assert not any(word in stopped.after for word in ("Traceback", "Exception", "Error",
                                                      "never retrieved")), stopped


def test_one_ctrl_c_while_workers_play_the_arena_stops_them_all_without_tracebacks() -> None:
    # The terminal sends Ctrl-C to the workers too: each printed its own traceback.
    _stopped_cleanly(ctrl_c_after("arena [", "arena", "--jobs", "2", "--seeds", "40",
                                  "--challenger", "normal", "--field", "easy"))


#: `jongg` with the start of the arena's worker processes held open (`HELD` seconds), and
#: said on the screen (`STARTING`): a Ctrl-C meanwhile comes while they start.
HELD = 3.0
STARTING = "workers starting"
HOLD_THE_START = f"""\
import sys, time
from multiprocessing.context import SpawnContext

started = SpawnContext.Pool

def held(self, *args, **kwargs):
    pool = started(self, *args, **kwargs)
    print({STARTING!r}, flush=True)
    time.sleep({HELD})
    return pool

SpawnContext.Pool = held
from bot.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_one_ctrl_c_while_the_arenas_workers_start_stops_them_all() -> None:
    # The arena ignored Ctrl-C while its workers started, for them to inherit: a Ctrl-C
    # then (a long moment on a busy machine) was lost, and the arena played on to its end.
    _stopped_cleanly(ctrl_c_after(STARTING, "arena", "--jobs", "2", "--seeds", "6",
                                  "--challenger", "normal", "--field", "easy",
                                  code=HOLD_THE_START))


def test_ctrl_c_during_start_up_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # Loading the subcommands takes a moment at every start; Ctrl-C there was a traceback.
    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(bot.cli.main, "build_parser", interrupted)
    try:
        code = main(["card", "list"])
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C during start-up escaped as a traceback")
    assert code == EXIT_INTERRUPTED
    assert capsys.readouterr().err == "jongg: stopped.\n"
