"""The bridge from engine values to renderer scenes: built from views only, and drawable."""

from __future__ import annotations

from dataclasses import fields

import pytest

from bot.analysis import analyze
from bot.engine.game import (
    SIAMESE,
    STANDARD,
    THREE_PLAYER,
    apply,
    legal_actions,
    new_game,
    seats_to_act,
    view,
)
from bot.engine.game.rules import RuleSet
from bot.engine.game.state import GameState, Phase
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.engine.tiles import format_tile
from bot.library import shipped_card
from bot.scenes import analysis_scene, card_sheet, rack_scene, result_scene, table_scene
from renderer import (
    render_analysis,
    render_card_pages,
    render_rack,
    render_result,
    render_table,
)

CARD = shipped_card("jongg-original")


def _play(rules: RuleSet, seed: int, steps: int | None = None) -> GameState:
    """Play with the first legal option for every seat that must act."""
    state = new_game(rules, CARD, seed, ("Ann", "Bo", "Cy", "Di")[:rules.players])
    taken = 0
    while state.phase is not Phase.OVER and (steps is None or taken < steps):
        seat = seats_to_act(state)[0]
        state, _ = apply(state, legal_actions(state, seat)[0].action)
        taken += 1
    return state


def test_card_sheet_has_every_hand_with_suit_colours() -> None:
    sheet = card_sheet(CARD)
    hands = [hand for section in sheet.sections for hand in section.hands]
    assert [h.label for h in hands] == [h.id for h in CARD.hands]
    y1 = hands[0]
    assert [(g.text, g.color) for g in y1.groups] == [
        ("2026", 0), ("RRRR", None), ("GGGG", None), ("66", 1)]
    assert all(page.startswith(b"\x89PNG") for page in render_card_pages(sheet))


def test_or_hands_show_both_patterns() -> None:
    e3 = next(h for s in card_sheet(CARD).sections for h in s.hands if h.label == "e3")
    texts = [g.text for g in e3.groups]
    assert texts.count("or") == 1 and len(texts) == 9


@pytest.mark.parametrize("rules", [STANDARD, THREE_PLAYER, SIAMESE], ids=lambda r: r.name)
def test_table_scene_counts_but_never_shows_other_racks(rules: RuleSet) -> None:
    state = _play(rules, seed=11, steps=60)
    for seat in range(rules.players):
        seen = view(state, seat)
        scene = table_scene(seen, bots=[False] * rules.players)
        for index, seat_scene in enumerate(scene.seats):
            assert seat_scene.concealed_count == seen.seats[index].concealed_count
            assert len(seat_scene.racks) == rules.racks
        assert "concealed" not in {f.name for f in fields(scene.seats[0])}
        assert scene.discards == tuple(format_tile(k) for _, k in seen.discards)
        assert scene.viewer == seat
        assert render_table(scene).startswith(b"\x89PNG")


@pytest.mark.parametrize("rules", [STANDARD, SIAMESE], ids=lambda r: r.name)
def test_rack_scene_shows_the_seats_own_tiles(rules: RuleSet) -> None:
    state = _play(rules, seed=3, steps=40)
    seen = view(state, 0)
    drawn = seen.concealed[-1]
    scene = rack_scene(seen, name="Ann", drawn=drawn)
    # One pool of concealed tiles, as the game holds them (both racks' in the Siamese game).
    assert sorted((*scene.concealed, scene.drawn)) == sorted(format_tile(k)
                                                             for k in seen.concealed)
    assert scene.drawn == format_tile(drawn)
    assert len(scene.racks) == rules.racks
    assert render_rack(scene).startswith(b"\x89PNG")


def test_wall_game_result() -> None:
    state = _play(STANDARD, seed=5)
    seen = view(state, 0)
    scene = result_scene(seen, CARD, bots=[False, True, True, True])
    assert scene.winner is None and scene.title == "Wall game"
    assert [s.bot for s in scene.seats] == [False, True, True, True]
    assert render_result(scene).startswith(b"\x89PNG")


def test_result_needs_a_finished_game() -> None:
    with pytest.raises(ValueError, match="not over"):
        result_scene(view(_play(STANDARD, seed=5, steps=3), 0), CARD, bots=[False] * 4)


def test_analysis_scene_greys_what_is_missing() -> None:
    matcher = CardMatcher(CARD)
    hand = PlayerHand.parse("2026B RRRR GGG 66C")
    scene = analysis_scene(analyze(matcher, hand))
    best = scene.nearest[0]
    assert best.away == 1 and best.label.startswith("y1 ")
    missing = [code for group in best.groups for code, gone in
               zip(group.tiles, group.missing or (False,) * len(group.tiles), strict=True)
               if gone]
    assert missing == ["G"]
    assert render_analysis(scene).startswith(b"\x89PNG")


def test_analysis_scene_for_mahjong() -> None:
    scene = analysis_scene(analyze(CardMatcher(CARD), PlayerHand.parse("2026B RRRR GGGG 66C")))
    assert scene.nearest[0].away == 0 and scene.nearest[0].label.startswith("Mah Jongg: y1")
