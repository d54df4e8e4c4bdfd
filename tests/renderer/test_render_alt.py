"""Alt text says what each picture shows, in words a screen reader can read out: a rack's tiles
by name, the table's state with hidden tiles as counts only, the result, every card page;
and it fits Discord's limit on an attachment's description."""

from __future__ import annotations

import pytest
from gallery import GAMES, moments

from bot.engine.game import RuleSet, spectator_view
from bot.library import shipped_card
from bot.scenes import card_sheet, table_scene
from renderer import (
    Latest,
    Rack,
    RackScene,
    SeatScene,
    TableScene,
    render_card_pages,
)
from renderer.alt import (
    ALT_LIMIT,
    describe_card_pages,
    describe_rack,
    describe_table,
    tiles_text,
)


def test_a_rack_is_said_tile_by_tile_with_the_drawn_tile_and_exposures() -> None:
    scene = RackScene(("3B", "R", "1D", "3B"), drawn="0", name="Alice",
                      racks=(Rack(exposures=(("N", "N", "J"),)), Rack()),
                      caption="Your turn.")
    assert describe_rack(scene) == (
        "Alice's rack: 4 concealed tiles: 3 Bam, 3 Bam, 1 Dot, Red. Just drawn: Soap. "
        "Your 5 concealed tiles serve both racks. Rack 1: Exposed: North, North, Joker. "
        "Rack 2: No exposures. Your turn.")


@pytest.mark.parametrize(("rules", "seed"), GAMES[:3], ids=lambda v: getattr(v, "name", v))
def test_the_table_is_said_from_what_it_shows(rules: RuleSet, seed: int) -> None:
    for moment in moments(rules, seed).values():
        seen = spectator_view(moment.state)
        scene = table_scene(seen, bots=(False,) * len(seen.seats), title="Table 3")
        alt = describe_table(scene)
        assert alt.startswith(f"{scene.title}.") and f"{scene.wall} tiles in the wall" in alt
        for seat in scene.seats:
            assert f"{seat.name} (" in alt
            assert f"{seat.concealed_count} hidden tile" in alt
        if scene.discards and not alt.endswith("…"):
            assert alt.endswith(f"Discards ({len(scene.discards)}): "
                                f"{tiles_text(scene.discards, counted=True)}.")


def test_repeated_discards_are_counted_in_words() -> None:
    assert tiles_text(("J", "3B", "R", "3B", "R", "R"), counted=True) == (
        "3 Bam twice, Red 3 times, Joker")
    assert tiles_text(("J", "3B")) == "Joker, 3 Bam"


def test_the_latest_tile_and_whose_turn_are_said() -> None:
    scene = TableScene((SeatScene("Ann", "E", bot=True), SeatScene("Bo", "S")),
                       discards=("5C",), wall=40, turn=1, latest=Latest("5C", 0),
                       calls_open=True, viewer=1)
    assert describe_table(scene) == (
        "The table. Bo plays next. Ann discarded 5 Crak: calls are open. 40 tiles in the wall. "
        "Ann (East, bot): 13 hidden tiles; No exposures. Bo (South, next, you): 13 hidden "
        "tiles; No exposures. Discards (1): 5 Crak.")


def test_alt_text_fits_discords_limit_on_a_description() -> None:
    long_name = "Zoë-Ångström and her very long name " * 6
    seats = tuple(SeatScene(long_name + wind, wind, racks=(Rack(exposures=(("F",) * 6,) * 3),))
                  for wind in "ESWN")
    alt = describe_table(TableScene(seats, discards=tuple(["1B", "2C", "3D"] * 30), wall=9))
    assert len(alt) == ALT_LIMIT and alt.endswith("…")


@pytest.mark.parametrize("name", ["jongg-original", "jongg-teaching"])
def test_every_card_page_is_said_with_its_hands(name: str) -> None:
    sheet = card_sheet(shipped_card(name))
    alts = describe_card_pages(sheet)
    assert len(alts) == len(render_card_pages(sheet))
    for number, alt in enumerate(alts, start=1):
        assert alt.startswith(f"{sheet.title}. Page {number} of {len(alts)}.")
    said = " ".join(alts)
    for section in sheet.sections:
        assert f"{section.name}: " in said

