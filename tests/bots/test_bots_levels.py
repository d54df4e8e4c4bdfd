"""What makes each level that level, on views built by hand: Normal passes by elimination and
weighs its hands by live tiles; Easy slips now and then and never minds danger; Strong won't
throw the tile an exposed opponent needs when a safe one is there, folds when far behind but
not when close, and declares a provably dead hand. Every level repeats itself for a seed
and decides from its View alone."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from bots_support import discard_options, make_view, small_card

from bot.bots import (
    DEFAULT_LEVEL,
    LEVELS,
    PLAYERS,
    EasyPlayer,
    NormalPlayer,
    StrongPlayer,
    make_player,
)
from bot.bots.odds import Supply, plan_odds
from bot.bots.simulate import simulate
from bot.engine.game import (
    STANDARD,
    Give,
    Option,
    Phase,
    TileChoice,
    apply,
    new_game,
    seats_to_act,
    view,
)
from bot.engine.game.actions import DeclareDead, Discard
from bot.engine.tiles import format_tiles, parse_tiles, standard_counts
from bot.library import shipped_card

COUNTS = standard_counts()


def _bot(kind: type[NormalPlayer], seed: int = 1) -> NormalPlayer:
    return kind(small_card(), COUNTS, seed)


def _discard(bot: NormalPlayer, concealed: str, **table: object) -> str:
    """The tile the bot throws from `concealed` at a table set up by `make_view` arguments."""
    seen = make_view(concealed, **table)  # type: ignore[arg-type]
    action = bot.choose(seen, discard_options(seen))
    assert isinstance(action, Discard)
    return format_tiles((action.kind,))


def test_the_levels_are_registered_weakest_first_with_normal_by_default() -> None:
    assert LEVELS == ("easy", "normal", "strong") and DEFAULT_LEVEL == "normal"
    card = shipped_card()
    assert [type(make_player(level, card, COUNTS, 1)) for level in LEVELS] == [
        EasyPlayer, NormalPlayer, StrongPlayer]
    assert all(level in PLAYERS for level in LEVELS)


# -- Normal ----------------------------------------------------------------------------------


def test_normal_passes_by_elimination() -> None:
    """Two tiles serve no hand; of the rest, West serves one far hand (all winds), North and
    East serve two (winds, and pungs with winds), the Bams the nearest: West goes third."""
    seen = make_view("111 222 333B N E W 9C 9D", phase=Phase.CHARLESTON)
    choice = TileChoice(3, seen.concealed)
    action = _bot(NormalPlayer).choose(seen, [Option(Give(0, seen.concealed[:3]), choice)])
    assert isinstance(action, Give)
    assert sorted(action.kinds) == sorted(parse_tiles("9C 9D W")) and action.blind == 0


@pytest.mark.parametrize("level", [EasyPlayer, NormalPlayer, StrongPlayer],
                         ids=lambda k: k.__name__)
def test_every_level_keeps_its_jokers(level: type[NormalPlayer]) -> None:
    for seed in range(12):
        assert _discard(_bot(level, seed), "111 222 333B J J 9C 9D N") != "J"


def test_the_odds_follow_the_live_tiles() -> None:
    """A plan's chance falls as the tiles it needs are seen, is nil once a natural it needs
    is used up, is lower when it can't call (a concealed hand), and a jokerless finish is
    never likelier than a finish."""
    live = [4] * 37
    table = Supply(tuple(live), 100, 12.0)
    need_natural, need_any = ((3, 2),), ((5, 2),)
    full = plan_odds(need_natural, need_any, 0, table, calls=True, call_factor=2.0)
    live[3] = 2
    fewer = plan_odds(need_natural, need_any, 0, Supply(tuple(live), 98, 12.0), calls=True,
                      call_factor=2.0)
    live[3] = 1
    gone = plan_odds(need_natural, need_any, 0, Supply(tuple(live), 97, 12.0), calls=True,
                     call_factor=2.0)
    concealed = plan_odds(need_natural, need_any, 0, table, calls=False, call_factor=2.0)
    assert full.complete > fewer.complete > gone.complete == 0.0
    assert concealed.complete < full.complete
    assert 0.0 < full.jokerless <= full.complete
    assert plan_odds(need_natural, need_any, 1, table, calls=True,
                     call_factor=2.0).jokerless == 0.0


def test_normal_drops_a_hand_whose_tiles_are_used_up_and_easy_does_not() -> None:
    """Pungs with winds wants East as a pair; with every other East thrown, only the all-winds
    hand can use the seat's East, so Normal keeps its winds for that; Easy doesn't look."""
    table = {"discards": [(1, "E"), (2, "E"), (3, "E")]}
    normal = NormalPlayer(small_card(), COUNTS, 1)
    easy = EasyPlayer(small_card(), COUNTS, 1)
    seen = make_view("111B 222C 333D NNN E 9C", **table)  # type: ignore[arg-type]
    assert all(p.hands != ("p2",) for p in normal._analysis(seen).plans)
    assert any(p.hands == ("p2",) for p in easy._analysis(seen).plans)


# -- Easy ------------------------------------------------------------------------------------


def test_easy_sometimes_keeps_the_wrong_tile_and_normal_never_does() -> None:
    """9C serves no hand: Normal always throws it; Easy throws a tile its hand uses now and
    then, a different pick for a different seed, the same pick for the same seed."""
    hand = "111 222 333 44B 9C"
    assert {_discard(_bot(NormalPlayer, s), hand) for s in range(40)} == {"9C"}
    easy = [_discard(_bot(EasyPlayer, s), hand) for s in range(40)]
    slips = [tile for tile in easy if tile != "9C"]
    assert 0 < len(slips) < 20
    assert easy == [_discard(_bot(EasyPlayer, s), hand) for s in range(40)]


def test_strong_keeps_every_suit_a_hand_could_take_and_normal_commits_to_one() -> None:
    """Bams and Craks are equally near four consecutive pungs: Normal plans the first suit
    only and throws a Crak for some seeds; Strong weighs both suits and throws the 9D."""
    hand = "11 22 33B 11 22 33C 9D N"
    assert {_discard(_bot(StrongPlayer, s), hand) for s in range(8)} == {"9D"}
    assert {_discard(_bot(NormalPlayer, s), hand) for s in range(8)} > {"9D"}


def _danger_table() -> dict[str, object]:
    """South has exposed three consecutive pungs of Craks (5-6-7), so it wants 8C and 9C;
    someone threw a 9C before, which makes 9C look safe to a player who only counts tiles."""
    return {"exposures": {1: ["555C", "666C", "777C"]}, "discards": [(3, "9C")]}


def test_strong_wont_throw_what_an_exposed_opponent_needs_when_a_safe_tile_is_there() -> None:
    hand = "111 222 333 44B 9C 9D"
    for seed in range(6):
        assert _discard(_bot(StrongPlayer, seed), hand, **_danger_table()) == "9D"
        assert _discard(_bot(NormalPlayer, seed), hand, **_danger_table()) == "9C", \
            "Normal throws the tile most seen, not minding what South needs"


def test_easy_never_defends() -> None:
    """Between two useless tiles Easy picks either, the one South needs included."""
    hand = "111 222 333 44B 9C 9D"
    picks = {_discard(_bot(EasyPlayer, s), hand, **_danger_table()) for s in range(30)}
    assert {"9C", "9D"} <= picks


def _threats() -> dict[str, object]:
    """South shows Bam pungs 1-2-3 (wants 4B, 5B); West Dot pungs 5-6-8 (wants 7D, 9D)."""
    return {"exposures": {1: ["111B", "222B", "333B"], 2: ["555D", "666D", "888D"]}}


def test_strong_folds_when_far_behind() -> None:
    """Five tiles from its winds hand, every tile it could spare is one an opponent wants:
    Strong gives up a wind it was keeping (nobody can use it) instead; Normal plays on."""
    hand = "NN EE WW SS J 4B 5B 7D 9D"
    assert _discard(_bot(StrongPlayer), hand, **_threats()) in ("N", "E", "W", "S")
    assert _discard(_bot(NormalPlayer), hand, **_threats()) in ("4B", "5B", "7D", "9D")


@pytest.mark.parametrize(("hand", "useless"), [("111C 222C 333C 444C 5C 4B", "4B"),
                                               ("111C 222C 333C 444C 5C 7D", "7D")])
def test_strong_wont_break_a_good_hand_for_a_little_safety(hand: str, useless: str) -> None:
    """One tile from four Crak pungs and a pair, the tile no hand uses is one an opponent
    wants: Strong still throws it rather than a tile of its own hand (its safety margin);
    weighing danger against lost chance alone, it would break the hand."""
    for seed in range(4):
        assert _discard(_bot(StrongPlayer, seed), hand, **_threats()) == useless


def test_strong_plays_on_when_close() -> None:
    """One tile from Mah Jongg, the same danger doesn't stop it: the 4B goes."""
    assert _discard(_bot(StrongPlayer), "NNN EEEE WWWW SS 4B", **_threats()) == "4B"


def _dead_view(live_east: bool) -> tuple[object, list[Option]]:
    """South exposed North and a Bam pung: only pungs with winds fits, which needs a pair of
    East, natural; every East is in view (or, with `live_east`, two are still unseen)."""
    easts = [(2, "E"), (3, "E")] + ([] if live_east else [(2, "E"), (3, "E")])
    seen = make_view("111 222 333 44B 9C", exposures={1: ["NNN", "111B"]}, discards=easts)
    return seen, [*discard_options(seen), Option(DeclareDead(0, 1))]


def test_strong_declares_a_provably_dead_hand_and_easy_does_not() -> None:
    seen, options = _dead_view(live_east=False)
    assert _bot(StrongPlayer).choose(seen, options) == DeclareDead(0, 1)  # type: ignore[arg-type]
    assert isinstance(_bot(EasyPlayer).choose(seen, options), Discard)  # type: ignore[arg-type]
    alive, options = _dead_view(live_east=True)
    assert isinstance(_bot(StrongPlayer).choose(alive, options), Discard)  # type: ignore[arg-type]


# -- every level -----------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_is_deterministic_for_a_seed(level: str) -> None:
    card = shipped_card()
    first = simulate(STANDARD, card, 2, level, seed=9)
    again = simulate(STANDARD, card, 2, level, seed=9)
    assert first.seeds == again.seeds and first.wins_by_seat == again.wins_by_seat
    assert (first.actions, first.turns) == (again.actions, again.turns)


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_decides_from_its_view_alone(level: str) -> None:
    """Midway through a game, the other seats' hidden tiles are traded with the wall's: the
    seat's view stays the same, and so does every level's decision."""
    card = shipped_card()
    state = new_game(STANDARD, card, 5, ["a", "b", "c", "d"])
    bots = [make_player(level, card, STANDARD.counts, 40 + s) for s in range(4)]
    for _ in range(120):
        seat = seats_to_act(state)[0]
        seen = view(state, seat)
        state, _ = apply(state, bots[seat].choose(seen, seen.legal))
    seat = seats_to_act(state)[0]
    other = (seat + 2) % 4
    hidden = state.seats[other].concealed
    held_kinds = {state.tiles[t] for t in hidden}
    fresh = [t for t in state.wall if state.tiles[t] not in held_kinds][:len(hidden)]
    assert fresh
    trade = dict(zip(fresh, hidden, strict=False))
    new_hidden = tuple(sorted((*fresh, *hidden[len(fresh):])))
    new_wall = tuple(trade.get(t, t) for t in state.wall)
    seats = list(state.seats)
    seats[other] = dataclasses.replace(seats[other], concealed=new_hidden)
    traded = dataclasses.replace(state, seats=tuple(seats), wall=new_wall)
    assert traded.concealed_kinds(other) != state.concealed_kinds(other)
    before, after = view(state, seat), view(traded, seat)
    assert before == after
    twin = copy.deepcopy(bots[seat])
    assert bots[seat].choose(before, before.legal) == twin.choose(after, after.legal)
