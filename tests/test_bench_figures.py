"""A bench figure's verdict against its goal, in the text and the JSON both: a ceiling met by
nothing at all (0 global requests a move) meets it, as any figure under it does."""

from __future__ import annotations

import pytest

from bot.bench import BenchResult, Figure


@pytest.mark.parametrize(("value", "goal", "lower", "meets"), [
    (0.0, 0.1, True, True),       # nothing against a ceiling
    (0.05, 0.1, True, True),
    (0.1, 0.1, True, True),
    (0.2, 0.1, True, False),
    (0.0, 200.0, False, False),   # nothing against a floor
    (250.0, 200.0, False, True),
    (150.0, 200.0, False, False),
])
def test_a_figure_meets_its_goal_when_it_is_on_the_right_side(
        value: float, goal: float, lower: bool, meets: bool) -> None:
    figure = Figure("requests", value, "requests", goal, lower_is_better=lower)
    assert figure.meets_goal is meets
    result = BenchResult("discord", (figure,))
    assert result.as_json()["figures"][0]["meets_goal"] is meets
    assert result.as_text().endswith("meets goal" if meets else "MISSES goal")


def test_a_figure_without_a_goal_has_no_verdict() -> None:
    figure = Figure("moves", 3.0, "moves/s")
    assert figure.meets_goal is None and figure.ratio is None
    assert "goal" not in BenchResult("engine", (figure,)).as_text()
