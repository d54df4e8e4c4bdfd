"""Matcher invariants, checked with Hypothesis on the fixture card (every language feature).

Winning hands are generated here, independently of `bot.engine.cards.examples`: for a random
variation, each joker-able group gets a random number of jokers (and flowers where flowers are
wild), and in hands that allow exposures random groups are exposed.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.engine.cards import load_card
from bot.engine.matcher import CardMatcher, Exposure, PlayerHand
from bot.engine.tiles import FLOWER, JOKER, STANDARD_COUNTS, physical_tiles

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "features.jongg"
CARD = load_card(FIXTURE.read_bytes())
MATCHER = CardMatcher(CARD)
ALL_HANDS = len(CARD.hands)
#: Tile kinds a seat can hold (no blanks in a standard set).
KINDS = tuple(range(JOKER + 1))

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@st.composite
def winners(draw: st.DrawFn) -> tuple[str, PlayerHand]:
    """A random winning hand and the id of the card hand it makes."""
    variation = draw(st.sampled_from(MATCHER.variations))
    hand = CARD.hands[variation.hand_index]
    concealed: list[int] = []
    exposures: list[Exposure] = []
    for group in variation.groups:
        if not group.jokers_ok:
            exposable = group.identical and group.size >= 3 and not hand.concealed
            if exposable and draw(st.booleans()):
                exposures.append(Exposure(group.kind, group.size))
            else:
                concealed.extend(group.tiles)
            continue
        exposed = not hand.concealed and draw(st.booleans())
        most = group.size - 1 if exposed else group.size
        jokers = draw(st.integers(0, most))
        flowers = 0
        if group.flowers_wild and not exposed:
            flowers = draw(st.integers(0, group.size - jokers))
        naturals = group.size - jokers - flowers
        if exposed:
            exposures.append(Exposure(group.kind, group.size, jokers))
        else:
            concealed.extend([group.kind] * naturals + [JOKER] * jokers + [FLOWER] * flowers)
    player = PlayerHand(tuple(draw(st.permutations(concealed))), tuple(exposures))
    assume(real(player))
    return hand.id, player


def real(hand: PlayerHand) -> bool:
    """Whether a set holds the hand's tiles: no more of a kind than it has."""
    use = Counter(hand.concealed)
    for exposure in hand.exposures:
        use.update(exposure.tiles)
    return all(use[kind] <= STANDARD_COUNTS[kind] for kind in use)


def ids(hand: PlayerHand) -> set[str]:
    return {match.hand.id for match in MATCHER.mahjong(hand)}


def without(hand: PlayerHand, kind: int) -> PlayerHand:
    tiles = list(hand.concealed)
    tiles.remove(kind)
    return PlayerHand(tuple(tiles), hand.exposures)


def with_tile(hand: PlayerHand, kind: int) -> PlayerHand:
    return PlayerHand((*hand.concealed, kind), hand.exposures)


@st.composite
def thirteen(draw: st.DrawFn) -> PlayerHand:
    """A 13-tile hand a set can hold: a winner with one tile out, sometimes with another tile
    swapped, or 13 tiles at random from a set."""
    how = draw(st.sampled_from(["near", "swapped", "random"]))
    if how == "random":
        hand = PlayerHand(tuple(draw(st.lists(st.sampled_from(physical_tiles()), min_size=13,
                                              max_size=13))))
    else:
        _, winner = draw(winners())
        assume(winner.concealed)
        hand = without(winner, draw(st.sampled_from(winner.concealed)))
        if how == "swapped" and hand.concealed:
            hand = without(hand, draw(st.sampled_from(hand.concealed)))
            hand = with_tile(hand, draw(st.sampled_from(KINDS)))
    assume(real(hand))
    return hand


@st.composite
def fourteen(draw: st.DrawFn) -> PlayerHand:
    """A 14-tile hand a set can hold: a winner, a winner with one tile swapped, or random
    tiles."""
    how = draw(st.sampled_from(["winner", "swapped", "random"]))
    if how == "random":
        hand = PlayerHand(tuple(draw(st.lists(st.sampled_from(physical_tiles()), min_size=14,
                                              max_size=14))))
    else:
        _, hand = draw(winners())
        if how == "swapped" and hand.concealed:
            hand = with_tile(without(hand, draw(st.sampled_from(hand.concealed))),
                             draw(st.sampled_from(KINDS)))
    assume(real(hand))
    return hand


@SETTINGS
@given(winners())
def test_a_generated_winner_always_matches_its_hand(case: tuple[str, PlayerHand]) -> None:
    hand_id, winner = case
    assert winner.size == 14
    assert hand_id in ids(winner), str(winner)


@SETTINGS
@given(winners(), st.data())
def test_one_tile_out_is_one_away_and_waits_for_that_tile(case: tuple[str, PlayerHand],
                                                          data: st.DataObject) -> None:
    hand_id, winner = case
    naturals = [kind for kind in winner.concealed if kind != JOKER]
    assume(naturals)
    removed = data.draw(st.sampled_from(naturals), label="removed")
    short = without(winner, removed)
    near = {n.hand.id: n for n in MATCHER.nearest(short, count=ALL_HANDS)}
    assert near[hand_id].away == 1, str(short)
    waiting = {w.tile: {h.id for h in w.hands} for w in MATCHER.waits(short)}
    assert hand_id in waiting.get(removed, set()), str(short)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(thirteen())
def test_waits_equal_adding_every_tile_and_asking_mahjong(hand: PlayerHand) -> None:
    brute = {}
    for kind in KINDS:
        more = with_tile(hand, kind)
        found = ids(more) if real(more) else set()
        if found:
            brute[kind] = found
    waiting = {w.tile: {h.id for h in w.hands} for w in MATCHER.waits(hand)}
    assert waiting == brute, str(hand)
    assert [w.tile for w in MATCHER.waits(hand)] == sorted(waiting)


@SETTINGS
@given(fourteen())
def test_zero_away_exactly_when_mahjong(hand: PlayerHand) -> None:
    nearest = MATCHER.nearest(hand, count=ALL_HANDS)
    won = ids(hand)
    assert (bool(nearest) and nearest[0].away == 0) == bool(won), str(hand)
    assert {n.hand.id for n in nearest if n.away == 0} == won, str(hand)


@SETTINGS
@given(fourteen())
def test_mahjong_results_are_best_first_and_use_the_seat_tiles(hand: PlayerHand) -> None:
    found = MATCHER.mahjong(hand)
    scores = [(-m.score_value, m.hand.line) for m in found]
    assert scores == sorted(scores)
    for match in found:
        laid = Counter(kind for group in match.groups for kind in group)
        held = Counter(hand.concealed)
        for exposure in hand.exposures:
            held.update(exposure.tiles)
        assert laid == held, f"{hand}: {match.groups}"
        assert match.jokers == held[JOKER]


#: The kinds a discard can be: every natural (jokers are never claimed, blanks never thrown).
NATURALS = tuple(range(FLOWER + 1))


@SETTINGS
@given(thirteen())
def test_completing_kinds_are_the_discards_that_make_mahjong(hand: PlayerHand) -> None:
    found = MATCHER.completing_kinds(hand.concealed, hand.exposures)
    assert found == {kind for kind in NATURALS if ids(with_tile(hand, kind))}, str(hand)


@SETTINGS
@given(winners(), st.lists(st.sampled_from(physical_tiles()), min_size=1, max_size=13),
       st.data())
def test_completing_kinds_cover_every_tile_that_completes_a_bigger_pool(
        case: tuple[str, PlayerHand], extra: list[int], data: st.DataObject) -> None:
    # A two-rack pool: a winner's tiles less one, and other tiles the rack need not use.
    _, winner = case
    assume(winner.concealed)
    short = without(winner, data.draw(st.sampled_from(winner.concealed), label="removed"))
    pool = PlayerHand((*short.concealed, *extra), short.exposures)
    found = MATCHER.completing_kinds(pool.concealed, pool.exposures)
    for kind in NATURALS:
        nearest = MATCHER.nearest(with_tile(pool, kind), count=1)
        if nearest and nearest[0].away == 0:
            assert found is None or kind in found, (str(pool), kind)


#: Identical groups of three or more on the fixture card: what exposures can be.
EXPOSABLE = sorted({(g.kind, g.size) for v in MATCHER.variations for g in v.groups
                    if g.identical and g.size >= 3})


@SETTINGS
@given(st.lists(st.sampled_from(EXPOSABLE), max_size=3), st.sampled_from(EXPOSABLE),
       st.lists(st.integers(0, 3), min_size=len(STANDARD_COUNTS),
                max_size=len(STANDARD_COUNTS)))
def test_a_call_that_leaves_a_hand_alive_leaves_it_alive_with_more_jokers(
        before: list[tuple[int, int]], called: tuple[int, int], seen: list[int]) -> None:
    # What `claim_options` relies on to judge fewer calls: the exposure's naturals are what
    # it adds to the visible tiles, so more jokers in it never kill a hand fewer did not.
    kind, size = called
    exposures = tuple(Exposure(k, s) for k, s in before)
    dead = []
    for jokers in range(1, size):
        visible = list(seen)
        visible[kind] += size - jokers
        dead.append(MATCHER.is_dead((*exposures, Exposure(kind, size, jokers)), visible))
    assert dead == sorted(dead, reverse=True), (before, called, dead)


#: Visible counts: up to what a standard set holds of each kind.
VISIBLE = st.tuples(*(st.integers(0, count) for count in STANDARD_COUNTS)).map(list)


@SETTINGS
@given(st.lists(st.sampled_from(EXPOSABLE), max_size=2),
       st.lists(VISIBLE, min_size=1, max_size=6))
def test_is_dead_agrees_with_the_possible_hands_as_the_visible_tiles_change(
        exposed: list[tuple[int, int]], seen: list[list[int]]) -> None:
    # `is_dead` tries the row it found alive last time before counting every row; whatever
    # it remembers, its answer is the full count's.
    exposures = tuple(Exposure(k, s) for k, s in exposed)
    for visible in seen:
        assert MATCHER.is_dead(exposures, visible) == (
            not MATCHER.possible_hands(exposures, visible)), (exposed, visible)
