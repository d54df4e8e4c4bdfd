"""Actions as text, for game logs, tests and typed commands; `parse_action` reads back what
`format_action` writes.

    East: give 12B N            East: give 1B blind=2        East: vote stop
    East: offer 2               East: discard 3B             South: call pung 3B jokers=1
    West: pass                  West: call mahjong           East: exchange 3B seat=South group=1
    East: dead South            East: mahjong                East: blank 3B
    East: mahjong rack=2 hands=y1 tiles=1123B,NN             East: mahjong both
"""

from __future__ import annotations

from bot.engine.errors import InvalidInput, echo
from bot.engine.game.actions import (
    GROUP_NAMES,
    GROUP_SIZES,
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
from bot.engine.game.text import (
    Line,
    index_text,
    number,
    one_tile,
    parse_index,
    parse_seat,
    parse_tiles_text,
    seat_text,
    split_line,
    tiles_text,
)
from bot.engine.tiles import format_tile, format_tiles

_FLAGS = frozenset({"both"})


def _mahjong_args(action: Mahjong | CallMahjong) -> str:
    parts: list[str] = []
    if action.both:
        parts.append("both")
    elif action.rack:
        parts.append(f"rack={index_text(action.rack)}")
    if action.hands:
        parts.append("hands=" + ",".join(action.hands))
    if action.tiles:
        parts.append("tiles=" + tiles_text(action.tiles))
    return "".join(" " + part for part in parts)


def format_action(action: Action, players: int) -> str:
    """One line of text for an action, e.g. `South: call pung 3B jokers=1`."""
    who = seat_text(action.seat, players)
    match action:
        case Give(kinds=kinds, blind=blind):
            body = "give" + (f" {format_tiles(kinds)}" if kinds else "")
            body += f" blind={blind}" if blind else ""
        case Vote(stop=stop):
            body = "vote stop" if stop else "vote continue"
        case Offer(count=count):
            body = f"offer {count}"
        case Discard(kind=kind):
            body = f"discard {format_tile(kind)}"
        case Call(kind=kind, size=size, jokers=jokers, rack=rack):
            body = f"call {GROUP_NAMES[size]} {format_tile(kind)}"
            body += f" jokers={jokers}" if jokers else ""
            body += f" rack={index_text(rack)}" if rack else ""
        case Pass():
            body = "pass"
        case Exchange(kind=kind, owner=owner, group=group):
            body = (f"exchange {format_tile(kind)} seat={seat_text(owner, players)} "
                    f"group={index_text(group)}")
        case DeclareDead(target=target, rack=rack):
            body = f"dead {seat_text(target, players)}"
            body += f" rack={index_text(rack)}" if rack else ""
        case Mahjong():
            body = "mahjong" + _mahjong_args(action)
        case CallMahjong():
            body = "call mahjong" + _mahjong_args(action)
        case SwapBlank(kind=kind):
            body = f"blank {format_tile(kind)}"
    return f"{who}: {body}"


def _read_mahjong(line: Line, seat: int) -> Mahjong:
    """The fields of `mahjong` (and `call mahjong`), read into a `Mahjong`."""
    both = line.flag("both")
    rack = parse_index(line.option("rack", "1"), "A rack")
    hands_text = line.option("hands", "")
    hands = tuple(h for h in hands_text.split(",") if h)
    tiles = parse_tiles_text(line.option("tiles", ""))
    return Mahjong(seat, rack=rack, both=both, hands=hands, tiles=tiles)


def _read_call(line: Line, seat: int) -> Call | CallMahjong:
    if not line.words:
        raise InvalidInput("`call` needs what you call for: pung, kong, quint, sextet or "
                           "mahjong, e.g. `call pung 3B`.")
    what = line.words.pop(0).lower()
    if what in ("mahjong", "mj"):
        asked = _read_mahjong(line, seat)
        return CallMahjong(seat, asked.rack, asked.both, asked.hands, asked.tiles)
    if what not in GROUP_SIZES:
        raise InvalidInput(f"You can call for a pung, kong, quint, sextet or mahjong, "
                           f"not `{echo(what)}`.")
    kind = one_tile(line)
    jokers = number(line.option("jokers", "0"), "jokers")
    rack = parse_index(line.option("rack", "1"), "A rack")
    return Call(seat, kind, GROUP_SIZES[what], jokers, rack)


def parse_action(text: str, players: int) -> Action:
    """Read an action written by `format_action` (seat names are the table's winds)."""
    line = split_line(text, _FLAGS)
    seat = parse_seat(line.who, players)
    action: Action
    match line.verb:
        case "give":
            blind = number(line.option("blind", "0"), "blind")
            action = Give(seat, parse_tiles_text(line.words), blind)
            line.words.clear()
        case "vote":
            choice = line.words.pop(0).lower() if line.words else ""
            if choice not in ("stop", "continue"):
                raise InvalidInput("Vote `stop` or `continue`.")
            action = Vote(seat, choice == "stop")
        case "offer":
            if not line.words:
                raise InvalidInput("Offer a number of tiles from 0 to 3, e.g. `offer 2`.")
            action = Offer(seat, number(line.words.pop(0), "The offer"))
        case "discard":
            action = Discard(seat, one_tile(line))
        case "call":
            action = _read_call(line, seat)
        case "pass":
            action = Pass(seat)
        case "exchange":
            kind = one_tile(line)
            owner = parse_seat(line.option("seat"), players)
            action = Exchange(seat, kind, owner, parse_index(line.option("group"), "A group"))
        case "dead":
            if not line.words:
                raise InvalidInput("Say whose hand is dead, e.g. `dead South`.")
            target = parse_seat(line.words.pop(0), players)
            action = DeclareDead(seat, target, parse_index(line.option("rack", "1"), "A rack"))
        case "mahjong" | "mj":
            action = _read_mahjong(line, seat)
        case "blank":
            action = SwapBlank(seat, one_tile(line))
        case _:
            raise InvalidInput(f"I don't know the action `{echo(line.verb)}`. Try discard, call, "
                               "pass, exchange, dead, mahjong, give, vote or offer.")
    line.done(text)
    return action
