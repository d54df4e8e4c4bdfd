"""A person's own settings through the fake Discord: `/mj settings` shows them privately with
a control for each, a click keeps the new value and redraws the message, "Settings" on the rack
message opens the same, and the next game plays with them: the drawn tile is thrown for the
player once the table's delay has passed, and the player is told what was played."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from fake import FakeDiscord, World
from jongg_table import FrozenClock, JonggTable, assert_clean, custom_ids, jongg_client

from bot.tables.auto import drawn_tile
from bot.tables.seat_options import AutoDiscard, SeatOptions
from bot.tables.service import DEFAULT_AUTO_DELAY


async def test_settings_are_changed_privately_and_the_next_game_plays_with_them(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice = world.alice
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        shown = await (await fake_discord.slash(alice, world.tables, "mj settings")).reply()
        assert shown.ephemeral and shown.visible_to is alice
        assert "Auto-discard the drawn tile: off" in shown.content
        assert "Auto-sort: on" in shown.content
        # A menu sets auto-discard, a button turns auto-sort off; each redraws the message.
        handle = await fake_discord.select(alice, shown, "jg:sv:auto_discard", ["drawn"])
        redrawn = await handle.reply()
        assert redrawn is shown and "Auto-discard the drawn tile: on" in redrawn.content
        handle = await fake_discord.click(alice, redrawn, "jg:st:auto_sort:off")
        redrawn = await handle.reply()
        assert "Auto-sort: off" in redrawn.content
        assert "jg:st:auto_sort:on" in redrawn.custom_ids()  # ... and can turn it back
        wanted = replace(SeatOptions(), auto_sort=False, auto_discard=AutoDiscard.DRAWN)
        assert await client.service.player_options(alice.id) == wanted
        assert await client.service.player_options(world.bob.id) == SeatOptions()

        # The next game Alice plays starts from her settings.
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3)
        seat = table.seats.index(alice)
        assert client.service.table(table.game_id).options_of(seat) == wanted
        for _ in range(200):
            state = client.service.registry.games[table.game_id].state
            if drawn_tile(state, seat) is not None:
                break
            await table.step(alice)
        else:
            raise AssertionError("Alice never drew")
        drawn = drawn_tile(state, seat)
        assert drawn is not None
        # Her rack message has a Settings button, which opens the same settings.
        prompt = await table.prompt(alice)
        assert "jg:set" in custom_ids(prompt, "jg:set")
        opened = await table.reply(await fake_discord.click(alice, prompt, "jg:set"))
        assert opened.ephemeral and "Auto-discard the drawn tile: on" in opened.content
        # The drawn tile is thrown for her only once the table's delay has passed.
        count = len(state.actions)
        assert await client.service.run_due_clocks(clock.now + DEFAULT_AUTO_DELAY - 0.5) == 0
        assert len(client.service.registry.games[table.game_id].state.actions) == count
        assert await client.service.run_due_clocks(clock.now + DEFAULT_AUTO_DELAY) == 1
        await table.settle()
        after = client.service.registry.games[table.game_id].state
        assert len(after.actions) > count and drawn_tile(after, seat) is None
        told = f"Table {table.game_id} · Played for you (your settings): Discard"
        await fake_discord.wait_until(
            lambda: any(m.content.startswith(told) for m in fake_discord.dms(alice)),
            what="Alice told what was played for her")
    assert_clean(fake_discord, caplog)
