"""Bot levels through the table service: a bot seated at the level the host picks (the
server's by default), the same level after a restart and in the series' next game, and
stand-ins (a player who leaves, a clock that runs out) at the server's chosen level, which
only a server manager may change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from table_helpers import ANN, BO, CARD_TEXT, HOST, Clock, FirstOption, Recorder, play_out

from bot.bots import DEFAULT_LEVEL, Player
from bot.engine.cards import Card
from bot.engine.errors import IllegalAction, InvalidInput
from bot.engine.game import STANDARD, THREE_PLAYER, RuleSet
from bot.store import Database
from bot.tables.options import TableOptions, Timeout
from bot.tables.service import TableService

GUILD = 1


@dataclass
class Built:
    """A bot factory that notes the level each bot was built at, with its seed, and builds
    first-option bots (so games are short and the same every run)."""

    levels: list[tuple[str, int]] = field(default_factory=list)

    def __call__(self, level: str, card: Card, rules: RuleSet, seed: int) -> Player:
        self.levels.append((level, seed))
        return FirstOption()


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed the service gives a seat's bot."""
    return (game_seed * 8 + seat) % 2**63


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def _lobby(service: TableService, rules: RuleSet, people: Sequence[int], *,
                 timeout: Timeout = Timeout.PASS) -> int:
    game = await service.open_table(
        guild_id=GUILD, channel_id=2, host_id=people[0], host_name="Host", seed=11,
        options=TableOptions(rules, "jongg-original", CARD_TEXT, timeout=timeout))
    for index, user in enumerate(people[1:], start=1):
        await service.join(game.id, user, f"Player {index}")
    return game.id


async def _strong_easy_easy(service: TableService) -> int:
    """A four-player table: the host, a Strong bot the host picked, a bot of the server's
    level (Easy) added without a level, and one more Easy one from Start."""
    await service.set_server_level(GUILD, "easy", HOST, manager=True)
    game_id = await _lobby(service, STANDARD, [HOST])
    assert await service.add_bot(game_id, HOST, "strong") == 1
    assert await service.add_bot(game_id, HOST) == 2
    assert await service.stored_levels(game_id) == {1: "strong", 2: "easy"}
    await service.start_game(game_id, HOST)
    return game_id


async def test_a_bot_plays_at_the_level_the_host_picked_else_the_servers(
        tmp_path: Path, clock: Clock) -> None:
    built = Built()
    async with Database(tmp_path / "j.db") as db:
        service = TableService(db, Recorder(), now=clock, make_bot=built)
        game_id = await _strong_easy_easy(service)
        assert service.bot_levels(game_id) == {1: "strong", 2: "easy", 3: "easy"}
        assert sorted(built.levels) == sorted([
            ("strong", seat_seed(11, 1)), ("easy", seat_seed(11, 2)),
            ("easy", seat_seed(11, 3))])
        assert service.table(game_id).names[1:] == ("Bot 1", "Bot 2", "Bot 3")
        await service.close()


async def test_a_restart_resumes_each_bot_at_its_own_level(tmp_path: Path,
                                                           clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        first = TableService(db, Recorder(), now=clock, make_bot=Built())
        game_id = await _strong_easy_easy(first)
        # The server's level changes: the bots already seated keep theirs.
        await first.set_server_level(GUILD, "normal", HOST, manager=True)
        await first.close()
    built = Built()
    async with Database(tmp_path / "j.db") as db:
        second = TableService(db, Recorder(), now=clock, make_bot=built)
        assert await second.start(run_clocks=False) == 1
        assert second.bot_levels(game_id) == {1: "strong", 2: "easy", 3: "easy"}
        assert sorted(built.levels) == sorted([
            ("strong", seat_seed(11, 1)), ("easy", seat_seed(11, 2)),
            ("easy", seat_seed(11, 3))])
        await play_out(second, game_id, [HOST])
        await second.close()


async def test_the_next_game_of_a_series_seats_the_same_bots(tmp_path: Path,
                                                             clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = TableService(db, Recorder(), now=clock, make_bot=Built())
        game_id = await _strong_easy_easy(service)
        await play_out(service, game_id, [HOST])
        await service.flush(game_id)
        await service.set_server_level(GUILD, "normal", HOST, manager=True)
        game, table = await service.play_again(game_id, HOST)
        assert table is not None and table.user_ids[3] == HOST  # the deal passed right
        assert service.bot_levels(game.id) == {0: "strong", 1: "easy", 2: "easy"}
        await service.close()


async def test_a_player_who_leaves_is_replaced_by_a_bot_of_the_servers_level(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = TableService(db, Recorder(), now=clock, make_bot=Built())
        await service.set_server_level(GUILD, "strong", HOST, manager=True)
        game_id = await _lobby(service, THREE_PLAYER, [HOST, ANN, BO])
        await service.start_game(game_id, HOST)
        assert service.bot_levels(game_id) == {}
        seat = await service.resign(game_id, ANN)
        assert service.bot_levels(game_id) == {seat: "strong"}
        await service.set_server_level(GUILD, "easy", HOST, manager=True)
        await service.close()
    built = Built()
    async with Database(tmp_path / "j.db") as db:
        again = TableService(db, Recorder(), now=clock, make_bot=built)
        await again.start(run_clocks=False)
        assert again.bot_levels(game_id) == {seat: "strong"}  # the stand-in it had
        assert built.levels == [("strong", seat_seed(11, seat))]
        await again.close()


async def test_a_clock_that_runs_out_is_played_by_a_bot_of_the_servers_level_now(
        tmp_path: Path, clock: Clock) -> None:
    built = Built()
    async with Database(tmp_path / "j.db") as db:
        # Automatic answers wait past the day each step moves the clock, so the clocks that
        # run out are the seats' own.
        service = TableService(db, Recorder(), now=clock, make_bot=built,
                               auto_delay=2 * 24 * 3600)
        game_id = await _lobby(service, THREE_PLAYER, [HOST, ANN, BO], timeout=Timeout.BOT)
        await service.start_game(game_id, HOST)
        assert built.levels == []  # people only
        for level in ("strong", "easy"):
            await service.set_server_level(GUILD, level, HOST, manager=True)
            count = service.spectator(game_id).action_count
            built.levels.clear()
            clock.now += 24 * 3600
            assert await service.run_due_clocks() >= 1
            assert service.spectator(game_id).action_count > count
            assert built.levels, "nobody stood in"
            assert {lv for lv, _ in built.levels} == {level}
            assert {seed for _, seed in built.levels} <= {seat_seed(11, s) for s in range(3)}
        assert service.bot_levels(game_id) == {}  # the seats stay the people's
        await service.close()


async def test_only_a_manager_sets_the_servers_level_and_a_typo_is_refused(
        tmp_path: Path, clock: Clock) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = TableService(db, Recorder(), now=clock, make_bot=Built())
        assert await service.server_level(GUILD) == DEFAULT_LEVEL  # a new server needs none
        with pytest.raises(IllegalAction, match="Manage Server"):
            await service.set_server_level(GUILD, "strong", ANN, manager=False)
        with pytest.raises(InvalidInput, match=r"no bot level `hard`.*easy, normal, strong"):
            await service.set_server_level(GUILD, "hard", HOST, manager=True)
        assert await service.server_level(GUILD) == DEFAULT_LEVEL
        assert await db.guilds.audit(GUILD) == []
        assert await service.set_server_level(GUILD, " Strong ", HOST, manager=True) == "strong"
        [entry] = await db.guilds.audit(GUILD)
        assert entry.actor_user_id == HOST
        game_id = await _lobby(service, STANDARD, [HOST])
        with pytest.raises(InvalidInput, match="no bot level `hard`"):
            await service.add_bot(game_id, HOST, "hard")
        with pytest.raises(IllegalAction, match="host"):
            await service.add_bot(game_id, ANN, "easy")
        assert await service.stored_levels(game_id) == {}
        await service.close()
