"""The pictures of seeded games that `jongg render-demo` writes and `jongg bench render`
times: one scene of each kind the bot sends, built the way the bot builds it. Normal bots play
seeded games through the engine, and each scene is made by `bot.scenes` (or
`bot.league.standings`) from a seat's view, the spectator view, or what those games settled,
so the same seeds give the same pictures on every run.
"""

from __future__ import annotations

import functools

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
from bot.engine.game.events import Discarded, Drew, EndReason, Exposed
from bot.engine.game.rules import ROYALE
from bot.engine.game.state import Took
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.league.standings import rank_standings, standings_scene
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
from bot.store.league_models import PlayerTotals
from bot.tables.narrate import headline
from bot.tables.series import SeriesTotals, Settled
from renderer import (
    AnalysisScene,
    CardSheet,
    RackScene,
    ResultScene,
    TableScene,
)
from renderer.series import SeriesScene
from renderer.standings import StandingsScene

SEED = 2026
#: Names that exercise the fonts: accents, an emoji and a long one.
NAMES = ("Alice", "Bao", "Zoë-Ångström and her very long name", "Dee 😀")
BOTS = (False, True, False, False)
CARD = "jongg-original"


@functools.cache
def _game(rules: RuleSet, seed: int, discards: int | None, *, call: bool = False,
          own_turn: bool = False) -> tuple[GameState, int | None]:
    """A seeded game played by Normal bots, stopped after `discards` discards (or at its
    end; with `call`, just after its first called discard; with `own_turn`, at seat 0's next
    turn after them), and the kind of seat 0's last draw."""
    card = shipped_card(CARD)
    state = new_game(rules, card, seed, NAMES[:rules.players])
    players = [make_player("normal", card, rules.counts, seed * 8 + s)
               for s in range(rules.players)]
    seen = 0
    drawn: int | None = None
    while state.phase is not Phase.OVER and (discards is None or seen < discards or (
            own_turn and not (state.phase is Phase.TURN and seats_to_act(state) == (0,)))):
        seat = seats_to_act(state)[0]
        action = players[seat].choose(view(state, seat), legal_actions(state, seat))
        state, events = apply(state, action)
        for event in events:
            if isinstance(event, Discarded):
                seen += 1
            if isinstance(event, Drew) and event.seat == 0:
                drawn = event.kind
        if call and any(isinstance(event, Exposed) for event in events):
            break
    return state, drawn


def _ended(reason: EndReason) -> GameState:
    """The first seeded game from SEED on that ends this way."""
    for seed in range(SEED, SEED + 200):
        state, _ = _game(STANDARD, seed, None)
        if state.result is not None and state.result.reason is reason:
            return state
    raise RuntimeError(f"no seeded game ended in {reason.value}")


def _called() -> GameState:
    """The first seeded game from SEED on with a discard called for an exposure, stopped
    just after the call."""
    for seed in range(SEED, SEED + 200):
        state, _ = _game(STANDARD, seed, None, call=True)
        if state.phase is Phase.TURN and state.turn is not None and state.turn.took is Took.CALL:
            return state
    raise RuntimeError("no seeded game has a call")


def _royale_over() -> GameState:
    """The first seeded Royale-style game from SEED on that ends with several exposures on a
    rack of two seats or more (besides the Mah Jonggs laid out): a finished two-rack table
    at its fullest (the bots, planning both racks, seldom expose more)."""
    for seed in range(SEED, SEED + 200):
        state, _ = _game(ROYALE, seed, None)
        seats = spectator_view(state).seats
        exposed = sum(any(sum(e.rack == rack for e in seat.exposures) > 1
                          and all(m.rack != rack for m in seat.mahjongs)
                          for rack in range(ROYALE.racks)) for seat in seats)
        if exposed >= 2:
            return state
    raise RuntimeError("no seeded Royale-style game ends with several exposures on 2 seats")


def demo_rack() -> RackScene:
    """Seat 0's rack on its turn, mid-game, with the tile it just drew."""
    state, drawn = _game(STANDARD, SEED, 21, own_turn=True)
    seen = view(state, 0)
    return rack_scene(seen, name=NAMES[0], drawn=drawn, caption=headline(seen, NAMES, drawn))


def demo_siamese_rack() -> RackScene:
    """A Siamese-style rack on its turn: one pool of concealed tiles for two racks."""
    state, drawn = _game(SIAMESE, SEED, 15, own_turn=True)
    seen = view(state, 0)
    return rack_scene(seen, name=NAMES[0], drawn=drawn, caption=headline(seen, NAMES, drawn))


def demo_table() -> TableScene:
    """The public table mid-game, calls open on the last discard, as the thread sees it."""
    state, _ = _game(STANDARD, SEED, 25)
    return table_scene(spectator_view(state), bots=BOTS, title="Table 7")


def demo_called_table() -> TableScene:
    """The table just after a discard was called: the caller is to discard."""
    state = _called()
    return table_scene(spectator_view(state), bots=BOTS, title="Table 7")


def demo_charleston_table() -> TableScene:
    """The table during the first Charleston pass."""
    state, _ = _game(STANDARD, SEED, 0)
    return table_scene(view(state, 0), bots=BOTS, title="Table 7")


def demo_three_player_table() -> TableScene:
    """A three-player table mid-game."""
    state, _ = _game(THREE_PLAYER, SEED, 30)
    return table_scene(spectator_view(state), bots=BOTS[:3], title="Table 9")


def demo_siamese_table() -> TableScene:
    """A two-player Siamese-style table."""
    state, _ = _game(SIAMESE, SEED, 30)
    return table_scene(spectator_view(state), bots=(False, True), title="Table 8")


def demo_royale_table() -> TableScene:
    """A Royale-style table: four players with two racks each."""
    state, _ = _game(ROYALE, SEED, 30)
    return table_scene(spectator_view(state), bots=BOTS, title="Table 10")


def demo_finished_table() -> TableScene:
    """The table at the end of the seeded game won by Mah Jongg (the result picture's)."""
    return table_scene(spectator_view(_ended(EndReason.MAHJONG)), bots=BOTS, title="Table 7")


def demo_finished_royale_table() -> TableScene:
    """A finished Royale-style table: Mah Jonggs laid out on racks, exposures on others."""
    return table_scene(spectator_view(_royale_over()), bots=BOTS, title="Table 10")


def demo_card(private: bool = False) -> CardSheet:
    """Our card's sheet, or the teaching card shown as a server's private card."""
    return card_sheet(shipped_card("jongg-teaching" if private else CARD), private=private)


def demo_analysis() -> AnalysisScene:
    """Seat 0's hand mid-game against the card."""
    state, _ = _game(STANDARD, SEED, 21, own_turn=True)
    hand = PlayerHand(view(state, 0).concealed)
    return analysis_scene(analyze(CardMatcher(shipped_card(CARD)), hand, count=3))


def demo_hint() -> AnalysisScene:
    """The Hint button's answer for seat 0 on its turn, from its own view."""
    state, _ = _game(STANDARD, SEED, 21, own_turn=True)
    return analysis_scene(hint(state.card, STANDARD.counts, view(state, 0)))


def demo_siamese_hint() -> AnalysisScene:
    """The Hint button's answer for a Siamese-style seat on its turn: its tiles split between
    its two racks."""
    state, _ = _game(SIAMESE, SEED, 15, own_turn=True)
    return analysis_scene(hint(state.card, SIAMESE.counts, view(state, 0)))


def _settled() -> tuple[tuple[int, ...], ...]:
    """What changed hands in each of three seeded games played to their end."""
    settled: list[tuple[int, ...]] = []
    for seed in range(SEED, SEED + 3):
        state, _ = _game(STANDARD, seed, None)
        assert state.result is not None
        settled.append(state.result.settlement)
    return tuple(settled)


def demo_series() -> SeriesScene:
    """The summary of a series of three seeded games, as End series posts it."""
    people = tuple(Person(None if bot else 100 + seat, name)
                   for seat, (name, bot) in enumerate(zip(NAMES, BOTS, strict=True)))
    rounds = tuple(tuple(Settled(amount) for amount in game) for game in _settled())
    return series_scene(SeriesTotals(1, people, rounds, ended=True), title="Table 7 · series")


def demo_standings() -> StandingsScene:
    """A league's standings after the same three games, as `/league standings` draws them."""
    games = _settled()
    totals = [PlayerTotals(100 + seat, name, len(games),
                           sum(game[seat] > 0 for game in games),
                           sum(game[seat] for game in games), None, None)
              for seat, name in enumerate(NAMES)]
    return standings_scene("Tuesday Club · Season 1", "4 players · 3 games",
                           rank_standings(totals))


def demo_result() -> ResultScene:
    """A seeded game won by Mah Jongg."""
    state = _ended(EndReason.MAHJONG)
    return result_scene(spectator_view(state), state.card, bots=BOTS)


def demo_wall_game() -> ResultScene:
    """A seeded wall game."""
    state = _ended(EndReason.WALL)
    return result_scene(spectator_view(state), state.card, bots=BOTS)
