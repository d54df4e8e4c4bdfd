"""The `/league` commands end to end: the real discord.py client against the fake Discord,
with a real database. Games are finished in the league's channel through the store and
recorded with the table service's hook, as the bot does when a table ends."""

from __future__ import annotations

import io
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fake import FakeDiscord, Perm, World

LEAGUE_TESTS = str(Path(__file__).resolve().parents[1] / "league")
if LEAGUE_TESTS not in sys.path:
    sys.path.insert(0, LEAGUE_TESTS)

from league_helpers import FakeClock, finished_game  # noqa: E402
from PIL import Image  # noqa: E402

from bot.discord.league import register_league_commands  # noqa: E402
from bot.engine.errors import MahjongError  # noqa: E402
from bot.engine.game.rules import TOURNAMENT, DeadHands  # noqa: E402
from bot.league.export import read_csv  # noqa: E402
from bot.league.record import record_finished_game  # noqa: E402
from bot.league.seasons import season_for_channel, season_rules  # noqa: E402
from bot.league.service import LeagueService  # noqa: E402
from bot.store import Database  # noqa: E402


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database(tmp_path / "bot.db", clock=FakeClock()) as database:
        yield database


@pytest.fixture
async def bot(fake_discord: FakeDiscord, world: World, db: Database,
              make_bot: Callable[..., commands.Bot],
              start_bot: Callable[[Any], Any]) -> commands.Bot:
    """A client with the `/league` commands and the bot's error rule: a player's error is
    shown privately as it is, anything else gets an apology."""
    director = fake_discord.add_role(world.guild, "Directors", Perm.MANAGE_GUILD)
    world.guild.member(world.alice).roles.append(director)
    client = make_bot()
    client.leagues = LeagueService(db)  # type: ignore[attr-defined]
    register_league_commands(client.tree)

    @client.tree.error
    async def on_error(interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        text = cause.message if isinstance(cause, MahjongError) else "Sorry!"
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def setup_hook() -> None:
        await client.tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    started: commands.Bot = await start_bot(client)
    return started


async def say(fake: FakeDiscord, user: Any, channel: Any, command: str,
              options: dict[str, Any] | None = None) -> discord.Message | Any:
    handle = await fake.slash(user, channel, command, options or {})
    return await handle.reply()


async def play(db: Database, world: World, seats: list[Any], points: list[int],
               winner: int | None) -> int:
    users = [None if s is None else s.id for s in seats]
    game = await finished_game(db, users, points, winner=winner, guild=world.guild.id,
                               channel=world.tables.id)
    recorded = await record_finished_game(db, game.id)
    assert recorded is not None
    return game.id


async def test_a_season_through_discord(fake_discord: FakeDiscord, world: World,
                                        bot: commands.Bot, db: Database) -> None:
    fake = fake_discord
    alice, bob, carol, dave = world.players

    refused = await say(fake, bob, world.tables, "league create", {"name": "Club"})
    assert refused.ephemeral and "server managers" in refused.content
    created = await say(fake, alice, world.tables, "league create", {"name": "Tuesday Club"})
    assert "Tuesday Club" in created.content and not created.ephemeral
    again = await say(fake, alice, world.tables, "league create", {"name": "Other"})
    assert again.ephemeral and "already belongs" in again.content

    opened = await say(fake, alice, world.tables, "league season start",
                       {"min_games": 3, "minutes": 90})
    assert "is open" in opened.content and "tournament" in opened.content
    assert "90 min per game" in opened.content
    for player in world.players:  # from another channel: the server's only league is used
        joined = await say(fake, player, world.general, "league join")
        assert "Tuesday Club" in joined.content

    first = await play(db, world, [alice, bob, carol, dave], [25, 0, 0, -10], 0)
    await play(db, world, [bob, alice, None, carol], [45, 0, 0, 0], 0)
    await play(db, world, [alice, bob, carol, dave], [10, 10, 10, 10], None)

    table = await say(fake, carol, world.tables, "league standings")
    assert "standings.png" in table.files
    picture = Image.open(io.BytesIO(table.files["standings.png"]))
    assert picture.format == "PNG"
    lines = table.content.splitlines()
    ranked = [line.split()[:2] for line in lines if line.strip()[:1].isdigit()]
    assert ranked[:2] == [["1", "Bob"], ["2", "Alice"]]
    alt = table.attachments[0].description or ""
    assert "1. Bob: 3 games, 1 wins" in alt and "Dave (not ranked yet): 2 games" in alt, alt
    assert any(line.strip().startswith("-") and "Dave" in line for line in lines)

    stats = await say(fake, dave, world.tables, "league stats", {"player": alice})
    assert "Games 3" in stats.content and "Wins 1" in stats.content
    assert "Head to head" in stats.content

    fixed = await say(fake, alice, world.tables, "league adjust",
                      {"game": first, "player": dave, "points": 5,
                       "reason": "the throw was miscounted"})
    assert "-10 → 5" in fixed.content
    unclear = await say(fake, alice, world.tables, "league adjust",
                        {"game": first, "reason": "?"})
    assert unclear.ephemeral and "Give a `player`" in unclear.content
    bob_tries = await say(fake, bob, world.tables, "league adjust",
                          {"game": first, "counted": False, "reason": "I lost"})
    assert bob_tries.ephemeral and "server managers" in bob_tries.content
    log = await say(fake, carol, world.tables, "league audit")
    assert "adjust points" in log.content and "the throw was miscounted" in log.content

    export = await say(fake, bob, world.tables, "league export")
    assert export.ephemeral
    (name, data), = export.files.items()
    assert name == "tuesday-club-season-1.csv"
    rows = read_csv(data.decode())
    assert len(rows) == 12
    assert next(r for r in rows if r.game_id == first and r.seat == 3).points == 5

    history = await say(fake, bob, world.tables, "league history")
    assert "3 games" in history.content and "wall game" in history.content

    seated = await say(fake, alice, world.tables, "league round start")
    assert "Round 1" in seated.content and "Table 1:" in seated.content
    assert all(f"<@{p.id}>" in seated.content for p in world.players)
    shown = await say(fake, carol, world.tables, "league round show")
    assert "Table 1 (0 games)" in shown.content

    ended = await say(fake, alice, world.tables, "league season end")
    assert "is over" in ended.content and "1. Bob" in ended.content
    after = await say(fake, alice, world.tables, "league season end")
    assert after.ephemeral and "no season in progress" in after.content


async def test_no_league_yet_says_what_to_do(fake_discord: FakeDiscord, world: World,
                                             bot: commands.Bot) -> None:
    reply = await say(fake_discord, world.bob, world.general, "league standings")
    assert reply.ephemeral and "/league create" in reply.content
    reply = await say(fake_discord, world.alice, world.tables, "league season start",
                      {"players": 2, "scoring": "tournament"})
    assert reply.ephemeral and "no league yet" in reply.content


async def test_a_season_keeps_its_house_options(fake_discord: FakeDiscord, world: World,
                                                bot: commands.Bot, db: Database) -> None:
    await say(fake_discord, world.alice, world.tables, "league create", {"name": "Club"})
    typo = await say(fake_discord, world.alice, world.tables, "league season start",
                     {"house": "dead_hand=off"})
    assert typo.ephemeral and "Did you mean `dead_hands`?" in typo.content
    opened = await say(fake_discord, world.alice, world.tables, "league season start",
                       {"house": "dead-hands=off blanks=2"})
    assert "house options `blanks=2 dead_hands=off`" in opened.content
    season = await season_for_channel(db, world.guild.id, world.tables.id)
    assert season is not None
    assert season_rules(season) == replace(TOURNAMENT, blanks=2, dead_hands=DeadHands.OFF)
