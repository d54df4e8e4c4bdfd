"""`jongg bench engine` reports each table's game rates per CPU-second (the goals' figure) and
per wall-clock second, with the games played replaced by canned reports (no timing here); its
step profile covers every step of the games it times."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.bench import engine
from bot.bench.steps import GameSplit, game_split, profile_steps
from bot.bots.simulate import SimulationReport, simulate
from bot.engine.game import STANDARD
from bot.library import shipped_card


def _report(games: int, seconds: float) -> SimulationReport:
    return SimulationReport(
        rules="standard", card="card", players=("random",) * 4, seed=1, games=games,
        mahjong_games=0, laid_out_games=0, wall_games=games, dead_hand_games=0,
        wins_by_seat=(0,) * 4, mahjongs_by_seat=(0,) * 4, self_picks=0, dead_declared=0,
        dead_wrong=0, turns=0, actions=0, max_actions=0, seconds=seconds)


def test_each_table_reports_games_per_cpu_second_and_per_wall_clock_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "simulate", lambda rules, card, games, kind, seed, progress:
                        _report(games, games / 4.0))  # 4 games a wall-clock second
    side = SimpleNamespace(decision_p95_ms=1.0, decision_p50_ms=0.5)
    monkeypatch.setattr(engine, "arena", lambda *args, **kwargs: SimpleNamespace(
        games=4, games_per_second=8.0, challenger=side))
    figures = {f.name: f for f in engine.run(quick=True).figures}
    for table in ("4-player", "3-player", "2-player"):
        for label in ("random-legal", "Normal"):
            cpu = figures[f"{label} {table} games per CPU-second"]
            wall = figures[f"{label} {table} games per second (wall clock)"]
            assert wall.value == 4.0 and wall.goal is None
            assert cpu.value > 0 and not cpu.lower_is_better
    assert figures["random-legal 4-player games per CPU-second"].goal == engine.RANDOM_GOAL
    assert figures["Normal 4-player games per CPU-second"].goal == engine.NORMAL_GOAL


def test_the_step_profile_counts_every_step_of_the_games_it_times() -> None:
    """The profile's steps are the games' actions, each kind once, dearest first, and
    every part of a step costs something."""
    card = shipped_card()
    costs = profile_steps(STANDARD, card, 2, engine.SEED)
    played = simulate(STANDARD, card, 2, "random", engine.SEED)
    assert sum(c.per_game for c in costs) == pytest.approx(played.mean_actions)
    assert len({c.name for c in costs}) == len(costs)
    assert {"claim: pass", "turn: discard"} <= {c.name for c in costs}
    shares = [c.per_game * c.total_us for c in costs]
    assert shares == sorted(shares, reverse=True)
    assert all(c.view_us > 0 and c.apply_us > 0 and c.choose_us > 0 for c in costs)
    assert "% of a game" in costs[0].text(sum(shares))


def test_a_game_split_puts_the_players_thinking_apart_from_the_engine() -> None:
    """The split is what the profile's steps add up to: the engine's three parts on one
    side, the bots' choices on the other (no figure is judged here, only how it is made)."""
    card = shipped_card()
    costs = profile_steps(STANDARD, card, 1, engine.SEED, "normal")
    split = game_split(costs)
    assert split.engine_ms == pytest.approx(sum(c.per_game * c.total_us for c in costs) / 1e3)
    assert split.players_ms == pytest.approx(
        sum(c.per_game * c.choose_us for c in costs) / 1e3)
    assert all(c.choose_us > 0 for c in costs)
    assert GameSplit(engine_ms=3.0, players_ms=1.0).free_engine_speedup == 4.0
    assert GameSplit(engine_ms=3.0, players_ms=0.0).free_engine_speedup == 0.0


def test_the_engine_bench_prints_the_step_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "simulate", lambda rules, card, games, kind, seed, progress:
                        _report(games, 1.0))
    side = SimpleNamespace(decision_p95_ms=1.0, decision_p50_ms=0.5)
    monkeypatch.setattr(engine, "arena", lambda *args, **kwargs: SimpleNamespace(
        games=4, games_per_second=8.0, challenger=side))
    info = engine.run(quick=True).info
    assert info["step profile"].startswith("random-legal 4-player, 2 games")
    assert "step claim: pass" in info and "step turn: discard" in info
    for kind in ("random", "normal", "strong"):
        assert "would make them at most" in info[f"game split {kind} 4-player"]
