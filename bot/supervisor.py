"""`jongg run --processes N`: one supervisor process that runs the bot as N child processes.

Each child runs its share of the bot's shards (`bot.discord.shards.split_shards`, as `jongg run
--shards S --shard-ids …`). The supervisor:

* prefixes every line a child writes with which child it is (`[1 shards 2,3]`) and passes it
  on to its own standard error, so one terminal or one service log shows them all;
* restarts a child that exits without being asked to, after a pause that doubles with each
  crash in a row (`Restarts`), and gives up, stopping the others too, once a child has crashed
  `give_up_after` times within `window` seconds: a crash loop (a wrong token, a database that
  cannot be reached) is not mended by trying forever, and a clear line saying so beats a log
  that scrolls for ever;
* on SIGTERM or SIGINT asks every child to stop as Ctrl-C would (SIGINT: `jongg run` then
  closes its games and the store cleanly), waits `grace` seconds, kills what is left, and
  exits.

Children run in their own session (process group), so a Ctrl-C in the terminal reaches the
supervisor alone, and it stops them in order. It imports nothing of discord: it only starts
programs, so the tests run it with small stand-in children.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.discord.shards import ShardPlan

log = logging.getLogger(__name__)

#: A child's command line for its shards.
ChildCommand = Callable[[ShardPlan], Sequence[str]]


def jongg_run_command(plan: ShardPlan) -> list[str]:
    """`jongg run` for these shards, with the Python that runs the supervisor."""
    return [sys.executable, "-m", "bot", "run", "--shards", str(plan.count),
            "--shard-ids", ",".join(map(str, plan.ids))]


@dataclass
class Restarts:
    """When to restart a crashed child: `first` seconds after its first crash, twice as long
    after each further crash within `window` seconds (at most `longest`); None (give up)
    once `give_up_after` crashes fall within `window`."""

    first: float = 1.0
    longest: float = 30.0
    window: float = 300.0
    give_up_after: int = 5
    _crashes: collections.deque[float] = field(default_factory=collections.deque, init=False)

    def after_crash(self, now: float) -> float | None:
        """Count a crash at `now`; the pause before restarting, or None to give up."""
        self._crashes.append(now)
        while self._crashes[0] < now - self.window:
            self._crashes.popleft()
        recent = len(self._crashes)
        if recent >= self.give_up_after:
            return None
        return min(self.longest, self.first * 2.0 ** (recent - 1))


@dataclass
class Child:
    """One child process slot: its shards, its name in the log, the process now running."""

    index: int
    plan: ShardPlan
    restarts: Restarts
    process: asyncio.subprocess.Process | None = None
    starts: int = 0

    @property
    def name(self) -> str:
        return f"{self.index} shards {','.join(map(str, self.plan.ids))}"


class Supervisor:
    """Runs one child per plan until stopped (`stop`, or SIGTERM/SIGINT in `run`)."""

    def __init__(self, plans: Sequence[ShardPlan], *,
                 command: ChildCommand = jongg_run_command,
                 restarts: Callable[[], Restarts] = Restarts, grace: float = 10.0,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.children = [Child(index, plan, restarts()) for index, plan in enumerate(plans)]
        self.command = command
        self.grace = grace
        self.now = now
        self._stopping = asyncio.Event()
        #: The reason the supervisor gave up, if it did.
        self.gave_up: str | None = None

    def stop(self) -> None:
        """Ask every child to stop, and the supervisor to return once they have."""
        self._stopping.set()

    async def run(self) -> int:
        """Run the children until stopped; 0 when stopped, 1 when it gave up on a child."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.stop)
        try:
            await asyncio.gather(*(self._keep(child) for child in self.children))
        finally:
            for signum in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(signum)
        if self.gave_up is not None:
            log.error("%s", self.gave_up)
            return 1
        log.info("every process has stopped")
        return 0

    async def _keep(self, child: Child) -> None:
        """Start `child`, and start it again each time it crashes, until stopping."""
        while not self._stopping.is_set():
            code = await self._run_once(child)
            if self._stopping.is_set():
                return
            pause = child.restarts.after_crash(self.now())
            if pause is None:
                self.gave_up = (f"process {child.name} crashed {child.restarts.give_up_after} "
                                f"times within {child.restarts.window:g} s (last exit code "
                                f"{code}); giving up and stopping the others: its last "
                                "lines above say why")
                self.stop()
                return
            log.warning("process %s exited with code %s; restarting it in %g s",
                        child.name, code, pause)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), pause)

    async def _run_once(self, child: Child) -> int:
        """Start the child and pass its lines on until it exits (stopping it when the
        supervisor stops); its exit code."""
        process = await asyncio.create_subprocess_exec(
            *self.command(child.plan), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True)
        child.process = process
        child.starts += 1
        log.info("started process %s (pid %d)", child.name, process.pid)
        lines = asyncio.create_task(self._pass_on(child, process))
        stopping = asyncio.create_task(self._stopping.wait())
        await asyncio.wait({lines, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stopping.done():
            await self._stop(process)
        else:
            stopping.cancel()
        await lines
        return await process.wait()

    @staticmethod
    async def _pass_on(child: Child, process: asyncio.subprocess.Process) -> None:
        """Write each line of the child's output to stderr, prefixed with its name."""
        assert process.stdout is not None
        async for line in process.stdout:
            text = line.decode("utf-8", "replace").rstrip("\n")
            sys.stderr.write(f"[{child.name}] {text}\n")
            sys.stderr.flush()

    async def _stop(self, process: asyncio.subprocess.Process) -> None:
        """SIGINT (what Ctrl-C sends: `jongg run` closes cleanly), then SIGKILL if it is
        still running after `grace` seconds."""
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(process.wait(), self.grace)
        except TimeoutError:
            log.warning("process %d did not stop within %g s: killing it", process.pid,
                        self.grace)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
