"""A blind pass may send every tile on unseen: the pass menu offers it, and picking it
together with tiles is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, RateLimits, World
from jongg_table import JonggTable, custom_ids, jongg_client


# Discord's own windows (5 s per channel) and global limit: a table opened and played at
# machine speed, the one game of the suite on Discord's clock, still refused nothing.
@pytest.mark.rate_limits(RateLimits())
async def test_pass_all_three_blind_on_the_first_left(fake_discord: FakeDiscord, world: World,
                                                      tmp_path: Path) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice], bots=3)
        for _ in range(2):  # first right, first across: the first option
            await table.step(world.alice)
        seen = table.view(world.alice)
        assert seen.charleston is not None and seen.charleston.blind_allowed
        prompt = await table.prompt(world.alice)
        [menu] = custom_ids(prompt, "jg:g:")
        both = await (await fake_discord.select(world.alice, prompt, menu,
                                                ["0:" + str(seen.concealed[0]), "blind"])
                      ).reply()
        assert "not both" in both.content
        chosen = await table.reply(await fake_discord.select(world.alice, prompt, menu,
                                                             ["blind"]))
        assert "Pass nothing + 3 blind" in chosen.content
        await table.settle()
        log = await client.service.db.actions.actions(table.game_id)
        assert any(a.text.startswith("East: give") and "blind=3" in a.text for a in log)
