"""`jongg bench discord --quick` runs end to end against the fake Discord (a few seconds)."""

from __future__ import annotations

from bot.bench.discord import run


def test_quick_bench_measures_every_figure() -> None:
    ticks: list[tuple[int, int]] = []
    result = run(quick=True, progress=lambda done, total: ticks.append((done, total)))
    figures = {f.name: f for f in result.figures}
    report = result.as_text()
    assert list(figures) == ["click to commit p50", "click to commit p95",
                             "commit to messages p50", "commit to messages p95",
                             "concurrent games", "moves per second, saturated"]
    for name in ("click to commit p95", "commit to messages p95"):
        assert 0 < figures[name].value < 60_000, report
        assert figures[name].goal == 100
    assert figures["concurrent games"].goal == 200
    assert not figures["concurrent games"].lower_is_better
    assert figures["moves per second, saturated"].value > 0
    assert "stubbed" in result.info["rendering"]
    assert "1 games, paced" in result.info and "10 games, saturated" in result.info
    assert result.info["requests"].endswith(" 0 refused"), report
    assert ticks and ticks[-1][0] == ticks[-1][1]
    assert result.as_json()["target"] == "discord"
