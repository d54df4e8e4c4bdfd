"""The duplicate arena: one bot kind (the challenger) against another (the field), with the
luck of the tiles cancelled out.

For every seed the same wall and deal (same seed, same rules) are played once with the
challenger in each seat and field bots in the others: four games a seed at four players,
three at three, two (seats swapped) in the two-player game. Each seat plays with the bot seed
`simulate` gives it (`game seed * 8 + seat`), so a run repeats exactly. With `bot_seed` set,
the challenger's bot draws its random choices from seeds of its own (`bot_seed_of`), so a
run of a bot against itself compares two differently seeded copies instead of replaying the
field's games exactly (which always gives 0).

The figures, for the challenger's seat-games and, as a comparison line, the field's:

* points per game: the game's settlement for the seat (what changes hands), with a 95 %
  confidence interval from a bootstrap clustered by seed: seeds (all the games of a seed
  together) are resampled, never single games, since the games of one deal are not
  independent; 10,000 resamples, so the interval's ends move by about 0.03 standard errors
  from one bootstrap seed to another (with 2,000 they moved enough to flip a close call);
  the bootstrap's generator is seeded, so the report is deterministic;
* win rate (the seat ended the game with a Mah Jongg), self-pick rate (won on a tile it drew),
  feeding rate (threw the tile another seat won on), wall-game rate (no Mah Jongg), dead-hand
  rate (one of the seat's racks died), mean value of wins (the settlement of its won games),
  jokerless rate (of its wins);
* decision time p50 / p95: every `choose` call of that side's bots, timed one by one in the
  CPU time of the deciding thread (what the decision costs on one core, whatever else the
  machine runs).

With `sprt` set to D the run stops as soon as a sequential probability ratio test decides
between H0 "the challenger is not better" (0 points a game) and H1 "better by at least D
points a game" at alpha = beta = 0.05, in the units of the headline: the statistic is a
Gaussian SPRT on the challenger's mean points per game of each seed, d (over its seat-games of
the seed; a field of its own kind makes 0, since every game's settlement sums to 0; the
field's mean against it is d / (players - 1) the other way, so the challenger's lead over the
field would be players / (players - 1) times the figure tested):
LLR = (D * sum(d) - n * D**2 / 2) / s**2, with s**2 the sample variance of the n seeds' means
so far; it says "better" when LLR >= ln((1 - beta) / alpha), "not better" when
LLR <= ln(beta / (1 - alpha)), and never before `SPRT_MIN_SEEDS` seeds (the variance estimate
needs a few). If `seeds` run out first it is undecided.

With `log`, every game is one JSON line (see `game_record`) from which `replay` rebuilds it.
With `jobs` above 1, worker processes play the seeds; results are taken in seed order, so
the figures (bar the timings) and the log are the same whatever the number of jobs.
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any, Protocol, TextIO, runtime_checkable

import numpy as np

from bot.bots import Player, make_player
from bot.bots.simulate import (
    GameSummary,
    ProgressCallback,
    game_seeds,
    log_stream,
    play_game,
    player_names,
    rules_key,
    seat_kinds,
)
from bot.engine.cards.model import Card
from bot.engine.errors import InvalidInput
from bot.engine.game import Action, Call, Exchange, Phase, View, format_action
from bot.engine.game.actions import Option
from bot.engine.game.events import EndReason
from bot.engine.game.rules import RuleSet, seat_names
from bot.engine.game.state import finishing

#: Bootstrap resamples of the seeds, and the seed of the bootstrap's generator.
BOOTSTRAP_SAMPLES = 10_000
BOOTSTRAP_SEED = 15
#: Resamples drawn at a time (their picks take samples x seeds integers of memory).
BOOTSTRAP_BATCH = 1000
#: The SPRT's error rates and the fewest seeds before it may decide.
SPRT_ALPHA = 0.05
SPRT_BETA = 0.05
SPRT_MIN_SEEDS = 10


@runtime_checkable
class Targeting(Protocol):
    """A bot that can say which card hand(s) it plays toward (logged after the Charleston)."""

    def target(self, view: View) -> tuple[str, ...]:
        """The card hand(s) the bot aims at now."""
        ...


class Timed:
    """A player wrapped to time each decision and note its target once the Charleston ends."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player = player
        self.times = times
        self.target: tuple[str, ...] | None = None

    def choose(self, view: View, options: Sequence[Option]) -> Action:
        """The wrapped player's choice, its time appended to `times`."""
        if (self.target is None and isinstance(self.player, Targeting)
                and view.phase not in (Phase.CHARLESTON, Phase.VOTE, Phase.COURTESY_OFFER,
                                       Phase.COURTESY_PASS)):
            self.target = self.player.target(view)
        started = time.thread_time()
        action = self.player.choose(view, options)
        self.times.append(time.thread_time() - started)
        return action


@dataclass(frozen=True)
class SeatGame:
    """One seat's outcome of one game."""

    seed: int
    points: int
    won: bool
    self_picked: bool
    fed: bool
    wall: bool
    dead: bool
    jokerless: bool


def seat_games(summary: GameSummary) -> list[SeatGame]:
    """Every seat's outcome of a finished game, in seat order."""
    state = summary.state
    assert state is not None and state.result is not None
    result = state.result
    win = finishing(result.reason, result.declared)
    wall = result.reason is EndReason.WALL and not result.declared
    return [SeatGame(summary.seed, result.settlement[seat],
                     won=win is not None and win.seat == seat,
                     self_picked=win is not None and win.seat == seat and win.self_picked,
                     fed=win is not None and win.discarder == seat, wall=wall,
                     dead=any(state.seats[seat].dead),
                     jokerless=win is not None and win.seat == seat and win.jokerless)
            for seat in range(state.rules.players)]


def bootstrap_ci(games: Sequence[SeatGame], samples: int = BOOTSTRAP_SAMPLES,
                 seed: int = BOOTSTRAP_SEED) -> tuple[float, float]:
    """A 95 % percentile interval for the mean points per game, resampling whole seeds (every
    game of a seed together) with a seeded generator, so the same games give the same
    interval."""
    by_seed: dict[int, list[int]] = {}
    for game in games:
        by_seed.setdefault(game.seed, []).append(game.points)
    if not by_seed:
        return (0.0, 0.0)
    sums = np.array([sum(p) for p in by_seed.values()], dtype=float)
    counts = np.array([len(p) for p in by_seed.values()], dtype=float)
    rng = np.random.default_rng(seed)
    means = np.empty(samples)
    for start in range(0, samples, BOOTSTRAP_BATCH):
        size = min(BOOTSTRAP_BATCH, samples - start)
        picks = rng.integers(0, len(sums), size=(size, len(sums)))
        means[start:start + size] = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return (float(low), float(high))


@dataclass(frozen=True)
class SideFigures:
    """The figures of one side (challenger or field) over its seat-games; times in ms."""

    kind: str
    games: int
    points_per_game: float
    ci_low: float
    ci_high: float
    win_rate: float
    self_pick_rate: float
    feeding_rate: float
    wall_rate: float
    dead_rate: float
    mean_win_value: float
    jokerless_rate: float
    decisions: int
    decision_p50_ms: float
    decision_p95_ms: float


def side_figures(kind: str, games: Sequence[SeatGame], times: Sequence[float]) -> SideFigures:
    """Figures over these seat-games and decision times (see the module docstring)."""
    count = len(games) or 1
    wins = [g for g in games if g.won]
    low, high = bootstrap_ci(games)
    p50, p95 = (np.percentile(np.array(times) * 1000.0, [50, 95]) if times else (0.0, 0.0))

    def rate(flag: Callable[[SeatGame], bool], among: Sequence[SeatGame] = games) -> float:
        return sum(1 for g in among if flag(g)) / (len(among) or 1)

    return SideFigures(
        kind=kind, games=len(games), points_per_game=sum(g.points for g in games) / count,
        ci_low=low, ci_high=high, win_rate=rate(lambda g: g.won),
        self_pick_rate=rate(lambda g: g.self_picked), feeding_rate=rate(lambda g: g.fed),
        wall_rate=rate(lambda g: g.wall), dead_rate=rate(lambda g: g.dead),
        mean_win_value=sum(g.points for g in wins) / (len(wins) or 1),
        jokerless_rate=rate(lambda g: g.jokerless, wins), decisions=len(times),
        decision_p50_ms=float(p50), decision_p95_ms=float(p95))


@dataclass(frozen=True)
class SprtResult:
    """Where the SPRT stands: `decision` is "better", "not better" or "undecided"."""

    delta: float
    decision: str
    seeds: int
    llr: float


def sprt(per_seed: Sequence[float], delta: float, alpha: float = SPRT_ALPHA,
         beta: float = SPRT_BETA, min_seeds: int = SPRT_MIN_SEEDS) -> SprtResult:
    """The Gaussian SPRT of the module docstring on the challenger's points per game of each
    seed so far."""
    n = len(per_seed)
    if n < 2:
        return SprtResult(delta, "undecided", n, 0.0)
    mean = sum(per_seed) / n
    variance = max(sum((d - mean) ** 2 for d in per_seed) / (n - 1), 1e-9)
    llr = (delta * sum(per_seed) - n * delta ** 2 / 2) / variance
    decision = "undecided"
    if n >= min_seeds:
        if llr >= math.log((1 - beta) / alpha):
            decision = "better"
        elif llr <= math.log(beta / (1 - alpha)):
            decision = "not better"
    return SprtResult(delta, decision, n, llr)


@dataclass(frozen=True)
class ArenaReport:
    """An arena run: what was played and both sides' figures."""

    rules: str
    card: str
    players: int
    seed: int
    seeds_planned: int
    seeds_played: int
    games: int
    challenger: SideFigures
    field: SideFigures
    sprt: SprtResult | None
    seconds: float
    #: The challenger's own bot seed (0: the field's; see `bot_seed_of`).
    bot_seed: int = 0

    @property
    def games_per_second(self) -> float:
        """Whole games per second of wall time (bots' thinking included)."""
        return self.games / self.seconds if self.seconds else 0.0

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict with the derived figures."""
        data = asdict(self)
        data.update(games_per_second=round(self.games_per_second, 2),
                    seconds=round(self.seconds, 3))
        return data

    def as_text(self) -> str:
        """A short readable report: one line of figures per side."""
        lines = [f"jongg arena: {self.challenger.kind} against {self.field.kind}, "
                 f"{self.players} players, {self.rules}, card {self.card}, seed {self.seed}"
                 + (f", challenger's bot seed {self.bot_seed}" if self.bot_seed else ""),
                 f"  {self.seeds_played} seeds x {self.players} seats = {self.games} games, "
                 f"{self.games_per_second:.1f} games/s ({self.seconds:.1f} s)",
                 f"  {'side':<10}  {'points':>7} {'[95% CI]':<18} {'win':>5} {'self':>5} "
                 f"{'feed':>5} {'wall':>5} {'dead':>5}  {'win value':>9}  {'jokerless':>9}  "
                 "decision p50/p95"]
        for label, side in (("challenger", self.challenger), ("field", self.field)):
            lines.append(
                f"  {label:<10}  {side.points_per_game:+7.2f} [{side.ci_low:+7.2f}, "
                f"{side.ci_high:+7.2f}] {_pct(side.win_rate)} {_pct(side.self_pick_rate)} "
                f"{_pct(side.feeding_rate)} {_pct(side.wall_rate)} {_pct(side.dead_rate)}  "
                f"{side.mean_win_value:9.1f}  {_pct(side.jokerless_rate):>9}  "
                f"{side.decision_p50_ms:.2f}/{side.decision_p95_ms:.2f} ms")
        if self.sprt is not None:
            lines.append(f"  SPRT (the challenger at least {self.sprt.delta:+g} points a game?): "
                         f"{self.sprt.decision} after {self.sprt.seeds} seeds "
                         f"(LLR {self.sprt.llr:+.2f})")
        return "\n".join(lines)


def _pct(rate: float) -> str:
    """A rate as a percentage five characters wide (a column of the text report)."""
    return f"{100 * rate:4.0f}%"


def game_record(rules: RuleSet, card: Card, summary: GameSummary, names: Sequence[str],
                kinds: Sequence[str], challenger_seat: int,
                targets: Sequence[tuple[str, ...] | None]) -> dict[str, Any]:
    """One game of the log: enough to `replay` it (rules preset, seed, card, player names,
    action texts) and what happened (targets after the Charleston for bots that expose
    one, calls and exchanges, winner, feeder, payments), seats named by wind."""
    state = summary.state
    assert state is not None and state.result is not None
    winds = seat_names(rules.players)
    win = finishing(state.result.reason, state.result.declared)
    texts = [format_action(action, rules.players) for action in summary.actions]
    return {
        "seed": summary.seed, "rules": rules_key(rules), "card": card.name,
        "players": list(names), "kinds": list(kinds), "challenger_seat": challenger_seat,
        "targets": {winds[s]: list(t) for s, t in enumerate(targets) if t is not None},
        "calls": [t for a, t in zip(summary.actions, texts, strict=True)
                  if isinstance(a, Call)],
        "exchanges": [t for a, t in zip(summary.actions, texts, strict=True)
                      if isinstance(a, Exchange)],
        "result": state.result.reason.value,
        "winner": None if win is None else winds[win.seat],
        "feeder": None if win is None or win.discarder is None else winds[win.discarder],
        "payments": list(state.result.settlement), "actions": texts,
    }


@dataclass(frozen=True)
class _SeedResult:
    """The games of one seed: each side's seat-games and decision times, and the log lines
    (empty when no log is kept)."""

    mine: list[SeatGame]
    theirs: list[SeatGame]
    my_times: list[float]
    their_times: list[float]
    lines: list[str]


@dataclass(frozen=True)
class _Match:
    """What every seed of a run shares: the table, the card, both bot kinds, whether to log."""

    rules: RuleSet
    card: Card
    challenger: str
    field: str
    logged: bool
    bot_seed: int = 0


def _play_seed(match: _Match, game_seed: int) -> _SeedResult:
    """Play one seed's deal once with the challenger in each seat."""
    rules, card, n = match.rules, match.card, match.rules.players
    result = _SeedResult([], [], [], [], [])
    for chair in range(n):
        kinds = tuple(match.challenger if s == chair else match.field for s in range(n))
        names = player_names(kinds)
        players = [Timed(make_player(kind, card, rules.counts,
                                     bot_seed_of(game_seed, s, match.bot_seed if s == chair
                                                 else 0)),
                         result.my_times if s == chair else result.their_times)
                   for s, kind in enumerate(kinds)]
        summary = play_game(rules, card, game_seed, players, names)
        for s, outcome in enumerate(seat_games(summary)):
            (result.mine if s == chair else result.theirs).append(outcome)
        if match.logged:
            record = game_record(rules, card, summary, names, kinds, chair,
                                 [p.target for p in players])
            result.lines.append(json.dumps(record) + "\n")
    return result


#: Where the seeds of a `bot_seed` start: above every `game seed * 8 + seat` (game seeds are
#: below 2**31), so no seeded challenger shares a seed with any seat of any game.
_BOT_SEED_STRIDE = 2**40


def bot_seed_of(game_seed: int, seat: int, bot_seed: int) -> int:
    """The seed a seat's bot plays a game with: `simulate`'s (`game seed * 8 + seat`), moved
    by `bot_seed` strides when one is set."""
    return game_seed * 8 + seat + bot_seed * _BOT_SEED_STRIDE


#: The match a worker process plays (set once per worker by `_start_worker`).
_WORKER_MATCH: _Match | None = None


def _start_worker(match: _Match) -> None:
    """Keep the match in a worker process, so each task sends only a seed; and ignore Ctrl-C
    there from now on (see `_ctrl_c_waits_for_the_workers`)."""
    global _WORKER_MATCH
    _WORKER_MATCH = match
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C held back until now is dropped
    if _can_hold_ctrl_c():
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _can_hold_ctrl_c() -> bool:
    """Whether this system lets a thread block signals (POSIX does; Windows has neither
    signal masks nor the resource tracker process): where it does not, workers ignore
    Ctrl-C only from their initializer on."""
    return hasattr(signal, "pthread_sigmask")


def _worker_seed(game_seed: int) -> _SeedResult:
    """A worker's task: one seed of its match."""
    assert _WORKER_MATCH is not None
    return _play_seed(_WORKER_MATCH, game_seed)


def _seed_results(match: _Match, seeds: Sequence[int], jobs: int) -> Iterator[_SeedResult]:
    """Every seed's games in seed order, played here (`jobs` 1) or by `jobs` worker
    processes (started with spawn, so it works wherever Python runs). Stopping early (the
    SPRT decided) stops the workers, and so does Ctrl-C, whenever it comes."""
    if jobs <= 1 or len(seeds) <= 1:
        for game_seed in seeds:
            yield _play_seed(match, game_seed)
        return
    context = multiprocessing.get_context("spawn")
    with contextlib.ExitStack() as stack:
        with _ctrl_c_waits_for_the_workers():
            pool = stack.enter_context(context.Pool(
                min(jobs, len(seeds)), initializer=_start_worker, initargs=(match,)))
        yield from pool.imap(_worker_seed, seeds)


@contextlib.contextmanager
def _ctrl_c_waits_for_the_workers() -> Iterator[None]:
    """While worker processes start, hold Ctrl-C back: in them, and here until they have.

    The terminal sends Ctrl-C to every process of the command, and a worker must not act on
    it (each would print its own traceback): this process alone stops, and stopping the pool
    stops the workers. A worker ignores Ctrl-C from its initializer on (`_start_worker`);
    before that, from the first line it runs, Ctrl-C is blocked in it: a process started
    from this thread inherits the thread's blocked signals, and here SIGINT is blocked
    meanwhile. (Ignoring it here instead, for the workers to inherit, lost a Ctrl-C that
    came meanwhile: the command went on to the end.) A Ctrl-C that comes meanwhile is noted
    here, delivered to this thread once it unblocks SIGINT or to another of the process's
    threads meanwhile, and raised again, for the handler there was, once the workers have
    started: the pool is then stopped whole, rather than half-built. Only the main thread
    may change signal handlers; elsewhere nothing changes, and so it is where signals can't
    be blocked (see `_can_hold_ctrl_c`)."""
    if threading.current_thread() is not threading.main_thread() or not _can_hold_ctrl_c():
        yield
        return
    # The resource tracker, started with the first worker, unblocks SIGINT in the thread
    # that starts it once it runs: started first, it leaves the workers' start alone.
    resource_tracker.ensure_running()
    pressed = False

    def note(signum: int, frame: object) -> None:
        nonlocal pressed
        pressed = True

    before = signal.signal(signal.SIGINT, note)
    try:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # `note` takes one pending
    finally:
        signal.signal(signal.SIGINT, before)
    if pressed:
        signal.raise_signal(signal.SIGINT)


def arena(rules: RuleSet, card: Card, challenger: str, field: str, seeds: int, seed: int = 1,
          delta: float | None = None, progress: ProgressCallback | None = None,
          log: str | Path | TextIO | None = None, jobs: int = 1,
          bot_seed: int = 0) -> ArenaReport:
    """Play the duplicate arena (see the module docstring) and report both sides. With
    `jobs` above 1 the seeds are played by that many worker processes; the report (bar the
    timings) and the log are the same for any number. `bot_seed` (not 0) seeds the
    challenger's bots apart from the field's."""
    if seeds < 1:
        raise InvalidInput("Play the arena on 1 seed or more.")
    if jobs < 1:
        raise InvalidInput("Play the arena with 1 job or more.")
    if bot_seed < 0:
        raise InvalidInput("The challenger's bot seed (--bot-seed) is 0 or more.")
    if delta is not None and not delta > 0:
        raise InvalidInput("The SPRT's margin (--sprt) must be more than 0 points a game.")
    seat_kinds(challenger, rules.players)
    seat_kinds(field, rules.players)
    n = rules.players
    mine: list[SeatGame] = []
    theirs: list[SeatGame] = []
    my_times: list[float] = []
    their_times: list[float] = []
    per_seed: list[float] = []
    test: SprtResult | None = None
    played = 0
    started = time.perf_counter()
    with log_stream(log) as stream:
        match = _Match(rules, card, challenger, field, logged=stream is not None,
                       bot_seed=bot_seed)
        for result in _seed_results(match, game_seeds(seed, seeds), jobs):
            mine.extend(result.mine)
            theirs.extend(result.theirs)
            my_times.extend(result.my_times)
            their_times.extend(result.their_times)
            if stream is not None:
                stream.writelines(result.lines)
            played += 1
            per_seed.append(_mean(result.mine))
            if progress is not None:
                progress(played, seeds)
            if delta is not None:
                test = sprt(per_seed, delta)
                if test.decision != "undecided":
                    break
    return ArenaReport(
        rules=rules_key(rules), card=card.name, players=n, seed=seed, seeds_planned=seeds,
        seeds_played=played, games=played * n,
        challenger=side_figures(challenger, mine, my_times),
        field=side_figures(field, theirs, their_times), sprt=test,
        seconds=time.perf_counter() - started, bot_seed=bot_seed)


def _mean(games: Sequence[SeatGame]) -> float:
    return sum(g.points for g in games) / (len(games) or 1)


@dataclass(frozen=True)
class Comparison:
    """Two arena runs of the same deals, challenger against challenger: on the seeds both
    logs played in full, each challenger's points per game and the difference (after less
    before), with a 95 % interval from the seed-clustered bootstrap of the differences (the
    unit is the seed: its challenger games in one run against its games in the other, so
    a small change to a bot, whose games stay much alike, is measured far more closely than
    either run alone measures its challenger)."""

    rules: str
    card: str
    field: str
    before: str
    after: str
    seeds: int
    games: int
    before_points: float
    after_points: float
    difference: float
    ci_low: float
    ci_high: float

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)

    def as_text(self) -> str:
        """One line of figures."""
        return (f"jongg arena-compare: {self.after} (after) against {self.before} (before), "
                f"field {self.field}, {self.rules}, card {self.card}: {self.seeds} shared "
                f"seeds, {self.games} challenger games each\n"
                f"  points per game {self.before_points:+.2f} -> "
                f"{self.after_points:+.2f}: difference {self.difference:+.2f} "
                f"[{self.ci_low:+.2f}, {self.ci_high:+.2f}]")


def _challenger_games(lines: Iterable[str], name: str) -> tuple[str, str, str, str,
                                                                 dict[int, dict[int, int]]]:
    """From an arena log: its table, card, field and challenger kinds, and the challenger's
    points per seed and seat. A line that is not an arena game is refused with its number."""
    games: dict[int, dict[int, int]] = {}
    table: tuple[str, str, str, str] | None = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            game = json.loads(line)
            seat = int(game["challenger_seat"])
            seed, points = int(game["seed"]), int(game["payments"][seat])
            kinds = [str(kind) for kind in game["kinds"]]
            field = ",".join(sorted(set(kinds[:seat] + kinds[seat + 1:])))
            found = (str(game["rules"]), str(game["card"]), field, kinds[seat])
        except (ValueError, KeyError, IndexError, TypeError) as error:
            raise InvalidInput(f"Line {number} of {name} is not a game of an arena log "
                               f"({type(error).__name__}).") from error
        if table is not None and found != table:
            raise InvalidInput(f"{name} mixes runs: line {number} is another table, card, "
                               "field or challenger.")
        table = found
        games.setdefault(seed, {})[seat] = points
    if table is None:
        raise InvalidInput(f"{name} holds no games.")
    return (*table, games)


def compare_logs(before: Iterable[str], after: Iterable[str], names: tuple[str, str] = (
        "the first log", "the second log")) -> Comparison:
    """Compare the challengers of two arena logs on the deals both played (see
    `Comparison`): the runs must be of the same table and card, against the same field."""
    rules, card, field, old, first = _challenger_games(before, names[0])
    rules_after, card_after, field_after, new, second = _challenger_games(after, names[1])
    if (rules, card, field) != (rules_after, card_after, field_after):
        raise InvalidInput(f"The logs are of different games: {rules} on {card} against "
                           f"{field} in one, {rules_after} on {card_after} against "
                           f"{field_after} in the other.")
    seats = max(len(s) for s in (*first.values(), *second.values()))
    shared = [seed for seed in first if seed in second
              and len(first[seed]) == len(second[seed]) == seats]
    if not shared:
        raise InvalidInput("The logs share no deal played in full: were they run with the "
                           "same --seed?")
    pairs = [SeatGame(seed, second[seed][seat] - first[seed][seat], won=False,
                      self_picked=False, fed=False, wall=False, dead=False, jokerless=False)
             for seed in shared for seat in sorted(first[seed])]
    low, high = bootstrap_ci(pairs)
    games = len(pairs)
    before_points = sum(first[s][seat] for s in shared for seat in first[s]) / games
    after_points = sum(second[s][seat] for s in shared for seat in second[s]) / games
    return Comparison(rules, card, field, old, new, len(shared), games, before_points, after_points,
                      after_points - before_points, low, high)
