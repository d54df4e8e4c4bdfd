"""`/mj new house:`: a table opened with house options shows them in its lobby and plays by
them; a mistake in them is refused privately before anything is posted."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, World
from jongg_table import JonggTable, assert_clean, jongg_client, open_league

from bot.engine.game import Discard, Phase
from bot.engine.game.rules import Charleston, WallEnd
from bot.tables.options import read_table_options

HOUSE = "charleston=none quarters-pot pot_ante=50, wall_end=cold wall_end_tiles=16"


async def test_a_table_plays_its_house_options(fake_discord: FakeDiscord, world: World,
                                               tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3,
                                      options={"house": HOUSE})
        # The lobby as it was before each join and Start, and as it is once started.
        texts = [edit.content for edit in table.lobby.edits if edit.content]
        assert len(texts) >= 2
        for text in [*texts, table.lobby.content]:
            assert ("House options: `charleston=none quarters_pot pot_ante=50 wall_end=cold "
                    "wall_end_tiles=16`") in text, text
        # No Charleston: East's first prompt is a discard.
        seen = table.view(alice)
        assert table.seats[0] is alice and seen.phase is Phase.TURN and seen.turn == 0
        assert any(isinstance(o.action, Discard) for o in seen.legal)
        await table.step(alice)
        # What a restart reads back: the game's stored rules hold the options.
        stored = read_table_options((await client.service.db.games.game(table.game_id)).rules).rules
        assert stored.charleston is Charleston.NONE and stored.quarters_pot
        assert (stored.pot_ante, stored.wall_end, stored.wall_end_tiles) == (50, WallEnd.COLD,
                                                                              16)
        assert client.service.table(table.game_id).rules == stored
    assert_clean(fake_discord, caplog)


async def test_a_mistyped_house_option_is_refused_privately(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        typing = await fake_discord.autocomplete(world.alice, world.tables, "mj new", "house",
                                                 "quarters_pot wall_end=")
        assert [c["value"] for c in await typing.choices()] == [
            "quarters_pot wall_end=normal", "quarters_pot wall_end=hot",
            "quarters_pot wall_end=cold"]
        for house, told in (("quarter_pot", "Did you mean `quarters_pot`?"),
                            ("walls=none dice=2", "without walls there is nothing to break")):
            opened = await fake_discord.slash(world.alice, world.tables, "mj new",
                                              {"house": house})
            answer = await opened.reply()
            assert answer.ephemeral and told in answer.content, answer.content
        assert not [m for m in fake_discord.messages_in(world.tables) if not m.ephemeral]
        assert await client.service.db.games.unfinished_games() == []
    assert_clean(fake_discord, caplog)


async def test_a_league_channel_refuses_house_options_instead_of_ignoring_them(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A league's tables play the season's rules: house options typed there are refused
    privately (not quietly dropped), and nothing is opened."""
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        await open_league(fake_discord, world)
        public = [m for m in fake_discord.messages_in(world.tables) if not m.ephemeral]
        opened = await fake_discord.slash(world.alice, world.tables, "mj new",
                                          {"house": "quarters_pot"})
        answer = await opened.reply()
        assert answer.ephemeral and "league's channel" in answer.content, answer.content
        assert [m for m in fake_discord.messages_in(world.tables) if not m.ephemeral] == public
        assert await client.service.db.games.unfinished_games() == []
    assert_clean(fake_discord, caplog)
