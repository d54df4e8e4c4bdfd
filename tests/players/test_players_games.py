"""Whole games: both players only ever answer with legal actions, on every table size, and
the baseline declares Mah Jongg whenever offered, never passes a joker, never declares a hand
dead wrongly, and plays on after a first Mah Jongg on two racks (Siamese- and Royale-style)."""

from __future__ import annotations

import pytest
from players_support import Checked

from bot.engine.game import SIAMESE, STANDARD, THREE_PLAYER, replay
from bot.engine.game.rules import ROYALE, ROYALE_3, RuleSet
from bot.library import shipped_card
from bot.players import BaselinePlayer, RandomPlayer
from bot.players.simulate import play_game, player_names

TABLES = {"4-player": STANDARD, "3-player": THREE_PLAYER, "siamese": SIAMESE, "royale": ROYALE,
          "royale-3": ROYALE_3}


def _play(rules: RuleSet, kind: str, seed: int, card_name: str = "jongg-original") -> tuple[
        list[Checked], int, int]:
    card = shipped_card(card_name)
    players = [Checked(BaselinePlayer(card, rules.counts, seed * 8 + s), wins_always=True)
               if kind == "baseline" else Checked(RandomPlayer(seed * 8 + s))
               for s in range(rules.players)]
    names = player_names([kind] * rules.players)
    summary = play_game(rules, card, seed, players, names)
    rebuilt, _ = replay(rules, card, seed, names, summary.actions)
    assert rebuilt.result is not None and rebuilt.result.reason is summary.reason
    return players, summary.dead_wrong, len(summary.actions)


@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("seed", range(1, 13))
def test_random_player_only_plays_legal_actions(table: str, seed: int) -> None:
    players, _, actions = _play(TABLES[table], "random", seed)
    assert sum(p.answers for p in players) == actions


def test_random_player_passes_blind_sometimes() -> None:
    blind = sum(p.blind_passes for seed in range(1, 9)
                for p in _play(STANDARD, "random", seed)[0])
    assert blind > 0


@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_baseline_only_plays_legal_actions_and_always_wins_when_it_can(
        table: str, seed: int) -> None:
    players, dead_wrong, actions = _play(TABLES[table], "baseline", seed)
    assert sum(p.answers for p in players) == actions
    assert dead_wrong == 0, "the baseline declared a live hand dead"


def test_baseline_plays_on_a_second_card() -> None:
    players, dead_wrong, _ = _play(STANDARD, "baseline", 5, "jongg-teaching")
    assert dead_wrong == 0
    assert all(p.answers for p in players)
