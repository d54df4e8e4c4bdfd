"""`jongg play`: a whole game in the terminal through the table service, with no Discord."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main


@pytest.mark.parametrize("players", ["4", "3", "2"])
def test_auto_play_finishes_a_game(players: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    images = tmp_path / "pictures"
    assert main(["play", "--auto", "--seed", "3", "--players", players,
                 "--images", str(images)]) == 0
    out = capsys.readouterr().out
    assert "seed 3. You are East." in out
    assert "Game over" in out or "Wall game" in out or "The wall ran out" in out
    names = sorted(p.name for p in images.iterdir())
    assert any(n.endswith("-table.png") for n in names)
    assert names[-1].endswith("-result.png")


def test_a_person_plays_by_numbers_and_tile_names(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    answers = _answers()
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert main(["play", "--players", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "I don't know the tile `zz`." in out
    assert "Numbers need a suit, e.g. 99B" in out
    assert "That isn't one of the choices; try again." in out
    assert "Game over" in out or "Wall game" in out or "The wall ran out" in out


def _answers() -> Iterator[str]:
    yield "zz"      # not a tile: a friendly error, then asked again
    yield "99"      # not a choice number, and not a tile (numbers need a suit)
    yield "NNNNN"   # tiles, but not a discard or a pass on offer
    while True:
        yield "1"


def test_end_of_input_stops_cleanly(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    def no_more(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more)
    assert main(["play", "--seed", "1"]) == 0
    assert "Stopped." in capsys.readouterr().out
