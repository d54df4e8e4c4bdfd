"""What a seat can do: one small frozen record per kind of action, and the options offered.

Actions name tile *kinds* (`Discard(seat, 3B)`); the engine picks the physical tiles (always the
lowest id of a kind), so logs stay readable and replays exact. Racks and exposure groups are
0-based here and 1-based in the text form (see `bot.engine.game.action_text`).

`legal_actions` answers with `Option`s: a concrete `action` that is legal as it stands, plus,
where the seat picks tiles (Charleston and courtesy passes), a `TileChoice` saying what may be
picked instead. `apply` validates any concrete action on its own, so a UI may build one from
the choice.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Exposure names by size. Sextets are offered only when the card has a sextet.
GROUP_NAMES = {3: "pung", 4: "kong", 5: "quint", 6: "sextet"}
GROUP_SIZES = {name: size for size, name in GROUP_NAMES.items()}


@dataclass(frozen=True)
class Give:
    """Charleston or courtesy pass: `kinds` from the seat's own rack, plus `blind` tiles
    forwarded unseen from the pass coming to the seat (blind passes only)."""

    seat: int
    kinds: tuple[int, ...]
    blind: int = 0


@dataclass(frozen=True)
class Vote:
    """After the first Charleston: `stop=True` stops the Charleston (any one stop is enough)."""

    seat: int
    stop: bool


@dataclass(frozen=True)
class Offer:
    """Courtesy pass: how many tiles (0-3) the seat would trade with the seat across."""

    seat: int
    count: int


@dataclass(frozen=True)
class Discard:
    """Discard one tile of this kind (jokers too; a discarded joker is dead)."""

    seat: int
    kind: int


@dataclass(frozen=True)
class Call:
    """Claim the discard for an exposure of `size` tiles of its kind, `jokers` of them from
    the seat's rack; `rack` picks the rack in the Siamese-style game."""

    seat: int
    kind: int
    size: int
    jokers: int = 0
    rack: int = 0


@dataclass(frozen=True)
class Pass:
    """Let the discard go (answering the claim window without a claim)."""

    seat: int


@dataclass(frozen=True)
class Exchange:
    """Swap a natural tile of `kind` from the rack for a joker in exposure `group` of `owner`."""

    seat: int
    kind: int
    owner: int
    group: int


@dataclass(frozen=True)
class DeclareDead:
    """Declare another seat's hand (rack `rack` of it) dead, judged from what is visible."""

    seat: int
    target: int
    rack: int = 0


@dataclass(frozen=True)
class Mahjong:
    """Declare Mah Jongg on the seat's own turn.

    In the Siamese-style game `rack` names the rack the hand is laid out on, `both` declares both
    racks at once, `hands` may name the card hand(s) wanted (in rack order) and `tiles` may name
    the concealed tiles used for the (first) rack; left empty, the engine chooses the best.
    """

    seat: int
    rack: int = 0
    both: bool = False
    hands: tuple[str, ...] = ()
    tiles: tuple[int, ...] = ()


@dataclass(frozen=True)
class CallMahjong:
    """Claim the discard for Mah Jongg (same fields as `Mahjong`)."""

    seat: int
    rack: int = 0
    both: bool = False
    hands: tuple[str, ...] = ()
    tiles: tuple[int, ...] = ()


@dataclass(frozen=True)
class SwapBlank:
    """House rule: swap a blank from the rack for a natural tile of `kind` in the discards."""

    seat: int
    kind: int


Action = (Give | Vote | Offer | Discard | Call | Pass | Exchange | DeclareDead | Mahjong
          | CallMahjong | SwapBlank)
Claim = Call | CallMahjong | Pass


@dataclass(frozen=True)
class TileChoice:
    """The seat picks tiles: `count` in all, chosen from `kinds` (its passable tiles, repeats
    included); up to `blind_max` of them may be left blind (forwarded unseen)."""

    count: int
    kinds: tuple[int, ...]
    blind_max: int = 0


@dataclass(frozen=True)
class Option:
    """One thing a seat may do now.

    `action` is concrete and legal as it stands. `choice` describes the alternatives when the
    seat picks tiles. `deadens` flags a call that leaves no card hand possible for the caller
    (judged from the visible tiles), so a UI can warn before it is made.
    """

    action: Action
    choice: TileChoice | None = None
    deadens: bool = False
