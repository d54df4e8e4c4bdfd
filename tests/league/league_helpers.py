"""Helpers for the league tests: a moving clock, a league with an open season, and finished
games stored the way the table service stores them (rules JSON with the engine's rules under
`engine`, a shipped card's text, seats, result), with their logs when bots played them
(`play_and_finish`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.bots import make_player
from bot.bots.simulate import play_game
from bot.engine.cards import load_card
from bot.engine.game import GameState, format_action, preset, replay
from bot.engine.game.events import EndReason
from bot.engine.game.rules import RuleSet, rules_to_json
from bot.library import DEFAULT_CARD, shipped_card_paths
from bot.store import (
    Database,
    FinishReason,
    Game,
    League,
    Outcome,
    Pace,
    Season,
    SeasonSettings,
    SeatScore,
    ShippedCardChoice,
)

GUILD = 111
CHANNEL = 222
DIRECTOR = 9


class FakeClock:
    """A clock that only moves when told to (each call to `tick` moves it one second)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def card_text() -> str:
    return next(p for p in shipped_card_paths() if p.stem == DEFAULT_CARD).read_text()


def table_rules(rules: RuleSet) -> str:
    """Rules JSON in the table service's shape."""
    return json.dumps({"engine": json.loads(rules_to_json(rules)), "timeout": "pass",
                       "pace": "live"})


def season_settings(rules_name: str = "tournament", *, min_games: int = 0,
                    game_minutes: int | None = None, name: str = "Season 1") -> SeasonSettings:
    rules = preset(rules_name)
    return SeasonSettings(name=name, players=rules.players, card_name=DEFAULT_CARD,
                          scoring=rules.scoring.value, rules=rules_to_json(rules),
                          min_games=min_games, game_minutes=game_minutes)


async def league_with_season(db: Database, *, guild: int = GUILD, channel: int = CHANNEL,
                             rules_name: str = "tournament", min_games: int = 0,
                             game_minutes: int | None = None) -> tuple[League, Season]:
    league = await db.leagues.create_league(guild, f"League {channel}", channel,
                                            created_by=DIRECTOR)
    season = await db.leagues.start_season(
        league.id, season_settings(rules_name, min_games=min_games, game_minutes=game_minutes),
        by=DIRECTOR)
    return league, season


async def stored_game(db: Database, users: Sequence[int | None], *,
                      guild: int = GUILD, channel: int = CHANNEL, seed: int = 7,
                      rules: RuleSet | None = None, card_name: str = DEFAULT_CARD) -> Game:
    """A started game with these seat holders (None: a bot)."""
    rules = rules or preset("tournament")
    host = next((u for u in users if u is not None), 1)
    game = await db.games.create_game(
        guild_id=guild, channel_id=channel, host_user_id=host, rules=table_rules(rules),
        card=ShippedCardChoice(card_name, card_text()), seed=seed, pace=Pace("live", 90, 10),
        hints=True)
    for seat, user in enumerate(users):
        name = f"Bot {seat}" if user is None else f"P{user}"
        await db.seats.add_seat(game.id, seat, user_id=user, display_name=name)
    return await db.games.start_game(game.id, len(users))


async def finished_game(db: Database, users: Sequence[int | None], points: Sequence[int], *,
                        winner: int | None = None, reason: FinishReason | None = None,
                        **kwargs: object) -> Game:
    """A game finished with these points (`winner` set: Mah Jongg with hand r1, else a wall
    game)."""
    game = await stored_game(db, users, **kwargs)  # type: ignore[arg-type]
    if reason is None:
        reason = FinishReason.MAHJONG if winner is not None else FinishReason.WALL
    scores = tuple(SeatScore(seat, p) for seat, p in enumerate(points))
    details = json.dumps({"reason": reason.value, "hands": [] if winner is None else ["r1"]})
    await db.games.finish_game(game.id, Outcome(reason, winner, scores, details))
    return await db.games.game(game.id)


NAMES = ("a", "b", "c", "d")


async def play_and_finish(db: Database, game: Game, rules: RuleSet, seed: int, *,
                          sub: tuple[int, int, int] | None = None) -> GameState:
    """Bots play the game to its end; the log and result are stored like the table does.
    `sub` (log length, seat, user): the seat is handed to that user then (`/mj sub`)."""
    card = load_card(card_text())
    players = [make_player("normal", card, rules.counts, seed * 10 + i)
               for i in range(rules.players)]
    summary = play_game(rules, card, seed, players, NAMES[:rules.players])
    state, _ = replay(rules, card, seed, NAMES[:rules.players], summary.actions)
    for seq, action in enumerate(summary.actions):
        if sub is not None and seq == sub[0]:
            await db.seats.replace_seat(game.id, sub[1], user_id=sub[2],
                                        display_name=f"P{sub[2]}")
        await db.actions.append_action(game.id, seq, format_action(action, rules.players), None)
    result = state.result
    assert result is not None
    winner = next((d.seat for d in result.declared), None)
    reason = FinishReason.MAHJONG if result.reason is EndReason.MAHJONG else FinishReason.WALL
    scores = tuple(SeatScore(seat, result.totals[seat], json.dumps({
        "lines": [{"text": line.text, "points": line.points[seat]}
                  for line in result.lines if line.points[seat]],
        "settlement": result.settlement[seat]})) for seat in range(rules.players))
    details = json.dumps({"reason": result.reason.value,
                          "hands": [d.hand_id for d in result.declared]})
    await db.games.finish_game(game.id, Outcome(
        reason, winner if reason is FinishReason.MAHJONG else None, scores, details))
    return state
