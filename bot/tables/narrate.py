"""Events in words: one short line per thing that happened, for the table or for one seat.

`NARRATION` holds, for every kind of event, what it says: the line the whole table reads
(it never names a hidden tile, and it says nothing about hidden choices such as who passed on
a discard, so a claim window's answers stay secret) and the line only the seat it is about
reads (its deal, what a pass brought it, the tile it drew). `public_line` and `private_line`
look an event up there; a new event gets its entry there and nowhere else. `headline` says
what a seat is asked to do now, and `moment_words` where a game is, for a list of someone's
games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.engine.game.actions import (
    GROUP_NAMES,
    Action,
    Call,
    CallMahjong,
    DeclareDead,
    Discard,
    Exchange,
    Give,
    Mahjong,
    Offer,
    Pass,
    SwapBlank,
    Vote,
)
from bot.engine.game.charleston import ACROSS, PASSES
from bot.engine.game.events import (
    BlankSwapped,
    CourtesyAgreed,
    Dealt,
    DeathCause,
    DeclaredDead,
    Discarded,
    Drew,
    EndReason,
    Event,
    Exchanged,
    Exposed,
    GameOver,
    HandDead,
    MahjongShown,
    Passed,
    PassName,
    PlayBegins,
    Ready,
    Received,
    ScoreLine,
    VoteResult,
    WallBuilt,
)
from bot.engine.game.state import Phase
from bot.engine.game.view import View
from bot.engine.tiles import tile_name

#: The passes of the Charleston in words: the round, then the direction (the courtesy pass is
#: one of its own). Lines join the two with a comma, a picture's label with a colon.
_PASS_WORDS: dict[PassName, tuple[str, ...]] = {
    PassName.FIRST_RIGHT: ("first Charleston", "pass right"),
    PassName.FIRST_ACROSS: ("first Charleston", "pass across"),
    PassName.FIRST_LEFT: ("first Charleston", "pass left"),
    PassName.SECOND_LEFT: ("second Charleston", "pass left"),
    PassName.SECOND_ACROSS: ("second Charleston", "pass across"),
    PassName.SECOND_RIGHT: ("second Charleston", "pass right"),
    PassName.COURTESY: ("courtesy pass",),
}


def pass_words(name: PassName, *, joint: str = ", ", capital: bool = False) -> str:
    """A pass in words, `first Charleston, pass right`: `joint` between its round and its
    direction, and with `capital` starting a sentence (`First Charleston: pass right`)."""
    words = joint.join(_PASS_WORDS[name])
    return words[:1].upper() + words[1:] if capital else words


def _tiles(kinds: Sequence[int]) -> str:
    return ", ".join(tile_name(kind) for kind in kinds)


def _jokers(count: int) -> str:
    return "" if not count else f" with {count} joker{'s' if count > 1 else ''}"


class LaidOut(Protocol):
    """A Mah Jongg laid out on the table: the engine's record of it or a view's."""

    @property
    def seat(self) -> int:
        """Who laid it out."""

    @property
    def hand_id(self) -> str:
        """The card hand it makes."""


def laid_out_words(shown: Sequence[LaidOut], names: Sequence[str]) -> str:
    """Who laid out which hands: `Ann laid out e2; Bo laid out o4 and l1`."""
    hands: dict[int, list[str]] = {}
    for mahjong in shown:
        hands.setdefault(mahjong.seat, []).append(mahjong.hand_id)
    return "; ".join(f"{names[seat]} laid out {' and '.join(ids)}"
                     for seat, ids in hands.items())


def ending(reason: EndReason, shown: Sequence[LaidOut], names: Sequence[str]) -> str:
    """How a game ended, in a few words. A game that ends without a Mah Jongg that finishes
    it may still have Mah Jonggs on the table (the Siamese-style game plays on after a
    player's first one): they are named, since they are what is paid."""
    if reason is EndReason.MAHJONG:
        return "Game over"
    if reason is EndReason.WALL:
        if not shown:
            return "Wall game: no winner"
        return f"The wall ran out with Mah Jonggs on the table: {laid_out_words(shown, names)}"
    if not shown:
        return "Game over: too few live hands"
    return f"Game over: too few live hands ({laid_out_words(shown, names)})"


def hand_name(names: Sequence[str], seat: int, rack: int, racks: int) -> str:
    """A hand as a player names it: `Bo's hand`, or `Bo's rack 2` where each player has two
    racks (the Siamese-style game)."""
    return f"{names[seat]}'s hand" if racks == 1 else f"{names[seat]}'s rack {rack + 1}"


@dataclass(frozen=True)
class Audience:
    """The people a line is for, as the line needs them: their names in seat order, each
    one's racks, and the Mah Jonggs on the table when the game ended (for its last line)."""

    names: Sequence[str]
    racks: int = 1
    shown: Sequence[LaidOut] = ()


# -- what each event says ----------------------------------------------------------------------

def _wall_built(event: WallBuilt, audience: Audience) -> str:
    if not event.walls:
        return "No walls: the tiles lie face down in a pool, and everyone picks from it."
    if not event.dice:
        return "The wall is built; no dice, so dealing starts at East's end of it."
    return f"The wall is built and broken (dice {' + '.join(map(str, event.dice))})."


def _dealt(event: Dealt, seat: int, audience: Audience) -> str | None:
    if event.seat != seat or event.kinds is None:
        return None
    return f"You were dealt {len(event.kinds)} tiles."


def _passed(event: Passed, audience: Audience) -> str:
    return f"Done: {pass_words(event.name)}."


def _received(event: Received, seat: int, audience: Audience) -> str | None:
    if event.seat != seat or not event.kinds:
        return None
    return f"The pass brought you {_tiles(event.kinds)}."


def _vote_result(event: VoteResult, audience: Audience) -> str:
    return ("The Charleston stops after the first round." if event.stopped
            else "Nobody stopped it: the second Charleston begins.")


def _courtesy_agreed(event: CourtesyAgreed, audience: Audience) -> str:
    names = audience.names
    pairs = [f"{names[s]} and {names[(s + 2) % len(names)]} trade {event.counts[s]}"
             for s in range(len(names) // 2)]
    return "Courtesy pass: " + "; ".join(pairs) + "."


def _play_begins(event: PlayBegins, audience: Audience) -> str:
    return f"Play begins: {audience.names[0]} (East) goes first."


def _drew(event: Drew, seat: int, audience: Audience) -> str | None:
    if event.seat != seat or event.kind is None:
        return None
    return f"You drew {tile_name(event.kind)}."


def _discarded(event: Discarded, audience: Audience) -> str:
    return f"{audience.names[event.seat]} discards {tile_name(event.kind)}."


def _exposed(event: Exposed, audience: Audience) -> str:
    names, tile = audience.names, tile_name(event.kind)
    return (f"{names[event.seat]} calls {names[event.discarder]}'s {tile}: "
            f"{GROUP_NAMES[event.size]} of {tile}{_jokers(event.jokers)}.")


def _exchanged(event: Exchanged, audience: Audience) -> str:
    names = audience.names
    whose = "their own" if event.owner == event.seat else f"{names[event.owner]}'s"
    return (f"{names[event.seat]} swaps a {tile_name(event.kind)} for a joker in {whose} "
            "exposure.")


def _blank_swapped(event: BlankSwapped, audience: Audience) -> str:
    return (f"{audience.names[event.seat]} swaps a blank for the {tile_name(event.kind)} in the "
            "discards.")


def _declared_dead(event: DeclaredDead, audience: Audience) -> str:
    target = hand_name(audience.names, event.target, event.rack, audience.racks)
    return f"{audience.names[event.seat]} declares {target} dead."


def _hand_dead(event: HandDead, audience: Audience) -> str:
    why = ("the call was right" if event.cause is DeathCause.DECLARED
           else "they called a live hand dead")
    then = "They stop playing but still pay." if audience.racks == 1 else "It stops playing."
    hand = hand_name(audience.names, event.seat, event.rack, audience.racks)
    return f"{hand} is dead ({why}). {then}"


def _mahjong_shown(event: MahjongShown, audience: Audience) -> str:
    names, by = audience.names, event.discarder
    how = ("self-picked" if event.self_picked
           else f"on {names[by]}'s discard" if by is not None else "")
    did = (f"wins with {event.hand_id}" if audience.racks == 1
           else f"lays out {event.hand_id} on rack {event.rack + 1}")
    return f"MAH JONGG! {names[event.seat]} {did}, {how}.".replace(", .", ".")


def _score_line(event: ScoreLine, audience: Audience) -> str:
    return event.text


def _game_over(event: GameOver, audience: Audience) -> str:
    # What changes hands, as the result picture and the series show it; where that is not
    # the hands' scores (the Siamese-style payments), the scores follow, labelled as such.
    names, seats = audience.names, range(len(audience.names))
    paid = ", ".join(f"{names[s]} {event.settlement[s]:+d}" for s in seats)
    line = f"{ending(event.reason, audience.shown, names)}. {paid}."
    if event.settlement != event.totals:
        line += f" Hand scores: {', '.join(f'{names[s]} {event.totals[s]}' for s in seats)}."
    return line


def _quiet(*_: object) -> None:
    """Nothing worth a line."""


E = TypeVar("E")


@dataclass(frozen=True)
class Narration(Generic[E]):
    """What one kind of event says: `public(event, audience)`, the line the whole table
    reads, and `private(event, seat, audience)`, the line `seat` reads (given the event as that seat
    may see it); either gives None where there is nothing worth a line."""

    event: type[E]
    public: Callable[[E, Audience], str | None] = _quiet
    private: Callable[[E, int, Audience], str | None] = _quiet


#: Every kind of event and what it says (`tests/tables/test_table_narrate.py` checks that every
#: event of the engine has its entry). Draws, deals and what a pass brought are told only
#: to their seat; hidden choices (`Ready`) to nobody.
NARRATION: dict[type[Event], Narration[Any]] = {narration.event: narration for narration in (
    Narration(WallBuilt, public=_wall_built),
    Narration(Dealt, private=_dealt),
    Narration(Ready),
    Narration(Passed, public=_passed),
    Narration(Received, private=_received),
    Narration(VoteResult, public=_vote_result),
    Narration(CourtesyAgreed, public=_courtesy_agreed),
    Narration(PlayBegins, public=_play_begins),
    Narration(Drew, private=_drew),
    Narration(Discarded, public=_discarded),
    Narration(Exposed, public=_exposed),
    Narration(Exchanged, public=_exchanged),
    Narration(BlankSwapped, public=_blank_swapped),
    Narration(DeclaredDead, public=_declared_dead),
    Narration(HandDead, public=_hand_dead),
    Narration(MahjongShown, public=_mahjong_shown),
    Narration(ScoreLine, public=_score_line),
    Narration(GameOver, public=_game_over),
)}


def public_line(event: Event, names: Sequence[str], *, racks: int = 1,
                shown: Sequence[LaidOut] = ()) -> str | None:
    """The line the whole table reads for this event, or None when it is not worth a line
    (draws, hidden choices, private tiles). `racks` is each player's racks; `shown` the Mah
    Jonggs on the table when the game ended (for the game's last line)."""
    return NARRATION[type(event)].public(event, Audience(names, racks, shown))


def private_line(event: Event, seat: int, names: Sequence[str]) -> str | None:
    """A line only `seat` reads (its own tiles), or None."""
    return NARRATION[type(event)].private(event, seat, Audience(names))


# -- what a seat is asked, and where a game is --------------------------------------------------

_SHIFTS = {step.name: step.shift for step in PASSES} | {PassName.COURTESY: ACROSS}


def pass_heading(view: View, names: Sequence[str]) -> str | None:
    """What the seat's pass is, said before it is made: `First Charleston, pass right: give 3
    tiles to Bo.`, and how a blind pass works when one is allowed. None outside a pass."""
    charleston = view.charleston
    give = next((o.choice for o in view.legal if isinstance(o.action, Give) and o.choice),
                None)
    if charleston is None or charleston.pass_name is None or give is None:
        return None
    name = charleston.pass_name
    to = names[(view.seat + _SHIFTS[name]) % len(names)]
    count = f"{give.count} tile{'s' if give.count != 1 else ''}"
    line = f"{pass_words(name, capital=True)}: give {count} to {to}."
    if give.blind_max:
        line += (f" This pass may be blind: give fewer than {give.count} of your own tiles "
                 "(even none), and the rest are passed on unseen from the tiles coming to "
                 "you.")
    return line


def action_label(action: Action, names: Sequence[str], *, racks: int = 1) -> str:
    """A short label for a button or a menu: `Discard 3 Bam`, `Call pung (1 joker)`."""
    rack = f" on rack {getattr(action, 'rack', 0) + 1}" if racks > 1 else ""
    label: str
    match action:
        case Give(kinds=kinds, blind=blind):
            shown = _tiles(kinds) if kinds else "nothing"
            label = f"Pass {shown}" + (f" + {blind} blind" if blind else "")
        case Vote(stop=stop):
            label = "Stop the Charleston" if stop else "Keep passing"
        case Offer(count=count):
            label = f"Offer {count} tile{'s' if count != 1 else ''}"
        case Discard(kind=kind):
            label = f"Discard {tile_name(kind)}"
        case Call(kind=kind, size=size, jokers=jokers):
            label = f"Call {GROUP_NAMES[size]} of {tile_name(kind)}{_jokers(jokers)}"
            label += rack
        case Pass():
            label = "Pass"
        case Exchange(kind=kind, owner=owner):
            label = f"Swap {tile_name(kind)} for {names[owner]}'s joker"
        case DeclareDead(target=target, rack=target_rack):
            label = f"Declare {hand_name(names, target, target_rack, racks)} dead"
        case Mahjong(both=both) | CallMahjong(both=both):
            label = "Mah Jongg!" + (" (both racks)" if both else rack)
        case SwapBlank(kind=kind):
            label = f"Swap a blank for {tile_name(kind)}"
    return label


def headline(view: View, names: Sequence[str], drawn: int | None = None) -> str:
    """What a seat is asked to do now, in one line: over its prompt, and as the caption of
    its rack picture."""
    if view.phase is Phase.OVER:
        return "The game is over."
    if not view.legal:
        waiting = names[view.turn] if view.turn is not None else "the others"
        return f"Nothing to do right now; waiting for {waiting}."
    if view.phase is Phase.CLAIM and view.claim is not None:
        return (f"{names[view.claim.discarder]} discarded {tile_name(view.claim.kind)}: "
                "claim it or pass.")
    if view.phase is Phase.TURN:
        got = f" You drew {tile_name(drawn)}." if drawn is not None else ""
        return f"Your turn.{got} Discard a tile (or declare Mah Jongg)."
    if view.phase is Phase.VOTE:
        return "The first Charleston is done: stop here, or keep passing?"
    if view.phase is Phase.COURTESY_OFFER:
        return "Courtesy pass: how many tiles would you trade with the player across?"
    heading = pass_heading(view, names)
    if heading is not None:
        return f"{heading} Choose them below."
    return "Your move."


def moment_words(view: View, names: Sequence[str], *, asked: bool) -> str:
    """Where a game is, in a few words, for a list of the reader's games (`/mj games`): with
    `asked`, what the reader (`view.seat`, "you") is asked to do; otherwise whose move it is.
    Built from the reader's own view, and a claim window is told the same way to everyone:
    the discard open for calls, never who may call it (at a table that asks only the seats
    able to call, that would tell who can)."""
    named = [("you" if seat == view.seat else name) for seat, name in enumerate(names)]
    if view.phase is Phase.CLAIM and view.claim is not None:
        tile = tile_name(view.claim.kind)
        if asked:
            return f"{tile} from {named[view.claim.discarder]}: call it or pass"
        whose = "your" if view.claim.discarder == view.seat else \
            f"{names[view.claim.discarder]}'s"
        return f"{whose} {tile} is open for calls"
    if view.phase is Phase.TURN and view.turn is not None:
        return "your turn" if view.turn == view.seat else f"{names[view.turn]}'s turn"
    charleston = view.charleston
    step = ("the vote to stop the Charleston" if view.phase is Phase.VOTE
            else "the courtesy offers" if view.phase is Phase.COURTESY_OFFER
            else pass_words(charleston.pass_name) if charleston and charleston.pass_name
            else "the Charleston")
    if asked:
        return f"{step}: your move"
    if charleston is None:
        return step
    # Who has yet to answer is face up at a real table (their tiles are not out yet), and
    # every seat's view holds it; a seat that gives nothing in the courtesy pass owes none.
    owing = [named[seat] for seat, ready in enumerate(charleston.ready) if not ready
             and not (charleston.agreed and not charleston.agreed[seat])]
    return f"{step}: waiting for {', '.join(owing)}" if owing else step
