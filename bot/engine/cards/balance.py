"""Estimating how hard each hand of a card is, so card values can follow difficulty.

A card pays more for harder hands. "Harder" is measured here the simple way a card designer
would want it checked: deal many random 13-tile hands from a full set and ask, for every hand
on the card, how many tiles away each deal is (`CardMatcher.nearest`). A hand that random
deals usually land close to is easy; one they land far from is hard. The estimate ignores
the Charleston, calls and strategy, so it ranks hands rather than predicting win rates.

The results are plain frozen records: one per card hand, one per section, and the Spearman
rank correlation between value and mean distance (positive when values rise with
difficulty). The module does no I/O and prints nothing; a CLI can pass a progress callback.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from bot.engine.cards.model import Card
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.engine.tiles import STANDARD_COUNTS, physical_tiles

#: Tiles in a non-dealer's opening hand.
DEAL_SIZE = 13
#: A deal counts as "close" to a hand when it is this many tiles away or fewer. Random opening
#: deals are usually 7 to 12 tiles from a given hand (a shuffle is not a Charleston), so 8
#: separates the hands that deals often start near from the rest.
CLOSE_AWAY = 8
DEFAULT_DEALS = 2000
DEFAULT_SEED = 2026

#: Called as `progress(done, total)` after each deal.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class HandBalance:
    """How random deals sit against one card hand.

    `mean_away`: the average number of tiles a deal still needs for this hand (a 13-tile deal
    is at least 1 away). `close_share`: the share of deals that are `close_away` (by default
    `CLOSE_AWAY`) tiles away or better, a second view that is less sensitive to the long tail
    of hopeless deals.
    """

    hand_id: str
    section: str
    value: int
    concealed: bool
    mean_away: float
    close_share: float


@dataclass(frozen=True)
class SectionBalance:
    """The hands of one section taken together, for spotting a section priced out of line."""

    section: str
    hands: int
    min_value: int
    max_value: int
    mean_value: float
    mean_away: float
    close_share: float


@dataclass(frozen=True)
class CardBalance:
    """The whole estimate: per hand (card order), per section (card order), and the rank
    correlation between value and mean away (NaN when either is constant across the card)."""

    card_name: str
    deals: int
    seed: int
    hands: tuple[HandBalance, ...]
    sections: tuple[SectionBalance, ...]
    value_away_correlation: float


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n of `values` in ascending order; tied values share the mean of their ranks.

    Average ranks keep Spearman's coefficient fair on cards where many hands share a value
    (most cards have a handful of 25s and 30s).
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        shared = (start + end) / 2 + 1
        for position in range(start, end + 1):
            ranks[order[position]] = shared
        start = end + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation: the Pearson correlation of the two average-rank lists.

    Returns NaN when there are fewer than two pairs or either side has no spread (every value
    equal), since no ordering can be compared then. Raises `ValueError` on unequal lengths.
    """
    if len(xs) != len(ys):
        raise ValueError(f"spearman needs equal lengths, got {len(xs)} and {len(ys)}")
    if len(xs) < 2:
        return math.nan
    rx = np.array(average_ranks(xs), dtype=np.float64)
    ry = np.array(average_ranks(ys), dtype=np.float64)
    dx = rx - rx.mean()
    dy = ry - ry.mean()
    denominator = math.sqrt(float((dx * dx).sum()) * float((dy * dy).sum()))
    if denominator == 0.0:
        return math.nan
    return float((dx * dy).sum()) / denominator


def estimate_balance(
    card: Card,
    *,
    deals: int = DEFAULT_DEALS,
    seed: int = DEFAULT_SEED,
    counts: Sequence[int] = STANDARD_COUNTS,
    close_away: int = CLOSE_AWAY,
    progress: Progress | None = None,
) -> CardBalance:
    """Deal `deals` random 13-tile hands (seeded, so runs repeat exactly) and measure every
    card hand against each deal.

    `counts` is the tile set (the standard 152 tiles by default). `close_away` sets what counts
    as a close deal for `HandBalance.close_share`. `progress`, when given, is called with
    (done, total) after every deal. Raises `ValueError` when `deals` is below 1.
    """
    if deals < 1:
        raise ValueError("deals must be at least 1")
    matcher = CardMatcher(card, counts)
    tiles = physical_tiles(counts)
    rng = random.Random(seed)
    position = {hand.id: index for index, hand in enumerate(card.hands)}
    away = np.zeros((deals, len(card.hands)), dtype=np.int32)
    for deal in range(deals):
        seat = PlayerHand(tuple(rng.sample(tiles, DEAL_SIZE)))
        for near in matcher.nearest(seat, count=len(card.hands)):
            away[deal, position[near.hand.id]] = near.away
        if progress is not None:
            progress(deal + 1, deals)
    means = away.mean(axis=0)
    close = (away <= close_away).mean(axis=0)
    hands = tuple(
        HandBalance(
            hand_id=hand.id,
            section=hand.section,
            value=hand.value,
            concealed=hand.concealed,
            mean_away=float(means[index]),
            close_share=float(close[index]),
        )
        for index, hand in enumerate(card.hands)
    )
    return CardBalance(
        card_name=card.name,
        deals=deals,
        seed=seed,
        hands=hands,
        sections=summarize_sections(hands),
        value_away_correlation=spearman([h.value for h in hands], [h.mean_away for h in hands]),
    )


def summarize_sections(hands: Sequence[HandBalance]) -> tuple[SectionBalance, ...]:
    """One summary per section, in the order sections first appear; means are per hand."""
    grouped: dict[str, list[HandBalance]] = {}
    for hand in hands:
        grouped.setdefault(hand.section, []).append(hand)
    return tuple(
        SectionBalance(
            section=section,
            hands=len(members),
            min_value=min(h.value for h in members),
            max_value=max(h.value for h in members),
            mean_value=sum(h.value for h in members) / len(members),
            mean_away=sum(h.mean_away for h in members) / len(members),
            close_share=sum(h.close_share for h in members) / len(members),
        )
        for section, members in grouped.items()
    )
