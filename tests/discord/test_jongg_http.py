"""Jongg taking its interactions over HTTP: a game played through the Interactions Endpoint
(every click answered in the HTTP response, no gateway connection), and two `jongg run
--http` worker processes on one PostgreSQL database behind one URL (the fake takes them in
turn, as a reverse proxy would) taking the clicks of one game alternately, with a plain
`jongg run` as the gateway process: no move lost, none made twice, and a question one
worker asks (`/mj abort`'s Yes or No) answered at the other."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fake import FakeDiscord, World
from jongg_process import free_port, kill, start, start_worker, stop, worker_log_path
from jongg_table import jongg_client, start_table
from test_http_endpoint import callbacks, http_worker
from test_jongg_run_failover import Player, quick_answers

from bot.store import Database, GameStatus
from tests.slowness import Deadline

#: How long a worker process may take to start serving (a quiet machine's seconds).
START_PATIENCE = 90.0


async def test_a_game_over_http_answers_every_click_in_the_response(
        fake_discord: FakeDiscord, world: World, tmp_path: Path) -> None:
    fake = fake_discord
    client = jongg_client(tmp_path / "jongg.sqlite3")
    async with http_worker(fake, client) as url:
        await fake.set_interactions_endpoint(url)
        game_id, _, thread = await start_table(fake, world, [world.alice], bots=3)
        alice = Player(fake, client.service.db, world.alice, game_id, thread.id)
        await alice.play(6)
        assert await alice.moves() == alice.by_dm + alice.by_post
        posted = [post for post in fake.endpoint.posts if post.interaction is not None]
        assert len(posted) >= 6 + 5  # the moves, /mj new and the lobby's clicks
        assert [(p.status, p.problem) for p in posted] == [(200, None)] * len(posted)
        assert callbacks(fake) == []
        assert fake.gateway.sessions == []


async def serving(fake: FakeDiscord, *urls: str) -> None:
    """Set the Interactions Endpoint URL(s) once the workers there answer Discord's
    checks (they are starting)."""
    deadline = Deadline(START_PATIENCE)
    while True:
        try:
            await fake.set_interactions_endpoint(*urls)
            return
        except ValueError:
            if deadline.passed():
                raise
            await asyncio.sleep(0.2)


async def test_two_workers_behind_one_url_take_one_games_clicks_in_turn(
        fake_discord: FakeDiscord, world: World, pg_url: str, tmp_path: Path) -> None:
    fake = fake_discord
    ports = [free_port(), free_port()]
    gateway = await start(fake, tmp_path, 0, pg_url, shards=1)
    workers = [await start_worker(fake, tmp_path, port, pg_url) for port in ports]
    try:
        urls = [f"http://127.0.0.1:{port}/" for port in ports]
        await fake.wait_until(lambda: fake.commands.get(None), timeout=START_PATIENCE,
                              what="the gateway process to register the commands")
        await serving(fake, *urls)
        async with Database(pg_url) as db:
            await quick_answers(fake, world, world.alice)
            game_id, _, thread = await start_table(fake, world, [world.alice], bots=3)
            alice = Player(fake, db, world.alice, game_id, thread.id)
            await alice.play(10)
            assert await alice.moves() == alice.by_dm + alice.by_post
            seqs = [a.seq for a in await db.actions.actions(game_id)]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
            # A question one worker asks is answered by the other.
            asking = await fake.slash(world.alice, thread, "mj abort")
            question = await asking.reply()
            yes = next(b["custom_id"] for b in question.buttons()
                       if b["label"].startswith("Yes"))
            answering = await fake.click(world.alice, question, yes)
            await fake.wait_for_message(lambda m: "was aborted by Alice" in m.content,
                                        channel=thread)
            assert asking.endpoint != answering.endpoint
            assert (await db.games.game(game_id)).status is GameStatus.ABORTED
        posted = [post for post in fake.endpoint.posts if post.interaction is not None]
        assert [post.url for post in posted] == [urls[i % 2] for i in range(len(posted))]
        assert [(p.status, p.problem) for p in posted] == [(200, None)] * len(posted)
        assert callbacks(fake) == []
        # Each worker made moves from the DM prompts (an update of the prompt, or its
        # deferral when slow): a game another process changed is rebuilt there, not
        # refused as moved on.
        moved_by = {post.url for post in posted
                    if post.interaction is not None and post.interaction.source is not None
                    and post.interaction.source.is_dm and post.answer is not None
                    and post.answer["type"] in (6, 7)}
        assert moved_by == set(urls)
        logs = [await stop(worker, tmp_path, 0, log=worker_log_path(tmp_path, port))
                for worker, port in zip(workers, ports, strict=True)]
        logs.append(await stop(gateway, tmp_path, 0))
        assert [w.returncode for w in (*workers, gateway)] == [0, 0, 0], logs
        for text in logs:
            assert "Traceback" not in text, text
    finally:
        await kill(gateway, *workers)
