"""`evolve`, `memo` and `carried`: derived values kept on frozen records never outlive the
record, nor the fields they come from."""

from __future__ import annotations

from game_cards import engine_card
from game_helpers import NAMES

from bot.engine.game import (
    STANDARD,
    Discard,
    Pass,
    Phase,
    apply,
    legal_actions,
    new_game,
    seats_to_act,
)
from bot.engine.game.state import (
    Took,
    TurnState,
    carried,
    discard_counts,
    discard_piles,
    evolve,
    memo,
)


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


def test_a_copy_shares_what_is_kept_for_fields_it_shares_and_nothing_else() -> None:
    state = new_game(STANDARD, engine_card(), 5, NAMES)
    discards, seats = frozenset({"discards"}), frozenset({"seats"})
    assert carried(state, "piles", discards, lambda: 0) == 0
    copy = evolve(state, pot=5)
    # Kept by the copy for the discards, which both have: the original finds it too.
    assert carried(copy, "count", discards, lambda: 1) == 1
    assert carried(state, "count", discards, lambda: -1) == 1
    # Kept by the copy for another set of fields: the original makes its own.
    assert carried(copy, "seats", seats, lambda: 2) == 2
    assert carried(state, "seats", seats, lambda: -2) == -2
    assert carried(evolve(copy, seats=copy.seats[::-1]), "seats", seats, lambda: 3) == 3


def test_a_discard_adds_to_the_piles_and_counts_kept_before_it() -> None:
    state = new_game(STANDARD, engine_card(), 5, NAMES)
    state = evolve(state, phase=Phase.TURN, turn=TurnState(0, Took.DEAL), charleston=None)
    for _ in range(6):
        discard_piles(state), discard_counts(state)  # kept, so the next discard adds to them
        seat = seats_to_act(state)[0]
        action = next(o.action for o in legal_actions(state, seat)
                      if isinstance(o.action, Discard | Pass))
        state, _ = apply(state, action)
        fresh = evolve(state, discards=state.discards)  # keeps nothing made from the discards
        assert discard_piles(state) == discard_piles(fresh)
        assert discard_counts(state) == discard_counts(fresh)
    assert len(state.discards) >= 2


def test_apply_leaves_the_state_it_was_given_as_it_was() -> None:
    state = new_game(STANDARD, engine_card(), 5, NAMES)
    state = evolve(state, phase=Phase.TURN, turn=TurnState(0, Took.DEAL), charleston=None)
    before = state.actions
    after, _ = apply(state, Discard(0, state.concealed_kinds(0)[0]))
    assert state.actions == before and state.phase is Phase.TURN
    assert after.actions == (*before, Discard(0, state.concealed_kinds(0)[0]))
