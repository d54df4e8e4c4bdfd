"""`jongg bench engine` reports each table's game rates per CPU-second (the goals' figure) and
per wall-clock second, with the games played replaced by canned reports (no timing here)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.bench import engine
from bot.bots.simulate import SimulationReport


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
