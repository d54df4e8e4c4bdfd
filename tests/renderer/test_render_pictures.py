"""Whole pictures: PNGs of the expected size, the same bytes for the same scene, small files,
and any player name drawn without failing."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from odd_names import ODD_NAMES
from PIL import Image

from bot.cli.render_demo import DEMOS
from bot.demo import demo_analysis, demo_rack, demo_result, demo_table
from renderer import (
    CardGroup,
    CardHand,
    CardSection,
    CardSheet,
    LaidGroup,
    Latest,
    Rack,
    RackScene,
    ResultScene,
    ResultSeat,
    SeatScene,
    TableScene,
    render_analysis,
    render_card_pages,
    render_rack,
    render_result,
    render_table,
)
from renderer.card import MAX_PAGE_RATIO
from renderer.tiles import tile_sprite

#: Every picture `jongg render-demo` writes, made from seeded games.
PICTURES: dict[str, Callable[[], tuple[bytes, ...]]] = DEMOS


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("name", PICTURES)
def test_pictures_are_deterministic_small_pngs(name: str) -> None:
    first = PICTURES[name]()
    tile_sprite.cache_clear()
    assert PICTURES[name]() == first
    for page in first:
        assert page.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(page) < 250 * 1024
        width, height = _image(page).size
        assert 300 < width <= 2000 and 200 < height < 4000


def test_fixed_width_pictures() -> None:
    assert _image(render_table(demo_table())).width == 760
    assert _image(render_table(demo_table(), scale=0.5)).width == 380
    assert _image(render_analysis(demo_analysis())).width == 760
    assert _image(render_result(demo_result())).width == 760


def test_a_full_rack_shows_about_400_pixels_wide_at_a_readable_scale() -> None:
    image = _image(render_rack(demo_rack()))
    tiles_shown = 14
    assert image.width / tiles_shown >= 64, "tiles are at least 64 px before a phone scales"
    assert image.width < 1100, "a phone at 400 px keeps tiles about 25 px wide or more"
    empty = _image(render_rack(RackScene(())))
    assert empty.width == image.width, "the rack keeps its width as tiles come and go"


def test_a_sixty_hand_card_is_cut_into_small_phone_shaped_pages() -> None:
    hands = tuple(CardHand((CardGroup("FF"), CardGroup("2026", 0), CardGroup("222", 1),
                            CardGroup("2222", 2)), 25 + i, i % 3 == 0, "Any 3 suits",
                           f"h{i}") for i in range(12))
    sheet = CardSheet("Big card", tuple(CardSection(f"Section {s}", hands) for s in range(5)),
                      notes="note " * 80)
    pages = render_card_pages(sheet)
    assert len(pages) == 5, "each twelve-hand section fills a page"
    for page in pages:
        image = _image(page)
        assert len(page) < 250 * 1024
        assert image.height <= image.width * MAX_PAGE_RATIO


@pytest.mark.parametrize("name", ODD_NAMES)
def test_any_name_renders_everywhere(name: str) -> None:
    won = (LaidGroup(("1B", "1B", "1B"), winning=1),)
    racks = (Rack((("3B", "3B", "3B"),), dead=True), Rack(mahjong=won, hand=name))
    seats = tuple(SeatScene(name, wind, 13, racks, bot=True) for wind in "ESWN")
    render_table(TableScene(seats=seats, discards=("3B",), turn=0, latest=Latest("3B", 1, 2),
                            viewer=2, title=name))
    render_rack(RackScene(("1B",), racks=racks, name=name, caption=name))
    render_result(ResultScene(seats=(ResultSeat(name, 10), ResultSeat(name, -10)), winner=0,
                              title=name, hand_label=name, caption=name, groups=won))
    render_card_pages(CardSheet(name, (CardSection(name, (CardHand((CardGroup(name),), 25,
                                                                   False, name, name),)),),
                                subtitle=name, notes=name, private=True))
