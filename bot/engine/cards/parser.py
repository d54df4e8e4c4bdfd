"""Reading card files: text in, a `Card` out, or every problem with its line.

A card file is untrusted input (servers upload their own), so this module only reads text:
no code runs, sizes are capped, and anything unexpected becomes a `CardProblem` that says
what to change. The language is described in docs/card-language.md; in short:

    card: Jongg Original
    year: 2026

    [Year]
    y1  FF Ya 222b 222c 22c = 25 X -- note for players

A hand line is `ID GROUPS = VALUE X|C [OPTIONS] [-- NOTE]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.engine.cards.model import (
    FIXED_SUITS,
    GROUP_SYMBOLS,
    SUIT_VARIABLES,
    SUITED_SYMBOLS,
    Card,
    Group,
    GroupForm,
    Hand,
    Shift,
)
from bot.engine.errors import CardError, CardProblem

MAX_FILE_BYTES = 256 * 1024
MAX_LINE_CHARS = 400
MAX_HANDS = 250
MAX_GROUPS_PER_PATTERN = 14
MAX_PATTERNS_PER_HAND = 8
MAX_VALUE = 1000

HAND_LINE_FORM = "ID GROUPS = VALUE X|C [options] [-- note], e.g. `r1 11a 222a 3333a = 25 X`"
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
_HEADER = re.compile(r"^(card|name|year|notes)\s*:\s*(.*)$", re.IGNORECASE)
_SECTION = re.compile(r"^\[(.+)\]$")
_NOTE = re.compile(r"\s--(?:\s|$)")
_GROUP = re.compile(r"^(?P<fixed>=)?(?P<body>[^a-z@!^=]+)(?P<suit>[a-z]|@.)?(?P<flags>[!^]*)$")
#: Characters no line may hold: control characters other than tab (escape sequences, NUL,
#: the bell), which a terminal or a chat acts on instead of showing and PostgreSQL's text
#: can't hold (NUL); line and paragraph separators, which editors do not show as new lines;
#: and the bidirectional overrides and isolates, which reorder the text around them.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: Where lines end, as editors count them (`str.splitlines` also ends a line at a form
#: feed, U+2028 and others, which shifted every line number after one).
_LINE_END = re.compile(r"\r\n|\r|\n")
_OPTIONS = {
    "shift": {"any", "even"},
    "jokers": {"no"},
    "flowers": {"wild"},
}


@dataclass
class _Reader:
    """Collects problems while parsing so one pass reports them all."""

    problems: list[CardProblem] = field(default_factory=list)

    def problem(self, line: int, message: str) -> None:
        self.problems.append(CardProblem(line, message))


def _parse_form(token: str, year: int | None, flags: tuple[bool, bool],
                line: int, reader: _Reader) -> GroupForm | None:
    """One group form such as `222a`, `=11b!`, `DDDD@C`, `NEWS`, `Ya`."""
    match = _GROUP.match(token)
    if not match:
        bad = next((ch for ch in token if ch.islower() and ch not in SUIT_VARIABLES), None)
        hint = (f"`{bad}` is not a suit variable: use a, b or c (or @B, @C, @D for a fixed suit)"
                if bad else "write the tiles first, then the suit letter, then any ! or ^ flags")
        reader.problem(line, f"group `{token}`: {hint}.")
        return None
    body = match["body"]
    suit_text = match["suit"]
    fixed_numbers = bool(match["fixed"])
    if "Y" in body:
        if year is None:
            reader.problem(line, f"group `{token}` uses Y (the year) but the card has no "
                                 "`year:` line; add one near the top, e.g. `year: 2026`.")
            return None
        body = body.replace("Y", str(year))
        fixed_numbers = True
    unknown = sorted(set(body) - GROUP_SYMBOLS)
    if unknown:
        reader.problem(line, f"group `{token}`: `{''.join(unknown)}` is not a tile symbol. "
                             "Use 1-9, 0 (Soap), D (the suit's dragon), R, G, N, E, W, S, F, Y.")
        return None
    suit: str | None = None
    if suit_text is not None:
        suit = suit_text[1:] if suit_text.startswith("@") else suit_text
        if suit_text.startswith("@") and suit not in FIXED_SUITS:
            reader.problem(line, f"group `{token}`: `{suit_text}` is not a suit; "
                                 "a fixed suit is @B, @C or @D.")
            return None
        if not suit_text.startswith("@") and suit not in SUIT_VARIABLES:
            reader.problem(line, f"group `{token}`: `{suit}` is not a suit variable; "
                                 "use a, b or c (or @B, @C, @D for a fixed suit).")
            return None
    needs_suit = bool(set(body) & SUITED_SYMBOLS)
    if needs_suit and suit is None:
        reader.problem(line, f"group `{token}` has numbers or D but no suit; add one, "
                             f"e.g. `{token}a`.")
        return None
    if not needs_suit and suit is not None:
        reader.problem(line, f"group `{token}` has a suit but no numbers or D to apply it to; "
                             f"remove `{suit_text}`.")
        return None
    flag_text = match["flags"]
    no_jokers = "!" in flag_text or flags[0]
    flowers_wild = "^" in flag_text or flags[1]
    identical = len(set(body)) == 1
    if "^" in flag_text and not (identical and len(body) >= 3):
        reader.problem(line, f"group `{token}`: ^ (flowers act as jokers) only fits a group of "
                             "three or more identical tiles.")
        return None
    if "^" in flag_text and "!" in flag_text:
        reader.problem(line, f"group `{token}`: ! (no jokers) and ^ (flowers act as jokers) "
                             "contradict each other; keep one.")
        return None
    if identical and len(body) > 6:
        reader.problem(line, f"group `{token}` has {len(body)} identical tiles; the largest "
                             "group is a sextet of 6.")
        return None
    if len(body) > 14:
        reader.problem(line, f"group `{token}` is longer than a whole hand of 14 tiles.")
        return None
    return GroupForm(body=body, suit=suit, fixed_numbers=fixed_numbers, no_jokers=no_jokers,
                     flowers_wild=(flowers_wild and not no_jokers and identical
                                   and len(body) >= 3 and body[0] != "F"))


def _parse_pattern(text: str, year: int | None, flags: tuple[bool, bool], line: int,
                   reader: _Reader) -> tuple[Group, ...] | None:
    groups: list[Group] = []
    ok = True
    tokens = text.split()
    if len(tokens) > MAX_GROUPS_PER_PATTERN:
        reader.problem(line, f"a pattern has {len(tokens)} groups; a hand of 14 tiles cannot "
                             f"have more than {MAX_GROUPS_PER_PATTERN}.")
        return None
    for token in tokens:
        forms = []
        for part in token.split("|"):
            form = _parse_form(part, year, flags, line, reader) if part else None
            if part == "":
                reader.problem(line, f"group `{token}` has an empty alternative; "
                                     "write `111a|999a`, with no spaces.")
            if form is None:
                ok = False
            else:
                forms.append(form)
        groups.append(Group(tuple(forms)))
    if not ok:
        return None
    _check_suit_order(groups, line, reader)
    return tuple(groups)


def _check_suit_order(groups: list[Group], line: int, reader: _Reader) -> None:
    """Suit variables are used in order: `b` only with `a`, `c` only with `a` and `b`."""
    used = {form.suit for group in groups for form in group.forms if form.suit}
    for index, letter in enumerate(SUIT_VARIABLES):
        if letter in used and any(v not in used for v in SUIT_VARIABLES[:index]):
            missing = ", ".join(v for v in SUIT_VARIABLES[:index] if v not in used)
            reader.problem(line, f"suit `{letter}` is used without `{missing}`; name suits in "
                                 "order (a first, then b, then c).")
            return


def _parse_tail(tail: str, line: int, reader: _Reader) -> tuple[int, bool, dict[str, str]] | None:
    """`25 X shift=any` -> value, concealed, options."""
    words = tail.split()
    if len(words) < 2:
        reader.problem(line, "after `=` write the value and X (exposed) or C (concealed), "
                             "e.g. `= 25 X`.")
        return None
    value_text, kind_text, *option_words = words
    ok = True
    if not re.fullmatch(r"[0-9]{1,4}", value_text) or not 0 < int(value_text) <= MAX_VALUE:
        reader.problem(line, f"value `{value_text}` must be a whole number from 1 to {MAX_VALUE}.")
        ok = False
    if kind_text.upper() not in ("X", "C"):
        reader.problem(line, f"`{kind_text}` must be X (exposures allowed) or C (concealed).")
        ok = False
    options: dict[str, str] = {}
    for word in option_words:
        key, _, val = word.partition("=")
        if key not in _OPTIONS or val not in _OPTIONS[key]:
            known = ", ".join(f"{k}={'|'.join(sorted(v))}" for k, v in _OPTIONS.items())
            reader.problem(line, f"unknown option `{word}`; the options are {known}.")
            ok = False
        elif key in options:
            reader.problem(line, f"option `{key}` is given twice.")
            ok = False
        else:
            options[key] = val
    if not ok:
        return None
    return int(value_text), kind_text.upper() == "C", options


def _parse_hand(text: str, section: str, year: int | None, line: int,
                reader: _Reader) -> Hand | None:
    body, note = [*_NOTE.split(text, maxsplit=1), ""][:2]
    parts = re.split(r"\s=\s", body)
    if len(parts) != 2:
        reader.problem(line, f"I can't read this hand line; write it as {HAND_LINE_FORM}.")
        return None
    head, tail = parts
    head_words = head.split(None, 1)
    if len(head_words) < 2:
        reader.problem(line, f"the hand has an id but no groups; write it as {HAND_LINE_FORM}.")
        return None
    hand_id, pattern_text = head_words
    if not _ID.match(hand_id):
        reader.problem(line, f"hand id `{hand_id}` must be 1-32 letters, digits, `-`, `_` or "
                             "`.`, starting with a letter or digit.")
        return None
    parsed_tail = _parse_tail(tail, line, reader)
    if parsed_tail is None:
        return None
    value, concealed, options = parsed_tail
    flags = (options.get("jokers") == "no", options.get("flowers") == "wild")
    alternatives = [p.strip() for p in re.split(r"\s+or\s+", pattern_text)]
    if len(alternatives) > MAX_PATTERNS_PER_HAND:
        reader.problem(line, f"a hand may have at most {MAX_PATTERNS_PER_HAND} `or` "
                             "alternatives.")
        return None
    patterns = [_parse_pattern(alt, year, flags, line, reader) for alt in alternatives]
    if any(p is None for p in patterns):
        return None
    shift = Shift(options.get("shift", "none"))
    return Hand(
        id=hand_id,
        section=section,
        text=pattern_text.strip(),
        patterns=tuple(p for p in patterns if p is not None),
        value=value,
        concealed=concealed,
        shift=shift,
        note=note.strip(),
        line=line,
    )


def file_too_large() -> CardError:
    """The error for a card file over `MAX_FILE_BYTES`, also raised by a reader that sees the
    size before reading the whole file."""
    return CardError("The card file is too large.",
                     (CardProblem(0, f"a card file may be at most "
                                     f"{MAX_FILE_BYTES // 1024} KiB."),))


def _decode(data: bytes | str) -> str:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_FILE_BYTES:
        raise file_too_large()
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CardError("The card file is not text.",
                        (CardProblem(0, "save the card as UTF-8 text "
                                        f"(byte {exc.start} is not UTF-8)."),)) from None


def parse_card_syntax(data: bytes | str) -> tuple[Card, list[CardProblem]]:
    """Parse a card file's text without checking what the hands need from a tile set.

    Returns the card made of the hands that parsed (so later checks still see them) and the
    problems found, in line order; the card is only usable when there are no problems.
    `bot.engine.cards.check.load_card` adds the checks that need the compiler.
    """
    reader = _Reader()
    text = _decode(data)
    name = ""
    year: int | None = None
    notes: list[str] = []
    section = ""
    hands: list[Hand] = []
    seen_ids: dict[str, int] = {}
    for number, raw in enumerate(_LINE_END.split(text), start=1):
        hidden = _HIDDEN.search(raw)
        if hidden:
            reader.problem(number, f"the line holds an invisible control character "
                                   f"(U+{ord(hidden[0]):04X}); delete it.")
            continue
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_LINE_CHARS:
            reader.problem(number, f"line is longer than {MAX_LINE_CHARS} characters.")
            continue
        header = _HEADER.match(line)
        if header and not hands and not section:
            key, value = header[1].lower(), header[2].strip()
            if key in ("card", "name"):
                name = value
            elif key == "year":
                if not re.fullmatch(r"[0-9]{4}", value):
                    reader.problem(number, f"year `{value}` must be four digits, e.g. 2026.")
                else:
                    year = int(value)
            else:
                notes.append(value)
            continue
        section_match = _SECTION.match(line)
        if section_match:
            section = section_match[1].strip()
            continue
        if not section:
            reader.problem(number, "put hands under a section header such as `[Year]`; "
                                   "header lines are `card:`, `year:` and `notes:`.")
            continue
        hand = _parse_hand(line, section, year, number, reader)
        if hand is None:
            continue
        if hand.id in seen_ids:
            reader.problem(number, f"hand id `{hand.id}` is already used on line "
                                   f"{seen_ids[hand.id]}; every hand needs its own id.")
            continue
        seen_ids[hand.id] = number
        hands.append(hand)
        if len(hands) > MAX_HANDS:
            reader.problem(number, f"a card may have at most {MAX_HANDS} hands.")
            break
    if not name:
        reader.problem(0, "the card has no name; add a line `card: Your Card Name` at the top.")
    if not hands and not reader.problems:
        reader.problem(0, f"the card has no hands; add lines like {HAND_LINE_FORM}.")
    card = Card(name=name, year=year, notes=" ".join(notes), hands=tuple(hands))
    return card, reader.problems
