"""`jongg bench hints`: how long a Hint click takes for a player of two racks, on one core.

The holdings come from seeded Siamese-style and Royale-style games played by Normal bots:
seat 0's view at each of its turns, as a player asking for a hint has it (up to 28 tiles on
two racks, with its exposures). Each is timed through `hint` (the split of its tiles between
its racks, what each needs and waits for) and through the whole answer Discord sends (the
hint, its picture and the picture's words). Random 28-tile deals from a set are the search's
hardest holdings (far from every pair of hands, so many pairs must be counted before the best
is known), and are timed through the split alone.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence

from bot.analysis import hint
from bot.bench import BenchResult, Figure, ProgressCallback, Steps, percentile
from bot.bots import make_player
from bot.engine.game import (
    SIAMESE,
    Phase,
    RuleSet,
    View,
    apply,
    legal_actions,
    new_game,
    seats_to_act,
    view,
)
from bot.engine.game.rules import ROYALE
from bot.engine.matcher import matcher_for
from bot.engine.rack_split import split_racks
from bot.engine.tiles import BLANK, physical_tiles
from bot.library import DEFAULT_CARD, shipped_card
from bot.scenes import analysis_scene
from renderer import render_analysis
from renderer.alt import describe_analysis

SEED = 20261205
#: A hint answers a click: Discord waits 3 s for the first answer, and a person not much
#: more than a moment (ms).
HINT_MEDIAN_GOAL = 50
HINT_P95_GOAL = 200
ANSWER_P95_GOAL = 500
SPLIT_WORST_GOAL = 1000


def _holdings(rules: RuleSet, games: int) -> list[View]:
    """Seat 0's view at each of its turns while it has two live racks, in seeded games."""
    card = shipped_card(DEFAULT_CARD)
    found: list[View] = []
    for seed in range(SEED, SEED + games):
        state = new_game(rules, card, seed, [f"p{s}" for s in range(rules.players)])
        players = [make_player("normal", card, rules.counts, seed * 8 + s)
                   for s in range(rules.players)]
        while state.phase is not Phase.OVER:
            seat = seats_to_act(state)[0]
            seen = view(state, seat)
            if (seat == 0 and state.phase is Phase.TURN
                    and len(state.live_racks(0)) == 2):
                found.append(seen)
            state, _ = apply(state, players[seat].choose(seen, legal_actions(state, seat)))
    return found


def _timed(calls: Sequence[Callable[[], object]], tick: Steps) -> list[float]:
    """Each call's wall time in milliseconds."""
    samples = []
    for call in calls:
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
        tick()
    return samples


def _answer(rules: RuleSet, seen: View) -> None:
    """What a Hint click sends: the hint as text is in it; the picture and its words."""
    scene = analysis_scene(hint(shipped_card(DEFAULT_CARD), rules.counts, seen))
    render_analysis(scene)
    describe_analysis(scene)


def run(quick: bool = False, progress: ProgressCallback | None = None) -> BenchResult:
    """Time hints at two-rack seats of seeded games, and splits of random deals."""
    card = shipped_card(DEFAULT_CARD)
    games, deals = (1, 20) if quick else (12, 300)
    tables = ((SIAMESE, "Siamese-style"), (ROYALE, "Royale-style"))
    held = [(rules, seen) for rules, _ in tables for seen in _holdings(rules, games)]
    for rules, seen in held[:1]:
        _answer(rules, seen)  # compiles the card's ways and draws the tile sprites once
    tick = Steps(progress, 2 * len(held) + deals)
    hints = _timed([functools.partial(hint, card, rules.counts, seen) for rules, seen in held],
                   tick)
    answers = _timed([functools.partial(_answer, rules, seen) for rules, seen in held], tick)
    matcher = matcher_for(card, SIAMESE.counts)
    rng = random.Random(SEED)
    tiles = [kind for kind in physical_tiles() if kind != BLANK]
    pools = [rng.sample(tiles, 28) for _ in range(deals)]
    splits = _timed([functools.partial(split_racks, matcher, pool, {0: (), 1: ()})
                     for pool in pools], tick)
    figures = (
        Figure("two-rack hint, median", percentile(hints, 50), "ms", goal=HINT_MEDIAN_GOAL),
        Figure("two-rack hint, p95", percentile(hints, 95), "ms", goal=HINT_P95_GOAL),
        Figure("two-rack hint, max", max(hints), "ms"),
        Figure("hint with its picture, p95", percentile(answers, 95), "ms",
               goal=ANSWER_P95_GOAL),
        Figure("split of a random deal, median", percentile(splits, 50), "ms"),
        Figure("split of a random deal, p95", percentile(splits, 95), "ms"),
        Figure("split of a random deal, max", max(splits), "ms", goal=SPLIT_WORST_GOAL),
    )
    info = {
        "card": card.name,
        "holdings": f"{len(held)} turns of seat 0 with two live racks in {games} "
                    f"{' and '.join(name for _, name in tables)} games each (Normal bots)",
        "random deals": f"{deals} of 28 tiles from one set",
        "quick": quick,
    }
    return BenchResult("hints", figures, info)
