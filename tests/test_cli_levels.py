"""Bot levels on the command line: `jongg play --bots LEVEL` seats three bots of that level
(and `--auto` lets one play the person's seat), `jongg simulate --bot LEVEL` offers the
levels with the other kinds, and a mistyped level is one line and exit 2."""

from __future__ import annotations

import json

import pytest

import bot.bots
from bot.bots import LEVELS, NormalPlayer, Player
from bot.cli.main import main
from bot.engine.cards import Card


def _counting(built: list[int]) -> bot.bots.PlayerFactory:
    """A factory of Normal bots that notes each seed it built one for."""

    def factory(card: Card, counts: object, seed: int) -> Player:
        built.append(seed)
        return NormalPlayer(card, counts, seed)  # type: ignore[arg-type]

    return factory


@pytest.mark.parametrize("level", LEVELS)
def test_play_seats_three_bots_of_the_level_asked(level: str, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    built: dict[str, list[int]] = {each: [] for each in LEVELS}
    for each in LEVELS:
        monkeypatch.setitem(bot.bots.PLAYERS, each, _counting(built[each]))
    assert main(["play", "--auto", "--seed", "3", "--bots", level]) == 0
    out = capsys.readouterr().out
    assert f"seed 3, {level.capitalize()} bots." in out
    # Three bot seats and the bot that plays the person's seat (`--auto`), all of the level.
    assert len(built[level]) == 4 and not any(built[o] for o in LEVELS if o != level)


@pytest.mark.parametrize("command", [["play"], ["play", "--auto"]], ids=" ".join)
def test_a_mistyped_level_is_one_line_and_exit_2(command: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--bots", "Hard"]) == 2
    assert capsys.readouterr().err == ("jongg: There is no bot level `Hard`. Choose one of: "
                                       "easy, normal, strong.\n")


def test_simulate_offers_the_levels_with_the_other_kinds(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--bot", "strong,easy,normal,random",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == ["strong", "easy", "normal",
                                                              "random"]
    assert main(["simulate", "--games", "1", "--bot", "hard"]) == 2
    assert capsys.readouterr().err == ("jongg: There is no bot called `hard`. Choose one of: "
                                       "easy, normal, strong, random, chaos.\n")
