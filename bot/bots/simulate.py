"""Whole games played by bots through the engine's public API, with a report.

`simulate` deals seeded games and, at every step, asks the first seat that must act to choose
from its own `View` (and nothing else), applying the answer with `apply`, until the game is
over. It counts how games end, who wins, self-picks, dead hands, turns and actions, and times
the lot. With `log` it writes every game's action list as text (`format_action`), with the
rules, seed, card and players needed to `replay` it; `read_log` reads such a file back.

The log format, one block per game:

    [game 1]
    rules: standard
    seed: 1234
    card: Jongg Original
    players: normal-1, normal-2, normal-3, normal-4
    result: mahjong South
    [actions]
    East: give 1B N S
    ...
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.bots import PLAYER_KINDS, Player, make_player
from bot.engine.cards.model import Card
from bot.engine.errors import InvalidInput, echo
from bot.engine.game import (
    PRESETS,
    Action,
    CallMahjong,
    GameState,
    Phase,
    apply,
    format_action,
    new_game,
    parse_action,
    preset,
    seats_to_act,
    view,
)
from bot.engine.game.events import (
    DeathCause,
    Drew,
    EndReason,
    Exposed,
    HandDead,
    MahjongShown,
    PlayBegins,
)
from bot.engine.game.rules import RuleSet, house_options, preset_of, seat_names, with_options

ProgressCallback = Callable[[int, int], None]

#: A game longer than this is a bug (a real one takes a few hundred actions).
MAX_ACTIONS = 20_000


@dataclass(frozen=True)
class GameSummary:
    """How one simulated game went; `state` is the game's final state (its result, dead
    racks and exposures, for reports that need more than these counts)."""

    seed: int
    reason: EndReason
    winner: int | None
    mahjongs: tuple[int, ...]
    self_picks: int
    dead_declared: int
    dead_wrong: int
    turns: int
    actions: tuple[Action, ...]
    state: GameState | None = field(default=None, repr=False, compare=False)

    @property
    def laid_out(self) -> bool:
        """The wall ran out with Mah Jonggs on the table (the Siamese-style game plays on
        after a player's first one): they are scored, so it is no plain wall game."""
        return self.reason is EndReason.WALL and any(self.mahjongs)


@dataclass(frozen=True)
class SimulationReport:
    """Totals over a simulation.

    `games` = `mahjong_games` + `laid_out_games` + `wall_games` + `dead_hand_games` (every
    game ends one of these ways: a Mah Jongg that finishes it; the wall running out after Mah
    Jonggs were laid out, which are scored; a wall game with none; too few live hands);
    `wins_by_seat` counts, per seat, the games it ended with a Mah Jongg (so it sums to
    `mahjong_games`); `mahjongs_by_seat` counts every Mah Jongg declared, a first Siamese one
    included. `dead_declared` are hands rightly declared dead, `dead_wrong` hands lost to a
    wrong declaration.
    """

    rules: str
    card: str
    players: tuple[str, ...]
    seed: int
    games: int
    mahjong_games: int
    laid_out_games: int
    wall_games: int
    dead_hand_games: int
    wins_by_seat: tuple[int, ...]
    mahjongs_by_seat: tuple[int, ...]
    self_picks: int
    dead_declared: int
    dead_wrong: int
    turns: int
    actions: int
    max_actions: int
    seconds: float
    seeds: tuple[int, ...] = field(default=(), repr=False)

    @property
    def dead_hands(self) -> int:
        """Hands (racks) that died, either way."""
        return self.dead_declared + self.dead_wrong

    @property
    def mean_turns(self) -> float:
        """Turns per game (a turn starts with a draw, a call, or East's opening discard)."""
        return self.turns / self.games if self.games else 0.0

    @property
    def mean_actions(self) -> float:
        """Actions per game."""
        return self.actions / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """Whole games per second of wall time (bots' thinking included)."""
        return self.games / self.seconds if self.seconds else 0.0

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict with the derived figures."""
        data = asdict(self)
        data.pop("seeds")
        data.update(dead_hands=self.dead_hands, mean_turns=round(self.mean_turns, 2),
                    mean_actions=round(self.mean_actions, 2),
                    games_per_second=round(self.games_per_second, 2),
                    seconds=round(self.seconds, 3))
        return data

    def as_text(self) -> str:
        """A short readable report."""
        winds = seat_names(len(self.players))
        share = (lambda n: f"{n} ({100 * n / self.games:.0f}%)") if self.games else str
        seats = ", ".join(f"{wind} ({kind}) {wins}" for wind, kind, wins in
                          zip(winds, self.players, self.wins_by_seat, strict=True))
        lines = [
            f"jongg simulate: {self.games} games, {self.rules}, card {self.card}, "
            f"seed {self.seed}",
            f"  Mah Jongg games   {share(self.mahjong_games)}",
            f"  wall games        {share(self.wall_games)}",
            f"  dead-hand endings {share(self.dead_hand_games)}",
            f"  wins by seat      {seats}",
            f"  self-picked       {self.self_picks} of "
            f"{sum(self.mahjongs_by_seat)} Mah Jonggs",
            f"  dead hands        {self.dead_hands} ({self.dead_declared} declared rightly, "
            f"{self.dead_wrong} lost to a wrong declaration)",
            f"  turns per game    {self.mean_turns:.1f}",
            f"  actions per game  {self.mean_actions:.1f} (max {self.max_actions})",
            f"  speed             {self.games_per_second:.1f} games/s "
            f"({self.seconds:.2f} s)",
        ]
        if sum(self.mahjongs_by_seat) != sum(self.wins_by_seat):
            shown = ", ".join(f"{w} {n}" for w, n in zip(winds, self.mahjongs_by_seat,
                                                          strict=True))
            lines.insert(5, f"  Mah Jonggs shown  {shown}")
        if self.laid_out_games:
            lines.insert(2, f"  laid-out endings  {share(self.laid_out_games)} (the wall ran "
                            "out after Mah Jonggs were laid out)")
        return "\n".join(lines)


def rules_key(rules: RuleSet) -> str:
    """The preset name of a rule set with the house options it adds (`standard
    charleston=none`), for logs and reports; `rules_from_key` reads it back. A rule set made
    from no preset gives its display name."""
    base = preset_of(rules)
    if base is None:
        return rules.name
    key = next(key for key, value in PRESETS.items() if value is base)
    house = house_options(rules)
    return f"{key} {house}" if house else key


def rules_from_key(text: str) -> RuleSet:
    """The rule set a log names with `rules_key`: a preset and its house options."""
    key, _, house = text.strip().partition(" ")
    return with_options(preset(key), house)


def player_names(kinds: Sequence[str]) -> tuple[str, ...]:
    """Names for the seats of a simulated table: the bot kind and seat number."""
    return tuple(f"{kind}-{seat + 1}" for seat, kind in enumerate(kinds))


def seat_kinds(player_kind: str | Sequence[str], players: int) -> tuple[str, ...]:
    """One bot kind per seat: a single kind for every seat, or one per seat."""
    kinds = (player_kind,) * players if isinstance(player_kind, str) else tuple(player_kind)
    if len(kinds) != players:
        raise InvalidInput(f"Name one bot, or one bot per seat ({players} seats).")
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise InvalidInput(f"There is no bot called `{echo(kind)}`. Choose one of: "
                               f"{', '.join(PLAYER_KINDS)}.")
    return kinds


def play_game(rules: RuleSet, card: Card, seed: int, players: Sequence[Player],
              names: Sequence[str]) -> GameSummary:
    """Play one game to its end: each seat that must act chooses from its own view."""
    state = new_game(rules, card, seed, names)
    turns = mahjongs_declared = 0
    winners: list[int] = []
    self_picks = dead_declared = dead_wrong = 0
    while state.phase is not Phase.OVER:
        if len(state.actions) >= MAX_ACTIONS:
            raise RuntimeError(f"game {seed} did not end after {MAX_ACTIONS} actions")
        seat = seats_to_act(state)[0]
        seen = view(state, seat)
        action = players[seat].choose(seen, seen.legal)
        state, events = apply(state, action)
        for event in events:
            if isinstance(event, Drew | Exposed) or (
                    isinstance(event, PlayBegins) and not rules.dealer_draws_first):
                turns += 1
            elif isinstance(event, MahjongShown):
                mahjongs_declared += 1
                winners.append(event.seat)
                self_picks += event.self_picked
                if isinstance(action, CallMahjong):
                    turns += 1
            elif isinstance(event, HandDead):
                if event.cause is DeathCause.DECLARED:
                    dead_declared += 1
                else:
                    dead_wrong += 1
    assert state.result is not None
    reason = state.result.reason
    mahjongs = [0] * rules.players
    for seat in winners:
        mahjongs[seat] += 1
    return GameSummary(
        seed=seed, reason=reason,
        winner=winners[-1] if reason is EndReason.MAHJONG and winners else None,
        mahjongs=tuple(mahjongs), self_picks=self_picks, dead_declared=dead_declared,
        dead_wrong=dead_wrong, turns=turns, actions=state.actions, state=state)


def format_game(rules: RuleSet, card: Card, number: int, summary: GameSummary,
                names: Sequence[str]) -> str:
    """One game's block of the log (see the module docstring)."""
    winds = seat_names(rules.players)
    result = summary.reason.value
    if summary.winner is not None:
        result += f" {winds[summary.winner]}"
    lines = [f"[game {number}]", f"rules: {rules_key(rules)}", f"seed: {summary.seed}",
             f"card: {card.name}", f"players: {', '.join(names)}", f"result: {result}",
             "[actions]"]
    lines.extend(format_action(action, rules.players) for action in summary.actions)
    return "\n".join(lines) + "\n\n"


@dataclass(frozen=True)
class LoggedGame:
    """A game read back from a simulation log: enough to `replay` it."""

    rules: RuleSet
    seed: int
    card: str
    players: tuple[str, ...]
    result: str
    actions: tuple[Action, ...]


def read_log(text: str) -> list[LoggedGame]:
    """The games of a log written by `simulate` (rules as `rules_key` names them)."""
    games: list[LoggedGame] = []
    header: dict[str, str] = {}
    actions: list[Action] | None = None

    def close() -> None:
        if actions is None:
            return
        rules = rules_from_key(header["rules"])
        games.append(LoggedGame(rules, int(header["seed"]), header["card"],
                                tuple(p.strip() for p in header["players"].split(",")),
                                header.get("result", ""), tuple(actions)))

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[game"):
            close()
            header, actions = {}, None
        elif line == "[actions]":
            actions = []
        elif actions is None:
            key, _, value = line.partition(":")
            header[key.strip()] = value.strip()
        else:
            actions.append(parse_action(line, rules_from_key(header["rules"]).players))
    close()
    return games


@contextmanager
def log_stream(log: str | Path | TextIO | None) -> Iterator[TextIO | None]:
    """The stream a log goes to: a file opened (and closed) for a path, else as given."""
    if log is None or not isinstance(log, str | Path):
        yield log
        return
    with open(log, "w", encoding="utf-8") as stream:
        yield stream


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of the games of a simulation (drawn from its seed, so runs repeat)."""
    rng = random.Random(seed)
    return [rng.randrange(2**31) for _ in range(games)]


def simulate(rules: RuleSet, card: Card, games: int, player_kind: str | Sequence[str],
             seed: int, progress: ProgressCallback | None = None,
             log: str | Path | TextIO | None = None) -> SimulationReport:
    """Play `games` seeded games with bots of `player_kind` (one kind, or one per seat) and
    report how they went. Same arguments, same games and the same report (bar the timing)."""
    if games < 0:
        raise InvalidInput("Simulate zero or more games.")
    kinds = seat_kinds(player_kind, rules.players)
    names = player_names(kinds)
    seeds = game_seeds(seed, games)
    wins = [0] * rules.players
    mahjongs = [0] * rules.players
    reasons = dict.fromkeys(EndReason, 0)
    laid_out = 0
    self_picks = dead_declared = dead_wrong = turns = actions = max_actions = 0
    start = time.perf_counter()
    with log_stream(log) as stream:
        for number, game_seed in enumerate(seeds, start=1):
            players = [make_player(kind, card, rules.counts, game_seed * 8 + seat)
                       for seat, kind in enumerate(kinds)]
            summary = play_game(rules, card, game_seed, players, names)
            if summary.laid_out:
                laid_out += 1
            else:
                reasons[summary.reason] += 1
            if summary.winner is not None:
                wins[summary.winner] += 1
            for seat, count in enumerate(summary.mahjongs):
                mahjongs[seat] += count
            self_picks += summary.self_picks
            dead_declared += summary.dead_declared
            dead_wrong += summary.dead_wrong
            turns += summary.turns
            actions += len(summary.actions)
            max_actions = max(max_actions, len(summary.actions))
            if stream is not None:
                stream.write(format_game(rules, card, number, summary, names))
            if progress is not None:
                progress(number, games)
    return SimulationReport(
        rules=rules_key(rules), card=card.name, players=kinds, seed=seed, games=games,
        mahjong_games=reasons[EndReason.MAHJONG], laid_out_games=laid_out,
        wall_games=reasons[EndReason.WALL],
        dead_hand_games=reasons[EndReason.DEAD_HANDS], wins_by_seat=tuple(wins),
        mahjongs_by_seat=tuple(mahjongs), self_picks=self_picks, dead_declared=dead_declared,
        dead_wrong=dead_wrong, turns=turns, actions=actions, max_actions=max_actions,
        seconds=time.perf_counter() - start, seeds=tuple(seeds))
