"""What happened: the events `apply` returns, for logs, announcements and golden tests.

Events hold the whole truth, including tiles only one seat may see (a draw, a dealt hand, the
tiles a Charleston pass brought). `for_seat(event, seat)` gives the form a seat may see:
private tiles of other seats are removed and only their count is kept. Anything shown to
players must go through it (or be built from a view).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum


class PassName(Enum):
    """The passes of the Charleston, in order, and the courtesy pass."""

    FIRST_RIGHT = "first-right"
    FIRST_ACROSS = "first-across"
    FIRST_LEFT = "first-left"
    SECOND_LEFT = "second-left"
    SECOND_ACROSS = "second-across"
    SECOND_RIGHT = "second-right"
    COURTESY = "courtesy"


class EndReason(Enum):
    """Why a game ended."""

    MAHJONG = "mahjong"
    WALL = "wall"
    DEAD_HANDS = "dead-hands"


class DeathCause(Enum):
    """Why a hand (or a Siamese rack) is dead: another seat declared it rightly, or its owner
    declared another hand dead wrongly."""

    DECLARED = "declared"
    WRONG_CALL = "wrong-call"


@dataclass(frozen=True)
class WallBuilt:
    """The wall was built from the seed and broken where the dice say (with no dice, not
    broken: dealing starts at the right end of East's wall). Under the no-walls form
    (`walls` False, no dice) the tiles lie face down in a pool instead. `wall` counts the
    tiles left to pick after the deal."""

    dice: tuple[int, ...]
    break_stack: int
    wall: int
    walls: bool = True


@dataclass(frozen=True)
class Dealt:
    """A seat's dealt tiles (private: others see only `count`)."""

    seat: int
    count: int
    kinds: tuple[int, ...] | None


@dataclass(frozen=True)
class Ready:
    """A seat made a hidden choice (a pass, a vote, an offer, a claim or a pass on a claim)."""

    seat: int


@dataclass(frozen=True)
class Passed:
    """A Charleston pass (or the courtesy pass) was carried out."""

    name: PassName


@dataclass(frozen=True)
class Received:
    """The tiles a pass brought a seat (private: others see only `count`)."""

    seat: int
    count: int
    kinds: tuple[int, ...] | None


@dataclass(frozen=True)
class VoteResult:
    """The vote after the first Charleston: stopped, or on to the second Charleston."""

    stopped: bool


@dataclass(frozen=True)
class CourtesyAgreed:
    """How many tiles each seat trades with the seat across (the smaller offer rules)."""

    counts: tuple[int, ...]


@dataclass(frozen=True)
class PlayBegins:
    """The deal (and any Charleston) is over; East plays first."""


@dataclass(frozen=True)
class Drew:
    """A seat drew from the wall (private: others see `kind=None`)."""

    seat: int
    kind: int | None


@dataclass(frozen=True)
class Discarded:
    """A seat discarded a tile, face up."""

    seat: int
    kind: int


@dataclass(frozen=True)
class Exposed:
    """A seat won the claim window and exposed the discard with tiles from its rack."""

    seat: int
    kind: int
    size: int
    jokers: int
    rack: int
    discarder: int


@dataclass(frozen=True)
class Exchanged:
    """A seat swapped a natural tile for a joker in an exposure."""

    seat: int
    kind: int
    owner: int
    group: int


@dataclass(frozen=True)
class BlankSwapped:
    """House rule: a seat swapped a blank for a tile from the discards."""

    seat: int
    kind: int


@dataclass(frozen=True)
class DeclaredDead:
    """A seat declared another seat's hand (one rack of it) dead."""

    seat: int
    target: int
    rack: int


@dataclass(frozen=True)
class HandDead:
    """A hand (one rack, in the Siamese-style game) is dead from now on."""

    seat: int
    rack: int
    cause: DeathCause


@dataclass(frozen=True)
class MahjongShown:
    """A Mah Jongg laid out on the table, group by group (jokers as `J`)."""

    seat: int
    rack: int
    hand_id: str
    groups: tuple[tuple[int, ...], ...]
    self_picked: bool
    discarder: int | None


@dataclass(frozen=True)
class ScoreLine:
    """One line of the score breakdown: points per seat and what they are for, and what it
    gives the bettor (a fifth person backing one seat, see `new_game`; 0 at a table without
    one)."""

    points: tuple[int, ...]
    text: str
    bettor: int = 0


@dataclass(frozen=True)
class GameOver:
    """The game is over: `totals` are the points per seat (the sum of the score lines),
    `settlement` what changes hands (the difference of the scores in the Siamese game),
    `bettor` what the bettor wins or loses (None at a table without one)."""

    reason: EndReason
    totals: tuple[int, ...]
    settlement: tuple[int, ...]
    bettor: int | None = None


Event = (WallBuilt | Dealt | Ready | Passed | Received | VoteResult | CourtesyAgreed
         | PlayBegins | Drew | Discarded | Exposed | Exchanged | BlankSwapped | DeclaredDead
         | HandDead | MahjongShown | ScoreLine | GameOver)


def for_seat(event: Event, seat: int) -> Event:
    """The event as `seat` may see it: another seat's private tiles are removed."""
    if isinstance(event, Dealt | Received) and event.seat != seat:
        return replace(event, kinds=None)
    if isinstance(event, Drew) and event.seat != seat:
        return replace(event, kind=None)
    return event


def public(event: Event) -> Event:
    """The event as the table (a spectator) may see it."""
    return for_seat(event, -1)
