"""The table service's refusals, and what to tell a person about any error."""

from __future__ import annotations

from bot.engine.errors import IllegalAction, MahjongError
from bot.store import DatabaseUnavailable, StoreClosed


class StalePrompt(IllegalAction):
    """A button from an earlier moment of the game."""

    code = "stale_prompt"


class NotSeated(IllegalAction):
    """Someone who holds no seat tried to act at a table."""

    code = "not_seated"


#: What a person is told about a game that is not being played (over, or unknown).
NOT_RUNNING = "That game isn't running (it may have ended)."


class NotRunning(IllegalAction):
    """A move or a look asked for at a game that is not in play (over, aborted, still a
    lobby, or unknown)."""

    code = "not_running"


#: What a person is told when the game moved on under their click (another process, or a
#: write that did not wait for the game's lock, grew its log first).
MOVED_ON = ("The game moved on just as you clicked; nothing was changed. Use the newest "
            "prompt (or My rack).")


#: What a person is told when the bot is shutting down under their click.
RESTARTING = ("Jongg is restarting, so nothing was changed. Please try again in a minute: "
              "your game is saved.")


#: What a person is told when the database can't be reached under their click or command.
UNREACHABLE = ("The game's database can't be reached just now, so nothing was changed. "
               "Please try again in a moment.")


class Restarting(IllegalAction):
    """A move asked for while the service is closing (the process is stopping)."""

    code = "restarting"


#: Longest error text shown (Discord refuses a message over 2,000 characters). Messages
#: quote people's input through `echo`, so this only guards against a message built wrong.
ERROR_LIMIT = 1900


def for_players(error: Exception) -> bool:
    """Whether the error is an answer for the person (a refusal, a restart, a database out
    of reach for a moment), not a fault of ours to log: the table service's own retrying
    work tells the log when the database goes and comes back."""
    return isinstance(error, MahjongError | StoreClosed | DatabaseUnavailable)


def describe_error(error: Exception) -> str:
    """What to tell a person about an error: its own message if it is meant for players, a
    short apology otherwise (the details go to the log). A store closed under a request
    (the process is stopping) is a restart, not a fault: nothing of it was saved. A
    database out of reach is a moment's wait: the request was rolled back."""
    if isinstance(error, StoreClosed):
        return RESTARTING
    if isinstance(error, DatabaseUnavailable):
        return UNREACHABLE
    if isinstance(error, MahjongError):
        text = error.message
        return text if len(text) <= ERROR_LIMIT else text[:ERROR_LIMIT - 1] + "…"
    return "Sorry, something went wrong on our side. Your game is safe; please try again."
