"""Series and the bettor through the fake Discord: Play again under a result starts the next
game in the same thread with the deal passed to the right, running totals ride with each
result, End series posts the series picture, and a fifth person bets from the lobby (a
private menu) and sits out in turn."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fake import FakeDiscord, World
from jongg_table import (
    FrozenClock,
    JonggTable,
    assert_clean,
    custom_ids,
    finished,
    jongg_client,
    lobby_click,
    open_league,
)

from bot.discord.client import JonggClient
from bot.engine.errors import IllegalAction


async def _next_table(table: JonggTable, game_id: int) -> JonggTable:
    """The series' next game, followed like the first (same thread, same lobby)."""
    client = table.client
    await client.service.flush(game_id)
    seated = client.service.table(game_id)
    people = {u.id: u for u in (*table.world.players, *table.humans)}
    seats = [None if uid is None else people[uid] for uid in seated.user_ids]
    return JonggTable(table.fake, table.world, client, game_id, table.lobby, table.thread,
                      seats)


async def _newest_game(client: JonggClient, after: int) -> int:
    series = await client.service.db.series.series_of(after)
    assert series is not None and series.games[-2] == after
    return series.games[-1]


async def test_play_again_rotates_and_end_series_posts_the_picture(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        first = await JonggTable.open(fake_discord, world, client, [world.bob], bots=3)
        await first.play()
        result = await first.result_post()
        assert custom_ids(result, "jg:s:") == [f"jg:s:{first.game_id}:again",
                                               f"jg:s:{first.game_id}:end"]
        # Anyone but the host is thanked privately, and nothing happens.
        refused = await fake_discord.click(world.alice, result, f"jg:s:{first.game_id}:again")
        answer = await refused.reply()
        assert answer.ephemeral and "Only the table's host can play again" in answer.content
        assert await client.service.db.series.series_of(first.game_id) is None

        again = await fake_discord.click(world.bob, result, f"jg:s:{first.game_id}:again")
        await again.acked()
        await fake_discord.wait_until(lambda: not result.custom_ids(),
                                      what="the result to lose its buttons")
        second_id = await _newest_game(client, first.game_id)
        second = await _next_table(first, second_id)
        # South (Bot 1) deals; Bob, who was East, sits North, in the same thread.
        assert client.service.table(second_id).names == ("Bot 1", "Bot 2", "Bot 3", "Bob")
        assert (await client.service.db.games.game(second_id)).thread_id == first.thread.id
        await second.play()
        await finished(client, second_id)
        result2 = await fake_discord.wait_for_message(
            lambda m: "result.png" in m.files and m is not result, channel=first.thread)
        assert result2.content.startswith("Series after 2 games: Bob ")

        end = await fake_discord.click(world.bob, result2, f"jg:s:{second_id}:end")
        summary = await end.followup()
        assert "series.png" in summary.files and not summary.ephemeral
        alt = summary.attachments[0].description or ""
        assert alt.startswith(f"Table {second_id} · series.") and "Bob: total" in alt, alt
        assert summary.content.startswith("The series is over. Series after 2 games:")
        series = await client.service.db.series.series_of(second_id)
        assert series is not None and series.ended_at is not None
        await fake_discord.wait_until(lambda: not result2.custom_ids(),
                                      what="the result to lose its buttons")
        with pytest.raises(IllegalAction, match="This series has ended"):
            await client.service.play_again(second_id, world.bob.id)
    assert_clean(fake_discord, caplog)


async def test_a_fifth_person_bets_privately_and_sits_out_next(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    erin = fake_discord.add_user("erin", global_name="Erin")
    fake_discord.add_member(world.guild, erin)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        opened = await fake_discord.slash(world.bob, world.tables, "mj new", {"players": 4})
        lobby = await opened.reply()
        game_id = int(custom_ids(lobby, "jg:l:")[0].split(":")[2])
        await fake_discord.wait_until(lambda: lobby.thread, what="the table's thread")
        await opened.settled()
        assert f"jg:l:{game_id}:bet" in custom_ids(lobby, "jg:l:")
        for user in (world.alice, world.carol, world.dave):
            await lobby_click(fake_discord, user, lobby, f"jg:l:{game_id}:join")
        bet = await fake_discord.click(erin, lobby, f"jg:l:{game_id}:bet")
        menu = await bet.followup()
        assert menu.ephemeral and custom_ids(menu, "jg:bs:") == [f"jg:bs:{game_id}"]
        await fake_discord.wait_until(lambda: "Bettor: <@" in lobby.content,
                                      what="the lobby to show the bettor")
        # Start waits for the bettor's choice, and says so privately.
        early = await fake_discord.click(world.bob, lobby, f"jg:l:{game_id}:start")
        assert "hasn't chosen a seat" in (await early.followup()).content
        chosen = await fake_discord.select(erin, menu, f"jg:bs:{game_id}", ["1"])
        said = await chosen.reply()
        assert said.ephemeral and said.content.startswith("You back South.")
        await fake_discord.wait_until(lambda: "backs South" in lobby.content,
                                      what="the lobby to show the bet")
        await lobby_click(fake_discord, world.bob, lobby, f"jg:l:{game_id}:start")
        await client.service.flush(game_id)
        seated = client.service.table(game_id)
        people = {u.id: u for u in (*world.players, erin)}
        table = JonggTable(fake_discord, world, client, game_id, lobby, lobby.thread,
                           [None if uid is None else people[uid] for uid in seated.user_ids])
        assert seated.bettor_id == erin.id and not fake_discord.dms(erin)
        await table.play()
        result = await table.result_post()
        assert result.content.startswith("Erin, the bettor, backed South: ")

        again = await fake_discord.click(world.bob, result, f"jg:s:{game_id}:again")
        call = await again.followup()
        # The host, who was East, sits out as the next game's bettor and is asked to bet.
        assert f"<@{world.bob.id}>" in call.content and "bettor" in call.content
        second_id = await _newest_game(client, game_id)
        stranger = await fake_discord.click(world.alice, call, f"jg:b:{second_id}")
        assert "Only this game's bettor" in (await stranger.reply()).content
        opens = await fake_discord.click(world.bob, call, f"jg:b:{second_id}")
        menu2 = await opens.reply()
        assert menu2.ephemeral
        picked = await fake_discord.select(world.bob, menu2, f"jg:bs:{second_id}", ["0"])
        assert "The game is on" in (await picked.reply()).content
        await client.service.flush(second_id)
        assert client.service.table(second_id).names == ("Alice", "Carol", "Dave", "Erin")
    assert_clean(fake_discord, caplog)


async def test_a_league_table_offers_no_play_again(fake_discord: FakeDiscord, world: World,
                                                   tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        await open_league(fake_discord, world)
        table = await JonggTable.open(fake_discord, world, client, [world.alice], bots=3)
        await table.play()
        result = await table.result_post()
        assert custom_ids(result, "jg:s:") == []
        with pytest.raises(IllegalAction, match="league table"):
            await client.service.play_again(table.game_id, world.alice.id)
    assert_clean(fake_discord, caplog)


async def test_play_again_works_after_a_restart_and_still_rotates(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    database, clock = tmp_path / "j.db", FrozenClock()
    async with fake_discord.run(jongg_client(database, clock)) as client:
        first = await JonggTable.open(fake_discord, world, client, [world.bob, world.carol],
                                      bots=1, size=3)
        await first.play()
        result = await first.result_post()
    async with fake_discord.run(jongg_client(database, clock, sync=False)) as client:
        # The button posted before the restart still works.
        again = await fake_discord.click(world.bob, result, f"jg:s:{first.game_id}:again")
        await again.acked()
        await fake_discord.wait_until(lambda: not result.custom_ids(),
                                      what="the result to lose its buttons")
        second_id = await _newest_game(client, first.game_id)
        await client.service.flush(second_id)
        # At three: South (Carol) deals, Bob moves to West.
        assert client.service.table(second_id).names == ("Carol", "Bot 1", "Bob")
        first.client = client
        second = await _next_table(first, second_id)
        await second.play()
        await finished(client, second_id)
    assert_clean(fake_discord, caplog)
