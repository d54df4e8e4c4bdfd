"""A blocked event loop is seen, as on Discord: the fake Discord keeps its own clock in its own
thread, so an interaction sent while the bot's loop is blocked is stamped when it was sent and
fails if the bot answers too late; the loop-lag watchdog catches the stall and fails the test.

These tests block the loop on purpose (`stalls_loop`): the watchdog measures them without
failing them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fake import CLIENT_OPTIONS, FakeDiscord, InteractionFailed, World
from loop_lag import LIMIT, verdict

from bot import loopwatch
from bot.discord.client import JonggClient
from bot.loopwatch import LoopWatch
from tests.cpu_hogs import needs_schedstat

pytestmark = pytest.mark.stalls_loop
pytest_plugins = ["pytester"]

MakeBot = Callable[..., commands.Bot]
#: How long a stall lasts: past the watchdog's limit.
STALL = 0.4
#: CPU time of work that, sharing a core with CPU-bound processes, lags the loop past it.
CONTENDED = 0.1


def stalling_bot(make_bot: MakeBot, errors: list[Exception]) -> commands.Bot:
    """`/ping` answers at once; `/block` blocks the event loop for `STALL`, then answers."""
    bot = make_bot()

    @bot.tree.command(description="Answers at once")
    async def ping(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pong")

    @bot.tree.command(description="Blocks the event loop, then answers")
    async def block(interaction: discord.Interaction[Any]) -> None:
        time.sleep(STALL)  # the bug this file is about: blocking work on the loop
        await interaction.response.send_message("done")

    @bot.tree.error
    async def on_error(interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        errors.append(error)

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_the_watchdog_catches_a_handler_that_blocks_the_loop(
        fake_discord: FakeDiscord, world: World, make_bot: MakeBot) -> None:
    errors: list[Exception] = []
    async with fake_discord.run(stalling_bot(make_bot, errors)):
        watch = LoopWatch(threshold=LIMIT, on_stall=None)
        watch.start()
        handle = await fake_discord.slash(world.alice, world.general, "block")
        assert (await handle.reply()).content == "done"
        await watch.stop()
    assert watch.worst > LIMIT
    failure = verdict(watch)  # what the `loop_lag` fixture fails a test with
    assert failure is not None and f"stalled for {watch.worst_held * 1000:.0f} ms" in failure
    assert not errors


async def test_an_interaction_sent_during_a_stall_fails_on_the_fakes_clock(
        fake_discord: FakeDiscord, world: World, make_bot: MakeBot) -> None:
    errors: list[Exception] = []
    fake_discord.interaction_ack_timeout = 0.3
    async with fake_discord.run(stalling_bot(make_bot, errors)):
        pending = fake_discord.later(0.1, fake_discord.slash, world.bob, world.general, "ping")
        time.sleep(STALL + 0.2)  # the bot's loop (this one) is blocked past the window
        handle = await pending
        with pytest.raises(InteractionFailed, match=r"did not acknowledge within 0\.3s"):
            await handle.acked()
        # The bot answered as soon as its loop was free: too late, Discord refused it.
        await fake_discord.wait_until(lambda: errors, what="the late callback's error")
    assert handle.too_late
    [error] = errors
    assert isinstance(error, app_commands.CommandInvokeError)
    assert isinstance(error.original, discord.NotFound) and error.original.code == 10062


async def test_an_interaction_scheduled_during_a_stall_is_sent_on_time(
        fake_discord: FakeDiscord, world: World, make_bot: MakeBot) -> None:
    errors: list[Exception] = []
    async with fake_discord.run(stalling_bot(make_bot, errors)):
        pending = fake_discord.later(0.1, fake_discord.slash, world.alice, world.general,
                                     "ping")
        time.sleep(STALL)
        stall_ended = time.monotonic()
        handle = await pending
        assert (await handle.reply()).content == "pong"
    # Sent (and stamped) by the fake at its time, during the stall; answered after it.
    assert pending.due <= handle.created < stall_ended
    assert handle.callback is not None and handle.callback.at > stall_ended
    assert not errors


async def test_jongg_run_warns_when_the_loop_stalls(
        fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    client = JonggClient(tmp_path / "j.db", sync_commands=False, run_clocks=False,
                         watch_loop=True, **CLIENT_OPTIONS)
    async with fake_discord.run(client):
        await asyncio.sleep(0.05)
        time.sleep(STALL)
        warned = await fake_discord.wait_until(
            lambda: [r for r in caplog.records
                     if r.name == "bot.loopwatch" and r.levelno == logging.WARNING],
            what="the watchdog's warning")
    message = warned[0].getMessage()
    assert "the event loop was blocked for up to" in message
    assert "it was held at tests/discord/test_loop_stalls.py:" in message  # the sleep above
    assert client.loop_watch is not None and client.loop_watch.worst > LIMIT


def _inner_run(pytester: pytest.Pytester, tests: str) -> pytest.RunResult:
    """A pytest run of its own, of `tests` (source) under the `loop_lag` fixture, with a
    stand-in for the fake: the tests using it are the watched ones."""
    pytester.makeini("[pytest]\nasyncio_mode = auto\n"
                     "asyncio_default_fixture_loop_scope = function\n")
    pytester.makeconftest("""
        import pytest
        from loop_lag import *  # noqa: F403

        @pytest.fixture
        def fake_discord() -> None:
            "Stands for the fake: the tests using it are the watched ones."
        """)
    pytester.makepyfile(test_inner=tests)
    return pytester.runpytest_inprocess("-p", "no:cacheprovider")


@needs_schedstat
def test_the_loop_lag_fixture_fails_code_that_stalls_and_not_the_machine(
        pytester: pytest.Pytester) -> None:
    """The `loop_lag` fixture fails an end-to-end test that blocks its loop over the limit,
    naming the lag and the line that held the loop; one that yields passes, and so do one
    whose 100 ms of work take far longer because CPU-bound processes share its one core (the
    machine's share, which the summary gives), one marked `stalls_loop` and one without the
    fake. The summary gives the largest lag and where."""
    result = _inner_run(pytester, f"""
        import asyncio
        import time

        import pytest
        from tests.cpu_hogs import sharing_one_core, spin

        @pytest.fixture
        def one_core():
            with sharing_one_core(hogs=4):
                yield

        async def test_blocks(fake_discord: None) -> None:
            await asyncio.sleep(0.05)
            time.sleep({STALL})

        async def test_yields(fake_discord: None) -> None:
            await asyncio.sleep(0.05)

        async def test_contended(fake_discord: None, one_core: None) -> None:
            await asyncio.sleep(0.05)
            spin({CONTENDED})
            await asyncio.sleep(0.05)

        @pytest.mark.stalls_loop
        async def test_blocks_on_purpose(fake_discord: None) -> None:
            time.sleep({STALL})

        async def test_without_the_fake() -> None:
            time.sleep({STALL})  # no bot runs here: not watched
        """)
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.re_match_lines([r"the event loop stalled for \d+ ms \(limit 250 ms.*the loop "
                                  r"was held at test_inner.py:\d+ in test_blocks <",
                                  r"largest loop lag: \d+ ms in test_inner.py::test_blocks$",
                                  r"the machine's share \(the loop not given a CPU, not "
                                  r"failed\): \d+ ms of a \d+ ms lag in "
                                  r"test_inner.py::test_contended$",
                                  r"stalls on purpose .* test_inner.py::test_blocks_on_purpose",
                                  r"FAILED test_inner.py::test_blocks - "])


def test_without_schedstat_a_stall_while_the_process_is_stopped_is_the_machines(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the kernel does not count the wait for a CPU, the wall clock judges: a test that
    blocks its loop fails, and one whose process is stopped (SIGSTOP: its loop idle, the
    machine held it) passes, its lag given as the machine's share."""
    monkeypatch.setattr(loopwatch, "SCHEDSTAT", "/nonexistent/{tid}/schedstat")
    result = _inner_run(pytester, f"""
        import asyncio
        import os
        import subprocess
        import time

        async def test_blocks(fake_discord: None) -> None:
            await asyncio.sleep(0.05)
            time.sleep({STALL})

        async def test_stopped(fake_discord: None) -> None:
            await asyncio.sleep(0.05)
            pid = os.getpid()
            stop = subprocess.Popen(["sh", "-c", f"kill -STOP {{pid}}; sleep {STALL}; "
                                                 f"kill -CONT {{pid}}"])
            await asyncio.sleep({STALL} * 2)
            await asyncio.to_thread(stop.wait)
        """)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.re_match_lines([r"largest loop lag: \d+ ms in test_inner.py::test_blocks$",
                                  r"the machine's share \(the loop not given a CPU, not "
                                  r"failed\): (\d+) ms of a \1 ms lag in "
                                  r"test_inner.py::test_stopped$",
                                  r"FAILED test_inner.py::test_blocks - "])
