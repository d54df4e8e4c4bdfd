"""What the renderer draws: small frozen records of plain data (strings, ints, tuples).

Callers convert their own models into these; the renderer knows nothing else. Tiles are text
codes in the project's notation (`3B`, `N`, `R`, `0`, `F`, `J`, `X`). Every record checks its
values when built, so a mistake fails where the scene is made rather than deep in drawing.

A `TableScene` holds only what any one seat may know: every seat's concealed tiles are a count
(drawn as tile backs), never codes, so a table picture cannot leak a hidden tile.
"""

from __future__ import annotations

from dataclasses import dataclass

from renderer.codes import WIND_CODES, check_code, check_codes

Tiles = tuple[str, ...]


def _count(value: object, what: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise TypeError(f"{what} must be a count (an int of 0 or more), not {value!r}")


def _seat_index(value: int | None, seats: int, what: str) -> None:
    if value is not None and not 0 <= value < seats:
        raise ValueError(f"{what} is seat {value}, but there are {seats} seats")


def _slot(value: int | None) -> None:
    if value is not None and value not in (0, 1, 2):
        raise ValueError(f"a colour slot is 0, 1, 2 or None, not {value!r}")


def _groups(groups: tuple[Tiles, ...]) -> None:
    for group in groups:
        check_codes(group)


# --- racks -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rack:
    """One rack as its owner sees it: concealed tiles (any order; drawn sorted), exposures
    above them, and the tile just drawn, shown apart at the right."""

    concealed: Tiles
    exposures: tuple[Tiles, ...] = ()
    drawn: str | None = None
    label: str = ""

    def __post_init__(self) -> None:
        check_codes(self.concealed)
        _groups(self.exposures)
        if self.drawn is not None:
            check_code(self.drawn)


@dataclass(frozen=True)
class RackScene:
    """A player's private rack picture: one rack, or two for Siamese-style games."""

    racks: tuple[Rack, ...]
    name: str = ""
    caption: str = ""

    def __post_init__(self) -> None:
        if not 1 <= len(self.racks) <= 2:
            raise ValueError(f"a rack scene has one or two racks, not {len(self.racks)}")


# --- the table ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SeatScene:
    """One seat as every player sees it: name, seat wind, how many tiles it hides on each of
    its racks, its exposures, and whether it is dead or played by a bot."""

    name: str
    wind: str = ""
    concealed_counts: tuple[int, ...] = (13,)
    exposures: tuple[Tiles, ...] = ()
    dead: bool = False
    bot: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        if self.wind and self.wind not in WIND_CODES:
            raise ValueError(f"a seat wind is one of N E W S, not {self.wind!r}")
        if not isinstance(self.concealed_counts, tuple) or not 1 <= len(
                self.concealed_counts) <= 2:
            raise TypeError("concealed_counts is a tuple of one or two counts (one per rack)")
        for count in self.concealed_counts:
            _count(count, "a concealed count")
        _groups(self.exposures)


@dataclass(frozen=True)
class CharlestonStep:
    """Where the Charleston is: a label such as "First Charleston: pass right", and the
    step number (from 1) out of all the steps."""

    label: str
    step: int
    steps: int

    def __post_init__(self) -> None:
        if not 1 <= self.step <= self.steps:
            raise ValueError(f"Charleston step {self.step} is not within 1-{self.steps}")


@dataclass(frozen=True)
class TableScene:
    """The public table: 2-4 seats in turn order, the discards oldest first (the last one is
    highlighted as the latest), the tiles left in the wall, whose turn it is, and the
    Charleston step while passing. `viewer` marks the seat the picture is for, if any."""

    seats: tuple[SeatScene, ...]
    discards: Tiles = ()
    wall: int = 0
    turn: int | None = None
    latest_by: int | None = None
    charleston: CharlestonStep | None = None
    viewer: int | None = None
    title: str = ""

    def __post_init__(self) -> None:
        if not 2 <= len(self.seats) <= 4:
            raise ValueError(f"a table has 2-4 seats, not {len(self.seats)}")
        for seat in self.seats:
            if not isinstance(seat, SeatScene):
                raise TypeError(f"seats must be SeatScene records, not {type(seat).__name__}")
        check_codes(self.discards)
        _count(self.wall, "wall")
        for value, what in ((self.turn, "turn"), (self.latest_by, "latest_by"),
                            (self.viewer, "viewer")):
            _seat_index(value, len(self.seats), what)


# --- cards -------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardGroup:
    """One group of a card line as printed (`2026`, `FFFF`, `NEWS`), with its colour slot:
    0, 1 or 2 for the hand's first, second and third suit, None for neutral (black)."""

    text: str
    color: int | None = None

    def __post_init__(self) -> None:
        _slot(self.color)


@dataclass(frozen=True)
class CardHand:
    """One line of a card: its groups, value, concealed flag, small-print note and an
    optional short label (the hand's id)."""

    groups: tuple[CardGroup, ...]
    value: int
    concealed: bool
    note: str = ""
    label: str = ""


@dataclass(frozen=True)
class CardSection:
    """A titled section of a card (`2026`, `Consecutive Run`, …) and its hands."""

    name: str
    hands: tuple[CardHand, ...]


@dataclass(frozen=True)
class CardSheet:
    """A whole card. `private` marks a server's own card, which is labelled as such."""

    title: str
    sections: tuple[CardSection, ...]
    subtitle: str = ""
    notes: str = ""
    private: bool = False


# --- hands laid out: analysis and results ------------------------------------------------

@dataclass(frozen=True)
class LaidGroup:
    """A group of tiles laid out as on the card. `missing` (same length as `tiles`, or
    empty for none) marks tiles the player does not have yet; they are drawn greyed.
    `color` is the card colour slot, shown as a bar under the group. `winning` is the place
    in the group of the tile that completed the hand, which is marked."""

    tiles: Tiles
    missing: tuple[bool, ...] = ()
    color: int | None = None
    winning: int | None = None

    def __post_init__(self) -> None:
        check_codes(self.tiles)
        if self.missing and len(self.missing) != len(self.tiles):
            raise ValueError("missing needs one flag per tile (or none at all)")
        _slot(self.color)
        if self.winning is not None and not 0 <= self.winning < len(self.tiles):
            raise ValueError(f"the winning tile is place {self.winning}, but the group has "
                             f"{len(self.tiles)} tiles")


@dataclass(frozen=True)
class NearestHand:
    """A card hand the player is close to: a label, how many tiles away, the hand laid out
    with the missing tiles marked, and an optional note."""

    label: str
    away: int
    groups: tuple[LaidGroup, ...]
    note: str = ""

    def __post_init__(self) -> None:
        _count(self.away, "away")


@dataclass(frozen=True)
class AnalysisScene:
    """A hand analysis: the player's tiles and exposures, the tiles that would complete the
    hand (`waits`), and the nearest card hands."""

    hand: Tiles
    exposures: tuple[Tiles, ...] = ()
    nearest: tuple[NearestHand, ...] = ()
    waits: Tiles = ()
    title: str = ""
    caption: str = ""

    def __post_init__(self) -> None:
        check_codes(self.hand)
        check_codes(self.waits)
        _groups(self.exposures)


@dataclass(frozen=True)
class ScoreItem:
    """One line of a score breakdown: `Hand value` `25`, `Self-drawn` `x2`."""

    label: str
    value: str


@dataclass(frozen=True)
class ResultSeat:
    """A seat at the end of a game: its name, what it won (+) or paid (-), and the hand it
    revealed, if shown."""

    name: str
    amount: int = 0
    tiles: Tiles = ()
    exposures: tuple[Tiles, ...] = ()
    dead: bool = False
    bot: bool = False

    def __post_init__(self) -> None:
        check_codes(self.tiles)
        _groups(self.exposures)


@dataclass(frozen=True)
class ResultScene:
    """The end of a game. With a `winner` (a seat index): the winning hand laid out as on
    the card with its card line and score breakdown. Without one: a wall game summary."""

    seats: tuple[ResultSeat, ...]
    winner: int | None = None
    title: str = ""
    hand_label: str = ""
    card_line: tuple[CardGroup, ...] = ()
    groups: tuple[LaidGroup, ...] = ()
    breakdown: tuple[ScoreItem, ...] = ()
    caption: str = ""

    def __post_init__(self) -> None:
        if not 1 <= len(self.seats) <= 4:
            raise ValueError(f"a result has 1-4 seats, not {len(self.seats)}")
        _seat_index(self.winner, len(self.seats), "winner")
