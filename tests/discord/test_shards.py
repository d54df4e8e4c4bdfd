"""Which shards a process runs (`bot.discord.shards`), and `jongg run`'s answers to shard
options that make no sense: one line each, exit 2, before anything connects."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.main import EXIT_BAD_INPUT, main
from bot.cli.run import ONE_FILE_ONE_PROCESS
from bot.discord.shards import ONE_SHARD, ShardPlan, parse_shard_plan, shard_of, split_shards
from bot.engine.errors import InvalidInput


def test_a_guild_is_on_the_shard_discord_sends_its_events_to() -> None:
    guild = (1234 << 22) | 99
    assert shard_of(guild, 1) == 0 and shard_of(guild, 4) == 1234 % 4
    plan = ShardPlan(4, (1, 2))
    assert [plan.owns((t << 22) | 5) for t in range(8)] == [False, True, True, False] * 2
    assert all(ONE_SHARD.owns(g) for g in (0, guild, 1 << 40))


def test_no_options_is_the_one_shard_bot_and_shards_alone_are_all_of_them() -> None:
    assert parse_shard_plan(None, None) == ONE_SHARD and not ONE_SHARD.sharded
    assert parse_shard_plan(3, None) == ShardPlan(3, (0, 1, 2))
    assert parse_shard_plan(4, " 3, 1") == ShardPlan(4, (1, 3))
    assert parse_shard_plan(1, "0") == ONE_SHARD


def test_the_shards_are_dealt_out_evenly_and_their_shares_of_a_budget_add_up() -> None:
    assert split_shards(5, 2) == [ShardPlan(5, (0, 1, 2)), ShardPlan(5, (3, 4))]
    assert split_shards(4, 4) == [ShardPlan(4, (i,)) for i in range(4)]
    for count, processes in ((1, 1), (5, 2), (7, 3), (16, 5), (50, 7)):
        plans = split_shards(count, processes)
        assert sorted(i for p in plans for i in p.ids) == list(range(count))
        assert sum(p.share(50) for p in plans) <= 50
        assert [p.syncs_commands for p in plans] == [True] + [False] * (processes - 1)
    assert ONE_SHARD.share(50) == 50 and ShardPlan(100, (7,)).share(50) == 1


@pytest.mark.parametrize(("count", "processes", "says"), [
    (2, 0, "--processes must be at least 1"),
    (2, 3, "3 processes need at least 3 shards"),
])
def test_more_processes_than_shards_is_refused(count: int, processes: int, says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        split_shards(count, processes)


def forget_after(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Unset `names` now, and put them back as they were after the test (`.env` files set
    them: a bare `delenv` of an unset name would not undo that)."""
    for name in names:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)


@pytest.mark.parametrize(("options", "says"), [
    (["--shards", "0"], "--shards must be at least 1 (got 0)."),
    (["--shards", "-2"], "--shards must be at least 1 (got -2)."),
    (["--shards", "2", "--shard-ids", "0,2"],
     "there is no shard 2 of 2: with --shards 2 the shards are 0 to 1."),
    (["--shards", "3", "--shard-ids", "1,1"], "shard 1 is named twice in --shard-ids 1,1."),
    (["--shards", "3", "--shard-ids", "1,x"],
     "--shard-ids takes shard numbers separated by commas, such as 0,1 (got '1,x')."),
    (["--shards", "3", "--shard-ids", ""],
     "--shard-ids takes shard numbers separated by commas, such as 0,1 (got '')."),
    (["--shard-ids", "1"], "--shard-ids needs --shards: say how many shards the bot has in "
                           "all, e.g. --shards 4 --shard-ids 0,1."),
    (["--processes", "2"], ONE_FILE_ONE_PROCESS),
    (["--processes", "2", "--shards", "8"], ONE_FILE_ONE_PROCESS),
    (["--processes", "0"], "--processes must be at least 1 (got 0)."),
    (["--processes", "3", "--shards", "2"],
     "3 processes need at least 3 shards (each process runs at least one); --shards is 2."),
    (["--processes", "2", "--shards", "0"], "--shards must be at least 1 (got 0)."),
    (["--processes", "2", "--shard-ids", "0"],
     "--processes gives each process its shards itself: leave out --shard-ids (or start "
     "each process yourself with jongg run --shards N --shard-ids ...)."),
])
def test_jongg_run_refuses_shards_that_make_no_sense_before_connecting(
        options: list[str], says: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env but the test's
    forget_after(monkeypatch, "JONGG_DB")
    monkeypatch.setenv("DISCORD_TOKEN", "a-token-that-must-not-be-used")
    assert main(["run", *options]) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.err == f"jongg: {says}\n" and captured.out == ""


@pytest.mark.parametrize("database", ["postgresql://jongg@db/jongg", "postgres://db/jongg"])
def test_several_processes_are_let_through_with_a_database_server(
        database: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(f"JONGG_DB={database}\n")  # read from .env, as for run
    forget_after(monkeypatch, "JONGG_DB", "DISCORD_TOKEN")
    # Past the database check, the next one: no token, so guidance and nothing started.
    assert main(["run", "--processes", "2"]) == 1
    assert "needs a Discord bot token" in capsys.readouterr().err
