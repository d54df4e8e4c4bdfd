"""`tests/reached.py`: a loop over what a scenario never reached fails the test that relies
on it, saying what was never reached; one that was reached gets its items."""

from __future__ import annotations

import pytest

from tests.reached import must_reach


def test_a_loop_over_nothing_fails_and_one_over_something_runs() -> None:
    with pytest.raises(AssertionError, match="reached a winning draw 0 times"):
        must_reach([], "a winning draw")
    with pytest.raises(AssertionError, match="2 times, not the 3"):
        must_reach(iter("ab"), "a claim", at_least=3)
    assert must_reach(iter("ab"), "a letter") == ["a", "b"]
