"""`jongg bench engine`: whole games per second through the engine, on one core.

For each table size (four players, three, and the two-player Siamese-style game) bots play
seeded games with `bot.bots.simulate`: every seat that must act builds its `View` and
chooses, and `apply` moves the game on. Random-legal games measure the engine itself (the
random player costs next to nothing, and never kills a hand, so these are full games to a Mah
Jongg or the wall); Normal games add the default bot level, which thinks with the matcher
as the table service runs it. Last, the duplicate arena (`bot.bots.arena`) plays each bot
level as the challenger against a Normal field at four players: its throughput, and each
level's decision time p95 (CPU time of one decision) against the level's goal. The card is
compiled before the clock starts. Beside the figures, the profile of a random-legal
four-player game step by step (`bot.bench.steps`): what each kind of step costs and its
share of a game; and how a Normal game's time splits between the engine and the bots, which
bounds what engine speed can give the arena.

Speed is games per second of this process's CPU time (one core; other load on the machine
does not count against it, though sharing the core's caches still slows it), the figure the
goals are set for; the wall-clock rate of the same games is reported beside it.
"""

from __future__ import annotations

import time

from bot.bench import BenchResult, Figure, ProgressCallback
from bot.bench.steps import game_split, profile_steps
from bot.bots import LEVELS
from bot.bots.arena import arena
from bot.bots.simulate import SimulationReport, simulate
from bot.engine.game import new_game
from bot.engine.game.rules import SIAMESE, STANDARD, THREE_PLAYER, RuleSet
from bot.engine.matcher import matcher_for
from bot.library import DEFAULT_CARD, shipped_card

SEED = 20261129
TABLES: tuple[tuple[str, RuleSet], ...] = (("4-player", STANDARD), ("3-player", THREE_PLAYER),
                                           ("2-player", SIAMESE))
#: Goals (four-player games per second).
RANDOM_GOAL = 200.0
NORMAL_GOAL = 20.0
#: Random-legal four-player games the step profile times, and the games of each bot level
#: whose time is split between the engine and the bots.
PROFILED_GAMES = 30
SPLIT_GAMES = {"normal": 10, "strong": 2}
#: Decision time p95 goals per bot level, in milliseconds.
DECISION_GOALS_MS = {"easy": 5.0, "normal": 5.0, "strong": 50.0}


def run(quick: bool = False, progress: ProgressCallback | None = None) -> BenchResult:
    """Random-legal and Normal games per second for each table size, and the arena's."""
    card = shipped_card(DEFAULT_CARD)
    random_games, normal_games = (6, 2) if quick else (150, 30)
    arena_seeds = 1 if quick else 10
    profiled = 2 if quick else PROFILED_GAMES
    split_games = {level: 1 if quick else games for level, games in SPLIT_GAMES.items()}
    steps = (len(TABLES) * (random_games + normal_games) + len(LEVELS) * arena_seeds
             + profiled + sum(split_games.values()))
    done = 0
    figures: list[Figure] = []
    info: dict[str, object] = {"card": card.name, "quick": quick,
                               "games": f"{random_games} random, {normal_games} Normal "
                                        "per table size"}
    for name, rules in TABLES:
        new_game(rules, card, 0, [f"p{i}" for i in range(rules.players)])  # compile the card
        matcher_for(card, rules.counts)
        for kind, games in (("random", random_games), ("normal", normal_games)):
            offset = done

            def tick(played: int, _: int, offset: int = offset) -> None:
                if progress is not None:
                    progress(offset + played, steps)

            started = time.process_time()
            report = simulate(rules, card, games, kind, SEED, progress=tick)
            rate = games / max(time.process_time() - started, 1e-9)
            done += games
            is_four = rules.players == 4
            goal = (RANDOM_GOAL if kind == "random" else NORMAL_GOAL) if is_four else None
            label = "random-legal" if kind == "random" else "Normal"
            figures.append(Figure(f"{label} {name} games per CPU-second", rate, "games/s",
                                  goal, lower_is_better=False))
            figures.append(Figure(f"{label} {name} games per second (wall clock)",
                                  report.games_per_second, "games/s", None,
                                  lower_is_better=False))
            info[f"{kind} {name}"] = _summary(report)
    for level in LEVELS:
        offset = done

        def tick_arena(played: int, _: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + played, steps)

        started = time.process_time()
        duel = arena(STANDARD, card, level, "normal", arena_seeds, SEED, progress=tick_arena)
        done += arena_seeds
        figures.append(Figure(f"arena 4-player games ({level} vs normal)",
                              duel.games / max(time.process_time() - started, 1e-9), "games/s",
                              None, lower_is_better=False))
        figures.append(Figure(f"{level} decision p95", duel.challenger.decision_p95_ms, "ms",
                              DECISION_GOALS_MS[level]))
        info[f"arena {level}"] = (f"{duel.games} games, {duel.games_per_second:.1f} games/s "
                                  f"wall clock, decision p50 "
                                  f"{duel.challenger.decision_p50_ms:.2f} ms")
    costs = profile_steps(STANDARD, card, profiled, SEED)
    game_us = game_split(costs).engine_ms * 1e3
    info["step profile"] = (f"random-legal 4-player, {profiled} games: {game_us / 1e3:.2f} ms "
                            f"of engine a game, {sum(c.per_game for c in costs):.0f} steps")
    info.update((f"step {cost.name}", cost.text(game_us)) for cost in costs)
    done += profiled
    profiles = {"random": (profiled, costs)}
    for level, games in split_games.items():
        profiles[level] = (games, profile_steps(STANDARD, card, games, SEED, level))
        done += games
        if progress is not None:
            progress(done, steps)
    for kind, (games, profile) in profiles.items():
        split = game_split(profile)
        info[f"game split {kind} 4-player"] = (
            f"{games} games: engine {split.engine_ms:.2f} ms, players {split.players_ms:.2f} "
            f"ms a game; an engine that cost nothing would make them at most "
            f"{split.free_engine_speedup:.2f}x faster")
    if progress is not None:
        progress(steps, steps)
    return BenchResult("engine", tuple(figures), info)


def _summary(report: SimulationReport) -> str:
    return (f"{report.games_per_second:.1f} games/s wall clock, "
            f"{report.mean_actions:.0f} actions/game, {report.mean_turns:.0f} turns, "
            f"{report.mahjong_games} Mah Jongg / {report.laid_out_games} laid out / "
            f"{report.wall_games} wall / "
            f"{report.dead_hand_games} dead-hand endings")
