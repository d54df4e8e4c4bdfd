"""Scoring profiles with worked examples: every line of the breakdown and the totals."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_cards import engine_card

from bot.engine.game.events import EndReason
from bot.engine.game.rules import SIAMESE, STANDARD, THREE_PLAYER, TOURNAMENT
from bot.engine.game.scoring import Scoresheet, score, tournament_throw_penalty
from bot.engine.game.state import Declared


def win(seat: int = 0, value: int = 25, *, jokerless: bool = False, pairs: bool = False,
        self_picked: bool = False, discarder: int | None = None, exposures: int = 0,
        ordinal: int = 1, rack: int = 0, hand_id: str = "h1") -> Declared:
    return Declared(seat=seat, rack=rack, hand_id=hand_id, value=value, jokerless=jokerless,
                    singles_and_pairs=pairs, groups=(), self_picked=self_picked,
                    discarder=discarder, exposures_before=exposures, ordinal=ordinal)


def texts(sheet: Scoresheet) -> list[str]:
    return [line.text for line in sheet.lines]


NO_DEAD4 = ((False,),) * 4


def test_nmjl_win_on_a_discard() -> None:
    sheet = score(STANDARD, engine_card(), EndReason.MAHJONG, [win(discarder=1)], NO_DEAD4)
    assert texts(sheet) == [
        "East goes Mah Jongg with h1 (25), on South's discard.",
        "South pays East 2 x 25 = 50 (threw the winning tile).",
        "West pays East 25.",
        "North pays East 25.",
    ]
    assert sheet.totals == sheet.settlement == (100, -50, -25, -25)


def test_nmjl_jokerless_self_pick_doubles_twice() -> None:
    sheet = score(STANDARD, engine_card(), EndReason.MAHJONG,
                  [win(2, 30, jokerless=True, self_picked=True)], NO_DEAD4)
    assert texts(sheet) == [
        "West goes Mah Jongg with h1 (30), self-picked.",
        "Jokerless: the value doubles to 60.",
        "North pays West 2 x 60 = 120 (self-picked).",
        "East pays West 2 x 60 = 120 (self-picked).",
        "South pays West 2 x 60 = 120 (self-picked).",
    ]
    assert sheet.totals == (-120, -120, 360, -120)


def test_nmjl_singles_and_pairs_never_double_for_jokerless() -> None:
    sheet = score(STANDARD, engine_card(), EndReason.MAHJONG,
                  [win(value=50, jokerless=True, pairs=True, self_picked=True)], NO_DEAD4)
    assert sheet.totals == (300, -100, -100, -100)
    assert "Jokerless: the value doubles to 100." not in texts(sheet)


def test_nmjl_dead_hand_still_pays_and_wall_game_pays_nothing() -> None:
    dead = ((False,), (False,), (True,), (False,))
    sheet = score(STANDARD, engine_card(), EndReason.MAHJONG, [win(discarder=1)], dead)
    assert sheet.totals == (100, -50, -25, -25)
    wall = score(STANDARD, engine_card(), EndReason.WALL, [], NO_DEAD4)
    assert texts(wall) == ["Wall game: the tiles ran out with no Mah Jongg. Nobody pays."]
    assert wall.totals == (0, 0, 0, 0)


def test_three_player_payments() -> None:
    three = ((False,),) * 3
    on_discard = score(THREE_PLAYER, engine_card(), EndReason.MAHJONG,
                       [win(1, discarder=0)], three)
    assert texts(on_discard)[1:] == ["West pays South 25.",
                                     "East pays South 2 x 25 = 50 (threw the winning tile)."]
    assert on_discard.totals == (-50, 75, -25)
    picked = score(THREE_PLAYER, engine_card(), EndReason.MAHJONG,
                   [win(1, self_picked=True)], three)
    assert picked.totals == (-50, 100, -50)


def test_tournament_self_picked_jokerless() -> None:
    sheet = score(TOURNAMENT, engine_card(), EndReason.MAHJONG,
                  [win(3, 25, jokerless=True, self_picked=True)], NO_DEAD4)
    assert texts(sheet) == ["North: 25 for Mah Jongg with h1.", "North: +20 jokerless.",
                            "North: +10 self-picked."]
    assert sheet.totals == (0, 0, 0, 55)


@pytest.mark.parametrize(("exposures", "penalty"), [(0, 10), (1, 10), (2, 20), (3, 25),
                                                    (4, 25)])
def test_tournament_discarder_penalty(exposures: int, penalty: int) -> None:
    assert tournament_throw_penalty(exposures) == penalty
    sheet = score(TOURNAMENT, engine_card(), EndReason.MAHJONG,
                  [win(0, 30, discarder=2, exposures=exposures)], NO_DEAD4)
    plural = "s" if exposures != 1 else ""
    assert texts(sheet) == [
        "East: 30 for Mah Jongg with h1.",
        f"West threw Mah Jongg to a hand with {exposures} exposure{plural}: -{penalty}.",
    ]
    assert sheet.totals == (30, 0, -penalty, 0)


def test_tournament_singles_and_pairs_get_no_jokerless_bonus() -> None:
    sheet = score(TOURNAMENT, engine_card(), EndReason.MAHJONG,
                  [win(0, 50, jokerless=True, pairs=True, discarder=1)], NO_DEAD4)
    assert sheet.totals == (50, -10, 0, 0)


def test_tournament_wall_game() -> None:
    dead = ((False,), (True,), (False,), (False,))
    sheet = score(TOURNAMENT, engine_card(), EndReason.WALL, [], dead)
    assert texts(sheet) == ["Wall game: the tiles ran out with no Mah Jongg. +10 to every "
                            "hand that is not dead (South dead: 0)."]
    assert sheet.totals == (10, 0, 10, 10)


TWO = ((False, False), (False, False))


def test_siamese_first_mahjong_only() -> None:
    sheet = score(SIAMESE, engine_card(), EndReason.WALL, [win(0, 25, jokerless=True)], TWO)
    assert texts(sheet) == ["East: first Mah Jongg, hand h1: 25, doubled for jokerless = 50.",
                            "West pays East the difference: 50."]
    assert sheet.totals == (50, 0)
    assert sheet.settlement == (50, -50)


def test_siamese_second_mahjong_on_a_discard() -> None:
    wins = [win(0, 25, self_picked=True),
            win(0, 30, jokerless=True, discarder=1, ordinal=2, rack=1, hand_id="h2")]
    sheet = score(SIAMESE, engine_card(), EndReason.MAHJONG, wins, TWO)
    assert texts(sheet) == [
        "East: first Mah Jongg, hand h1: 25.",
        "East: second Mah Jongg, hand h2: 30, doubled = 60, doubled again for jokerless = 120.",
        "West threw the tile for East's second Mah Jongg: -20.",
        "West pays East the difference: 165.",
    ]
    assert sheet.totals == (145, -20)
    assert sheet.settlement == (165, -165)


def test_siamese_two_at_once() -> None:
    wins = [win(1, 25, discarder=0, ordinal=0, rack=0),
            win(1, 30, jokerless=True, discarder=0, ordinal=0, rack=1, hand_id="h2")]
    sheet = score(SIAMESE, engine_card(), EndReason.MAHJONG, wins, TWO)
    assert texts(sheet) == [
        "West: two Mah Jonggs at once, hand h1: 25, doubled = 50.",
        "West: two Mah Jonggs at once, hand h2: 30, doubled = 60, doubled again for "
        "jokerless = 120.",
        "East threw the tile for West's two Mah Jonggs at once: -20.",
        "East pays West the difference: 190.",
    ]


def test_siamese_each_player_has_a_first_mahjong() -> None:
    wins = [win(0, 25), win(1, 40, hand_id="q1")]
    sheet = score(SIAMESE, engine_card(), EndReason.WALL, wins, TWO)
    assert sheet.totals == (25, 40) and sheet.settlement == (-15, 15)
    assert texts(sheet)[-1] == "East pays West the difference: 15."


def test_siamese_wall_game() -> None:
    sheet = score(SIAMESE, engine_card(), EndReason.WALL, [], TWO)
    assert texts(sheet) == ["Wall game: the tiles ran out with no Mah Jongg. +10 to each "
                            "player.", "The scores are equal: nobody pays."]
    assert sheet.totals == (10, 10) and sheet.settlement == (0, 0)


def test_siamese_both_hands_dead() -> None:
    dead = ((False, True), (True, True))
    sheet = score(SIAMESE, engine_card(), EndReason.DEAD_HANDS, [win(0, 30)], dead)
    assert texts(sheet)[0] == ("West's two hands are both dead: East scores 4 x 30 (East's "
                               "Mah Jongg h1) = 120.")
    assert sheet.settlement == (120, -120)
    nothing = score(SIAMESE, engine_card(), EndReason.DEAD_HANDS, [], ((True, True), TWO[1]))
    assert texts(nothing)[0] == ("East's two hands are both dead: West scores 4 x 25 (the "
                                 "lowest hand on the card) = 100.")
    assert nothing.settlement == (-100, 100)


def test_siamese_jokerless_singles_and_pairs() -> None:
    sheet = score(replace(SIAMESE), engine_card(), EndReason.WALL,
                  [win(0, 35, jokerless=True, pairs=True)], TWO)
    assert sheet.totals == (35, 0)
