"""What a seat is offered, and how: the same on every front end (Discord and the terminal).

The engine's legal options are all a seat may do; a seat is offered them so that no single
slip costs a hand and no discard floods it with choices:

* calls the seat's options skip are left out (only jokers would fill them, they would kill
  the hand, or the seat calls only for Mah Jongg: `bot.tables.seat_options`), and a discard
  with nothing else to claim is not asked about (the table answers it, `bot.tables.auto`);
* two or more calls on one discard sit behind one "Call…" choice, which opens them;
* declaring a hand dead is never an everyday move: it sits behind one "Declare a hand
  dead…" choice, after the rest, and each declaration is confirmed with a question that
  names the hand and what being wrong costs (`dead_question`).

Options keep their index in `View.legal`, which is what a button or a typed number plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.game import Option, View
from bot.engine.game.actions import Action, Call, DeclareDead, Pass
from bot.engine.tiles import format_group, tile_name
from bot.tables.narrate import hand_name
from bot.tables.seat_options import JokerCalls, SeatOptions

#: The choice that opens the dead-hand declarations.
DEAD_CHOICE = "Declare a hand dead…"


def joker_only(action: Action) -> bool:
    """A call that only jokers would fill: the discard plus jokers, none of the seat's own
    tiles of its kind."""
    return isinstance(action, Call) and action.jokers == action.size - 1


@dataclass(frozen=True)
class Layout:
    """A seat's options as offered (indexes into `View.legal`, in the engine's order):
    `direct` as they are; `calls` behind one "Call…" choice (two or more calls on the
    discard; a lone call is direct); `dead` behind `DEAD_CHOICE`, each to be confirmed;
    `hidden` counts the calls the seat's options leave out (`skipped`)."""

    direct: tuple[int, ...]
    calls: tuple[int, ...]
    dead: tuple[int, ...]
    hidden: int

    def asks(self, view: View) -> bool:
        """Whether the seat has anything to decide: something besides letting a discard go
        (a seat with only that is answered for, rather than asked)."""
        return bool(self.calls or self.dead) or any(
            not isinstance(view.legal[i].action, Pass) for i in self.direct)


def skipped(option: Option, options: SeatOptions) -> bool:
    """Whether the seat's options leave this call out: every call but Mah Jongg
    (`mahjong_calls_only`), a call only jokers would fill (`joker_calls`), a call that would
    leave the seat no hand possible (`skip_deadening`)."""
    action = option.action
    return isinstance(action, Call) and (
        options.mahjong_calls_only
        or (options.joker_calls is JokerCalls.SKIP and joker_only(action))
        or (options.skip_deadening and option.deadens))


def layout(view: View, options: SeatOptions) -> Layout:
    """How `view`'s options are offered to a seat with these options."""
    direct: list[int] = []
    calls: list[int] = []
    dead: list[int] = []
    hidden = 0
    for index, option in enumerate(view.legal):
        action = option.action
        if skipped(option, options):
            hidden += 1
        elif isinstance(action, Call):
            calls.append(index)
        elif isinstance(action, DeclareDead):
            dead.append(index)
        else:
            direct.append(index)
    if len(calls) == 1:
        direct = sorted((*direct, *calls))
        calls = []
    return Layout(tuple(direct), tuple(calls), tuple(dead), hidden)


def _called(view: View, layout: Layout) -> str:
    """The tile the grouped calls are for."""
    action = view.legal[layout.calls[0]].action if layout.calls else None
    return tile_name(action.kind) if isinstance(action, Call) else "the discard"


def calls_choice(view: View, layout: Layout) -> str:
    """The label of the choice that opens the calls: `Call 6 Bam… (4 ways)`."""
    return f"Call {_called(view, layout)}… ({len(layout.calls)} ways)"


def calls_heading(view: View, names: Sequence[str], layout: Layout) -> str:
    """The line above the calls once opened, saying what is being called and what the seat's
    options left out."""
    whose = f"{names[view.claim.discarder]}'s " if view.claim is not None else ""
    line = f"Ways to call {whose}{_called(view, layout)}:"
    if layout.hidden:
        line += (f" ({layout.hidden} more are hidden by your settings: `/mj settings`.)")
    return line


def _exposed(view: View, action: DeclareDead) -> str:
    seat = view.seats[action.target]
    shown = [format_group(e.tiles) for e in seat.exposures if e.rack == action.rack]
    return f"exposed: {', '.join(shown)}" if shown else "nothing exposed"


def dead_target(view: View, action: DeclareDead, names: Sequence[str]) -> str:
    """The hand a declaration is about, with what it shows: `Bo's rack 2 (exposed: 555D)`."""
    racks = len(view.seats[action.target].dead)
    return (f"{hand_name(names, action.target, action.rack, racks)} "
            f"({_exposed(view, action)})")


def dead_question(view: View, action: DeclareDead, names: Sequence[str]) -> str:
    """The confirmation a declaration needs: the hand, when it is dead, and what a wrong
    declaration costs the one who makes it."""
    racks = len(view.seats[action.target].dead)
    mine = ("your own hand dies instead: you stop playing and still pay" if
            len(view.seats[view.seat].dead) == 1
            else "one of your own racks dies instead and stops playing")
    return (f"Declare {hand_name(names, action.target, action.rack, racks)} dead "
            f"({_exposed(view, action)})? It is dead only if it can no longer become any "
            "hand on the card, judged from the tiles everyone can see. If you're wrong, "
            f"{mine}.")
