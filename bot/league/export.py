"""The CSV export of a season: one row per seat of every recorded game, and reading it back.

A seat that changed hands has a row for each other person who held it after its own, with
`share` 1: their share of its points (what the standings add to theirs) and the seat's own
moves they made; a share is not a game. So each player's counted rows add up to their
standings points and wins, and their rows without `share` are their games.

Columns are the fields of `ExportRow` in order, with a header. Yes/no columns are 1 or 0,
missing values are empty, `finished_at` is an ISO 8601 UTC time. Text a spreadsheet would run
as a formula (a name starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is written
with a leading apostrophe, as is text that already starts with one; reading strips exactly
one, so any name survives the round trip. The same holds after every semicolon in a text: a
spreadsheet set for a country whose list separator is `;` opens a CSV split at semicolons
(quotes in the middle of such a cell keep nothing together), so each part of a text between
semicolons is a cell there and is written as a whole text would be.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from bot.engine.errors import InvalidInput
from bot.store import ExportRow

COLUMNS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(ExportRow))
_BOOLS = frozenset({"counted", "is_bot", "won", "self_picked", "jokerless", "threw",
                    "wall_game", "dead", "share"})
_OPT_INTS = frozenset({"round", "table_no", "user_id", "hand_value", "exposures", "moves"})
_INTS = frozenset({"season", "game_id", "seat", "points", "table_points", "placement",
                   "penalty", "played_for"})
_OPT_TEXT = frozenset({"hand_id", "section"})
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


def _text_out(text: str) -> str:
    return ";".join("'" + part if part.startswith(_FORMULA_STARTS) else part
                    for part in text.split(";"))


def _text_in(cell: str) -> str:
    return ";".join(part[1:] if part.startswith("'") else part for part in cell.split(";"))


def _cell(name: str, value: Any) -> str:
    if value is None:
        return ""
    if name in _BOOLS:
        return "1" if value else "0"
    if name == "finished_at":
        return datetime.fromtimestamp(float(value), UTC).isoformat(timespec="microseconds")
    if isinstance(value, str):
        return _text_out(value)
    return str(value)


def write_csv(rows: Iterable[ExportRow]) -> str:
    """The rows as CSV text with a header line."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_cell(name, getattr(row, name)) for name in COLUMNS])
    return buffer.getvalue()


def read_csv(text: str) -> list[ExportRow]:
    """Rows written by `write_csv`; `InvalidInput` naming the line of anything else."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None or tuple(header) != COLUMNS:
        raise InvalidInput("That isn't a Jongg league export: the first line should be "
                           f"{','.join(COLUMNS)}.")
    rows: list[ExportRow] = []
    for line, cells in enumerate(reader, start=2):
        if not cells:
            continue
        if len(cells) != len(COLUMNS):
            raise InvalidInput(f"Line {line} has {len(cells)} values; expected {len(COLUMNS)}.")
        try:
            values = {name: _parse(name, cell) for name, cell in zip(COLUMNS, cells, strict=True)}
        except ValueError as error:
            raise InvalidInput(f"Line {line} has a bad value: {error}.") from None
        rows.append(ExportRow(**values))
    return rows


def _parse(name: str, cell: str) -> Any:
    if name in _BOOLS:
        if cell not in ("0", "1"):
            raise ValueError(f"{name} must be 0 or 1, not {cell!r}")
        return cell == "1"
    if name in _INTS:
        return int(cell)
    if name in _OPT_INTS:
        return int(cell) if cell else None
    if name == "finished_at":
        moment = datetime.fromisoformat(cell)
        if moment.tzinfo is None:
            raise ValueError("finished_at needs a time zone")
        return moment.timestamp()
    text = _text_in(cell)
    if name in _OPT_TEXT:
        return text or None
    return text
