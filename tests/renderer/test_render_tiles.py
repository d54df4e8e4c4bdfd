"""Tile art: every tile kind has its own picture, sprites are cached and sized right."""

from __future__ import annotations

import pytest

from renderer.codes import TILE_CODES, sort_tiles, tile_name
from renderer.tiles import back_sprite, tile_height, tile_sprite


@pytest.mark.parametrize("width", [24, 64])
def test_every_tile_kind_is_drawn_distinctly(width: int) -> None:
    pictures = {code: tile_sprite(code, width).tobytes() for code in TILE_CODES}
    pictures["back"] = back_sprite(width).tobytes()
    assert len(set(pictures.values())) == len(pictures) == 38


def test_dimmed_tiles_differ_from_plain_and_from_each_other() -> None:
    dimmed = {tile_sprite(code, 40, True).tobytes() for code in TILE_CODES}
    assert len(dimmed) == len(TILE_CODES)
    assert tile_sprite("5D", 40, True).tobytes() != tile_sprite("5D", 40).tobytes()


def test_sprites_have_the_tile_shape_and_are_cached() -> None:
    sprite = tile_sprite("3B", 50)
    assert sprite.size == (50, tile_height(50))
    assert sprite.mode == "RGBA"
    assert tile_sprite("3B", 50) is sprite


def test_unknown_codes_are_refused_with_the_code_named() -> None:
    with pytest.raises(ValueError, match="'3Q'"):
        tile_sprite("3Q", 40)


def test_racks_sort_suits_then_honors_flowers_jokers() -> None:
    assert sort_tiles(["J", "F", "0", "N", "1D", "9C", "2B", "R", "X", "S"]) == (
        "2B", "9C", "1D", "N", "S", "R", "0", "F", "J", "X")


def test_tile_names_for_captions() -> None:
    assert [tile_name(code) for code in ("3B", "9C", "1D", "N", "0", "R", "F", "J", "X")] == [
        "3 Bam", "9 Crak", "1 Dot", "North", "Soap", "Red", "Flower", "Joker", "Blank"]
