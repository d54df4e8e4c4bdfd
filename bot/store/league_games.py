"""Recording finished games in league seasons, directors' corrections, and the ratings they
move.

A game finished in a league's channel belongs to the season that was open when it finished
(`finished_at` inside the season's start and end). Recording is idempotent — a second call for
the same game returns what the first stored — and happens in one transaction with the rating
update, so a result never lands without its ratings or the other way round. A crash between
`finish_game` and recording leaves the game in `unrecorded()`, which the bot sweeps on start.

Placements: 1 for the best score, ties share a place ("1, 2, 2, 4"); a wall game and a game
stopped by the time limit are ties for everyone. Ratings are replayed in recording order
(`league_games.id`), so the ratings a correction rebuilds from scratch are exactly the ones
recording game by game would have given.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import replace

from bot.store.errors import GameNotFound
from bot.store.league_errors import BadLeagueInput, LeagueGameNotFound, NotAtThatGame
from bot.store.league_models import (
    GameTarget,
    LeagueGame,
    RatingModel,
    RatingPair,
    SeatDetail,
    SeatHolder,
)
from bot.store.league_rows import (
    HOLDER_COLUMNS,
    LEAGUE_COLUMNS,
    RESULT_COLUMNS,
    SEASON_COLUMNS,
    add_audit,
    check_text,
    holder_from_row,
    league_from_row,
    lock_season,
    season_from_row,
    seat_from_result_row,
)
from bot.store.models import FinishReason, GameStatus
from bot.store.rows import Part, check_int, check_opt_int
from bot.store.tx import Row, Tx

MAX_REASON = 300
MAX_NOTE = 200
#: Reasons whose games are a tie for everyone, whatever the points.
TIED_REASONS = frozenset({FinishReason.WALL.value, FinishReason.TIMEOUT.value})


def placements(points: Sequence[int], *, tie: bool = False) -> list[int]:
    """Competition ranks of scores, best first: 1 for the highest, equal scores share a place
    and the next place skips ("1, 2, 2, 4"). With `tie` everyone is placed 1."""
    if tie:
        return [1] * len(points)
    return [1 + sum(other > mine for other in points) for mine in points]


class LeagueGames(Part):
    """`db.league_games`: recorded games, corrections and ratings."""

    async def target(self, game_id: int) -> GameTarget | None:
        """Where a finished game belongs, or None: it is not finished (or was aborted), was
        not played in a league's channel, finished when no season was open, or is recorded
        already."""
        async with self._db.read() as tx:
            if await _recorded(tx, game_id):
                return None
            return await _target(tx, game_id)

    async def unrecorded(self, *, limit: int = 500) -> list[int]:
        """Finished games that belong to a season but are not recorded yet (what a crash
        between finishing a game and recording it leaves), oldest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                """SELECT g.id FROM games AS g
                   JOIN leagues AS l ON l.guild_id = g.guild_id AND l.channel_id = g.channel_id
                   JOIN league_seasons AS s ON s.league_id = l.id AND s.started_at <= g.finished_at
                        AND (s.ended_at IS NULL OR g.finished_at < s.ended_at)
                   WHERE g.status = ?
                     AND NOT EXISTS (SELECT 1 FROM league_games AS lg WHERE lg.game_id = g.id)
                   ORDER BY g.finished_at, g.id LIMIT ?""",
                (GameStatus.FINISHED.value, check_int(limit, "limit", minimum=1)))
        return [int(row["id"]) for row in rows]

    async def record(self, game_id: int, details: Sequence[SeatDetail], *, counted: bool,
                     note: str = "", model: RatingModel,
                     half: bool = False, shared: bool = False) -> LeagueGame | None:
        """Record a finished game in its season (see `target`) with each seat's breakdown,
        and, when `counted`, move the ratings of its human players. Returns the recorded game
        (the one stored before, if it was recorded already), or None when the game belongs
        to no season.

        A seat whose detail names its `holders` (it changed hands) counts for the credited
        one: theirs are its placement, win and rating, and its counted points, unless
        `shared`: then the points are shared among the holders by the moves each made
        (`split_points`). Every holder is kept with what they got."""
        by_seat = {detail.seat: detail for detail in details}
        if len(by_seat) != len(details):
            raise ValueError("each seat's detail is given at most once")
        for detail in details:
            if detail.holders and sum(h.credited for h in detail.holders) != 1:
                raise ValueError("a seat that changed hands is credited to one holder")
        note = check_text(note, "note", longest=MAX_NOTE, allow_empty=True)
        now = self._db.now()
        async with self._db.transaction() as tx:
            if await _recorded(tx, game_id):
                return await _fetch(tx, game_id)
            target = await _target(tx, game_id)
            if target is None:
                return None
            await lock_season(tx, target.season.id)
            if await _recorded(tx, game_id):  # by another process, while this one waited
                return await _fetch(tx, game_id)
            result = await tx.fetchone("SELECT reason FROM results WHERE game_id = ?",
                                       (game_id,))
            assert result is not None
            reason = str(result["reason"])
            seats = [_credited(seat, by_seat.get(seat[0]))
                     for seat in await _final_seats(tx, game_id)]
            tie = reason in TIED_REASONS
            places = placements([points for _, _, _, _, points in seats], tie=tie)
            humans = {user for _, user, _, _, _ in seats if user is not None}
            round_id, table_no = await _round_table(tx, target.season.id, target.finished_at,
                                                    humans)
            await tx.execute(
                """INSERT INTO league_games (game_id, season_id, round_id, table_no, reason,
                       counted, note, finished_at, recorded_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (game_id, target.season.id, round_id, table_no, reason, int(counted), note,
                 target.finished_at, now))
            for (seat, user, name, is_bot, points), place in zip(seats, places, strict=True):
                detail = by_seat.get(seat, SeatDetail(seat))
                counted_points = int(points / 2) if half else points
                holders = _holders_points(detail.holders, counted_points, shared)
                mine = next((h.points for h in holders if h.credited), counted_points)
                await _insert_seat(tx, game_id, target.season.id, counted, seat, user, name,
                                   is_bot, mine, points, place, detail, reason)
                for part, holder in enumerate(holders):
                    await tx.execute(
                        "INSERT INTO league_result_holders (game_id, seat, part, user_id, "
                        "display_name, is_bot, moves, points, credited) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (game_id, seat, part, holder.user_id, holder.display_name,
                         int(holder.user_id is None), check_int(holder.moves, "moves",
                                                                 minimum=0),
                         holder.points, int(holder.credited)))
                people = {user: name} if user is not None else {}
                people.update((h.user_id, h.display_name) for h in holders
                              if h.user_id is not None and h.user_id not in people)
                for person, person_name in people.items():
                    await tx.execute(
                        "INSERT INTO league_players (league_id, user_id, display_name, "
                        "registered, joined_at) VALUES (?, ?, ?, 0, ?) "
                        "ON CONFLICT (league_id, user_id) DO NOTHING",
                        (target.league.id, person, person_name, now))
            if counted:
                await _rate(tx, target.season.id, [
                    (user, place) for (_, user, _, _, _), place in zip(seats, places, strict=True)
                    if user is not None], model)
            return await _fetch(tx, game_id)

    async def game(self, game_id: int, *, guild_id: int | None = None) -> LeagueGame:
        """A recorded game (of this server's leagues, if given), or `LeagueGameNotFound`."""
        async with self._db.read() as tx:
            await _league_of_game(tx, game_id, guild_id)
            return await _fetch(tx, game_id)

    async def recent(self, season_id: int, *, limit: int = 10) -> list[LeagueGame]:
        """The season's most recently recorded games, newest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT game_id FROM league_games WHERE season_id = ? ORDER BY id DESC LIMIT ?",
                (check_int(season_id, "season_id"), check_int(limit, "limit", minimum=1)))
            return [await _fetch(tx, int(row["game_id"])) for row in rows]

    # -- directors' corrections --------------------------------------------------------------

    async def adjust_points(self, game_id: int, user_id: int, points: int, *, guild_id: int,
                            by: int, reason: str, model: RatingModel) -> LeagueGame:
        """A director's correction: set one player's counted points in a recorded game. The
        game's placements and the season's ratings follow; the audit log keeps who, why and
        the points before and after."""
        reason = check_reason(reason)
        check_int(points, "points")
        check_int(user_id, "user_id")
        now = self._db.now()
        async with self._db.transaction() as tx:
            league_id, season_id = await _league_of_game(tx, game_id, guild_id)
            await lock_season(tx, season_id)
            game = await _fetch(tx, game_id)
            mine = [s for s in game.seats if s.user_id == user_id]
            if not mine:
                raise NotAtThatGame("That player didn't hold a seat at the end of game "
                                    f"#{game_id}. Check the player and the game number.")
            seat = mine[0]
            scores = [points if s.seat == seat.seat else s.points for s in game.seats]
            places = placements(scores, tie=game.reason.value in TIED_REASONS)
            for other, place in zip(game.seats, places, strict=True):
                await tx.execute(
                    "UPDATE league_results SET points = ?, placement = ? WHERE game_id = ? "
                    "AND seat = ?",
                    (points if other.seat == seat.seat else other.points, place, game_id,
                     other.seat))
            # A seat that changed hands keeps its credited holder's points beside it.
            await tx.execute(
                "UPDATE league_result_holders SET points = ? WHERE game_id = ? AND seat = ? "
                "AND credited = 1", (points, game_id, seat.seat))
            await add_audit(tx, league_id=league_id, season_id=season_id, game_id=game_id,
                            actor=by, action="adjust_points", reason=reason,
                            before=json.dumps({"user_id": user_id, "points": seat.points}),
                            after=json.dumps({"user_id": user_id, "points": points}), now=now)
            if game.counted:
                await _rebuild_ratings(tx, season_id, model)
            return await _fetch(tx, game_id)

    async def set_counted(self, game_id: int, counted: bool, *, guild_id: int, by: int,
                          reason: str, model: RatingModel) -> LeagueGame:
        """A director's correction: take a recorded game out of the standings and ratings,
        or put it (back) in. Audited like `adjust_points`."""
        reason = check_reason(reason)
        now = self._db.now()
        async with self._db.transaction() as tx:
            league_id, season_id = await _league_of_game(tx, game_id, guild_id)
            await lock_season(tx, season_id)
            game = await _fetch(tx, game_id)
            if game.counted == counted:
                raise BadLeagueInput(f"Game #{game_id} already "
                                     f"{'counts' if counted else 'does not count'}; nothing "
                                     "to change.")
            await tx.execute("UPDATE league_games SET counted = ? WHERE game_id = ?",
                             (int(counted), game_id))
            await add_audit(tx, league_id=league_id, season_id=season_id, game_id=game_id,
                            actor=by, action="count" if counted else "uncount", reason=reason,
                            before=json.dumps({"counted": game.counted}),
                            after=json.dumps({"counted": counted}), now=now)
            await _rebuild_ratings(tx, season_id, model)
            return await _fetch(tx, game_id)

    async def rebuild_ratings(self, season_id: int, model: RatingModel) -> int:
        """Recompute a season's ratings from its counted games; returns how many players are
        rated. (Corrections do this themselves; this is for maintenance and tests.)"""
        async with self._db.transaction() as tx:
            await lock_season(tx, check_int(season_id, "season_id"))
            return await _rebuild_ratings(tx, season_id, model)

    async def ratings(self, season_id: int) -> dict[int, tuple[float, float, int]]:
        """Each rated player's (mu, sigma, rated games) in the season."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT user_id, mu, sigma, games FROM league_ratings WHERE season_id = ?",
                (check_int(season_id, "season_id"),))
        return {int(r["user_id"]): (float(r["mu"]), float(r["sigma"]), int(r["games"]))
                for r in rows}


def check_reason(reason: str) -> str:
    """A director's reason for the audit log, trimmed; a `BadLeagueInput` asking for one."""
    try:
        return check_text(reason, "reason", longest=MAX_REASON)
    except BadLeagueInput:
        raise BadLeagueInput("Say why in a few words (the reason is kept in the audit log, "
                             f"at most {MAX_REASON} characters).") from None


async def _recorded(tx: Tx, game_id: int) -> bool:
    row = await tx.fetchone("SELECT 1 FROM league_games WHERE game_id = ?",
                            (check_int(game_id, "game_id"),))
    return row is not None


async def _target(tx: Tx, game_id: int) -> GameTarget | None:
    game = await tx.fetchone(
        "SELECT guild_id, channel_id, status, finished_at FROM games WHERE id = ?", (game_id,))
    if game is None:
        raise GameNotFound(game_id)
    if game["status"] != "finished" or game["finished_at"] is None:
        return None
    finished_at = float(game["finished_at"])
    league = await tx.fetchone(
        f"SELECT {LEAGUE_COLUMNS} FROM leagues AS l WHERE l.guild_id = ? AND l.channel_id = ?",
        (game["guild_id"], game["channel_id"]))
    if league is None:
        return None
    season = await tx.fetchone(
        f"SELECT {SEASON_COLUMNS} FROM league_seasons AS s WHERE s.league_id = ? "
        "AND s.started_at <= ? AND (s.ended_at IS NULL OR ? < s.ended_at) "
        "ORDER BY s.number DESC LIMIT 1", (league["id"], finished_at, finished_at))
    if season is None:
        return None
    return GameTarget(league_from_row(league), season_from_row(season), game_id, finished_at)


async def _final_seats(tx: Tx, game_id: int) -> list[tuple[int, int | None, str, bool, int]]:
    """(seat, user, name, is_bot, points) of each scored seat; a game finished without scores
    gives its current holders 0 points each."""
    rows = await tx.fetchall(
        "SELECT seat, user_id, display_name, is_bot, points FROM result_seats "
        "WHERE game_id = ? ORDER BY seat", (game_id,))
    if not rows:
        rows = await tx.fetchall(
            "SELECT seat, user_id, display_name, is_bot, 0 AS points FROM seats "
            "WHERE game_id = ? AND left_at IS NULL ORDER BY seat", (game_id,))
    return [(int(r["seat"]), None if r["user_id"] is None else int(r["user_id"]),
             str(r["display_name"]), bool(r["is_bot"]), int(r["points"])) for r in rows]


async def _round_table(tx: Tx, season_id: int, finished_at: float,
                       humans: set[int]) -> tuple[int | None, int | None]:
    """The round and table a game was played for: the season's latest round started before
    the game finished, and the table of that round where all the game's people sit."""
    if not humans:
        return None, None
    row = await tx.fetchone(
        "SELECT id FROM league_rounds WHERE season_id = ? AND started_at <= ? "
        "ORDER BY number DESC LIMIT 1", (season_id, finished_at))
    if row is None:
        return None, None
    round_id = int(row["id"])
    rows = await tx.fetchall(
        "SELECT table_no, user_id FROM league_round_seats WHERE round_id = ?", (round_id,))
    tables: dict[int, set[int]] = {}
    for r in rows:
        tables.setdefault(int(r["table_no"]), set()).add(int(r["user_id"]))
    for table_no, users in sorted(tables.items()):
        if humans <= users:
            return round_id, table_no
    return None, None


def split_points(points: int, weights: Sequence[int]) -> list[int]:
    """`points` shared in proportion to `weights` (not all 0) in whole points that add up to
    `points`: each gets the whole part of its share, and the points that rounding leaves go
    one each to the largest remainders (ties: the earlier). A negative total is shared as
    its size is, every share negative."""
    total = sum(weights)
    if total <= 0 or min(weights) < 0:
        raise ValueError("points are shared by weights that are not all 0")
    size = abs(points)
    exact = [size * weight for weight in weights]
    shares = [part // total for part in exact]
    for index in sorted(range(len(weights)), key=lambda i: (-(exact[i] % total), i))[
            :size - sum(shares)]:
        shares[index] += 1
    return [share if points >= 0 else -share for share in shares]


def _credited(seat: tuple[int, int | None, str, bool, int], detail: SeatDetail | None
              ) -> tuple[int, int | None, str, bool, int]:
    """A final seat (seat, user, name, is_bot, points) as it counts: for the holder the
    detail credits, when the seat changed hands."""
    holder = next((h for h in detail.holders if h.credited), None) if detail else None
    if holder is None:
        return seat
    return (seat[0], holder.user_id, holder.display_name, holder.user_id is None, seat[4])


def _holders_points(holders: Sequence[SeatHolder], counted: int,
                    shared: bool) -> list[SeatHolder]:
    """The holders with the counted points each gets: all of `counted` to the credited
    holder, or (`shared`) a share by moves (all to the credited one when nobody made a move
    of their own)."""
    if not holders:
        return []
    weights = [h.moves for h in holders]
    if not shared or not any(weights):
        weights = [int(h.credited) for h in holders]
    return [replace(h, points=share)
            for h, share in zip(holders, split_points(counted, weights), strict=True)]


async def _insert_seat(tx: Tx, game_id: int, season_id: int, counted: bool, seat: int,
                       user: int | None, name: str, is_bot: bool, counted_points: int,
                       points: int, place: int, detail: SeatDetail, reason: str) -> None:
    """One seat's row: `counted_points` are what the standings count (less than the
    table's `points` in a game a season counts at half, or for a seat whose points were
    shared among its holders)."""
    check_opt_int(detail.exposures, "exposures", minimum=0)
    check_int(detail.penalty, "penalty", minimum=0)
    check_int(detail.played_for, "played_for", minimum=0)
    check_opt_int(detail.moves, "moves", minimum=0)
    await tx.execute(
        """INSERT INTO league_results (game_id, seat, season_id, counted, user_id,
               display_name, is_bot, points, table_points, placement, won, hand_id, section,
               hand_value, self_picked, jokerless, exposures, threw, penalty, wall_game, dead,
               played_for, moves)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (game_id, seat, season_id, int(counted), user, name, int(is_bot), counted_points,
         points, place, int(detail.won), detail.hand_id, detail.section, detail.hand_value,
         int(detail.self_picked), int(detail.jokerless), detail.exposures, int(detail.threw),
         detail.penalty, int(reason == FinishReason.WALL.value), int(detail.dead),
         detail.played_for, detail.moves))


async def _rate(tx: Tx, season_id: int, placed: Sequence[tuple[int, int]],
                model: RatingModel) -> None:
    """Move the ratings of one game's human players (fewer than two: nothing to compare)."""
    if len(placed) < 2:
        return
    users = [user for user, _ in placed]
    marks = ", ".join("?" * len(users))
    rows = await tx.fetchall(
        f"SELECT user_id, mu, sigma FROM league_ratings WHERE season_id = ? "
        f"AND user_id IN ({marks})", (season_id, *users))
    known = {int(r["user_id"]): (float(r["mu"]), float(r["sigma"])) for r in rows}
    before = [known.get(user, model.initial()) for user in users]
    after = model.rate(before, [place for _, place in placed])
    for user, (mu, sigma) in zip(users, after, strict=True):
        await tx.execute(
            "INSERT INTO league_ratings (season_id, user_id, mu, sigma, games) "
            "VALUES (?, ?, ?, ?, 1) ON CONFLICT (season_id, user_id) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, games = league_ratings.games + 1",
            (season_id, user, mu, sigma))


async def _rebuild_ratings(tx: Tx, season_id: int, model: RatingModel) -> int:
    """Replace the season's ratings by a replay of its counted games in recording order."""
    # Driven by league_games in recording order (SQLite's CROSS JOIN keeps that order), each
    # game's seats by primary key: no sort. (The join's condition is in WHERE: PostgreSQL's
    # CROSS JOIN takes no ON, and is an inner join there like any other.)
    rows = await tx.fetchall(
        """SELECT r.game_id, r.user_id, r.placement FROM league_games AS g
           CROSS JOIN league_results AS r
           WHERE r.game_id = g.game_id AND g.season_id = ? AND g.counted = 1 AND r.is_bot = 0
           ORDER BY g.id, r.seat""", (season_id,))
    # A big season's replay takes most of a second: in a worker, off the event loop.
    ratings, played = await asyncio.to_thread(_replay_ratings, rows, model)
    await tx.execute("DELETE FROM league_ratings WHERE season_id = ?", (season_id,))
    for user, (mu, sigma) in ratings.items():
        await tx.execute(
            "INSERT INTO league_ratings (season_id, user_id, mu, sigma, games) "
            "VALUES (?, ?, ?, ?, ?)", (season_id, user, mu, sigma, played[user]))
    return len(ratings)


def _replay_ratings(rows: Sequence[Row], model: RatingModel) -> tuple[
        dict[int, RatingPair], dict[int, int]]:
    """Each player's rating and counted games after the games' (game id, user id,
    placement) rows, in recording order."""
    games: list[list[tuple[int, int]]] = []
    last: int | None = None
    for game_id, user_id, placement in rows:
        if game_id != last:
            games.append([])
            last = game_id
        games[-1].append((int(user_id), int(placement)))
    ratings: dict[int, RatingPair] = {}
    played: dict[int, int] = {}
    initial = model.initial()
    for placed in games:
        if len(placed) < 2:
            continue
        users = [user for user, _ in placed]
        after = model.rate([ratings.get(user, initial) for user in users],
                           [place for _, place in placed])
        for user, rating in zip(users, after, strict=True):
            ratings[user] = rating
            played[user] = played.get(user, 0) + 1
    return ratings, played


async def _league_of_game(tx: Tx, game_id: int, guild_id: int | None) -> tuple[int, int]:
    """(league id, season id) of a recorded game of this server, or `LeagueGameNotFound`."""
    row = await tx.fetchone(
        "SELECT s.league_id, g.season_id, l.guild_id FROM league_games AS g "
        "JOIN league_seasons AS s ON s.id = g.season_id JOIN leagues AS l ON l.id = s.league_id "
        "WHERE g.game_id = ?", (check_int(game_id, "game_id"),))
    if row is None or (guild_id is not None and int(row["guild_id"]) != guild_id):
        raise LeagueGameNotFound(game_id)
    return int(row["league_id"]), int(row["season_id"])


async def _fetch(tx: Tx, game_id: int) -> LeagueGame:
    row = await tx.fetchone(
        "SELECT game_id, season_id, round_id, table_no, reason, counted, note, finished_at, "
        "recorded_at FROM league_games WHERE game_id = ?", (game_id,))
    if row is None:
        raise LeagueGameNotFound(game_id)
    seats = await tx.fetchall(
        f"SELECT {RESULT_COLUMNS} FROM league_results AS r WHERE r.game_id = ? ORDER BY r.seat",
        (game_id,))
    holders: dict[int, list[SeatHolder]] = {}
    for holder in await tx.fetchall(
            f"SELECT {HOLDER_COLUMNS} FROM league_result_holders WHERE game_id = ? "
            "ORDER BY seat, part", (game_id,)):
        holders.setdefault(int(holder["seat"]), []).append(holder_from_row(holder))
    return LeagueGame(
        game_id=int(row["game_id"]), season_id=int(row["season_id"]),
        round_id=None if row["round_id"] is None else int(row["round_id"]),
        table_no=None if row["table_no"] is None else int(row["table_no"]),
        reason=FinishReason(row["reason"]), counted=bool(row["counted"]),
        note=str(row["note"]), finished_at=float(row["finished_at"]),
        recorded_at=float(row["recorded_at"]),
        seats=tuple(seat_from_result_row(seat, holders.get(int(seat["seat"]), ()))
                    for seat in seats))
