"""The Charleston: the passes, the stop vote, the courtesy pass (standard four-player game).

Every pass is simultaneous: each seat puts three tiles forward (hidden), and when all have,
the pass is carried out. The first Charleston (right, across, left) is compulsory; then any
seat may stop it; the second goes left, across, right. Blind passes are allowed on the first
left and the last right: a seat puts forward fewer than three of its own tiles and forwards
the rest unseen from the tiles coming to it. Jokers (and blanks) never travel. Last, each seat
offers 0-3 tiles to the seat across and the smaller offer of the two is traded.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine.errors import IllegalAction, NotYourTurn
from bot.engine.game.actions import Give, Offer, Option, TileChoice, Vote
from bot.engine.game.events import (
    CourtesyAgreed,
    Event,
    Passed,
    PassName,
    Ready,
    Received,
    VoteResult,
)
from bot.engine.game.flow import start_play
from bot.engine.game.rules import MAX_COURTESY, PASS_SIZE, BlindOrder, Charleston
from bot.engine.game.state import (
    CharlestonState,
    GameState,
    Phase,
    evolve,
    remove_ids,
    sorted_ids,
    with_seat,
)
from bot.engine.tiles import BLANK, JOKER

ACROSS = 2


@dataclass(frozen=True)
class PassStep:
    """One Charleston pass: its name, how far round the tiles go, whether blind is allowed."""

    name: PassName
    shift: int
    blind: bool


PASSES = (
    PassStep(PassName.FIRST_RIGHT, 1, False),
    PassStep(PassName.FIRST_ACROSS, ACROSS, False),
    PassStep(PassName.FIRST_LEFT, -1, True),
    PassStep(PassName.SECOND_LEFT, -1, False),
    PassStep(PassName.SECOND_ACROSS, ACROSS, False),
    PassStep(PassName.SECOND_RIGHT, 1, True),
)
#: The vote comes after this many passes (the compulsory first Charleston).
FIRST_CHARLESTON = 3


def begin(state: GameState, events: list[Event]) -> GameState:
    """After the deal: the first pass, or straight to play when there is no Charleston."""
    if state.rules.charleston is Charleston.NONE:
        return start_play(state, events)
    return evolve(state, phase=Phase.CHARLESTON,
                   charleston=CharlestonState(step=0, gives=(None,) * state.size))


def passable(state: GameState, seat: int) -> tuple[int, ...]:
    """The kinds a seat may pass (everything but jokers and blanks), in rack order."""
    return tuple(k for k in state.concealed_kinds(seat) if k not in (JOKER, BLANK))


def current_pass(state: GameState) -> PassStep:
    """The pass being put together."""
    assert state.charleston is not None
    return PASSES[state.charleston.step]


def _required(state: GameState, seat: int) -> tuple[int, int]:
    """How many tiles this seat gives now, and how many of them may be blind."""
    charleston = state.charleston
    assert charleston is not None
    if state.phase is Phase.COURTESY_PASS:
        return charleston.agreed[seat], 0
    return PASS_SIZE, PASS_SIZE if current_pass(state).blind else 0


def give(state: GameState, action: Give, events: list[Event]) -> GameState:
    """A seat puts its tiles forward; the pass happens when every seat has."""
    state.require_phase(Phase.CHARLESTON, Phase.COURTESY_PASS)
    charleston = state.charleston
    assert charleston is not None
    seat = action.seat
    count, blind_max = _required(state, seat)
    if state.phase is Phase.COURTESY_PASS and count == 0:
        raise NotYourTurn("You and the player across agreed on no courtesy tiles.")
    if charleston.gives[seat] is not None:
        raise IllegalAction("You've already passed; wait for the others.")
    if action.blind and not blind_max:
        raise IllegalAction("Blind passes are allowed only on the first left and the last "
                            "right pass.")
    if action.blind < 0 or len(action.kinds) + action.blind != count:
        raise IllegalAction(f"Pass exactly {count} tile{'s' if count != 1 else ''}"
                            + (" (your own plus any blind)." if blind_max else "."))
    if JOKER in action.kinds:
        raise IllegalAction("Jokers are never passed, in any pass.")
    if BLANK in action.kinds:
        raise IllegalAction("Blanks are never passed.")
    state.take(seat, action.kinds, "pass")
    gives = list(charleston.gives)
    gives[seat] = action
    state = evolve(state, charleston=evolve(charleston, gives=tuple(gives)))
    events.append(Ready(seat))
    if any(g is None and _required(state, s)[0] for s, g in enumerate(gives)):
        return state
    if state.phase is Phase.COURTESY_PASS:
        return _courtesy_swap(state, events)
    return _carry_out(state, events)


def _blind_order(state: GameState, blind: list[int]) -> list[int]:
    seats = list(range(state.size))
    if state.rules.blind_order is BlindOrder.EAST_FIRST:
        return seats
    return sorted(seats, key=lambda s: (blind[s], s))


def _carry_out(state: GameState, events: list[Event]) -> GameState:
    """Do the pass. Own tiles go into the pile towards the receiver; then, in the rules'
    order, each blind-passing seat moves tiles unseen (a seeded random pick) from the pile
    coming to it into its own pile, as many as are there, until every blind tile has moved.
    If every seat blind-passes all three, nothing moves."""
    step = current_pass(state)
    charleston = state.charleston
    assert charleston is not None
    size = state.size
    own: list[tuple[int, ...]] = []
    blind: list[int] = []
    for seat, given in enumerate(charleston.gives):
        assert given is not None
        own.append(state.take(seat, given.kinds, "pass"))
        blind.append(given.blind)
    piles = [list(ids) for ids in own]
    need = list(blind)
    rng = random.Random(f"{state.seed}:pass:{charleston.step}")
    order = _blind_order(state, blind)
    moved = True
    while any(need) and moved:
        moved = False
        for seat in order:
            incoming = piles[(seat - step.shift) % size]
            while need[seat] and incoming:
                piles[seat].append(incoming.pop(rng.randrange(len(incoming))))
                need[seat] -= 1
                moved = True
    assert not any(need) or not any(own), "blind tiles always find a pile to come from"
    events.append(Passed(step.name))
    for seat in range(size):
        received = piles[(seat - step.shift) % size]
        concealed = sorted_ids((*remove_ids(state.seats[seat].concealed, own[seat]),
                                *received))
        state = with_seat(state, seat, concealed=concealed)
        events.append(Received(seat, len(received), state.kinds(sorted_ids(received))))
    next_step = charleston.step + 1
    if next_step == FIRST_CHARLESTON:
        return evolve(state, phase=Phase.VOTE,
                       charleston=CharlestonState(step=next_step, votes=(None,) * size))
    if next_step == len(PASSES):
        return _courtesy(state)
    return evolve(state, charleston=CharlestonState(step=next_step, gives=(None,) * size))


def _courtesy(state: GameState) -> GameState:
    assert state.charleston is not None
    return evolve(state, phase=Phase.COURTESY_OFFER,
                   charleston=CharlestonState(step=state.charleston.step,
                                              offers=(None,) * state.size))


def vote(state: GameState, action: Vote, events: list[Event]) -> GameState:
    """A seat votes to stop or continue; one stop ends the Charleston."""
    state.require_phase(Phase.VOTE)
    charleston = state.charleston
    assert charleston is not None
    if charleston.votes[action.seat] is not None:
        raise IllegalAction("You've already voted; wait for the others.")
    votes = list(charleston.votes)
    votes[action.seat] = action.stop
    events.append(Ready(action.seat))
    charleston = evolve(charleston, votes=tuple(votes))
    state = evolve(state, charleston=charleston)
    if any(v is None for v in votes):
        return state
    stopped = any(votes)
    events.append(VoteResult(stopped))
    if stopped:
        return _courtesy(state)
    return evolve(state, phase=Phase.CHARLESTON,
                   charleston=CharlestonState(step=FIRST_CHARLESTON,
                                              gives=(None,) * state.size))


def max_offer(state: GameState, seat: int) -> int:
    """The most courtesy tiles a seat can offer."""
    return min(MAX_COURTESY, len(passable(state, seat)))


def offer(state: GameState, action: Offer, events: list[Event]) -> GameState:
    """A seat offers 0-3 courtesy tiles; the smaller offer across the table rules."""
    state.require_phase(Phase.COURTESY_OFFER)
    charleston = state.charleston
    assert charleston is not None
    if charleston.offers[action.seat] is not None:
        raise IllegalAction("You've already made your courtesy offer.")
    if not 0 <= action.count <= max_offer(state, action.seat):
        raise IllegalAction(f"Offer 0 to {max_offer(state, action.seat)} courtesy tiles.")
    offers = list(charleston.offers)
    offers[action.seat] = action.count
    events.append(Ready(action.seat))
    state = evolve(state, charleston=evolve(charleston, offers=tuple(offers)))
    if any(o is None for o in offers):
        return state
    agreed = tuple(min(o or 0, offers[(s + ACROSS) % state.size] or 0)
                   for s, o in enumerate(offers))
    events.append(CourtesyAgreed(agreed))
    if not any(agreed):
        return start_play(state, events)
    return evolve(state, phase=Phase.COURTESY_PASS,
                   charleston=evolve(charleston, offers=tuple(offers), agreed=agreed,
                                      gives=(None,) * state.size))


def _courtesy_swap(state: GameState, events: list[Event]) -> GameState:
    charleston = state.charleston
    assert charleston is not None
    own = [state.take(s, g.kinds, "pass") if g else () for s, g in enumerate(charleston.gives)]
    events.append(Passed(PassName.COURTESY))
    for seat in range(state.size):
        received = own[(seat + ACROSS) % state.size]
        concealed = sorted_ids((*remove_ids(state.seats[seat].concealed, own[seat]),
                                *received))
        state = with_seat(state, seat, concealed=concealed)
        if received:
            events.append(Received(seat, len(received), state.kinds(received)))
    return start_play(state, events)


def must_act(state: GameState, seat: int) -> bool:
    """Whether the seat still owes its answer in the Charleston phase now (`options` is not
    empty), without building the options."""
    charleston = state.charleston
    assert charleston is not None
    if state.phase is Phase.VOTE:
        return charleston.votes[seat] is None
    if state.phase is Phase.COURTESY_OFFER:
        return charleston.offers[seat] is None
    return charleston.gives[seat] is None and _required(state, seat)[0] > 0


def options(state: GameState, seat: int) -> list[Option]:
    """What a seat may do in the Charleston phases (the heavenly hand is added by the caller).
    """
    if not must_act(state, seat):
        return []
    if state.phase is Phase.VOTE:
        return [Option(Vote(seat, False)), Option(Vote(seat, True))]
    if state.phase is Phase.COURTESY_OFFER:
        return [Option(Offer(seat, n)) for n in range(max_offer(state, seat) + 1)]
    count, blind_max = _required(state, seat)
    kinds = passable(state, seat)
    example = Give(seat, kinds[:count])
    return [Option(example, TileChoice(count, kinds, blind_max))]
