"""Rows of the league tables turned into dataclasses, and the queries the league modules
share. Internal to `bot.store`: the column lists must match the SELECTs that use them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine.errors import shows_something
from bot.store.league_errors import BadLeagueInput, LeagueNotFound, SeasonNotFound
from bot.store.league_models import (
    AuditEntry,
    League,
    LeaguePlayer,
    LeagueSeat,
    Season,
    SeasonSettings,
    SeatDetail,
    SeatHolder,
    StandInGames,
    SubCredit,
)
from bot.store.rows import check_int, opt_float, opt_int

if TYPE_CHECKING:
    from bot.store.tx import Row, Tx

LEAGUE_COLUMNS = "l.id, l.guild_id, l.name, l.channel_id, l.created_by, l.created_at"


def league_from_row(row: Row) -> League:
    """A `League` from a row selected with `LEAGUE_COLUMNS`."""
    return League(id=int(row["id"]), guild_id=int(row["guild_id"]), name=str(row["name"]),
                  channel_id=int(row["channel_id"]), created_by=int(row["created_by"]),
                  created_at=float(row["created_at"]))


SEASON_COLUMNS = """
    s.id, s.league_id, s.number, s.name, s.players, s.card_name, s.scoring, s.rules,
    s.min_games, s.game_minutes, s.started_at, s.started_by, s.ended_at, s.ended_by,
    s.stand_in_games, s.vacation_days, s.sub_credit
"""


def season_from_row(row: Row) -> Season:
    """A `Season` from a row selected with `SEASON_COLUMNS`."""
    return Season(
        id=int(row["id"]), league_id=int(row["league_id"]), number=int(row["number"]),
        settings=SeasonSettings(
            name=str(row["name"]), players=int(row["players"]), card_name=str(row["card_name"]),
            scoring=str(row["scoring"]), rules=str(row["rules"]),
            min_games=int(row["min_games"]), game_minutes=opt_int(row["game_minutes"]),
            stand_in_games=StandInGames(row["stand_in_games"]),
            vacation_days=int(row["vacation_days"]),
            sub_credit=SubCredit(row["sub_credit"])),
        started_at=float(row["started_at"]), started_by=int(row["started_by"]),
        ended_at=opt_float(row["ended_at"]), ended_by=opt_int(row["ended_by"]))


PLAYER_COLUMNS = "league_id, user_id, display_name, registered, joined_at"


def player_from_row(row: Row) -> LeaguePlayer:
    """A `LeaguePlayer` from a row selected with `PLAYER_COLUMNS`."""
    return LeaguePlayer(league_id=int(row["league_id"]), user_id=int(row["user_id"]),
                        display_name=str(row["display_name"]),
                        registered=bool(row["registered"]), joined_at=float(row["joined_at"]))


AUDIT_COLUMNS = ("id, league_id, season_id, game_id, actor_user_id, action, reason, before, "
                 "after, at")


def audit_from_row(row: Row) -> AuditEntry:
    """An `AuditEntry` from a row selected with `AUDIT_COLUMNS`."""
    return AuditEntry(id=int(row["id"]), league_id=int(row["league_id"]),
                      season_id=opt_int(row["season_id"]), game_id=opt_int(row["game_id"]),
                      actor_user_id=int(row["actor_user_id"]), action=str(row["action"]),
                      reason=str(row["reason"]), before=str(row["before"]),
                      after=str(row["after"]), at=float(row["at"]))


RESULT_COLUMNS = """
    r.seat, r.user_id, r.display_name, r.is_bot, r.points, r.table_points, r.placement, r.won,
    r.hand_id, r.section, r.hand_value, r.self_picked, r.jokerless, r.exposures, r.threw,
    r.penalty, r.wall_game, r.dead, r.played_for, r.moves
"""


def seat_from_result_row(row: Row, holders: Sequence[SeatHolder] = ()) -> LeagueSeat:
    """A `LeagueSeat` from a row selected with `RESULT_COLUMNS`, with the seat's holders
    when it changed hands."""
    detail = SeatDetail(
        seat=int(row["seat"]),
        hand_id=None if row["hand_id"] is None else str(row["hand_id"]),
        section=None if row["section"] is None else str(row["section"]),
        hand_value=opt_int(row["hand_value"]), self_picked=bool(row["self_picked"]),
        jokerless=bool(row["jokerless"]), exposures=opt_int(row["exposures"]),
        threw=bool(row["threw"]), penalty=int(row["penalty"]), dead=bool(row["dead"]),
        played_for=int(row["played_for"]), moves=opt_int(row["moves"]),
        holders=tuple(holders))
    return LeagueSeat(seat=int(row["seat"]), user_id=opt_int(row["user_id"]),
                      display_name=str(row["display_name"]), is_bot=bool(row["is_bot"]),
                      points=int(row["points"]), table_points=int(row["table_points"]),
                      placement=int(row["placement"]), detail=detail,
                      wall_game=bool(row["wall_game"]))


HOLDER_COLUMNS = "seat, user_id, display_name, moves, credited, points"


def holder_from_row(row: Row) -> SeatHolder:
    """A `SeatHolder` from a row of `league_result_holders` selected with `HOLDER_COLUMNS`."""
    return SeatHolder(user_id=opt_int(row["user_id"]), display_name=str(row["display_name"]),
                      moves=int(row["moves"]), credited=bool(row["credited"]),
                      points=int(row["points"]))


def check_text(text: str, what: str, *, longest: int, allow_empty: bool = False) -> str:
    """One line of text a player typed, trimmed; a `BadLeagueInput` saying what fits. Text
    that shows nothing (only zero-width or other invisible characters) is empty: a name or
    an audit log's reason must say something."""
    trimmed = " ".join(text.split()) if isinstance(text, str) else ""
    if not shows_something(trimmed):
        trimmed = ""
    if (not trimmed and not allow_empty) or len(trimmed) > longest:
        raise BadLeagueInput(f"The {what} must be 1 to {longest} characters on one line.")
    return trimmed


async def fetch_league(tx: Tx, league_id: int, guild_id: int | None = None) -> League:
    """The league with this id (on this server, if given), or `LeagueNotFound`."""
    row = await tx.fetchone(f"SELECT {LEAGUE_COLUMNS} FROM leagues AS l WHERE l.id = ?",
                            (check_int(league_id, "league_id"),))
    if row is None or (guild_id is not None and int(row["guild_id"]) != guild_id):
        raise LeagueNotFound("I can't find that league. `/league history` in a league's "
                             "channel shows it.")
    return league_from_row(row)


async def fetch_season(tx: Tx, season_id: int) -> Season:
    """The season with this id, or `SeasonNotFound`."""
    row = await tx.fetchone(f"SELECT {SEASON_COLUMNS} FROM league_seasons AS s WHERE s.id = ?",
                            (check_int(season_id, "season_id"),))
    if row is None:
        raise SeasonNotFound(None)
    return season_from_row(row)


async def open_season(tx: Tx, league_id: int) -> Season | None:
    """The league's season in progress, if any."""
    row = await tx.fetchone(
        f"SELECT {SEASON_COLUMNS} FROM league_seasons AS s WHERE s.league_id = ? "
        "AND s.ended_at IS NULL", (league_id,))
    return None if row is None else season_from_row(row)


async def lock_season(tx: Tx, season_id: int) -> None:
    """Make every other writer of the season's recorded games and ratings wait for this
    transaction's end. Take it before reading what the write depends on (the game's points,
    the players' ratings). On PostgreSQL two processes' writes run side by side at READ
    COMMITTED, and two corrections of one game, or two games rated at once, would each
    write over what the other read: an UPDATE that changes nothing holds the season's row
    until the commit, and the reads after it see the other's. (SQLite's `BEGIN IMMEDIATE`
    already holds the whole file.)"""
    await tx.execute("UPDATE league_seasons SET min_games = min_games WHERE id = ?",
                     (season_id,))


async def add_audit(tx: Tx, *, league_id: int, season_id: int | None, game_id: int | None,
                    actor: int, action: str, reason: str, before: str, after: str,
                    now: float) -> None:
    """Append one entry to the league's audit log (inside the caller's transaction)."""
    await tx.insert(
        "INSERT INTO league_audit (league_id, season_id, game_id, actor_user_id, action, "
        "reason, before, after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (league_id, season_id, game_id, check_int(actor, "actor"), action, reason, before,
         after, now))
