"""The lobby and the commands around a game: joining twice, starting as a guest, a full table,
resigning mid-game, handing a seat over, aborting."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, Message, Perm, User, World
from jongg_table import JonggTable, assert_clean, custom_ids, jongg_client

from bot.store import GameStatus


async def click_text(fake: FakeDiscord, user: User, message: Message, custom_id: str) -> str:
    """Click, and return what the clicker was told privately ("" if nothing)."""
    handle = await fake.click(user, message, custom_id)
    await handle.settled()
    return handle.followups[0].content if handle.followups else ""


async def test_the_lobby_refuses_politely(fake_discord: FakeDiscord, world: World,
                                          tmp_path: Path,
                                          caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")):
        opened = await fake_discord.slash(world.alice, world.tables, "mj new", {"players": 2})
        lobby = await opened.reply()
        await opened.settled()
        game = int(custom_ids(lobby, "jg:l:")[0].split(":")[2])
        assert "East: <@" in lobby.content and "*(open)*" in lobby.content
        assert "already" in await click_text(fake_discord, world.alice, lobby,
                                             f"jg:l:{game}:join")
        assert "host" in await click_text(fake_discord, world.bob, lobby, f"jg:l:{game}:start")
        assert await click_text(fake_discord, world.bob, lobby, f"jg:l:{game}:join") == ""
        assert "full" in await click_text(fake_discord, world.carol, lobby,
                                          f"jg:l:{game}:join")
        assert await click_text(fake_discord, world.bob, lobby, f"jg:l:{game}:leave") == ""
        assert "*(open)*" in lobby.content
        assert "not at this table" in await click_text(fake_discord, world.bob, lobby,
                                                       f"jg:l:{game}:leave")
        assert "host" in await click_text(fake_discord, world.bob, lobby,
                                          f"jg:l:{game}:bot:easy")
        assert await click_text(fake_discord, world.alice, lobby,
                                f"jg:l:{game}:bot:strong") == ""
        assert ": Bot 1 (Strong)" in lobby.content
        # Commands outside a game's thread say where to use them.
        status = await fake_discord.slash(world.alice, world.general, "mj status")
        assert "no game in this channel" in (await status.reply()).content
    assert_clean(fake_discord, caplog)


async def test_start_waits_for_the_tables_thread(fake_discord: FakeDiscord, world: World,
                                                 tmp_path: Path,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """A host who presses Start while Discord is still making the table's thread is asked to
    press it again, and the game is then played in the thread, not in the channel."""
    async with fake_discord.run(jongg_client(tmp_path / "j.db")):
        fake_discord.rate_limit("POST /channels/{channel_id}/messages/{message_id}/threads",
                                retry_after=1.0)
        opened = await fake_discord.slash(world.alice, world.tables, "mj new", {"players": 2})
        lobby = await opened.reply()
        game = int(custom_ids(lobby, "jg:l:")[0].split(":")[2])
        assert lobby.thread is None
        told = await click_text(fake_discord, world.alice, lobby, f"jg:l:{game}:start")
        assert "thread is still being opened" in told and "again" in told
        thread = await fake_discord.wait_until(lambda: lobby.thread, what="the thread")
        await fake_discord.wait_for_message(channel=thread)
        assert await click_text(fake_discord, world.alice, lobby, f"jg:l:{game}:start") == ""
        await fake_discord.wait_for_message(lambda m: "table.png" in m.files, channel=thread)
    assert not [m for m in fake_discord.messages_in(world.tables) if m.files]
    assert_clean(fake_discord, caplog)


async def test_resign_sub_and_abort(fake_discord: FakeDiscord, world: World,
                                        tmp_path: Path,
                                        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob, carol, dave = world.players
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob, carol])
        for _ in range(12):
            await table.step(table.to_move()[0])
        # Bob resigns: a bot plays his seat from now on, and his old prompts are refused.
        resigned = await fake_discord.slash(bob, table.thread, "mj resign")
        assert "a Normal bot plays seat 2" in (await resigned.reply()).content
        await table.settle()
        assert client.service.bot_seats(table.game_id) == (1,)
        table.seats[1] = None
        post, rack = table.newest_post(f"jg:r:{table.game_id}")
        refused = await fake_discord.click(bob, post, rack)
        assert "not playing" in (await refused.reply()).content
        # Only the host hands seats over; the host gives Bob's seat to Dave.
        stranger = await fake_discord.slash(carol, table.thread, "mj sub",
                                            {"seat": 2, "user": dave})
        refused = await stranger.reply()
        assert "host" in refused.content and refused.ephemeral
        # A refusal found after the public "thinking…" answer still reaches only Alice.
        nowhere = await fake_discord.slash(alice, table.thread, "mj sub",
                                           {"seat": 4, "user": dave})
        refused = await nowhere.followup()
        assert "no seat 4" in refused.content and refused.ephemeral
        assert nowhere.original is not None and nowhere.original.deleted
        handed = await fake_discord.slash(alice, table.thread, "mj sub",
                                          {"seat": 2, "user": dave})
        assert f"<@{dave.id}> now plays seat 2" in (await handed.reply()).content
        await table.settle()
        table.seats[1] = dave
        assert client.service.bot_seats(table.game_id) == ()
        for _ in range(12):
            await table.step(table.to_move()[0])
        assert fake_discord.dms(dave), "Dave was never prompted"
        # Carol may not abort (she is told at once, privately, without being asked to
        # confirm); Alice (the host) may, after saying yes.
        aborting = await fake_discord.slash(carol, table.thread, "mj abort")
        refused = await aborting.reply()
        assert "Only the table's host" in refused.content
        assert refused.ephemeral and not refused.buttons()
        aborting = await fake_discord.slash(alice, table.thread, "mj abort")
        ask = await aborting.reply()
        yes = next(b["custom_id"] for b in ask.buttons() if b["label"].startswith("Yes"))
        await fake_discord.click(alice, ask, yes)
        await fake_discord.wait_for_message(lambda m: "was aborted by Alice" in m.content,
                                            channel=table.thread)
        assert (await client.service.db.games.game(table.game_id)).status is GameStatus.ABORTED
        assert "aborted" in table.lobby.content and table.lobby.custom_ids() == []
        post, rack = table.newest_post(f"jg:r:{table.game_id}")
        late = await fake_discord.click(carol, post, rack)
        assert "isn't running" in (await late.reply()).content
    assert_clean(fake_discord, caplog)


async def test_sub_refuses_another_bot_account_and_seats_our_own_bot(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """`/mj sub` naming another program's bot account (a user whose `bot` flag is set) is
    refused privately and changes nothing; naming Jongg itself hands the seat to one of its
    bots, of the server's level."""
    alice, bob = world.alice, world.bob
    other = fake_discord.add_user("otherbot", global_name="Other Bot", bot=True)
    fake_discord.add_member(world.guild, other)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=1)
        seat = table.seats.index(bob) + 1
        before = await client.service.db.seats.seat_history(table.game_id)
        handing = await fake_discord.slash(alice, table.thread, "mj sub",
                                           {"seat": seat, "user": other})
        refused = await handing.followup()
        assert refused.ephemeral and "Other Bot is a bot account" in refused.content
        assert "only people can" in refused.content
        assert handing.original is not None and handing.original.deleted
        assert await client.service.db.seats.seat_history(table.game_id) == before
        assert client.service.table(table.game_id).user_ids[seat - 1] == bob.id

        ours = await fake_discord.slash(alice, table.thread, "mj sub",
                                        {"seat": seat, "user": fake_discord.bot})
        assert (await ours.reply()).content == f"A Normal bot now plays seat {seat}."
        await table.settle()
        assert seat - 1 in client.service.bot_seats(table.game_id)
        assert client.service.table(table.game_id).names[seat - 1] == "Bot (for Bob)"
    assert_clean(fake_discord, caplog)


async def test_races_refusals_and_a_manager_repairing_a_table(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Two Joins at the same moment both get seats; of two Starts, one starts the game and
    the other is told it has started; refusals reach only the person refused; a server
    manager who is not the host can hand a seat over; an aborted lobby loses its buttons."""
    alice, bob, carol, dave = world.players
    managers = fake_discord.add_role(world.guild, "Managers", Perm.MANAGE_GUILD)
    world.guild.member(dave).roles.append(managers)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        opened = await fake_discord.slash(alice, world.tables, "mj new", {"players": 4})
        lobby = await opened.reply()
        await opened.settled()
        game = int(custom_ids(lobby, "jg:l:")[0].split(":")[2])
        joins = [await fake_discord.click(user, lobby, f"jg:l:{game}:join")
                 for user in (bob, carol)]
        for join in joins:
            await join.settled()
            assert not join.followups, join.followups[0].content
        assert f"<@{bob.id}>" in lobby.content and f"<@{carol.id}>" in lobby.content
        starts = [await fake_discord.click(alice, lobby, f"jg:l:{game}:start")
                  for _ in range(2)]
        for start in starts:
            await start.settled()
        told = [f.content for start in starts for f in start.followups]
        assert len(told) == 1 and "already started" in told[0], told
        assert all(f.ephemeral for start in starts for f in start.followups)
        await client.service.flush(game)
        thread = lobby.thread
        assert thread is not None

        resigned = await fake_discord.slash(dave, thread, "mj resign")
        refused = await resigned.reply()
        assert "not playing" in refused.content and refused.ephemeral
        handed = await fake_discord.slash(dave, thread, "mj sub", {"seat": 2, "user": dave})
        assert f"<@{dave.id}> now plays seat 2" in (await handed.reply()).content
        assert client.service.table(game).user_ids[1] == dave.id
        public = [m for m in fake_discord.messages_in(thread) if not m.ephemeral]
        assert not any("not playing" in m.content for m in public)

        # A lobby that never started: aborting it takes its buttons away.
        opened = await fake_discord.slash(bob, world.tables, "mj new", {"players": 2})
        second = await opened.reply()
        await opened.settled()
        second_game = int(custom_ids(second, "jg:l:")[0].split(":")[2])
        assert second.thread is not None
        aborting = await fake_discord.slash(bob, second.thread, "mj abort")
        ask = await aborting.reply()
        yes = next(b["custom_id"] for b in ask.buttons() if b["label"].startswith("Yes"))
        await fake_discord.click(bob, ask, yes)
        await fake_discord.wait_until(lambda: not second.custom_ids(),
                                      what="the aborted lobby to lose its buttons")
        assert "aborted" in second.content
        assert (await client.service.db.games.game(second_game)).status is GameStatus.ABORTED
    assert_clean(fake_discord, caplog)
