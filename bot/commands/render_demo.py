"""`jongg render-demo --out DIR`: write one of each picture, from seeded games.

Every picture comes the way the bot makes it: baseline bots play seeded games through the
engine, and each scene is built by `bot.scenes` from a seat's view (or the spectator view).
The same seeds give the same pictures on every run, so this is also what `jongg bench render`
times and what to look at after changing the art.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from pathlib import Path

from bot.analysis import analyze
from bot.commands.options import output_folder
from bot.engine.game import (
    SIAMESE,
    STANDARD,
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
from bot.engine.game.events import Discarded, Drew, EndReason
from bot.engine.matcher import CardMatcher, PlayerHand
from bot.library import shipped_card
from bot.players import make_player
from bot.scenes import (
    analysis_scene,
    card_columns,
    card_sheet,
    rack_scene,
    result_scene,
    table_scene,
)
from renderer import (
    AnalysisScene,
    CardSheet,
    RackScene,
    ResultScene,
    TableScene,
    render_analysis,
    render_card,
    render_rack,
    render_result,
    render_table,
)

SEED = 2026
#: Names that exercise the fonts: accents, an emoji and a long one.
NAMES = ("Alice", "Bao", "Zoë-Ångström and her very long name", "Dee 😀")
BOTS = (False, True, False, False)
CARD = "jongg-original"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg render-demo`."""
    parser = subparsers.add_parser("render-demo", help="write one of each picture to a folder")
    parser.add_argument("--out", required=True, metavar="DIR", type=output_folder,
                        help="the folder to write the PNG files to (created if missing)")
    parser.set_defaults(handler=run)


@functools.cache
def _game(rules: RuleSet, seed: int, discards: int | None) -> tuple[GameState, int | None]:
    """A seeded game played by baseline bots, stopped after `discards` discards (or at its
    end), and the kind of seat 0's last draw."""
    card = shipped_card(CARD)
    state = new_game(rules, card, seed, NAMES[:rules.players])
    players = [make_player("baseline", card, rules.counts, seed * 8 + s)
               for s in range(rules.players)]
    seen = 0
    drawn: int | None = None
    while state.phase is not Phase.OVER and (discards is None or seen < discards):
        seat = seats_to_act(state)[0]
        action = players[seat].choose(view(state, seat), legal_actions(state, seat))
        state, events = apply(state, action)
        for event in events:
            if isinstance(event, Discarded):
                seen += 1
            if isinstance(event, Drew) and event.seat == 0:
                drawn = event.kind
    return state, drawn


def _ended(reason: EndReason) -> GameState:
    """The first seeded game from SEED on that ends this way."""
    for seed in range(SEED, SEED + 200):
        state, _ = _game(STANDARD, seed, None)
        if state.result is not None and state.result.reason is reason:
            return state
    raise RuntimeError(f"no seeded game ended in {reason.value}")


def demo_rack() -> RackScene:
    """Seat 0's rack on its turn, mid-game, with the tile it just drew."""
    state, drawn = _game(STANDARD, SEED, 21)
    return rack_scene(view(state, 0), name=NAMES[0], drawn=drawn,
                      caption="Your turn: discard a tile.")


def demo_siamese_rack() -> RackScene:
    """A Siamese-style rack: two racks, one pool of concealed tiles."""
    state, drawn = _game(SIAMESE, SEED, 15)
    return rack_scene(view(state, 0), name=NAMES[0], drawn=drawn)


def demo_table() -> TableScene:
    """The public table mid-game, as the thread sees it."""
    state, _ = _game(STANDARD, SEED, 41)
    return table_scene(spectator_view(state), bots=BOTS, title="Table 7")


def demo_charleston_table() -> TableScene:
    """The table during the first Charleston pass."""
    state, _ = _game(STANDARD, SEED, 0)
    return table_scene(view(state, 0), bots=BOTS, title="Table 7")


def demo_siamese_table() -> TableScene:
    """A two-player Siamese-style table."""
    state, _ = _game(SIAMESE, SEED, 30)
    return table_scene(spectator_view(state), bots=(False, True), title="Table 8")


def demo_card(private: bool = False) -> CardSheet:
    """Our card's sheet, or the teaching card shown as a server's private card."""
    return card_sheet(shipped_card("jongg-teaching" if private else CARD), private=private)


def demo_analysis() -> AnalysisScene:
    """Seat 0's hand mid-game against the card."""
    state, _ = _game(STANDARD, SEED, 21)
    hand = PlayerHand(view(state, 0).concealed)
    return analysis_scene(analyze(CardMatcher(shipped_card(CARD)), hand, count=3))


def demo_result() -> ResultScene:
    """A seeded game won by Mah Jongg."""
    state = _ended(EndReason.MAHJONG)
    return result_scene(spectator_view(state), state.card, bots=BOTS)


def demo_wall_game() -> ResultScene:
    """A seeded wall game."""
    state = _ended(EndReason.WALL)
    return result_scene(spectator_view(state), state.card, bots=BOTS)


#: File name -> the function that renders it.
DEMOS: dict[str, Callable[[], bytes]] = {
    "rack.png": lambda: render_rack(demo_rack()),
    "rack-siamese.png": lambda: render_rack(demo_siamese_rack()),
    "table.png": lambda: render_table(demo_table()),
    "table-charleston.png": lambda: render_table(demo_charleston_table()),
    "table-siamese.png": lambda: render_table(demo_siamese_table()),
    "card.png": lambda: render_card(demo_card(), columns=card_columns(demo_card())),
    "card-private.png": lambda: render_card(demo_card(private=True)),
    "analysis.png": lambda: render_analysis(demo_analysis()),
    "result.png": lambda: render_result(demo_result()),
    "wall-game.png": lambda: render_result(demo_wall_game()),
}


def run(args: argparse.Namespace) -> int:
    """Write every demo picture and list them."""
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for name, render in DEMOS.items():
        path = out / name
        data = render()
        path.write_bytes(data)
        print(f"{path}  ({len(data) // 1024} KB)")
    return 0
