"""Reading files a person names on the command line, within limits.

Every file Jongg reads from a path someone typed goes through here, so each has a size limit
and the same clear errors: a folder or a missing file is named as such, and a file too large,
or one without a size or an end (`/dev/zero`, a pipe), is refused without being read whole;
memory never grows with what the file holds.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from bot.engine.errors import InvalidInput

#: Makes the error for a file over its limit (card files have their own, with the limit in
#: the card's terms).
TooLarge = Callable[[], Exception]


def _opened(path: Path, what: str) -> BinaryIO:
    """`path` opened for reading; a folder, a missing file or one that can't be opened is
    refused with what is wrong (`InvalidInput`)."""
    if path.is_dir():
        raise InvalidInput(f"`{path}` is a folder; give {what}.")
    try:
        return path.open("rb")
    except OSError as error:
        raise InvalidInput(f"Can't read `{path}`: {error.strerror or error}.") from None


def _size_refused(file: BinaryIO, limit: int, too_large: TooLarge) -> None:
    """Refuse a file whose size is known and over `limit`, before reading any of it."""
    if os.fstat(file.fileno()).st_size > limit:
        raise too_large()


def limited_bytes(path: Path, limit: int, too_large: TooLarge, what: str) -> bytes:
    """The bytes of the file at `path` (`what` it should be, for the error about a folder),
    at most `limit`: a file over it raises `too_large()`, by its size before any of it is
    read, or once reading passes the limit."""
    with _opened(path, what) as file:
        _size_refused(file, limit, too_large)
        data = file.read(limit + 1)
    if len(data) > limit:
        raise too_large()
    return data


def limited_lines(path: Path, *, limit: int, line_limit: int, what: str) -> Iterator[str]:
    """The lines of a UTF-8 text file, read one at a time: a file over `limit` bytes, a line
    over `line_limit` or text that is not UTF-8 raises `InvalidInput` naming the file, so a
    huge file is streamed and a file without line ends is not read into memory."""
    shown = str(path)  # whole, as `jongg` names any path it can't use

    def too_large() -> InvalidInput:
        return InvalidInput(f"`{shown}` is too large for {what} (at most {limit:,} bytes).")

    with _opened(path, what) as file:
        _size_refused(file, limit, too_large)
        read = 0
        for number, raw in enumerate(iter(lambda: file.readline(line_limit + 1), b""), 1):
            read += len(raw)
            if read > limit:
                raise too_large()
            if len(raw) > line_limit:
                raise InvalidInput(f"Line {number} of `{shown}` is too long for {what} (at "
                                   f"most {line_limit:,} bytes a line).")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InvalidInput(f"Line {number} of `{shown}` is not text (UTF-8); give "
                                   f"{what}.") from None
