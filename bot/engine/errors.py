"""The error tree every layer shows to players.

Only `MahjongError` and its subclasses carry a message written for a player; the bot shows
those messages as they are and answers anything else with a short apology. Each class has a
stable `code` so logs, tests and the Discord layer can tell errors apart without parsing text.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

#: Most characters of a person's own text that a message repeats back to them.
ECHO_LIMIT = 40


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """A person's own text as a message repeats it back (inside `code` marks): on one line,
    with no backticks, and cut to `limit` characters with an ellipsis. Whatever was typed,
    the message stays short, readable and within Discord's 2,000-character limit."""
    flat = " ".join(text.split()).replace("`", "'")
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


#: Letters that print as nothing (the Hangul fillers, the blank Braille pattern).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def shows_something(text: str) -> bool:
    """Whether a person's text prints anything: some character that is not a space, a
    control or format character (zero-width space and joiners, direction marks), nor a
    letter that prints blank. A name or a reason that shows nothing says nothing."""
    return any(not (char.isspace() or unicodedata.category(char) in ("Cc", "Cf")
                    or char in _BLANK_LETTERS) for char in text)


class MahjongError(Exception):
    """Base of every error whose message is safe and useful to show a player."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(MahjongError):
    """Text from a person (tiles, a card file, a command option) could not be understood."""

    code = "invalid_input"


class CardError(InvalidInput):
    """A card file has problems; `problems` lists each with its line and what to change."""

    code = "invalid_card"

    def __init__(self, message: str, problems: tuple[CardProblem, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems


class IllegalAction(MahjongError):
    """An action that the rules do not allow in the game's current state."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """An action by a seat that may not act now."""

    code = "not_your_turn"


@dataclass(frozen=True)
class CardProblem:
    """One problem found in a card file: the line it is on (0 for the whole file) and what to
    change."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message
