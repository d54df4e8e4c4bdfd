"""Finding Mah Jonggs on a two-rack (Siamese- or Royale-style) rack, where the concealed pool
holds up to 28 tiles.

In the two-player game a player's concealed tiles move freely between its two racks, so a rack
is a Mah Jongg when its exposures plus *some* of the pool make a card hand. The matcher's
`nearest` counts every variation against the whole pool at once (extra tiles are simply
unused), so a hand zero tiles away is reachable; its layout names the tiles used, and the
matcher's `mahjong` then confirms those exact 14 tiles. Declaring both racks at once splits the
pool in two: each rack's candidates are tried and the rest of the pool checked on the other.

Where quints and sextets must hold a joker (a Royale-style option, `RuleSet.natural_quints`
off), `with_jokered_quints` lays a plan out again with a spare joker of the pool in each
all-natural quint or sextet, or finds it cannot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.matcher import CardMatcher, Exposure, MahjongMatch, PlayerHand
from bot.engine.tiles import JOKER


@dataclass(frozen=True)
class RackWin:
    """A Mah Jongg on one rack: the matched card hand and the concealed kinds it uses."""

    rack: int
    match: MahjongMatch
    concealed: tuple[int, ...]


def exact_win(matcher: CardMatcher, rack: int, concealed: Sequence[int],
              exposures: Sequence[Exposure], hand_id: str | None = None) -> RackWin | None:
    """The best (or the named) card hand these exact tiles make on a rack, if any."""
    matches = matcher.mahjong(PlayerHand(tuple(concealed), tuple(exposures)))
    chosen = next((m for m in matches if hand_id is None or m.hand.id == hand_id), None)
    return None if chosen is None else RackWin(rack, chosen, tuple(sorted(concealed)))


def rack_wins(matcher: CardMatcher, rack: int, pool: Sequence[int],
              exposures: Sequence[Exposure]) -> list[RackWin]:
    """One Mah Jongg per card hand that some of the pool completes on this rack, best first."""
    hand = PlayerHand(tuple(pool), tuple(exposures))
    exposed = Counter(kind for exposure in exposures for kind in exposure.tiles)
    # `nearest` lists hands fewest-away first; ask for more only while all so far are wins.
    count = 1
    found = matcher.nearest(hand, count)
    while len(found) == count and found[-1].away == 0 and count < len(matcher.card.hands):
        count *= 2
        found = matcher.nearest(hand, count)
    wins: list[RackWin] = []
    for near in found:
        if near.away:
            break
        used = Counter(kind for group in near.groups for kind in group) - exposed
        win = exact_win(matcher, rack, tuple(used.elements()), exposures, near.hand.id)
        if win is not None:
            wins.append(win)
    return sorted(wins, key=lambda w: (-w.match.score_value, w.match.hand.line))


def leftover(pool: Sequence[int], used: Sequence[int]) -> tuple[int, ...]:
    """The pool without the tiles a Mah Jongg used."""
    rest = Counter(pool)
    rest.subtract(used)
    return tuple(sorted(rest.elements()))


def both_wins(matcher: CardMatcher, pool: Sequence[int],
              exposures: tuple[Sequence[Exposure], Sequence[Exposure]]
              ) -> list[tuple[RackWin, RackWin]]:
    """Ways to lay out both racks at once from the whole pool, best total first."""
    found: dict[tuple[str, str], tuple[RackWin, RackWin]] = {}
    for first in (0, 1):
        second = 1 - first
        for win in rack_wins(matcher, first, pool, exposures[first]):
            rest = leftover(pool, win.concealed)
            other = exact_win(matcher, second, rest, exposures[second])
            if other is None:
                continue
            pair = (win, other) if first == 0 else (other, win)
            key = (pair[0].match.hand.id, pair[1].match.hand.id)
            found.setdefault(key, pair)
    return sorted(found.values(), key=lambda p: (
        -(p[0].match.score_value + p[1].match.score_value),
        p[0].match.hand.line, p[1].match.hand.line))


def _natural_quints(win: RackWin) -> list[int]:
    """The kind of each concealed quint or sextet of the win made of natural tiles only."""
    return [group[0] for group, exposed in zip(win.match.groups, win.match.exposed, strict=True)
            if not exposed and len(group) >= 5 and len(set(group)) == 1 and group[0] != JOKER]


def with_jokered_quints(matcher: CardMatcher, wins: Sequence[RackWin], pool: Sequence[int],
                        exposures: Sequence[Sequence[Exposure]]) -> tuple[RackWin, ...] | None:
    """The same card hands laid out so that every quint and sextet holds a joker: one natural
    of each all-natural one goes back to the pool for a spare joker (the pool's tiles no
    win uses). None when the spare jokers do not reach. `exposures` are each rack's."""
    spare = Counter(pool)
    for win in wins:
        spare.subtract(win.concealed)
    laid: list[RackWin] = []
    for win in wins:
        kinds = _natural_quints(win)
        if not kinds:
            laid.append(win)
            continue
        if spare[JOKER] < len(kinds):
            return None
        spare[JOKER] -= len(kinds)
        used = Counter(win.concealed)
        used.subtract(kinds)
        used[JOKER] += len(kinds)
        again = exact_win(matcher, win.rack, tuple(used.elements()), exposures[win.rack],
                          win.match.hand.id)
        if again is None or _natural_quints(again):
            return None
        laid.append(again)
    return tuple(laid)
