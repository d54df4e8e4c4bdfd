"""What the renderer draws: small frozen records of plain data (strings, ints, tuples).

Callers convert their own models into these; the renderer knows nothing else. Tiles are text
codes in the project's notation (`3B`, `N`, `R`, `0`, `F`, `J`, `X`). Every record checks its
values when built, so a mistake fails where the scene is made rather than deep in drawing.

A `TableScene` holds only what any one seat may know: every seat's concealed tiles are a count
(drawn as tile backs), never codes, so a table picture cannot leak a hidden tile.

A seat has one or two racks (two in the Siamese-style game). Its concealed tiles are one pool,
as the game holds them: in the Siamese game they serve either rack. What belongs to a rack is
what lies face up on it (`Rack`): its exposures, or the Mah Jongg laid out on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from renderer.codes import WIND_CODES, check_code, check_codes

Tiles = tuple[str, ...]
#: The suit letters a card group may carry: suits of the player's choice, then fixed suits.
SUIT_MARKS = ("a", "b", "c", "B", "C", "D")


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
    """What one rack shows face up, to everyone: its exposures, or the Mah Jongg laid out on
    it (`mahjong`, group by group, named by `hand`), and whether it is dead."""

    exposures: tuple[Tiles, ...] = ()
    mahjong: tuple[LaidGroup, ...] = ()
    hand: str = ""
    dead: bool = False

    def __post_init__(self) -> None:
        _groups(self.exposures)


def _racks(racks: tuple[Rack, ...]) -> None:
    if not 1 <= len(racks) <= 2:
        raise ValueError(f"a seat has one or two racks, not {len(racks)}")
    for rack in racks:
        if not isinstance(rack, Rack):
            raise TypeError(f"racks must be Rack records, not {type(rack).__name__}")


@dataclass(frozen=True)
class RackScene:
    """A player's private rack picture: the concealed tiles (any order; drawn sorted, the
    tile just drawn shown apart at the right), then what each of the player's racks shows
    face up (one rack, or two in the Siamese-style game)."""

    concealed: Tiles
    drawn: str | None = None
    racks: tuple[Rack, ...] = (Rack(),)
    name: str = ""
    caption: str = ""

    def __post_init__(self) -> None:
        check_codes(self.concealed)
        if self.drawn is not None:
            check_code(self.drawn)
        _racks(self.racks)


# --- the table ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SeatScene:
    """One seat as every player sees it: name, seat wind, how many concealed tiles it holds
    (one pool, whatever its number of racks), what each of its racks shows, and whether a
    bot plays it."""

    name: str
    wind: str = ""
    concealed_count: int = 13
    racks: tuple[Rack, ...] = (Rack(),)
    bot: bool = False

    def __post_init__(self) -> None:
        if self.wind and self.wind not in WIND_CODES:
            raise ValueError(f"a seat wind is one of N E W S, not {self.wind!r}")
        _count(self.concealed_count, "concealed_count")
        _racks(self.racks)

    @property
    def dead(self) -> bool:
        """True when every rack of the seat is dead."""
        return all(rack.dead for rack in self.racks)


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
class Latest:
    """The last tile thrown: its code, the seat that threw it, and the seat that called it
    (`taken_by`; it then lies on that seat's rack, not on the discards), and whether that
    call was for Mah Jongg (`mahjong`)."""

    code: str
    by: int
    taken_by: int | None = None
    mahjong: bool = False

    def __post_init__(self) -> None:
        check_code(self.code)


@dataclass(frozen=True)
class TableScene:
    """The public table: 2-4 seats in turn order, the discards oldest first, the tiles left
    in the wall, the last tile thrown, and whose turn it is: `turn` is the seat to play, or,
    while `calls_open` (the latest discard may still be called), the seat that plays next if
    nobody calls. `charleston` is the step while passing; `over` says the game has ended;
    `viewer` marks the seat the picture is for, if any."""

    seats: tuple[SeatScene, ...]
    discards: Tiles = ()
    wall: int = 0
    turn: int | None = None
    latest: Latest | None = None
    calls_open: bool = False
    charleston: CharlestonStep | None = None
    over: bool = False
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
        indexes = [(self.turn, "turn"), (self.viewer, "viewer")]
        if self.latest is not None:
            indexes += [(self.latest.by, "latest.by"), (self.latest.taken_by, "latest taker")]
        for value, what in indexes:
            _seat_index(value, len(self.seats), what)


# --- cards -------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardGroup:
    """One group of a card line as printed (`2026`, `FFFF`, `NEWS`), with its colour slot:
    0, 1 or 2 for the hand's first, second and third suit, None for neutral (black), and its
    suit letter (`suit`: `a` `b` `c` for a suit of the player's choice, `B` `C` `D` for Bams,
    Craks, Dots; "" for none), printed small after the group so suits never rest on colour
    alone."""

    text: str
    color: int | None = None
    suit: str = ""

    def __post_init__(self) -> None:
        _slot(self.color)
        if self.suit not in ("", *SUIT_MARKS):
            raise ValueError(f"a group's suit letter is one of {' '.join(SUIT_MARKS)}, "
                             f"not {self.suit!r}")


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
    hand (`waits`), and the nearest card hands under `heading`. For a player of two racks
    the hands are one per rack, and `spare` holds the tiles neither rack uses."""

    hand: Tiles
    exposures: tuple[Tiles, ...] = ()
    nearest: tuple[NearestHand, ...] = ()
    waits: Tiles = ()
    title: str = ""
    caption: str = ""
    heading: str = "Nearest hands"
    spare: Tiles = ()

    def __post_init__(self) -> None:
        check_codes(self.hand)
        check_codes(self.waits)
        check_codes(self.spare)
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
