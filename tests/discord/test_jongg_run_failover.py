"""Two `jongg run` processes (shards 0 and 1 of 2) against the fake Discord and one
PostgreSQL database, playing a game on each shard's server. A DM's click reaches shard 0's
process whatever server its game is of, so the far server's game is played through both
processes. Killing the far server's process (kill -9) mid-game loses no move; the other
process's clocks and messages carry on for its own server meanwhile (and it still takes the
far game's DM clicks); the restarted process resumes the far game at once (it takes its
predecessor's claims back, being named by the same shards) and play goes on from the move
where it was."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fake import FakeDiscord, World
from jongg_process import kill, log_path, ready_shards, start, stop
from jongg_table import far_world, start_table
from run_players import Player, quick_answers

from bot.engine.game import parse_action
from bot.store import Database

pytestmark = pytest.mark.shards(2)

def auto_answers(actions: list[str], seat_name: str, actors: list[int | None]) -> int:
    """How many of a seat's moves the table made for it (no person's click)."""
    return sum(1 for text, actor in zip(actions, actors, strict=True)
               if actor is None and text.startswith(f"{seat_name}:"))


async def test_killing_a_process_mid_game_loses_no_move_and_its_restart_resumes(
        fake_discord: FakeDiscord, world: World, pg_url: str, tmp_path: Path) -> None:
    fake = fake_discord
    far = far_world(fake, world)
    near_process = await start(fake, tmp_path, 0, pg_url)
    far_process = await start(fake, tmp_path, 1, pg_url)
    try:
        async with Database(pg_url) as db:
            await fake.wait_until(lambda: ready_shards(fake) == [(0, 2), (1, 2)],
                                  timeout=90, what="both processes' shards to be ready")
            await quick_answers(fake, world, world.alice)
            await quick_answers(fake, far, world.bob)
            near_id, _, near_thread = await start_table(fake, world, [world.alice], bots=3)
            far_id, _, far_thread = await start_table(fake, far, [world.bob], bots=3)
            alice = Player(fake, db, world.alice, near_id, near_thread.id)
            bob = Player(fake, db, world.bob, far_id, far_thread.id)

            # Bob's game is played through both processes: his DM clicks reach the near
            # server's, the far table's posts the far server's.
            async def both_ways() -> bool:
                return bob.by_dm >= 2 and bob.by_post >= 2

            await asyncio.gather(alice.play(6), bob.play_until(both_ways))

            far_process.kill()  # kill -9, mid-game
            await far_process.wait()
            before = [(a.seq, a.text) for a in await db.actions.actions(far_id)]
            assert await bob.moves() >= bob.by_dm + bob.by_post  # every move he made is kept

            # The near process carries on: its own game's clocks and messages (Alice leaves
            # the claim windows to the clocks: an automatic pass, or the window's end), and
            # a DM click at the far game (its messages wait for the claim).
            near_before = len(await db.actions.actions(near_id))
            await alice.play(8, dm_only=True)
            near = await db.actions.actions(near_id)
            assert auto_answers([a.text for a in near[near_before:]], "East",
                                [a.actor_user_id for a in near[near_before:]]) > 0
            await bob.play(1, dm_only=True)

            far_process = await start(fake, tmp_path, 1, pg_url)
            await fake.wait_until(lambda: ready_shards(fake) == [(0, 2), (1, 2)],
                                  timeout=90, what="the far process to be back")
            assert "restored 1 unfinished games (shards 1 of 2)" in (
                log_path(tmp_path, 1).read_text())
            await bob.play(6)
            after = [(a.seq, a.text) for a in await db.actions.actions(far_id)]
            assert after[:len(before)] == before
            assert len(after) > len(before)
            assert await bob.moves() >= bob.by_dm + bob.by_post

        logs = {shard: await stop(process, tmp_path, shard)
                for shard, process in ((0, near_process), (1, far_process))}
        assert (near_process.returncode, far_process.returncode) == (0, 0), logs
        for shard, text in logs.items():
            assert "Traceback" not in text, (shard, text)
    finally:
        await kill(near_process, far_process)


def test_auto_answers_counts_only_the_seats_moves_nobody_clicked() -> None:
    texts = ["East: pass", "South: pass", "East: discard 3B", "East: pass"]
    assert auto_answers(texts, "East", [None, None, 7, None]) == 2
    assert parse_action(texts[2], 4).seat == 0  # the seat names are the log's own
