"""Trying to break the Discord front end: a hostile user, a careless server owner, a phone
user, end to end through the fake Discord. Each probe asserts what should hold (a short,
private, friendly answer; no change to the game; no traceback logged; nothing hidden shown),
not only that nothing crashed. What the other hostile files cover (closed DMs, a deleted
thread, a missing Attach Files, long text options, outsiders and stale prompts, double
clicks on a DM menu, the bettor's menu, Play again twice) is not repeated here."""

from __future__ import annotations

import asyncio
import copy
import logging
from pathlib import Path
from typing import Any

import pytest
from fake import FakeDiscord, Message, Perm, User, World
from jongg_table import (
    FrozenClock,
    JonggTable,
    assert_clean,
    custom_ids,
    jongg_client,
)

from bot.store import GameStatus

#: What the bot says when it does not know what went wrong (never meant for a refusal).
APOLOGY = "Sorry, something went wrong"


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Errors the bot logged, and any record carrying a traceback."""
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.ERROR or r.exc_info]


def private_to(answer: Message, user: User) -> None:
    """A short, private answer for `user` that is a refusal worded for them."""
    assert answer.ephemeral and answer.visible_to is user, answer.content
    assert 0 < len(answer.content) < 1000, answer.content
    assert APOLOGY not in answer.content, answer.content


# -- a careless server: the bot may not open the table's thread ---------------------------------


@pytest.mark.parametrize(("denied", "how"), [
    (Perm.CREATE_PUBLIC_THREADS, "overwrite"), (Perm.SEND_MESSAGES_IN_THREADS, "overwrite"),
    (Perm.CREATE_PUBLIC_THREADS, "refused")],
    ids=["no-threads", "no-posts-in-threads", "thread-refused"])
async def test_a_new_table_where_the_bot_may_not_use_threads_is_told_kindly(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, denied: Perm, how: str) -> None:
    """A server denies the bot Create Public Threads (or Send Messages in Threads) in the
    tables channel, then someone runs `/mj new` there (`refused`: the permission is taken
    away between the command and the thread, so only Discord's 403 tells). The host should
    be told, privately and in words, which permission is missing; no error is logged; and
    no lobby is left with Join and Start buttons for a table that can never start."""
    me = world.guild.member(fake_discord.bot)
    if how == "overwrite":
        fake_discord.set_permissions(world.tables, me, deny=denied)
    else:
        fake_discord.fail("POST /channels/{channel_id}/messages/{message_id}/threads",
                          status=403, code=50013, message="Missing Permissions")
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        opened = await fake_discord.slash(world.alice, world.tables, "mj new", {"players": 2})
        # Waited for by what it is (the wait is the machine's, not a fixed quiet spell: on
        # a busy machine the bot may be still between two requests), then settled.
        said = await fake_discord.wait_until(
            lambda: [m for m in opened.messages if m.ephemeral],
            what="a private answer to the host")
        await opened.settled()
        answer = said[-1]
        private_to(answer, world.alice)
        name = {Perm.CREATE_PUBLIC_THREADS: "Create Public Threads",
                Perm.SEND_MESSAGES_IN_THREADS: "Send Messages in Threads"}[denied]
        assert name in answer.content, answer.content
        assert not tracebacks(caplog), tracebacks(caplog)
        # Whatever lobby is left can be started (it has its thread), or has no buttons.
        for lobby in fake_discord.messages_in(world.tables):
            ids = custom_ids(lobby, "jg:l:")
            if not ids:
                continue
            game_id = int(ids[0].split(":")[2])
            game = await client.service.db.games.game(game_id)
            assert game.thread_id is not None, (
                f"table {game_id} keeps a lobby with buttons but has no thread: Start can "
                "never work")


# -- a phone user: double taps -----------------------------------------------------------------


async def _lobby(fake: FakeDiscord, world: World, host: User,
                 players: int = 4) -> tuple[int, Message]:
    """`/mj new` by `host` in the tables channel: the game's id and its lobby, thread made."""
    opened = await fake.slash(host, world.tables, "mj new", {"players": players})
    lobby = await opened.reply()
    game_id = int(custom_ids(lobby, "jg:l:")[0].split(":")[2])
    thread = await fake.wait_until(lambda: lobby.thread, what="the table's thread")
    await fake.wait_for_message(channel=thread)
    await opened.settled()
    return game_id, lobby


async def test_a_double_tapped_join_or_bet_takes_one_place(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A phone user taps Join twice before the lobby redraws, and another taps Bet twice:
    one seat, one bet, and whatever the second tap is told, only they see it."""
    erin = fake_discord.add_user("erin", global_name="Erin")
    fake_discord.add_member(world.guild, erin)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        game_id, lobby = await _lobby(fake_discord, world, world.alice)
        for user, op in ((world.bob, "join"), (erin, "bet")):
            taps = await asyncio.gather(*(fake_discord.click(user, lobby, f"jg:l:{game_id}:{op}")
                                          for _ in range(2)))
            for tap in taps:
                await tap.settled()
            for tap in taps:
                for said in tap.followups:
                    assert said.ephemeral and said.visible_to is user, said.content
                    assert APOLOGY not in said.content, said.content
        seats = await client.service.db.seats.seats(game_id)
        assert [s.user_id for s in seats].count(world.bob.id) == 1, seats
        assert erin.id not in [s.user_id for s in seats]
        bettor = await client.service.db.series.bettor(game_id)
        assert bettor is not None and bettor.user_id == erin.id
        menus = [m for m in fake_discord.messages if custom_ids(m, f"jg:bs:{game_id}")]
        assert len(menus) == 1, [m.content for m in menus]
    assert_clean(fake_discord, caplog)


@pytest.mark.parametrize("blank", ["\u3000", " \u2003 ", "\u200b"],
                         ids=["ideographic-space", "em-space", "zero-width-space"])
async def test_a_display_name_of_only_whitespace_still_hosts_and_joins(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, blank: str) -> None:
    """Someone whose display name is only whitespace (an ideographic space: it shows as
    nothing) opens a table and someone else like them joins it: both get their seats, kept
    under their user names (a seat's name must show something), and nobody is told that
    something went wrong."""
    hana = fake_discord.add_user("hana", global_name=blank)
    kai = fake_discord.add_user("kai", global_name=blank)
    for user in (hana, kai):
        fake_discord.add_member(world.guild, user)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        game_id, lobby = await _lobby(fake_discord, world, hana)
        joined = await fake_discord.click(kai, lobby, f"jg:l:{game_id}:join")
        await joined.settled()
        seats = await client.service.db.seats.seats(game_id)
        assert {(s.user_id, s.display_name) for s in seats} == {
            (hana.id, "hana"), (kai.id, "kai")}, seats
    assert_clean(fake_discord, caplog)
    assert not tracebacks(caplog)


async def test_a_double_tapped_pass_passes_once(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """In a claim window Bob taps Pass twice at once: his seat passes once, one tap is
    answered as a pass and the other privately, and nothing else moves for him."""
    from bot.engine.game import Pass, Phase

    bob = world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice, bob], bots=2)
        for _ in range(400):
            seen = table.view(bob)
            if (seen.phase is Phase.CLAIM and seen.legal
                    and any(isinstance(o.action, Pass) for o in seen.legal)):
                break
            await table.step(table.to_move()[0])
        else:
            raise AssertionError("Bob was never asked about a discard")
        post, passing = table.newest_post(f"jg:p:{table.game_id}:")
        count = table.spectator().action_count
        taps = await asyncio.gather(*(fake_discord.click(bob, post, passing) for _ in range(2)))
        answers = [await tap.reply() for tap in taps]
        for tap in taps:
            await tap.settled()
        await table.settle()
        made = await client.service.db.actions.actions(table.game_id, since=count)
        passes = [a for a in made if a.actor_user_id == bob.id]
        assert len(passes) == 1, [a.text for a in made]
        private = [a for a in answers if a.ephemeral]
        assert all(a.visible_to is bob for a in private)
        assert not any(APOLOGY in a.content for a in answers), [a.content for a in answers]
    assert_clean(fake_discord, caplog)


# -- a hostile user: crafted custom ids and menu values ----------------------------------------


def forge(message: Message, custom_id: str, *, options: list[str] | None = None) -> Any:
    """Put a control Discord would never have shown on `message` (a crafted interaction):
    a button with `custom_id`, or a menu of `options`. Returns what to put back."""
    kept = copy.deepcopy(message.components)
    if options is None:
        item: dict[str, Any] = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
    else:
        item = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                "options": [{"label": v or "-", "value": v} for v in options]}
    message.components = [{"type": 1, "components": [item]}]
    return kept


async def _forged(fake: FakeDiscord, user: User, message: Message, custom_id: str,
                  values: list[str] | None = None) -> list[Message]:
    """`user` uses a forged control on `message`; what they were answered (the message is
    given its own controls back)."""
    kept = forge(message, custom_id, options=values)
    try:
        if values is None:
            handle = await fake.click(user, message, custom_id)
        else:
            handle = await fake.select(user, message, custom_id, values)
    finally:
        message.components = kept
    try:
        await handle.settled(timeout=4)
    except AssertionError as error:
        raise AssertionError(f"{custom_id} {values}: never answered ({error})") from None
    return list(handle.messages)


async def _refused_quietly(fake: FakeDiscord, table: JonggTable, user: User,
                           message: Message, custom_id: str,
                           values: list[str] | None = None) -> list[str]:
    """What went wrong when `user` used a forged control on `message` (see `_forged`):
    nothing when it was refused privately and without an apology, the game did not move
    and the message was not edited."""
    what = custom_id if values is None else f"{custom_id} {values}"
    count = table.spectator().action_count
    edits = len(message.edits)
    try:
        answers = await _forged(fake, user, message, custom_id, values)
    except AssertionError as error:
        return [str(error)]
    problems: list[str] = []
    said = [a for a in answers if a.content]
    if not said or not all(a.ephemeral and a.visible_to is user for a in said):
        problems.append(f"{what}: {[(a.content, a.ephemeral) for a in answers]}")
    elif any(APOLOGY in a.content for a in said):
        problems.append(f"{what}: apologized: {said[-1].content!r}")
    await table.client.service.flush(table.game_id)
    if table.spectator().action_count != count:
        problems.append(f"{what}: the game moved")
    if len(message.edits) != edits:
        problems.append(f"{what}: the message was edited to {message.content!r}")
    return problems


async def test_forged_custom_ids_are_refused_privately_and_change_nothing(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Bob sends clicks with custom ids Discord never showed him: another game's, another
    seat's, numbers past any game, an option that does not exist, the host's buttons. Each
    is answered privately, the game does not move, and nothing is logged as an error."""
    alice, bob = world.alice, world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        game = table.game_id
        other, _ = await _lobby(fake_discord, world, world.carol)
        while table.view(bob).phase.value != "turn" or not table.view(bob).legal:
            await table.step(table.to_move()[0])
        seen = table.view(bob)
        prompt = await table.prompt(bob)
        post = table.table_posts()[-1]
        huge = 10 ** 20
        bob_seat, alice_seat = table.seats.index(bob), table.seats.index(alice)
        counter = seen.action_count
        forged = [
            (post, f"jg:r:{other}"), (post, f"jg:r:{huge}"), (post, f"jg:h:{huge}"),
            (post, f"jg:p:{game}:{huge}"), (post, f"jg:c:{game}:{huge}"),
            (post, f"jg:rc:{game}:{alice_seat}"), (post, f"jg:s:{game}:end"),
            (post, f"jg:l:{game}:start"), (post, f"jg:b:{game}"),
            (post, f"jg:s:{huge}:end"), (post, f"jg:b:{huge}"), (post, f"jg:l:{huge}:join"),
            (post, f"jg:rc:{huge}:0"), (post, f"jg:x:{game}:no:{huge}"),
            (post, f"jg:x:{game}:yes:{huge}"), (post, f"jg:n:{game}"),
            (prompt, f"jg:a:{game}:{bob_seat}:{counter}:{len(seen.legal) + 5}"),
            (prompt, f"jg:a:{game}:{alice_seat}:{counter}:0"),
            (prompt, f"jg:a:{huge}:{bob_seat}:{counter}:0"),
            (prompt, f"jg:x:{game}:{bob_seat}:{counter}:0"),
            (prompt, f"jg:f:{game}:{bob_seat}:{counter}:dead"),
            (prompt, "jg:st:auto_sort:maybe"), (prompt, "jg:st:__class__:on"),
        ]
        problems: list[str] = []
        for message, custom_id in forged:
            problems += await _refused_quietly(fake_discord, table, bob, message, custom_id)
        assert not problems, "\n".join(problems)
        assert (await client.service.db.games.game(other)).status is GameStatus.LOBBY
        assert not tracebacks(caplog), tracebacks(caplog)
        await table.first_option(bob, prompt)  # and his real prompt still works
        await table.settle()


async def test_forged_menu_values_are_refused_privately_and_change_nothing(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Bob's discard menu sent with values it never offered (a word, a huge number, a
    negative index, an index past the options, a pass menu's `index:kind`, a circled
    digit): each is refused privately, nothing moves, nothing is logged as an error."""
    bob = world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice, bob], bots=2)
        while not (table.view(bob).phase.value == "turn" and table.view(bob).legal):
            await table.step(table.to_move()[0])
        prompt = await table.prompt(bob)
        [menu] = custom_ids(prompt, "jg:d:")
        problems: list[str] = []
        for value in ("x", str(10 ** 20), "-1", "999", "0:1", "①"):
            problems += await _refused_quietly(fake_discord, table, bob, prompt, menu, [value])
        assert not problems, "\n".join(problems)
        assert not tracebacks(caplog), tracebacks(caplog)


# -- a hostile user: odd text and numbers in slash options --------------------------------------


async def test_odd_option_values_get_private_friendly_answers(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Option values at their extremes, within what Discord lets through: nearly-right tiles,
    zero-width, right-to-left and emoji text, markdown and mentions, path traversal in
    names, clocks of 0 or of ages, ids out of range, a command where it does not belong.
    Each is answered privately and kindly, pings nobody, and nothing is logged as an error."""
    from fake import pinged

    alice, bob = world.alice, world.bob
    director = fake_discord.add_role(world.guild, "Directors", Perm.MANAGE_GUILD)
    world.guild.member(alice).roles.append(director)
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3)
        thread, general, tables = table.thread, world.general, world.tables
        dm = fake_discord.dm_channel(alice)
        most = 2 ** 53 - 1
        asked: list[tuple[Any, str, dict[str, Any]]] = [
            *((thread, "mj discard", {"tile": tile}) for tile in (
                "3 bamm", "10B", "0D 0D", "\u200b", "\u202e3B", "🀄", "@everyone",
                "`||x||`", f"<@{bob.id}>", "3B\n@here", "٣B", "²B")),
            (general, "card show", {"name": "../../etc/passwd"}),
            (general, "card show", {"name": "\u200b"}),
            (general, "card default", {"name": "../../data/cards/jongg-original"}),
            (general, "card delete", {"name": "../jongg-original"}),
            (general, "rules", {"topic": "\u200b\u200b"}),
            (general, "rules", {"hand": "../../etc/passwd"}),
            (general, "rules", {"hand": "t99999999999"}),
            (general, "analyze", {"tiles": "🀄🀄🀄"}),
            (general, "analyze", {"tiles": "J" * 20}),
            (general, "analyze", {"tiles": "F" * 20}),
            (general, "analyze", {"tiles": "FF", "exposed": ",,,,"}),
            (tables, "mj new", {"turn": "0s"}),
            (tables, "mj new", {"claim": "9999999999999999d"}),
            (tables, "mj new", {"turn": "-5s"}),
            (tables, "mj new", {"house": "@everyone <@&1> `x`"}),
            (tables, "mj new", {"card": "../../etc/passwd"}),
            (thread, "mj new", {}),
            (general, "mj settings", {"time_zone": "../../etc/passwd"}),
            (general, "mj settings", {"time_zone": "/etc/localtime"}),
            (general, "mj settings", {"quiet_hours": "99:99-00:00"}),
            (general, "mj vacation start", {"from": "9999-12-31"}),
            (general, "mj replay", {"game": -1}),
            (general, "mj replay", {"game": most}),
            (general, "mj reclaim", {"game": -1}),
            (general, "mj config", {"turn_seconds": most}),
            (general, "mj config", {"auto_delay": float(most)}),
            (dm, "mj status", {}),
            (dm, "mj discard", {"tile": "3B"}),
        ]
        problems: list[str] = []
        for channel, command, options in asked:
            handle = await fake_discord.slash(alice, channel, command, options)
            answer = await handle.reply()
            said = f"/{command} {options!r}: {answer.content!r}"
            if channel is not dm and not (answer.ephemeral and answer.visible_to is alice):
                problems.append(f"public: {said}")
            if APOLOGY in answer.content or not 0 < len(answer.content) < 2000:
                problems.append(said)
            await handle.settled()
        assert not pinged(fake_discord.requests), pinged(fake_discord.requests)
        assert not problems, "\n".join(problems)
        assert client.service.in_play(table.game_id)
    assert_clean(fake_discord, caplog)


# -- a phone that has not refreshed: stale lobby buttons ---------------------------------------


async def test_stale_lobby_buttons_after_start_and_abort_are_refused_privately(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Carol's phone still shows the lobby's buttons after Start (and, later, after the
    game was aborted). Join, Leave, Add bot, Bet and Start pressed there are refused,
    privately, and change no seat."""
    alice, bob, carol = world.alice, world.bob, world.carol
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        game_id, lobby = await _lobby(fake_discord, world, alice)
        buttons = copy.deepcopy(lobby.components)
        stale = [f"jg:l:{game_id}:{op}" for op in ("join", "leave", "bot:easy", "start", "bet")]
        handle = await fake_discord.click(bob, lobby, f"jg:l:{game_id}:join")
        await handle.settled()
        handle = await fake_discord.click(alice, lobby, f"jg:l:{game_id}:start")
        await handle.settled()
        await fake_discord.wait_until(lambda: client.service.in_play(game_id) or None,
                                      what="the game to start")
        problems: list[str] = []
        for when in ("started", "aborted"):
            if when == "aborted":
                await client.service.abort(game_id, alice.id)
            before = await client.service.db.seats.seats(game_id)
            for user in (carol, bob, alice):
                for custom_id in stale:
                    lobby.components = copy.deepcopy(buttons)
                    try:
                        tap = await fake_discord.click(user, lobby, custom_id)
                    finally:
                        lobby.components = []
                    await tap.settled()
                    said = [m for m in tap.followups if m.content]
                    if (len(said) != 1 or not said[0].ephemeral or said[0].visible_to is not user
                            or APOLOGY in said[0].content):
                        problems.append(f"{when} {user.username} {custom_id}: "
                                        f"{[(m.content, m.ephemeral) for m in tap.messages]}")
            assert await client.service.db.seats.seats(game_id) == before
        assert not problems, "\n".join(problems)
        assert await client.service.db.series.bettor(game_id) is None
    assert_clean(fake_discord, caplog)


async def test_yes_to_an_abort_question_after_the_game_ended_says_nothing_was_aborted(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Bob asks `/mj abort`, then plays on; the game ends before he presses Yes. Nothing is
    aborted, the table is not told it was, and his question does not stay on "Aborting…"."""
    bob = world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [bob], bots=3)
        asking = await fake_discord.slash(bob, table.thread, "mj abort")
        question = await asking.reply()
        yes = next(b["custom_id"] for b in question.buttons() if b["label"].startswith("Yes"))
        await table.play()
        await table.result_post()
        tap = await fake_discord.click(bob, question, yes)
        await tap.settled()
        game = await client.service.db.games.game(table.game_id)
        assert game.status is GameStatus.FINISHED
        assert not [m for m in fake_discord.messages_in(table.thread)
                    if not m.ephemeral and "was aborted" in m.content]
        said = [m.content for m in tap.messages]
        assert question.content != "Aborting…", (question.content, said)
        assert all(m.ephemeral and m.visible_to is bob for m in tap.messages), said
        assert not any(APOLOGY in text for text in said), said
    assert_clean(fake_discord, caplog)


# -- a hostile house option: numbers no score can hold ------------------------------------------


async def test_a_huge_ante_is_refused_or_the_game_still_finishes(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """`/mj new house:payment=pot ante=<20 digits>` at a Royale-style table: either the
    option is refused privately, or the game is played to its result. It must not open a
    table whose end can never be recorded."""
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        opened = await fake_discord.slash(alice, world.tables, "mj new", {
            "players": 3, "racks": 2, "house": "payment=pot ante=99999999999999999999"})
        answer = await opened.reply()
        if answer.ephemeral:
            private_to(answer, alice)
            assert "ante" in answer.content, answer.content
            assert_clean(fake_discord, caplog)
            return
        game_id = int(custom_ids(answer, "jg:l:")[0].split(":")[2])
        thread = await fake_discord.wait_until(lambda: answer.thread, what="the thread")
        await fake_discord.wait_for_message(channel=thread)
        await opened.settled()
        start = await fake_discord.click(alice, answer, f"jg:l:{game_id}:start")
        await start.settled()
        await fake_discord.wait_until(lambda: client.service.in_play(game_id) or None,
                                      what="the game to start")
        await client.service.flush(game_id)
        people = {u.id: u for u in world.players}
        seated = client.service.table(game_id).user_ids
        table = JonggTable(fake_discord, world, client, game_id, answer, thread,
                           [None if uid is None else people[uid] for uid in seated])
        await table.play()
        await table.result_post()
        assert (await client.service.db.games.game(game_id)).status is GameStatus.FINISHED
    assert_clean(fake_discord, caplog)


# -- a careless server: the tables channel deleted mid-game ------------------------------------


async def test_the_tables_channel_deleted_mid_game_is_told_to_the_host_once(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A moderator deletes the tables channel (and so the table's thread) mid-game. The
    host is told once, privately, that the table has nowhere to be posted and how to end
    it; the players' DMs go on; no traceback is logged; the bot does not retry the deleted
    channel (each table update tries the thread and the channel once); and the host ends
    the game as told, from another channel."""
    from fake import remove_channel

    from bot.engine.game import Phase

    alice, bob = world.alice, world.bob
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        while not (table.view(alice).phase is Phase.TURN and table.view(alice).legal):
            await table.step(table.to_move()[0])
        await remove_channel(fake_discord, table.thread)
        await remove_channel(fake_discord, world.tables)
        gone = {str(table.thread.id), str(world.tables.id)}
        since = len(fake_discord.requests)
        await table.step(alice)
        moves = 1
        for _ in range(30):  # claim windows pass on their clock; Bob plays from his DMs
            movers = table.to_move()
            if bob in movers and table.view(bob).phase is Phase.TURN:
                await table.step(bob)
                moves += 1
            else:
                clock.now += 100
                await client.service.run_due_clocks()
                await table.settle()
            if table.over:
                break
        told = [m for m in fake_discord.dms(alice) if "needs you" in m.content]
        assert len(told) == 1, [m.content for m in told]
        # Each table update tries the thread once and the channel once (both 404), never
        # again: no retry loop against a channel that is gone.
        knocks = [r for r in fake_discord.requests[since:]
                  if gone & {str(v) for v in r.params.values()}]
        gave_up = [r for r in caplog.records if r.getMessage().startswith("gave up delivering")]
        assert all(r.status == 404 for r in knocks)
        assert len(knocks) <= 2 * len(gave_up), (len(knocks), len(gave_up))
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
        assert moves > 1, "Bob was never prompted again"
        how = f"/mj abort game:{table.game_id}"
        assert how in told[0].content, told[0].content
        asking = await fake_discord.slash(alice, world.general, "mj abort",
                                          {"game": table.game_id})
        question = await asking.reply()
        private_to(question, alice)
        assert f"table {table.game_id}" in question.content, question.content
        yes = next(b["custom_id"] for b in question.buttons() if b["label"].startswith("Yes"))
        tap = await fake_discord.click(alice, question, yes)
        await tap.settled()
        game = await client.service.db.games.game(table.game_id)
        assert game.status is GameStatus.ABORTED, game.status
