"""Nothing hidden leaks: across a whole league game of three people and a bot, with every
command and control used along the way by players and by a server member at no seat, nobody
is shown a tile, a picture, a file or a log they could not see at the table. The leak watch
(`leak_watch.py`) checks every message against each reader's knowledge, and is shown to fail
on a leak planted of each kind it checks."""

from __future__ import annotations

import io
from collections import Counter
from itertools import cycle
from pathlib import Path

import discord
import pytest
from fake import FakeDiscord, User, World
from jongg_table import (
    JonggTable,
    LeakWatch,
    assert_clean,
    custom_ids,
    finished,
    jongg_client,
    open_league,
)

from bot.discord.client import JonggClient
from bot.engine.game import Phase
from bot.engine.game.actions import Discard
from bot.engine.game.view import spectator_view
from bot.engine.tiles import format_tile, format_tiles, tile_name
from bot.scenes import rack_scene, table_scene
from bot.tables import replay
from bot.tables.replay import LogKind
from renderer import render_rack, render_table
from renderer.alt import describe_rack, describe_table

#: Every game here is dealt from this seed: a number no other figure in a log looks like.
SEED = 7_340_271_989_313
NOT_SEATED = "not playing"


async def use_every_control(table: JonggTable, user: User, used: Counter[str]) -> None:
    """`user` uses every command and control a game offers, without making a move: a seated
    player gets their own things, anyone else a private refusal or the public record. The
    watch judges what they were shown; this checks they were answered."""
    fake, thread, game_id = table.fake, table.thread, table.game_id
    seat = table.client.service.table(game_id).seat_of(user.id)
    mine = table.view(user) if seat is not None else None
    who = "seated" if mine is not None else "outsider"
    for command, options in (("mj status", {}), ("mj rack", {}), ("mj replay", {"game": game_id}),
                             ("league history", {}), ("league export", {})):
        answer = await (await fake.slash(user, thread, command, options)).reply()
        assert answer.content, f"/{command} gave {user.username} nothing"
        if command == "mj rack":
            assert ("rack.png" in answer.files) == (mine is not None), answer.content
        used[f"/{command} {who}"] += 1
    typing = await fake.autocomplete(user, thread, "mj discard", "tile", "")
    offered = [choice["value"] for choice in await typing.choices()]
    discards = sorted({o.action.kind for o in mine.legal if isinstance(o.action, Discard)}
                      ) if mine else []
    assert offered == [format_tile(kind) for kind in discards]
    used[f"/mj discard autocomplete {who}"] += 1
    if not discards:  # a discard now is refused, so it changes nothing
        tile = format_tile(mine.concealed[0]) if mine else "7D"
        refused = await (await fake.slash(user, thread, "mj discard", {"tile": tile})).reply()
        assert refused.ephemeral and (mine is not None or NOT_SEATED in refused.content)
        used[f"/mj discard {who}"] += 1
    post = table.table_posts()[-1]
    for control in ("jg:r:", "jg:h:", "jg:c:"):
        for custom_id in custom_ids(post, f"{control}{game_id}"):
            answer = await (await fake.click(user, post, custom_id)).reply()
            assert answer.ephemeral and answer.visible_to is user
            assert (NOT_SEATED in answer.content) == (mine is None), answer.content
            used[f"{control} {who}"] += 1
    # /analyze reads one hand: a Royale-style seat's two racks together are up to 28 tiles.
    tiles = format_tiles(mine.concealed[:14]) if mine else "FF 2026B 222C 2222D J"
    analysis = await (await fake.slash(user, thread, "analyze", {"tiles": tiles})).reply()
    assert "analysis.png" in analysis.files
    used[f"/analyze {who}"] += 1


async def test_nobody_is_shown_what_they_may_not_know(fake_discord: FakeDiscord, world: World,
                                                      tmp_path: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    fake = fake_discord
    alice, bob, carol, dave = world.players
    used: Counter[str] = Counter()
    async with fake.run(jongg_client(tmp_path / "j.db", seed=SEED)) as client:
        await open_league(fake, world)
        table = await JonggTable.open(fake, world, client, [alice, bob, carol], bots=1)
        table.claim_menu = {carol.id}  # Carol answers discards through "Claim…"
        watch = await LeakWatch.attach(table)
        players = cycle(table.humans)
        claims_seen = 0
        while not table.over:
            user, seen = next((u, v) for u in table.humans if (v := table.view(u)).legal)
            claim = seen.phase is Phase.CLAIM and seen.claim and seen.claim.discarder != 0
            claims_seen += bool(claim)
            if table.steps % 40 == 0 or claims_seen == 1:
                for someone in (next(players), dave):
                    await use_every_control(table, someone, used)
                await watch(table)
            if seen.phase is Phase.TURN and table.steps % 5 == 0:
                await discard_with_the_command(table, user)
            else:
                await table.step(user, seen)
        await table.result_post()
        await finished(client, table.game_id)
        # Once the game is over, the whole log (seed and moves) is anyone's, and the game is
        # in the league's history and export.
        for user in (alice, dave):
            answer = await (await fake.slash(user, table.thread, "mj replay",
                                             {"game": table.game_id})).reply()
            assert f"table-{table.game_id}.txt" in answer.files
            history = await (await fake.slash(user, world.tables, "league history")).reply()
            assert "1 games" in history.content
            export = await (await fake.slash(user, world.tables, "league export")).reply()
            assert "1 games, 4 rows" in export.content
        await watch(table)
    assert watch.messages > 500
    assert watch.pictures["table.png"] > 80  # every one, drawn from the spectator view
    assert watch.pictures["rack.png"] > 100 and watch.pictures["hint.png"] >= 10
    assert watch.pictures["analysis.png"] >= 20 and watch.pictures["result.png"] == 1
    assert watch.replays["public"] >= 20 and watch.replays["full"] == 2
    assert watch.private > 100  # people were shown their own tiles: the check has teeth
    for who in ("seated", "outsider"):
        for control in ("/mj status", "/mj rack", "/mj replay", "/mj discard autocomplete",
                        "/mj discard", "/league history", "/league export", "/analyze",
                        "jg:r:", "jg:h:", "jg:c:"):
            assert used[f"{control} {who}"], f"{control} was never used by the {who}"
    assert_clean(fake, caplog)


async def discard_with_the_command(table: JonggTable, user: User) -> None:
    """`user` discards the first tile `/mj discard` offers as they type."""
    typing = await table.fake.autocomplete(user, table.thread, "mj discard", "tile", "")
    tile = (await typing.choices())[0]["value"]
    answer = await (await table.fake.slash(user, table.thread, "mj discard",
                                           {"tile": tile})).reply()
    assert answer.content.startswith("You discarded"), answer.content
    await table.settle()


async def test_replay_in_the_lobby_shows_nothing(fake_discord: FakeDiscord, world: World,
                                                 tmp_path: Path) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db", seed=SEED)):
        opened = await fake_discord.slash(world.alice, world.tables, "mj new", {"players": 4})
        lobby = await opened.reply()
        game_id = int(custom_ids(lobby, "jg:l:")[0].split(":")[2])
        thread = await fake_discord.wait_until(lambda: lobby.thread, what="the table's thread")
        await fake_discord.wait_for_message(channel=thread)
        await opened.settled()
        answer = await (await fake_discord.slash(world.bob, world.tables, "mj replay",
                                                 {"game": game_id})).reply()
    assert answer.ephemeral and "hasn't started" in answer.content
    assert not answer.attachments and str(SEED) not in answer.content


# -- the watch fails on a planted leak ----------------------------------------------------------


async def _dm(client: JonggClient, user: User, text: str = "", *,
              file: tuple[str, bytes] | None = None) -> None:
    """The bot sends `user` a DM (the planted leak)."""
    channel = await client.create_dm(discord.Object(user.id))
    if file is None:
        await channel.send(text)
    else:
        await channel.send(text, file=discord.File(io.BytesIO(file[1]), filename=file[0]))


async def _play_until(table: JonggTable, done: bool | None = None, *,
                      wall: int | None = None) -> None:
    """Play first options until play has begun and (with `wall`) the wall is that short."""
    while not table.over:
        seen = table.spectator()
        if seen.phase is Phase.TURN and (wall is None or seen.wall_count <= wall):
            return
        user, mine = next((u, v) for u in table.humans if (v := table.view(u)).legal)
        await table.step(user, mine)
    raise AssertionError("the game ended first")


async def test_the_watch_fails_on_a_planted_leak(fake_discord: FakeDiscord, world: World,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_discord
    alice, bob, carol, dave = world.players
    async with fake.run(jongg_client(tmp_path / "j.db", seed=SEED)) as client:
        table = await JonggTable.open(fake, world, client, [alice, bob, carol], bots=1)
        watch = await LeakWatch.attach(table)
        await _play_until(table)

        def hidden_from_bob() -> list[int]:
            """Alice's concealed kinds Bob may not know of: never face up, never his."""
            knows = watch.knowledge(bob).copies
            return [k for k in table.view(alice).concealed if not knows[k]]

        # Text: one of Alice's concealed tiles, named to Bob. Bob's own tile is no leak.
        await _dm(client, bob, f"Table {table.game_id}: you hold "
                  f"{tile_name(table.view(bob).concealed[0])}.")
        await watch(table)
        secret = hidden_from_bob()[0]
        await _dm(client, bob, f"Psst: Alice holds {tile_name(secret)}.")
        with pytest.raises(AssertionError, match=f"to bob: names 1 x {tile_name(secret)}"):
            await watch(table)
        # A picture: Alice's rack sent to Bob; a table picture drawn from Alice's seat.
        alice_rack = render_rack(rack_scene(table.view(alice), name="Alice"))
        await _dm(client, bob, "Your rack", file=("rack.png", alice_rack))
        with pytest.raises(AssertionError, match="to bob: shows a picture that is not"):
            await watch(table)
        thread = await client.fetch_channel(table.thread.id)
        assert isinstance(thread, discord.Thread)
        seat_picture = render_table(table_scene(table.view(alice), bots=(False,) * 4))
        await thread.send(file=discord.File(io.BytesIO(seat_picture), filename="table.png"))
        with pytest.raises(AssertionError, match=r"#Mah Jongg table .*: shows a picture"):
            await watch(table)
        # Alt text: the thread's own table picture passes with its own words, and fails
        # said with Alice's rack, or unsaid.
        scene = table_scene(spectator_view(watch.state), title=f"Table {table.game_id}",
                            bots=client.service.table(table.game_id).bots)
        picture = render_table(scene)
        alice_words = describe_rack(rack_scene(table.view(alice), name="Alice"))
        for alt, problem in ((describe_table(scene), None),
                             (alice_words, "shows a picture that is not"),
                             (None, "sent table.png without alt text")):
            await thread.send(file=discord.File(io.BytesIO(picture), filename="table.png",
                                                description=alt))
            if problem is None:
                await watch(table)
                continue
            with pytest.raises(AssertionError, match=rf"#Mah Jongg table .*: {problem}"):
                await watch(table)
        # An attachment: a text file for the outsider naming Alice's tile by its code.
        await _dm(client, dave, "notes", file=("notes.txt",
                                               f"East holds {format_tile(secret)}".encode()))
        with pytest.raises(AssertionError, match=f"file notes.txt names 1 x {tile_name(secret)}"):
            await watch(table)
        # The replay as it was: seed and every action, while the game is played.
        monkeypatch.setattr(replay, "log_kind", lambda status: LogKind.FULL)
        await (await fake.slash(dave, table.thread, "mj replay", {"game": table.game_id})).reply()
        with pytest.raises(AssertionError, match="shows its seed"):
            await watch(table)
        monkeypatch.undo()

        # Late in the game most kinds have been face up somewhere: a concealed tile nobody
        # has seen still fails, and so does a line saying which tiles Alice holds.
        await _play_until(table, wall=20)
        assert len(spectator_view(watch.state).discards) > 40
        late = hidden_from_bob()
        assert late, "every tile of Alice's could be known to Bob"
        await _dm(client, bob, f"Alice holds {tile_name(late[0])}.")
        with pytest.raises(AssertionError, match=f"names 1 x {tile_name(late[0])}"):
            await watch(table)
        # A rack line for the outsider: tiles a seat holds, each of a kind he may know of
        # (face up somewhere), but he may not learn that they sit together on that rack.
        knows = watch.knowledge(dave)
        state = watch.state
        lines = [sorted((Counter(state.kinds(held.concealed)) & knows.copies).elements())
                 for held in state.seats]
        shown = max(lines, key=len)
        assert len(shown) >= 2 and not any(Counter(shown) <= g for g in knows.groups), shown
        await _dm(client, dave, f"They hold {', '.join(map(tile_name, shown))}.")
        with pytest.raises(AssertionError, match=r"to dave: names .* together, which it never"):
            await watch(table)
        # With the plants looked at, the rest of the game passes the watch.
        await table.play()
