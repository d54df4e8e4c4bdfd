"""The top-level conftest: plugins every pytest process of a run needs, pytest-xdist's
controller among them (it collects nothing, so it never loads a conftest below this one).

`loop_lag` (tests/discord) watches the event loop of each end-to-end test; its terminal
summary is written by the process that reports, so it must be loaded here to be written in a
run over several worker processes (`pytest -n auto`) as in one.
"""

import sys
from pathlib import Path

DISCORD_TESTS = str(Path(__file__).parent / "tests" / "discord")
if DISCORD_TESTS not in sys.path:
    sys.path.insert(0, DISCORD_TESTS)

pytest_plugins = ["loop_lag"]
