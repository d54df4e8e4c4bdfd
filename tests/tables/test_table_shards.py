"""A process that runs some of the bot's shards resumes and times only its servers' games:
the others' games stay as they are in the store, clocks and all, for their own process."""

from __future__ import annotations

from pathlib import Path

from table_helpers import ANN, BO, HOST, Clock, Recorder, make_service, open_game

from bot.discord.shards import ShardPlan
from bot.engine.game import THREE_PLAYER
from bot.store import ClockKind, Database

#: Servers on shard 0 and on shard 1 of 2 (Discord's `(guild_id >> 22) % 2`).
NEAR, FAR = 7, 1 << 22
SHARD_0, SHARD_1 = ShardPlan(2, (0,)), ShardPlan(2, (1,))


async def turn_clocks(db: Database, game_id: int) -> list[float]:
    return [c.due_at for c in await db.clocks.clocks(game_id) if c.kind is ClockKind.TURN]


async def test_each_process_resumes_and_times_only_the_games_of_its_shards(
        tmp_path: Path) -> None:
    clock = Clock()
    humans = [HOST, ANN, BO]
    async with Database(tmp_path / "j.db") as db:
        opener = make_service(db, Recorder(), clock)
        near = await open_game(opener, THREE_PLAYER, humans, guild_id=NEAR)
        far = await open_game(opener, THREE_PLAYER, humans, guild_id=FAR)
        await opener.close()
        far_clock = await turn_clocks(db, far)
        assert far_clock and await turn_clocks(db, near)

        first = make_service(db, Recorder(), clock, owns=SHARD_0.owns)
        assert await first.start(run_clocks=False) == 1
        assert first.in_play(near) and not first.in_play(far)
        clock.now += 3600  # every turn clock has run out
        assert await first.run_due_clocks() == 1  # the near game's; the far one is left be
        assert first.others_due == 1
        assert await turn_clocks(db, far) == far_clock
        actions_far = len((await db.games.load_game(far)).actions)
        await first.close()

        second = make_service(db, Recorder(), clock, owns=SHARD_1.owns)
        assert await second.start(run_clocks=False) == 1
        assert second.in_play(far) and not second.in_play(near)
        assert await second.run_due_clocks() == 1
        assert second.others_due == 0  # the near game's new clock is due in an hour
        assert len((await db.games.load_game(far)).actions) > actions_far
        await second.close()
