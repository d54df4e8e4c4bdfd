"""The Royale-style game (three or four players, two racks each, two sets): the deal and its
options, eight of a kind (the game's matcher, dead-hand supply, hints), claim priority, the end
of the game, both-dead players who stop while the others play on, pairwise and pot payments
(settlements always sum to zero), natural quints, and views that keep every pool hidden."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_cards import engine_card
from game_helpers import NAMES, act, assert_no_leak, check_invariants, position
from hypothesis import given
from hypothesis import strategies as st

from bot.analysis import hint
from bot.engine.errors import IllegalAction, InvalidInput
from bot.engine.game import Call, Mahjong, Phase, legal_actions, new_game, view
from bot.engine.game.dead import rack_is_dead
from bot.engine.game.events import EndReason
from bot.engine.game.rules import (
    ROYALE,
    ROYALE_3,
    SIAMESE,
    STANDARD,
    ClaimPriority,
    GameEnd,
    Payment,
    RuleSet,
    Walls,
    table_rules,
)
from bot.engine.game.scoring import score
from bot.engine.game.state import Declared, GameState, finishing
from bot.engine.tiles import JOKER, format_tile, parse_tile

# West lays out p1 in Bams on its first rack, discards 9C, and then waits on 5D for p1 in Dots.
WEST_TWO = "111B 222B 333B 444B 55B 111D 222D 333D 444D 5D 9C"
WEST_ONE = "111D 222D 333D 444D 5D NNN EEE WWW SSS R G"
SOUTH_5D = "G 111D 222D 333D 444D 5D 6B 7B 8B 9B 1C 2C 3C 4C 5C 6C 7C 8C 9C"
EAST_JUNK = "666C 777C 888C 999C 66B 77B 88B 99B 1C 2C 3C 4C 5C RR"
EAST_TURN = EAST_JUNK + " 9D"
NORTH_5D = "5D 6D 7D 8D 9D 6B 7B 8B 9B 1C 2C 3C 4C 5C 6C 7C 8C 9C 1B 2B 3B 4B 5B N E W S"


def test_the_deal_for_four_and_three_players() -> None:
    for rules, wall in ((ROYALE, 304 - 28 - 3 * 27), (ROYALE_3, 304 - 28 - 2 * 27)):
        state = new_game(rules, engine_card(), 5, NAMES[:rules.players])
        assert len(state.tiles) == 304 and rules.counts[parse_tile("3B")] == 8
        assert rules.counts[JOKER] == 16 and rules.counts[parse_tile("F")] == 16
        assert [len(seat.concealed) for seat in state.seats] == [28] + [27] * (rules.players - 1)
        assert len(state.wall) == wall and len(state.deal.dice) == 2
        # No Charleston: East opens by discarding the tile it holds over 27.
        assert state.phase is Phase.TURN and state.turn is not None and state.turn.seat == 0
        assert [type(e).__name__ for e in state.opening] == (
            ["WallBuilt"] + ["Dealt"] * rules.players + ["PlayBegins"])
        assert state.matcher.counts == rules.counts
        check_invariants(state)


def test_deal_options_east_draws_first_no_walls_and_one_set() -> None:
    draws = replace(ROYALE, dealer_tiles=27, dealer_draws_first=True)
    state = new_game(draws, engine_card(), 5, NAMES)
    assert [len(seat.concealed) for seat in state.seats] == [28, 27, 27, 27]
    assert type(state.opening[-1]).__name__ == "Drew" and len(state.wall) == 304 - 109
    pool = replace(ROYALE_3, walls=Walls.NONE, dice=0)
    assert new_game(pool, engine_card(), 5, NAMES[:3]).deal.dice == ()
    one_set = replace(ROYALE_3, sets=1)
    state = new_game(one_set, engine_card(), 5, NAMES[:3])
    assert len(state.tiles) == 152 and len(state.wall) == 152 - 82
    check_invariants(state)


@pytest.mark.parametrize(("base", "changes", "why"), [
    (SIAMESE, {"sets": 2}, "two sets are for the Royale-style game"),
    (STANDARD, {"sets": 2}, "two sets are for the Royale-style game"),
    (ROYALE, {"sets": 3}, "1 or 2 sets"),
    (STANDARD, {"payment": Payment.POT}, "only work in the Royale-style game"),
    (SIAMESE, {"game_end": GameEnd.ALL_DONE}, "only work in the Royale-style game"),
    (SIAMESE, {"claim_priority": ClaimPriority.SECOND_MAHJONG_FIRST}, "Royale-style"),
    (STANDARD, {"natural_quints": False}, "Royale-style"),
    (ROYALE, {"ante": 0}, "ante is at least 1"),
    (ROYALE, {"dealer_tiles": 27}, "East is dealt 28"),
    (ROYALE, {"scoring": STANDARD.scoring}, "Siamese profile"),
])
def test_royale_rules_that_do_not_fit(base: object, changes: dict[str, object],
                                      why: str) -> None:
    with pytest.raises(InvalidInput, match=why):
        replace(base, **changes)  # type: ignore[type-var]


def test_table_rules_reach_the_presets_by_players_and_racks() -> None:
    assert table_rules(4, racks=2) is ROYALE and table_rules(3, racks=2) is ROYALE_3
    assert table_rules(3, "siamese", racks=2) is ROYALE_3
    assert table_rules(2) is SIAMESE and table_rules(4, racks=1) is STANDARD
    with pytest.raises(InvalidInput, match="Two players play with two racks"):
        table_rules(2, racks=1)
    with pytest.raises(InvalidInput, match="Siamese profile"):
        table_rules(4, "nmjl", racks=2)


def test_a_natural_quint_of_eight_copies_is_found_by_game_hints_and_dead_checks() -> None:
    quints = "11111B 22222B 3333B NNN EEE WWW SSS R G"
    south = SOUTH_5D[: -len(" 5C 6C 7C 8C 9C")]
    state = position(ROYALE, (quints, south, WEST_ONE, NORTH_5D),
                     exposures={1: [(1, "55555C")]})
    wins = [o.action for o in legal_actions(state, 0) if isinstance(o.action, Mahjong)]
    assert Mahjong(0, rack=0, hands=("q1",)) in wins
    # The hint for East's own view counts the game's supply: q1 is complete on one rack
    # (c1 would be too, but it takes the 1, 2 and 3 Bams q1 needs).
    analysis = hint(engine_card(), ROYALE.counts, view(state, 0))
    assert analysis.split is not None
    assert [(plan.near.hand.id, plan.near.away) for plan in analysis.split.plans] == [
        ("q1", 0), ("w1", 2)]
    # Five natural 5C exposed (only two sets hold them) leave South's rack alive.
    assert not rack_is_dead(state, 1, 1)
    state, lines = act(state, "East: mahjong hands=q1")
    assert lines == ["East: mahjong q1 groups=11111B/22222B/3333B self-picked"]
    assert state.result is None and state.turn is not None and state.turn.shown


def test_natural_quints_off_puts_a_spare_joker_in_each_quint() -> None:
    rules = replace(ROYALE, natural_quints=False)
    quints = "11111B 22222B 3333B NNN EEE WWW SSS J J"
    state = position(rules, (quints, SOUTH_5D, WEST_ONE, NORTH_5D))
    state, lines = act(state, "East: mahjong hands=q1")
    assert lines == ["East: mahjong q1 groups=1111B,J/2222B,J/3333B self-picked"]
    # With one joker for two all-natural quints it is no Mah Jongg at this table.
    short = position(rules, (quints.replace("J J", "R J"), SOUTH_5D, WEST_ONE, NORTH_5D))
    def q1_offered(state: GameState) -> bool:
        return any(isinstance(o.action, Mahjong) and o.action.hands == ("q1",)
                   for o in legal_actions(state, 0))

    assert not q1_offered(short) and q1_offered(replace(short, rules=ROYALE))
    with pytest.raises(IllegalAction, match="must hold a joker"):
        act(short, "East: mahjong hands=q1")


def test_natural_quints_off_refuses_a_call_for_an_all_natural_quint() -> None:
    rules = replace(ROYALE, natural_quints=False)
    south = "1111B J " + SOUTH_5D[: -len(" 5C 6C 7C 8C 9C")]
    state = position(rules, (EAST_TURN.replace("RR", "1B R"), south, WEST_ONE, NORTH_5D))
    state, _ = act(state, "East: discard 1B")
    calls = [o.action for o in legal_actions(state, 1) if isinstance(o.action, Call)
             and o.action.size == 5 and o.action.rack == 0]
    assert calls == [Call(1, parse_tile("1B"), 5, 1, 0)]
    with pytest.raises(IllegalAction, match="must hold a joker"):
        act(state, "South: call quint 1B")
    state, lines = act(state, "South: call quint 1B jokers=1", "West: pass", "North: pass")
    assert lines[-1] == "South: exposed quint 1B jokers=1 from=East"


def _two_claims(rules: RuleSet) -> GameState:
    """West's first Mah Jongg, then North throws 5D: South (nearer) wants it for a first Mah
    Jongg, West (farther) for its second."""
    state = position(rules, (EAST_JUNK, SOUTH_5D, WEST_TWO, NORTH_5D), turn=2,
                     wall="9B")
    state, _ = act(state, "West: mahjong hands=p1", "West: discard 9C", "North: pass",
                   "East: pass", "South: pass", "North: discard 5D", "East: pass",
                   "South: call mahjong", "West: call mahjong rack=2")
    return state


def test_claims_nearest_seat_first_whatever_the_mahjong() -> None:
    state = _two_claims(ROYALE)
    assert state.result is None
    assert [d.seat for seat in state.seats for d in seat.declared] == [1, 2]
    check_invariants(state)


def test_claims_second_mahjong_first_option_and_the_game_ends() -> None:
    state = _two_claims(replace(ROYALE, claim_priority=ClaimPriority.SECOND_MAHJONG_FIRST))
    result = state.result
    assert result is not None and result.reason is EndReason.MAHJONG
    assert [(d.seat, d.ordinal) for d in result.declared] == [(2, 1), (2, 2)]
    # West: 50 (first, jokerless) + 100 (second, doubled twice); North threw it: -20.
    assert result.totals == (0, 0, 150, -20)
    assert result.settlement == (-130, -130, 150 * 4 - 130, -20 * 4 - 130)
    assert [line.text for line in result.lines][-5:] == [
        "East pays West the difference: 150.", "North pays East the difference: 20.",
        "South pays West the difference: 150.", "North pays South the difference: 20.",
        "North pays West the difference: 170."]


def test_all_done_plays_on_after_a_second_mahjong() -> None:
    rules = replace(ROYALE, claim_priority=ClaimPriority.SECOND_MAHJONG_FIRST,
                    game_end=GameEnd.ALL_DONE)
    state = _two_claims(rules)
    assert state.result is None and state.phase is Phase.TURN
    assert state.turn.seat == 3 and not state.is_live(2)
    assert state.live_seats() == (0, 1, 3)
    check_invariants(state)
    state, _ = act(state, "North: discard 9B")
    assert state.claim is not None and 2 not in state.claim.waiting


def test_a_player_dead_on_both_racks_stops_and_the_others_play_on() -> None:
    south = SOUTH_5D[: -len(" 2C 3C 4C 5C 6C 7C 8C 9C")]
    state = position(ROYALE, (EAST_TURN, south, WEST_ONE, NORTH_5D),
                     exposures={1: [(0, "NNNN"), (1, "SSSS")]})
    state, lines = act(state, "East: dead South", "East: dead South rack=2")
    assert lines[-1] == "South: dead declared rack=2"
    assert state.result is None and not state.is_live(1) and state.live_seats() == (0, 2, 3)
    state, _ = act(state, "East: discard 1C")
    assert state.claim is not None and state.claim.waiting == (2, 3)
    # A wall game at the end: every player +10, South included; nobody pays anybody.
    short = position(ROYALE, (EAST_TURN, south, WEST_ONE, NORTH_5D), short_wall=True,
                     wall="", exposures={1: [(0, "NNNN"), (1, "SSSS")]})
    short, _ = act(short, "East: dead South", "East: dead South rack=2", "East: discard 1C",
                   "West: pass", "North: pass")
    assert short.result is not None and short.result.reason is EndReason.WALL
    assert short.result.lines[0].text == ("South's two hands are both dead: no payment beyond "
                                          "the scores (Royale-style).")
    assert short.result.totals == (10, 10, 10, 10) and short.result.settlement == (0, 0, 0, 0)


def _win(seat: int, value: int, ordinal: int, discarder: int | None,
         jokerless: bool = False) -> Declared:
    return Declared(seat=seat, rack=0 if ordinal == 1 else 1, hand_id="p1", value=value,
                    jokerless=jokerless, singles_and_pairs=False, groups=(),
                    self_picked=discarder is None, discarder=discarder, exposures_before=0,
                    ordinal=ordinal)


def test_the_game_ended_with_the_last_player_to_complete_both_racks() -> None:
    # Playing on after a second Mah Jongg (`GameEnd.ALL_DONE`), West completed both racks
    # first and South last: South's second Mah Jongg ended the game, not West's.
    laid = [_win(2, 25, 1, 0), _win(1, 25, 1, 3), _win(2, 30, 2, None), _win(1, 35, 2, 0)]
    assert finishing(EndReason.MAHJONG, laid) is laid[3]
    # Two laid out at once end it with the first of the two; a first alone ends nothing.
    both = [_win(3, 25, 1, None), _win(0, 25, 0, 2), _win(0, 30, 0, 2)]
    assert finishing(EndReason.MAHJONG, both) is both[1]
    assert finishing(EndReason.WALL, laid) is None


def test_pot_payment_shares_the_antes_by_mahjong_points() -> None:
    rules = replace(ROYALE, payment=Payment.POT)
    wins = [_win(0, 25, 1, None, jokerless=True), _win(1, 25, 1, 3)]
    sheet = score(rules, engine_card(), EndReason.WALL, wins, ((False, False),) * 4)
    assert sheet.totals == (50, 25, 0, 0)
    # 100 in the pot: 66 and 33, and the unit left to the larger remainder (East).
    assert sheet.settlement == (67 - 25, 33 - 25, -25, -25)
    assert [line.text for line in sheet.lines][-3:] == [
        "Each player antes 25: the pot holds 100.",
        "East takes 67 of the pot (50 of 75 points).",
        "South takes 33 of the pot (25 of 75 points)."]
    none = score(replace(ROYALE_3, payment=Payment.POT), engine_card(), EndReason.WALL, [],
                 ((False, False),) * 3)
    assert none.settlement == (0, 0, 0) and none.totals == (0, 0, 0)


def test_a_pot_unit_tied_between_remainders_goes_to_the_seat_nearest_east() -> None:
    """75 in the pot shared by two Mah Jonggs of 25: 37.5 each, the same remainder, and one
    unit left. It goes to South (nearer East than West), though West laid out first."""
    rules = replace(ROYALE_3, payment=Payment.POT)
    wins = [_win(2, 25, 1, 0), _win(1, 25, 1, 0)]
    sheet = score(rules, engine_card(), EndReason.WALL, wins, ((False, False),) * 3)
    assert sheet.totals == (0, 25, 25)
    assert sheet.settlement == (-25, 38 - 25, 37 - 25)
    assert [line.text for line in sheet.lines][-2:] == [
        "South takes 38 of the pot (25 of 50 points).",
        "West takes 37 of the pot (25 of 50 points)."]


_WINS = st.lists(st.tuples(st.integers(0, 3), st.sampled_from((25, 30, 40, 50)),
                           st.integers(0, 2), st.none() | st.integers(0, 3), st.booleans()),
                 max_size=5)


@given(players=st.sampled_from((3, 4)), pot=st.booleans(), wins=_WINS,
       dead=st.lists(st.tuples(st.booleans(), st.booleans()), min_size=4, max_size=4))
def test_settlements_sum_to_zero(players: int, pot: bool,
                                 wins: list[tuple[int, int, int, int | None, bool]],
                                 dead: list[tuple[bool, bool]]) -> None:
    rules = replace(ROYALE, players=players, payment=Payment.POT if pot else Payment.PAIRWISE)
    declared = [_win(seat % players, value, ordinal,
                     None if thrower is None else thrower % players, jokerless)
                for seat, value, ordinal, thrower, jokerless in wins]
    sheet = score(rules, engine_card(), EndReason.MAHJONG, declared, tuple(dead[:players]))
    assert sum(sheet.settlement) == 0
    if not pot:
        # Pairwise: each seat settles its score against every other seat's.
        assert sheet.settlement == tuple(players * t - sum(sheet.totals) for t in sheet.totals)


def test_views_keep_every_other_pool_hidden() -> None:
    state = new_game(ROYALE, engine_card(), 21, NAMES)
    state, _ = act(state, f"East: discard {format_tile(state.concealed_kinds(0)[-1])}")
    for viewer in range(4):
        seen = view(state, viewer)
        assert [s.concealed_count for s in seen.seats] == [
            len(seat.concealed) for seat in state.seats]
        assert_no_leak(state, viewer)
