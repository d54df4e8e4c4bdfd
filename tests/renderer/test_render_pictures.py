"""Whole pictures: PNGs of the expected size, the same bytes for the same scene, small files,
and any player name drawn without failing."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from odd_names import ODD_NAMES
from PIL import Image

from bot.commands.render_demo import (
    DEMOS,
    demo_analysis,
    demo_rack,
    demo_result,
    demo_table,
)
from renderer import (
    TILE_CODES,
    CardGroup,
    CardHand,
    CardSection,
    CardSheet,
    Rack,
    RackScene,
    ResultScene,
    ResultSeat,
    SeatScene,
    TableScene,
    render_analysis,
    render_card,
    render_rack,
    render_result,
    render_table,
)
from renderer.tiles import tile_sprite

#: Every picture `jongg render-demo` writes, made from seeded games.
PICTURES: dict[str, Callable[[], bytes]] = DEMOS


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("name", PICTURES)
def test_pictures_are_deterministic_small_pngs(name: str) -> None:
    first = PICTURES[name]()
    tile_sprite.cache_clear()
    assert PICTURES[name]() == first
    assert first.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(first) < 250 * 1024
    width, height = _image(first).size
    assert 300 < width <= 2000 and 200 < height < 4000


def test_fixed_width_pictures() -> None:
    assert _image(render_table(demo_table())).width == 960
    assert _image(render_table(demo_table(), scale=0.5)).width == 480
    assert _image(render_analysis(demo_analysis())).width == 920
    assert _image(render_result(demo_result())).width == 920


def test_a_full_rack_shows_about_400_pixels_wide_at_a_readable_scale() -> None:
    image = _image(render_rack(demo_rack()))
    tiles_shown = 14
    assert image.width / tiles_shown >= 64, "tiles are at least 64 px before a phone scales"
    assert image.width < 1100, "a phone at 400 px keeps tiles about 25 px wide or more"
    empty = _image(render_rack(RackScene((Rack(()),))))
    assert empty.width == image.width, "the rack keeps its width as tiles come and go"


def test_more_discards_make_a_taller_table_not_a_wider_one() -> None:
    few = _image(render_table(demo_table()))
    rng = random.Random(1)
    many = TableScene(seats=demo_table().seats,
                      discards=tuple(rng.choice(TILE_CODES) for _ in range(120)), wall=0)
    crowded = _image(render_table(many))
    assert crowded.width == few.width and crowded.height > few.height


def test_a_sixty_hand_card_stays_small() -> None:
    hands = tuple(CardHand((CardGroup("FF"), CardGroup("2026", 0), CardGroup("222", 1),
                            CardGroup("2222", 2)), 25 + i, i % 3 == 0, "Any 3 suits",
                           f"h{i}") for i in range(12))
    sheet = CardSheet("Big card", tuple(CardSection(f"Section {s}", hands) for s in range(5)),
                      notes="note " * 80)
    for columns in (1, 2, 3):
        assert len(render_card(sheet, columns=columns)) < 250 * 1024


@pytest.mark.parametrize("name", ODD_NAMES)
def test_any_name_renders_everywhere(name: str) -> None:
    seats = tuple(SeatScene(name, wind, (13,), bot=True, dead=True, note=name)
                  for wind in "ESWN")
    render_table(TableScene(seats=seats, discards=("3B",), turn=0, latest_by=1, viewer=2,
                            title=name))
    render_rack(RackScene((Rack(("1B",), label=name),), name=name, caption=name))
    render_result(ResultScene(seats=(ResultSeat(name, 10), ResultSeat(name, -10)), winner=0,
                              title=name, hand_label=name, caption=name))
    render_card(CardSheet(name, (CardSection(name, (CardHand((CardGroup(name),), 25, False,
                                                             name, name),)),),
                          subtitle=name, notes=name, private=True))
