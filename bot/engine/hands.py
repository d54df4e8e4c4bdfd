"""The hands the matcher reads and the answers it gives, as plain values: a player's hand
(concealed tiles and exposures, each parsed from the notation people type), a Mah Jongg
matched to a card hand, a near hand with what is missing, and a wait. `bot.engine.matcher`
does the matching; these are what goes in and out of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards.model import Hand
from bot.engine.errors import InvalidInput, echo
from bot.engine.tiles import BLANK, JOKER, format_tiles, parse_tiles, tile_name


@dataclass(frozen=True)
class Exposure:
    """An exposed pung, kong, quint or sextet: one tile kind, its size, how many are jokers."""

    kind: int
    size: int
    jokers: int = 0

    def __post_init__(self) -> None:
        if not 3 <= self.size <= 6:
            raise InvalidInput("An exposure is a pung, kong, quint or sextet (3 to 6 tiles).")
        if not 0 <= self.jokers < self.size:
            raise InvalidInput("An exposure holds at least one natural tile: the one called.")
        if self.kind in (JOKER, BLANK):
            raise InvalidInput("An exposure is made of one natural tile kind plus jokers.")

    @property
    def tiles(self) -> tuple[int, ...]:
        """The exposure's tiles, naturals first."""
        return (self.kind,) * (self.size - self.jokers) + (JOKER,) * self.jokers

    @classmethod
    def parse(cls, text: str) -> Exposure:
        """Read one exposure such as `333B`, `3B 3B J`, `NNNN` or `FF JJJ`."""
        kinds = parse_tiles(text)
        naturals = {k for k in kinds if k != JOKER}
        if len(naturals) != 1:
            several = (" Separate exposures with commas, like `333B, NNN J`."
                       if len(naturals) > 1 else "")
            raise InvalidInput(f"The exposure `{echo(text)}` must be one tile repeated, plus "
                               f"jokers (e.g. `333B` or `3B JJ`).{several}")
        return cls(naturals.pop(), len(kinds), kinds.count(JOKER))

    def __str__(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True)
class PlayerHand:
    """What one seat holds: concealed tiles (kinds) and exposures."""

    concealed: tuple[int, ...]
    exposures: tuple[Exposure, ...] = ()

    @property
    def size(self) -> int:
        """All the seat's tiles, concealed and exposed."""
        return len(self.concealed) + sum(e.size for e in self.exposures)

    @classmethod
    def parse(cls, concealed: str, exposed: str = "") -> PlayerHand:
        """Read a hand: concealed tiles in the notation, exposures separated by commas."""
        exposures = tuple(Exposure.parse(part) for part in exposed.split(",") if part.strip())
        return cls(parse_tiles(concealed), exposures)

    def __str__(self) -> str:
        shown = format_tiles(self.concealed)
        if self.exposures:
            shown += " | exposed " + ", ".join(str(e) for e in self.exposures)
        return shown


@dataclass(frozen=True)
class MahjongMatch:
    """A card hand that a 14-tile hand completes, laid out group by group.

    `groups` holds each group's tiles as played (jokers as `JOKER`), `exposed` marks groups
    filled by exposures. `score_value` is the card value, doubled when jokerless unless the
    hand is singles and pairs (the usual ordering of "best" hand).
    """

    hand: Hand
    groups: tuple[tuple[int, ...], ...]
    exposed: tuple[bool, ...]
    jokers: int
    flowers_as_jokers: int = 0

    @property
    def jokerless(self) -> bool:
        """True when nothing stands in for another tile: no joker, and no flower acting as one
        (a singles-and-pairs hand never has either)."""
        return self.jokers == 0 and self.flowers_as_jokers == 0

    @property
    def score_value(self) -> int:
        """The hand's value with the jokerless doubling applied where it applies."""
        doubled = self.jokerless and not self.hand.singles_and_pairs
        return self.hand.value * (2 if doubled else 1)


@dataclass(frozen=True)
class NearHand:
    """How far a seat is from one card hand, and what it still needs.

    `need_natural`: tiles that must be natural (singles, pairs, no-joker groups).
    `need_any`: open places in joker-able groups that the seat's jokers do not cover yet.
    `unused`: the seat's concealed tiles that do not fit this hand (discard candidates).
    `target` is the concrete hand aimed at, group by group; `groups` what the seat already
    has towards each group (jokers included).
    """

    hand: Hand
    away: int
    need_natural: tuple[int, ...]
    need_any: tuple[int, ...]
    unused: tuple[int, ...]
    target: tuple[tuple[int, ...], ...]
    groups: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Wait:
    """A tile that completes a 13-tile hand, and the card hands it completes."""

    tile: int
    hands: tuple[Hand, ...]

    def __str__(self) -> str:
        return f"{tile_name(self.tile)}: " + ", ".join(h.id for h in self.hands)
