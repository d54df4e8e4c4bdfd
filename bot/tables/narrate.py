"""Events in words: one short line per thing that happened, for the table or for one seat.

`public_line` is what everyone may read (it never names a hidden tile, and it says nothing
about hidden choices such as who passed on a discard, so a claim window's answers stay
secret). `private_line` adds what only that seat may know: its deal, what a pass brought it,
the tile it drew. `headline` says what a seat is asked to do now.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.game.actions import (
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
    Received,
    ScoreLine,
    VoteResult,
    WallBuilt,
)
from bot.engine.game.state import Phase
from bot.engine.game.view import View
from bot.engine.tiles import tile_name

_PASS_WORDS = {
    PassName.FIRST_RIGHT: "first Charleston, pass right",
    PassName.FIRST_ACROSS: "first Charleston, pass across",
    PassName.FIRST_LEFT: "first Charleston, pass left",
    PassName.SECOND_LEFT: "second Charleston, pass left",
    PassName.SECOND_ACROSS: "second Charleston, pass across",
    PassName.SECOND_RIGHT: "second Charleston, pass right",
    PassName.COURTESY: "courtesy pass",
}
_SIZES = {3: "pung", 4: "kong", 5: "quint", 6: "sextet"}


def _tiles(kinds: Sequence[int]) -> str:
    return ", ".join(tile_name(kind) for kind in kinds)


def _jokers(count: int) -> str:
    return "" if not count else f" with {count} joker{'s' if count > 1 else ''}"


def public_line(event: Event, names: Sequence[str]) -> str | None:
    """The line the whole table reads for this event, or None when it is not worth a line
    (draws, hidden choices, private tiles)."""
    line: str | None = None
    match event:
        case WallBuilt(dice=dice):
            line = f"The wall is built and broken (dice {' + '.join(map(str, dice))})."
        case Passed(name=name):
            line = f"Done: {_PASS_WORDS[name]}."
        case VoteResult(stopped=stopped):
            line = ("The Charleston stops after the first round." if stopped
                    else "Nobody stopped it: the second Charleston begins.")
        case CourtesyAgreed(counts=counts):
            pairs = [f"{names[s]} and {names[(s + 2) % len(names)]} trade {counts[s]}"
                     for s in range(len(names) // 2)]
            line = "Courtesy pass: " + "; ".join(pairs) + "."
        case PlayBegins():
            line = f"Play begins: {names[0]} (East) goes first."
        case Discarded(seat=seat, kind=kind):
            line = f"{names[seat]} discards {tile_name(kind)}."
        case Exposed(seat=seat, kind=kind, size=size, jokers=jokers, discarder=discarder):
            line = (f"{names[seat]} calls {names[discarder]}'s {tile_name(kind)}: "
                    f"{_SIZES.get(size, 'group')} of {tile_name(kind)}{_jokers(jokers)}.")
        case Exchanged(seat=seat, kind=kind, owner=owner):
            whose = "their own" if owner == seat else f"{names[owner]}'s"
            line = f"{names[seat]} swaps a {tile_name(kind)} for a joker in {whose} exposure."
        case BlankSwapped(seat=seat, kind=kind):
            line = f"{names[seat]} swaps a blank for the {tile_name(kind)} in the discards."
        case DeclaredDead(seat=seat, target=target):
            line = f"{names[seat]} declares {names[target]}'s hand dead."
        case HandDead(seat=seat, cause=cause):
            why = ("the call was right" if cause is DeathCause.DECLARED
                   else "they called a live hand dead")
            line = f"{names[seat]}'s hand is dead ({why}). They stop playing but still pay."
        case MahjongShown(seat=seat, hand_id=hand_id, self_picked=picked, discarder=by):
            how = ("self-picked" if picked
                   else f"on {names[by]}'s discard" if by is not None else "")
            line = f"MAH JONGG! {names[seat]} wins with {hand_id}, {how}.".replace(", .", ".")
        case ScoreLine(text=text):
            line = text
        case GameOver(reason=reason, totals=totals):
            what = {EndReason.MAHJONG: "Game over", EndReason.WALL: "Wall game: no winner",
                    EndReason.DEAD_HANDS: "Game over: too few live hands"}[reason]
            scores = ", ".join(f"{names[s]} {totals[s]:+d}" for s in range(len(names)))
            line = f"{what}. {scores}."
    return line


def private_line(event: Event, seat: int, names: Sequence[str]) -> str | None:
    """A line only `seat` reads (its own tiles), or None."""
    match event:
        case Dealt(seat=who, kinds=kinds) if who == seat and kinds is not None:
            return f"You were dealt {len(kinds)} tiles."
        case Received(seat=who, kinds=kinds) if who == seat and kinds is not None:
            return f"The pass brought you {_tiles(kinds)}." if kinds else None
        case Drew(seat=who, kind=kind) if who == seat and kind is not None:
            return f"You drew {tile_name(kind)}."
    return None


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
            label = f"Call {_SIZES.get(size, 'group')} of {tile_name(kind)}{_jokers(jokers)}"
            label += rack
        case Pass():
            label = "Pass"
        case Exchange(kind=kind, owner=owner):
            label = f"Swap {tile_name(kind)} for {names[owner]}'s joker"
        case DeclareDead(target=target):
            label = f"Declare {names[target]}'s hand dead"
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
    if view.charleston is not None and view.charleston.pass_name is not None:
        blind = " You may pass blind (fewer tiles)." if view.charleston.blind_allowed else ""
        return f"Charleston ({view.charleston.pass_name.value}): choose the tiles to pass.{blind}"
    return "Your move."
