"""`jongg run` as a real process against the fake Discord: started with discord.py pointed
at the fake, stopped with SIGINT (as Ctrl-C or the supervisor stops it) or killed. Each
process started is watched by `tests/slowness.py`, so the tests' time limits allow for a busy
machine slowing it down."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

from fake import Address, FakeDiscord

from tests.slowness import wait_for, watch

ROOT = Path(__file__).resolve().parents[2]

#: `jongg run` with discord.py pointed at the fake (argv: REST base, gateway, CDN, then the
#: options of `jongg run`).
RUN_AT = """\
import sys
sys.path.insert(0, sys.argv[1])
from fake import Address, point_discord
from bot.cli.main import main
point_discord(Address(*sys.argv[2:5]))
sys.exit(main(["run", *sys.argv[5:]]))
"""


def log_path(folder: Path, shard: int) -> Path:
    """Where the process of `shard` writes its log (a restart appends to it)."""
    return folder / f"shard-{shard}.log"


async def start(fake: FakeDiscord, folder: Path, shard: int, database: str, *,
                shards: int = 2) -> asyncio.subprocess.Process:
    """`jongg run --shards SHARDS --shard-ids SHARD` on `database` (a file or a URL)."""
    address: Address = fake.address
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": address.token,
           "JONGG_DB": database}
    env.pop("JONGG_DEV_GUILD", None)
    with log_path(folder, shard).open("ab") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", RUN_AT, str(Path(__file__).parent), address.api_base,
            address.gateway_url, address.cdn_base, "--shards", str(shards), "--shard-ids",
            str(shard), cwd=folder, env=env, stdout=log, stderr=log)
    watch(process.pid)
    return process


def worker_log_path(folder: Path, port: int) -> Path:
    """Where the `--http` worker on `port` writes its log."""
    return folder / f"worker-{port}.log"


async def start_worker(fake: FakeDiscord, folder: Path, port: int, database: str
                       ) -> asyncio.subprocess.Process:
    """`jongg run --http 127.0.0.1:PORT` on `database`, with the fake's public key as
    DISCORD_PUBLIC_KEY."""
    address: Address = fake.address
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": address.token,
           "JONGG_DB": database, "DISCORD_PUBLIC_KEY": fake.public_key}
    env.pop("JONGG_DEV_GUILD", None)
    with worker_log_path(folder, port).open("ab") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", RUN_AT, str(Path(__file__).parent), address.api_base,
            address.gateway_url, address.cdn_base, "--http", f"127.0.0.1:{port}",
            cwd=folder, env=env, stdout=log, stderr=log)
    watch(process.pid)
    return process


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def ready_shards(fake: FakeDiscord) -> list[tuple[int, int]]:
    """The shards whose sessions are connected and ready, in order."""
    return sorted(s.shard for s in fake.gateway.live_sessions if s.ready and s.connected)


async def stop(process: asyncio.subprocess.Process, folder: Path, shard: int, *,
               log: Path | None = None) -> str:
    """SIGINT, as Ctrl-C or the supervisor sends it; what the process logged (in `log`, by
    default the log of `shard`'s process). It may take a quiet machine's minute to stop."""
    process.send_signal(signal.SIGINT)
    await wait_for(process.wait(), 60, f"process {process.pid} stopping on SIGINT")
    return (log or log_path(folder, shard)).read_text()


async def kill(*processes: asyncio.subprocess.Process) -> None:
    """kill -9 each process still running, and wait for it."""
    for process in processes:
        if process.returncode is None:
            process.kill()
            await process.wait()
