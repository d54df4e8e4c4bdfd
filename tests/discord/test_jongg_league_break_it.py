"""Trying to break leagues end to end, through the fake Discord and the real client: a hostile
player, a careless league director, a careless server. Each probe states what must hold (a
clear private answer; nobody pinged; standings, history and exports that agree; nothing
changed by a refusal; no traceback logged), not only that nothing crashed. What the other
league tests cover (a season through Discord, house options, stand-ins at half, a shared
seat in history, the store's refusals and races on SQLite) is not repeated here."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fake import FakeDiscord, FakeInteraction, Message, Perm, User, World, pinged
from jongg_table import FrozenClock, JonggTable, assert_clean, jongg_client, open_league
from league_helpers import card_text, table_rules

from bot.discord.client import JonggClient
from bot.engine.game import preset
from bot.league.export import COLUMNS, read_csv
from bot.library import DEFAULT_CARD
from bot.store import (
    FinishReason,
    GameStatus,
    Outcome,
    Pace,
    PlayedFor,
    SeatScore,
    ShippedCardChoice,
)

#: What the bot says when it does not know what went wrong (never meant for a refusal).
APOLOGY = "Sorry, something went wrong"
WINDS = ("East", "South", "West", "North")


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Errors the bot logged, and any record carrying a traceback."""
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.ERROR or r.exc_info]


async def answered(fake: FakeDiscord, user: User, channel: Any, command: str,
                   options: dict[str, Any] | None = None) -> tuple[Message, FakeInteraction]:
    """`user` runs the command; the first message they are shown (a refusal after a public
    "thinking…" replaces it with a private follow-up, so both are looked for), once the bot
    is done with it."""
    handle = await fake.slash(user, channel, command, options or {})
    said = await fake.wait_until(
        lambda: [m for m in handle.messages if not m.loading and not m.deleted],
        what=f"an answer to /{command}")
    await handle.settled()
    return said[0], handle


def refused_privately(answer: Message, user: User, *words: str) -> list[str]:
    """What is wrong with `answer` as a private refusal for `user` naming `words`."""
    problems = []
    if not (answer.ephemeral and answer.visible_to is user):
        problems.append(f"not private: {answer.content!r}")
    if APOLOGY in answer.content or not 0 < len(answer.content) < 2000:
        problems.append(f"not a refusal in words: {answer.content!r}")
    problems += [f"does not say {w!r}: {answer.content!r}" for w in words
                 if w not in answer.content]
    return problems


async def league_game(client: JonggClient, world: World,
                      people: Sequence[tuple[User, str]], points: Sequence[int], *,
                      winner: int | None,
                      log: Sequence[tuple[int, PlayedFor | None]] = ()) -> int:
    """A game of `people` (each with the name their seat keeps) finished in the league's
    channel with `points`, its log `log` (seat, played for) of passes, and recorded in the
    league as the table service records it."""
    from bot.league.record import record_finished_game

    db = client.service.db
    game = await db.games.create_game(
        guild_id=world.guild.id, channel_id=world.tables.id, host_user_id=people[0][0].id,
        rules=table_rules(preset("tournament")), card=ShippedCardChoice(DEFAULT_CARD,
                                                                        card_text()),
        seed=7, pace=Pace("live", 90, 10), hints=True)
    for seat, (user, name) in enumerate(people):
        await db.seats.add_seat(game.id, seat, user_id=user.id, display_name=name)
    await db.games.start_game(game.id, len(people))
    if log:
        await db.actions.append_actions(
            game.id, 0, [(f"{WINDS[seat]}: pass", None if kind else people[seat][0].id)
                         for seat, kind in log],
            played_for={i: kind for i, (_, kind) in enumerate(log) if kind is not None})
    reason = FinishReason.MAHJONG if winner is not None else FinishReason.WALL
    await db.games.finish_game(game.id, Outcome(
        reason, winner, tuple(SeatScore(s, p) for s, p in enumerate(points)),
        json.dumps({"reason": reason.value, "hands": [] if winner is None else ["r1"]})))
    recorded = await record_finished_game(db, game.id)
    assert recorded is not None
    return game.id


def markdown_link(text: str) -> list[str]:
    """The masked links Discord would draw in `text` (a `[` not escaped with a backslash)."""
    return re.findall(r"(?<!\\)\[[^\]]*\]\([^)]*\)", text)


def named(world: World) -> list[tuple[User, str]]:
    return [(u, u.display_name) for u in world.players]


# -- a hostile player, and a director of another server ------------------------------------


async def test_every_director_command_refuses_a_player_and_another_servers_director(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Bob, no manager, tries every command that changes a league; Dave, a manager of
    another server, tries this server's recorded game by its number from his own server.
    Each is refused privately in words (Bob is told who may), and nothing changes: the
    season stays open, the game keeps its points and counts, the audit log gains nothing."""
    bob, dave = world.bob, world.dave
    far = fake_discord.add_guild("Far Hall")
    far_channel = fake_discord.add_channel(far, "far-tables")
    bosses = fake_discord.add_role(far, "Far directors", Perm.MANAGE_GUILD)
    fake_discord.add_member(far, dave, roles=[bosses])
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        await open_league(fake_discord, world)
        game = await league_game(client, world, named(world), [25, 0, 0, -10], winner=0)
        leagues = client.leagues
        [league] = await leagues.of_server(world.guild.id)
        audit = await leagues.audit(league.id, limit=100)
        before = await leagues.game(game, guild_id=world.guild.id)

        problems: list[str] = []
        for channel, command, options in [
                (world.general, "league create", {"name": "Bob's League"}),
                (world.tables, "league season start", {"name": "Mine"}),
                (world.tables, "league season end", {}),
                (world.tables, "league season vacation_days", {"days": 0, "reason": "no"}),
                (world.tables, "league adjust", {"game": game, "player": bob, "points": 99,
                                                 "reason": "I won really"}),
                (world.tables, "league adjust", {"game": game, "counted": False,
                                                 "reason": "I lost"}),
                (world.tables, "league round start", {})]:
            answer, _ = await answered(fake_discord, bob, channel, command, options)
            problems += [f"/{command}: {p}" for p in refused_privately(answer, bob,
                                                                      "server managers")]
        for command, options in [
                ("league adjust", {"game": game, "counted": False, "reason": "spite"}),
                ("league adjust", {"game": game, "player": dave, "points": 500,
                                   "reason": "spite"}),
                ("league season end", {}), ("league round start", {})]:
            answer, _ = await answered(fake_discord, dave, far_channel, command, options)
            problems += [f"far /{command} {options}: {p}"
                         for p in refused_privately(answer, dave)]
        assert not problems, "\n".join(problems)

        assert await leagues.audit(league.id, limit=100) == audit
        assert await leagues.game(game, guild_id=world.guild.id) == before
        assert (await leagues.season(league.id)).is_open
        assert await leagues.of_server(world.guild.id) == [league]
        assert await leagues.of_server(far.id) == []
        assert not pinged(fake_discord.requests), pinged(fake_discord.requests)
    assert_clean(fake_discord, caplog)
    assert not tracebacks(caplog)


# -- a careless director: odd names and numbers --------------------------------------------


async def test_a_directors_odd_names_and_numbers_get_clear_answers_and_ping_nobody(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Alice, a director, types what Discord lets through: names of only whitespace, of
    mentions and markdown, of sixty emoji; a round with nobody registered; seasons, rounds
    and games that do not exist; a reason of blanks; a game's points at Discord's largest
    integer. Refusals are private and in words; what is accepted pings nobody, shows its
    names as text, and the standings, the export and the stats still agree afterwards."""
    alice, bob = world.alice, world.bob
    huge = 2 ** 53 - 1
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        await open_league(fake_discord, world)
        game = await league_game(client, world, named(world), [25, 0, 0, -10], winner=0)
        outsider = fake_discord.add_user("olive", global_name="Olive")  # not at the game
        fake_discord.add_member(world.guild, outsider)
        problems: list[str] = []
        for channel, command, options, words in [
                (world.general, "league create", {"name": " \u3000 "}, ["league name"]),
                (world.tables, "league round start", {}, ["registered players"]),
                (world.tables, "league standings", {"season": 10_000}, ["no season 10000"]),
                (world.tables, "league round show", {"number": 1000}, []),
                (world.tables, "league adjust", {"game": huge, "counted": False,
                                                 "reason": "typo"}, [f"#{huge}"]),
                (world.tables, "league adjust", {"game": -1, "player": bob, "points": 5,
                                                 "reason": "typo"}, ["#-1"]),
                (world.tables, "league adjust", {"game": game, "player": bob, "points": 5,
                                                 "reason": "   "}, ["Say why"]),
                (world.tables, "league adjust", {"game": game, "player": outsider,
                                                 "points": 5, "reason": "typo"},
                 ["no points of their own", f"#{game}", "credited"]),
                (world.tables, "league season vacation_days", {"days": 365, "reason": " "},
                 ["Say why"])]:
            answer, _ = await answered(fake_discord, alice, channel, command, options)
            problems += [f"/{command} {options}: {p}"
                         for p in refused_privately(answer, alice, *words)]
        assert not problems, "\n".join(problems)
        assert not [m for m in fake_discord.messages_in(world.tables)
                    if not m.ephemeral and "registered players" in m.content], (
            "a refusal was left in the channel for everyone")

        loud = "@everyone **Club** [x](https://e.vil)"
        made, _ = await answered(fake_discord, alice, world.general, "league create",
                                 {"name": loud})
        assert not made.ephemeral and not markdown_link(made.content), made.content
        blank, _ = await answered(fake_discord, alice, world.general, "league season start",
                                  {"name": "\u3000\u3000"})
        assert not refused_privately(blank, alice, "season name")
        opened, _ = await answered(fake_discord, alice, world.general, "league season start",
                                   {"name": "🀄" * 60})
        assert not opened.ephemeral and "🀄" * 60 in opened.content, opened.content

        fixed, _ = await answered(fake_discord, alice, world.tables, "league adjust",
                                  {"game": game, "player": bob, "points": huge,
                                   "reason": "fat finger"})
        assert not fixed.ephemeral and f"→ {huge}" in fixed.content, fixed.content
        table, _ = await answered(fake_discord, bob, world.tables, "league standings")
        assert "standings.png" in table.files, table.content
        row = next(line.split() for line in table.content.splitlines()
                   if "Bob" in line.split())
        assert int(row[4]) == huge, row
        export, _ = await answered(fake_discord, bob, world.tables, "league export")
        (data,) = export.files.values()
        rows = read_csv(data.decode())
        assert sum(r.points for r in rows if r.user_id == bob.id and r.counted) == huge
        stats, _ = await answered(fake_discord, bob, world.tables, "league stats")
        assert f"Points {huge}" in stats.content, stats.content

        assert not pinged(fake_discord.requests), pinged(fake_discord.requests)
    assert_clean(fake_discord, caplog)
    assert not tracebacks(caplog)


# -- a hostile player: a name that is markdown ----------------------------------------------


async def test_history_shows_a_name_in_a_games_note_as_text_not_markdown(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Erin calls herself `[free](https://e.vil)` and a bot plays part of her league game; the
    season doesn't count such games, and the game's note names her. `/league history` shows
    her name as text there too, as it does for a winner: never a masked link (or bold, or a
    spoiler) that her name writes into the bot's message."""
    erin = fake_discord.add_user("erin", global_name="[free](https://e.vil)")
    fake_discord.add_member(world.guild, erin)
    alice, bob, carol = world.alice, world.bob, world.carol
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        await open_league(fake_discord, world, {"stand_ins": "none"})
        people = [(alice, "Alice"), (erin, erin.global_name or ""), (bob, "Bob"),
                  (carol, "Carol")]
        game = await league_game(client, world, people, [25, -5, -10, -10], winner=0,
                                 log=[(0, None), (1, PlayedFor.STAND_IN), (2, None)])
        recorded = await client.leagues.game(game, guild_id=world.guild.id)
        assert not recorded.counted and "[free](https://e.vil)" in recorded.note
        history, _ = await answered(fake_discord, bob, world.tables, "league history")
        [line] = [line for line in history.content.splitlines() if f"#{game}" in line]
        assert "free" in line and not markdown_link(line), line
    # (The hand-made log of passes can't be replayed: the record says so, as a warning.)
    assert_clean(fake_discord, caplog)


# -- exports: nothing to export, and a game that was aborted ---------------------------------


async def test_a_season_with_only_an_aborted_game_exports_a_header_and_agrees_everywhere(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A season whose only game was aborted mid-play: the export is its header alone and
    says 0 games and 0 rows, the standings say nobody is on the board, the history counts 0
    games, and the start-up catch-up finds nothing to record."""
    alice, bob = world.alice, world.bob
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        await open_league(fake_discord, world)
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        for _ in range(3):
            await table.step(table.to_move()[0])
        await client.service.abort(table.game_id, alice.id)
        assert (await client.service.db.games.game(table.game_id)).status is (
            GameStatus.ABORTED)

        export, _ = await answered(fake_discord, bob, world.tables, "league export")
        assert export.ephemeral and "0 games, 0 rows" in export.content, export.content
        ((name, data),) = export.files.items()
        assert name == "tuesday-club-season-1.csv"
        assert data.decode().splitlines() == [",".join(COLUMNS)]
        assert read_csv(data.decode()) == []
        table_now, _ = await answered(fake_discord, bob, world.tables, "league standings")
        assert "No counted games yet" in table_now.content, table_now.content
        history, _ = await answered(fake_discord, bob, world.tables, "league history")
        assert "0 games" in history.content, history.content
        assert await client.leagues.record_missed_games() == 0
    assert_clean(fake_discord, caplog)
    assert not tracebacks(caplog)


# -- a careless director: the season ends while a table is still playing --------------------


async def test_a_season_ended_mid_game_keeps_its_final_standings_when_the_game_ends(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Alice ends the season while Alice and Bob are still playing a league table. The game
    plays on to its result, but the season's standings are final: what its end announced
    is what `/league standings season:1` and its export show afterwards, the late game is
    recorded in no season (none is open) and counted nowhere, and no traceback is logged."""
    from bot.store import LeagueGameNotFound

    alice, bob = world.alice, world.bob
    clock = FrozenClock()
    async with fake_discord.run(jongg_client(tmp_path / "j.db", clock)) as client:
        await open_league(fake_discord, world)
        clock.now += 60
        earlier = await league_game(client, world, named(world), [25, 0, 0, -10], winner=0)
        table = await JonggTable.open(fake_discord, world, client, [alice, bob], bots=2)
        for _ in range(5):
            await table.step(table.to_move()[0])
        clock.now += 60
        ended, _ = await answered(fake_discord, alice, world.tables, "league season end")
        assert "is over" in ended.content and "1. Alice (25 pts)" in ended.content, (
            ended.content)
        [league] = await client.leagues.of_server(world.guild.id)
        season = await client.leagues.season(league.id, 1)
        final = await client.leagues.standings(season)
        clock.now += 60
        await table.play()
        await table.result_post()
        assert (await client.service.db.games.game(table.game_id)).status is (
            GameStatus.FINISHED)

        assert await client.leagues.standings(season) == final
        rows = await client.leagues.export_rows(season.id)
        assert {r.game_id for r in rows} == {earlier}
        with pytest.raises(LeagueGameNotFound):
            await client.leagues.game(table.game_id, guild_id=world.guild.id)
        assert await client.leagues.record_missed_games() == 0
        shown, _ = await answered(fake_discord, bob, world.tables, "league standings",
                                  {"season": 1})
        assert [line.split()[:5] for line in shown.content.splitlines()
                if line.strip()[:1].isdigit()] == [
            [str(r.rank), r.name, str(r.games), str(r.wins), str(r.points)] for r in final]
    assert_clean(fake_discord, caplog)
    assert not tracebacks(caplog)
