"""Views: everything one seat may see, and nothing of another seat's hidden tiles or choices."""

from __future__ import annotations

import pytest
from game_cards import engine_card
from game_helpers import NAMES, act, assert_no_leak, position

from bot.engine.errors import InvalidInput
from bot.engine.game import Give, Phase, new_game, spectator_view, view
from bot.engine.game.rules import SIAMESE, STANDARD
from bot.engine.game.view import CalledView, MahjongView
from bot.engine.tiles import parse_tile, parse_tiles

RACKS = ("666C 777C 888C 999C 5B N", "55B 123D 456D 789D NE", "111B 222B 333B 444B 5B",
         "123C 456C 789C 1D 2D WS")


def test_a_view_shows_own_tiles_and_only_counts_of_others() -> None:
    state = position(STANDARD, RACKS, exposures={}, wall="7D")
    seen = view(state, 1)
    assert seen.concealed == parse_tiles("55B 123D 456D 789D N E")
    assert [s.concealed_count for s in seen.seats] == [14, 13, 13, 13]
    assert seen.turn == 0 and seen.phase is Phase.TURN and seen.legal == ()
    assert seen.wall_count == len(state.wall)
    assert view(state, 0).legal and view(state, 0).action_count == 0
    for seat in range(4):
        assert_no_leak(state, seat)
    with pytest.raises(InvalidInput):
        view(state, 4)


def test_discards_exposures_and_claims_are_public() -> None:
    state, _ = act(position(STANDARD, RACKS), "East: discard 5B", "South: call pung 5B",
                   "West: pass", "North: pass", "South: discard N")
    seen = view(state, 3)
    assert seen.discards == ((1, parse_tile("N")),)
    assert seen.seats[1].exposures[0].tiles == parse_tiles("5B 5B 5B")
    assert seen.seats[1].discards == (parse_tile("N"),)
    assert seen.claim is not None and seen.claim.kind == parse_tile("N")
    assert seen.claim.waiting == (2, 3, 0)
    assert_no_leak(state, 3)


def test_charleston_choices_stay_hidden() -> None:
    state = new_game(STANDARD, engine_card(), 9, NAMES)
    mine = Give(0, state.concealed_kinds(0)[:3])
    from bot.engine.game import apply

    state, _ = apply(state, mine)
    east, south = view(state, 0).charleston, view(state, 1).charleston
    assert east is not None and south is not None
    assert east.my_give == mine and south.my_give is None
    assert south.ready == (True, False, False, False)
    assert south.pass_name is not None and south.pass_name.value == "first-right"
    for seat in range(4):
        assert_no_leak(state, seat)


def test_siamese_view_and_finished_game() -> None:
    east = "111B 222B 333B 444B 55B 111D 222D 333D 444D 55D"
    west = "111C 222C 333C 444C 5C NNN EEE WWW SSS R G"
    state, _ = act(position(SIAMESE, (east, west)), "East: mahjong both")
    seen = view(state, 1)
    assert seen.result is not None and seen.result.settlement == (200, -200)
    assert [m.hand_id for m in seen.result.mahjongs] == ["p1", "p1"]
    assert seen.seats[0].mahjongs[1].rack == 1
    assert seen.legal == ()


def test_the_discard_just_called_is_shown_until_the_caller_discards() -> None:
    state, _ = act(position(STANDARD, RACKS), "East: discard 5B", "South: call pung 5B",
                   "West: pass", "North: pass")
    called = CalledView(seat=1, discarder=0, kind=parse_tile("5B"))
    assert [view(state, seat).called for seat in range(4)] == [called] * 4
    assert spectator_view(state).called == called
    state, _ = act(state, "South: discard N")
    assert spectator_view(state).called is None


def test_a_drawn_tile_is_never_shown_as_called() -> None:
    state, _ = act(position(STANDARD, RACKS, wall="7D"), "East: discard N", "South: pass",
                   "West: pass", "North: pass")
    assert state.turn is not None and state.turn.seat == 1
    assert all(view(state, seat).called is None for seat in range(4))
    for seat in range(4):
        assert_no_leak(state, seat)


def _winning_kind(mahjong: MahjongView) -> int:
    assert mahjong.winning is not None
    group, place = mahjong.winning
    return mahjong.groups[group][place]


def test_a_mahjong_on_a_discard_marks_the_discard_as_its_winning_tile() -> None:
    state, _ = act(position(STANDARD, RACKS), "East: discard 5B")
    thrown = state.discards[-1][1]
    state, _ = act(state, "West: call mahjong", "South: pass", "North: pass")
    won = spectator_view(state).result
    assert won is not None and state.result is not None
    (mahjong,) = won.mahjongs
    assert _winning_kind(mahjong) == parse_tile("5B") and mahjong.discarder == 0
    assert state.result.declared[0].winning_id == thrown


def test_a_self_picked_mahjong_marks_the_drawn_tile() -> None:
    racks = ("666C 777C 888C 999C 9D N", *RACKS[1:])
    state, _ = act(position(STANDARD, racks, wall="7D 5B"), "East: discard N", "South: pass",
                   "West: pass", "North: pass", "South: discard 7D", "West: pass",
                   "North: pass", "East: pass")
    assert state.turn is not None and state.turn.seat == 2 and state.turn.tile is not None
    drawn_id = state.turn.tile
    state, _ = act(state, "West: mahjong")
    result = spectator_view(state).result
    assert result is not None
    (mahjong,) = result.mahjongs
    assert mahjong.self_picked and _winning_kind(mahjong) == parse_tile("5B")
    assert state.result is not None and state.result.declared[0].winning_id == drawn_id
