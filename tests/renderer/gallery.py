"""Every kind of picture in the moments that matter, from seeded games played by Normal bots.

One game per table size (four players, three, the two-player Siamese-style game, and the
Royale-style game of two racks each at four and three players, with two sets) is played
once; on the way, the moments worth a picture are kept: the Charleston, a claim window, just
after a discard was called, seat 0's own turn with the tile it drew, a Mah Jongg laid out
while the game goes on (two racks), and the end. Each moment gives the table picture, seat
0's rack picture and (at its turn) its hint, split between its racks where it has two; the end
gives the result picture. Card
sheets (every page, both shipped cards) and a standings table complete the set.

Names are short on purpose: a test here may then require that no text is cut with an
ellipsis (long names are the one thing the renderer shortens).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from bot.analysis import analyze, hint
from bot.bots import make_player
from bot.engine.game import (
    SIAMESE,
    STANDARD,
    THREE_PLAYER,
    GameState,
    Phase,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    seats_to_act,
    spectator_view,
    view,
)
from bot.engine.game.events import Drew, Event, Exposed
from bot.engine.game.rules import ROYALE, ROYALE_3
from bot.engine.game.state import Took
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.library import shipped_card
from bot.scenes import (
    analysis_scene,
    card_sheet,
    rack_scene,
    result_scene,
    series_scene,
    table_scene,
)
from bot.store import Person
from bot.tables.narrate import headline
from bot.tables.series import SeriesTotals, Settled
from renderer import (
    render_analysis,
    render_card_pages,
    render_rack,
    render_result,
    render_table,
)
from renderer.series import render_series
from renderer.standings import StandingsRow, StandingsScene, render_standings

CARD = "jongg-original"
NAMES = ("Alice", "Bao", "Zoë", "Dee")
#: Each table size and the seed of its game (chosen so that the game has a call).
GAMES = ((STANDARD, 2027), (THREE_PLAYER, 2026), (SIAMESE, 2026), (ROYALE, 2026),
         (ROYALE_3, 2026))


@dataclass(frozen=True)
class Moment:
    """A game state worth a picture, and the kind of seat 0's last draw."""

    state: GameState
    drawn: int | None


def _moment_names(state: GameState, events: list[Event]) -> list[str]:
    """Which kinds of moment this state is."""
    turn = state.turn
    found = []
    if state.phase is Phase.CHARLESTON:
        found.append("charleston")
    if state.phase is Phase.CLAIM and len(state.discards) >= 8:
        found.append("claim")
    if state.phase is Phase.TURN and turn is not None and turn.took is Took.CALL and any(
            isinstance(event, Exposed) for event in events):
        found.append("called")
    if state.phase is Phase.TURN and turn is not None and turn.seat == 0 and any(
            isinstance(event, Drew) for event in events) and len(state.discards) >= 12:
        found.append("own turn")
    if state.phase is not Phase.OVER and any(seat.declared for seat in state.seats):
        found.append("mah jongg shown")
    if state.phase is Phase.OVER:
        found.append("over")
    return found


@functools.cache
def moments(rules: RuleSet, seed: int) -> dict[str, Moment]:
    """The first moment of each kind in a seeded game, in the order they happened."""
    card = shipped_card(CARD)
    state = new_game(rules, card, seed, NAMES[:rules.players])
    players = [make_player("normal", card, rules.counts, seed * 8 + s)
               for s in range(rules.players)]
    kept: dict[str, Moment] = {}
    drawn: int | None = None
    events: list[Event] = []
    while True:
        for name in _moment_names(state, events):
            kept.setdefault(name, Moment(state, drawn))
        if state.phase is Phase.OVER:
            return kept
        seat = seats_to_act(state)[0]
        state, events = apply(state, players[seat].choose(view(state, seat),
                                                          legal_actions(state, seat)))
        drawn = next((e.kind for e in events if isinstance(e, Drew) and e.seat == 0), drawn)


def _bots(rules: RuleSet) -> tuple[bool, ...]:
    return tuple(seat == 1 for seat in range(rules.players))


def _game_pictures(rules: RuleSet, seed: int) -> dict[str, Callable[[], tuple[bytes, ...]]]:
    found: dict[str, Callable[[], tuple[bytes, ...]]] = {}
    for name, moment in moments(rules, seed).items():
        key = f"{rules.players}p{' royale' if rules.royale else ''} {name}"
        state, drawn = moment.state, moment.drawn
        seen = view(state, 0)
        found[f"table, {key}"] = functools.partial(
            lambda s: (render_table(table_scene(spectator_view(s), bots=_bots(s.rules),
                                                title="T")),), state)
        shown = drawn if seen.phase is Phase.TURN and seen.turn == 0 else None
        found[f"rack, {key}"] = functools.partial(
            lambda v, d: (render_rack(rack_scene(v, name="Alice", drawn=d,
                                                 caption=headline(v, NAMES, d))),),
            seen, shown)
        if name == "own turn":
            found[f"analysis, {key}"] = functools.partial(
                lambda s: (render_analysis(analysis_scene(hint(s.card, s.rules.counts,
                                                               view(s, 0)))),), state)
        if name == "over":
            found[f"result, {key}"] = functools.partial(
                lambda s: (render_result(result_scene(spectator_view(s), s.card,
                                                      bots=_bots(s.rules))),), state)
    return found


def _analysis(tiles: str, exposed: str = "") -> tuple[bytes, ...]:
    hand = PlayerHand.parse(tiles, exposed)
    return (render_analysis(analysis_scene(analyze(CardMatcher(shipped_card(CARD)), hand))),)


def _standings() -> tuple[bytes, ...]:
    rows = tuple(StandingsRow(None if i > 8 else i + 1, f"Player {i}", 12, 3, 140 - 11 * i,
                              round((140 - 11 * i) / 12, 1), 1500.0 - 20 * i)
                 for i in range(11))
    return (render_standings(StandingsScene("Tuesday Club · Spring", "Season 1 · 11 players",
                                            rows, "Ranked after 5 games")),)


def _series(games: int) -> tuple[bytes, ...]:
    """A series of five people (one sitting out as the bettor each game) with long names."""
    people = tuple(Person(None if i == 2 else 100 + i, name)
                   for i, name in enumerate((*NAMES, "Maximiliana Featherstonehaugh")))
    rounds = tuple(tuple(Settled(-150 + 35 * ((p + g) % 5) * 3, bettor=p == (4 + g) % 5)
                         for p in range(5)) for g in range(games))
    totals = SeriesTotals(1, people, rounds, ended=True)
    return (render_series(series_scene(totals, title="Table 12 · series")),)


def pictures() -> dict[str, Callable[[], tuple[bytes, ...]]]:
    """Every picture of the gallery by name: each renders to one PNG or, for card sheets,
    its pages."""
    found: dict[str, Callable[[], tuple[bytes, ...]]] = {}
    for rules, seed in GAMES:
        found.update(_game_pictures(rules, seed))
    found["analysis, near hand"] = lambda: _analysis("2026B RRRR GGG 66C")
    found["analysis, Mah Jongg"] = lambda: _analysis("2026B RRRR GGGG 66C")
    found["analysis, with exposures"] = lambda: _analysis("FF 2026B 22C J", "2222D, 222C J")
    for name, private in (("jongg-original", False), ("jongg-teaching", True)):
        found[f"card, {name}"] = functools.partial(
            lambda n, p: render_card_pages(card_sheet(shipped_card(n), private=p)), name,
            private)
    found["standings"] = _standings
    found["series, 3 games"] = lambda: _series(3)
    found["series, 8 games"] = lambda: _series(8)
    return found
