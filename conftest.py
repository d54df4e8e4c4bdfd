"""The top-level conftest: plugins every pytest process of a run needs, pytest-xdist's
controller among them (it collects nothing, so it never loads a conftest below this one).

`loop_lag` (tests/discord) watches the event loop of each end-to-end test; its terminal
summary is written by the process that reports, so it must be loaded here to be written in a
run over several worker processes (`pytest -n auto`) as in one. `pg_fixtures` (tests/store)
gives every folder's tests a throw-away PostgreSQL server. The helper modules of those
folders (and tests/league's) can be imported from any test.
"""

import sys
from pathlib import Path

TESTS = Path(__file__).parent / "tests"
for folder in (str(TESTS / "discord"), str(TESTS / "store"), str(TESTS / "league")):
    if folder not in sys.path:
        sys.path.insert(0, folder)

pytest_plugins = ["loop_lag", "pg_fixtures"]
