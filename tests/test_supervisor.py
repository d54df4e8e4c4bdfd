"""The supervisor of `jongg run --processes N` (`bot.supervisor`), with real child processes.

The children here are small stand-ins for `jongg run --shards S --shard-ids …` (which needs
Discord, and PostgreSQL for more than one process): Python programs that say they run, crash
when told to, and stop on SIGINT as `jongg run` does (or ignore it, to be killed). What is
tested is the supervisor's part: prefixed lines, restarts after a crash, giving up on a crash
loop, and stopping every child on stop, SIGTERM or SIGINT. Its real child command is checked
to be the `jongg run` that runs the same shards.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli.main import build_parser
from bot.discord.shards import ShardPlan, parse_shard_plan, split_shards
from bot.supervisor import Restarts, Supervisor, jongg_run_command

ROOT = Path(__file__).resolve().parents[1]

#: A stand-in child: argv is the folder to leave its traces in, then its shard ids. Told by
#: files there what to do: `crash-IDS` (crash at every start), `crash-once-IDS` (crash at
#: the first start), `stubborn-IDS` (ignore SIGINT). It writes `run-IDS-PID` once running
#: and `stopped-IDS-PID` when it stops cleanly.
CHILD = """\
import os, signal, sys, time
from pathlib import Path
folder, ids = Path(sys.argv[1]), sys.argv[2]
pid = os.getpid()
print(f"child {ids} started", flush=True)
once = folder / f"crash-once-{ids}"
if (folder / f"crash-{ids}").exists() or once.exists():
    once.unlink(missing_ok=True)
    print("crashing", flush=True)
    sys.exit(3)
if (folder / f"stubborn-{ids}").exists():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
(folder / f"run-{ids}-{pid}").touch()
try:
    while True:
        time.sleep(0.05)
except KeyboardInterrupt:
    print("stopping cleanly", flush=True)
    (folder / f"stopped-{ids}-{pid}").touch()
"""


def stand_in(folder: Path) -> Callable[[ShardPlan], list[str]]:
    def command(plan: ShardPlan) -> list[str]:
        return [sys.executable, "-c", CHILD, str(folder), ",".join(map(str, plan.ids))]

    return command


def quick() -> Restarts:
    return Restarts(first=0.05, longest=0.2, window=60.0, give_up_after=3)


def traces(folder: Path, kind: str, ids: str) -> list[Path]:
    return sorted(folder.glob(f"{kind}-{ids}-*"))


async def eventually(check: Callable[[], object], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_child_command_is_jongg_run_for_the_same_shards() -> None:
    for plan in split_shards(5, 2):
        command = jongg_run_command(plan)
        assert command[:4] == [sys.executable, "-m", "bot", "run"]
        args = build_parser().parse_args(command[3:])
        assert args.processes is None
        assert parse_shard_plan(args.shards, args.shard_ids) == plan


def test_restarts_pause_longer_after_each_crash_and_give_up_on_a_loop() -> None:
    restarts = Restarts(first=1.0, longest=5.0, window=100.0, give_up_after=5)
    assert [restarts.after_crash(t) for t in (0, 1, 2, 3)] == [1.0, 2.0, 4.0, 5.0]
    assert restarts.after_crash(4) is None
    spaced = Restarts(first=1.0, window=10.0, give_up_after=2)
    assert [spaced.after_crash(t) for t in (0, 20, 40)] == [1.0, 1.0, 1.0]  # not a loop


async def test_a_crashed_child_is_restarted_and_every_child_stops_with_the_supervisor(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "crash-once-0,1").touch()
    supervisor = Supervisor(split_shards(4, 2), command=stand_in(tmp_path), restarts=quick)
    running = asyncio.create_task(supervisor.run())
    await eventually(lambda: traces(tmp_path, "run", "0,1") and traces(tmp_path, "run", "2,3"))
    supervisor.stop()
    assert await running == 0
    assert [child.starts for child in supervisor.children] == [2, 1]
    for ids in ("0,1", "2,3"):
        [ran] = traces(tmp_path, "run", ids)
        [stopped] = traces(tmp_path, "stopped", ids)
        assert ran.name.split("-")[-1] == stopped.name.split("-")[-1]
    lines = capfd.readouterr().err.splitlines()
    assert lines.count("[0 shards 0,1] child 0,1 started") == 2
    assert "[0 shards 0,1] crashing" in lines
    assert "[1 shards 2,3] child 2,3 started" in lines
    assert "[1 shards 2,3] stopping cleanly" in lines


async def test_a_crash_loop_is_given_up_with_a_clear_message_and_the_others_stop(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "crash-2,3").touch()
    supervisor = Supervisor(split_shards(4, 2), command=stand_in(tmp_path), restarts=quick)
    assert await asyncio.wait_for(supervisor.run(), 30) == 1
    assert supervisor.children[1].starts == 3
    assert supervisor.gave_up is not None
    assert supervisor.gave_up.startswith("process 1 shards 2,3 crashed 3 times within 60 s "
                                         "(last exit code 3); giving up")
    assert supervisor.gave_up in caplog.text
    assert len(traces(tmp_path, "stopped", "0,1")) == 1  # the healthy one was stopped


SUPERVISE = """\
import asyncio, logging, sys
from pathlib import Path
logging.basicConfig(level=logging.INFO)
sys.path.insert(0, sys.argv[2])
from test_supervisor import stand_in
from bot.discord.shards import split_shards
from bot.supervisor import Restarts, Supervisor
supervisor = Supervisor(split_shards(3, 3), command=stand_in(Path(sys.argv[1])),
                        restarts=Restarts, grace=0.5)
sys.exit(asyncio.run(supervisor.run()))
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_a_signal_to_the_supervisor_stops_every_child(tmp_path: Path, signum: int) -> None:
    (tmp_path / "stubborn-2").touch()  # ignores SIGINT: killed after the grace period
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen([sys.executable, "-c", SUPERVISE, str(tmp_path),
                           str(Path(__file__).parent)], env=env, cwd=tmp_path,
                          stderr=subprocess.PIPE, text=True) as supervisor:
        deadline = time.monotonic() + 30
        while not all(traces(tmp_path, "run", ids) for ids in "012"):
            assert supervisor.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        pids = [int(traces(tmp_path, "run", ids)[0].name.split("-")[-1]) for ids in "012"]
        supervisor.send_signal(signum)
        _, errors = supervisor.communicate(timeout=30)
    assert supervisor.returncode == 0, errors
    assert not any(alive(pid) for pid in pids)
    assert [len(traces(tmp_path, "stopped", ids)) for ids in "012"] == [1, 1, 0]
    assert f"process {pids[2]} did not stop within 0.5 s: killing it" in errors
    assert "every process has stopped" in errors
