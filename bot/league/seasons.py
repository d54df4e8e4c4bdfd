"""What a league season asks of the tables opened in its channel.

A season fixes the table size, scoring, other rules and card of its games; a game played
another way is recorded but not counted. So a table opened in a league's channel while a
season is open should take the season's rules and card: `season_for_channel` finds the
season and `season_rules` reads its rules back into the engine's `RuleSet`.
"""

from __future__ import annotations

from bot.engine.game.rules import RuleSet, rules_from_json
from bot.store import Database, Season


async def season_for_channel(db: Database, guild_id: int, channel_id: int) -> Season | None:
    """The open season of the league living in this channel, if any."""
    league = await db.leagues.league_in_channel(guild_id, channel_id)
    if league is None:
        return None
    return await db.leagues.current_season(league.id)


def season_rules(season: Season) -> RuleSet:
    """The engine rules every game of the season is played with."""
    return rules_from_json(season.settings.rules)
