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

`NOTATION` declares, for every kind of event, how its line is written and read back, side by
side; a new event gets its entry there and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

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


def _read_points(line: Line, players: int) -> tuple[int, ...]:
    return tuple(number(line.option(seat_text(s, players).lower()), "Points")
                 for s in range(players))


def _signed(values: tuple[int, ...]) -> str:
    return ",".join(f"{v:+d}" if v else "0" for v in values)


def _read_signed(text: str) -> tuple[int, ...]:
    return tuple(number(v, "Points") for v in text.split(","))


def _rack(rack: int) -> str:
    return f" rack={index_text(rack)}" if rack else ""


def _read_rack(line: Line) -> int:
    return parse_index(line.option("rack", "1"), "A rack")


def _tiles_or_count(kinds: tuple[int, ...] | None, count: int) -> str:
    if kinds is None:
        return f"count={count}"
    return format_tiles(kinds) if kinds else "-"


def _read_tiles_or_count(line: Line) -> tuple[int, tuple[int, ...] | None]:
    if "count" in line.options:
        return number(line.option("count"), "count"), None
    kinds = parse_tiles_text(line.words)
    line.words.clear()
    return len(kinds), kinds


def _who(line: Line, players: int) -> int:
    """The seat a seat's line is by."""
    return parse_seat(line.who, players)


# -- each event's line, written and read -------------------------------------------------------

def _write_wall(event: WallBuilt, players: int) -> str:
    if not event.walls:
        return f"pool tiles={event.wall}"
    thrown = ",".join(map(str, event.dice)) or "-"
    return f"wall dice={thrown} break={event.break_stack} tiles={event.wall}"


def _read_wall(line: Line, players: int) -> WallBuilt:
    if line.verb == "pool":
        return WallBuilt((), 0, number(line.option("tiles"), "tiles"), walls=False)
    thrown = line.option("dice")
    dice = () if thrown == "-" else tuple(number(d, "A die") for d in thrown.split(","))
    return WallBuilt(dice, number(line.option("break"), "break"),
                     number(line.option("tiles"), "tiles"))


def _write_dealt(event: Dealt, players: int) -> str:
    return "dealt " + _tiles_or_count(event.kinds, event.count)


def _read_dealt(line: Line, players: int) -> Dealt:
    return Dealt(_who(line, players), *_read_tiles_or_count(line))


def _write_ready(event: Ready, players: int) -> str:
    return "ready"


def _read_ready(line: Line, players: int) -> Ready:
    return Ready(_who(line, players))


def _write_passed(event: Passed, players: int) -> str:
    return f"passed {event.name.value}"


def _read_passed(line: Line, players: int) -> Passed:
    return Passed(PassName(line.words.pop(0)))


def _write_received(event: Received, players: int) -> str:
    return "received " + _tiles_or_count(event.kinds, event.count)


def _read_received(line: Line, players: int) -> Received:
    return Received(_who(line, players), *_read_tiles_or_count(line))


def _write_vote(event: VoteResult, players: int) -> str:
    return "charleston stopped" if event.stopped else "charleston continues"


def _read_vote(line: Line, players: int) -> VoteResult:
    return VoteResult(line.words.pop(0) == "stopped")


def _write_courtesy(event: CourtesyAgreed, players: int) -> str:
    return "courtesy " + " ".join(f"{seat_text(s, players)}={c}"
                                  for s, c in enumerate(event.counts))


def _read_courtesy(line: Line, players: int) -> CourtesyAgreed:
    return CourtesyAgreed(_read_points(line, players))


def _write_play(event: PlayBegins, players: int) -> str:
    return "play begins"


def _read_play(line: Line, players: int) -> PlayBegins:
    line.words.remove("begins")
    return PlayBegins()


def _write_draw(event: Drew, players: int) -> str:
    return "draw" + (f" {format_tile(event.kind)}" if event.kind is not None else "")


def _read_draw(line: Line, players: int) -> Drew:
    return Drew(_who(line, players), one_tile(line) if line.words else None)


def _write_discard(event: Discarded, players: int) -> str:
    return f"discard {format_tile(event.kind)}"


def _read_discard(line: Line, players: int) -> Discarded:
    return Discarded(_who(line, players), one_tile(line))


def _write_exposed(event: Exposed, players: int) -> str:
    body = f"exposed {GROUP_NAMES[event.size]} {format_tile(event.kind)}"
    body += f" jokers={event.jokers}" if event.jokers else ""
    return body + f" from={seat_text(event.discarder, players)}{_rack(event.rack)}"


def _read_exposed(line: Line, players: int) -> Exposed:
    size = GROUP_SIZES[line.words.pop(0)]
    kind = one_tile(line)
    return Exposed(_who(line, players), kind, size,
                   number(line.option("jokers", "0"), "jokers"), _read_rack(line),
                   parse_seat(line.option("from"), players))


def _write_exchanged(event: Exchanged, players: int) -> str:
    return (f"exchanged {format_tile(event.kind)} seat={seat_text(event.owner, players)} "
            f"group={index_text(event.group)}")


def _read_exchanged(line: Line, players: int) -> Exchanged:
    kind = one_tile(line)
    return Exchanged(_who(line, players), kind, parse_seat(line.option("seat"), players),
                     parse_index(line.option("group"), "A group"))


def _write_blank(event: BlankSwapped, players: int) -> str:
    return f"swapped-blank {format_tile(event.kind)}"


def _read_blank(line: Line, players: int) -> BlankSwapped:
    return BlankSwapped(_who(line, players), one_tile(line))


def _write_declared(event: DeclaredDead, players: int) -> str:
    return f"declared-dead {seat_text(event.target, players)}{_rack(event.rack)}"


def _read_declared(line: Line, players: int) -> DeclaredDead:
    target = parse_seat(line.words.pop(0), players)
    return DeclaredDead(_who(line, players), target, _read_rack(line))


def _write_dead(event: HandDead, players: int) -> str:
    return f"dead {event.cause.value}{_rack(event.rack)}"


def _read_dead(line: Line, players: int) -> HandDead:
    cause = DeathCause(line.words.pop(0))
    return HandDead(_who(line, players), _read_rack(line), cause)


def _write_mahjong(event: MahjongShown, players: int) -> str:
    body = f"mahjong {event.hand_id} groups=" + "/".join(tiles_text(g) for g in event.groups)
    body += _rack(event.rack)
    body += " self-picked" if event.self_picked else ""
    by = event.discarder
    return body + (f" from={seat_text(by, players)}" if by is not None else "")


def _read_mahjong(line: Line, players: int) -> MahjongShown:
    hand_id = line.words.pop(0)
    groups = tuple(parse_tiles_text(g) for g in line.option("groups").split("/"))
    discarder = line.option("from", "")
    return MahjongShown(_who(line, players), _read_rack(line), hand_id, groups,
                        line.flag("self-picked"),
                        parse_seat(discarder, players) if discarder else None)


def _write_score(event: ScoreLine, players: int) -> str:
    body = f"score {_points(event.points, players)}"
    body += f" bettor={event.bettor:+d}" if event.bettor else ""
    return body + f" -- {event.text}"


def _read_score(line: Line, players: int) -> ScoreLine:
    return ScoreLine(_read_points(line, players), line.note,
                     number(line.option("bettor", "0"), "Points"))


def _write_over(event: GameOver, players: int) -> str:
    body = (f"over {event.reason.value} totals={_signed(event.totals)} "
            f"settlement={_signed(event.settlement)}")
    bettor = event.bettor
    return body + (f" bettor={_signed((bettor,))}" if bettor is not None else "")


def _read_over(line: Line, players: int) -> GameOver:
    reason = EndReason(line.words.pop(0))
    bettor = line.option("bettor", "-")
    return GameOver(reason, _read_signed(line.option("totals")),
                    _read_signed(line.option("settlement")),
                    None if bettor == "-" else number(bettor, "Points"))


# -- the table of them -------------------------------------------------------------------------

class _Seated(Protocol):
    @property
    def seat(self) -> int:
        """The seat the event is about."""


def _seat(event: _Seated) -> int:
    return event.seat


E = TypeVar("E")


@dataclass(frozen=True)
class Notation(Generic[E]):
    """How one kind of event is written on a line, `Who: verb ...`, and read back: `write`
    gives what follows `Who: ` and `read` the event from a line with one of its `verbs`
    (given the table's number of players). `Who` is `seat(event)`'s wind, or `Table` for an
    event of the whole table (no `seat`)."""

    event: type[E]
    verbs: tuple[str, ...]
    write: Callable[[E, int], str]
    read: Callable[[Line, int], E]
    seat: Callable[[E], int] | None = None


#: Every kind of event and its line (`tests/engine/game/test_game_text.py` checks that every
#: event has its entry).
NOTATION: dict[type[Event], Notation[Any]] = {notation.event: notation for notation in (
    Notation(WallBuilt, ("wall", "pool"), _write_wall, _read_wall),
    Notation(Dealt, ("dealt",), _write_dealt, _read_dealt, seat=_seat),
    Notation(Ready, ("ready",), _write_ready, _read_ready, seat=_seat),
    Notation(Passed, ("passed",), _write_passed, _read_passed),
    Notation(Received, ("received",), _write_received, _read_received, seat=_seat),
    Notation(VoteResult, ("charleston",), _write_vote, _read_vote),
    Notation(CourtesyAgreed, ("courtesy",), _write_courtesy, _read_courtesy),
    Notation(PlayBegins, ("play",), _write_play, _read_play),
    Notation(Drew, ("draw",), _write_draw, _read_draw, seat=_seat),
    Notation(Discarded, ("discard",), _write_discard, _read_discard, seat=_seat),
    Notation(Exposed, ("exposed",), _write_exposed, _read_exposed, seat=_seat),
    Notation(Exchanged, ("exchanged",), _write_exchanged, _read_exchanged, seat=_seat),
    Notation(BlankSwapped, ("swapped-blank",), _write_blank, _read_blank, seat=_seat),
    Notation(DeclaredDead, ("declared-dead",), _write_declared, _read_declared, seat=_seat),
    Notation(HandDead, ("dead",), _write_dead, _read_dead, seat=_seat),
    Notation(MahjongShown, ("mahjong",), _write_mahjong, _read_mahjong, seat=_seat),
    Notation(ScoreLine, ("score",), _write_score, _read_score),
    Notation(GameOver, ("over",), _write_over, _read_over),
)}

#: The notation of each line by who wrote it (a seat, or not) and its verb.
_BY_VERB = {(notation.seat is not None, verb): notation
            for notation in NOTATION.values() for verb in notation.verbs}


def format_event(event: Event, players: int) -> str:
    """One line of text for an event."""
    notation = NOTATION[type(event)]
    who = TABLE if notation.seat is None else seat_text(notation.seat(event), players)
    return f"{who}: {notation.write(event, players)}"


def parse_event(text: str, players: int) -> Event:
    """Read an event written by `format_event`."""
    line = split_line(text, _FLAGS)
    seated = line.who != TABLE
    notation = _BY_VERB.get((seated, line.verb))
    if notation is None:
        raise InvalidInput(f"I don't know the {'' if seated else 'table '}event "
                           f"`{echo(line.verb)}`.")
    try:
        event: Event = notation.read(line, players)
    except (IndexError, KeyError, ValueError) as error:
        raise InvalidInput(f"I can't read the event `{echo(text)}`.") from error
    line.done(text)
    return event
