"""`evolve` and `memo`: derived values kept on frozen records never outlive the record."""

from __future__ import annotations

from game_cards import engine_card
from game_helpers import NAMES

from bot.engine.game import STANDARD, new_game
from bot.engine.game.state import carried, evolve, memo


def test_a_memo_is_made_once_and_never_copied_by_evolve() -> None:
    state = new_game(STANDARD, engine_card(), 5, NAMES)
    seat = state.seats[1]  # 13 tiles (East has 14)
    made: list[int] = []

    def count() -> int:
        made.append(1)
        return len(seat.concealed)

    assert memo(seat, "count", count) == memo(seat, "count", count) == 13
    assert len(made) == 1
    fewer = evolve(seat, concealed=seat.concealed[1:])
    assert memo(evolve(seat), "count", lambda: -1) == -1  # not even an unchanged copy
    assert memo(fewer, "count", lambda: len(fewer.concealed)) == 12
    assert fewer != seat and evolve(fewer, concealed=seat.concealed) == seat  # fields only


def test_derived_seat_values_follow_the_seat() -> None:
    state = new_game(STANDARD, engine_card(), 5, NAMES)
    before = state.concealed_kinds(1)
    assert state.live_racks(1) == (0,)
    dead = evolve(state, seats=tuple(evolve(s, dead=(True,)) if i == 1 else s
                                     for i, s in enumerate(state.seats)))
    assert dead.live_racks(1) == () and state.live_racks(1) == (0,)
    emptied = evolve(state, seats=tuple(evolve(s, concealed=s.concealed[:5]) if i == 1 else s
                                        for i, s in enumerate(state.seats)))
    assert emptied.concealed_kinds(1) == tuple(sorted(emptied.kinds(
        emptied.seats[1].concealed)))
    assert len(emptied.concealed_kinds(1)) == 5 and state.concealed_kinds(1) == before


def test_a_carried_value_follows_copies_until_a_field_it_comes_from_changes() -> None:
    state = new_game(STANDARD, engine_card(), 5, NAMES)
    made: list[int] = []

    def pile_count() -> int:
        made.append(1)
        return len(state.discards)

    depends = frozenset({"discards"})
    assert carried(state, "piles", depends, pile_count) == 0
    later = evolve(evolve(state, actions=state.actions), pot=5)  # other fields only
    assert carried(later, "piles", depends, pile_count) == 0 and len(made) == 1
    moved = evolve(later, discards=((0, 1),))
    assert carried(moved, "piles", depends, lambda: len(moved.discards)) == 1
    assert carried(later, "piles", depends, pile_count) == 0  # the copy kept its own
    assert memo(later, "count", lambda: 7) == 7 and memo(evolve(later), "count", int) == 0
