"""The vacation budget's arithmetic (`bot.tables.vacation`): a started day counts in full,
and however a player starts and ends vacations, they never use more days than the season
gives them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.errors import IllegalAction
from bot.store import Season, SeasonSettings, Vacation
from bot.tables.vacation import DAY, days_used, vacation_status

T = 1_800_000_000.0


def season(days: int) -> Season:
    return Season(1, 1, 1, SeasonSettings("Spring", 4, "jongg-original", "nmjl", "{}",
                                          vacation_days=days), T, 9, None, None)


def vacation(number: int, start: float, until: float, ended: float | None) -> Vacation:
    return Vacation(number, 1, 5, start, until, ended)


def test_a_started_day_counts_in_full() -> None:
    assert days_used([vacation(1, T, T + 9 * DAY, T + 1)], T + 2 * DAY) == 1
    assert days_used([vacation(1, T, T + 9 * DAY, T + DAY + 3600)], T + 2 * DAY) == 2
    assert days_used([vacation(1, T, T + 9 * DAY, None)], T + 3 * DAY) == 3  # so far
    assert days_used([vacation(1, T, T + 2 * DAY, None)], T + 5 * DAY) == 2  # ran out
    status = vacation_status(season(3), [vacation(1, T, T + 2 * DAY, None)], T + DAY / 2)
    assert status.current is not None and (status.used, status.left) == (1, 2)
    with pytest.raises(IllegalAction, match="already on vacation"):
        status.start_until(T + DAY)


@given(budget=st.integers(0, 10),
       steps=st.lists(st.tuples(st.floats(0, 5 * DAY), st.floats(0, 1)), max_size=12))
def test_no_way_of_taking_vacations_overdraws_the_budget(
        budget: int, steps: list[tuple[float, float]]) -> None:
    """Each step waits a while, then starts a vacation if one may start, ending it after a
    share of its longest length (a share of 1: it runs out by itself)."""
    now, taken = T, []
    for wait, share in steps:
        now += wait
        status = vacation_status(season(budget), taken, now)
        if status.current is not None:
            continue
        if status.left == 0:
            with pytest.raises(IllegalAction, match="used all"):
                status.start_until(now)
            continue
        until = status.start_until(now)
        ended = None if share == 1 else now + share * (until - now)
        taken.append(vacation(len(taken) + 1, now, until, ended))
        assert days_used(taken, until) <= budget
    assert days_used(taken, now + 99 * DAY) <= budget
