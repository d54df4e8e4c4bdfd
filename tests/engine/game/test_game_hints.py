"""Hints at a seat of a game (`bot.analysis.hint`, the text of Discord's Hint button and the
terminal's `hint`, and its picture): a player of two racks is told which tiles go to which
rack, and no hint names a tile that can no longer come as a way to fill a place."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from game_helpers import act, position

from bot.analysis import analyze, format_analysis, hint, read_hand
from bot.engine.game import view
from bot.engine.game.rules import ROYALE, SIAMESE, STANDARD
from bot.engine.game.state import GameState
from bot.engine.matcher import matcher_for
from bot.library import shipped_card
from bot.scenes import analysis_scene
from renderer import render_analysis
from renderer.alt import describe_analysis

CARD = shipped_card()
#: Siamese-style: the single nearest hand of these 28 tiles (w1, complete) leaves the rest 6
#: away; split between the racks they are l2 and w1, one away each (see test_rack_split.py).
GREEDY_WORSE = "7777B 6666777C 777D WWWW RRR GG 000 9B 1D"
WEST_27 = "1111B 2222B 3333B 4444B 1C 2C 3C 4C 5C 8C 9C 9D 8D 2D 3D"
# East holds every 3 Dot and three 3 Craks: q1 laid out as FFF 33333C 33B 3333D.
EAST_Q1 = "FFF 3333D 33B 333C 9B"
SOUTH_3C = "1111C 2222C 4444C 5C 3C"
OTHERS = ("5555B 6666B 7777B 8B", "5555D 6666D 7777D 8D")


def siamese(east: str, west: str = WEST_27, **kwargs: Any) -> GameState:
    return position(SIAMESE, (east, west), card=CARD, **kwargs)


def test_a_two_rack_hint_says_which_tiles_go_to_which_rack() -> None:
    text = format_analysis(hint(CARD, SIAMESE.counts, view(siamese(GREEDY_WORSE), 0)))
    assert text.splitlines() == [
        "Hand: 77779B 6666777C 1777D WWWW RRR GG 000  (28 tiles on two racks, card: "
        "Jongg Original)",
        "Your two racks, 2 away together:",
        "  Rack 1: 1 away  l2 (Any Like Numbers, 35, exposed): 777C  777D  7777B  RRRR",
        "           keep 7777B 777C 777D RRR; need R or jokers",
        "           waiting for: Red (l2); Joker (l2)",
        "  Rack 2: 1 away  w1 (Winds & Dragons, 30, exposed): WWWW  GGG  000  6666C",
        "           keep 6666C WWWW GG 000; need G or jokers",
        "           waiting for: Green (w1); Joker (w1)",
        "  Neither rack (discard candidates): 9B 1D",
    ]


def test_a_rack_keeps_its_own_exposures() -> None:
    tiles = GREEDY_WORSE.replace("WWWW ", "")
    state = siamese(tiles, exposures={0: [(1, "WWWW")]})
    text = format_analysis(hint(CARD, SIAMESE.counts, view(state, 0)))
    assert text.startswith("Hand: 77779B 6666777C 1777D RRR GG 000 | exposed WWWW  (28 tiles on "
                           "two racks, card: Jongg Original)")
    assert "  Rack 2: 1 away  w1 (Winds & Dragons, 30, exposed): WWWW  GGG  000  6666C" in text
    assert "           keep 6666C GG 000 (exposed WWWW); need G or jokers" in text
    assert "  Rack 1: 1 away  l2 (Any Like Numbers, 35, exposed)" in text


def test_a_royale_hint_splits_a_quint_hand_from_a_pairs_hand() -> None:
    east = "EEEEE 7777B 7777C J NN EE WW SS 00 RR GG"
    others = ("1111B 2222B 3333B 4444B 5555B 6666B 99B 1C",
              "1111D 2222D 3333D 4444D 5555D 6666D 99D 7D",
              "1111C 2222C 3333C 4444C 5555C 6666C 99C 7C")
    state = position(ROYALE, (east, *others), card=CARD)
    found = hint(CARD, ROYALE.counts, view(state, 0))
    assert found.split is not None
    assert [(p.near.hand.id, p.near.away) for p in found.split.plans] == [("p1", 0), ("q2", 0)]
    text = format_analysis(found)
    assert "  Rack 1: Mah Jongg  p1 (Singles & Pairs, 65, concealed)" in text
    assert "  Rack 2: Mah Jongg  q2 (Quints, 45, exposed): EEEEE  7777B  77777C" in text
    assert "Neither rack" not in text


def test_with_one_rack_dead_the_hint_is_for_the_other_rack_alone() -> None:
    state = siamese(GREEDY_WORSE.replace("WWWW ", ""), exposures={0: [(0, "WWWW")]})
    east = state.seats[0]
    state = replace(state, seats=(replace(east, dead=(True, False)), state.seats[1]))
    found = hint(CARD, SIAMESE.counts, view(state, 0))
    assert found.split is None and not found.hand.exposures
    text = format_analysis(found)
    assert "Note: Only rack 2 can still win: the nearest hands for it from all your tiles." in text
    assert "this one has" not in text
    assert text.splitlines()[:4] == [
        "Hand: 77779B 6666777C 1777D RRR GG 000  (24 tiles, card: Jongg Original)",
        "Note: Only rack 2 can still win: the nearest hands for it from all your tiles.",
        "Nearest hands:",
        "  1 away  l2 (Any Like Numbers, 35, exposed): 777C  777D  7777B  RRRR"]


# -- what can still come ---------------------------------------------------------------------


def test_a_tile_held_in_every_copy_is_needed_as_a_joker() -> None:
    # q1's quint of 3 Craks needs a fifth; the hand holds all four.
    found = analyze(matcher_for(CARD), read_hand("FFF 3333D 33B 3333C"))
    text = format_analysis(found)
    assert "  1 away  q1 (Quints, 35, exposed): FFF  33333C  33B  3333D" in text
    assert "           need a joker for 3C (no more 3C can come)" in text
    assert "3C or jokers" not in text
    notes = [near.note for near in analysis_scene(found).nearest]
    assert notes[0] == "need a joker for 3C (no more 3C can come)"


def test_a_tile_face_up_on_the_table_can_not_come_but_the_one_on_offer_can() -> None:
    state = position(STANDARD, (EAST_Q1, SOUTH_3C, *OTHERS), card=CARD, turn=1)
    state, _ = act(state, "South: discard 3C")
    # The 3 Crak just thrown can still be called: the quint needs 3C or a joker, and then
    # (every copy counted) a joker.
    offered = format_analysis(hint(CARD, STANDARD.counts, view(state, 0)))
    assert ("           need 3C or jokers; need a joker for 3C (no more 3C can come); "
            "not used: 9B") in offered
    state, _ = act(state, "East: pass", "West: pass", "North: pass")
    passed = format_analysis(hint(CARD, STANDARD.counts, view(state, 0)))
    assert "need 2 jokers for 33C (no more 3C can come); not used: 9B" in passed
    assert "3C or jokers" not in passed


def test_a_natural_only_place_whose_tile_is_gone_is_said_so() -> None:
    # p1 is all pairs (no jokers): with the other three Greens thrown, its pair of Greens
    # can't be finished.
    state = position(STANDARD, ("NN EE WW SS 00 RR G 9B", "1111C 2222C 4444C 5C", *OTHERS),
                     card=CARD, discards=[(1, "G"), (2, "G"), (3, "G")])
    text = format_analysis(hint(CARD, STANDARD.counts, view(state, 0)))
    assert ("  1 away  p1 (Singles & Pairs, 65, concealed): NN  EE  WW  SS  00  RR  GG\n"
            "           need G, which can't come any more; not used: 9B") in text


def test_two_racks_share_the_copies_still_to_come() -> None:
    # One 5 Bam is face up and the pool holds two: one more can come, for a4's pung on the
    # first rack; r1's pung of 5 Bams on the second rack then needs jokers.
    east = "55B 222B 777C 777D GG 333B 44C 66C 7777B 9D 1D N S"
    state = siamese(east, "1111C 2222C 3333C 5555C 8888C 9999C 22D 3D",
                    discards=[(1, "5B")])
    text = format_analysis(hint(CARD, SIAMESE.counts, view(state, 0)))
    assert "           keep 22255B 777C 777D GG; need 5B or jokers" in text
    assert "           keep 3337777B 4466C; need 3 jokers for 555B (no more 5B can come)" in text


# -- the picture -----------------------------------------------------------------------------


def test_the_picture_shows_both_racks_plans() -> None:
    found = hint(CARD, SIAMESE.counts, view(siamese(GREEDY_WORSE), 0))
    scene = analysis_scene(found)
    assert scene.heading == "Your two racks"
    assert [(near.label, near.away, near.note) for near in scene.nearest] == [
        ("Rack 1: l2 · Any Like Numbers · 35 · exposed", 1,
         "need R or jokers; waiting for R J"),
        ("Rack 2: w1 · Winds & Dragons · 30 · exposed", 1,
         "need G or jokers; waiting for G J"),
    ]
    # Each rack's hand is laid out with the tiles it keeps in place and the rest greyed.
    kept = [[(g.tiles, g.missing) for g in near.groups] for near in scene.nearest]
    assert kept[0][-1] == (("R", "R", "R", "R"), (False, False, False, True))
    assert kept[1][0] == (("W", "W", "W", "W"), (False, False, False, False))
    assert scene.spare == ("9B", "1D")
    assert scene.caption == "28 tiles on two racks against Jongg Original, 2 away together"
    assert render_analysis(scene).startswith(b"\x89PNG")
    words = describe_analysis(scene)
    assert "Rack 1: l2" in words and "Rack 2: w1" in words
    assert "Neither rack uses (discard candidates): 9 Bam, 1 Dot." in words


@pytest.mark.parametrize("rack", [0, 1])
def test_the_picture_names_a_racks_exposures(rack: int) -> None:
    state = siamese(GREEDY_WORSE.replace("WWWW ", ""), exposures={0: [(rack, "WWWW")]})
    scene = analysis_scene(hint(CARD, SIAMESE.counts, view(state, 0)))
    shown = scene.nearest[rack]
    assert shown.label.startswith(f"Rack {rack + 1}: w1")
    assert shown.note.startswith("exposed W W W W; ")
