"""The matcher's parts (`bot.engine.matching`), against each other on the fixture card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import load_card
from bot.engine.matcher import CardMatcher

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "features.jongg"
MATCHER = CardMatcher(load_card(FIXTURE.read_bytes()))
EXPOSURES = MATCHER._exposures  # the part under test


@st.composite
def exposure_sets(draw: st.DrawFn) -> tuple[tuple[int, int, bool], ...]:
    """Exposures as `open` keys them, (kind, size, has jokers), sorted: the identical
    groups of three or more of one variation of an exposed hand (so most sets fit some
    variations), jokers where the group takes them, now and then one more of any kind."""
    variation = draw(st.sampled_from([v for v in MATCHER.variations
                                      if not MATCHER.card.hands[v.hand_index].concealed]))
    groups = [g for g in variation.groups if g.identical and g.size >= 3]
    chosen = draw(st.lists(st.sampled_from(groups), max_size=4)) if groups else []
    key = [(g.kind, g.size, g.jokers_ok and draw(st.booleans())) for g in chosen]
    if draw(st.booleans()) or not key:
        key.append((draw(st.integers(0, 33)), draw(st.integers(3, 5)), draw(st.booleans())))
    return tuple(sorted(key))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exposure_sets())
def test_exposures_matched_one_at_a_time_leave_the_rows_matched_all_at_once(
        key: tuple[tuple[int, int, bool], ...]) -> None:
    # `open` matches the last of several exposures (no two of one kind and size) against
    # the rows the others leave, which it kept; `_match` matches them all at once.
    one_by_one = EXPOSURES._open(key)
    at_once = EXPOSURES._match(key)
    for mine, theirs in ((one_by_one.index, at_once.index), (one_by_one.fixed, at_once.fixed),
                         (one_by_one.flex, at_once.flex), (one_by_one.wild, at_once.wild)):
        assert mine.shape == theirs.shape and np.array_equal(mine, theirs), key
