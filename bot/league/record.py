"""Recording finished games into their league season: the hook the table service calls.

    result = await db.games.finish_game(game_id, outcome)       # the table, as today
    await record_finished_game(db, game_id, state=final_state)  # then this

A game finished in a league's channel belongs to the season open when it finished. It counts
when it was played the season's way (table size, scoring, other rules and card); otherwise it
is recorded with `counted` off and a note saying why, so a director can still count it.

Each seat's breakdown (hand, section, value, self-pick, jokerless, exposures, who threw,
penalties, dead hand) comes from the engine's final state: the table passes the state it
holds, or the game is rebuilt from its seed and action log (the same replay that restores
games after a restart). A game stopped by the time limit has no hand to describe. If a log
can no longer be replayed, the stored result still gives the winner's hand.

Recording is idempotent and one transaction with the rating update, so calling it twice, or
from two tasks at once, stores the game once. `record_missed_games` catches up on games
finished just before a crash; the bot runs it on start.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from bot.engine.cards import Card
from bot.engine.errors import MahjongError
from bot.engine.game import GameState, parse_action, replay
from bot.engine.game.rules import RuleSet, rules_from_json, seat_names
from bot.league.ratings import RATING_MODEL
from bot.server_cards import load_card_async, parse_card
from bot.store import (
    Database,
    FinishReason,
    Game,
    GameResult,
    LeagueGame,
    LeagueGameNotFound,
    Season,
    Seat,
    SeatDetail,
    SeatHolder,
    StandInGames,
    SubCredit,
)
from bot.store.league_games import MAX_NOTE

log = logging.getLogger(__name__)

#: The hand recorded for a winner whose hand the stored result does not name.
UNKNOWN_HAND = "?"


def game_rules(text: str) -> RuleSet | None:
    """The engine rules stored with a game (the table keeps them under `engine`, next to its
    own options), or None when they cannot be read."""
    try:
        data = json.loads(text)
        engine = data.get("engine", data) if isinstance(data, dict) else None
        return None if engine is None else rules_from_json(json.dumps(engine))
    except (ValueError, MahjongError):
        return None


def _teaching(text: str) -> bool:
    """Whether a game's stored options mark it a teaching table (`teaching`, written by the
    table service next to the engine's rules; a game recorded from elsewhere has no mark).
    Read here rather than through the table's own reader, so the league needs nothing of
    the tables, which record their finished games in it."""
    try:
        data = json.loads(text)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("teaching") is True


def season_fit(season: Season, game: Game) -> str:
    """Why the game does not fit the season ("" when it does): another table size, scoring
    profile, card or other rules."""
    settings = season.settings
    rules = game_rules(game.rules)
    wanted = game_rules(settings.rules)
    if rules is None:
        return "its rules couldn't be read"
    if _teaching(game.rules):
        return "a teaching table: every rack was open"
    if rules.players != settings.players:
        return (f"played by {rules.players} players; this season's tables seat "
                f"{settings.players}")
    if rules.scoring.value != settings.scoring:
        return f"scored {rules.scoring.value}; this season scores {settings.scoring}"
    if game.card.name.casefold() != settings.card_name.casefold():
        return f"played with card {game.card.name}; this season uses {settings.card_name}"
    if wanted is not None and replace(rules, name="") != replace(wanted, name=""):
        different = [f.name for f in fields(RuleSet) if f.name != "name"
                     and getattr(rules, f.name) != getattr(wanted, f.name)]
        return f"played with other rules than the season's ({', '.join(different)})"
    return ""


def details_from_state(state: GameState, card: Card | None) -> list[SeatDetail]:
    """Each seat's breakdown from a finished game's final state."""
    result = state.result
    if result is None:
        raise ValueError("the game is not over")
    details: list[SeatDetail] = []
    for seat, seat_state in enumerate(state.seats):
        wins = [d for d in result.declared if d.seat == seat]
        penalty = -sum(line.points[seat] for line in result.lines
                       if line.points[seat] < 0
                       and not any(p for s, p in enumerate(line.points) if s != seat))
        first = wins[0] if wins else None
        details.append(SeatDetail(
            seat=seat,
            hand_id=None if first is None else first.hand_id,
            section=None if first is None else _section(card, first.hand_id),
            hand_value=None if first is None else first.value,
            self_picked=any(w.self_picked for w in wins),
            jokerless=any(w.jokerless and not w.singles_and_pairs for w in wins),
            exposures=None if first is None else first.exposures_before,
            threw=any(d.discarder == seat for d in result.declared),
            penalty=penalty,
            dead=any(seat_state.dead)))
    return details


def details_from_result(result: GameResult, card: Card | None) -> list[SeatDetail]:
    """What the stored result alone tells: the winner and their hand (`UNKNOWN_HAND` when
    not stored), without bonuses or throws."""
    hands: list[str] = []
    try:
        data = json.loads(result.details)
        if isinstance(data, dict) and isinstance(data.get("hands"), list):
            hands = [str(hand) for hand in data["hands"]]
    except ValueError:
        pass
    details = []
    for seat in result.seats:
        hand = None
        if seat.seat == result.winner_seat:
            hand = hands[0] if hands else UNKNOWN_HAND
        value = None
        if hand is not None and card is not None:
            try:
                value = card.hand(hand).value
            except KeyError:
                value = None
        details.append(SeatDetail(seat=seat.seat, hand_id=hand, section=_section(card, hand),
                                  hand_value=value))
    return details


def _section(card: Card | None, hand_id: str | None) -> str | None:
    if card is None or hand_id is None:
        return None
    try:
        return card.hand(hand_id).section
    except KeyError:
        return None


def _replay(game: Game, action_texts: list[str]) -> GameState:
    rules = game_rules(game.rules)
    if rules is None:
        raise ValueError("unreadable rules")
    actions = [parse_action(text, rules.players) for text in action_texts]
    state, _ = replay(rules, parse_card(game.card.text), game.seed, seat_names(rules.players),
                      actions)
    return state


async def _details(db: Database, game: Game, result: GameResult,
                   state: GameState | None) -> list[SeatDetail]:
    try:
        card: Card | None = await load_card_async(game.card.text)
    except MahjongError:
        card = None
    if result.reason is FinishReason.TIMEOUT:
        return [SeatDetail(seat=seat.seat) for seat in result.seats]
    if state is None or state.result is None:
        texts = [action.text for action in await db.actions.actions(game.id)]
        try:
            state = await asyncio.to_thread(_replay, game, texts)
        except Exception:
            log.warning("game %s could not be replayed for its league record; using the "
                        "stored result", game.id, exc_info=True)
            return details_from_result(result, card)
        if state.result is None:
            return details_from_result(result, card)
    return details_from_state(state, card)


@dataclass(frozen=True)
class SeatMove:
    """One move of a game's log: its place in the log, the seat that made it, and whether
    the table made it for the seat's person (a timeout, or a bot standing in)."""

    seq: int
    seat: int
    played_for: bool


async def seat_moves(db: Database, game: Game) -> list[SeatMove]:
    """The game's moves, in log order (none when its rules can't be read)."""
    rules = game_rules(game.rules)
    if rules is None:
        return []
    moves = []
    for action in await db.actions.actions(game.id):
        try:
            seat = parse_action(action.text, rules.players).seat
        except MahjongError:
            continue
        moves.append(SeatMove(action.seq, seat, action.played_for is not None))
    return moves


def played_for_counts(moves: Sequence[SeatMove]) -> dict[int, tuple[int, int]]:
    """By seat: how many of its moves the table made for its person (the log marks them)
    and how many moves it made in all."""
    counts: dict[int, tuple[int, int]] = {}
    for move in moves:
        played, made = counts.get(move.seat, (0, 0))
        counts[move.seat] = (played + move.played_for, made + 1)
    return counts


def seat_holders(history: Sequence[Seat], moves: Sequence[SeatMove]
                 ) -> dict[int, tuple[SeatHolder, ...]]:
    """By seat, for the seats that changed hands during play: each person who held it (and
    our bots, as one holder), in the order they first sat there, with the seat's own moves
    they made: those made while they held it (from the log length they took it at), but
    not the ones a timeout or a stand-in made for them. One holder of each is credited:
    the one who made most (a tie goes to the later holder, who played on from the
    other), though a person is credited with one seat at most, the one where they made
    the most moves (someone handed from seat to seat in a game never plays themselves)."""
    spans: dict[int, list[Seat]] = {}
    for holding in history:
        spans.setdefault(holding.seat, []).append(holding)
    made: dict[tuple[int, int | None], int] = {}
    for move in moves:
        held = next((h for h in reversed(spans.get(move.seat, []))
                     if h.from_seq <= move.seq), None)
        if held is not None and not move.played_for:
            key = (move.seat, held.user_id)
            made[key] = made.get(key, 0) + 1
    holders: dict[int, list[SeatHolder]] = {}
    for seat, holdings in spans.items():
        names: dict[int | None, str] = {}
        for holding in holdings:
            names.setdefault(holding.user_id, holding.display_name)
        holders[seat] = [SeatHolder(user, name, made.get((seat, user), 0))
                         for user, name in names.items()]
    credited: dict[int, int] = {}
    taken: set[int] = set()
    best = {seat: max(h.moves for h in found) for seat, found in holders.items()}
    for seat in sorted(holders, key=lambda s: (-best[s], s)):
        ranked = sorted(range(len(holders[seat])),
                        key=lambda i: (-holders[seat][i].moves, -i))
        index = next((i for i in ranked if holders[seat][i].user_id is None
                      or holders[seat][i].user_id not in taken), ranked[0])
        credited[seat] = index
        if (user := holders[seat][index].user_id) is not None:
            taken.add(user)
    return {seat: tuple(replace(h, credited=i == credited[seat]) for i, h in enumerate(found))
            for seat, found in holders.items() if len(found) > 1}


def _with_moves(details: list[SeatDetail], counts: dict[int, tuple[int, int]],
                holders: dict[int, tuple[SeatHolder, ...]]) -> list[SeatDetail]:
    """The seats' details with how many of their moves were played for them, of how many,
    and who held each seat that changed hands."""
    return [replace(d, played_for=counts[d.seat][0], moves=counts[d.seat][1],
                    holders=holders.get(d.seat, ()))
            if d.seat in counts else d for d in details]


async def record_finished_game(db: Database, game_id: int, *,
                               state: GameState | None = None) -> LeagueGame | None:
    """Record a finished game in its league season; returns the recorded game, or None when
    it belongs to no season (not in a league's channel, no season open, aborted).

    Pass the engine's final `state` when you have it (the table does) to skip the replay.
    Safe to call twice; the second call returns the first record."""
    target = await db.league_games.target(game_id)
    if target is None:
        try:
            return await db.league_games.game(game_id)
        except LeagueGameNotFound:
            return None
    game = await db.games.game(game_id)
    result = await db.games.result(game_id)
    if result is None:
        return None
    note = season_fit(target.season, game)
    moves = await seat_moves(db, game)
    details = _with_moves(await _details(db, game, result, state), played_for_counts(moves),
                          seat_holders(await db.seats.seat_history(game_id), moves))
    counted = not note
    stood_in = [d for d in details if d.played_for]
    how = target.season.settings.stand_in_games
    if counted and stood_in and how is not StandInGames.COUNT:
        names = {seat.seat: seat.display_name for seat in result.seats}
        played = ", ".join(f"{d.played_for} of {names.get(d.seat, f'seat {d.seat + 1}')}'s"
                           for d in stood_in)
        if how is StandInGames.NONE:
            counted = False
            note = f"a bot played {played} moves; this season doesn't count such games"
        else:
            note = f"counted at half: a bot played {played} moves"
        if len(note) > MAX_NOTE:
            note = note[:MAX_NOTE - 1] + "…"
    recorded = await db.league_games.record(game_id, details, counted=counted, note=note,
                                            model=RATING_MODEL,
                                            half=how is StandInGames.HALF and bool(stood_in),
                                            shared=target.season.settings.sub_credit
                                            is SubCredit.SHARED)
    if recorded is not None:
        log.info("game %s recorded in season %s of league %s%s", game_id,
                 target.season.number, target.league.name,
                 "" if recorded.counted else f" (not counted: {recorded.note})")
    return recorded


async def record_missed_games(db: Database) -> int:
    """Record every finished game that belongs to a season but was not recorded (a crash
    came between the two); returns how many were recorded. Run once on start."""
    recorded = 0
    for game_id in await db.league_games.unrecorded():
        try:
            if await record_finished_game(db, game_id) is not None:
                recorded += 1
        except Exception:
            log.exception("could not record game %s in its league", game_id)
    return recorded
