"""`jongg run --shards 2 --shard-ids 0` and `--shard-ids 1`, as two real processes against the
fake Discord (two shards, a server on each): each process connects its shard only and answers
its own server's slash commands, and stops cleanly on SIGINT (what `jongg run --processes`
sends its children). Each has its own SQLite file here: the processes share no game, and
several processes on one SQLite file is what the README says not to do."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest
from fake import Address, FakeDiscord, World

ROOT = Path(__file__).resolve().parents[2]

#: `jongg run` with discord.py pointed at the fake (argv: REST base, gateway, CDN, then the
#: options of `jongg run`).
RUN_AT = """\
import sys
sys.path.insert(0, sys.argv[1])
from fake import Address, point_discord
from bot.cli import main
point_discord(Address(*sys.argv[2:5]))
sys.exit(main(["run", *sys.argv[5:]]))
"""


async def start(fake: FakeDiscord, folder: Path, shard: int) -> asyncio.subprocess.Process:
    address: Address = fake.address
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": address.token,
           "JONGG_DB": str(folder / f"shard-{shard}.sqlite3")}
    env.pop("JONGG_DEV_GUILD", None)
    with (folder / f"shard-{shard}.log").open("wb") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-c", RUN_AT, str(Path(__file__).parent), address.api_base,
            address.gateway_url, address.cdn_base, "--shards", "2", "--shard-ids", str(shard),
            cwd=folder, env=env, stdout=log, stderr=log)


def ready_shards(fake: FakeDiscord) -> list[tuple[int, int]]:
    return sorted(s.shard for s in fake.gateway.live_sessions if s.ready and s.connected)


async def stop(process: asyncio.subprocess.Process, folder: Path, shard: int) -> str:
    """SIGINT, as Ctrl-C or the supervisor sends it; what the process logged."""
    process.send_signal(signal.SIGINT)
    await asyncio.wait_for(process.wait(), 60)
    return (folder / f"shard-{shard}.log").read_text()


@pytest.mark.shards(2)
async def test_two_jongg_run_processes_each_serve_their_shards_server(
        fake_discord: FakeDiscord, world: World, tmp_path: Path) -> None:
    fake = fake_discord
    far = fake.add_guild("Far Hall", shard=1)
    far_general = fake.add_channel(far, "general")
    fake.add_member(far, world.alice)
    first = await start(fake, tmp_path, 0)
    second = await start(fake, tmp_path, 1)
    try:
        await fake.wait_until(lambda: ready_shards(fake) == [(0, 2), (1, 2)], timeout=90,
                              what="both processes' shards to be ready")
        near = await fake.slash(world.alice, world.general, "rules", {"topic": "jokers"})
        away = await fake.slash(world.alice, far_general, "rules", {"topic": "jokers"})
        assert "joker" in (await near.reply(timeout=20)).text.lower()
        assert "joker" in (await away.reply(timeout=20)).text.lower()
        assert (near.delivered_to, away.delivered_to) == ([(0, 2)], [(1, 2)])

        logged = await stop(second, tmp_path, 1)
        assert second.returncode == 0, logged
        assert "restored 0 unfinished games (shards 1 of 2)" in logged
        assert "Traceback" not in logged
        # Shard 1's process is gone: its server's commands reach nobody; shard 0's still work.
        await fake.wait_until(lambda: ready_shards(fake) == [(0, 2)], timeout=20,
                              what="shard 1's session to end")
        assert (await fake.slash(world.alice, far_general, "rules", {"topic": "jokers"})).lost
        again = await fake.slash(world.alice, world.general, "rules", {"topic": "jokers"})
        assert "joker" in (await again.reply(timeout=20)).text.lower()
        logged = await stop(first, tmp_path, 0)
        assert first.returncode == 0, logged
        assert "restored 0 unfinished games (shards 0 of 2)" in logged
    finally:
        for process in (first, second):
            if process.returncode is None:
                process.kill()
                await process.wait()
    syncs = [r for r in fake.requests if r.method == "PUT" and "/commands" in r.path]
    assert len(syncs) == 1  # by shard 0's process only
