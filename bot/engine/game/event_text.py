"""Events as text, one line each; `parse_event` reads back what `format_event` writes.

    Table: wall dice=3,4 break=7 tiles=100      East: dealt 1123B 5C NN J
    Table: wall dice=- break=0 tiles=100        Table: pool tiles=100
    South: dealt count=13                       Table: passed first-right
    South: received 12B N                       Table: charleston stopped
    Table: courtesy East=2 South=0 West=2 North=0
    East: draw 3B        East: draw             East: discard 3B
    South: exposed pung 3B jokers=1 from=East   East: exchanged 3B seat=South group=1
    East: declared-dead South                   South: dead declared
    East: mahjong c1 groups=NN/EE/WW/SS/11B/22B/33B self-picked
    Table: score East=+50 South=-50 West=0 North=0 -- South threw the winning tile
    Table: over mahjong totals=+50,-50,0,0 settlement=+50,-50,0,0
"""

from __future__ import annotations

from bot.engine.errors import InvalidInput, echo
from bot.engine.game.actions import GROUP_NAMES, GROUP_SIZES
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
from bot.engine.game.text import (
    TABLE,
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

_FLAGS = frozenset({"self-picked"})


def _points(points: tuple[int, ...], players: int) -> str:
    return " ".join(f"{seat_text(seat, players)}={value:+d}" if value else
                    f"{seat_text(seat, players)}=0" for seat, value in enumerate(points))


def _signed(values: tuple[int, ...]) -> str:
    return ",".join(f"{v:+d}" if v else "0" for v in values)


def _read_signed(text: str) -> tuple[int, ...]:
    return tuple(number(v, "Points") for v in text.split(","))


def _rack(rack: int) -> str:
    return f" rack={index_text(rack)}" if rack else ""


def _tiles_or_count(kinds: tuple[int, ...] | None, count: int) -> str:
    if kinds is None:
        return f"count={count}"
    return format_tiles(kinds) if kinds else "-"


def format_event(event: Event, players: int) -> str:
    """One line of text for an event."""
    who = TABLE
    match event:
        case WallBuilt(dice=dice, break_stack=stack, wall=wall, walls=walls):
            thrown = ",".join(map(str, dice)) or "-"
            body = (f"wall dice={thrown} break={stack} tiles={wall}" if walls
                    else f"pool tiles={wall}")
        case Dealt(seat=seat, count=count, kinds=kinds):
            who, body = seat_text(seat, players), "dealt " + _tiles_or_count(kinds, count)
        case Ready(seat=seat):
            who, body = seat_text(seat, players), "ready"
        case Passed(name=name):
            body = f"passed {name.value}"
        case Received(seat=seat, count=count, kinds=kinds):
            who, body = seat_text(seat, players), "received " + _tiles_or_count(kinds, count)
        case VoteResult(stopped=stopped):
            body = "charleston stopped" if stopped else "charleston continues"
        case CourtesyAgreed(counts=counts):
            body = "courtesy " + " ".join(f"{seat_text(s, players)}={c}"
                                          for s, c in enumerate(counts))
        case PlayBegins():
            body = "play begins"
        case Drew(seat=seat, kind=kind):
            who = seat_text(seat, players)
            body = "draw" + (f" {format_tile(kind)}" if kind is not None else "")
        case Discarded(seat=seat, kind=kind):
            who, body = seat_text(seat, players), f"discard {format_tile(kind)}"
        case Exposed(seat=seat, kind=kind, size=size, jokers=jokers, rack=rack,
                     discarder=discarder):
            who = seat_text(seat, players)
            body = f"exposed {GROUP_NAMES[size]} {format_tile(kind)}"
            body += f" jokers={jokers}" if jokers else ""
            body += f" from={seat_text(discarder, players)}{_rack(rack)}"
        case Exchanged(seat=seat, kind=kind, owner=owner, group=group):
            who = seat_text(seat, players)
            body = (f"exchanged {format_tile(kind)} seat={seat_text(owner, players)} "
                    f"group={index_text(group)}")
        case BlankSwapped(seat=seat, kind=kind):
            who, body = seat_text(seat, players), f"swapped-blank {format_tile(kind)}"
        case DeclaredDead(seat=seat, target=target, rack=rack):
            who = seat_text(seat, players)
            body = f"declared-dead {seat_text(target, players)}{_rack(rack)}"
        case HandDead(seat=seat, rack=rack, cause=cause):
            who, body = seat_text(seat, players), f"dead {cause.value}{_rack(rack)}"
        case MahjongShown(seat=seat, rack=rack, hand_id=hand_id, groups=groups,
                          self_picked=self_picked, discarder=discarder):
            who = seat_text(seat, players)
            body = f"mahjong {hand_id} groups=" + "/".join(tiles_text(g) for g in groups)
            body += _rack(rack)
            body += " self-picked" if self_picked else ""
            body += f" from={seat_text(discarder, players)}" if discarder is not None else ""
        case ScoreLine(points=points, text=text, bettor=bettor):
            body = f"score {_points(points, players)}"
            body += f" bettor={bettor:+d}" if bettor else ""
            body += f" -- {text}"
        case GameOver(reason=reason, totals=totals, settlement=settlement, bettor=bettor):
            body = (f"over {reason.value} totals={_signed(totals)} "
                    f"settlement={_signed(settlement)}")
            body += f" bettor={_signed((bettor,))}" if bettor is not None else ""
    return f"{who}: {body}"


def _read_points(line: Line, players: int) -> tuple[int, ...]:
    return tuple(number(line.option(seat_text(s, players).lower()), "Points")
                 for s in range(players))


def _read_tiles_or_count(line: Line) -> tuple[int, tuple[int, ...] | None]:
    if "count" in line.options:
        return number(line.option("count"), "count"), None
    kinds = parse_tiles_text(line.words)
    line.words.clear()
    return len(kinds), kinds


def _table_event(line: Line, players: int) -> Event:
    event: Event
    match line.verb:
        case "wall":
            thrown = line.option("dice")
            dice = () if thrown == "-" else tuple(number(d, "A die") for d in thrown.split(","))
            event = WallBuilt(dice, number(line.option("break"), "break"),
                              number(line.option("tiles"), "tiles"))
        case "pool":
            event = WallBuilt((), 0, number(line.option("tiles"), "tiles"), walls=False)
        case "passed":
            event = Passed(PassName(line.words.pop(0)))
        case "charleston":
            event = VoteResult(line.words.pop(0) == "stopped")
        case "courtesy":
            event = CourtesyAgreed(_read_points(line, players))
        case "play":
            line.words.remove("begins")
            event = PlayBegins()
        case "score":
            event = ScoreLine(_read_points(line, players), line.note,
                              number(line.option("bettor", "0"), "Points"))
        case "over":
            reason = EndReason(line.words.pop(0))
            bettor = line.option("bettor", "-")
            event = GameOver(reason, _read_signed(line.option("totals")),
                             _read_signed(line.option("settlement")),
                             None if bettor == "-" else number(bettor, "Points"))
        case _:
            raise InvalidInput(f"I don't know the table event `{echo(line.verb)}`.")
    return event


def _seat_event(line: Line, seat: int, players: int) -> Event:
    event: Event
    match line.verb:
        case "dealt":
            count, kinds = _read_tiles_or_count(line)
            event = Dealt(seat, count, kinds)
        case "ready":
            event = Ready(seat)
        case "received":
            count, kinds = _read_tiles_or_count(line)
            event = Received(seat, count, kinds)
        case "draw":
            event = Drew(seat, one_tile(line) if line.words else None)
        case "discard":
            event = Discarded(seat, one_tile(line))
        case "exposed":
            size = GROUP_SIZES[line.words.pop(0)]
            kind = one_tile(line)
            event = Exposed(seat, kind, size, number(line.option("jokers", "0"), "jokers"),
                            parse_index(line.option("rack", "1"), "A rack"),
                            parse_seat(line.option("from"), players))
        case "exchanged":
            kind = one_tile(line)
            event = Exchanged(seat, kind, parse_seat(line.option("seat"), players),
                              parse_index(line.option("group"), "A group"))
        case "swapped-blank":
            event = BlankSwapped(seat, one_tile(line))
        case "declared-dead":
            target = parse_seat(line.words.pop(0), players)
            event = DeclaredDead(seat, target, parse_index(line.option("rack", "1"), "A rack"))
        case "dead":
            cause = DeathCause(line.words.pop(0))
            event = HandDead(seat, parse_index(line.option("rack", "1"), "A rack"), cause)
        case "mahjong":
            hand_id = line.words.pop(0)
            groups = tuple(parse_tiles_text(g) for g in line.option("groups").split("/"))
            discarder = line.option("from", "")
            event = MahjongShown(
                seat, parse_index(line.option("rack", "1"), "A rack"), hand_id, groups,
                line.flag("self-picked"),
                parse_seat(discarder, players) if discarder else None)
        case _:
            raise InvalidInput(f"I don't know the event `{echo(line.verb)}`.")
    return event


def parse_event(text: str, players: int) -> Event:
    """Read an event written by `format_event`."""
    line = split_line(text, _FLAGS)
    try:
        if line.who == TABLE:
            event = _table_event(line, players)
        else:
            event = _seat_event(line, parse_seat(line.who, players), players)
    except (IndexError, KeyError, ValueError) as error:
        raise InvalidInput(f"I can't read the event `{echo(text)}`.") from error
    line.done(text)
    return event
