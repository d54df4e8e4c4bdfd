"""Whole games: every player only ever answers with legal actions, on every table size, and
every level declares Mah Jongg whenever offered, never passes a joker, never declares a hand
dead wrongly, and plays on after a first Mah Jongg on two racks (Siamese- and Royale-style)."""

from __future__ import annotations

import pytest
from bots_support import Checked

from bot.bots import LEVELS, ChaosPlayer, make_player
from bot.bots.simulate import play_game, player_names, simulate
from bot.engine.game import SIAMESE, STANDARD, THREE_PLAYER, replay
from bot.engine.game.rules import ROYALE, ROYALE_3, RuleSet
from bot.library import shipped_card

TABLES = {"4-player": STANDARD, "3-player": THREE_PLAYER, "siamese": SIAMESE, "royale": ROYALE,
          "royale-3": ROYALE_3}


def _play(rules: RuleSet, kind: str, seed: int, card_name: str = "jongg-original") -> tuple[
        list[Checked], int, int]:
    card = shipped_card(card_name)
    players = [Checked(ChaosPlayer(seed * 8 + s)) if kind == "chaos" else
               Checked(make_player(kind, card, rules.counts, seed * 8 + s), wins_always=True)
               for s in range(rules.players)]
    names = player_names([kind] * rules.players)
    summary = play_game(rules, card, seed, players, names)
    rebuilt, _ = replay(rules, card, seed, names, summary.actions)
    assert rebuilt.result is not None and rebuilt.result.reason is summary.reason
    return players, summary.dead_wrong, len(summary.actions)


@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("seed", range(1, 13))
def test_chaos_player_only_plays_legal_actions(table: str, seed: int) -> None:
    players, _, actions = _play(TABLES[table], "chaos", seed)
    assert sum(p.answers for p in players) == actions


def test_chaos_player_passes_blind_sometimes() -> None:
    blind = sum(p.blind_passes for seed in range(1, 9)
                for p in _play(STANDARD, "chaos", seed)[0])
    assert blind > 0


def test_chaos_player_kills_hands_and_the_random_player_never_does() -> None:
    """The chaos player still walks the dead-hand corners (declarations, self-killing calls);
    the random player plays full games: every one ends by a Mah Jongg or the wall, with no
    hand dead on the way."""
    card = shipped_card("jongg-original")
    chaos = simulate(STANDARD, card, 12, "chaos", seed=3)
    assert chaos.dead_hands > 0
    for rules in TABLES.values():
        report = simulate(rules, card, 12, "random", seed=3)
        assert report.dead_hands == 0 and report.dead_hand_games == 0
        assert report.mahjong_games + report.laid_out_games + report.wall_games == 12


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("seed", [11, 12])
def test_every_level_only_plays_legal_actions_and_always_wins_when_it_can(
        level: str, table: str, seed: int) -> None:
    players, dead_wrong, actions = _play(TABLES[table], level, seed)
    assert sum(p.answers for p in players) == actions
    assert dead_wrong == 0, f"the {level} bot declared a live hand dead"


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_on_a_second_card(level: str) -> None:
    players, dead_wrong, _ = _play(STANDARD, level, 5, "jongg-teaching")
    assert dead_wrong == 0
    assert all(p.answers for p in players)
