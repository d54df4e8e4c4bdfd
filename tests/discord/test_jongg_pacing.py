"""The bot keeps Discord's global rate limit itself (`bot.discord.pacing`): a burst of requests
reaches Discord at most `limit` in any `per` seconds, while interaction answers, which the
limit leaves out, are not held behind it. Played on a small scale (5 per 0.2 s) so the burst
is quick; the rule is the same at Discord's 50 a second."""

from __future__ import annotations

import asyncio
from pathlib import Path

from discord.http import Route
from fake import CLIENT_OPTIONS, FakeDiscord, World

from bot.bench.discord_measure import peak
from bot.discord.client import JonggClient
from bot.discord.pacing import GlobalLimit

CHANNEL = "/channels/{channel_id}"


async def test_a_burst_keeps_under_the_global_limit_and_answers_do_not_wait(
        fake_discord: FakeDiscord, world: World, tmp_path: Path) -> None:
    pace = GlobalLimit(limit=5, per=0.2, margin=0.02)
    client = JonggClient(tmp_path / "j.db", global_limit=pace, **CLIENT_OPTIONS)
    # Thirty channels, so that discord.py's own per-route waits hold none of the burst back:
    # it all reaches the bot's pacing at once.
    channels = [fake_discord.add_channel(world.guild, f"room-{n}") for n in range(30)]
    async with fake_discord.run(client):
        before = pace.held
        burst = asyncio.gather(*(
            client.http.request(Route("GET", CHANNEL, channel_id=channel.id))
            for channel in channels))
        # While the burst waits its turns, a slash command is answered.
        handle = await fake_discord.slash(world.alice, world.general, "rules",
                                          {"topic": "jokers"})
        await handle.acked()
        await burst
    reads = [r.at for r in fake_discord.requests if r.route == CHANNEL]
    assert len(reads) == 30
    assert peak(reads, pace.per) <= pace.limit
    assert max(reads) - min(reads) > 4 * pace.per
    # Those past the first window waited, and the pacing counts them, not the first ones.
    assert len(reads) - pace.limit <= pace.held - before < len(reads)
    # The answer was not held behind the burst: it came before the burst's third window.
    assert handle.callback is not None and handle.callback.at < sorted(reads)[2 * pace.limit]
