"""Finding the project's data files and loading the cards Jongg ships.

Data lives in `data/` of a checkout (also used by an editable install) or, for a wheel, in
`<prefix>/share/jongg/` where pyproject's data-files puts it. Everything else asks this module,
so no other code guesses paths.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from bot.engine.cards import Card, load_card
from bot.engine.cards.parser import MAX_FILE_BYTES, file_too_large
from bot.engine.errors import InvalidInput
from bot.files import limited_bytes

CARD_SUFFIX = ".jongg"


def data_dir() -> Path:
    """The folder holding `cards/` (and later fonts and rules texts)."""
    checkout = Path(__file__).resolve().parent.parent / "data"
    if checkout.is_dir():
        return checkout
    installed = Path(sys.prefix) / "share" / "jongg"
    if installed.is_dir():
        return installed
    raise FileNotFoundError(f"Jongg's data folder is missing (looked in {checkout} and "
                            f"{installed}); reinstall the package.")


def shipped_card_paths() -> list[Path]:
    """The card files that come with Jongg, sorted by file name."""
    return sorted((data_dir() / "cards").glob(f"*{CARD_SUFFIX}"))


def card_file_bytes(path: Path) -> bytes:
    """A card file's bytes, within the card size limit (`bot.files.limited_bytes`): a file
    over it raises `CardError`; a folder or a file that can't be read, `InvalidInput`."""
    return limited_bytes(path, MAX_FILE_BYTES, file_too_large, "a card file")


@cache
def shipped_cards() -> dict[str, Card]:
    """Every shipped card by its short name (the file name without `.jongg`)."""
    return {path.name.removesuffix(CARD_SUFFIX): load_card(card_file_bytes(path))
            for path in shipped_card_paths()}


DEFAULT_CARD = "jongg-original"


def shipped_card(name: str = DEFAULT_CARD) -> Card:
    """A shipped card by short name or by its full name, case-insensitive."""
    cards = shipped_cards()
    wanted = name.strip().lower()
    for short, card in cards.items():
        if wanted in (short, card.name.lower()):
            return card
    known = ", ".join(sorted(cards))
    raise InvalidInput(f"There is no card called `{name}`. The cards are: {known}.")


def card_from_name_or_path(name_or_path: str) -> Card:
    """A shipped card by name, or a card file by path (checked like any upload)."""
    path = Path(name_or_path)
    if path.suffix == CARD_SUFFIX or path.is_file():
        return load_card(card_file_bytes(path))
    if path.is_dir() and name_or_path.strip().lower() not in shipped_cards():
        card_file_bytes(path)  # refuses it, saying it is a folder
    return shipped_card(name_or_path)
