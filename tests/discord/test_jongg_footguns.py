"""Footguns removed, through the fake Discord: declaring a hand dead is a question first (naming
the hand and the cost of being wrong), the calls on a discard sit behind one "Call…" button,
and a seat chooses with `/mj options` whether calls only jokers would fill are offered (at a
table still being played: one that is over is told so)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake import FakeDiscord, Message, World
from jongg_table import JonggTable, assert_clean, assert_offers_all, custom_ids, jongg_client

from bot.engine.game import Phase, View
from bot.engine.game.actions import DeclareDead
from bot.engine.tiles import tile_name
from bot.tables.menu import joker_only, layout
from bot.tables.narrate import action_label
from bot.tables.seat_options import JokerCalls, SeatOptions


def labels(message: Message) -> list[str]:
    return [str(b["label"]) for b in message.buttons()]


async def test_declaring_a_hand_dead_asks_first_naming_the_hand_and_the_cost(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    bob = world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [bob], bots=3)
        while not any(isinstance(o.action, DeclareDead) for o in table.view(bob).legal):
            await table.step(bob)
        seen = table.view(bob)
        names = client.service.table(table.game_id).names
        prompt = await table.prompt(bob)
        assert_offers_all(prompt, seen)  # no declaration is a button of its own
        # Last of the moves, with only the holder's Settings and games after it.
        assert labels(prompt)[-3:] == ["Declare a hand dead…", "Settings", "My games"]
        [folder] = [c for c in custom_ids(prompt, "jg:f:") if c.endswith(":dead")]

        async def question() -> Message:
            """Open "Declare a hand dead…" and pick Bot 1's hand: the question."""
            hands = await table.reply(await fake_discord.click(bob, prompt, folder))
            assert hands.ephemeral and hands.content.startswith("Whose hand?")
            assert labels(hands) == [f"{names[s]}'s hand (nothing exposed)" for s in (1, 2, 3)]
            assert not custom_ids(hands, "jg:a:"), "a hand can be declared in one click"
            asked = await table.reply(await fake_discord.click(
                bob, hands, custom_ids(hands, "jg:x:")[0]))
            assert asked.content == (
                f"Declare {names[1]}'s hand dead (nothing exposed)? It is dead only if it can "
                "no longer become any hand on the card, judged from the tiles everyone can "
                "see. If you're wrong, your own hand dies instead: you stop playing and still "
                "pay.")
            assert labels(asked) == ["Yes, declare it dead", "Cancel"]
            return asked

        asked = await question()
        cancelled = await table.reply(await fake_discord.click(
            bob, asked, f"jg:n:{table.game_id}"))
        assert cancelled.content == "Nothing declared; your turn goes on."
        assert cancelled.custom_ids() == []
        assert table.view(bob).action_count == seen.action_count  # nothing happened

        asked = await question()
        yes = custom_ids(asked, "jg:a:")[0]
        done = await table.done(await fake_discord.click(bob, asked, yes))
        assert done.content == f"You chose: **Declare {names[1]}'s hand dead**."
        await table.settle()
        said = "\n".join(m.content for m in fake_discord.messages_in(table.thread))
        assert f"{names[0]} declares {names[1]}'s hand dead." in said
    assert_clean(fake_discord, caplog)


def _claim_with_calls(seen: View, options: SeatOptions, *, hidden: bool = False) -> bool:
    """A claim window asking this seat, with two or more calls shown (and, with `hidden`,
    some left out because only jokers would fill them)."""
    offered = layout(seen, options)
    return (seen.phase is Phase.CLAIM and len(offered.calls) > 1
            and (offered.hidden > 0 or not hidden))


async def test_the_calls_on_a_discard_open_from_one_button(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=1)
        while not _claim_with_calls(table.view(alice), SeatOptions()):
            await table.step(alice)
        seen = table.view(alice)
        assert seen.claim is not None
        offered = layout(seen, SeatOptions())
        post, claim = table.newest_post(f"jg:c:{table.game_id}:")
        menu = await table.reply(await fake_discord.click(alice, post, claim))
        assert_offers_all(menu, seen)
        called = tile_name(seen.claim.kind)
        assert f"Call {called}… ({len(offered.calls)} ways)" in labels(menu)
        assert not any(label.startswith("Call ") and "…" not in label for label in labels(menu))

        [folder] = custom_ids(menu, "jg:f:")
        calls = await table.reply(await fake_discord.click(alice, menu, folder))
        assert calls.ephemeral
        assert calls.content.startswith(f"Ways to call Bot 1's {called}:")
        shown = [int(c.rsplit(":", 1)[1]) for c in custom_ids(calls, "jg:a:")]
        assert shown == list(offered.calls)
        first = custom_ids(calls, "jg:a:")[0]
        done = await table.done(await fake_discord.click(alice, calls, first))
        label = action_label(seen.legal[shown[0]].action, ("Alice", "Bot 1"), racks=2)
        assert done.content == f"You chose: **{label}**."
        await table.settle()
        said = "\n".join(m.content for m in fake_discord.messages_in(table.thread))
        assert f"calls Bot 1's {called}" in said
        # The folder of a claim the game has moved past opens nothing.
        stale = await (await fake_discord.click(alice, menu, folder)).reply()
        assert stale.ephemeral and "out of date" in stale.content
        assert not stale.custom_ids()
    assert_clean(fake_discord, caplog)


async def test_a_seat_chooses_whether_joker_only_calls_are_offered(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [alice], bots=1)
        asked = await (await fake_discord.slash(alice, table.thread, "mj options")).reply()
        assert asked.ephemeral and "would fill (none of your own tiles of it): on" in asked.content
        while not _claim_with_calls(table.view(alice), SeatOptions(), hidden=True):
            await table.step(alice)
        seen = table.view(alice)
        post, claim = table.newest_post(f"jg:c:{table.game_id}:")
        skipping = await table.reply(await fake_discord.click(alice, post, claim))
        assert_offers_all(skipping, seen, SeatOptions())

        changed = await (await fake_discord.slash(alice, table.thread, "mj options",
                                                  {"joker_calls": "offer"})).reply()
        assert changed.ephemeral
        assert "would fill (none of your own tiles of it): off" in changed.content
        offering = await table.reply(await fake_discord.click(alice, post, claim))
        assert_offers_all(offering, seen, SeatOptions(joker_calls=JokerCalls.OFFER))
        [folder] = custom_ids(offering, "jg:f:")
        calls = await table.reply(await fake_discord.click(alice, offering, folder))
        shown = [seen.legal[int(c.rsplit(":", 1)[1])].action for c in custom_ids(calls, "jg:a:")]
        assert any(joker_only(action) for action in shown)
        assert "hidden" not in calls.content
    assert_clean(fake_discord, caplog)


async def test_options_at_a_table_that_is_over_are_refused(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """`/mj options` in the thread of a finished or aborted game says the game is over and
    points to `/mj settings`, privately; the seat's options stay as they were."""
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        finished = await JonggTable.open(fake_discord, world, client, [alice], bots=3)
        await finished.play()
        aborted = await JonggTable.open(fake_discord, world, client, [alice], bots=3)
        await client.service.abort(aborted.game_id, alice.id)
        for table in (finished, aborted):
            refused = await (await fake_discord.slash(alice, table.thread, "mj options",
                                                      {"joker_calls": "offer"})).reply()
            assert refused.ephemeral, refused.content
            assert f"Table {table.game_id} is over" in refused.content
            assert "`/mj settings`" in refused.content and "next prompt" in refused.content
            assert await client.service.seat_options(table.game_id, alice.id) == SeatOptions()
    assert_clean(fake_discord, caplog)
