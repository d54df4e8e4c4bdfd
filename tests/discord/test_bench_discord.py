"""`jongg bench discord --quick` runs end to end, the fake Discord in a process of its own."""

from __future__ import annotations

from bot.bench.discord import run


def test_quick_bench_measures_every_figure() -> None:
    ticks: list[tuple[int, int]] = []
    result = run(quick=True, progress=lambda done, total: ticks.append((done, total)))
    figures = {f.name: f for f in result.figures}
    report = result.as_text()
    for name in ("click to commit p95", "commit to messages p95"):
        assert 0 < figures[name].value < 60_000, report
        assert figures[name].goal == 100
    assert figures["concurrent games"].goal == 200
    assert not figures["concurrent games"].lower_is_better
    assert figures["global requests per move, four people"].value > 0, report
    assert figures["moves per second, saturated"].value > 0
    assert "stubbed" in result.info["rendering"]
    assert "PROBLEMS" not in report, report
    assert ticks and ticks[-1][0] == ticks[-1][1]
    assert result.as_json()["target"] == "discord"
