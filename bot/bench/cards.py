"""`jongg bench cards`: how fast the matcher answers on our 60-hand card, on one core.

Hands are drawn with a fixed seed: winning hands built from the card's own variations (so
Mah Jongg checks find matches), their one-tile-short versions (so waits have work to do), and
random deals from a shuffled set (what a player mostly holds).
"""

from __future__ import annotations

import functools
import random
import time

from bot.bench import BenchResult, Figure, ProgressCallback, Steps, median_micros
from bot.engine.cards.examples import near_miss, winning_examples
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.engine.tiles import JOKER, physical_tiles
from bot.library import DEFAULT_CARD, shipped_card

SEED = 20261129


def _sample_hands(matcher: CardMatcher, count: int, rng: random.Random) -> tuple[
        list[PlayerHand], list[PlayerHand], list[PlayerHand]]:
    """Winners (14), their one-short versions (13), and random deals (14)."""
    variations = rng.sample(matcher.variations, min(count, len(matcher.variations)))
    winners = [
        rng.choice(examples)
        for v in variations
        if (examples := winning_examples(v, matcher.card.hands[v.hand_index]))
    ]
    short = [near_miss(w, remove=rng.choice([k for k in w.concealed if k != JOKER]))
             for w in winners if any(k != JOKER for k in w.concealed)]
    tiles = physical_tiles()
    deals = [PlayerHand(tuple(rng.sample(tiles, 14))) for _ in range(count)]
    return winners, short, deals


def run(quick: bool = False, progress: ProgressCallback | None = None) -> BenchResult:
    """Measure Mah Jongg, nearest, waits and the batch check."""
    rng = random.Random(SEED)
    card = shipped_card(DEFAULT_CARD)
    start = time.perf_counter()
    matcher = CardMatcher(card)
    compile_ms = (time.perf_counter() - start) * 1000
    count = 100 if quick else 1000
    winners, short, deals = _sample_hands(matcher, count, rng)
    mixed14 = winners + deals
    rng.shuffle(mixed14)
    mixed13 = short + [PlayerHand(d.concealed[:13]) for d in deals]
    rng.shuffle(mixed13)
    steps = len(mixed14) * 2 + len(mixed13)
    tick = Steps(progress, steps)

    mahjong_us = median_micros((functools.partial(matcher.mahjong, h) for h in mixed14),
                               tick, steps)
    nearest_us = median_micros((functools.partial(matcher.nearest, h, 5) for h in mixed14),
                               tick, steps)
    waits_us = median_micros((functools.partial(matcher.waits, h) for h in mixed13),
                             tick, steps)
    batch = mixed14 * (2 if quick else 10)
    start = time.perf_counter()
    found = matcher.winning_hands_many(batch)
    batch_rate = len(batch) / (time.perf_counter() - start)
    info = {
        "card": card.name,
        "hands": len(card.hands),
        "variations": len(matcher.variations),
        "compile_ms": round(compile_ms, 1),
        "sample": f"{len(winners)} winners, {len(short)} one-short, {len(deals)} random deals",
        "batch_hands": len(batch),
        "batch_winners": sum(1 for f in found if f),
        "quick": quick,
    }
    figures = (
        Figure("mahjong check, median", mahjong_us, "us", goal=100),
        Figure("nearest hands (5), median", nearest_us, "us", goal=1000),
        Figure("waits (13 tiles), median", waits_us, "us", goal=3000),
        Figure("whole-card check, batch", batch_rate, "hands/s", goal=20000,
               lower_is_better=False),
    )
    return BenchResult("cards", figures, info)
