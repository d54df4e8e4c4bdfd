"""How a process that serves the bot is tuned (`jongg run`, and `jongg bench discord`'s
process, which measures it as it runs): the event loop gets the GIL back soon from worker
threads, and what is loaded at start stays out of garbage collection.
"""

from __future__ import annotations

import gc
import sys

#: How long a busy thread keeps the GIL before handing it over (the interpreter's default is
#: 5 ms). Cards compile and pictures render in worker threads; handing over sooner gives the
#: event loop the GIL back sooner (`jongg bench loop` measures the loop's lag meanwhile).
GIL_SWITCH_SECONDS = 0.001


def tune_process() -> None:
    """Settings for a process that serves the bot (also `jongg bench discord`'s): a thread
    gives the GIL back within `GIL_SWITCH_SECONDS`, and what is loaded so far stays out of
    garbage collection."""
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    # The code and data loaded so far live as long as the process: keep them out of every
    # garbage collection, which walks them all with the GIL held.
    gc.collect()
    gc.freeze()
