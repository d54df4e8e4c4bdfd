"""The game state: one frozen value, changed only by `apply`.

Tiles are physical ids (indexes into `GameState.tiles`, which holds each id's kind), so every
tile can be followed from the wall to a rack, an exposure, the discards or a Mah Jongg, and a
replay reproduces the game exactly. Helpers here read the state; the modules for each phase
build new states with `dataclasses.replace`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Protocol, TypeVar, cast

from bot.engine.cards.model import Card
from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.game.actions import Action, Claim, Give
from bot.engine.game.events import EndReason, Event, ScoreLine
from bot.engine.game.rules import RuleSet, WallEnd, seat_names
from bot.engine.matcher import CardMatcher, Exposure
from bot.engine.tiles import JOKER, kind_counts, tile_name

_FIELD_NAMES: dict[type, frozenset[str]] = {}
_Record = TypeVar("_Record")


#: Where `memo` and `carried` keep their values on a record, under names no field can have:
#: `memo` one dict, which `evolve` drops; `carried` a tuple of (fields, dict) pairs, one per
#: set of fields its values come from, which `evolve` passes on as it is while the change
#: leaves every one of those sets alone (most changes do), or filtered. A copy shares the
#: dicts it was passed, and whatever either adds to one is derived from the same values of
#: its fields; a new set of fields gets a new tuple, on that record only.
_MEMO = " memo"
_CARRIED = " carried"
_Carried = tuple[tuple[frozenset[str], dict[str, object]], ...]


def evolve(record: _Record, **changes: object) -> _Record:
    """A copy of one of the engine's frozen records with some fields changed.

    The same result as `dataclasses.replace`, several times faster, because it does not run
    `__init__` again: it sits on the hot path of every `apply`. Only for the records of this
    package, none of which checks its fields in `__post_init__`. What `memo` kept on the
    original stays behind (it was derived from it); what `carried` kept goes along when the
    change leaves the fields it came from alone.
    """
    cls = type(record)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in fields(record))  # type: ignore[arg-type]
    if not changes.keys() <= names:
        unknown = sorted(changes.keys() - names)
        raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
    copied: _Record = object.__new__(cls)
    values = copied.__dict__
    values.update(record.__dict__, **changes)
    if _MEMO in values:
        del values[_MEMO]
    groups: _Carried | None = values.get(_CARRIED)
    if groups is not None:
        for depends, _ in groups:
            if not depends.isdisjoint(changes):
                still = tuple(group for group in groups if group[0].isdisjoint(changes))
                if still:
                    values[_CARRIED] = still
                else:
                    del values[_CARRIED]
                break
    return copied


_Value = TypeVar("_Value")


def memo(record: object, key: str, make: Callable[[], _Value]) -> _Value:
    """A value derived from one of the engine's frozen records (and its game's constants: tile
    kinds, rules), made once and kept on it. Records never change and `evolve` copies only
    fields, so it cannot go stale; it is not a field, so it never counts in comparisons.
    `key` names what `make` derives."""
    kept: dict[str, object] | None = record.__dict__.get(_MEMO)
    if kept is None:
        kept = record.__dict__[_MEMO] = {}
    elif key in kept:
        value: _Value = kept[key]  # type: ignore[assignment]
        return value
    made = kept[key] = make()
    return made


def kept_memo(record: object, key: str) -> object | None:
    """What `memo` keeps on a record under `key`, or None when it keeps nothing there: the
    look-up of the accessors asked at every step, without building the value's maker."""
    found: dict[str, object] | None = record.__dict__.get(_MEMO)
    return None if found is None else found.get(key)


def carried(record: object, key: str, depends: frozenset[str],
            make: Callable[[], _Value]) -> _Value:
    """Like `memo`, for a value derived only from the record's fields named in `depends`
    (and the game's constants): `evolve` carries it to the copy while the change leaves
    those fields alone. A game moves one small step at a time (an answer to a claim changes
    the claim, never the discards), so what the discards or the seats give is made once per
    change of them, not once per state. `depends` must name every field `make` reads, and
    be one constant set for each key (sets of fields are told apart by identity)."""
    groups: _Carried = record.__dict__.get(_CARRIED, ())
    for known, group in groups:
        if known is depends:
            if key in group:
                value: _Value = group[key]  # type: ignore[assignment]
                return value
            break
    else:
        group = {}
        record.__dict__[_CARRIED] = (*groups, (depends, group))
    made = group[key] = make()
    return made


#: For each table size, the other seats after each seat in turn order.
_AFTER = {size: tuple(tuple((seat + step) % size for step in range(1, size))
                      for seat in range(size)) for size in (2, 3, 4)}
#: The keys of each rack's exposures, and the fields of a state or a seat some values kept
#: on them come from.
_RACK_EXPOSURES = ("rack_exposures 0", "rack_exposures 1")
_SEATS = frozenset({"seats"})
_LIVE_FROM = frozenset({"dead", "declared"})
_EXPOSED_FROM = frozenset({"exposures"})


class Phase(Enum):
    """Where the game is. Every phase says who must act next."""

    CHARLESTON = "charleston"
    VOTE = "vote"
    COURTESY_OFFER = "courtesy offer"
    COURTESY_PASS = "courtesy pass"
    TURN = "turn"
    CLAIM = "claim"
    OVER = "over"


class Took(Enum):
    """How the seat on turn got its last tile: this decides whether a Mah Jongg is
    self-picked (dealt, drawn, or by a joker exchange that counts as the pick) or off a
    discard (called; an exchange after the call that does not count leaves it so)."""

    DEAL = "deal"
    DRAW = "draw"
    CALL = "call"
    EXCHANGE = "exchange"


@dataclass(frozen=True)
class TableExposure:
    """An exposure on a rack: the called tile first, then the seat's naturals and jokers.

    `dead_when_made` records that the rack could match no card hand once this exposure was
    made, judged from what was visible then (the exposure made the hand dead, or came after
    the discards had). `locked` marks such an exposure once its hand is declared dead: its
    jokers can no longer be exchanged.
    """

    rack: int
    kind: int
    tile_ids: tuple[int, ...]
    discarder: int
    locked: bool = False
    dead_when_made: bool = False


@dataclass(frozen=True)
class Declared:
    """A Mah Jongg laid out on a rack: the card hand, each group's tile ids, how it was won.

    `exposures_before` counts the rack's exposures when the winning tile came (tournament
    scoring): for a win on a discard, those made before that discard was called.
    `ordinal` is 1 for a first Mah Jongg, 2 for a second, and 0 for two declared at once.
    `winning_id` is the tile that completed it (the claimed discard, or the tile the seat
    took last); None for a dealt hand. `hot_wall` marks a win on a discard thrown under the
    hot wall (see `WallEnd`): in the last part of the wall, of a kind nobody had discarded
    before.
    """

    seat: int
    rack: int
    hand_id: str
    value: int
    jokerless: bool
    singles_and_pairs: bool
    groups: tuple[tuple[int, ...], ...]
    self_picked: bool
    discarder: int | None
    exposures_before: int
    ordinal: int = 1
    winning_id: int | None = None
    hot_wall: bool = False


@dataclass(frozen=True)
class SeatState:
    """One seat: concealed tile ids (sorted), exposures, dead racks and laid-out Mah Jonggs.

    In the Siamese-style game concealed tiles move freely between a player's two racks, so
    they are one pool; exposures and Mah Jonggs belong to a rack.
    """

    concealed: tuple[int, ...]
    exposures: tuple[TableExposure, ...] = ()
    dead: tuple[bool, ...] = (False,)
    declared: tuple[Declared, ...] = ()


@dataclass(frozen=True)
class DealRecord:
    """The dice, where the wall was broken, and each seat's dealt tile ids."""

    dice: tuple[int, ...]
    break_stack: int
    hands: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class CharlestonState:
    """Progress through the Charleston: the pass in hand (an index into the pass list), the
    tiles each seat has put forward, the stop vote and the courtesy offers."""

    step: int = 0
    gives: tuple[Give | None, ...] = ()
    votes: tuple[bool | None, ...] = ()
    offers: tuple[int | None, ...] = ()
    agreed: tuple[int, ...] = ()


@dataclass(frozen=True)
class TurnState:
    """The seat on turn (it holds one tile over its hand size and must discard, or win).

    A turn begun by calling a discard names who threw it (`called_from`). `tile` is the id of
    the tile the seat took last: drawn, called, or the joker of an exchange that counts as
    the pick (see `Took`); None on a turn that began with the deal. It is private until it
    wins the hand or was a called discard. `shown` is set once the seat lays out a first Mah
    Jongg this turn (Siamese-style): it must then discard before it can declare another.
    """

    seat: int
    took: Took
    called_from: int | None = None
    shown: bool = False
    tile: int | None = None


@dataclass(frozen=True)
class ClaimState:
    """The open claim window on the last discard: who must answer, and the answers so far."""

    discarder: int
    tile_id: int
    waiting: tuple[int, ...]
    answers: tuple[Claim | None, ...]


class _Laid(Protocol):
    @property
    def seat(self) -> int: ...

    @property
    def ordinal(self) -> int: ...


_Mahjong = TypeVar("_Mahjong", bound=_Laid)


def finishing(reason: EndReason, mahjongs: Sequence[_Mahjong]) -> _Mahjong | None:
    """The Mah Jongg that ended the game (of `mahjongs`, a result's, in the order laid out):
    the only one in a one-rack game; in a two-rack game the last player's to complete both
    racks, its Mah Jongg that is not a first (a second, or the first of two laid out at once).
    Where play goes on after a second Mah Jongg (`GameEnd.ALL_DONE`) several players may
    have completed both racks: the game ended with the last of them. None when the game
    ended otherwise."""
    if reason is not EndReason.MAHJONG or not mahjongs:
        return None
    completed = [m for m in mahjongs if m.ordinal != 1]
    if not completed:
        return mahjongs[0]
    last = completed[-1].seat
    return next(m for m in completed if m.seat == last)


@dataclass(frozen=True)
class Result:
    """How the game ended, the Mah Jonggs laid out, the score breakdown, the points per
    seat (`totals`, the sum of the lines), what changes hands (`settlement`), what the
    quarters pot holds after the game (`pot`, for the next game; see `RuleSet`) and what the
    bettor won or lost (`bettor`, None at a table without one; see `new_game`). The
    seats' settlements and the bettor's add up to what the pot gave out, less what it took
    in."""

    reason: EndReason
    declared: tuple[Declared, ...]
    lines: tuple[ScoreLine, ...]
    totals: tuple[int, ...]
    settlement: tuple[int, ...]
    pot: int
    bettor: int | None = None


@dataclass(frozen=True)
class GameState:
    """Everything about one game. Build it with `new_game`; change it only with `apply`.

    `actions` is every action applied so far (replaying them from the seed rebuilds this
    state); `opening` holds the events of the deal; `sextets` says whether the card has a
    sextet (so sextets may be called). `thrown` is the kind of every tile discarded so far,
    in order, those since called or swapped away included (the hot wall asks whether a kind
    was thrown before). `pot` is the quarters pot the game started with (see `RuleSet`),
    `bet` the seat a bettor backs (None: no bettor; see `new_game`).
    """

    rules: RuleSet
    card: Card
    seed: int
    players: tuple[str, ...]
    tiles: tuple[int, ...]
    deal: DealRecord
    wall: tuple[int, ...]
    seats: tuple[SeatState, ...]
    discards: tuple[tuple[int, int], ...]
    phase: Phase
    charleston: CharlestonState | None = None
    turn: TurnState | None = None
    claim: ClaimState | None = None
    result: Result | None = None
    actions: tuple[Action, ...] = ()
    opening: tuple[Event, ...] = ()
    sextets: bool = False
    thrown: tuple[int, ...] = ()
    pot: int = 0
    bet: int | None = None
    matcher: CardMatcher = field(compare=False, repr=False, kw_only=True)

    # -- tiles -----------------------------------------------------------------------------

    def kinds(self, tile_ids: Iterable[int]) -> tuple[int, ...]:
        """The kinds of some tile ids, in the same order."""
        tiles = self.tiles
        return tuple([tiles[t] for t in tile_ids])

    def concealed_kinds(self, seat: int) -> tuple[int, ...]:
        """A seat's concealed tiles as kinds, in rack order."""
        held = self.seats[seat]
        found = kept_memo(held, "concealed_kinds")
        if found is not None:
            return found  # type: ignore[return-value]
        return memo(held, "concealed_kinds", lambda: tuple(sorted(self.kinds(held.concealed))))

    def concealed_counts(self, seat: int) -> tuple[int, ...]:
        """How many concealed tiles of each kind a seat holds (indexed by kind)."""
        held = self.seats[seat]
        found = kept_memo(held, "concealed_counts")
        if found is not None:
            return found  # type: ignore[return-value]
        return memo(held, "concealed_counts",
                    lambda: tuple(kind_counts(self.concealed_kinds(seat))))

    def take(self, seat: int, kinds: Sequence[int], what: str) -> tuple[int, ...]:
        """The lowest tile ids of these kinds from a seat's rack; `IllegalAction` if missing."""
        pool = list(self.seats[seat].concealed)
        taken: list[int] = []
        for kind in kinds:
            found = next((t for t in pool if self.tiles[t] == kind), None)
            if found is None:
                raise IllegalAction(f"You don't have {_enough(kind, kinds)} to {what}.")
            pool.remove(found)
            taken.append(found)
        return tuple(taken)

    # -- seats -----------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of seats."""
        return self.rules.players

    def name(self, seat: int) -> str:
        """A seat's wind, for messages."""
        return seat_names(self.size)[seat]

    def live_racks(self, seat: int) -> tuple[int, ...]:
        """Racks of a seat that can still become Mah Jongg (not dead, not already shown)."""
        held = self.seats[seat]

        def live() -> tuple[int, ...]:
            shown = {d.rack for d in held.declared}
            return tuple(r for r in range(len(held.dead)) if not held.dead[r]
                         and r not in shown)

        return carried(held, "live racks", _LIVE_FROM, live)

    def is_live(self, seat: int) -> bool:
        """A seat still plays (draws, discards, claims) while it has a live rack."""
        return bool(self.live_racks(seat))

    def live_seats(self) -> tuple[int, ...]:
        """Seats that still play, in seat order (once per change of the seats)."""
        return carried(self, "live seats", _SEATS, lambda: tuple(
            s for s in range(self.size) if self.is_live(s)))

    def seats_after(self, seat: int) -> tuple[int, ...]:
        """The other seats in turn order after `seat` (play passes to the right)."""
        return _AFTER[self.size][seat]

    def rack_exposures(self, seat: int, rack: int) -> tuple[Exposure, ...]:
        """A rack's exposures in the matcher's terms."""
        held = self.seats[seat]
        return carried(held, _RACK_EXPOSURES[rack], _EXPOSED_FROM, lambda: tuple(
            self.as_exposure(e) for e in held.exposures if e.rack == rack))

    def as_exposure(self, exposure: TableExposure) -> Exposure:
        """A table exposure in the matcher's terms (kind, size, jokers)."""
        jokers = sum(1 for t in exposure.tile_ids if self.tiles[t] == JOKER)
        return Exposure(exposure.kind, len(exposure.tile_ids), jokers)

    def tile_count(self, seat: int) -> int:
        """Every tile a seat holds: concealed, exposed and laid out in a Mah Jongg."""
        state = self.seats[seat]
        exposed = sum(len(e.tile_ids) for e in state.exposures)
        shown = sum(len(g) for d in state.declared for g in d.groups)
        return len(state.concealed) + exposed + shown

    def wall_end(self) -> WallEnd:
        """The hot or cold wall in force now: the table's `wall_end` once
        `wall_end_tiles` or fewer tiles are left to pick, otherwise `WallEnd.NORMAL`."""
        if len(self.wall) <= self.rules.wall_end_tiles:
            return self.rules.wall_end
        return WallEnd.NORMAL

    # -- checks shared by the phases -------------------------------------------------------

    def require_phase(self, *phases: Phase) -> None:
        """`IllegalAction` unless the game is in one of these phases."""
        if self.phase not in phases:
            raise IllegalAction(_phase_message(self.phase))

    def require_turn(self, seat: int) -> TurnState:
        """The turn, when it is this seat's; `NotYourTurn` otherwise."""
        if self.phase is not Phase.TURN:
            raise IllegalAction(_phase_message(self.phase))
        assert self.turn is not None
        if self.turn.seat != seat:
            raise NotYourTurn(f"It's {self.name(self.turn.seat)}'s turn, not yours.")
        return self.turn


def _enough(kind: int, kinds: Sequence[int]) -> str:
    wanted = list(kinds).count(kind)
    return f"{wanted} x {tile_name(kind)}" if wanted > 1 else f"a {tile_name(kind)}"


_PHASE_MESSAGES = {
    Phase.CHARLESTON: "We're in the Charleston: choose three tiles to pass.",
    Phase.VOTE: "The first Charleston is done: vote to stop or continue.",
    Phase.COURTESY_OFFER: "It's time for the courtesy pass: offer 0 to 3 tiles.",
    Phase.COURTESY_PASS: "It's time to give your courtesy tiles.",
    Phase.TURN: "Someone is taking their turn; wait for the next discard.",
    Phase.CLAIM: "A discard is waiting for claims: call it or pass.",
    Phase.OVER: "The game is over.",
}


def _phase_message(phase: Phase) -> str:
    return f"You can't do that now. {_PHASE_MESSAGES[phase]}"


def recorded(before: GameState, after: GameState, action: Action) -> GameState:
    """`after`, the state an action led to from `before`, with the action added to the
    actions: the last step of `apply`. Each phase's handler returns a record it made itself
    (nothing else holds it yet, and nothing kept on it comes from the actions), so the field
    is set on that record rather than copying it once more; a state handed back unchanged
    is copied."""
    actions = (*before.actions, action)
    if after is before:
        return evolve(after, actions=actions)
    after.__dict__["actions"] = actions
    return after


def with_seat(state: GameState, seat: int, **changes: object) -> GameState:
    """The state with one seat's record changed."""
    return evolve(state, seats=seats_with(state, seat, **changes))


def seats_with(state: GameState, seat: int, **changes: object) -> tuple[SeatState, ...]:
    """The seats with one seat's record changed (for a state changed in more ways at once)."""
    seats = list(state.seats)
    seats[seat] = evolve(seats[seat], **changes)
    return tuple(seats)


#: The discards as kinds: who threw each and its kind, in order; and each seat's own pile.
Piles = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]
_PILES_FROM = frozenset({"discards", "tiles"})


def discard_piles(state: GameState) -> Piles:
    """The discards as kinds (who threw each, in order), and each seat's own pile: made
    once per change of the discards (a discard extends them, see `with_discard`)."""
    def count() -> Piles:
        tiles = state.tiles
        table = tuple([(seat, tiles[tile_id]) for seat, tile_id in state.discards])
        piles: list[list[int]] = [[] for _ in range(state.size)]
        for seat, kind in table:
            piles[seat].append(kind)
        return table, tuple(map(tuple, piles))

    return carried(state, "discard piles", _PILES_FROM, count)


def _carried_group(record: object, depends: frozenset[str]) -> dict[str, object] | None:
    """What `carried` keeps on a record for the fields `depends`, if anything."""
    return next((group for known, group in record.__dict__.get(_CARRIED, ())
                 if known is depends), None)


def discard_counts(state: GameState) -> tuple[int, ...]:
    """How many tiles of each kind lie in the discards (once per change of the discards; a
    discard adds one, see `with_discard`)."""
    return carried(state, "discard counts", _PILES_FROM,
                   lambda: tuple(kind_counts(kind for _, kind in discard_piles(state)[0])))


def with_discard(state: GameState, seat: int, tile_id: int, **changes: object) -> GameState:
    """The state with `seat`'s discard of `tile_id` laid on the discards (and `changes`):
    what the state had already counted of the discards is added to, not counted again."""
    new = evolve(state, discards=(*state.discards, (seat, tile_id)), **changes)
    counted = _carried_group(state, _PILES_FROM)
    if counted is None:
        return new
    kind = state.tiles[tile_id]
    piles = cast("Piles | None", counted.get("discard piles"))
    if piles is not None:
        table, own = piles[0], list(piles[1])
        own[seat] = (*own[seat], kind)
        carried(new, "discard piles", _PILES_FROM, lambda: ((*table, (seat, kind)), tuple(own)))
    counts = cast("tuple[int, ...] | None", counted.get("discard counts"))
    if counts is not None:
        more = list(counts)
        more[kind] += 1
        carried(new, "discard counts", _PILES_FROM, lambda: tuple(more))
    return new


def sorted_ids(tile_ids: Iterable[int]) -> tuple[int, ...]:
    """Tile ids in canonical (ascending) order."""
    return tuple(sorted(tile_ids))


def remove_ids(tile_ids: tuple[int, ...], gone: Iterable[int]) -> tuple[int, ...]:
    """`tile_ids` without `gone` (each must be present)."""
    rest = list(tile_ids)
    for tile_id in gone:
        rest.remove(tile_id)
    return tuple(rest)

