"""The card language: every problem the checker reports, and every feature compiled to tiles."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cards import Card, Shift, load_card
from bot.engine.cards.compile import TileGroup, Variation, combinations, hand_variations
from bot.engine.cards.parser import MAX_FILE_BYTES, MAX_HANDS, MAX_LINE_CHARS
from bot.engine.errors import CardError, CardProblem, InvalidInput
from bot.engine.tiles import format_tiles, parse_tiles

HEADER = "card: Test Card\nyear: 2026\n[Section]\n"
#: Hand lines written after HEADER start on this line.
FIRST = 4


def card_of(*hand_lines: str, header: str = HEADER) -> Card:
    return load_card(header + "".join(line + "\n" for line in hand_lines))


def problems_of(text: str | bytes) -> tuple[CardProblem, ...]:
    with pytest.raises(CardError) as info:
        load_card(text)
    assert info.value.problems, "a CardError always lists its problems"
    assert info.value.code == "invalid_card"
    assert isinstance(info.value, InvalidInput)
    return info.value.problems


def only_problem(text: str | bytes) -> CardProblem:
    problems = problems_of(text)
    assert len(problems) == 1, problems
    return problems[0]


def variations_of(hand_line: str, header: str = HEADER) -> list[Variation]:
    card = card_of(hand_line, header=header)
    return hand_variations(card.hands[0], 0)


def shapes(hand_line: str, header: str = HEADER) -> set[tuple[str, ...]]:
    """Each variation as its groups in canonical tile text, in the order written."""
    return {tuple(str(g) for g in v.groups) for v in variations_of(hand_line, header)}


def group(tiles: str, variation: Variation) -> TileGroup:
    """The group of a variation whose tiles are exactly `tiles`."""
    wanted = tuple(sorted(parse_tiles(tiles)))
    found = [g for g in variation.groups if tuple(sorted(g.tiles)) == wanted]
    assert found, f"no group {tiles} in {[str(g) for g in variation.groups]}"
    return found[0]


# -- problems the checker reports --------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # unknown symbols
        ("h1 FF 1111a 2222a 333Xa = 25 X", ["`X` is not a tile symbol", "Use 1-9, 0 (Soap)"]),
        ("h1 FF 1111a 2222a 333a K = 25 X", ["group `K`", "`K` is not a tile symbol"]),
        ("h1 FF 1111a 2222a 3333q = 25 X", ["`q` is not a suit variable", "use a, b or c"]),
        # numbers without a suit, a suit without numbers
        ("h1 FF 1111 2222a 3333a = 25 X", ["`1111` has numbers or D but no suit",
                                            "e.g. `1111a`"]),
        ("h1 FF DDDD 2222a 3333a = 25 X", ["`DDDD` has numbers or D but no suit"]),
        ("h1 FFa 1111a 2222a 3333a = 25 X", ["`FFa` has a suit but no numbers",
                                              "remove `a`"]),
        ("h1 FF NNNN@B 2222a 3333a = 25 X", ["`NNNN@B` has a suit but no numbers",
                                              "remove `@B`"]),
        ("h1 FF 1111@Q 2222a 3333a = 25 X", ["`@Q` is not a suit", "@B, @C or @D"]),
        # suit letters out of order
        ("h1 FF 1111a 2222c 3333c = 25 X", ["suit `c` is used without `b`",
                                             "a first, then b, then c"]),
        ("h1 FF 1111b 2222b 3333b = 25 X", ["suit `b` is used without `a`"]),
        # group sizes
        ("h1 F 1111111a 222a 333a = 25 X", ["`1111111a` has 7 identical tiles",
                                             "sextet of 6"]),
        ("h1 FF 1111a 2222a 333a = 25 X", ["hand `h1` has 13 tiles", "exactly 14"]),
        ("h1 FF 1111a 2222a 3333a 5a = 25 X", ["hand `h1` has 15 tiles", "exactly 14"]),
        ("h1 FF 1111a 2222a 3333a or FF 111a 222a 333a = 25 X",
         ["hand `h1` has 11 tiles", "every way of making a hand"]),
        ("h1 FF 1111a 2222a 3333a|333a = 25 X", ["hand `h1` has 13 tiles"]),
        ("h1 " + " ".join(["1a"] * 15) + " = 25 X", ["15 groups", "more than 14"]),
        # values, X/C and options
        ("h1 FF 1111a 2222a 3333a = lots X", ["value `lots`", "from 1 to 1000"]),
        ("h1 FF 1111a 2222a 3333a = 0 X", ["value `0`", "from 1 to 1000"]),
        ("h1 FF 1111a 2222a 3333a = 1001 X", ["value `1001`", "from 1 to 1000"]),
        ("h1 FF 1111a 2222a 3333a = 25 Q", ["`Q` must be X (exposures allowed) or C"]),
        ("h1 FF 1111a 2222a 3333a = 25", ["after `=` write the value and X"]),
        ("h1 FF 1111a 2222a 3333a = 25 X shift=odd",
         ["unknown option `shift=odd`", "shift=any|even, jokers=no, flowers=wild"]),
        ("h1 FF 1111a 2222a 3333a = 25 X colour=red", ["unknown option `colour=red`"]),
        ("h1 FF 1111a 2222a 3333a = 25 X shift=any shift=even", ["`shift` is given twice"]),
        # shape of the line
        ("h1 FF 1111a 2222a 3333a", ["can't read this hand line", "ID GROUPS = VALUE"]),
        ("h1 = 25 X", ["has an id but no groups", "ID GROUPS = VALUE"]),
        ("?? FF 1111a 2222a 3333a = 25 X", ["hand id `??`", "letters, digits"]),
        ("h1 FF 1111a| 2222a 3333a = 25 X", ["empty alternative", "no spaces"]),
        ("h1 " + " or ".join(["FF 1111a 2222a 3333a"] * 9) + " = 25 X",
         ["at most 8 `or` alternatives"]),
        # small print that does not fit
        ("h1 FF 1111a 2222a 33a^ 3a 3a = 25 X", ["^ (flowers act as jokers) only fits"]),
        ("h1 FF 1111a 2222a 3333a^! = 25 X", ["contradict each other", "keep one"]),
        # what a real set can make
        ("h1 11a 11a 11a 2222a 3333a = 25 X",
         ["needs more natural 1B, 1C, 1D than a set holds", "allow jokers in that group"]),
        ("h1 11111a! 2222a 33333a = 25 X", ["needs more natural 1B, 1C, 1D"]),
        ("h1 FF 11111a 2222a 333a = 25 X jokers=no", ["needs more natural 1B"]),
        ("h1 111111a 111111a 11a = 25 X",
         ["no 14 tiles can satisfy hand `h1`", "at least 10 jokers", "a set has 8"]),
        ("h1 111111a 222222a 33333a 4444a = 25 X", ["hand `h1` has 21 tiles"]),
        ("h1 FF NNNN EEEE WWWW = 25 X shift=any",
         ["says shift=any but has no numbers that can move", "remove the option"]),
        ("h1 FF =1111a =2222a =3333a = 25 X shift=even", ["says shift=even"]),
        # Y with no year line is tested below (it needs a different header)
    ],
)
def test_each_problem_has_its_line_and_what_to_change(line: str, expected: list[str]) -> None:
    problem = only_problem(HEADER + "h0 FF 1111a 2222a 3333a = 25 X\n" + line + "\n")
    assert problem.line == FIRST + 1
    for words in expected:
        assert words in problem.message
    assert str(problem) == f"line {FIRST + 1}: {problem.message}"


def test_more_jokers_than_a_set_holds_depends_on_the_set() -> None:
    line = "h1 111111a 111111a 11a = 25 X"
    with pytest.raises(CardError):
        card_of(line)
    more_jokers = [4] * 37
    more_jokers[34], more_jokers[35] = 8, 10
    card = load_card(HEADER + line + "\n", counts=more_jokers)
    assert card.hands[0].id == "h1"


def test_duplicate_ids_point_at_both_lines() -> None:
    problem = only_problem(HEADER + "h1 FF 1111a 2222a 3333a = 25 X\n"
                                    "h2 FF 4444a 5555a 6666a = 25 X\n"
                                    "h1 FF 7777a 8888a 9999a = 30 X\n")
    assert problem.line == FIRST + 2
    assert "hand id `h1` is already used on line 4" in problem.message


def test_year_symbol_needs_a_year_line() -> None:
    problem = only_problem("card: T\n[S]\nh1 FF Ya 2222a 3333a = 25 X\n")
    assert problem.line == 3
    assert "uses Y (the year)" in problem.message
    assert "`year: 2026`" in problem.message


@pytest.mark.parametrize("year", ["20x6", "226", "twenty"])
def test_bad_year_line(year: str) -> None:
    problem = only_problem(f"card: T\nyear: {year}\n[S]\nh1 FF 1111a 2222a 3333a = 25 X\n")
    assert problem.line == 2
    assert f"year `{year}` must be four digits" in problem.message


def test_card_needs_a_name() -> None:
    problem = only_problem("year: 2026\n[S]\nh1 FF 1111a 2222a 3333a = 25 X\n")
    assert problem.line == 0
    assert "no name" in problem.message and "`card: Your Card Name`" in problem.message
    assert str(problem) == problem.message


@pytest.mark.parametrize("text", ["card: T\n", "card: T\n[S]\n", "card: T\n# nothing yet\n\n"])
def test_card_needs_hands(text: str) -> None:
    problem = only_problem(text)
    assert problem.line == 0
    assert "no hands" in problem.message and "ID GROUPS = VALUE" in problem.message


def test_hand_outside_a_section() -> None:
    problem = only_problem("card: T\nh1 FF 1111a 2222a 3333a = 25 X\n")
    assert problem.line == 2
    assert "section header such as `[Year]`" in problem.message


def test_every_syntax_problem_is_reported_in_line_order() -> None:
    text = textwrap.dedent("""\
        card: Many Problems
        [S]
        h1 FF 1111a 2222a 3333a = 25 X
        h3 FF 1111 2222a 3333a = 25 X
        h1 FF 4444a 5555a 6666a = 25 X
        h4 FF 1111a 2222a 3333a = 25 X frogs=yes
        """)
    problems = problems_of(text)
    assert [p.line for p in problems] == [4, 5, 6]
    assert "no suit" in problems[0].message
    assert "already used" in problems[1].message
    assert "unknown option `frogs=yes`" in problems[2].message


def test_every_check_problem_is_reported_in_line_order() -> None:
    text = textwrap.dedent("""\
        card: Many Problems
        [S]
        h1 FF 1111a 2222a 333a = 25 X
        h2 FF 1111a 2222a 3333a = 25 X
        h3 111111a 111111a 11a = 25 X
        """)
    problems = problems_of(text)
    assert [p.line for p in problems] == [3, 5]


def test_syntax_and_tile_count_problems_are_reported_together() -> None:
    """`jongg card check` promises every problem in one pass; a wrong tile count on one line
    must not wait until a typo on another line is fixed."""
    text = textwrap.dedent("""\
        card: Many Problems
        [S]
        h1 FF 1111a 2222a 333a = 25 X
        h2 FF 1111 2222a 3333a = 25 X
        """)
    problems = problems_of(text)
    assert [p.line for p in problems] == [3, 4], problems


def test_file_size_limit() -> None:
    body = HEADER + "h1 FF 1111a 2222a 3333a = 25 X\n"
    filler = "#" * 99 + "\n"
    at_limit = body + filler * ((MAX_FILE_BYTES - len(body)) // 100)
    at_limit += "#" * (MAX_FILE_BYTES - len(at_limit) - 1) + "\n"
    assert len(at_limit.encode()) == MAX_FILE_BYTES
    assert load_card(at_limit.encode()).hands[0].id == "h1"
    for too_big in (at_limit.encode() + b"#", at_limit + "#"):
        with pytest.raises(CardError) as info:
            load_card(too_big)
        assert [str(p) for p in info.value.problems] == ["a card file may be at most 256 KiB."]


def test_line_and_hand_limits() -> None:
    long_note = "h1 FF 1111a 2222a 3333a = 25 X -- " + "x" * MAX_LINE_CHARS
    problem = only_problem(HEADER + long_note + "\n")
    assert problem.line == FIRST
    assert f"longer than {MAX_LINE_CHARS} characters" in problem.message
    many = "".join(f"h{i} FF 1111a 2222a 3333a = 25 X\n" for i in range(MAX_HANDS + 1))
    problem = only_problem(HEADER + many)
    assert problem.line == FIRST + MAX_HANDS
    assert f"at most {MAX_HANDS} hands" in problem.message
    assert len(card_of(*many.splitlines()[:MAX_HANDS]).hands) == MAX_HANDS


def test_too_many_combinations() -> None:
    nine = "|".join(f"{rank}a" for rank in range(1, 10))
    line = f"h1 {nine} {nine.replace('a', 'b')} {nine.replace('a', 'c')} {nine} 1111a 1111b 11c"
    problem = only_problem(HEADER + line + " = 25 X\n")
    assert "more than 5000 combinations" in problem.message and "split it" in problem.message


#: Any four consecutive numbers in three suits, with alternatives: 6 suit assignments x the 6
#: shifts that keep 1-4 within 1-9 x 54 alternatives = 1,944 variations, every one real (the
#: 17 shifts counted whether or not they fit made it 5,508).
REAL_1944 = "h1 FF|NN 1a 222b 333c RR|GG|00 EE|WW|SS 4a|4b|4c = 25 X shift=any"
#: Two numbers (8 shifts fit) and 108 alternatives: 6 x 8 x 108 = 5,184 real combinations.
REAL_5184 = "h1 FF|NN|SS|WW 1a 222b 111c RR|GG|00 EE|WW|SS 2a|2b|2c = 25 X shift=any"


def test_only_real_combinations_count_against_the_hand_limit() -> None:
    """Shifts that push a number outside 1-9 make no variation, so they cost nothing; a hand
    with more real combinations than the limit is still refused."""
    hand = card_of(REAL_1944).hands[0]
    assert combinations(hand) == len(hand_variations(hand, 0)) == 1944
    problem = only_problem(HEADER + REAL_5184 + "\n")
    assert "more than 5000 combinations" in problem.message


def _load_in_child(text: str, seconds: float) -> str:
    """Load a card in a child process; 'timeout' if it takes longer than `seconds`."""
    code = (
        "import sys\n"
        "from bot.engine.cards import load_card\n"
        "from bot.engine.errors import CardError\n"
        "try:\n"
        "    load_card(sys.stdin.read())\n"
        "    print('card')\n"
        "except CardError as error:\n"
        "    print('error:', '; '.join(str(p) for p in error.problems))\n"
    )
    try:
        done = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True,
                              text=True, timeout=seconds, check=True)
    except subprocess.TimeoutExpired:
        return "timeout"
    return done.stdout.strip()


def test_many_alternatives_are_refused_quickly() -> None:
    """A 400-character line must not make the checker enumerate billions of combinations
    (cards are uploaded by servers, so this would stall the bot)."""
    nine = "|".join(f"{rank}a" for rank in range(1, 10))
    line = "h1 " + " ".join([nine] * 14) + " = 25 X shift=any"
    assert len(line) <= MAX_LINE_CHARS
    answer = _load_in_child(HEADER + line + "\n", seconds=6)
    assert answer.startswith("error:") and "more than 5000 combinations" in answer, answer


def test_repeated_alternatives_are_answered_quickly() -> None:
    same = "|".join(["1a"] * 9)
    line = "h1 " + " ".join([same] * 14) + " = 25 X"
    assert len(line) <= MAX_LINE_CHARS
    answer = _load_in_child(HEADER + line + "\n", seconds=6)
    assert answer != "timeout", "the checker must stop at its combination limit"


def test_non_utf8_bytes() -> None:
    problem = only_problem(b"card: T\n[S]\nh1 FF \xff 1111a = 25 X\n")
    assert problem.line == 0
    assert "save the card as UTF-8 text (byte 18 is not UTF-8)" in problem.message


def test_utf8_bom_and_crlf_are_fine() -> None:
    text = "\ufeffcard: T\r\n[S]\r\nh1 FF 1111a 2222a 3333a = 25 X -- a note\r\n"
    card = load_card(text.encode("utf-8"))
    assert card.name == "T" and card.hands[0].note == "a note"


@pytest.mark.parametrize("value", ["\u00b2", "\u2460", "\u00b3\u00b2"])
def test_unicode_digit_values_are_problems_not_crashes(value: str) -> None:
    """`str.isdigit` accepts superscripts and circled digits that `int` cannot read."""
    problem = only_problem(HEADER + f"h1 FF 1111a 2222a 3333a = {value} X\n")
    assert "must be a whole number" in problem.message


# -- random input never crashes ----------------------------------------------------------------


def _card_or_card_error(data: str | bytes) -> None:
    try:
        card = load_card(data)
    except CardError as error:
        assert error.problems
        assert all(isinstance(p, CardProblem) and p.message for p in error.problems)
        return
    assert isinstance(card, Card) and card.hands


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_give_a_card_or_a_card_error(data: bytes) -> None:
    _card_or_card_error(data)


_SYMBOLS = st.text("123456789DRGFNEWS0Y", min_size=1, max_size=7)
_SUIT = st.sampled_from(["", "a", "b", "c", "d", "@B", "@C", "@D", "@X"])
_FLAGS = st.sampled_from(["", "", "!", "^", "!^"])
_FORM = st.builds(lambda fixed, body, suit, flags: fixed + body + suit + flags,
                  st.sampled_from(["", "", "="]), _SYMBOLS, _SUIT, _FLAGS)
_GROUP = st.lists(_FORM, min_size=1, max_size=2).map("|".join)
_PATTERN = st.lists(_GROUP, min_size=1, max_size=8).map(" ".join)
_TAIL = st.builds(
    lambda value, kind, options: f"{value} {kind} {options}".strip(),
    st.sampled_from(["25", "0", "50", "x", "1000", "-3"]),
    st.sampled_from(["X", "C", "x", "Q"]),
    st.sampled_from(["", "shift=any", "shift=even", "jokers=no", "flowers=wild", "bad=1"]),
)
_HAND = st.builds(lambda hand_id, patterns, tail: f"{hand_id} {' or '.join(patterns)} = {tail}",
                  st.sampled_from(["h1", "h2", "h1", "??"]),
                  st.lists(_PATTERN, min_size=1, max_size=2), _TAIL)
_LINE = st.one_of(_HAND, st.sampled_from(["[S]", "[T]", "card: X", "year: 2026", "# c", "",
                                          "notes: n", "year: 99"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINE, max_size=6), st.booleans())
def test_card_like_text_gives_a_card_or_a_card_error(lines: list[str], named: bool) -> None:
    text = ("card: Fuzz\nyear: 2026\n[S]\n" if named else "") + "\n".join(lines)
    _card_or_card_error(text)


# -- every feature parses and compiles to the expected tiles ---------------------------------


def test_card_records() -> None:
    card = load_card(textwrap.dedent("""\
        # a comment
        name: Records
        year: 2026
        notes: First note.
        notes: Second note.

        [Kongs]
        k1  FF 1111a 2222a 3333a   = 25 X  -- three kongs
        k2  FF 1111a 2222b 3333c   = 30 C
        [Pairs]
        p1  11a 22a 33a 44a 55a 66a 77a = 50 C shift=any
        """))
    assert (card.name, card.year, card.notes) == ("Records", 2026, "First note. Second note.")
    assert card.sections == ("Kongs", "Pairs")
    assert [h.id for h in card.hands] == ["k1", "k2", "p1"]
    assert [h.line for h in card.hands] == [8, 9, 11]
    k1, k2, p1 = card.hands
    assert (k1.section, k1.value, k1.concealed, k1.note) == ("Kongs", 25, False, "three kongs")
    assert k1.text == "FF 1111a 2222a 3333a"
    assert (k2.value, k2.concealed, k2.note, k2.shift) == (30, True, "", Shift.NONE)
    assert (p1.section, p1.shift) == ("Pairs", Shift.ANY)
    assert card.hand("k2") is k2
    with pytest.raises(KeyError):
        card.hand("nope")
    assert card.lowest_value == 25
    assert not k1.singles_and_pairs and p1.singles_and_pairs


def test_suit_variables_are_distinct_suits() -> None:
    found = shapes("h1 FF 1111a 2222b 3333c = 25 X")
    assert len(found) == 6
    for _, ones, twos, threes in found:
        assert len({ones[-1], twos[-1], threes[-1]}) == 3
    assert ("FF", "1111B", "2222C", "3333D") in found
    assert ("FF", "1111D", "2222C", "3333B") in found


def test_same_letter_is_the_same_suit() -> None:
    assert shapes("h1 FF 1111a 2222a 3333a = 25 X") == {
        ("FF", "1111B", "2222B", "3333B"), ("FF", "1111C", "2222C", "3333C"),
        ("FF", "1111D", "2222D", "3333D")}


def test_variations_that_repeat_are_listed_once() -> None:
    # a, b and c in identical groups: every assignment gives the same tiles.
    assert shapes("h1 FF 1111a 1111b 1111c = 25 X") == {("FF", "1111B", "1111C", "1111D")}


def test_d_is_the_dragon_of_the_groups_suit() -> None:
    found = shapes("h1 111a DDDa 999a DDDb FF = 25 X")
    by_suit = {ones[-1]: dragons[0] for ones, dragons, *_ in
               ((s[0], s[1]) for s in found)}
    assert by_suit == {"B": "G", "C": "R", "D": "0"}
    assert ("111B", "GGG", "999B", "RRR", "FF") in found
    assert ("111D", "000", "999D", "GGG", "FF") in found
    assert len(found) == 6


def test_fixed_dragons_soap_winds_and_flowers() -> None:
    assert shapes("h1 RRR GGG 000 NEWS F = 25 X") == {("RRR", "GGG", "000", "N E W S", "F")}


def test_shift_any_moves_all_numbers_together() -> None:
    assert len(shapes("h1 FF 1111a 1111b 1111c = 25 X shift=any")) == 9
    runs = shapes("h1 11a 222a 3333a 444b 55b = 25 X shift=any")
    assert len(runs) == 5 * 6
    assert ("55B", "666B", "7777B", "888C", "99C") in runs
    assert not any(s[0] == "66B" for s in runs)


def test_shift_even_keeps_odd_odd_and_even_even() -> None:
    odd = shapes("h1 FF 1111a 1111b 1111c = 25 X shift=even")
    assert {s[1] for s in odd} == {"1111B", "3333B", "5555B", "7777B", "9999B"}
    even = shapes("h1 FF 2222a 4444a 6666a = 25 X shift=even")
    assert len(even) == 2 * 3
    assert {s[1][0] for s in even} == {"2", "4"}


def test_equals_keeps_a_group_from_shifting() -> None:
    found = shapes("h1 =22a 333b 444b 5555b DDa = 25 X shift=any")
    assert len(found) == 7 * 6
    assert all(s[0][:2] == "22" for s in found)
    assert ("22B", "111C", "222C", "3333C", "GG") in found
    assert ("22D", "777B", "888B", "9999B", "00") in found


def test_years_are_fixed_digits_in_the_groups_suit_with_soap_as_zero() -> None:
    found = variations_of("h1 FF Ya 222b 222c 22c = 25 X shift=any")
    assert len(found) == 6 * 9  # suit assignments x the 2s moving to any number 1-9
    assert {format_tiles(v.groups[1].tiles) for v in found} == {"226B 0", "226C 0", "226D 0"}
    assert {v.groups[2].tiles[0] for v in found} == set(parse_tiles("123456789C 123456789D")) - {
        *parse_tiles("123456789B")} | set(parse_tiles("123456789B"))
    assert not any(v.groups[1].jokers_ok for v in found)
    assert variations_of("h1 FF Ya 222b 222c 22c = 25 X", header="card: T\nyear: 1984\n[S]\n")[
        0].groups[1].tiles == parse_tiles("1984B")


def test_group_alternatives() -> None:
    found = shapes("h1 NNN|SSS EEE|WWW 5555a 55b 55c|DDc = 35 X")
    assert {(s[0], s[1]) for s in found} == {("NNN", "EEE"), ("NNN", "WWW"), ("SSS", "EEE"),
                                             ("SSS", "WWW")}
    # b and c play the same part in `55b 55c`, so a=B, b=C, c=D and a=B, b=D, c=C are one
    # variation: per pair of winds, 3 ways with 55c and 3 x 2 with DDc.
    assert {s[4] for s in found} == {"55C", "55D", "GG", "RR", "00"}
    assert len(found) == 4 * (3 + 6)


def test_hand_alternatives_with_or() -> None:
    found = shapes("h1 FF 1111a 2222a 3333a or FF 7777a 8888a 9999a = 25 X")
    assert found == {("FF", f"{x * 4}{s}", f"{y * 4}{s}", f"{z * 4}{s}")
                     for s in "BCD" for x, y, z in ("123", "789")}


def test_jokers_only_in_three_or_more_identical_tiles() -> None:
    (variation,) = [v for v in variations_of("h1 NEWS W1Na 11a 1111a F = 25 X")
                    if v.groups[1].tiles == parse_tiles("W 1B N")]
    assert [g.jokers_ok for g in variation.groups] == [False, False, False, True, False]
    kongs = variations_of("h1 FFF 111a 22a 333333a = 25 X")[0]
    assert [g.jokers_ok for g in kongs.groups] == [True, True, False, True]


def test_mixed_groups_spell_words_in_order() -> None:
    variation = variations_of("h1 W1Na 222b 3333b NEWS = 30 X")[0]
    assert variation.groups[0].tiles == parse_tiles("W 1B N")
    assert not variation.groups[0].identical and not variation.groups[0].jokers_ok


def test_no_joker_flag_and_option() -> None:
    (variation, *_) = variations_of("h1 FF 2222a! 4444a 6666a = 30 X")
    assert [g.jokers_ok for g in variation.groups] == [False, False, True, True]
    (variation, *_) = variations_of("h1 NNN SSS 1111a 2222a = 35 X jokers=no")
    assert not any(g.jokers_ok or g.flowers_wild for g in variation.groups)


def test_flowers_wild_flag_and_option() -> None:
    (variation, *_) = variations_of("h1 FF 3333a^ 6666b^ 9999c = 30 X")
    assert [g.flowers_wild for g in variation.groups] == [False, True, True, False]
    assert [g.jokers_ok for g in variation.groups] == [False, True, True, True]
    (variation, *_) = variations_of("h1 FFF 111a 222a 333a 44a = 40 X flowers=wild")
    # every joker-able group but the flowers themselves; never the pair
    assert [g.flowers_wild for g in variation.groups] == [False, True, True, True, False]
    (variation, *_) = variations_of("h1 FF 111a 222a 333a 444a! = 40 X flowers=wild")
    assert [g.flowers_wild for g in variation.groups] == [False, True, True, True, False]


def test_fixed_suits() -> None:
    found = shapes("h1 1111@B 2222@C 3333@D 55a = 45 X")
    assert found == {("1111B", "2222C", "3333D", f"55{s}") for s in "BCD"}


def test_numbers_and_d_share_the_suit_of_their_group() -> None:
    found = shapes("h1 11a DDDDa 11b DDDDb 0 R = 40 C")
    assert found == {("11B", "GGGG", "11C", "RRRR", "0", "R"),
                     ("11B", "GGGG", "11D", "0000", "0", "R"),
                     ("11C", "RRRR", "11D", "0000", "0", "R")}


def test_concealed_and_values_are_kept() -> None:
    card = card_of("h1 FF 1111a 2222a 3333a = 25 c", "h2 FF 4444a 5555a 6666a = 1000 x")
    assert [(h.concealed, h.value) for h in card.hands] == [(True, 25), (False, 1000)]
