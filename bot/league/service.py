"""The league service: what the front ends ask of a server's leagues (`/league`, and the league
a vacation or a new table belongs to), over the store's league parts (`db.leagues`,
`db.league_games`, `db.league_stats`, `db.league_rounds`) and the rules of league play in
this package: ranking (`standings`), ratings (`ratings`), seating rounds (`pairings`).

A front end never holds the store: it reaches the leagues through this service, opened with
the table service over the same store (`bot.tables.storage`), and reads the values it hands
back, re-exported here with the limits of what people may type.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

from bot.league.pairings import seat_round
from bot.league.ratings import RATING_MODEL
from bot.league.record import record_missed_games
from bot.league.seasons import season_for_channel
from bot.league.standings import Standing, rank_standings
from bot.server_cards import resolve_card
from bot.store import (
    AuditEntry,
    Database,
    ExportRow,
    League,
    LeagueGame,
    LeagueNotFound,
    LeaguePlayer,
    NotAtThatGame,
    PlayerStats,
    Round,
    RoundScore,
    Season,
    SeasonSettings,
    SeasonSummary,
    StandInGames,
    SubCredit,
)
from bot.store.league_games import MAX_REASON
from bot.store.leagues import MAX_LEAGUE_NAME, MAX_SEASON_NAME

__all__ = ["MAX_LEAGUE_NAME", "MAX_REASON", "MAX_SEASON_NAME", "League", "LeagueGame",
           "LeagueNotFound", "LeagueService", "NotAtThatGame", "Season", "SeasonSettings",
           "StandInGames", "SubCredit"]


class LeagueService:
    """A server's leagues: finding one, its seasons, standings and history, its directors'
    corrections, and its tournament rounds."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # -- finding a league ----------------------------------------------------------------------

    async def home_channel(self, guild_id: int) -> int | None:
        """The server's league channel (`/mj config league_channel:`), if it chose one."""
        return (await self._db.guilds.settings(guild_id)).league_channel_id

    async def in_channel(self, guild_id: int, channel_id: int) -> League | None:
        """The league living in this channel, if any."""
        return await self._db.leagues.league_in_channel(guild_id, channel_id)

    async def of_server(self, guild_id: int) -> list[League]:
        """Every league of the server."""
        return await self._db.leagues.leagues(guild_id)

    async def open_season(self, guild_id: int, channel_id: int) -> Season | None:
        """The open season of the league living in this channel, if any: a table opened
        there plays its rules and card."""
        return await season_for_channel(self._db, guild_id, channel_id)

    async def season(self, league_id: int, number: int | None = None) -> Season:
        """The league's season `number`, by default its latest (`SeasonNotFound` if none)."""
        return await self._db.leagues.season(league_id, number)

    # -- directors -----------------------------------------------------------------------------

    async def create(self, guild_id: int, name: str, channel_id: int, *, by: int) -> League:
        """A league recording the games of this channel."""
        return await self._db.leagues.create_league(guild_id, name, channel_id, created_by=by)

    async def start_season(self, league: League, settings: SeasonSettings, *,
                           by: int) -> Season:
        """Open the league's next season, played as `settings` say: with their card as the
        server names it (`resolve_card`: a shipped card or one of the server's own), and
        called "Season N" when they give no name."""
        card = (await resolve_card(self._db, league.guild_id, settings.card_name)).name
        name = settings.name or f"Season {len(await self._db.leagues.seasons(league.id)) + 1}"
        return await self._db.leagues.start_season(
            league.id, replace(settings, name=name, card_name=card), by=by)

    async def end_season(self, league_id: int, *, by: int) -> tuple[Season, list[Standing]]:
        """Close the league's open season; returns it with its final standings."""
        season = await self._db.leagues.end_season(league_id, by=by)
        return season, await self.standings(season)

    async def set_counted(self, game_id: int, counted: bool, *, guild_id: int, by: int,
                          reason: str) -> None:
        """Take a recorded game out of the standings, or put it back (ratings follow)."""
        await self._db.league_games.set_counted(game_id, counted, guild_id=guild_id, by=by,
                                               reason=reason, model=RATING_MODEL)

    async def adjust_points(self, game_id: int, user_id: int, points: int, *, guild_id: int,
                            by: int, reason: str) -> None:
        """Correct one player's points in a recorded game (ratings follow)."""
        await self._db.league_games.adjust_points(game_id, user_id, points, guild_id=guild_id,
                                                 by=by, reason=reason, model=RATING_MODEL)

    async def audit(self, league_id: int, *, limit: int) -> list[AuditEntry]:
        """The directors' latest changes, newest first."""
        return await self._db.leagues.audit(league_id, limit=limit)

    # -- players -------------------------------------------------------------------------------

    async def join(self, league_id: int, user_id: int, name: str) -> LeaguePlayer:
        """Register a player: they are seated in the league's rounds."""
        return await self._db.leagues.join(league_id, user_id, name)

    async def leave(self, league_id: int, user_id: int) -> LeaguePlayer:
        """Unregister a player; their games stay in the standings."""
        return await self._db.leagues.leave(league_id, user_id)

    # -- reading a league ----------------------------------------------------------------------

    async def standings(self, season: Season) -> list[Standing]:
        """The season's standings, ranked (`rank_standings`, with its minimum of games)."""
        return rank_standings(await self._db.league_stats.standings(season.id),
                              season.settings.min_games)

    async def player_stats(self, season_id: int, user_id: int) -> PlayerStats:
        """A player's season: games, wins, hands, head-to-head."""
        return await self._db.league_stats.player_stats(season_id, user_id)

    async def history(self, league_id: int, *,
                      recent: int) -> tuple[list[SeasonSummary], list[LeagueGame]]:
        """Every season of the league in a line, and the `recent` latest games of its latest
        season."""
        summaries = await self._db.league_stats.history(league_id)
        if not summaries:
            return summaries, []
        return summaries, await self._db.league_games.recent(summaries[-1].season.id,
                                                            limit=recent)

    async def game(self, game_id: int, *, guild_id: int) -> LeagueGame:
        """A recorded game of the server's leagues."""
        return await self._db.league_games.game(game_id, guild_id=guild_id)

    async def export_rows(self, season_id: int) -> list[ExportRow]:
        """Every seat of every recorded game of the season, one row each."""
        return await self._db.league_stats.export_rows(season_id)

    # -- tournament rounds ---------------------------------------------------------------------

    async def start_round(self, league_id: int, season: Season, *, by: int) -> Round:
        """Seat every registered player at tables of the season's size, mixing opponents
        (`seat_round`, in a worker, from a fresh seed kept with the round)."""
        players = [p.user_id for p in await self._db.leagues.players(league_id,
                                                                    registered_only=True)]
        past = await self._db.league_rounds.past_tables(season.id)
        number = await self._db.league_rounds.next_number(season.id)
        seed = random.SystemRandom().randrange(2**62)
        tables = await asyncio.to_thread(seat_round, players, season.settings.players, past,
                                         seed=seed)
        return await self._db.league_rounds.start_round(season.id, number, tables, seed=seed,
                                                       by=by)

    async def round(self, season_id: int,
                    number: int | None) -> tuple[Round, list[RoundScore]]:
        """A round of the season (by default its latest) and the points of each table."""
        shown = await self._db.league_rounds.round(season_id, number)
        return shown, await self._db.league_rounds.scores(shown.id)

    # -- recording -----------------------------------------------------------------------------

    async def record_missed_games(self) -> int:
        """Record the finished games a crash kept from their season (`record_missed_games`);
        returns how many. Run once on start."""
        return await record_missed_games(self._db)
