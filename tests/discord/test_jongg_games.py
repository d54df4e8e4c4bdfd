"""Whole games of Jongg played through the fake Discord by simulated people, with slash
commands, buttons and menus, against the real client (first-option bots, frozen clocks)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from fake import CallbackType, FakeDiscord, User, World, walk_components
from jongg_table import (
    JonggTable,
    LeakWatch,
    assert_clean,
    custom_ids,
    finished,
    jongg_client,
)

from bot.discord import components
from bot.engine.game import Phase
from bot.engine.game.actions import Discard
from bot.engine.game.rules import ROYALE, ROYALE_3
from bot.engine.tiles import tile_name


async def discard_by_command(table: JonggTable, user: User) -> None:
    """`user` discards with `/mj discard`, picking the first tile autocomplete offers."""
    fake = table.fake
    typing = await fake.autocomplete(user, table.thread, "mj discard", "tile", "")
    choices = await typing.choices()
    mine = table.view(user)
    kinds = sorted({o.action.kind for o in mine.legal if isinstance(o.action, Discard)})
    assert [c["name"] for c in choices] == [tile_name(k) for k in kinds][:25]
    handle = await fake.slash(user, table.thread, "mj discard", {"tile": choices[0]["value"]})
    answer = await handle.reply()
    assert answer.ephemeral and answer.content == f"You discarded {choices[0]['name']}."
    await table.settle()


async def test_four_players_play_a_whole_game(fake_discord: FakeDiscord, world: World,
                                              tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, world.players)
        lobby = table.lobby
        assert "Table" in lobby.content and "The game is on" in lobby.content
        assert all(f"<@{u.id}>" in lobby.content for u in world.players)
        assert table.thread.name == f"Mah Jongg table {table.game_id}"
        # Everyone is dealt a rack by DM, with the Charleston's pass menu.
        for user in world.players:
            [prompt] = table.prompts(user)
            assert "rack.png" in prompt.files
            assert custom_ids(prompt, f"jg:g:{table.game_id}:")
        status = await fake_discord.slash(world.bob, table.thread, "mj status")
        assert "charleston" in (await status.reply()).content

        dave_turns = 0
        while not table.over:
            user = table.to_move()[0]
            seen = table.view(user)
            if user is world.dave and seen.phase is Phase.TURN and dave_turns % 2 == 0:
                dave_turns += 1
                await discard_by_command(table, user)
                continue
            dave_turns += user is world.dave and seen.phase is Phase.TURN
            await table.step(user)
        result = await table.result_post()
        await finished(client, table.game_id)
        log = await fake_discord.slash(world.carol, table.thread, "mj replay",
                                       {"game": table.game_id})
        replay = await log.reply()
        count = table.spectator().action_count
        assert replay.content == f"Table {table.game_id}: {count} moves."
        assert f"table-{table.game_id}.txt" in replay.files

    assert dave_turns > 10
    assert table.steps > 300
    posts = table.table_posts()
    discards = sum(1 for _ in table.spectator().discards)
    assert len(posts) >= discards  # a fresh table post per discard (and per exposure)
    assert "result.png" in result.files
    # A move's click is answered in one request: the prompt updated to what was done (a DM
    # prompt) or a private line (Pass under the table post).
    moves = [i for i in fake_discord.interactions.values()
             if str(i.payload["data"].get("custom_id", "")).startswith(("jg:a:", "jg:d:",
                                                                         "jg:g:", "jg:p:"))]
    assert len(moves) > 200
    assert {i.callback.type for i in moves if i.callback} == {
        CallbackType.UPDATE_MESSAGE, CallbackType.CHANNEL_MESSAGE}
    # DMs go to a channel opened once per person, never through a user lookup.
    routes = [r.route for r in fake_discord.requests]
    assert "/users/{user_id}" not in routes
    assert routes.count("/users/@me/channels") == len(world.players)
    assert_clean(fake_discord, caplog)


async def test_a_slow_move_is_acknowledged_first(fake_discord: FakeDiscord, world: World,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A move not done within `ANSWER_WITHIN` is deferred inside Discord's 3 s window, then
    answered as usual."""
    monkeypatch.setattr(components, "ANSWER_WITHIN", 0.0)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.bob, world.dave],
                                      bots=2)
        kinds: set[CallbackType] = set()
        while not table.over and len(kinds) < 2:
            user = table.to_move()[0]
            await table.step(user)
            kinds |= {i.callback.type for i in fake_discord.interactions.values()
                      if i.callback and str(i.payload["data"].get("custom_id", "")).startswith(
                          ("jg:a:", "jg:d:", "jg:g:", "jg:p:"))}
    assert kinds == {CallbackType.DEFERRED_UPDATE_MESSAGE,
                     CallbackType.DEFERRED_CHANNEL_MESSAGE}


async def test_siamese_two_players_claim_through_the_menu(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice, world.carol])
        assert client.service.table(table.game_id).rules.racks == 2
        table.claim_menu = {world.alice.id}  # Carol uses the Pass button
        watch = await LeakWatch.attach(table)
        await table.play()
        await table.result_post()
        await finished(client, table.game_id)
    claims = [i for i in fake_discord.interactions.values()
              if str(i.payload["data"].get("custom_id", "")).startswith("jg:c:")]
    assert len(claims) > 40
    assert all(i.followups and i.followups[0].ephemeral for i in claims)
    # Some discards could be called several ways (two racks, jokers): the calls sat behind
    # one "Call…" button beside Pass, never one button each.
    shown = [list(walk_components(v.components))
             for i in claims for v in [*i.followups[0].edits, i.followups[0]]]
    folded = [items for items in shown
              if any(str(b.get("custom_id", "")).startswith("jg:f:") for b in items)]
    assert folded
    for items in folded:
        buttons = [str(b["label"]) for b in items if b["type"] == 2]
        assert re.fullmatch(r"Call .+… \(\d+ ways\)", buttons[-4])
        # The holder's settings and games last.
        assert buttons[-3:] == ["Pass", "Settings", "My games"]
        assert not any(label.startswith("Call ") for label in buttons[:-4])
    assert watch.messages > 300
    assert_clean(fake_discord, caplog)


async def test_one_person_and_three_bots(fake_discord: FakeDiscord, world: World,
                                         tmp_path: Path,
                                         caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.bob], bots=3)
        assert client.service.bot_seats(table.game_id) == (1, 2, 3)
        assert table.lobby.content.count("(Normal)") == 3
        await LeakWatch.attach(table)
        await table.play()
        await table.result_post()
        await finished(client, table.game_id)
    thread = [m.content for m in fake_discord.messages_in(table.thread)]
    assert any("Bot 1 discards" in line for line in thread)
    # Only the one person hears from the bot privately.
    assert fake_discord.dms(world.bob) and not any(
        fake_discord.dms(u) for u in (world.alice, world.carol, world.dave))
    assert_clean(fake_discord, caplog)


async def test_royale_three_people_play_a_whole_game(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """`/mj new players:3 racks:2` opens a Royale-style table (two racks each, two sets), and
    three people play it to the end through their DMs and the table posts."""
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client,
                                      [world.alice, world.bob, world.carol],
                                      options={"racks": 2})
        assert client.service.table(table.game_id).rules == ROYALE_3
        assert "3-player Royale-style" in table.lobby.content
        # East holds 28 tiles and opens by discarding; nobody passes tiles first.
        assert [s.concealed_count for s in table.spectator().seats] == [28, 27, 27]
        assert table.view(world.alice).phase is Phase.TURN
        table.claim_menu = {world.bob.id}
        watch = await LeakWatch.attach(table)
        await table.play()
        result = await table.result_post()
        await finished(client, table.game_id)
    assert "result.png" in result.files
    assert table.ended is not None and table.ended.result is not None
    assert sum(table.ended.result.settlement) == 0
    assert watch.messages > 200
    assert_clean(fake_discord, caplog)


async def test_royale_one_person_and_three_bots(fake_discord: FakeDiscord, world: World,
                                                tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.dave], bots=3,
                                      options={"racks": 2})
        assert client.service.table(table.game_id).rules == ROYALE
        await LeakWatch.attach(table)
        await table.play()
        await table.result_post()
        await finished(client, table.game_id)
    assert table.ended is not None and table.ended.result is not None
    assert len(table.ended.tiles) == 304
    assert_clean(fake_discord, caplog)
