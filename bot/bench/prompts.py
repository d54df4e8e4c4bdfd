"""`jongg bench prompts [--games N]`: how often a person is needed, with people's options.

Four seats are played as four people with the same options would be: at every decision point
(a seat that must act: a Charleston pass, a claim window, a turn) the table first asks the
seat's options (`bot.tables.auto.automatic`, what the table service plays for a person); only
when they make no move is the person asked, and a Normal bot stands in for them. The figure
is the share of decision points that needed the person, for the default options and for every
automatic option on (auto-discarding unless the drawn tile is useful, and every drawn tile).
Without options every live seat is asked at every decision point: 100 %.

Every game is seeded (the deal by its number, each stand-in by its seat), so a run repeats.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.bench import BenchResult, Figure, ProgressCallback, Steps
from bot.bots import make_player
from bot.engine.game import STANDARD, apply, new_game, seats_to_act, view
from bot.engine.game.state import Phase
from bot.library import shipped_card
from bot.tables.auto import automatic, drawn_tile
from bot.tables.seat_options import AutoDiscard, AutoMahjong, SeatOptions

GAMES, QUICK_GAMES = 20, 2
#: Each option of `SeatOptions` that plays or skips for the seat, on.
ALL_ON = replace(SeatOptions(), auto_mahjong=AutoMahjong.ON, mahjong_calls_only=True,
                 auto_discard=AutoDiscard.UNLESS_USEFUL)
CONFIGS = {
    "default options": SeatOptions(),
    "every option on (auto-discard unless useful)": ALL_ON,
    "every option on (auto-discard every drawn tile)": replace(
        ALL_ON, auto_discard=AutoDiscard.DRAWN),
}


@dataclass
class Count:
    """Decision points of one set of options, by phase, and those that needed the person."""

    points: int = 0
    asked: int = 0
    claims: int = 0
    claims_asked: int = 0
    turns: int = 0
    turns_asked: int = 0

    def add(self, phase: Phase, asked: bool) -> None:
        self.points += 1
        self.asked += asked
        if phase is Phase.CLAIM:
            self.claims += 1
            self.claims_asked += asked
        elif phase is Phase.TURN:
            self.turns += 1
            self.turns_asked += asked

    @staticmethod
    def share(part: int, whole: int) -> float:
        return 100.0 * part / whole if whole else 0.0


def play(options: SeatOptions, seed: int, count: Count) -> None:
    """One game of four people with these options, counted into `count`."""
    card = shipped_card()
    rules = STANDARD
    state = new_game(rules, card, seed, ("East", "South", "West", "North"))
    people = [make_player("normal", card, rules.counts, seed * 4 + s) for s in range(4)]
    while state.phase is not Phase.OVER:
        seat = seats_to_act(state)[0]
        seen = view(state, seat)
        action = automatic(seen, options, card, rules.counts, drawn_tile(state, seat))
        count.add(state.phase, action is None)
        if action is None:
            action = people[seat].choose(seen, seen.legal)
        state, _ = apply(state, action)


def run(quick: bool = False, progress: ProgressCallback | None = None,
        games: int | None = None) -> BenchResult:
    """Play `games` games (20; 2 with `quick`) per set of options and report the shares."""
    games = games or (QUICK_GAMES if quick else GAMES)
    tick = Steps(progress, games * len(CONFIGS))
    figures: list[Figure] = []
    info: dict[str, object] = {"games": games, "table": "4 people (Normal stand-ins)",
                               "card": shipped_card().name, "without options": "100 %"}
    for name, options in CONFIGS.items():
        count = Count()
        for seed in range(1, games + 1):
            play(options, seed, count)
            tick()
        figures.append(Figure(f"needed a person, {name}",
                              Count.share(count.asked, count.points), "%"))
        info[name] = (f"{count.asked} of {count.points} decision points; claim windows "
                      f"{count.claims_asked} of {count.claims} "
                      f"({Count.share(count.claims_asked, count.claims):.1f} %), turns "
                      f"{count.turns_asked} of {count.turns} "
                      f"({Count.share(count.turns_asked, count.turns):.1f} %)")
    return BenchResult("prompts", tuple(figures), info)

