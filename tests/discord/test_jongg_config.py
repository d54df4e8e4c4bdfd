"""A server's settings through the fake Discord: a server manager changes several with one
`/mj config`, anyone sees each with who set it (or that it is the default), a manager sees
the changes with `history:True`, and the next `/mj new` plays with them unless it says
otherwise; `/league` used outside a league's channel finds the server's league channel; a
non-manager is refused privately, and a bad value is explained, changing nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fake import FakeDiscord, Perm, World
from jongg_table import JonggTable, assert_clean, custom_ids, jongg_client

from bot.store import GuildSettings, Pace
from bot.tables.options import read_table_options

#: Several settings, away from every default.
SEVERAL: dict[str, Any] = {"card": "jongg-teaching", "pace": "async", "turn_seconds": 3600,
                           "claim_seconds": 600, "bot_level": "strong", "auto_delay": 5.0}


def _manager(fake: FakeDiscord, world: World) -> None:
    managers = fake.add_role(world.guild, "Managers", int(Perm.MANAGE_GUILD))
    world.guild.member(world.alice).roles.append(managers)


async def test_a_manager_sets_several_settings_everyone_sees_them_and_new_tables_use_them(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    _manager(fake_discord, world)
    lounge = fake_discord.add_channel(world.guild, "lounge")
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        fresh = await (await fake_discord.slash(world.bob, world.general, "mj config")).reply()
        assert fresh.ephemeral and "• Default card: **jongg-original** (default;" in (
            fresh.content)
        assert "• Default pace: **live (turns 1m 30s, claims 10s)** (default;" in fresh.content
        assert "• Automatic answers wait: **3s** (default;" in fresh.content
        changed = await (await fake_discord.slash(
            world.alice, world.general, "mj config",
            {**SEVERAL, "league_channel": world.tables})).reply()
        assert changed.ephemeral and changed.content.startswith(
            "Changed: default card, default pace, stand-in bot level, automatic answers "
            "wait, league channel.")
        shown = (await (await fake_discord.slash(world.bob, world.general, "mj config")
                        ).reply()).content
        by_alice = f"(set by <@{world.alice.id}> on <t:"
        for line in ("• Default card: **jongg-teaching** ",
                     "• Default pace: **async (turns 1h, claims 10m)** ",
                     "• Stand-in bot level: **Strong** ", "• Automatic answers wait: **5s** ",
                     f"• League channel: **<#{world.tables.id}>** "):
            assert line + by_alice in shown, (line, shown)
        assert "• Teaching tables: **allowed** (default;" in shown
        history = (await (await fake_discord.slash(world.alice, world.general, "mj config",
                                                   {"history": True})).reply()).content
        assert f"<@{world.alice.id}>: " in history and "bot level: default → strong" in history
        assert "pace: default → async (turns 1h, claims 10m)" in history
        # The same values again change nothing, and the answer says so (no audit entry).
        again = (await (await fake_discord.slash(world.alice, world.general, "mj config",
                                                 SEVERAL)).reply()).content
        assert again.startswith("Nothing changed: those were the settings already.")
        assert len(await client.service.db.guilds.audit(world.guild.id)) == 1

        # A new table plays with them: the card, the pace and its clocks, the delay, and the
        # server's bots in its empty seats.
        table = await JonggTable.open(fake_discord, world, client, [world.bob, world.carol],
                                      size=4)
        game = await client.service.db.games.game(table.game_id)
        assert (game.card.name, game.pace) == ("jongg-teaching", Pace("async", 3600, 600))
        assert read_table_options(game.rules).auto_delay == 5.0
        assert "card jongg-teaching · async pace (turn 1h, claim 10m, paused in quiet hours)" in (
            table.lobby.content)
        assert client.service.bot_levels(table.game_id) == {2: "strong", 3: "strong"}
        # What `/mj new` says wins.
        opened = await fake_discord.slash(world.dave, world.tables, "mj new",
                                          {"players": 2, "pace": "live",
                                           "card": "jongg-original"})
        lobby = await opened.reply()
        await opened.settled()
        told = await client.service.db.games.game(int(custom_ids(lobby, "jg:l:")[0].split(":")[2]))
        assert (told.card.name, told.pace.name, told.pace.turn_seconds) == (
            "jongg-original", "live", 90)
        assert "card jongg-original · live pace" in lobby.content

        # `/league` outside a league's channel goes to the server's league channel.
        for command, channel, name in (("league create", world.tables, "Tuesday Club"),
                                       ("league create", world.general, "Friday Club")):
            await (await fake_discord.slash(world.alice, channel, command,
                                            {"name": name})).reply()
        joined = await (await fake_discord.slash(world.bob, lounge, "league join")).reply()
        assert "is in **Tuesday Club**" in joined.content
        # A manager puts one setting back to its default.
        reset = (await (await fake_discord.slash(world.alice, world.general, "mj config",
                                                 {"reset": "league_channel"})).reply()).content
        assert reset.startswith("Changed: league channel.")
        assert "• League channel: **none** (default; `league_channel`)" in reset
    assert_clean(fake_discord, caplog)


async def test_a_non_manager_is_refused_privately_and_nothing_changes(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        for options in ({"teaching": False, "auto_delay": 1.0}, SEVERAL, {"history": True}):
            refused = await (await fake_discord.slash(world.bob, world.general, "mj config",
                                                      options)).reply()
            assert refused.ephemeral and refused.visible_to is world.bob
            assert refused.content.startswith("Only server managers (the Manage Server "
                                              "permission) can "), refused.content
        assert await client.service.db.guilds.audit(world.guild.id) == []
        shown = (await (await fake_discord.slash(world.bob, world.general, "mj config")
                        ).reply()).content
        assert "(set by" not in shown
    assert_clean(fake_discord, caplog)


@pytest.mark.parametrize(("options", "said"), [
    ({"pace": "slow"}, "There is no pace `slow`. Choose one of: untimed, live, relaxed, "
                       "async."),
    ({"turn_seconds": 5}, "The turn clock must be from 30s to 7d, not 5s."),
    ({"pace": "relaxed", "claim_seconds": 100_000},
     "The claim window must be from 5s to 1d, not 1d 3h 46m 40s."),
    ({"auto_delay": 45.5}, "The automatic answers' delay can be 0s to 30s; 45.5 seconds "
                           "is out of range."),
    ({"card": "nope", "bot_level": "easy"}, "There is no card called `nope` here."),
])
async def test_a_bad_value_gets_a_friendly_answer_and_nothing_changes(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, options: dict[str, Any], said: str) -> None:
    _manager(fake_discord, world)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        answer = await (await fake_discord.slash(world.alice, world.general, "mj config",
                                                 options)).reply()
        assert answer.ephemeral and answer.content.startswith(said), answer.content
        assert await client.service.db.guilds.audit(world.guild.id) == []
        assert await client.service.db.guilds.settings(world.guild.id) == GuildSettings()
    assert_clean(fake_discord, caplog)
