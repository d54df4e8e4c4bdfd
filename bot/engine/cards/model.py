"""Cards as frozen records: a card has hands; a hand has one or more patterns of groups.

The records keep both the text a person wrote (for messages and card sheets) and the parsed
structure (for the compiler). They are built by `bot.engine.cards.parser` and never mutated.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property


class Shift(Enum):
    """How the numbers written in a hand may move.

    `NONE`: the digits are the numbers. `ANY`: all the hand's digits move together by any
    amount that keeps them in 1-9 ("any like numbers", "any 5 consecutive numbers"). `EVEN`:
    they move by even amounts only, so odd stays odd and even stays even ("any like odd").
    """

    NONE = "none"
    ANY = "any"
    EVEN = "even"


#: Symbols that stand for a numbered tile and so need a suit.
SUITED_SYMBOLS = frozenset("123456789D")
#: Every symbol a group body may hold (`Y`, the card's year, is expanded while parsing).
GROUP_SYMBOLS = frozenset("1234567890DRGFNEWS")
SUIT_VARIABLES = ("a", "b", "c")
FIXED_SUITS = {"B": 0, "C": 1, "D": 2}


@dataclass(frozen=True)
class GroupForm:
    """One way to fill a group: a body of symbols with its suit and small-print flags.

    `suit` is a suit variable (`a`, `b`, `c`), a fixed suit (`B`, `C`, `D`), or None for a
    body with no numbered tiles. `fixed_numbers` keeps the digits from shifting (years, `=`).
    """

    body: str
    suit: str | None
    fixed_numbers: bool
    no_jokers: bool
    flowers_wild: bool

    @property
    def identical(self) -> bool:
        """True when every tile of the group is the same tile (a pair, pung, kong, ...)."""
        return len(set(self.body)) == 1

    @property
    def size(self) -> int:
        """How many tiles the group holds."""
        return len(self.body)


@dataclass(frozen=True)
class Group:
    """A group of a pattern: one form, or several alternatives written `a|b`."""

    forms: tuple[GroupForm, ...]


@dataclass(frozen=True)
class Hand:
    """One line of a card.

    `patterns` holds the hand's alternatives (written `... or ...`), each a tuple of groups.
    `line` is where the hand was written, so messages can point at it.
    """

    id: str
    section: str
    text: str
    patterns: tuple[tuple[Group, ...], ...]
    value: int
    concealed: bool
    shift: Shift
    note: str
    line: int

    @cached_property
    def singles_and_pairs(self) -> bool:
        """True when no group has three or more identical tiles, so the hand can never hold a
        joker and never earns the jokerless bonus (worked out once per hand: bots ask for
        every hand they weigh)."""
        return not any(
            form.identical and form.size >= 3
            for pattern in self.patterns
            for group in pattern
            for form in group.forms
        )


@dataclass(frozen=True)
class Card:
    """A card: its name, year, notes and hands in printed order."""

    name: str
    year: int | None
    notes: str
    hands: tuple[Hand, ...]

    @property
    def sections(self) -> tuple[str, ...]:
        """Section names in the order they first appear."""
        return tuple(dict.fromkeys(hand.section for hand in self.hands))

    def hand(self, hand_id: str) -> Hand:
        """The hand with this id; `KeyError` if there is none."""
        for hand in self.hands:
            if hand.id == hand_id:
                return hand
        raise KeyError(hand_id)

    def listing(self) -> tuple[str, ...]:
        """The card as lines of text, as `jongg card show` prints it: the name and notes,
        then each section's hands (`  y1  Ya RRRR GGGG 66b  40 X  note`, X exposed, C
        concealed)."""
        lines = [self.name + (f" ({self.year})" if self.year else "")]
        if self.notes:
            lines.append(self.notes)
        width = max(len(hand.text) for hand in self.hands)
        for section in self.sections:
            lines.extend(("", f"[{section}]"))
            for hand in self.hands:
                if hand.section == section:
                    mark = "C" if hand.concealed else "X"
                    note = f"  {hand.note}" if hand.note else ""
                    lines.append(f"  {hand.id:<8} {hand.text:<{width}}  {hand.value:>3} "
                                 f"{mark}{note}")
        return tuple(lines)

    @property
    def lowest_value(self) -> int:
        """The smallest value on the card (Siamese dead-hand payments use it)."""
        return min(hand.value for hand in self.hands)
