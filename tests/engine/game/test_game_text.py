"""Actions and events as text: every kind round-trips, and bad text gets a readable error."""

from __future__ import annotations

from typing import get_args

import pytest

from bot.engine.errors import InvalidInput
from bot.engine.game import (
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
    format_action,
    format_event,
    parse_action,
    parse_event,
)
from bot.engine.game.actions import Action
from bot.engine.game.event_text import NOTATION
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
from bot.engine.tiles import parse_tile, parse_tiles

B3 = parse_tile("3B")

ACTIONS: list[tuple[Action, str]] = [
    (Give(0, parse_tiles("1B 2C N")), "East: give 1B 2C N"),
    (Give(1, parse_tiles("1B"), 2), "South: give 1B blind=2"),
    (Give(2, (), 3), "West: give blind=3"),
    (Vote(3, True), "North: vote stop"),
    (Vote(3, False), "North: vote continue"),
    (Offer(0, 2), "East: offer 2"),
    (Discard(0, B3), "East: discard 3B"),
    (Call(1, B3, 3, 1), "South: call pung 3B jokers=1"),
    (Call(1, B3, 4), "South: call kong 3B"),
    (Call(1, B3, 5, 3, rack=1), "South: call quint 3B jokers=3 rack=2"),
    (Call(1, B3, 6, 2), "South: call sextet 3B jokers=2"),
    (CallMahjong(2), "West: call mahjong"),
    (Pass(3), "North: pass"),
    (Exchange(0, B3, 1, 0), "East: exchange 3B seat=South group=1"),
    (DeclareDead(0, 2), "East: dead West"),
    (DeclareDead(0, 3, 1), "East: dead North rack=2"),
    (Mahjong(0), "East: mahjong"),
    (Mahjong(0, rack=1, hands=("y1",), tiles=parse_tiles("1123B NN")),
     "East: mahjong rack=2 hands=y1 tiles=1123B,NN"),
    (Mahjong(0, both=True, hands=("a", "b")), "East: mahjong both hands=a,b"),
    (CallMahjong(1, rack=1), "South: call mahjong rack=2"),
    (SwapBlank(0, B3), "East: blank 3B"),
]


@pytest.mark.parametrize(("action", "text"), ACTIONS)
def test_actions_round_trip(action: Action, text: str) -> None:
    assert format_action(action, 4) == text
    assert parse_action(text, 4) == action


def test_actions_read_friendly_input() -> None:
    assert parse_action("east: DISCARD 3 bam", 4) == Discard(0, B3)
    assert parse_action("West: call mj", 2) == CallMahjong(1)
    assert parse_action("West: mahjong both", 2) == Mahjong(1, both=True)


@pytest.mark.parametrize(("text", "message"), [
    ("discard 3B", "should look like"),
    ("Nobody: discard 3B", "not a seat"),
    ("East: fly", "don't know the action"),
    ("East: discard", "needs a tile"),
    ("East: discard 3X", "don't know the tile"),
    ("East: call pair 3B", "pung, kong, quint, sextet or mahjong"),
    ("East: call", "what you call for"),
    ("East: exchange 3B seat=South", "needs `group=...`"),
    ("East: exchange 3B seat=South group=0", "start at 1"),
    ("East: vote maybe", "Vote `stop` or `continue`"),
    ("East: offer", "Offer a number"),
    ("East: offer two", "must be a number"),
    ("East: discard 3B now=yes", "don't understand `now=yes`"),
    ("East: discard 3B please", "don't know the tile `please`"),
    ("East: dead", "whose hand"),
])
def test_bad_action_text(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_action(text, 4)


EVENTS: list[tuple[Event, str]] = [
    (WallBuilt((3, 4), 7, 99), "Table: wall dice=3,4 break=7 tiles=99"),
    (WallBuilt((), 0, 99), "Table: wall dice=- break=0 tiles=99"),
    (WallBuilt((), 0, 98, walls=False), "Table: pool tiles=98"),
    (Dealt(0, 3, parse_tiles("1B 1B J")), "East: dealt 11B J"),
    (Dealt(1, 13, None), "South: dealt count=13"),
    (Ready(2), "West: ready"),
    (Passed(PassName.FIRST_LEFT), "Table: passed first-left"),
    (Received(1, 3, parse_tiles("1B 2C N")), "South: received 1B 2C N"),
    (Received(1, 0, ()), "South: received -"),
    (Received(1, 3, None), "South: received count=3"),
    (VoteResult(True), "Table: charleston stopped"),
    (VoteResult(False), "Table: charleston continues"),
    (CourtesyAgreed((1, 0, 1, 0)), "Table: courtesy East=1 South=0 West=1 North=0"),
    (PlayBegins(), "Table: play begins"),
    (Drew(0, B3), "East: draw 3B"),
    (Drew(0, None), "East: draw"),
    (Discarded(3, B3), "North: discard 3B"),
    (Exposed(1, B3, 3, 2, 0, 0), "South: exposed pung 3B jokers=2 from=East"),
    (Exposed(1, B3, 4, 0, 1, 0), "South: exposed kong 3B from=East rack=2"),
    (Exchanged(0, B3, 1, 0), "East: exchanged 3B seat=South group=1"),
    (BlankSwapped(0, B3), "East: swapped-blank 3B"),
    (DeclaredDead(0, 2, 0), "East: declared-dead West"),
    (HandDead(2, 0, DeathCause.DECLARED), "West: dead declared"),
    (HandDead(0, 1, DeathCause.WRONG_CALL), "East: dead wrong-call rack=2"),
    (MahjongShown(0, 0, "y1", (parse_tiles("2026B"), parse_tiles("FF")), True, None),
     "East: mahjong y1 groups=226B,0/FF self-picked"),
    (MahjongShown(1, 1, "p1", (parse_tiles("333B"), parse_tiles("J J 4B")), False, 0),
     "South: mahjong p1 groups=333B/4B,JJ rack=2 from=East"),
    (ScoreLine((50, -50, 0, 0), "South threw it."),
     "Table: score East=+50 South=-50 West=0 North=0 -- South threw it."),
    (GameOver(EndReason.WALL, (10, 0, 10, 10), (10, 0, 10, 10)),
     "Table: over wall totals=+10,0,+10,+10 settlement=+10,0,+10,+10"),
]


def test_every_event_of_the_engine_has_its_notation_and_round_trips_here() -> None:
    assert set(NOTATION) == set(get_args(Event))
    assert all(notation.event is kind for kind, notation in NOTATION.items())
    assert {type(event) for event, _ in EVENTS} == set(get_args(Event))


@pytest.mark.parametrize(("event", "text"), EVENTS)
def test_events_round_trip(event: Event, text: str) -> None:
    assert format_event(event, 4) == text
    reread = parse_event(text, 4)
    if isinstance(event, MahjongShown) and isinstance(reread, MahjongShown):
        # Text lists a group's tiles in rack order; the tiles are the same.
        assert [sorted(g) for g in reread.groups] == [sorted(g) for g in event.groups]
        assert format_event(reread, 4) == text
    else:
        assert reread == event


@pytest.mark.parametrize("text", ["Table: fly", "East: fly", "Table: passed nowhere",
                                  "East: exposed pair 3B from=South", "Table: dealt count=3",
                                  "East: pool tiles=98", "Nobody: discard 3B"])
def test_bad_event_text(text: str) -> None:
    with pytest.raises(InvalidInput):
        parse_event(text, 4)
