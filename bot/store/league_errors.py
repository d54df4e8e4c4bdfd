"""Refusals of the league part of the store. Each is a `StoreRefusal` (so a `MahjongError`):
a player or director can cause it, and its message says what to do next."""

from __future__ import annotations

from bot.engine.errors import echo
from bot.store.errors import NotFound, StoreRefusal


class BadLeagueInput(StoreRefusal):
    """A name, reason or setting the store will not keep (empty, too long, out of range)."""

    code = "bad_league_input"


class LeagueNotFound(NotFound):
    """No league by that name or in that channel (or it belongs to another server)."""

    code = "league_not_found"


class LeagueNameTaken(StoreRefusal):
    """The server already has a league by that name."""

    code = "league_name_taken"

    def __init__(self, name: str) -> None:
        super().__init__(f"This server already has a league called `{echo(name)}`. Pick "
                         "another name.")
        self.name = name


class ChannelHasLeague(StoreRefusal):
    """A channel holds at most one league."""

    code = "channel_has_league"

    def __init__(self, name: str) -> None:
        super().__init__(f"This channel already belongs to the league `{echo(name)}`. Create "
                         "the new league in another channel.")
        self.name = name


class SeasonAlreadyOpen(StoreRefusal):
    """A league plays one season at a time."""

    code = "season_already_open"

    def __init__(self, number: int) -> None:
        super().__init__(f"Season {number} is still open. End it with `/league season end` "
                         "before starting the next one.")
        self.number = number


class NoOpenSeason(StoreRefusal):
    """The league has no season in progress."""

    code = "no_open_season"

    def __init__(self) -> None:
        super().__init__("This league has no season in progress. A server manager can start "
                         "one with `/league season start`.")


class SeasonNotFound(NotFound):
    """No season with that number in this league."""

    code = "season_not_found"

    def __init__(self, number: int | None) -> None:
        super().__init__("This league has no seasons yet. A server manager can start one with "
                         "`/league season start`." if number is None else
                         f"This league has no season {number}. `/league history` lists them.")
        self.number = number


class LeagueGameNotFound(NotFound):
    """The game was not recorded in this server's leagues."""

    code = "league_game_not_found"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"Game #{game_id} isn't recorded in this league. Check the number "
                         "with `/league history`.")
        self.game_id = game_id


class NotAtThatGame(NotFound):
    """The player named held no seat at the end of that game."""

    code = "not_at_that_game"


class RoundNotFound(NotFound):
    """No such tournament round in this season."""

    code = "round_not_found"


class RoundConflict(StoreRefusal):
    """Another round was started while this one was being seated."""

    code = "round_conflict"
