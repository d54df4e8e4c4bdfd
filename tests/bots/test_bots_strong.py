"""The Strong bot keeps its jokers like the scarcest tiles: it calls with the natural it holds
rather than a joker, exposes a joker only when the call is worth the joker someone could
exchange for, and keeps its jokers when it folds; its search is seeded (the same seed, the
same choice) and deals the tiles the opponents collect to their racks; feeding is priced by
the scoring profile."""

from __future__ import annotations

import dataclasses

import numpy as np
from bots_support import discard_options, make_view, small_card

from bot.bots import StrongPlayer
from bot.bots.reading import feed_cost
from bot.bots.rollout import Deals
from bot.bots.strong import TOURNAMENT_PAYOFF
from bot.engine.game import STANDARD, Option, View, new_game, view
from bot.engine.game.actions import Action, Call, Discard, Pass
from bot.engine.game.rules import Scoring, with_options
from bot.engine.tiles import JOKER, NUM_KINDS, format_tiles, parse_tiles, standard_counts
from bot.library import DEFAULT_CARD, shipped_card

COUNTS = standard_counts()


def _claim_options(view: View) -> list[Option]:
    """Passing, and every call the seat's tiles allow on the claimed tile (pungs and kongs,
    with any number of its jokers)."""
    assert view.claim is not None
    kind = view.claim.kind
    naturals, jokers = view.concealed.count(kind), view.concealed.count(JOKER)
    return [Option(Pass(view.seat)),
            *(Option(Call(view.seat, kind, size, used))
              for size in (3, 4) for used in range(jokers + 1)
              if 0 <= size - 1 - used <= naturals)]


def _answer(view: View, seed: int = 1, *, real_card: bool = False) -> Action:
    card = shipped_card() if real_card else small_card()
    return StrongPlayer(card, COUNTS, seed).choose(view, _claim_options(view))


def test_strong_calls_with_the_natural_it_holds_not_a_joker() -> None:
    """Holding two 5C and a joker, Strong calls the third 5C with its two naturals, keeping
    the joker on its rack (a joker can take any place later; a 5C only that one)."""
    seen = make_view("556B 55C 555D F J", exposures={0: ["SSS"]}, claim=(3, "5C"),
                     discards=[(3, "5C")])
    for seed in range(4):
        action = _answer(seen, seed, real_card=True)
        assert isinstance(action, Call) and action.jokers == 0, action


def _joker_call_view(every_natural_seen: bool) -> View:
    """Two jokers and no 3B, late in the game (24 tiles left): calling the 3B for a pung of
    Bams brings the hand a little closer; the other three 3B are unseen, or all thrown."""
    thrown = [(2, "3B"), (2, "3B"), (1, "3B")] if every_natural_seen else []
    seen = make_view("11B 22B J J 44B 55B 9C 9D N E", claim=(3, "3B"),
                     discards=[*thrown, (3, "3B")])
    return dataclasses.replace(seen, wall_count=24)


def test_strong_exposes_jokers_only_where_nobody_can_exchange_for_them() -> None:
    """With every other 3B thrown nobody can exchange a 3B for the exposed jokers, and the
    small gain is worth the call; with three 3B unseen, the jokers would go to whoever draws
    one, and the same small gain is not worth them."""
    for seed in range(4):
        assert _answer(_joker_call_view(every_natural_seen=True), seed) == Call(0, 2, 3, 2)
        assert _answer(_joker_call_view(every_natural_seen=False), seed) == Pass(0)


def test_strong_folded_keeps_its_jokers() -> None:
    """Far from any hand with nothing but tiles the opponents want, Strong folds, throwing
    the least dangerous natural: a joker thrown saves nothing (a self-pick costs it as much
    as feeding) and leaves it no way back."""
    threats = {"exposures": {1: ["111B", "222B", "333B"], 2: ["555D", "666D", "888D"]}}
    for seed in range(4):
        seen = make_view("4B 5B 7D 9D J J", **threats)  # type: ignore[arg-type]
        action = StrongPlayer(small_card(), COUNTS, seed).choose(seen, discard_options(seen))
        assert isinstance(action, Discard) and action.kind != JOKER, action
        assert format_tiles((action.kind,)) in ("7D", "9D", "4B", "5B")


def test_strong_is_seeded() -> None:
    """The sampled deals come from the bot's seed: the same seed, the same choices."""
    seen = make_view("11 22 33B 11 22 33C 9D N 4D")
    picks = [StrongPlayer(small_card(), COUNTS, 5).choose(seen, discard_options(seen))
             for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]


def test_strong_prices_a_win_by_the_tables_scoring_not_its_rules_name() -> None:
    """A house option can change the scoring under a preset's name (a Standard table scored
    by the tournament sheet): the view says how the game is scored, and Strong prices what
    a win collects by that."""
    card = shipped_card(DEFAULT_CARD)
    names = ["a", "b", "c", "d"]
    for rules, payoff in ((STANDARD, 5.0),
                          (with_options(STANDARD, "scoring=tournament"), TOURNAMENT_PAYOFF)):
        seen = view(new_game(rules, card, 3, names), 0)
        assert seen.rules == STANDARD.name
        assert seen.scoring is rules.scoring
        assert StrongPlayer(card, rules.counts)._payoff(seen) == payoff


def test_tiles_the_opponents_collect_come_less_often() -> None:
    """Four 3B and four 7D unseen, four of the eight on the opponents' racks: when the
    opponents' hands use 3B, the sampled deals give the seat 3B far less often than 7D;
    when nobody's hand says which, about as often."""
    three, seven = parse_tiles("3B 7D")
    live = [0] * NUM_KINDS
    live[three] = live[seven] = 4
    for collected, favoured in ((40.0, True), (1.0, False)):
        weights = [1.0] * NUM_KINDS
        weights[three] = collected
        deals = Deals(np.random.default_rng(3), live, 2.0, 4, weights, 400)
        drawn = deals.mine[1].mean(axis=0)
        if favoured:
            assert drawn[three] < 0.5 * drawn[seven]
        else:
            assert abs(drawn[three] - drawn[seven]) < 0.2 * drawn[seven]


def test_feeding_is_priced_by_the_scoring_profile() -> None:
    """Under the tournament sheet feeding costs the thrower's penalty whatever the hand's
    value; under NMJL payments it grows with the value, and costs less than the two-rack
    games' full payment (the waiting hand would often have cost the thrower anyway)."""
    values = np.array([25.0, 50.0])
    assert feed_cost(Scoring.TOURNAMENT, values, 3).tolist() == [25.0, 25.0]
    assert feed_cost(Scoring.TOURNAMENT, values, 0).tolist() == [10.0, 10.0]
    nmjl = feed_cost(Scoring.NMJL, values, 2)
    assert nmjl[1] == 2 * nmjl[0]
    assert (nmjl < feed_cost(Scoring.SIAMESE, values, 2)).all()
