"""Leagues, their seasons, their players and the directors' audit log.

A league belongs to one server and lives in one channel (one league per channel; names are
unique per server, ignoring case). Seasons are numbered per league and at most one is open:
the database holds that rule too (a partial unique index), so two "start season" commands
that race cannot both win. Every method that takes an id from a player also takes the guild
id, and another server's league is simply "not found".
"""

from __future__ import annotations

import json

from bot.engine.errors import InvalidInput
from bot.store.league_errors import (
    BadLeagueInput,
    ChannelHasLeague,
    LeagueNameTaken,
    LeagueNotFound,
    NoOpenSeason,
    SeasonAlreadyOpen,
    SeasonNotFound,
)
from bot.store.league_models import (
    AuditEntry,
    League,
    LeaguePlayer,
    Season,
    SeasonSettings,
    StandInGames,
    SubCredit,
)
from bot.store.league_rows import (
    AUDIT_COLUMNS,
    LEAGUE_COLUMNS,
    PLAYER_COLUMNS,
    SEASON_COLUMNS,
    add_audit,
    audit_from_row,
    check_text,
    fetch_league,
    fetch_season,
    league_from_row,
    open_season,
    player_from_row,
    season_from_row,
)
from bot.store.rows import Part, check_int, check_json, ensure_guild
from bot.store.tx import Tx

MAX_LEAGUE_NAME = 40
MAX_SEASON_NAME = 60
MAX_MIN_GAMES = 1000
MAX_GAME_MINUTES = 24 * 60
MAX_VACATION_DAYS = 365
SCORING_PROFILES = ("nmjl", "tournament", "siamese")


def check_vacation_days(days: int) -> int:
    """A season's vacation budget, or a `BadLeagueInput` saying what fits."""
    if not 0 <= days <= MAX_VACATION_DAYS:
        raise BadLeagueInput(f"The vacation budget is 0 to {MAX_VACATION_DAYS} days.")
    return days


def check_settings(settings: SeasonSettings) -> SeasonSettings:
    """The settings with a trimmed name, or a `BadLeagueInput` naming what is wrong."""
    name = check_text(settings.name, "season name", longest=MAX_SEASON_NAME)
    if settings.players not in (2, 3, 4):
        raise BadLeagueInput("A season's tables seat 2, 3 or 4 players.")
    if settings.scoring not in SCORING_PROFILES:
        raise BadLeagueInput(f"Scoring is one of {', '.join(SCORING_PROFILES)}.")
    check_text(settings.card_name, "card name", longest=64)
    if not 0 <= settings.min_games <= MAX_MIN_GAMES:
        raise BadLeagueInput(f"The minimum number of games is 0 to {MAX_MIN_GAMES}.")
    if settings.game_minutes is not None and not 1 <= settings.game_minutes <= MAX_GAME_MINUTES:
        raise BadLeagueInput(f"The time limit is 1 to {MAX_GAME_MINUTES} minutes per game.")
    check_vacation_days(settings.vacation_days)
    check_json(settings.rules, "rules")
    if not isinstance(settings.stand_in_games, StandInGames):
        raise BadLeagueInput("Stand-in games count, count at half or don't count.")
    if not isinstance(settings.sub_credit, SubCredit):
        raise BadLeagueInput("A seat that changed hands counts for whoever made most of its "
                             "moves (most-moves), or is shared by moves (shared).")
    return SeasonSettings(name, settings.players, settings.card_name.strip(), settings.scoring,
                          settings.rules, settings.min_games, settings.game_minutes,
                          settings.stand_in_games, settings.vacation_days,
                          settings.sub_credit)


class Leagues(Part):
    """`db.leagues`: leagues, seasons, players and the audit log."""

    async def create_league(self, guild_id: int, name: str, channel_id: int, *,
                            created_by: int) -> League:
        """A new league recording the games of `channel_id`. Raises `LeagueNameTaken` or
        `ChannelHasLeague`."""
        name = check_text(name, "league name", longest=MAX_LEAGUE_NAME)
        check_int(channel_id, "channel_id")
        now = self._db.now()
        async with self._db.transaction() as tx:
            await ensure_guild(tx, guild_id, now)
            if await tx.fetchone("SELECT 1 FROM leagues WHERE guild_id = ? AND name = ?",
                                 (guild_id, name)):
                raise LeagueNameTaken(name)
            here = await tx.fetchone("SELECT name FROM leagues WHERE channel_id = ?",
                                     (channel_id,))
            if here is not None:
                raise ChannelHasLeague(str(here["name"]))
            league_id = await tx.insert(
                "INSERT INTO leagues (guild_id, name, channel_id, created_by, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (guild_id, name, channel_id, check_int(created_by, "created_by"), now))
            await add_audit(tx, league_id=league_id, season_id=None, game_id=None,
                            actor=created_by, action="create", reason="",
                            before="{}", after=json.dumps({"name": name,
                                                           "channel_id": channel_id}), now=now)
            return await fetch_league(tx, league_id)

    async def league(self, league_id: int, *, guild_id: int | None = None) -> League:
        """The league with this id (on this server), or `LeagueNotFound`."""
        async with self._db.read() as tx:
            return await fetch_league(tx, league_id, guild_id)

    async def league_in_channel(self, guild_id: int, channel_id: int) -> League | None:
        """The league whose channel this is, if any."""
        async with self._db.read() as tx:
            row = await tx.fetchone(
                f"SELECT {LEAGUE_COLUMNS} FROM leagues AS l WHERE l.guild_id = ? "
                "AND l.channel_id = ?",
                (check_int(guild_id, "guild_id"), check_int(channel_id, "channel_id")))
        return None if row is None else league_from_row(row)

    async def league_by_name(self, guild_id: int, name: str) -> League:
        """This server's league called `name` (any case), or `LeagueNotFound`."""
        async with self._db.read() as tx:
            row = await tx.fetchone(
                f"SELECT {LEAGUE_COLUMNS} FROM leagues AS l WHERE l.guild_id = ? AND l.name = ?",
                (check_int(guild_id, "guild_id"), " ".join(str(name).split())))
        if row is None:
            raise LeagueNotFound(f"This server has no league called **{name}**.")
        return league_from_row(row)

    async def leagues(self, guild_id: int) -> list[League]:
        """The server's leagues, by name."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {LEAGUE_COLUMNS} FROM leagues AS l WHERE l.guild_id = ? ORDER BY l.name",
                (check_int(guild_id, "guild_id"),))
        return [league_from_row(row) for row in rows]

    # -- seasons ---------------------------------------------------------------------------

    async def start_season(self, league_id: int, settings: SeasonSettings, *,
                           by: int) -> Season:
        """Open the league's next season. Raises `SeasonAlreadyOpen` while one is open."""
        settings = check_settings(settings)
        now = self._db.now()
        async with self._db.transaction() as tx:
            league = await fetch_league(tx, league_id)
            current = await open_season(tx, league.id)
            if current is not None:
                raise SeasonAlreadyOpen(current.number)
            row = await tx.fetchone(
                "SELECT coalesce(max(number), 0) + 1 AS next FROM league_seasons "
                "WHERE league_id = ?", (league.id,))
            number = 1 if row is None else int(row["next"])
            season_id = await tx.insert(
                """INSERT INTO league_seasons (league_id, number, name, players, card_name, scoring,
                       rules, min_games, game_minutes, started_at, started_by, stand_in_games,
                       vacation_days, sub_credit)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (league.id, number, settings.name, settings.players, settings.card_name,
                 settings.scoring, settings.rules, settings.min_games, settings.game_minutes,
                 now, check_int(by, "by"), settings.stand_in_games.value,
                 settings.vacation_days, settings.sub_credit.value))
            await add_audit(tx, league_id=league.id, season_id=season_id, game_id=None,
                            actor=by, action="season_start", reason="", before="{}",
                            after=json.dumps(_settings_json(settings)), now=now)
            return await _season_by_id(tx, season_id)

    async def end_season(self, league_id: int, *, by: int) -> Season:
        """Close the league's open season; its standings are final. Raises `NoOpenSeason`."""
        now = self._db.now()
        async with self._db.transaction() as tx:
            league = await fetch_league(tx, league_id)
            current = await open_season(tx, league.id)
            if current is None:
                raise NoOpenSeason()
            await tx.execute("UPDATE league_seasons SET ended_at = ?, ended_by = ? WHERE id = ?",
                             (max(now, current.started_at), check_int(by, "by"), current.id))
            await add_audit(tx, league_id=league.id, season_id=current.id, game_id=None,
                            actor=by, action="season_end", reason="", before="{}",
                            after="{}", now=now)
            return await _season_by_id(tx, current.id)

    async def current_season(self, league_id: int) -> Season | None:
        """The league's open season, if any."""
        async with self._db.read() as tx:
            return await open_season(tx, check_int(league_id, "league_id"))

    async def season(self, league_id: int, number: int | None = None) -> Season:
        """Season `number` of the league; without a number the open season, else the latest.
        Raises `SeasonNotFound`."""
        async with self._db.read() as tx:
            if number is None:
                row = await tx.fetchone(
                    f"SELECT {SEASON_COLUMNS} FROM league_seasons AS s WHERE s.league_id = ? "
                    "ORDER BY s.ended_at IS NULL DESC, s.number DESC LIMIT 1",
                    (check_int(league_id, "league_id"),))
            else:
                row = await tx.fetchone(
                    f"SELECT {SEASON_COLUMNS} FROM league_seasons AS s WHERE s.league_id = ? "
                    "AND s.number = ?",
                    (check_int(league_id, "league_id"), check_int(number, "number")))
        if row is None:
            raise SeasonNotFound(number)
        return season_from_row(row)

    async def seasons(self, league_id: int) -> list[Season]:
        """The league's seasons, first to last."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {SEASON_COLUMNS} FROM league_seasons AS s WHERE s.league_id = ? "
                "ORDER BY s.number", (check_int(league_id, "league_id"),))
        return [season_from_row(row) for row in rows]

    # -- players ---------------------------------------------------------------------------

    async def join(self, league_id: int, user_id: int, display_name: str) -> LeaguePlayer:
        """Register a player (seated in tournament rounds). A player already known from a
        recorded game keeps their row and gets the name they join with; joining twice
        changes nothing."""
        name = _player_name(display_name)
        now = self._db.now()
        async with self._db.transaction() as tx:
            league = await fetch_league(tx, league_id)
            await tx.execute(
                f"INSERT INTO league_players ({PLAYER_COLUMNS}) VALUES (?, ?, ?, 1, ?) "
                "ON CONFLICT (league_id, user_id) DO UPDATE SET registered = 1, "
                "display_name = excluded.display_name WHERE league_players.registered = 0",
                (league.id, check_int(user_id, "user_id"), name, now))
            return await _player(tx, league.id, user_id)

    async def leave(self, league_id: int, user_id: int) -> LeaguePlayer:
        """Stop seating a player in rounds; their games stay in the standings."""
        async with self._db.transaction() as tx:
            league = await fetch_league(tx, league_id)
            changed = await tx.execute(
                "UPDATE league_players SET registered = 0 WHERE league_id = ? AND user_id = ? "
                "AND registered = 1", (league.id, check_int(user_id, "user_id")))
            if not changed:
                raise BadLeagueInput("You haven't joined this league, so there is nothing to "
                                     "leave. Use `/league join` to join it.")
            return await _player(tx, league.id, user_id)

    async def players(self, league_id: int, *, registered_only: bool = False
                      ) -> list[LeaguePlayer]:
        """The league's players by name (only the registered ones, if asked)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {PLAYER_COLUMNS} FROM league_players WHERE league_id = ? "
                f"{'AND registered = 1 ' if registered_only else ''}"
                "ORDER BY display_name COLLATE NOCASE, user_id",
                (check_int(league_id, "league_id"),))
        return [player_from_row(row) for row in rows]

    # -- audit -----------------------------------------------------------------------------

    async def audit(self, league_id: int, *, limit: int = 20) -> list[AuditEntry]:
        """The league's audit log, newest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                f"SELECT {AUDIT_COLUMNS} FROM league_audit WHERE league_id = ? "
                "ORDER BY id DESC LIMIT ?",
                (check_int(league_id, "league_id"), check_int(limit, "limit", minimum=1)))
        return [audit_from_row(row) for row in rows]


def _settings_json(settings: SeasonSettings) -> dict[str, object]:
    return {"name": settings.name, "players": settings.players, "card": settings.card_name,
            "scoring": settings.scoring, "min_games": settings.min_games,
            "game_minutes": settings.game_minutes,
            "stand_in_games": settings.stand_in_games.value,
            "vacation_days": settings.vacation_days,
            "sub_credit": settings.sub_credit.value}


def _player_name(display_name: str) -> str:
    try:
        return check_text(display_name, "display name", longest=100)
    except BadLeagueInput:
        raise InvalidInput("Your display name is empty; set one and try again.") from None


async def _season_by_id(tx: Tx, season_id: int) -> Season:
    return await fetch_season(tx, season_id)


async def _player(tx: Tx, league_id: int, user_id: int) -> LeaguePlayer:
    row = await tx.fetchone(
        f"SELECT {PLAYER_COLUMNS} FROM league_players WHERE league_id = ? AND user_id = ?",
        (league_id, user_id))
    assert row is not None
    return player_from_row(row)
