"""No message pings anyone by accident: people's names hold user, role and everyone mentions,
and a whole game, its lobby and its notices ping only the people a message calls on purpose
(here: the player whose DMs are closed, told to use My rack)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, World, pinged
from jongg_table import JonggTable, assert_clean, jongg_client


async def test_names_with_mentions_ping_nobody(fake_discord: FakeDiscord, world: World,
                                               tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    alice, bob, carol, dave = world.players
    role = fake_discord.add_role(world.guild, "Everyone who plays")
    role.mentionable = True
    world.guild.member(alice).nick = f"<@{dave.id}> @everyone"
    world.guild.member(bob).nick = f"<@&{role.id}> @here <@{carol.id}>"
    fake_discord.block_dms(bob)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        table.closed_dms.add(bob.id)
        await table.play()
        await table.result_post()
    assert any(f"<@{dave.id}>" in m.content for m in fake_discord.messages_in(table.thread)), (
        "the names never reached the table's narration, so the test shows nothing")
    found = pinged(fake_discord.requests)
    assert found, "the closed-DM notice should ping Bob"
    for request, who in found:
        assert who.users == {bob.id} and not who.roles and not who.everyone, (
            f"{request.method} {request.path} pings {who}")
    assert_clean(fake_discord, caplog)
