"""`jongg run --shards 2 --shard-ids 0` and `--shard-ids 1`, as two real processes against the
fake Discord (two shards, a server on each): each process connects its shard only and answers
its own server's slash commands, and stops cleanly on SIGINT (what `jongg run --processes`
sends its children). Each has its own SQLite file here: the processes share no game, and
several processes on one SQLite file is what docs/operating.md ("Shards and processes") says not
to do."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, World
from jongg_process import kill, ready_shards, start, stop


@pytest.mark.shards(2)
async def test_two_jongg_run_processes_each_serve_their_shards_server(
        fake_discord: FakeDiscord, world: World, tmp_path: Path) -> None:
    fake = fake_discord
    far = fake.add_guild("Far Hall", shard=1)
    far_general = fake.add_channel(far, "general")
    fake.add_member(far, world.alice)
    first = await start(fake, tmp_path, 0, str(tmp_path / "shard-0.sqlite3"))
    second = await start(fake, tmp_path, 1, str(tmp_path / "shard-1.sqlite3"))
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
        await kill(first, second)
    syncs = [r for r in fake.requests if r.method == "PUT" and "/commands" in r.path]
    assert len(syncs) == 1  # by shard 0's process only
