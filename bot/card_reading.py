"""Reading a line of a card in plain words (`/rules hand:`), for people learning to read one,
and a whole card as a printed one shows it (`printed_card`, the terminal game's `card`).

The words are built from the hand as the card language parses it (`bot.engine.cards`), never
written per hand, so any card's hand can be read, a server's own card's too: its suits (how
many, which letters, fixed ones), each group (a pair, a pung, a kong … of which tiles, with
alternatives), whether the numbers move ("any like numbers"), where jokers may go, and
whether it is concealed, then the card's own small print.
"""

from __future__ import annotations

import re

from bot.engine.cards import Card, Hand, Shift
from bot.engine.cards.model import FIXED_SUITS, Group, GroupForm
from bot.engine.cards.parser import parse_card_syntax
from bot.engine.errors import InvalidInput, echo

#: Names of groups of identical tiles, by size.
_SIZES = {1: "a single", 2: "a pair", 3: "a pung (three alike)", 4: "a kong (four alike)",
          5: "a quint (five alike)", 6: "a sextet (six alike)"}
_SUITS = {"B": "Bams", "C": "Craks", "D": "Dots"}
_HONORS = {"0": "Soap", "R": "Red Dragon", "G": "Green Dragon", "N": "North", "E": "East",
           "W": "West", "S": "South", "F": "flower"}
#: The section a typed hand line is read in, and what marks its value and X or C.
_TYPED = "Typed"
_TAIL = re.compile(r"\s=\s*\d")


def _suit(form: GroupForm) -> str:
    if form.suit in FIXED_SUITS:
        return _SUITS[form.suit]
    return f"suit {form.suit}"


def _tile(symbol: str, form: GroupForm, *, many: bool = False) -> str:
    """One symbol of a group as a tile's name (`many`: as several of that tile)."""
    ending = "s" if many else ""
    if symbol == "D":
        return f"{'the ' if not many else ''}dragon{ending} of {_suit(form)}"
    if symbol in _HONORS:
        return f"{_HONORS[symbol]}{ending}"
    return f"{symbol}{ending} of {_suit(form)}"


def _form(form: GroupForm) -> str:
    """One way to fill a group, in words."""
    if form.identical:
        if form.size == 1:
            return f"a single {_tile(form.body[0], form)}"
        what = _SIZES.get(form.size, f"{form.size} alike")
        return f"{what} of {_tile(form.body[0], form, many=True)}"
    if form.fixed_numbers and form.body.isdigit() and len(form.body) == 4:
        tiles = ", ".join("Soap" if d == "0" else d for d in form.body)
        return f"the year {form.body} in {_suit(form)} ({tiles}, one each)"
    return "one each of " + ", ".join(_tile(symbol, form) for symbol in form.body)


def _group(group: Group) -> str:
    words = " or ".join(_form(form) for form in group.forms)
    return f"either {words}" if len(group.forms) > 1 else words


def _suit_line(pattern: tuple[Group, ...]) -> str:
    forms = [form for group in pattern for form in group.forms]
    letters = sorted({f.suit for f in forms if f.suit is not None and f.suit not in FIXED_SUITS})
    fixed = sorted({_SUITS[f.suit] for f in forms if f.suit in FIXED_SUITS})
    parts = []
    if letters:
        parts.append({1: "One suit (a), whichever you choose",
                      2: "Two different suits (a, b): you choose which is which, but they "
                         "differ",
                      3: "All three suits (a, b, c), one per letter, in any order"}[
                          len(letters)])
    if fixed:
        parts.append(f"{' and '.join(fixed)} as printed")
    return ("; ".join(parts) + ".") if parts else "No suited tiles: honors and flowers only."


def _jokers(hand: Hand) -> str:
    if hand.singles_and_pairs:
        return ("No jokers at all: no group has three or more alike (jokers only ever go in "
                "such groups).")
    forms = {form: None for pattern in hand.patterns for group in pattern
             for form in group.forms if form.identical and form.size >= 3}
    barred = [_form(form) for form in forms if form.no_jokers]
    flowers = [_form(form) for form in forms if form.flowers_wild]
    text = ("Jokers may fill its groups of three or more alike, never a pair, a single or a "
            "group of different tiles (like a year)")
    if barred:
        text += f"; the card allows none in {'; '.join(barred)}"
    if len(barred) == len(forms):
        text = "No jokers: the card allows none in any of its groups"
    text += "."
    if flowers:
        text += f" Flowers may act as jokers in {'; '.join(flowers)}."
    return text


def explain(hand: Hand, *, on_card: bool = True) -> str:
    """The hand in plain words, a few short lines; `on_card` False for a line someone typed
    without its value and X or C (then neither is said)."""
    if not on_card:
        head = f"`{hand.text}`"
    else:
        kind = ("concealed (C): build it all from the wall; only the winning tile may come "
                "from a discard" if hand.concealed
                else "exposed (X): you may call discards to expose its groups")
        named = f"**{hand.id}** `{hand.text}`: {hand.section}, "
        head = (f"`{hand.text}`: " if hand.section == _TYPED else named) + (
            f"worth {hand.value}, {kind}.")
    lines = [head]
    patterns = hand.patterns
    for number, pattern in enumerate(patterns, start=1):
        lead = f"Way {number}: " if len(patterns) > 1 else ""
        lines.append(f"{lead}{_suit_line(pattern)}")
        lines.extend(f"• {_group(group)}" for group in pattern)
    lines.append({
        Shift.NONE: "The numbers are exactly as written.",
        Shift.ANY: "Any like numbers: every number may move up or down together, by the "
                   "same amount, as long as all stay 1-9 (the written ones are one example); "
                   "a year does not move.",
        Shift.EVEN: "The numbers may move together by an even amount (odd stays odd, even "
                    "stays even), as long as all stay 1-9; a year does not move.",
    }[hand.shift])
    symbols = {symbol for pattern in patterns for group in pattern for form in group.forms
               for symbol in form.body}
    if "D" in symbols:
        lines.append("A suit's dragon: Red goes with Craks, Green with Bams, Soap with Dots.")
    lines.append(_jokers(hand))
    if hand.note:
        lines.append(f"The card says: {hand.note}")
    return "\n".join(lines)


def _printed_group(group: Group) -> str:
    """A group as a printed card shows it: its tiles, numbered ones followed by their suit's
    letter (the colour a printed card uses), alternatives joined by `or`, and none of the card
    language's marks (`!`, `=`, …), whose meaning the hand's note says in words."""
    return " or ".join(form.body + (form.suit or "") for form in group.forms)


def printed_card(card: Card) -> tuple[str, ...]:
    """The card as lines a player reads, as a printed card lays it out: a key to its letters,
    then each section's hands with their value and X (exposed) or C (concealed), each with its
    note on a line of its own below (so a narrow terminal wraps the note, not the hand)."""
    lines = [card.name + (f" ({card.year})" if card.year else "")]
    if card.notes:
        lines.append(card.notes)
    lines.append("a, b, c: suits (different letters, different suits); B, C, D after numbers: "
                 "Bams, Craks, Dots; D before a suit: its dragon; 0: Soap; F: flower; X: "
                 "exposed, C: concealed.")
    shown = {hand.id: "  or  ".join(" ".join(_printed_group(group) for group in pattern)
                                    for pattern in hand.patterns) for hand in card.hands}
    width = max(len(text) for text in shown.values())
    for section in card.sections:
        lines.extend(("", section))
        for hand in card.hands:
            if hand.section == section:
                lines.append(f"  {hand.id:<4} {shown[hand.id]:<{width}}  {hand.value:>3} "
                             f"{'C' if hand.concealed else 'X'}")
                if hand.note:
                    lines.append(f"       {hand.note}")
    return tuple(lines)


def read_line(card: Card, text: str) -> str:
    """`text` in plain words: one of the card's hand ids (`t1`), or a hand line typed in the
    card language (`2222a 555a 8888a FFF = 30 X shift=any`, or just its groups), read with
    the card's year. `InvalidInput` saying what to type otherwise."""
    wanted = text.strip()
    for hand in card.hands:
        if hand.id.lower() == wanted.lower():
            return explain(hand)
    if " " not in wanted:
        ids = ", ".join(hand.id for hand in card.hands[:12])
        raise InvalidInput(f"There is no hand `{echo(wanted)}` on {card.name}. Give a hand's "
                           f"id ({ids}, …) or type a hand line like `FF 2222a 555a 8888a`.")
    on_card = _TAIL.search(wanted) is not None
    year = f"year: {card.year}\n" if card.year else ""
    typed, problems = parse_card_syntax(
        f"card: {card.name}\n{year}[{_TYPED}]\nyours {wanted if on_card else wanted + ' = 1 X'}")
    if problems or not typed.hands:
        said = "; ".join(problem.message for problem in problems[:2])
        raise InvalidInput(f"I can't read that hand: {said} (`/rules reading-the-card` "
                           "explains the notation).")
    return explain(typed.hands[0], on_card=on_card)
