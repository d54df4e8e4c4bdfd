"""The `jongg` command: one entry point with a subcommand per job.

Each feature lives in its own module under `bot.cli` with a `register(subparsers)`
function that adds its subcommand and sets `handler`.

Nothing a person can cause ends in a traceback. `main` is the one place that turns an error
into what the person reads and the exit code a script sees (`failure`): bad input is one line
and exit 2, a failure of the machine or of Discord (a file, the network, the token) one line
and exit 1, a closed pipe (`jongg card show | head`) a quiet exit as Unix tools make. Anything
else is a bug in Jongg: one line that says so and names a file holding the traceback
(`report_bug`), so the person sees a sentence instead of a wall of code and the details are
kept whole for the bug report.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import platform
import signal
import sqlite3
import sys
import tempfile
import threading
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from bot.engine.errors import CardError, MahjongError, echo

COMMAND_MODULES = (
    "bot.cli.card",
    "bot.cli.analyze",
    "bot.cli.bench",
    "bot.cli.render_demo",
    "bot.cli.simulate",
    "bot.cli.arena",
    "bot.cli.play",
    "bot.cli.run",
    "bot.cli.db",
)

#: Exit codes. 2 for what was typed, as argparse has it; 70 is EX_SOFTWARE from sysexits.h;
#: 130 and 141 are what a shell reports for a tool stopped by Ctrl-C (SIGINT) or by a reader
#: that went away (SIGPIPE).
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_BUG = 70
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

#: Most characters of an unexpected error's own text repeated on the one line.
BUG_TEXT_LIMIT = 120

TOKEN_REFUSED = ("Discord refused the bot token in DISCORD_TOKEN: it is wrong or has been "
                 "reset. Press Reset Token under Bot at https://discord.com/developers/"
                 "applications and put the new token in .env.")


class HelpFormatter(argparse.HelpFormatter):
    """argparse's layout, except that lines indented by two spaces (the examples at the end
    of a command's help) stay as written, so each example is one line a person can copy."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        filled = []
        for line in text.splitlines():
            filled.append(line if line.startswith("  ") else
                          super()._fill_text(line, width, indent))
        return "\n".join(filled)


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are one line: what is wrong and where help is
    (argparse's own prints the whole usage first, which buries the line that matters).
    Subcommands' parsers are of this class too (argparse makes them of the parent's)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(**kwargs)

    def error(self, message: str) -> NoReturn:
        """Print the mistake and exit with `EXIT_BAD_INPUT`."""
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}. See `{self.prog} --help`.\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every registered subcommand."""
    parser = Parser(
        prog="jongg",
        description="Jongg runs American Mah Jongg (NMJL-style): cards, hand analysis, "
                    "games and leagues. Run a subcommand with --help for details.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


@dataclass(frozen=True)
class Failure:
    """What the person reads about an error that is theirs or their machine's, and the exit
    code. `line` is printed on stderr after `jongg: `, then any `details`, indented."""

    line: str
    code: int
    details: tuple[str, ...] = ()


def failure(exc: BaseException) -> Failure | None:
    """The failure an error stands for, or None when it is a bug in Jongg.

    Discord's and aiohttp's errors are only looked for once something has imported them:
    only `jongg run` does, and every other command starts faster without them.
    """
    if isinstance(exc, CardError):
        return Failure(exc.message, EXIT_BAD_INPUT, tuple(str(p) for p in exc.problems))
    if isinstance(exc, MahjongError):
        return Failure(exc.message, EXIT_BAD_INPUT)
    if isinstance(exc, KeyboardInterrupt):
        return Failure("stopped.", EXIT_INTERRUPTED)
    if "discord" in sys.modules:
        import discord

        if isinstance(exc, discord.LoginFailure):
            return Failure(TOKEN_REFUSED, EXIT_FAILED)
        if isinstance(exc, discord.DiscordException):
            return Failure(f"Discord refused to start the bot: {exc}", EXIT_FAILED)
    if "aiohttp" in sys.modules:
        import aiohttp

        if isinstance(exc, aiohttp.ClientError):
            return Failure(f"can't reach Discord ({exc}). Check the network connection, "
                           "then try again.", EXIT_FAILED)
    if "bot.store" in sys.modules:
        from bot.store.errors import StoreError

        if isinstance(exc, StoreError):  # its message names the database and what to do
            return Failure(exc.message, EXIT_FAILED)
    if isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError:
        # The sqlite3 module's own description: errors in the database's operation, "not
        # necessarily under the control of the programmer" (a file it can't open, a full disk);
        # a plain DatabaseError is a file that is not a database at all. (Its other subclasses,
        # a broken constraint or a misused API, are bugs.)
        return Failure(f"the database can't be used: {exc}. (`jongg run` keeps it where "
                       "JONGG_DB says, by default jongg.sqlite3 in the current folder.)",
                       EXIT_FAILED)
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc) or type(exc).__name__
        if exc.filename is not None:
            return Failure(f"can't use `{os.fsdecode(exc.filename)}`: {reason}.", EXIT_FAILED)
        return Failure(f"{reason}.", EXIT_FAILED)
    return None


def report_bug(exc: BaseException, argv: Sequence[str]) -> int:
    """Say in one line that Jongg failed, and write the traceback to a file named there.

    If no file can be written, the traceback goes to stderr instead: better a wall of text
    than details lost."""
    details = "".join(traceback.format_exception(exc))
    header = (f"jongg {' '.join(argv)}\nPython {platform.python_version()} on "
              f"{platform.platform()}\n\n")
    try:
        # backslashreplace: the command line may hold what UTF-8 can't write (a file name
        # in another encoding, decoded by Python as lone surrogates).
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", errors="backslashreplace",
                                         prefix="jongg-error-", suffix=".txt",
                                         delete=False) as file:
            file.write(header + details)
        where = f"the details are in {file.name}"
    except OSError:
        sys.stderr.write(details)
        where = "the details are above"
    text = echo(str(exc), BUG_TEXT_LIMIT)
    shown = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    print(f"jongg: something went wrong inside Jongg ({shown}). That is a bug: {where}; "
          "please include them when you report it.", file=sys.stderr)
    return EXIT_BUG


def _reader_gone() -> int:
    """After stdout's reader went away: send what is left to /dev/null, so the interpreter's
    last flush at exit does not fail again, and exit as a Unix tool would."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_BROKEN_PIPE


#: The commands that stop cleanly by themselves on Ctrl-C: `jongg run` lets asyncio cancel
#: its main task, which closes the bot (its moves finish and their messages are queued).
STOP_THEMSELVES = frozenset({"run"})


def _stop_at_once(signum: int, frame: object) -> None:
    """Ctrl-C: stop where the program is, whatever it is doing. The same as Python's default
    handler, but not it: `asyncio.run` replaces only the default handler, with one that asks
    the main task to stop and leaves a blocking `input()` waiting for a second Ctrl-C."""
    raise KeyboardInterrupt


@contextlib.contextmanager
def _ctrl_c_stops_at_once() -> Iterator[None]:
    """Make Ctrl-C stop the command at once, from start-up on (the subcommands' imports
    take a moment), when the program may handle signals (the main thread) and nobody has
    set a handler of their own; the handler before is put back at the end."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    signal.signal(signal.SIGINT, _stop_at_once)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _streams_take_any_text() -> None:
    """Make stdin and stdout take whatever comes, as stderr already does. Under an ordinary
    UTF-8 locale Python reads and writes them strictly: a byte that is not UTF-8 typed at
    `jongg play` (a Latin-1 terminal's `é`), or a file name in another encoding printed back
    (Python holds its bytes as lone surrogates), raised an error in the middle of a command.
    What can't be read is replaced (and answered like any typo); what can't be written is
    written as a backslash escape."""
    for stream, errors in ((sys.stdin, "replace"), (sys.stdout, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors=errors)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    _streams_take_any_text()
    with _ctrl_c_stops_at_once():
        return _run(arguments)


def _run(arguments: list[str]) -> int:
    """Parse the arguments and run the command, turning every error into its line and exit
    code (`failure`)."""
    try:
        args = build_parser().parse_args(arguments)
        if args.command is None:
            from bot.cli.overview import overview

            args.handler = lambda _: overview()
        if args.command in STOP_THEMSELVES and signal.getsignal(signal.SIGINT) is _stop_at_once:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        code: int = args.handler(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
    except BrokenPipeError:
        return _reader_gone()
    except (Exception, KeyboardInterrupt) as exc:
        known = failure(exc)
        if known is None:
            return report_bug(exc, arguments)
        print(f"jongg: {known.line}", file=sys.stderr)
        for detail in known.details:
            print(f"  {detail}", file=sys.stderr)
        return known.code
    return code
