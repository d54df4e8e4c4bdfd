"""The `/league` slash commands: leagues, seasons, standings, stats, rounds and corrections.

Each command finds the league of the channel it is used in (or of the thread's parent
channel, or the server's only league), calls the league service (`bot.league.service`), and
answers. Its refusals are `MahjongError`s, which the command tree shows to the person as
they are.
Anything that changes a league is for server managers (Manage Server): they are the
tournament directors, and every correction they make is kept in the audit log with who and
why. Pictures are drawn off the event loop, and every write is committed before it is
announced.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord.mentions import NO_MENTIONS, pinging
from bot.discord.names import known_as
from bot.engine.errors import IllegalAction, InvalidInput
from bot.engine.game.rules import (
    Scoring,
    format_options,
    rules_to_json,
    suggest_options,
    table_rules,
    with_options,
)
from bot.league.export import write_csv
from bot.league.ratings import conservative
from bot.league.service import (
    MAX_LEAGUE_NAME,
    MAX_REASON,
    MAX_SEASON_NAME,
    League,
    LeagueGame,
    LeagueNotFound,
    LeagueService,
    NotAtThatGame,
    Season,
    SeasonSettings,
    StandInGames,
    SubCredit,
)
from bot.league.standings import (
    STAND_IN_ROOM,
    TEXT_LIMIT,
    format_table,
    season_line,
    season_title,
    stand_in_line,
    standings_scene,
)
from bot.library import DEFAULT_CARD
from bot.server_cards import MAX_NAME
from renderer.alt import describe_standings
from renderer.standings import render_standings

#: Room left under Discord's 2000-character message limit.
MESSAGE_LIMIT = 1900

# -- shared helpers -----------------------------------------------------------------------


def _leagues(interaction: discord.Interaction[Any]) -> LeagueService:
    leagues = getattr(interaction.client, "leagues", None)
    if not isinstance(leagues, LeagueService):
        raise RuntimeError("the client has no league service")
    return leagues


def _guild(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise IllegalAction("Leagues live on servers; use this command in a server channel.")
    return interaction.guild_id


def _is_manager(interaction: discord.Interaction[Any]) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)


def _require_manager(interaction: discord.Interaction[Any]) -> None:
    if not _is_manager(interaction):
        raise IllegalAction("Only server managers (Manage Server) can run a league. Ask one "
                            "of them, or see the standings with `/league standings`.")


async def _league_here(interaction: discord.Interaction[Any]) -> League:
    """The league of this channel (or of a thread's parent channel), else the league of the
    server's league channel (`/mj config league_channel:`), else the server's only league;
    otherwise a refusal saying where the leagues are, or how to make one."""
    found = await _league_if_any(interaction)
    if found is None:
        home = await _leagues(interaction).home_channel(_guild(interaction))
        where = ("the league's channel" if home is None
                 else f"<#{home}>, this server's league channel")
        raise LeagueNotFound("This server has no league yet. A server manager can create one "
                             f"in {where} with `/league create`.")
    return found


async def _league_if_any(interaction: discord.Interaction[Any]) -> League | None:
    """The league this command is for, found as `_league_here` finds it; None when the
    server has no league at all, and a refusal saying where the leagues are when it has
    several and this is none of their channels."""
    service = _leagues(interaction)
    guild_id = _guild(interaction)
    channel = interaction.channel
    home = await service.home_channel(guild_id)
    for channel_id in (getattr(channel, "id", None), getattr(channel, "parent_id", None), home):
        if isinstance(channel_id, int):
            found = await service.in_channel(guild_id, channel_id)
            if found is not None:
                return found
    leagues = await service.of_server(guild_id)
    if len(leagues) == 1:
        return leagues[0]
    if not leagues:
        return None
    where = ", ".join(f"**{lg.name}** in <#{lg.channel_id}>" for lg in leagues)
    raise LeagueNotFound(f"Use this in a league's channel: {where}.")


async def _season(interaction: discord.Interaction[Any], league: League,
                  number: int | None) -> Season:
    return await _leagues(interaction).season(league.id, number)


def _chunks(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines joined into messages of at most `limit` characters (a line never splits)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks


async def _send_chunks(interaction: discord.Interaction[Any], lines: Iterable[str], *,
                       ephemeral: bool = False,
                       mentions: discord.AllowedMentions = NO_MENTIONS) -> None:
    """Answer with as many messages as the lines need (the first fills a deferral)."""
    for chunk in _chunks(lines) or ["(nothing to show)"]:
        await interaction.followup.send(chunk, ephemeral=ephemeral, allowed_mentions=mentions)


def _when(timestamp: float) -> str:
    return f"<t:{int(timestamp)}:d>"


def _name(text: str) -> str:
    """A name safe to put in a message: no markdown or mentions taken from it."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def _game_line(game: LeagueGame) -> str:
    """One recorded game in a sentence."""
    head = f"#{game.game_id} {_when(game.finished_at)}"
    winners = [s for s in game.seats if s.won]
    if winners:
        win = winners[0]
        what = f"{_name(win.display_name)} won with {win.detail.hand_id} ({win.points:+d})"
    elif game.reason.value == "timeout":
        what = "time ran out: 0 for everyone"
    else:
        what = "wall game"
    if not game.counted:
        # The note may name players (a stand-in's): their names are text, as above.
        what += f" — not counted{': ' + _name(game.note) if game.note else ''}"
    return f"{head} · {what}"


def _holder_lines(game: LeagueGame) -> list[str]:
    """How each seat of the game that changed hands counted: who held it, the seat's own
    moves each made, the counted points each got, and whose its place (and rating) is."""
    lines = []
    for seat in game.seats:
        if seat.detail.holders:
            held = ", ".join(f"{_name(h.display_name)} {h.moves} moves {h.points:+d}"
                             for h in seat.detail.holders)
            lines.append(f"  ↳ seat {seat.seat + 1} changed hands: {held}; its place is "
                         f"{_name(seat.display_name)}'s")
    return lines


league = app_commands.Group(name="league", guild_only=True,
                            description="League play: seasons, standings, ratings and rounds")
season_group = app_commands.Group(name="season", parent=league,
                                  description="(Managers) start or end the league's season")
round_group = app_commands.Group(name="round", parent=league,
                                 description="Tournament rounds: seat the players at tables")


# -- leagues and seasons -------------------------------------------------------------------


@league.command(name="create", description="(Managers) make this channel a league's home")
@app_commands.describe(name="the league's name, e.g. Tuesday Club")
async def create(interaction: discord.Interaction[Any],
                 name: app_commands.Range[str, 1, MAX_LEAGUE_NAME]) -> None:
    """Create a league recording the games of this channel."""
    _require_manager(interaction)
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        raise IllegalAction("Create a league in a text channel (not a thread or a DM): its "
                            "games are the tables opened there with `/mj new`.")
    made = await _leagues(interaction).create(_guild(interaction), name, channel.id,
                                              by=interaction.user.id)
    await interaction.response.send_message(
        f"League **{_name(made.name)}** now lives in {channel.mention}. A manager starts its "
        "first season with `/league season start`; players sign up with `/league join`.",
        allowed_mentions=NO_MENTIONS)


@season_group.command(name="start", description="(Managers) open the league's next season")
@app_commands.describe(
    name="the season's name (default: Season N)",
    players="table size",
    scoring="tournament points (default), nmjl payments, or siamese for two players",
    card="the card every game of the season is played with",
    min_games="games a player needs to be ranked (default 0)",
    minutes="per-game time limit; when it runs out the game scores 0 for everyone",
    house="house options every game plays with, e.g. dead_hands=off (see /rules house-rules)",
    stand_ins="how games a bot played part of for a player count: in full (default), at "
              "half, or not",
    vacation_days="days each player may be away (`/mj vacation`), their clocks paused "
                  "(default 7)",
    sub_credit="a seat handed on with /mj sub counts for who made most of its moves "
               "(default), or its points are shared by moves",
)
@app_commands.choices(players=[app_commands.Choice(name=f"{n} players", value=n)
                               for n in (4, 3, 2)])
@app_commands.choices(scoring=[app_commands.Choice(name=s.value, value=s.value)
                               for s in Scoring],
                      stand_ins=[app_commands.Choice(name=s.value, value=s.value)
                                 for s in StandInGames],
                      sub_credit=[app_commands.Choice(name=c.value, value=c.value)
                                  for c in SubCredit])
async def season_start(interaction: discord.Interaction[Any],
                       name: app_commands.Range[str, 1, MAX_SEASON_NAME] | None = None,
                       players: int = 4,
                       scoring: app_commands.Range[str, 1, 20] | None = None,
                       card: app_commands.Range[str, 1, MAX_NAME] = DEFAULT_CARD,
                       min_games: app_commands.Range[int, 0, 1000] = 0,
                       minutes: app_commands.Range[int, 1, 1440] | None = None,
                       house: app_commands.Range[str, 1, 200] | None = None,
                       stand_ins: app_commands.Range[str, 1, 10] = "count",
                       vacation_days: app_commands.Range[int, 0, 365] = 7,
                       sub_credit: app_commands.Range[str, 1, 10] = "most-moves") -> None:
    """Open a season with its table size, scoring, house options (see
    `bot.engine.game.rules.with_options`), card and ranking settings."""
    _require_manager(interaction)
    found = await _league_here(interaction)
    scoring = scoring or ("siamese" if players == 2 else "tournament")
    standard = table_rules(players, scoring)
    rules = with_options(standard, house or "")
    settings = SeasonSettings(name=name or "", players=players, card_name=card,
                              scoring=scoring, rules=rules_to_json(rules),
                              min_games=min_games, game_minutes=minutes,
                              stand_in_games=StandInGames(stand_ins),
                              vacation_days=vacation_days,
                              sub_credit=SubCredit(sub_credit))
    season = await _leagues(interaction).start_season(found, settings,
                                                      by=interaction.user.id)
    house_options = format_options(rules, standard)
    house_note = f" · house options `{house_options}`" if house_options else ""
    await interaction.response.send_message(
        f"**{_name(season_title(found.name, season))}** is open: {season_line(season)}"
        f"{house_note}.\n"
        f"Every game finished in <#{found.channel_id}> counts when it is played this way "
        f"(open tables there with `/mj new`). {stand_in_line(season)}",
        allowed_mentions=NO_MENTIONS)


@season_start.autocomplete("card")
async def season_cards(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
    """Shipped cards and the server's own cards, filtered by what was typed."""
    try:
        names = await interaction.client.service.servers.card_names(_guild(interaction))
    except Exception:
        return []
    wanted = current.strip().casefold()
    return [app_commands.Choice(name=n, value=n) for n in names if wanted in n.casefold()][:25]


@season_start.autocomplete("house")
async def season_house_options(interaction: discord.Interaction[Any],
                               current: str) -> list[app_commands.Choice[str]]:
    """The house options text with its last word completed (option names and values)."""
    return [app_commands.Choice(name=text, value=text) for text in suggest_options(current)]


@season_group.command(name="vacation_days",
                      description="(Managers) change the season's vacation budget, with a "
                                  "reason")
@app_commands.describe(days="the days each player may now be away this season",
                       reason="why (kept in the audit log)")
async def season_vacation_days(interaction: discord.Interaction[Any],
                               days: app_commands.Range[int, 0, 365],
                               reason: app_commands.Range[str, 1, MAX_REASON]) -> None:
    """A director's correction of the open season's vacation budget (the table service
    moves the clocks of the vacations under way); kept in the audit log."""
    _require_manager(interaction)
    found = await _league_here(interaction)
    before = (await _leagues(interaction).season(found.id)).settings.vacation_days
    season, under_way = await interaction.client.service.change_vacation_budget(
        found.id, days, by=interaction.user.id, reason=reason)
    now = interaction.client.service.now()
    begun = [v for v in under_way if v.started_at <= now]
    planned = [v for v in under_way if v.started_at > now]
    ended = sum(v.ended_at is not None for v in begun)
    called_off = sum(v.ended_at is not None for v in planned)
    moved = (f" {len(begun)} vacation{'s' * (len(begun) != 1)} under way now "
             f"end{'s' * (len(begun) == 1)} by the new budget"
             f"{f' ({ended} at once)' if ended else ''}." if begun else "")
    if planned:  # not yet begun: shortened to the budget, or called off when it leaves none
        moved += (f" {len(planned)} planned vacation{'s' * (len(planned) != 1)} now "
                  f"end{'s' * (len(planned) == 1)} by it too"
                  f"{f' ({called_off} called off)' if called_off else ''}.")
    await interaction.response.send_message(
        f"**{_name(season_title(found.name, season))}**: vacation days {before} → {days} "
        f"(ruled by {interaction.user.mention}: {_name(reason)}). A player who used more "
        f"has none left.{moved} `/league audit` keeps the record.",
        allowed_mentions=NO_MENTIONS)


@season_group.command(name="end", description="(Managers) close the season; standings are final")
async def season_end(interaction: discord.Interaction[Any]) -> None:
    """End the open season and name the top of the table."""
    _require_manager(interaction)
    found = await _league_here(interaction)
    season, rows = await _leagues(interaction).end_season(found.id, by=interaction.user.id)
    podium = [r for r in rows if r.rank is not None and r.rank <= 3]
    text = f"**{_name(season_title(found.name, season))}** is over."
    if podium:
        text += " Final top three: " + ", ".join(
            f"{r.rank}. {_name(r.name)} ({r.points} pts)" for r in podium) + "."
    await interaction.response.send_message(
        text + " See everything with `/league standings` and `/league export`.",
        allowed_mentions=NO_MENTIONS)


# -- players --------------------------------------------------------------------------------


@league.command(name="join", description="Join this league (you are seated in its rounds)")
async def join(interaction: discord.Interaction[Any]) -> None:
    """Register the caller."""
    found = await _league_here(interaction)
    await _leagues(interaction).join(found.id, interaction.user.id,
                                     known_as(interaction.user))
    await interaction.response.send_message(
        f"{interaction.user.mention} is in **{_name(found.name)}**. Your games in "
        f"<#{found.channel_id}> count toward the season.", allowed_mentions=NO_MENTIONS)


@league.command(name="leave", description="Stop being seated in this league's rounds")
async def leave(interaction: discord.Interaction[Any]) -> None:
    """Unregister the caller; their games stay in the standings."""
    found = await _league_here(interaction)
    await _leagues(interaction).leave(found.id, interaction.user.id)
    await interaction.response.send_message(
        f"You left **{_name(found.name)}**: you won't be seated in its rounds. Your games so "
        "far stay in the standings.", ephemeral=True)


# -- reading the league ------------------------------------------------------------------------


@league.command(name="standings", description="The season's table: points, wins and ratings")
@app_commands.describe(season="the season number (default: the current one)")
async def standings(interaction: discord.Interaction[Any],
                    season: app_commands.Range[int, 1, 10_000] | None = None) -> None:
    """A picture and a text table of the standings."""
    found = await _league_here(interaction)
    chosen = await _season(interaction, found, season)
    await interaction.response.defer(thinking=True)
    rows = await _leagues(interaction).standings(chosen)
    title = season_title(found.name, chosen)
    scene = standings_scene(title, season_line(chosen), rows,
                            min_games=chosen.settings.min_games)
    png = await asyncio.to_thread(render_standings, scene)
    await interaction.followup.send(
        f"**{_name(title)}**\n{format_table(rows, limit=TEXT_LIMIT - STAND_IN_ROOM)}\n"
        f"{stand_in_line(chosen)}",
        file=discord.File(io.BytesIO(png), filename="standings.png",
                          description=describe_standings(scene)),
        allowed_mentions=NO_MENTIONS)


@league.command(name="stats", description="A player's season: wins, hands, head-to-head")
@app_commands.describe(player="whose stats (default: yours)",
                       season="the season number (default: the current one)")
async def stats(interaction: discord.Interaction[Any], player: discord.Member | None = None,
                season: app_commands.Range[int, 1, 10_000] | None = None) -> None:
    """Wins, self-picks, jokerless wins, favourite hands and head-to-head records."""
    found = await _league_here(interaction)
    chosen = await _season(interaction, found, season)
    user = player or interaction.user
    s = await _leagues(interaction).player_stats(chosen.id, user.id)
    who = _name(s.display_name if s.games else user.display_name)
    if not s.games:
        await interaction.response.send_message(
            f"{who} has no counted games in {_name(season_title(found.name, chosen))} yet.",
            ephemeral=True, allowed_mentions=NO_MENTIONS)
        return
    lines = [f"**{who}** · {_name(season_title(found.name, chosen))}",
             f"Games {s.games} · Wins {s.wins} · Self-picks {s.self_picks} · "
             f"Jokerless wins {s.jokerless_wins}",
             f"Points {s.points} ({s.points / s.games:.1f} per game) · best game "
             f"{s.best_game}",
             f"Threw Mah Jongg {s.threw} times · dead hands {s.dead} · wall games {s.wall_games}"]
    if s.stand_in_games:
        share = f" ({s.played_for / s.stand_in_moves:.0%} of their moves there)" if (
            s.stand_in_moves) else ""
        lines.append(f"A bot played {s.played_for} moves for them in {s.stand_in_games} "
                     f"games{share}. {stand_in_line(chosen)}")
    if s.mu is not None and s.sigma is not None:
        lines.append(f"Rating {conservative(s.mu, s.sigma):.1f} (skill {s.mu:.1f} "
                     f"± {s.sigma:.1f})")
    if s.favourite_hands:
        lines.append("Favourite hands: " + ", ".join(
            f"{h.hand_id}{f' ({h.section})' if h.section else ''} x{h.wins}"
            for h in s.favourite_hands))
    if s.head_to_head:
        lines.append("Head to head (games: ahead-behind-level):")
        lines += [f"• {_name(h.display_name)} {h.games}: {h.ahead}-{h.behind}-{h.level}"
                  for h in s.head_to_head]
    await interaction.response.send_message("\n".join(lines)[:MESSAGE_LIMIT],
                                            allowed_mentions=NO_MENTIONS)


@league.command(name="history", description="The league's seasons and latest games")
async def history(interaction: discord.Interaction[Any]) -> None:
    """Every season with its games and leader, then the latest recorded games."""
    found = await _league_here(interaction)
    await interaction.response.defer(thinking=True)
    summaries, recent = await _leagues(interaction).history(found.id, recent=10)
    lines = [f"**{_name(found.name)}** · since {_when(found.created_at)}"]
    if not summaries:
        lines.append("No seasons yet; a manager starts one with `/league season start`.")
    for summary in summaries:
        season = summary.season
        span = (f"{_when(season.started_at)} → {_when(season.ended_at)}"
                if season.ended_at is not None else f"since {_when(season.started_at)}")
        leader = ""
        if summary.leader_name is not None:
            role = "champion" if season.ended_at is not None else "leading"
            leader = f" · {role}: {_name(summary.leader_name)} ({summary.leader_points} pts)"
        lines.append(f"• {_name(season_title(found.name, season))} · {span} · "
                     f"{summary.games} games{leader}")
    if recent:
        lines.append(f"Latest games of season {summaries[-1].season.number}:")
        for game in recent:
            lines += [_game_line(game), *_holder_lines(game)]
    await _send_chunks(interaction, lines)


@league.command(name="export", description="The season's games and results as a CSV file")
@app_commands.describe(season="the season number (default: the current one)")
async def export(interaction: discord.Interaction[Any],
                 season: app_commands.Range[int, 1, 10_000] | None = None) -> None:
    """Every seat of every recorded game, one row each (sent only to you)."""
    found = await _league_here(interaction)
    chosen = await _season(interaction, found, season)
    await interaction.response.defer(ephemeral=True, thinking=True)
    rows = await _leagues(interaction).export_rows(chosen.id)
    data = (await asyncio.to_thread(write_csv, rows)).encode("utf-8")
    slug = "".join(c if c.isalnum() else "-" for c in found.name.lower()).strip("-") or "league"
    filename = f"{slug}-season-{chosen.number}.csv"
    if len(data) > interaction.filesize_limit:
        data = await asyncio.to_thread(gzip.compress, data, 9, mtime=0)
        filename += ".gz"
    if len(data) > interaction.filesize_limit:
        raise IllegalAction("The export is too big for a Discord file even compressed. Ask "
                            "the bot's host for a copy of the database.")
    games = len({row.game_id for row in rows})
    await interaction.followup.send(
        f"{_name(season_title(found.name, chosen))}: {games} games, {len(rows)} rows.",
        file=discord.File(io.BytesIO(data), filename=filename), ephemeral=True)


@league.command(name="audit", description="What the league's directors changed, and why")
async def audit(interaction: discord.Interaction[Any]) -> None:
    """The latest entries of the audit log (only you see them)."""
    found = await _league_here(interaction)
    entries = await _leagues(interaction).audit(found.id, limit=15)
    lines = [f"**{_name(found.name)}**: latest changes"]
    for entry in entries:
        what = entry.action.replace("_", " ")
        if entry.game_id is not None:
            what += f" game #{entry.game_id}"
        change = ""
        if entry.action == "adjust_points":
            before, after = json.loads(entry.before), json.loads(entry.after)
            change = f" <@{after['user_id']}> {before['points']} → {after['points']}"
        elif entry.action == "vacation_days":
            before, after = json.loads(entry.before), json.loads(entry.after)
            change = f" {before['vacation_days']} → {after['vacation_days']}"
        why = f" — “{_name(entry.reason)}”" if entry.reason else ""
        lines.append(f"• {_when(entry.at)} <@{entry.actor_user_id}> {what}{change}{why}")
    await interaction.response.send_message("\n".join(_chunks(lines)[0:1]), ephemeral=True,
                                            allowed_mentions=NO_MENTIONS)


# -- directors' corrections --------------------------------------------------------------------


@league.command(name="adjust", description="(Managers) correct a recorded game, with a reason")
@app_commands.describe(
    game="the table number of the game",
    reason="why (kept in the audit log)",
    player="whose points to correct",
    points="the player's corrected points for that game",
    counted="take the game out of the standings (false) or put it back (true)",
)
async def adjust(interaction: discord.Interaction[Any], game: int,
                 reason: app_commands.Range[str, 1, MAX_REASON],
                 player: discord.Member | None = None, points: int | None = None,
                 counted: bool | None = None) -> None:
    """A director's ruling: change one player's points, or count or uncount a game."""
    _require_manager(interaction)
    leagues = _leagues(interaction)
    guild_id = _guild(interaction)
    if counted is not None and (player is not None or points is not None):
        raise InvalidInput("Correct one thing at a time: either a player's points, or whether "
                           "the game counts.")
    if counted is None and (player is None or points is None):
        raise InvalidInput("Give a `player` and their corrected `points`, or `counted` to take "
                           "the game out of the standings (or put it back).")
    if counted is not None:
        await leagues.set_counted(game, counted, guild_id=guild_id, by=interaction.user.id,
                                  reason=reason)
        text = (f"Game #{game} {'counts again' if counted else 'no longer counts'} "
                f"(ruled by {interaction.user.mention}: {_name(reason)}).")
    else:
        assert player is not None and points is not None
        before = await leagues.game(game, guild_id=guild_id)
        old = next((s.points for s in before.seats if s.user_id == player.id), None)
        if old is None:
            raise NotAtThatGame(f"{_name(player.display_name)} has no points of their own in "
                                f"game #{game}: a seat's points count for the player it is "
                                "credited to (`/league history` shows who). Check the player "
                                "and the game number.")
        await leagues.adjust_points(game, player.id, points, guild_id=guild_id,
                                    by=interaction.user.id, reason=reason)
        text = (f"Game #{game}: {player.mention} {old} → {points} points (ruled by "
                f"{interaction.user.mention}: {_name(reason)}).")
    await interaction.response.send_message(
        text + " Standings and ratings are updated; `/league audit` keeps the record.",
        allowed_mentions=NO_MENTIONS)


# -- tournament rounds ----------------------------------------------------------------------


def _table_lines(tables: Sequence[Sequence[int]], size: int) -> list[str]:
    lines = []
    for number, users in enumerate(tables, start=1):
        seats = " · ".join(f"<@{user}>" for user in users)
        bots = size - len(users)
        lines.append(f"Table {number}: {seats}" + (f" · +{bots} bot{'s' * (bots > 1)}"
                                                     if bots > 0 else ""))
    return lines


@round_group.command(name="start", description="(Managers) seat the registered players")
async def round_start(interaction: discord.Interaction[Any]) -> None:
    """Seat every registered player at tables of the season's size, mixing opponents."""
    _require_manager(interaction)
    leagues = _leagues(interaction)
    found = await _league_here(interaction)
    season = await leagues.season(found.id)
    if not season.is_open:
        raise IllegalAction("This league has no season in progress. Start one with "
                            "`/league season start`.")
    await interaction.response.defer(thinking=True)
    started = await leagues.start_round(found.id, season, by=interaction.user.id)
    limit = (f" Each game has {season.settings.game_minutes} minutes; when time is up it "
             "scores 0 for everyone." if season.settings.game_minutes else "")
    lines = [f"**Round {started.number}** of {_name(season_title(found.name, season))}: "
             f"open your table in <#{found.channel_id}> with `/mj new` (the first player "
             f"listed is East).{limit}"]
    lines += _table_lines([t.user_ids for t in started.tables], season.settings.players)
    await _send_chunks(interaction, lines,
                       mentions=pinging(u for t in started.tables for u in t.user_ids))


@round_group.command(name="show", description="A round's tables and each table's points")
@app_commands.describe(number="the round (default: the latest)")
async def round_show(interaction: discord.Interaction[Any],
                     number: app_commands.Range[int, 1, 1000] | None = None) -> None:
    """The seating and the points scored at each table so far."""
    leagues = _leagues(interaction)
    found = await _league_here(interaction)
    season = await leagues.season(found.id)
    shown, scores = await leagues.round(season.id, number)
    lines = [f"**Round {shown.number}** of {_name(season_title(found.name, season))} "
             f"({_when(shown.started_at)})"]
    for table in shown.tables:
        mine = [s for s in scores if s.table_no == table.table_no]
        games = max((s.games for s in mine), default=0)
        lines.append(f"Table {table.table_no} ({games} game{'s' * (games != 1)}): " + ", ".join(
            f"{_name(s.display_name)} {s.points}" for s in mine))
    await interaction.response.defer()
    await _send_chunks(interaction, lines)


def register_league_commands(tree: app_commands.CommandTree[Any]) -> None:
    """Add `/league` to a command tree."""
    tree.add_command(league)
