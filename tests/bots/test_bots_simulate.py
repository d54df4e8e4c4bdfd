"""`simulate` and `jongg simulate`: the report adds up, the log replays, bad input is refused."""

from __future__ import annotations

import io
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

import bot.cli.main
from bot.bots.simulate import SimulationReport, read_log, simulate
from bot.engine.errors import InvalidInput
from bot.engine.game import SIAMESE, STANDARD, THREE_PLAYER, replay
from bot.engine.game.rules import ROYALE, ROYALE_3, Charleston, DeadHands, RuleSet
from bot.library import shipped_card


def _consistent(report: SimulationReport) -> None:
    assert (report.mahjong_games + report.laid_out_games + report.wall_games
            + report.dead_hand_games == report.games)
    assert sum(report.wins_by_seat) == report.mahjong_games
    assert sum(report.mahjongs_by_seat) >= report.mahjong_games
    assert report.self_picks <= sum(report.mahjongs_by_seat)
    assert report.max_actions * report.games >= report.actions >= report.max_actions
    assert report.mean_actions == pytest.approx(report.actions / report.games)
    assert report.turns > 0 and report.seconds > 0 and report.games_per_second > 0
    data = report.as_json()
    assert data["games"] == report.games and "seeds" not in data
    assert data["dead_hands"] == report.dead_declared + report.dead_wrong
    assert f"{report.games} games" in report.as_text()


@pytest.mark.parametrize("rules", [STANDARD, THREE_PLAYER, SIAMESE, ROYALE, ROYALE_3],
                         ids=lambda r: r.name)
@pytest.mark.parametrize(("kind", "games"), [("random", 12), ("normal", 2)])
def test_the_report_adds_up(rules: RuleSet, kind: str, games: int) -> None:
    report = simulate(rules, shipped_card(), games, kind, seed=4)
    assert report.players == (kind,) * rules.players
    _consistent(report)


def test_progress_is_reported_per_game_and_the_log_replays() -> None:
    seen: list[tuple[int, int]] = []
    log = io.StringIO()
    card = shipped_card()
    report = simulate(STANDARD, card, 3, ["normal", "random", "normal", "random"], seed=5,
                      progress=lambda done, total: seen.append((done, total)), log=log)
    assert seen == [(1, 3), (2, 3), (3, 3)]
    games = read_log(log.getvalue())
    assert [g.seed for g in games] == list(report.seeds)
    assert sum(len(g.actions) for g in games) == report.actions
    for game in games:
        state, _ = replay(game.rules, card, game.seed, game.players, game.actions)
        assert state.result is not None
        assert game.result.split()[0] == state.result.reason.value


def test_bad_bots_and_table_sizes_are_refused() -> None:
    with pytest.raises(InvalidInput, match="no bot called"):
        simulate(STANDARD, shipped_card(), 1, "genius", seed=1)
    with pytest.raises(InvalidInput, match="one bot per seat"):
        simulate(STANDARD, shipped_card(), 1, ["random", "random"], seed=1)


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> None:
    """`jongg simulate` registered (the lead adds it to COMMAND_MODULES)."""
    if "bot.cli.simulate" not in bot.cli.main.COMMAND_MODULES:
        monkeypatch.setattr(bot.cli.main, "COMMAND_MODULES",
                            (*bot.cli.main.COMMAND_MODULES, "bot.cli.simulate"))


@pytest.mark.usefixtures("cli")
def test_the_command_prints_a_report_and_writes_a_replayable_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.txt"
    code = bot.cli.main.main(["simulate", "--games", "3", "--players", "3", "--bot", "normal",
                         "--seed", "7", "--log", str(path)])
    assert code == 0
    captured = capsys.readouterr()
    assert "jongg simulate: 3 games, 3-player" in captured.out
    assert "wins by seat" in captured.out and "simulate: 3/3" in captured.err
    games = read_log(path.read_text(encoding="utf-8"))
    assert len(games) == 3
    card = shipped_card()
    for game in games:
        state, _ = replay(game.rules, card, game.seed, game.players, game.actions)
        assert state.result is not None and len(state.actions) == len(game.actions)


@pytest.mark.usefixtures("cli")
def test_the_command_speaks_json_and_mixes_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code = bot.cli.main.main(["simulate", "--games", "4", "--players", "2", "--bot",
                         "random,normal", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4 and data["players"] == ["random", "normal"]
    assert data["rules"] == "siamese"


@pytest.mark.usefixtures("cli")
def test_the_command_refuses_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot.cli.main.main(["simulate", "--games", "1", "--bot", "genius"]) == 2
    assert "no bot called `genius`" in capsys.readouterr().err


def test_siamese_games_that_run_out_after_mahjongs_are_counted_apart() -> None:
    log = io.StringIO()
    card = shipped_card()
    report = simulate(SIAMESE, card, 12, "normal", seed=1, log=log)
    _consistent(report)
    ends: Counter[str] = Counter()
    for game in read_log(log.getvalue()):
        state, _ = replay(game.rules, card, game.seed, game.players, game.actions)
        assert state.result is not None
        reason = state.result.reason.value
        ends["laid out" if reason == "wall" and state.result.declared else reason] += 1
    assert ends["laid out"] > 0
    assert (report.mahjong_games, report.laid_out_games, report.wall_games,
            report.dead_hand_games) == (ends["mahjong"], ends["laid out"], ends["wall"],
                                        ends["dead-hands"])
    assert f"laid-out endings  {report.laid_out_games} (" in report.as_text()


@pytest.mark.usefixtures("cli")
@pytest.mark.parametrize("players", ["3", "4"])
def test_the_command_plays_royale_tables_to_the_end(
        players: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = bot.cli.main.main(["simulate", "--games", "3", "--players", players, "--racks", "2",
                         "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["games"] == 3 and len(data["wins_by_seat"]) == int(players)
    assert data["rules"] == ("royale" if players == "4" else "royale-3")
    assert (data["mahjong_games"] + data["laid_out_games"] + data["wall_games"]
            + data["dead_hand_games"]) == 3


@pytest.mark.usefixtures("cli")
def test_the_command_refuses_one_rack_at_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot.cli.main.main(["simulate", "--games", "1", "--players", "2", "--racks", "1"]) == 2
    assert "Two players play with two racks" in capsys.readouterr().err


@pytest.mark.usefixtures("cli")
def test_house_options_are_played_reported_and_logged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.txt"
    code = bot.cli.main.main(["simulate", "--games", "2", "--bot", "random", "--json", "--house",
                         "charleston=none,blanks=2 dead-hands=off", "--log", str(path)])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "standard charleston=none blanks=2 dead_hands=off"
    games = read_log(path.read_text(encoding="utf-8"))
    assert {g.rules for g in games} == {replace(STANDARD, charleston=Charleston.NONE, blanks=2,
                                                dead_hands=DeadHands.OFF)}
    card = shipped_card()
    for game in games:
        state, _ = replay(game.rules, card, game.seed, game.players, game.actions)
        assert state.result is not None and len(state.actions) == len(game.actions)


@pytest.mark.usefixtures("cli")
@pytest.mark.parametrize("command", [["play"], ["simulate", "--games", "1"],
                                     ["arena", "--challenger", "random", "--field", "random",
                                      "--seeds", "1"]], ids=lambda c: c[0])
def test_a_mistyped_house_option_is_one_line_and_exit_2(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert bot.cli.main.main([*command, "--house", "quarter-pot"]) == 2
    assert capsys.readouterr().err == ("jongg: There is no house option `quarter-pot`. Did you "
                                       "mean `quarters_pot`?\n")
