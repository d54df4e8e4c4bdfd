"""A busy machine on purpose: this process and CPU-bound processes ("hogs") on one core, so
that this process's threads wait for a CPU, as they do on a CI runner under a parallel suite.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from bot.loopwatch import RunQueue

#: A hog: says it has started, then spins until it is killed, or until its parent is gone (so
#: a test process that dies before it can kill its hogs leaves none behind).
HOG = """\
import os
parent = os.getppid()
print(flush=True)
while os.getppid() == parent:
    pass
"""


def _counts_the_wait_for_a_cpu() -> bool:
    run_queue = RunQueue.open(threading.get_native_id())
    if run_queue is None:
        return False
    run_queue.close()
    return True


#: For a test of the machine's share of a lag: it is only counted where the kernel does.
needs_schedstat = pytest.mark.skipif(not _counts_the_wait_for_a_cpu(),
                                     reason="the kernel does not count a thread's wait for "
                                            "a CPU here (/proc/self/task/<tid>/schedstat)")


def threads() -> list[int]:
    """The native ids of this process's threads."""
    return [int(tid) for tid in os.listdir("/proc/self/task")]


def spin(seconds: float) -> None:
    """Run on a CPU until the calling thread has used `seconds` of CPU time (however long
    the machine takes to give it that much)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


@contextlib.contextmanager
def sharing_one_core(hogs: int = 4) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Pin every thread of this process (and those it starts meanwhile) and `hogs` CPU-bound
    processes to one core; yield the hogs once all of them spin. On leaving, however the
    block ends, the hogs are killed and waited for and every thread gets back the CPUs it
    had (one started meanwhile, the process's)."""
    core = max(os.sched_getaffinity(0))
    process_cpus = os.sched_getaffinity(0)
    before = {tid: os.sched_getaffinity(tid) for tid in threads()}
    started: list[subprocess.Popen[bytes]] = []
    try:
        for tid in before:
            with contextlib.suppress(ProcessLookupError):  # a thread that ended meanwhile
                os.sched_setaffinity(tid, {core})
        for _ in range(hogs):
            hog = subprocess.Popen([sys.executable, "-c", HOG], stdout=subprocess.PIPE)
            started.append(hog)
            os.sched_setaffinity(hog.pid, {core})
        for hog in started:
            assert hog.stdout is not None
            hog.stdout.readline()
        yield started
    finally:
        for hog in started:
            hog.kill()
        for hog in started:
            hog.wait()
            if hog.stdout is not None:
                hog.stdout.close()
        for tid in threads():
            with contextlib.suppress(ProcessLookupError):
                os.sched_setaffinity(tid, before.get(tid, process_cpus))
