"""Text fitting: any player name is drawable and fits its box."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from odd_names import ODD_NAMES

from renderer import fonts
from renderer.fonts import Face, covers, font, font_dirs, font_path
from renderer.text import ELLIPSIS, REPLACEMENT, clean, ellipsize, fit, short, wrap


def test_fonts_are_found_in_the_checkout_first_with_their_licence() -> None:
    checkout, installed = font_dirs()
    assert checkout.name == "fonts" and checkout.parent.name == "data"
    assert installed.parts[-3:] == ("share", "jongg", "fonts")
    for face in Face:
        assert font_path(face).parent == checkout
        assert (checkout / face.licence).is_file()


def test_coverage_comes_from_the_font() -> None:
    assert covers("a") and covers("é") and covers(REPLACEMENT)
    assert not covers("山")
    assert all(covers(char, Face.TILE_GLYPHS) for char in "一二三四五六七八九萬中發東南西北")


@pytest.mark.parametrize("name", ODD_NAMES)
def test_clean_text_is_one_line_the_font_can_draw(name: str) -> None:
    text = clean(name)
    assert "\n" not in text and "\t" not in text
    assert all(covers(char) or char == " " for char in text)


def test_clean_composes_accents_and_replaces_missing_glyphs_once_per_run() -> None:
    assert clean("e\u0301te\u0301") == "été"
    assert clean("山田 Taro") == f"{REPLACEMENT} Taro"
    assert clean("a\u200db") == "ab"


@pytest.mark.parametrize("name", ODD_NAMES)
def test_fit_never_overflows(name: str) -> None:
    fitted = fit(name, 24, 180, face=Face.BOLD, min_size=16)
    assert fitted.width <= 180
    assert fitted.font.getlength(fitted.text) <= 180


def test_long_names_shrink_then_end_in_an_ellipsis() -> None:
    fitted = fit("W" * 200, 24, 200, min_size=18)
    assert fitted.text.endswith(ELLIPSIS)
    assert fitted.font.size == 18
    assert fit("Ann", 24, 200, min_size=18).font.size == 24


def test_ellipsize_handles_boxes_too_small_for_anything() -> None:
    assert ellipsize("Alice", font(20), 1) == ""


def test_short_and_wrap() -> None:
    assert short("x" * 40, 10) == "x" * 9 + ELLIPSIS
    assert short("Ann") == "Ann"
    lines = wrap("word " * 200, 16, 300, max_lines=3)
    assert len(lines) == 3 and lines[-1].endswith(ELLIPSIS)
    (line,) = wrap("word " * 200, 16, 300, max_lines=1)
    assert line.startswith("word word") and line.endswith(ELLIPSIS)
    assert all(font(16).getlength(line) <= 300 for line in lines)


def test_right_to_left_names_are_put_in_drawing_order() -> None:
    assert clean("שלום") == "םולש"
    assert clean("Dana שלום") == "Dana םולש"
    assert clean("שלום 12 עליכם") == "םכילע 12 םולש"


def test_fonts_are_found_in_an_installed_prefix_and_missing_ones_say_where_we_looked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkout = tmp_path / "checkout" / "data" / "fonts"
    installed = tmp_path / "prefix" / "share" / "jongg" / "fonts"
    installed.mkdir(parents=True)
    shutil.copy(font_path(Face.BOLD), installed)
    monkeypatch.setattr(fonts, "font_dirs", lambda: (checkout, installed))
    assert fonts.font_path.__wrapped__(Face.BOLD) == installed / Face.BOLD.value
    with pytest.raises(FileNotFoundError, match="checkout"):
        fonts.font_path.__wrapped__(Face.REGULAR)
