"""The line format shared by action and event text: `Who: verb args [-- note]`.

`Who` is a seat's wind (`East`, `South`, ...) or `Table`. Arguments are words: tiles in the
project notation (a list of tiles is written with commas inside one word, `12B,N`), and
`key=value` options. Racks and exposure groups are numbered from 1 in text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.errors import InvalidInput, echo
from bot.engine.game.rules import seat_names
from bot.engine.tiles import format_tiles, parse_tile, parse_tiles

TABLE = "Table"


@dataclass
class Line:
    """One parsed line: who, the verb, positional words, `key=value` options and the note."""

    who: str
    verb: str
    words: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    note: str = ""
    flags: set[str] = field(default_factory=set)

    def option(self, key: str, default: str | None = None) -> str:
        """The value of an option; `InvalidInput` when it is missing and has no default."""
        if key in self.options:
            return self.options.pop(key)
        if default is None:
            raise InvalidInput(f"`{echo(self.verb)}` needs `{key}=...`.")
        return default

    def flag(self, word: str) -> bool:
        """True (and consumed) when a bare word such as `both` is present."""
        if word in self.flags:
            self.flags.discard(word)
            return True
        return False

    def done(self, text: str) -> None:
        """Complain about anything left unread."""
        leftover = [*self.words, *self.flags, *(f"{k}={v}" for k, v in self.options.items())]
        if leftover:
            raise InvalidInput(
                f"I don't understand `{echo(' '.join(leftover))}` in `{echo(text)}`.")


def split_line(text: str, flag_words: frozenset[str] = frozenset()) -> Line:
    """Split `Who: verb args -- note` into its parts."""
    body, _, note = text.strip().partition(" -- ")
    who, colon, rest = body.partition(":")
    if not colon or not rest.strip():
        raise InvalidInput(f"`{echo(text)}` should look like `East: discard 3B`.")
    words = rest.split()
    line = Line(who=who.strip(), verb=words[0].lower(), note=note.strip())
    for word in words[1:]:
        key, equals, value = word.partition("=")
        if equals:
            line.options[key.lower()] = value
        elif word.lower() in flag_words:
            line.flags.add(word.lower())
        else:
            line.words.append(word)
    return line


def seat_text(seat: int, players: int) -> str:
    """A seat's wind name."""
    return seat_names(players)[seat]


def parse_seat(word: str, players: int) -> int:
    """A seat from its wind name (any case)."""
    names = [name.lower() for name in seat_names(players)]
    try:
        return names.index(word.strip().lower())
    except ValueError:
        raise InvalidInput(f"`{echo(word)}` is not a seat at this table; the seats are "
                           f"{', '.join(seat_names(players))}.") from None


def tiles_text(kinds: tuple[int, ...]) -> str:
    """A list of tiles as one word (`12B,N`)."""
    return format_tiles(kinds).replace(" ", ",")


def parse_tiles_text(words: list[str] | str) -> tuple[int, ...]:
    """Tiles from one word or several."""
    text = words if isinstance(words, str) else " ".join(words)
    return parse_tiles(text) if text.strip() else ()


def one_tile(line: Line) -> int:
    """The single tile a line names with its remaining words (`3B`, `3 bam`, `red`)."""
    if not line.words:
        raise InvalidInput(f"`{echo(line.verb)}` needs a tile, e.g. `{echo(line.verb)} 3B`.")
    words = " ".join(line.words)
    line.words.clear()
    return parse_tile(words)


def number(value: str, what: str) -> int:
    """A whole number from text, with a readable complaint."""
    try:
        return int(value)
    except ValueError:
        raise InvalidInput(f"{what} must be a number, not `{echo(value)}`.") from None


def index_text(value: int) -> str:
    """A 0-based index written 1-based."""
    return str(value + 1)


def parse_index(value: str, what: str) -> int:
    """A 1-based number read back as a 0-based index."""
    index = number(value, what) - 1
    if index < 0:
        raise InvalidInput(f"{what} numbers start at 1.")
    return index
