"""`/mj games` and "My games" through the fake Discord: one person's games on two servers and
three tables, those waiting on them first (the soonest deadline first), each with its server,
channel, thread, deadline and latest prompt; the same list from a DM and from the button on a
DM prompt; a friendly line for someone who plays nowhere; nothing named that the reader could
not see at that table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fake import FakeDiscord, Message, User, World
from jongg_table import FrozenClock, JonggTable, assert_clean, custom_ids, jongg_client
from leak_watch import LeakWatch

from bot.discord.client import JonggClient
from bot.discord.commands import IN_A_SERVER
from bot.discord.games import NO_GAMES, games_text
from bot.engine.game import Phase
from bot.engine.tiles import tile_name
from bot.store import ClockKind
from bot.tables.waiting import MyGames, Posted, Standing

#: A deal (first options everywhere) in which Alice, East's neighbour, is soon asked about a
#: discard she can call.
SEED = 21
ASYNC = {"pace": "async"}


def far_hall(fake: FakeDiscord, world: World) -> World:
    """A second server with the same four people in it (made before the bot connects: the
    fake announces no server made later)."""
    guild = fake.add_guild("Far Hall")
    tables = fake.add_channel(guild, "mahjong-tables")
    for user in world.players:
        fake.add_member(guild, user)
    return World(guild, fake.add_channel(guild, "general"), tables, *world.players)


async def until_asked_about_a_discard(table: JonggTable, user: User) -> None:
    """Everyone plays their first option until a claim window `user` is asked in."""
    service = table.client.service
    for _ in range(60):
        moment = service.seat_moment(table.game_id, user.id)
        if moment.asked and moment.view.phase is Phase.CLAIM:
            return
        await table.step(table.to_move()[0])
    raise AssertionError(f"{user.username} was never asked about a discard")


async def due(client: JonggClient, game_id: int, kind: ClockKind, seat: int | None) -> int:
    [found] = [c.due_at for c in await client.service.db.clocks.clocks(game_id)
               if c.kind is kind and c.seat == seat]
    return int(found)


def game_lines(listing: Message) -> list[str]:
    return [line for line in listing.content.splitlines() if line.startswith("• ")]


async def test_my_games_lists_every_table_waiting_on_me_first(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    fake = fake_discord
    alice, bob, carol, dave = world.players
    far = far_hall(fake, world)
    async with fake.run(jongg_client(tmp_path / "j.db", FrozenClock(), seed=SEED)) as client:
        # Far Hall: Alice owes her first Charleston pass (a day's clock). Here: Carol owes
        # hers, Alice has passed; and a table in a claim window Alice is asked in (two
        # hours), opened last.
        charleston = await JonggTable.open(fake, far, client, [alice, bob], bots=2,
                                           options=ASYNC)
        others = await JonggTable.open(fake, world, client, [alice, carol], bots=2,
                                       options=ASYNC)
        await others.step(alice)
        claim = await JonggTable.open(fake, world, client, [bob, alice], bots=2,
                                      options=ASYNC)
        await until_asked_about_a_discard(claim, alice)

        listing = await (await fake.slash(alice, world.general, "mj games")).reply()
        assert listing.ephemeral and listing.visible_to is alice
        lines = game_lines(listing)
        assert [int(re.match(r"• \*\*Table (\d+)\*\*", line)[1])  # type: ignore[index]
                for line in lines] == [claim.game_id, charleston.game_id, others.game_id]
        assert listing.content.index("**Waiting on you**") < listing.content.index(lines[0])
        assert listing.content.index("**Waiting on others**") < listing.content.index(lines[2])
        assert listing.content.startswith("**Your games**: 3 in play, 2 waiting on you.")

        # The claim window: the discard, its window's clock, the thread and the post with
        # Claim and Pass.
        seen = claim.view(alice)
        assert seen.claim is not None
        names = client.service.table(claim.game_id).names
        tile, discarder = tile_name(seen.claim.kind), names[seen.claim.discarder]
        closes = await due(client, claim.game_id, ClockKind.CLAIM, None)
        post, _ = claim.newest_post(f"jg:c:{claim.game_id}:")
        home = f"https://discord.com/channels/{world.guild.id}"
        assert lines[0] == (
            f"• **Table {claim.game_id}** · Jongg Test Hall · #mahjong-tables · {tile} from "
            f"{discarder}: call it or pass · due <t:{closes}:R> (<t:{closes}:f>) · "
            f"[thread](<{home}/{claim.thread.id}>) · "
            f"[your prompt](<{home}/{claim.thread.id}/{post.id}>)")
        # The Charleston: Alice's turn clock, and her DM with the pass menu.
        seat = client.service.seat_of(charleston.game_id, alice.id)
        turn = await due(client, charleston.game_id, ClockKind.TURN, seat)
        prompt = await charleston.prompt(alice)
        dm = fake.dm_channel(alice)
        assert lines[1] == (
            f"• **Table {charleston.game_id}** · Far Hall · #mahjong-tables · first "
            f"Charleston, pass right: your move · due <t:{turn}:R> (<t:{turn}:f>) · "
            f"[thread](<https://discord.com/channels/{far.guild.id}/{charleston.thread.id}>)"
            f" · [your prompt](<https://discord.com/channels/@me/{dm.id}/{prompt.id}>)")
        assert lines[2] == (
            f"• **Table {others.game_id}** · Jongg Test Hall · #mahjong-tables · first "
            f"Charleston, pass right: waiting for {names_of(others)[carol.id]} · "
            f"[thread](<{home}/{others.thread.id}>)")

        # Nothing in a line that Alice could not see at that table; a claim window is told
        # to the others at it without saying who may call.
        for table, line in zip((claim, charleston, others), lines, strict=True):
            assert await (await LeakWatch.of(table)).unknown_in(line, alice) == []
        [bobs] = [line for line in game_lines(await (await fake.slash(
            bob, world.general, "mj games")).reply()) if f"Table {claim.game_id}**" in line]
        if not client.service.seat_moment(claim.game_id, bob.id).asked:
            whose = "your" if bob.display_name == discarder else f"{discarder}'s"
            assert f"· {whose} {tile} is open for calls ·" in bobs, bobs

        # From a DM, and from "My games" on a DM prompt: the same list, as a plain message.
        in_dm = await (await fake.slash(alice, dm, "mj games")).reply()
        assert not in_dm.ephemeral and in_dm.content == listing.content
        assert custom_ids(prompt, "jg:games") == ["jg:games"]
        clicked = await (await fake.click(alice, prompt, "jg:games")).reply()
        assert clicked.content == listing.content
        assert await charleston.prompt(alice) is prompt, "the prompt is left as it was"

        # Someone who plays nowhere is told so; a table command in a DM says where it works.
        nothing = await (await fake.slash(dave, world.general, "mj games")).reply()
        assert nothing.ephemeral and nothing.content == NO_GAMES
        refused = await (await fake.slash(dave, fake.dm_channel(dave), "mj status")).reply()
        assert refused.content == IN_A_SERVER
        await claim.settle()
    assert_clean(fake, caplog)


def names_of(table: JonggTable) -> dict[int | None, str]:
    """Each seat holder's name at the table, by user id."""
    seated = table.client.service.table(table.game_id)
    return dict(zip(seated.user_ids, seated.names, strict=True))


class _NoCache:
    """A client that knows no server or channel (those of another process's shards)."""

    def get_guild(self, guild_id: int) -> None:
        return None

    def get_channel(self, channel_id: int) -> None:
        return None


def test_a_long_list_fits_one_message_and_says_how_many_it_leaves_out() -> None:
    def standing(game_id: int, yours: bool) -> Standing:
        return Standing(game_id, 10**18, 10**18 + 1, 10**18 + 2, yours,
                        "first Charleston, pass right: waiting for Somebody Long",
                        10**9 if yours else None,
                        Posted(None, 10**18 + 3, 10**18 + 4) if yours else None, False)

    games = MyGames(tuple(standing(n, True) for n in range(1, 9)),
                    tuple(standing(n, False) for n in range(9, 41)))
    text = games_text(_NoCache(), games)  # type: ignore[arg-type]
    assert len(text) <= 2000
    shown = [int(n) for n in re.findall(r"\*\*Table (\d+)\*\*", text)]
    assert shown == list(range(1, len(shown) + 1)), "the list leaves out its last games"
    assert 4 < len(shown) < 40
    waiting = 8 - min(8, len(shown))
    assert text.endswith(f"…and {40 - len(shown)} more not shown here ({waiting} of them "
                         "waiting on you): the list shows what fits in one message.")
    assert "· no clock ·" not in text and "<t:1000000000:R>" in text
