"""Checks that a scenario reached what a test checks there.

A check inside a loop passes without checking anything when the loop runs zero times: a
game that never met the situation looks like a game that met it and got it right.
`must_reach` fails the test instead, saying what was never reached, so a seed or scenario
that stops meeting the situation is noticed rather than passing quietly:

    for asked in must_reach(winning_draws(game), "a winning draw"):
        assert ...

Import it as `from tests.reached import must_reach`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def must_reach(items: Iterable[T], what: str, *, at_least: int = 1) -> list[T]:
    """`items` as a list, after failing the test if there are fewer than `at_least` of them
    (`what` says what they are)."""
    found = list(items)
    assert len(found) >= at_least, (
        f"the scenario reached {what} {len(found)} times, not the {at_least} the test "
        "needs: its checks there would check nothing")
    return found


__all__ = ["must_reach"]
