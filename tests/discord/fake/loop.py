"""The fake's own thread and event loop, and the one place where calls cross into it.

The fake Discord runs in a thread of its own, on an event loop of its own, so that it keeps
its own schedule whatever the bot's loop (which is also the test's) is doing: an interaction
is sent, stamped and timed out on the fake's clock even while the bot's loop is blocked.

Two rules keep the fake's state safe to share with the test's thread:

* Everything the fake does runs on its loop, and that loop holds `LoopThread.lock` while it
  runs (the lock is let go only while the loop waits for I/O; see `_UnlockingSelector`). So
  whatever takes the lock sees the fake between two of its steps, never half-way through one.
* The test's thread takes the lock to read several things together (`locked`: snapshots,
  `wait_until` conditions) or to change the world (`locked`: `add_user`, `fail`, ...), and
  runs the fake's actions (`slash`, `click`, ...) on the fake's loop (`on_fake_loop`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import selectors
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

T = TypeVar("T")
P = ParamSpec("P")


class _UnlockingSelector(selectors.DefaultSelector):
    """The fake loop's selector: the loop thread holds `lock` from the start, and lets go of
    it only while it waits here for I/O or a timer, so every callback of the loop runs with
    the lock held."""

    def __init__(self, lock: threading.RLock) -> None:
        super().__init__()
        self._lock = lock

    def select(self, timeout: float | None = None
               ) -> list[tuple[selectors.SelectorKey, int]]:
        self._lock.release()
        try:
            return super().select(timeout)
        finally:
            self._lock.acquire()


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread, if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def task_name(task: asyncio.Task[Any]) -> str:
    coro = task.get_coro()
    qualname = getattr(coro, "__qualname__", repr(coro))
    return f"{task.get_name()} ({qualname})"


class LoopThread:
    """A thread running an event loop, the lock that loop holds while it runs, and what it
    left behind when it stopped (`leftover_tasks`, `errors`: what reached the loop's
    exception handler, such as a task that failed and was never awaited)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lock = threading.RLock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.leftover_tasks: list[str] = []
        self.errors: list[str] = []
        self._thread: threading.Thread | None = None
        self._stopped: concurrent.futures.Future[None] = concurrent.futures.Future()

    def start(self) -> None:
        loop = asyncio.SelectorEventLoop(_UnlockingSelector(self.lock))
        loop.set_exception_handler(self._on_error)
        self.loop = loop
        self._thread = threading.Thread(target=self._serve, args=(loop,), name=self.name,
                                        daemon=True)
        self._thread.start()

    def _serve(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            with self.lock:
                asyncio.set_event_loop(loop)
                loop.run_forever()
                self._finish(loop)
                asyncio.set_event_loop(None)
                loop.close()
        finally:
            self._stopped.set_result(None)

    def _finish(self, loop: asyncio.AbstractEventLoop) -> None:
        """Cancel and record the tasks still running once the loop was told to stop."""
        tasks = asyncio.all_tasks(loop)
        self.leftover_tasks = [task_name(t) for t in tasks]
        for task in tasks:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())

    def _on_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        self.errors.append(f"{context.get('message')}: {error!r}" if error is not None
                           else str(context.get("message")))
        loop.default_exception_handler(context)

    async def stop(self) -> None:
        """Stop the loop (after the tasks still running are cancelled) and join the thread."""
        loop, thread = self.loop, self._thread
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        await asyncio.wrap_future(self._stopped)
        thread.join()
        self.loop = self._thread = None

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def on_loop(self) -> bool:
        """Called from the fake's own loop (or before it started)?"""
        return self.loop is None or running_loop() is self.loop

    async def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await `coro` run on the fake's loop, from any loop."""
        if self.on_loop():
            return await coro
        return await self.submit(coro)

    def submit(self, coro: Coroutine[Any, Any, T]) -> asyncio.Future[T]:
        """Start `coro` on the fake's loop now; the result is a future of the caller's loop
        (cancelling it cancels `coro`)."""
        assert self.loop is not None, "the fake is not running"
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))


class HasLoopThread(Protocol):
    @property
    def loop_thread(self) -> LoopThread: ...


S = TypeVar("S", bound=HasLoopThread)


def on_fake_loop(method: Callable[Concatenate[S, P], Coroutine[Any, Any, T]]
                 ) -> Callable[Concatenate[S, P], Coroutine[Any, Any, T]]:
    """A coroutine method of the fake that runs on the fake's loop whoever awaits it."""
    @functools.wraps(method)
    async def marshalled(fake: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await fake.loop_thread.run(method(fake, *args, **kwargs))
    return marshalled


def locked(method: Callable[Concatenate[S, P], T]) -> Callable[Concatenate[S, P], T]:
    """A plain method of the fake that runs under its lock: between two steps of the fake's
    loop, exactly as if it ran there."""
    @functools.wraps(method)
    def guarded(fake: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        with fake.loop_thread.lock:
            return method(fake, *args, **kwargs)
    return guarded
