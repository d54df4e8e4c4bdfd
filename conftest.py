"""The top-level conftest: plugins every pytest process of a run needs, pytest-xdist's
controller among them (it collects nothing, so it never loads a conftest below this one).

`loop_lag` (tests/discord) watches the event loop of each end-to-end test; its terminal
summary is written by the process that reports, so it must be loaded here to be written in a
run over several worker processes (`pytest -n auto`) as in one. `pg_fixtures` (tests/store)
gives every folder's tests a throw-away PostgreSQL server. The helper modules of those
folders (and tests/league's) can be imported from any test.

A run started in the background of a shell without job control (`pytest … &` in a script)
inherits SIGINT ignored, and so would every process the tests start: the tests that stop
`jongg run` or the arena with Ctrl-C would find it ignored and fail for the way the run was
started. Python's own handler is put back, here and so in every process started after.
"""

import signal
import sys
from pathlib import Path

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

TESTS = Path(__file__).parent / "tests"
for folder in (str(TESTS / "discord"), str(TESTS / "store"), str(TESTS / "league")):
    if folder not in sys.path:
        sys.path.insert(0, folder)

pytest_plugins = ["loop_lag", "pg_fixtures"]
