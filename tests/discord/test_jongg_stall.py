"""The event loop is for waiting: a costly card in one server holds up no other server.

The bot serves every server from one event loop. The most expensive card the compile budget
accepts is checked at upload, compiled when a table opens with it (and at Start or restore if
not yet), and a game is rebuilt from its log at start-up: all of it in workers. While that
runs, another server's `/rules` is asked every 50 ms on the fake Discord's own clock (the
fake runs on a thread of its own, so it sends on time whatever the bot's loop is doing), and
each answer is timed there, from the interaction sent to its callback. The loop-lag
watchdog every end-to-end test runs under (`loop_lag`) holds the loop to 250 ms as well.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from pathlib import Path

import pytest
from fake import FakeDiscord, Perm, Upload, World
from jongg_table import assert_clean, custom_ids, jongg_client

from bot.engine.cards import load_card
from bot.engine.cards.cost import MAX_CARD_COMBINATIONS, costliest_card_text
from bot.engine.game import STANDARD, Phase, format_action, legal_actions, new_game
from bot.engine.game import apply as apply_action
from bot.loopwatch import LoopWatch
from bot.store import Database, Pace, ServerCardChoice
from bot.tables.options import TableOptions

#: The most a loop may lag, and another server's answer may take, while a card compiles.
LAG_LIMIT = 0.250
#: How often, and how many times, another server asks `/rules` (fake's clock, seconds).
ASK_EVERY = 0.05
ASKED = 60
#: Actions in the logged game rebuilt at start-up.
LOGGED_ACTIONS = 120


def costly_card(budget: int = MAX_CARD_COMBINATIONS) -> str:
    """A card of `budget` combinations in the costliest shape, under a name of its own: its
    text is new to this process, so nothing has compiled it yet."""
    return costliest_card_text(budget).replace("card: Costliest",
                                               f"card: Costly {uuid.uuid4().hex[:8]}")


def card_name(text: str) -> str:
    return text.splitlines()[0].removeprefix("card: ")


async def test_a_costly_card_opening_and_starting_delays_no_other_server(
        fake_discord: FakeDiscord, world: World, tmp_path: Path, loop_lag: LoopWatch,
        caplog: pytest.LogCaptureFixture) -> None:
    managers = fake_discord.add_role(world.guild, "Managers", int(Perm.MANAGE_GUILD))
    world.guild.members[world.alice.id].roles.append(managers)
    other = fake_discord.add_guild("Other Hall")
    lounge = fake_discord.add_channel(other, "lounge")
    fake_discord.add_member(other, world.dave)
    text = costly_card()
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        asked = [fake_discord.later(ASK_EVERY * n, fake_discord.slash, world.dave, lounge,
                                    "rules", {"topic": "jokers"}) for n in range(ASKED)]
        began = time.monotonic()
        upload = await fake_discord.slash(world.alice, world.general, "card upload",
                                          {"file": Upload("costly.jongg", text.encode())})
        assert "Saved" in (await upload.reply()).content
        opened = await fake_discord.slash(world.alice, world.tables, "mj new",
                                          {"card": card_name(text)})
        lobby = await opened.reply()
        game_id = int(custom_ids(lobby, "jg:l:")[0].split(":")[2])
        start = await fake_discord.click(world.alice, lobby, f"jg:l:{game_id}:start")
        await start.acked()
        await fake_discord.wait_until(lambda: not lobby.custom_ids(),
                                      what="the lobby to show the game started")
        ended = time.monotonic()
        handles = [await pending for pending in asked]
        for handle in handles:
            assert "joker" in (await handle.reply()).content.lower()
        assert client.service.spectator(game_id).phase is not Phase.OVER
        assert client.service.table(game_id).card.name == card_name(text)
    during = [h for h in handles if began <= h.created <= ended]
    assert len(during) >= 3, "the compile was over before another server asked anything"
    trips = [h.callback.at - h.created for h in handles if h.callback is not None]
    assert max(trips) < LAG_LIMIT, f"/rules took {max(trips):.3f} s in another server"
    assert loop_lag.worst_held < LAG_LIMIT, f"code held the loop {loop_lag.worst_held:.3f} s"
    assert_clean(fake_discord, caplog)


async def _started_game(db: Database, world: World, text: str, actions: int) -> int:
    """A game in play with this card, written to the store as the table leaves it (so no
    card is compiled in this process): the host, three bots and `actions` logged moves."""
    card = await db.cards.save_card(world.guild.id, card_name(text), text,
                                    uploaded_by=world.alice.id)
    options = TableOptions(STANDARD, card.name, text, server_card_id=card.id)
    game = await db.games.create_game(
        guild_id=world.guild.id, channel_id=world.tables.id, host_user_id=world.alice.id,
        rules=options.to_json(), card=ServerCardChoice(card.id), seed=7,
        pace=Pace("untimed"), hints=True)
    await db.seats.add_seat(game.id, 0, user_id=world.alice.id, display_name="alice")
    for seat in range(1, 4):
        await db.seats.add_seat(game.id, seat, user_id=None, display_name=f"Bot {seat}")
    await db.games.start_game(game.id, 4)
    if actions:
        # The test's own compile runs in a worker too: the watchdog watches the test's loop.
        log = await asyncio.to_thread(_played, text, actions, world.alice.id)
        await db.actions.append_actions(game.id, 0, log)
    return game.id


def _played(text: str, actions: int, host: int) -> list[tuple[str, int | None]]:
    """The first `actions` moves of a game with this card, first options all round, as
    logged. Played with a card object of its own: the bot's caches stay cold."""
    state = new_game(STANDARD, load_card(text), 7, ("alice", "Bot 1", "Bot 2", "Bot 3"))
    log: list[tuple[str, int | None]] = []
    while len(log) < actions:
        seat = next(s for s in range(4) if legal_actions(state, s))
        action = legal_actions(state, seat)[0].action
        state, _ = apply_action(state, action)
        log.append((format_action(action, 4), host if seat == 0 else None))
    return log


async def test_restoring_games_with_costly_cards_does_not_stall(
        fake_discord: FakeDiscord, world: World, tmp_path: Path, loop_lag: LoopWatch,
        caplog: pytest.LogCaptureFixture) -> None:
    database = tmp_path / "j.db"
    async with Database(database) as db:
        logged = await _started_game(db, world, costly_card(), LOGGED_ACTIONS)
        fresh = await _started_game(db, world, costly_card(), 0)
        # Stored before the budget existed: skipped with a warning, the others go on.
        old = costly_card(MAX_CARD_COMBINATIONS + 1)
        too_costly = await _started_game(db, world, old, 0)
    caplog.set_level(logging.WARNING)
    async with fake_discord.run(jongg_client(database, sync=False)) as client:
        assert client.service.spectator(logged).action_count >= LOGGED_ACTIONS
        assert client.service.spectator(fresh).action_count == 0
        assert too_costly not in client.service.registry.games
    assert loop_lag.worst_held < LAG_LIMIT, f"code held the loop {loop_lag.worst_held:.3f} s"
    skipped = [r.getMessage() for r in caplog.records if "not restored" in r.getMessage()]
    assert skipped == [f"game {too_costly} not restored: The card `{card_name(old)}` can't be "
                       f"used: line 4: the card spans {MAX_CARD_COMBINATIONS + 1:,} "
                       f"combinations{skipped[0].split('combinations', 1)[1]}"]
    assert_clean(fake_discord, caplog)
