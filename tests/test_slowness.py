"""`tests/slowness.py`: time limits in a quiet machine's seconds. A limit stretches by what
the test's processes waited for a CPU, and not while they idle (a test waiting for what never
comes fails in its limit's time, however busy the machine)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from tests.cpu_hogs import needs_schedstat, sharing_one_core, spin
from tests.slowness import (
    MAX_STRETCH,
    Deadline,
    DeadlineExceeded,
    Meter,
    Reading,
    waited_between,
    within,
)


def reading(**threads: float) -> Reading:
    """A reading of thread `tN`'s seconds waiting for a CPU, by name."""
    return Reading(0.0, {(1, int(tid[1:])): counts for tid, counts in threads.items()})


def test_the_machines_share_is_every_threads_wait_for_a_cpu_since() -> None:
    before = reading(t1=1.0, t2=0.0)
    # Two threads waited 1 s each, one started since 0.5 s: counted whole; one ended.
    assert waited_between(before, reading(t1=2.0, t2=1.0, t3=0.5)) == 2.5
    assert waited_between(before, reading(t2=0.0)) == 0.0


def test_on_a_quiet_reading_a_deadline_is_the_wall_clocks() -> None:
    deadline = Deadline(0.05, Meter())
    assert not deadline.passed()
    time.sleep(0.1)
    assert deadline.passed()


@needs_schedstat
def test_a_deadline_stretches_while_this_process_waits_for_a_cpu() -> None:
    with sharing_one_core(hogs=3):
        deadline = Deadline(0.5, Meter())
        worker = threading.Thread(target=spin, args=(0.3,))
        worker.start()
        while worker.is_alive():
            assert not deadline.passed(), deadline.describe()
            time.sleep(0.05)
        worker.join()
        # 0.3 s of CPU took about four times as long on a core shared with three hogs.
        assert deadline.elapsed() > 0.6
        assert deadline.waited > 0.3, deadline.describe()
    deadline.started -= deadline.seconds * MAX_STRETCH
    assert deadline.passed()  # however long it waited, at MAX_STRETCH times its limit


@needs_schedstat
async def test_a_wait_for_what_never_comes_ends_in_its_time_on_a_busy_machine() -> None:
    with sharing_one_core(hogs=3):
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded, match=r"the wait took over 0.5 s of a quiet"):
            async with within(0.5):
                await asyncio.sleep(30)
        assert time.monotonic() - started < 0.5 * MAX_STRETCH


async def test_a_wait_done_in_time_is_left_as_it_was() -> None:
    async with within(5.0) as deadline:
        await asyncio.sleep(0.01)
    assert not deadline.passed()
    with pytest.raises(TimeoutError) as raised:  # a timeout of its own is not this one's
        async with within(5.0):
            raise TimeoutError("mine")
    assert raised.type is TimeoutError
