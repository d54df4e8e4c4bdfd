"""Reading the opponents from what the table shows: the Strong bot's sense of danger.

For each opponent's live rack the reader keeps a probability over the card's variations
(concrete ways to make a hand) from what a seat can see of that opponent:

* its exposures: a variation must hold every exposed tile (an exposure fills joker-able
  places first), and once a rack has exposed, concealed hands are out;
* the tiles it could still get: what the variation still lacks must exist among the tiles
  the reading seat cannot see (its own rack is out of the opponent's reach), the natural-only
  places from naturals, the rest from naturals and the jokers left;
* its discards: every discarded tile the variation still wants makes it `DISCARD_PENALTY`
  times less likely (players keep what their hand uses);
* a flat prior over card hands, shared among each hand's variations.

How *ready* the opponent is (one tile from Mah Jongg) is judged from its exposures and how
many turns it has played (`readiness`, fitted on Normal bots' games: concealed racks are
rarely ready, one or two exposures about a sixth to a third of the time late on, three
nearly always). Waiting, its missing tile is any one of the places its variation still lacks,
so the danger of throwing a kind is the chance it completes the opponent's hand times what
feeding it costs the thrower (`feed_cost`, by the table's scoring profile), summed over the
opponents.

The same reading says which tiles the opponents are collecting (`Threat.collect`): the share
of each kind among the places their likely hands still have open. Tiles they collect sit on
their racks and will not come to the reader.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.bots.base import live_racks
from bot.engine.game.rules import Scoring
from bot.engine.game.scoring import tournament_throw_penalty
from bot.engine.game.view import ExposureView, View
from bot.engine.matcher import CARD_KINDS, CardMatcher
from bot.engine.tiles import JOKER, NUM_KINDS

FloatArray = npt.NDArray[np.float64]

#: How much less likely a variation gets for each discarded tile it still wants.
DISCARD_PENALTY = 0.2
#: What feeding a Mah Jongg costs the thrower, in multiples of the hand's value, where
#: the scoring profile charges by the value (two-rack games): what it pays, twice the value
#: and a little more for the jokerless doubling now and then.
FEED_PAYS = 2.2
#: The same under NMJL payments: the thrower pays twice the value (a little more with the
#: jokerless doubling), but a waiting hand it does not feed still wins often enough later,
#: self-picked (when every loser pays twice, the thrower too) or off another seat (once),
#: so feeding costs it about this much more than not feeding.
NMJL_FEED_NET = 1.4
#: Tiles in a hand.
HAND_TILES = 14


def readiness(exposures: int, turns: int) -> float:
    """The chance that an opponent with this many exposures, who has discarded `turns`
    times, is one tile from Mah Jongg (see the module docstring)."""
    if exposures >= 3:
        return 0.9
    if exposures == 2:
        return min(0.35, 0.1 + 0.012 * turns)
    if exposures == 1:
        return min(0.35, 0.05 + 0.015 * turns)
    return min(0.08, 0.004 * turns)


@dataclass(frozen=True, eq=False)
class _CardRows:
    """Per variation of a card: natural-only and joker-able places per kind, the value of
    its hand, whether the hand is concealed, and its prior weight."""

    natural: npt.NDArray[np.int16]
    jokerable: npt.NDArray[np.int16]
    value: FloatArray
    concealed: npt.NDArray[np.bool_]
    prior: FloatArray


_ROWS: weakref.WeakKeyDictionary[CardMatcher, _CardRows] = weakref.WeakKeyDictionary()


def _card_rows(matcher: CardMatcher) -> _CardRows:
    """The rows of a matcher's card, built once per matcher."""
    rows = _ROWS.get(matcher)
    if rows is None:
        size = len(matcher.variations)
        natural = np.zeros((size, CARD_KINDS), dtype=np.int16)
        jokerable = np.zeros_like(natural)
        for row, variation in enumerate(matcher.variations):
            for group in variation.groups:
                target = jokerable if group.jokers_ok else natural
                for kind in group.tiles:
                    target[row, kind] += 1
        hands = np.array([v.hand_index for v in matcher.variations], dtype=np.intp)
        per_hand = np.bincount(hands, minlength=len(matcher.card.hands))
        value = np.array([matcher.card.hands[i].value for i in hands.tolist()], dtype=float)
        concealed = np.array([matcher.card.hands[i].concealed for i in hands.tolist()],
                             dtype=bool)
        rows = _CardRows(natural, jokerable, value, concealed, 1.0 / per_hand[hands])
        _ROWS[matcher] = rows
    return rows


@dataclass(frozen=True)
class Threat:
    """What the opponents threaten: `danger[k]`, the points a seat expects to lose by
    throwing a tile of kind k now; and `collect[k]`, how much of the opponents' open places
    are tiles of kind k (each live rack's places sum to one)."""

    danger: tuple[float, ...]
    collect: tuple[float, ...]


def feed_cost(scoring: Scoring, values: FloatArray, exposures: int) -> FloatArray:
    """What feeding a hand of each of these values costs the thrower under a scoring
    profile, the winner showing `exposures` exposures: under NMJL payments what it pays
    beyond what the hand would likely cost it anyway (`NMJL_FEED_NET`); under the tournament
    sheet only the thrower's penalty (a winner's points take nothing from the others); in
    the two-rack games what it pays (`FEED_PAYS`)."""
    if scoring is Scoring.TOURNAMENT:
        return np.full_like(values, float(tournament_throw_penalty(exposures)))
    if scoring is Scoring.NMJL:
        return values * NMJL_FEED_NET
    return values * FEED_PAYS


def read_threat(matcher: CardMatcher, view: View, unseen: Sequence[int],
                scoring: Scoring = Scoring.NMJL) -> Threat:
    """The threat of every opponent's live racks for the seat of `view` under a scoring
    profile; `unseen` counts the tiles of each kind that seat cannot see (the wall and the
    other racks)."""
    rows = _card_rows(matcher)
    danger = np.zeros(NUM_KINDS)
    collect = np.zeros(NUM_KINDS)
    supply = np.array(unseen[:CARD_KINDS], dtype=np.int16)
    jokers = unseen[JOKER]
    for seat in view.seats:
        if seat.seat == view.seat:
            continue
        turns = len(seat.discards)
        wanted_back = np.bincount(np.array(seat.discards, dtype=np.intp),
                                  minlength=NUM_KINDS)[:CARD_KINDS]
        for rack in live_racks(view, seat.seat):
            exposed = [e for e in seat.exposures if e.rack == rack]
            found = _rack_read(rows, exposed, supply, jokers, wanted_back)
            if found is None:
                continue
            weights, lacking, values = found
            ready = readiness(len(exposed), turns)
            pays = weights * feed_cost(scoring, values, len(exposed))
            places = max(HAND_TILES - sum(len(e.tiles) for e in exposed), 1)
            danger[:CARD_KINDS] += ready * (pays @ lacking) / places
            collect[:CARD_KINDS] += (weights @ lacking) / places
    return Threat(tuple(float(d) for d in danger), tuple(float(c) for c in collect))


@dataclass(frozen=True)
class _Open:
    """The variations a set of exposures fits, with their natural-only and joker-able places
    still open per kind, what they lack in all, their values and priors."""

    natural: npt.NDArray[np.int16]
    flex: npt.NDArray[np.int16]
    lacking: npt.NDArray[np.int16]
    value: FloatArray
    prior: FloatArray


#: Exposure sets whose open variations are kept, per card (racks keep their exposures).
_OPEN_CACHE = 256
_OPEN: weakref.WeakKeyDictionary[_CardRows, dict[tuple[int, ...], _Open]] = (
    weakref.WeakKeyDictionary())


def _open_rows(rows: _CardRows, shown: tuple[int, ...]) -> _Open:
    """The variations that hold these exposed tiles per kind (concealed hands are out once
    anything is exposed); cached per card and exposed tiles."""
    cache = _OPEN.setdefault(rows, {})
    found = cache.get(shown)
    if found is None:
        exposed = np.array(shown, dtype=np.int16)
        fits = ((rows.natural + rows.jokerable) >= exposed).all(axis=1)
        if any(shown):
            fits &= ~rows.concealed
        flex = np.maximum(rows.jokerable[fits] - exposed, 0).astype(np.int16)
        natural = (rows.natural[fits] - np.maximum(exposed - rows.jokerable[fits], 0)
                   ).astype(np.int16)
        found = _Open(natural, flex, (natural + flex).astype(np.int16), rows.value[fits],
                      rows.prior[fits])
        if len(cache) >= _OPEN_CACHE:
            cache.clear()
        cache[shown] = found
    return found


def _rack_read(rows: _CardRows, exposed: Sequence[ExposureView],
               supply: npt.NDArray[np.int16], jokers: int,
               discarded: npt.NDArray[np.intp]) -> tuple[FloatArray, npt.NDArray[np.int16],
                                                         FloatArray] | None:
    """For the variations a rack can still be making (see the module docstring): their
    probabilities, what each still lacks per kind, and their values; None when none fits."""
    shown = [0] * CARD_KINDS
    for exposure in exposed:
        shown[exposure.kind] += len(exposure.tiles)
    open_rows = _open_rows(rows, tuple(shown))
    natural, flex = open_rows.natural, open_rows.flex
    fits = (natural <= supply).all(axis=1)
    short = np.maximum(flex - np.maximum(supply - natural, 0), 0).sum(axis=1)
    fits &= short <= jokers
    if not fits.any():
        return None
    lacking = open_rows.lacking[fits]
    weights = open_rows.prior[fits] * DISCARD_PENALTY ** ((lacking > 0).astype(np.intp)
                                                          @ discarded)
    return weights / weights.sum(), lacking, open_rows.value[fits]
