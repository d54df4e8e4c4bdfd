"""`jongg render-demo --out DIR`: write one of each picture the renderer makes.

The scenes are written by hand (discards are drawn with a fixed seed), so the pictures are
the same on every run: handy for looking at the art after a change, and for the renderer
benchmark, which times these very scenes.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path

from renderer import (
    TILE_CODES,
    AnalysisScene,
    CardGroup,
    CardHand,
    CardSection,
    CardSheet,
    CharlestonStep,
    LaidGroup,
    NearestHand,
    Rack,
    RackScene,
    ResultScene,
    ResultSeat,
    ScoreItem,
    SeatScene,
    TableScene,
    render_analysis,
    render_card,
    render_rack,
    render_result,
    render_table,
)

SEED = 2026


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `jongg render-demo`."""
    parser = subparsers.add_parser("render-demo", help="write one of each picture to a folder")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="the folder to write the PNG files to (created if missing)")
    parser.set_defaults(handler=run)


def demo_rack() -> RackScene:
    """A 13-tile rack with two exposures and a freshly drawn tile."""
    return RackScene(
        (Rack(concealed=("7D", "2B", "F", "2C", "N", "0", "2C", "J", "6B", "2B", "2C", "E",
                         "R"),
              exposures=(("G", "G", "G"), ("2D", "2D", "J", "2D")),
              drawn="5D"),),
        name="Émilie",
        caption="Your turn: you drew 5 Dot. Discard a tile.",
    )


def demo_siamese_rack() -> RackScene:
    """Two racks, as one player of a Siamese-style game holds them."""
    return RackScene(
        (Rack(("1B", "1B", "1B", "2B", "3C", "3C", "4D", "5D", "6D", "W", "W", "G", "J", "F"),
              label="Rack 1"),
         Rack(("9C", "9C", "8C", "7B", "7B", "S", "S", "S", "0", "R", "F", "F", "J"),
              exposures=(("N", "N", "N", "N"),), drawn="3D", label="Rack 2")),
        name="Ben (Siamese)",
        caption="Two racks: win with either one.",
    )


def _discards(count: int, rng: random.Random) -> tuple[str, ...]:
    pool = [code for code in TILE_CODES if code != "X"]
    return tuple(rng.choice(pool) for _ in range(count))


def demo_table() -> TableScene:
    """A four-seat table in the middle of a game, seen by Alice."""
    rng = random.Random(SEED)
    return TableScene(
        seats=(
            SeatScene("Alice", "E", (13,), (("G", "G", "G"), ("2D", "2D", "J", "2D"))),
            SeatScene("Bao Bot", "S", (10,), (("F", "F", "F"),), bot=True),
            SeatScene("Zoë-Ångström 🀄 山田 " + "and a very long name " * 8, "W", (13,),
                      dead=True, note="called a wrong Mah Jongg"),
            SeatScene("Dee 😀", "N", (5,), (("1B", "1B", "1B", "1B"), ("N", "N", "N"),
                                             ("R", "R", "J"))),
        ),
        discards=_discards(41, rng),
        wall=52,
        turn=3,
        latest_by=2,
        viewer=0,
        title="Table 7 · Hand 3",
    )


def demo_charleston_table() -> TableScene:
    """A three-seat table during the Charleston."""
    return TableScene(
        seats=(SeatScene("Ann", "E", (13,)), SeatScene("Cal", "S", (13,), bot=True),
               SeatScene("Dora", "W", (13,))),
        wall=112,
        charleston=CharlestonStep("First Charleston: pass right", 1, 7),
        viewer=0,
        title="Three-player table",
    )


def demo_siamese_table() -> TableScene:
    """A two-player Siamese-style table: each seat keeps two racks."""
    rng = random.Random(SEED + 2)
    return TableScene(
        seats=(SeatScene("Ann", "E", (13, 10), (("5C", "5C", "5C"),)),
               SeatScene("Ben", "W", (13, 13), (("N", "N", "N", "N"),), bot=True)),
        discards=_discards(12, rng),
        wall=38,
        turn=0,
        latest_by=1,
        viewer=0,
        title="Siamese-style · Game 2",
    )


def _hand(groups: str, value: int, concealed: bool = False, note: str = "",
          label: str = "") -> CardHand:
    """A card line from text like `FF 2026:0 222:1 222:2` (`:n` gives the colour slot)."""
    parts = []
    for token in groups.split():
        text, _, slot = token.partition(":")
        parts.append(CardGroup(text, int(slot) if slot else None))
    return CardHand(tuple(parts), value, concealed, note, label)


def demo_card(private: bool = False) -> CardSheet:
    """A few sections in the style of our own card, Jongg Original."""
    sections = (
        CardSection("Year", (
            _hand("2026:0 RRRR GGGG 66:1", 40, note="Any 2 suits", label="y1"),
            _hand("2026:0 NNNN 2026:1 00", 40, note="North or South kong", label="y2"),
            _hand("FF 2026:0 2026:1 22:2 66:2", 50, True, "Year in two suits", "y6"),
        )),
        CardSection("2468", (
            _hand("22:0 44:0 88:0 2222:1 4444:1", 45, label="e1"),
            _hand("FFFFF 2222:0 44:1 888:0", 45, label="e2"),
            _hand("FFF 2468:0 222:1 8888:2", 30, note="Any 3 suits", label="e5"),
        )),
        CardSection("Consecutive Run", (
            _hand("111:0 22:1 333:0 44:1 5555:0", 25, note="Any 5 in a row", label="r1"),
            _hand("FF 123:0 456:1 789:2 NNN", 25, label="r4"),
            _hand("1:0 22:0 333:0 4444:1 FFFF", 25, note="Flowers may be jokers", label="r5"),
        )),
        CardSection("Winds & Dragons", (
            _hand("NEWS NEWS RRR GGG", 55, label="w3"),
            _hand("RRR NNNN GGG SSSS", 75, note="No jokers", label="w6"),
        )),
    )
    if private:
        return CardSheet("Friday Club Card", sections[:2], subtitle="This server's own card",
                         private=True)
    return CardSheet("Jongg Original 2026", sections,
                     subtitle="Our own card · values for a hand won on a discard",
                     notes="Letters a, b and c are suits you choose: each colour is one "
                           "suit. X: exposed hand. C: concealed hand.")


def demo_analysis() -> AnalysisScene:
    """A 13-tile hand with its two waits and the nearest hands."""
    def laid(tiles: str, missing: str = "", color: int | None = None) -> LaidGroup:
        codes = tuple(tiles.split())
        flags = tuple(flag == "-" for flag in missing) if missing else ()
        return LaidGroup(codes, flags, color)

    return AnalysisScene(
        hand=("F", "F", "2B", "0", "2B", "6B", "2C", "0", "2C", "2D", "2D", "6D", "J"),
        nearest=(
            NearestHand("y6 · Year in two suits · 50 · concealed", 2,
                        (laid("F F"), laid("2B 0 2B 6B", color=0),
                         laid("2C 0 2C 6C", "+++-", 1), laid("2D 2D", color=2),
                         laid("6D 6D", "+-", 2)),
                        note="Needs 6C and a second 6D (no jokers in pairs)"),
            NearestHand("y2 · Year, winds and Soap · 40 · exposed", 6,
                        (laid("2B 0 2B 6B", color=0), laid("N N N J", "---+"),
                         laid("2C 0 2C 6C", "+++-", 1), laid("0 0", "--")),
                        note="Your joker can fill the kong of North"),
        ),
        title="Hand analysis",
        caption="13 tiles against Jongg Original 2026",
    )


def demo_result() -> ResultScene:
    """Alice wins on a self-drawn tile."""
    return ResultScene(
        seats=(ResultSeat("Alice", 300), ResultSeat("Bao Bot", -100, bot=True),
               ResultSeat("Zoë-Ångström", -100), ResultSeat("Dee 😀", -100)),
        winner=0,
        hand_label="y6 · Year in two suits · 50 · concealed",
        card_line=(CardGroup("FF"), CardGroup("2026", 0), CardGroup("2026", 1),
                   CardGroup("22", 2), CardGroup("66", 2)),
        groups=(LaidGroup(("F", "F")), LaidGroup(("2B", "0", "2B", "6B"), color=0),
                LaidGroup(("2C", "0", "2C", "6C"), color=1), LaidGroup(("2D", "2D"), color=2),
                LaidGroup(("6D", "6D"), color=2)),
        breakdown=(ScoreItem("Hand value", "50"), ScoreItem("Self-drawn", "x2"),
                   ScoreItem("Each player pays Alice", "100")),
        caption="Alice drew the winning tile herself.",
    )


def demo_wall_game() -> ResultScene:
    """Nobody wins: every hand is shown."""
    return ResultScene(
        seats=(ResultSeat("Alice", tiles=("1B", "2B", "3B", "N", "N", "R", "R", "F", "J", "5D",
                                          "5D", "6D", "7D")),
               ResultSeat("Bao Bot", bot=True, tiles=("9C", "9C", "9C", "8C", "7C", "S", "S",
                                                      "0", "0", "E"),
                          exposures=(("F", "F", "F"),)),
               ResultSeat("Cy", tiles=("E", "E", "W", "W", "S", "S", "N", "0", "0", "0", "G",
                                       "G", "G"))),
        caption="The wall ran out after 96 discards. Nobody pays.",
    )


#: File name -> the function that renders it.
DEMOS: dict[str, Callable[[], bytes]] = {
    "rack.png": lambda: render_rack(demo_rack()),
    "rack-siamese.png": lambda: render_rack(demo_siamese_rack()),
    "table.png": lambda: render_table(demo_table()),
    "table-charleston.png": lambda: render_table(demo_charleston_table()),
    "table-siamese.png": lambda: render_table(demo_siamese_table()),
    "card.png": lambda: render_card(demo_card()),
    "card-private.png": lambda: render_card(demo_card(private=True)),
    "analysis.png": lambda: render_analysis(demo_analysis()),
    "result.png": lambda: render_result(demo_result()),
    "wall-game.png": lambda: render_result(demo_wall_game()),
}


def run(args: argparse.Namespace) -> int:
    """Write every demo picture and list them."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, render in DEMOS.items():
        path = out / name
        data = render()
        path.write_bytes(data)
        print(f"{path}  ({len(data) // 1024} KB)")
    return 0
