"""Standings: ranking a season's totals, and showing them as a text table or a picture.

Players are ranked by total points, then points per game, then wins; players level on all
three share a rank ("1, 2, 2, 4"). A player with fewer games than the season's minimum is
listed after the ranked players without a rank, so nobody tops a season on one lucky game.
Bots are never here: the store leaves bot seats out of the totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.league.ratings import conservative
from bot.store import PlayerTotals, Season, StandInGames, SubCredit
from renderer.standings import StandingsRow, StandingsScene

#: Discord's message limit is 2000 characters; leave room for the line around the table.
TEXT_LIMIT = 1900
#: How the picture marks a player without a rank (an en dash).
DASH = "\u2013"
#: Rows drawn in the picture (the CSV export has everyone).
IMAGE_ROWS = 30


@dataclass(frozen=True)
class Standing:
    """One line of the standings. `rank` is None below the minimum number of games;
    `rating` (mu - 3 sigma) is None for a player with no rated game."""

    rank: int | None
    user_id: int
    name: str
    games: int
    wins: int
    points: int
    rating: float | None

    @property
    def per_game(self) -> float:
        """Points per game."""
        return self.points / self.games if self.games else 0.0


def rank_standings(totals: Sequence[PlayerTotals], min_games: int = 0) -> list[Standing]:
    """The season's standings: ranked players first, by points, points per game and wins,
    then the players below `min_games` by the same order."""
    def key(t: PlayerTotals) -> tuple[int, float, int, str, int]:
        return (-t.points, -(t.points / t.games if t.games else 0.0), -t.wins,
                t.display_name.casefold(), t.user_id)

    def level(t: PlayerTotals) -> tuple[int, float, int]:
        return key(t)[:3]

    ordered = sorted(totals, key=key)
    ranked = [t for t in ordered if t.games >= min_games]
    provisional = [t for t in ordered if t.games < min_games]
    rows: list[Standing] = []
    for index, total in enumerate(ranked):
        rank = index + 1
        if index and level(ranked[index - 1]) == level(total):
            rank = rows[-1].rank or rank
        rows.append(_standing(total, rank))
    rows.extend(_standing(total, None) for total in provisional)
    return rows


def _standing(total: PlayerTotals, rank: int | None) -> Standing:
    rating = (None if total.mu is None or total.sigma is None
              else conservative(total.mu, total.sigma))
    return Standing(rank, total.user_id, total.display_name, total.games, total.wins,
                    total.points, rating)


def season_title(league_name: str, season: Season) -> str:
    """"Spring League · Season 2: Summer" style heading."""
    name = season.settings.name
    default = f"Season {season.number}"
    return f"{league_name} · {default}" + ("" if name == default else f": {name}")


def season_line(season: Season) -> str:
    """The season's settings in one line (table size, scoring, card, minimum games, time
    limit, vacation days, whom a subbed seat counts for, open or final)."""
    s = season.settings
    parts = [f"{s.players} players", f"{s.scoring} scoring", f"card {s.card_name}"]
    if s.min_games:
        parts.append(f"ranked from {s.min_games} games")
    if s.game_minutes:
        parts.append(f"{s.game_minutes} min per game")
    parts.append(f"{s.vacation_days} vacation days")
    parts.append(SUB_CREDIT_RULES[s.sub_credit])
    parts.append("open" if season.is_open else "final")
    return " · ".join(parts)


#: Whom a season counts a seat for that changed hands during play (`/mj sub`), in words.
SUB_CREDIT_RULES = {
    SubCredit.MOST_MOVES: "subbed seats: most moves",
    SubCredit.SHARED: "subbed seats: shared by moves",
}


#: How a season's standings count a game in which a bot played for a person, in words.
STAND_IN_RULES = {
    StandInGames.COUNT: "games a bot played part of for a player count in full",
    StandInGames.HALF: "games a bot played part of for a player count at half "
                       "(points halved, rounded toward zero)",
    StandInGames.NONE: "games a bot played part of for a player don't count",
}


#: Room the standings message keeps for `stand_in_line` below the table.
STAND_IN_ROOM = 2 + max(len(rule) for rule in STAND_IN_RULES.values()) + len("Stand-ins: .")


def stand_in_line(season: Season) -> str:
    """How the season counts games a bot played part of for a person, as a sentence."""
    rule = STAND_IN_RULES[season.settings.stand_in_games]
    return f"Stand-ins: {rule}."


def _cell(text: str, width: int) -> str:
    """Text cut or padded to `width` characters (names come from Discord: any length)."""
    clean = " ".join(text.split()).replace("`", "'")
    return clean[: width - 1] + "…" if len(clean) > width else clean.ljust(width)


def format_table(rows: Sequence[Standing], *, limit: int = TEXT_LIMIT) -> str:
    """The standings as a monospaced table in a code block, at most `limit` characters:
    rank, player, games, wins, points, points per game and rating. Rows that do not fit are
    counted on the last line."""
    if not rows:
        return "No counted games yet: play a game in the league's channel to get on the board."
    header = f"{'#':>3}  {'Player':<18} {'G':>4} {'W':>4} {'Pts':>6} {'PPG':>6} {'Rating':>6}"
    lines = [header]
    budget = limit - 60  # the code fence and the "… and N more" line
    used = len(header)
    for row in rows:
        rank = "-" if row.rank is None else str(row.rank)
        rating = "" if row.rating is None else f"{row.rating:.1f}"
        line = (f"{rank:>3}  {_cell(row.name, 18)} {row.games:>4} {row.wins:>4} "
                f"{row.points:>6} {row.per_game:>6.1f} {rating:>6}")
        if used + 1 + len(line) > budget:
            break
        lines.append(line)
        used += 1 + len(line)
    shown = len(lines) - 1
    text = "```\n" + "\n".join(lines) + "\n```"
    if shown < len(rows):
        text += f"… and {len(rows) - shown} more (see `/league export`)"
    return text


def standings_scene(title: str, subtitle: str, rows: Sequence[Standing], *,
                    min_games: int = 0) -> StandingsScene:
    """The picture's plain data: the first `IMAGE_ROWS` lines and a footer."""
    shown = rows[:IMAGE_ROWS]
    footer_parts = []
    if len(rows) > len(shown):
        footer_parts.append(f"{len(rows) - len(shown)} more in /league export")
    if min_games and any(row.rank is None for row in rows):
        footer_parts.append(f"{DASH} : fewer than {min_games} games, not ranked yet")
    footer_parts.append("Rating = skill estimate (mu - 3 sigma)")
    return StandingsScene(
        title=title, subtitle=subtitle,
        rows=tuple(StandingsRow(rank=row.rank, name=row.name, games=row.games, wins=row.wins,
                                points=row.points, per_game=round(row.per_game, 1),
                                rating=None if row.rating is None else round(row.rating, 1))
                   for row in shown),
        footer=" · ".join(footer_parts))
