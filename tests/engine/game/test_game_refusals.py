"""A refusal never tells a seat what it may not see: whatever a seat tries, whether it is
refused and the words of the refusal are the same when other seats hold other hidden tiles
(and the wall is in another order). Probed at many moments of whole games, with every kind
of action naming every tile."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from game_cards import engine_card
from game_helpers import NAMES, unseen_changed
from game_policy import choose

from bot.engine.errors import IllegalAction
from bot.engine.game import (
    Call,
    CallMahjong,
    DeclareDead,
    Discard,
    Exchange,
    GameState,
    Give,
    Mahjong,
    Offer,
    Pass,
    Phase,
    SwapBlank,
    Vote,
    apply,
    new_game,
    seats_to_act,
)
from bot.engine.game.actions import Action
from bot.engine.game.rules import STANDARD, THREE_PLAYER, RuleSet
from bot.engine.tiles import NUM_KINDS

#: Probe every so many moves (every move would make the test slow for nothing new).
PROBE_EVERY = 9


def probes(state: GameState, seat: int) -> Iterator[Action]:
    """Actions a person could try for `seat` now, legal or not, naming every tile kind."""
    for kind in range(NUM_KINDS):
        yield Discard(seat, kind)
        yield Call(seat, kind, 3)
        yield Call(seat, kind, 4, jokers=1)
        yield SwapBlank(seat, kind)
        yield Give(seat, (kind, kind, kind))
        yield Mahjong(seat, tiles=(kind,))
        for owner, held in enumerate(state.seats):
            for group in range(len(held.exposures) + 1):
                yield Exchange(seat, kind, owner, group)
    for target in range(state.size):
        yield DeclareDead(seat, target)
    yield from (Pass(seat), Vote(seat, True), Offer(seat, 2), Mahjong(seat), CallMahjong(seat),
                Mahjong(seat, hands=("p1",)))


def outcome(state: GameState, action: Action) -> str:
    """What the seat learns from trying `action`: the refusal's words, or that it went."""
    try:
        apply(state, action)
    except IllegalAction as refusal:
        return refusal.message
    return "applied"


@pytest.mark.parametrize("rules", [STANDARD, THREE_PLAYER], ids=lambda r: r.name)
def test_a_refusal_is_the_same_whatever_the_others_hide(rules: RuleSet) -> None:
    state = new_game(rules, engine_card(), 11, NAMES[:rules.players])
    probed = 0
    for step in range(2000):
        if state.phase is Phase.OVER:
            break
        if step % PROBE_EVERY == 0:
            for seat in range(rules.players):
                other = unseen_changed(state, seat)
                assert other != state
                for action in probes(state, seat):
                    assert outcome(state, action) == outcome(other, action), (
                        f"{action} at step {step}: the answer depends on hidden tiles")
                    probed += 1
        seat = seats_to_act(state)[0]
        state, _ = apply(state, choose(state, seat))
    assert state.phase is Phase.OVER
    assert probed > 5000
