"""Running a real discord.py client against the fake, and stopping it without leaks.

`run_client` logs the client in (REST: `/users/@me`, `/oauth2/applications/@me`, then the
client's `setup_hook`, which is where bots sync their command tree), starts `client.connect()`
as a task, and waits for `on_ready`. On exit it closes the client, waits for `connect()` to
return, gives the tasks the client started a moment to finish, cancels the ones discord.py
leaves behind on purpose (view timeout timers and similar), joins the heartbeat threads, and
waits for the fake (on its own loop) to see the client's gateway connection close. Anything
else still running is reported in `ClientRun.leftover_tasks`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import discord
from discord.gateway import KeepAliveHandler

from .loop import task_name

if TYPE_CHECKING:
    from .server import FakeDiscord

C = TypeVar("C", bound=discord.Client)


@dataclass
class ClientRun:
    """What happened to one client run (filled in on exit)."""

    cancelled_tasks: list[str] = field(default_factory=list)
    leftover_tasks: list[str] = field(default_factory=list)
    leftover_threads: list[str] = field(default_factory=list)


def _is_idle_timer(task: asyncio.Task[object]) -> bool:
    """A view or modal timeout timer: sleeps until its timeout (minutes), so waiting for it
    to finish is pointless."""
    return task_name(task).endswith("__timeout_task_impl)") and _from_discord(task)


def _from_discord(task: asyncio.Task[object]) -> bool:
    coro = task.get_coro()
    frame = getattr(coro, "cr_frame", None)
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    return module == "discord" or module.startswith("discord.")


async def stop_client(client: discord.Client, connect_task: asyncio.Task[None] | None,
                      before: set[asyncio.Task[object]], run: ClientRun, *,
                      grace: float = 1.0) -> None:
    """Close `client`, wait for its connect loop, then settle the tasks it started."""
    await client.close()
    if connect_task is not None:
        try:
            await asyncio.wait_for(asyncio.shield(connect_task), timeout=5.0)
        except TimeoutError:
            connect_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await connect_task
        except Exception:
            pass
    current = asyncio.current_task()
    started = {t for t in asyncio.all_tasks() if t not in before and t is not current}
    timers = {t for t in started if not t.done() and _is_idle_timer(t)}
    pending = {t for t in started if not t.done()} - timers
    if pending:
        _, pending = await asyncio.wait(pending, timeout=grace)
    pending |= timers
    for task in pending:
        if _from_discord(task):
            run.cancelled_tasks.append(task_name(task))
            task.cancel()
    cancelled = [t for t in pending if _from_discord(t)]
    if cancelled:
        await asyncio.gather(*cancelled, return_exceptions=True)
    run.leftover_tasks = [task_name(t) for t in pending if not t.done()]
    for thread in _heartbeat_threads(client):
        thread.join(timeout=2.0)
    run.leftover_threads = [t.name for t in _heartbeat_threads(client) if t.is_alive()]


def _heartbeat_threads(client: discord.Client) -> list[threading.Thread]:
    """The heartbeat threads of `client`'s websockets (not of another client still running
    in the same test, as the shards of a bot in two processes are)."""
    return [thread for thread in threading.enumerate()
            if isinstance(thread, KeepAliveHandler)
            and getattr(thread.ws, "_connection", None) is client._connection]


async def _identify_now(shard_id: int | None, *, initial: bool = False) -> None:
    """`before_identify_hook` without discord.py's 5-second pause before a re-IDENTIFY."""


class IdentifyGate:
    """A `before_identify_hook` that holds every IDENTIFY after the first until the test
    opens the gate: where discord.py pauses 5 s before identifying anew, a test gets a gap
    as long as it wants, in which the bot has no gateway session at all.

        gate = IdentifyGate()
        client.before_identify_hook = gate
        async with fake.run(client, fast_reidentify=False):
            await fake.drop_gateway(resumable=False)
            await gate.reached.wait()        # the bot is about to IDENTIFY anew
            ...                              # what happens now, the bot never hears of
            gate.open()
            await fake.wait_connected()
    """

    def __init__(self) -> None:
        #: Set once the bot waits at the gate.
        self.reached = asyncio.Event()
        self._opened = asyncio.Event()

    async def __call__(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial:
            self.reached.set()
            await self._opened.wait()

    def open(self) -> None:
        """Let the waiting (and every later) IDENTIFY through."""
        self._opened.set()


@asynccontextmanager
async def run_client(fake: FakeDiscord, client: C, *, timeout: float = 10.0,
                     fast_reidentify: bool = True) -> AsyncIterator[C]:
    """Log `client` in against `fake`, connect it, and yield it once it is ready.

    With `fast_reidentify` (the default) the client's `before_identify_hook` does not sleep:
    discord.py waits 5 s before every IDENTIFY after the first (to respect Discord's identify
    rate limit), which would make every invalidated-session test 5 s slower."""
    if fast_reidentify:
        client.before_identify_hook = _identify_now  # type: ignore[method-assign]
    before = set(asyncio.all_tasks())
    first_connection = len(fake.gateway.connections)
    run = ClientRun()
    fake.runs.append(run)
    connect_task: asyncio.Task[None] | None = None
    try:
        await asyncio.wait_for(client.login(fake.token), timeout)
        connect_task = asyncio.create_task(client.connect(reconnect=True),
                                           name="fake-discord: client.connect")
        ready = asyncio.create_task(client.wait_until_ready(),
                                    name="fake-discord: wait_until_ready")
        done, _ = await asyncio.wait({connect_task, ready}, timeout=timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            if connect_task in done:
                connect_task.result()
                raise RuntimeError("the client stopped before it was ready")
            raise TimeoutError(f"the client was not ready after {timeout}s\n{fake.problems()}")
        yield client
    finally:
        await stop_client(client, connect_task, before, run)
        # The fake notices the closed websocket on its own loop, a moment later.
        await fake.wait_until(
            lambda: not any(c.open for c in fake.gateway.connections[first_connection:]),
            what="the fake to see the client's gateway connection close")
