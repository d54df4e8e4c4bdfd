"""Stand-ins through the fake Discord: a player whose clock runs out three times in a row has
their seat kept by the bot (told in the thread and by DM, with a Reclaim button on the rack),
nobody else can take it back for them, and Reclaim gives it back at once so they play on; a
league season that counts such games at half shows it so in its standings; a seat handed on
with `/mj sub` in a season that shares such seats is shared by moves, as `/league history`
shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, Perm, User, World
from jongg_table import (
    FrozenClock,
    JonggTable,
    assert_clean,
    custom_ids,
    jongg_client,
    open_league,
)

from bot.store import GameStatus, PlayedFor
from bot.tables.standins import DEFAULT_STAND_IN_AFTER


async def _run_a_clock(table: JonggTable, clock: FrozenClock) -> None:
    """Let the next clock run out (nobody but the absent player is waiting)."""
    due = await table.client.service.db.clocks.next_due()
    assert due is not None, "nothing is waiting"
    clock.now = max(clock.now, due) + 0.01
    await table.client.service.run_due_clocks()
    await table.settle()


async def _play_on_without(table: JonggTable, clock: FrozenClock, absent: User) -> None:
    """One step of play: a player other than `absent` moves, else a clock runs out."""
    waiting = [u for u in table.to_move() if u is not absent]
    if waiting:
        await table.step(waiting[0])
    else:
        await _run_a_clock(table, clock)


async def test_timeouts_hand_the_seat_to_the_bot_and_reclaim_gives_it_back(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=1)
        seat = table.seats.index(alice)
        service = client.service
        for _ in range(300):
            if service.stand_ins(table.game_id).stood_in(seat):
                break
            await _play_on_without(table, clock, alice)
        else:
            raise AssertionError("Alice's seat was never stood in for")
        timeouts = [a for a in await client.service.db.actions.actions(table.game_id)
                    if a.played_for is PlayedFor.TIMEOUT]
        assert len(timeouts) == DEFAULT_STAND_IN_AFTER
        # Alice is told by DM how to take the seat back, with the button on her rack; the
        # table is told in the thread.
        told = await fake_discord.wait_for_message(
            lambda m: "a bot plays your seat" in m.content, dm=alice)
        reclaim = f"jg:rc:{table.game_id}:{seat}"
        assert reclaim in custom_ids(told, reclaim) and "/mj reclaim" in told.content
        await fake_discord.wait_for_message(
            lambda m: "until they take the seat back" in m.content, channel=table.thread)
        # The bot plays her moves and she is never waited for.
        for _ in range(6):
            await _play_on_without(table, clock, alice)
            assert not table.view(alice).legal
        # Someone who has no seat can't take it back; the refusal is private.
        refused = await (await fake_discord.slash(carol, table.thread, "mj reclaim")).followup()
        assert "Only the player whose seat this is" in refused.content and refused.ephemeral
        assert service.stand_ins(table.game_id).stood_in(seat)
        # Alice presses Reclaim on her rack message: the seat is hers at once.
        answer = await (await fake_discord.click(alice, told, reclaim)).followup()
        assert "your seat is yours again" in answer.content and answer.ephemeral
        assert not service.stand_ins(table.game_id).stood_in(seat)
        await table.settle()
        await fake_discord.wait_for_message(lambda m: "is back" in m.content,
                                            channel=table.thread)
        # ... and she plays on: her next move is hers, through her own prompt.
        for _ in range(300):
            if table.view(alice).legal:
                break
            await _play_on_without(table, clock, alice)
        else:
            raise AssertionError("Alice never had a move again")
        await table.step(alice)
        mine = [a for a in await client.service.db.actions.actions(table.game_id)
                if a.actor_user_id == alice.id]
        assert mine and mine[-1].played_for is None
    assert_clean(fake_discord, caplog)


async def test_a_league_standings_table_counts_a_stand_in_game_at_half(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = world.alice, world.bob
    director = fake_discord.add_role(world.guild, "Directors", Perm.MANAGE_GUILD)
    world.guild.member(alice).roles.append(director)
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        await (await fake_discord.slash(alice, world.tables, "league create",
                                        {"name": "Tuesday Club"})).reply()
        opened = await (await fake_discord.slash(alice, world.tables, "league season start",
                                                 {"stand_ins": "half"})).reply()
        assert "count at half" in opened.content
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        seat = table.seats.index(alice)
        for _ in range(3000):  # Alice is away all game: the bot keeps her seat
            if table.over:
                break
            await _play_on_without(table, clock, alice)
        else:
            raise AssertionError("the game did not end")
        assert (await client.service.db.games.game(table.game_id)).status is GameStatus.FINISHED
        result = await client.service.db.games.result(table.game_id)
        assert result is not None
        table_points = {s.user_id: s.points for s in result.seats if s.user_id is not None}
        answer = await (await fake_discord.slash(bob, world.tables,
                                                 "league standings")).followup()
        assert "count at half" in answer.content
        shown = {}
        for line in answer.content.splitlines():
            cells = line.split()
            for user in (alice, bob):
                if len(cells) > 4 and cells[1] == user.display_name:
                    shown[user.id] = int(cells[4])
        assert shown == {user: int(points / 2) for user, points in table_points.items()}
        recorded = await client.service.db.league_games.game(table.game_id)
        assert recorded.counted and "counted at half" in recorded.note
        assert [s.detail.played_for > 0 for s in recorded.seats] == [
            s == seat for s in range(4)]
    assert_clean(fake_discord, caplog)


async def test_a_subbed_seat_is_shared_by_moves_and_history_says_how(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Bob plays a few moves of a league game and the host hands his seat to Carol, who
    plays it out. The season shares such seats by moves: each gets a share of the seat's
    points by the moves they made, Carol (who made most) its place, and `/league history`
    says who played which share."""
    alice, bob, carol = world.alice, world.bob, world.carol
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        await open_league(fake_discord, world, {"sub_credit": "shared"})
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        seat = table.seats.index(bob)
        while table.view(bob).action_count < 12 or not table.view(bob).legal:
            await table.step(table.to_move()[0])
        await table.step(bob)
        handed = await fake_discord.slash(alice, table.thread, "mj sub",
                                          {"seat": seat + 1, "user": carol})
        assert "now plays seat" in (await handed.reply()).content
        await table.settle()
        table.seats[seat] = carol
        await table.play()

        recorded = await client.service.db.league_games.game(table.game_id)
        mine = recorded.seats[seat]
        first, second = mine.detail.holders
        assert (first.user_id, second.user_id) == (bob.id, carol.id)
        assert 0 < first.moves < second.moves and second.credited
        assert (mine.user_id, mine.points) == (carol.id, second.points)
        assert first.points + second.points == mine.table_points
        history = await (await fake_discord.slash(carol, world.tables,
                                                  "league history")).reply()
        assert (f"↳ seat {seat + 1} changed hands: Bob {first.moves} moves "
                f"{first.points:+d}, Carol {second.moves} moves {second.points:+d}; its "
                "place is Carol's") in history.content, history.content
        [opened] = [m for m in fake_discord.messages_in(world.tables) if "is open" in m.content]
        assert "subbed seats: shared by moves" in opened.content
    assert_clean(fake_discord, caplog)
