"""House options typed as text (`with_options`, `format_options`, `suggest_options`): what a
server owner or a terminal player writes after `house:` or `--house`."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from enum import Enum
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.engine.errors import InvalidInput
from bot.engine.game.rules import (
    _ENUM_FIELDS,
    MAX_SUGGESTIONS,
    PRESETS,
    ROYALE,
    STANDARD,
    TOURNAMENT,
    Charleston,
    ClaimWindow,
    DeadHands,
    GameEnd,
    RuleSet,
    WallEnd,
    Walls,
    format_options,
    house_option_names,
    preset_of,
    suggest_options,
    with_options,
)

#: Whole numbers worth trying for each count option (the rule set refuses the rest).
_COUNTS = {"dealer_tiles": (13, 14, 27, 28), "other_tiles": (13, 27), "dice": (0, 1, 2, 3),
           "jokers": (0, 4, 8, 10), "flowers": (0, 8, 16), "blanks": (0, 1, 2),
           "pot_ante": (1, 25, 50, 100), "pay_for_table_exposures": (1, 2, 3, 4),
           "wall_end_tiles": (1, 16, 20, 40), "sets": (1, 2), "ante": (1, 25, 75)}


def _values(key: str) -> st.SearchStrategy[Any]:
    enum_type = _ENUM_FIELDS.get(key)
    if enum_type is not None:
        return st.sampled_from(list(enum_type))
    if isinstance(getattr(STANDARD, key), bool):
        return st.booleans()
    return st.sampled_from(_COUNTS[key])


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[RuleSet, RuleSet]:
    """A preset and that preset with some options changed, each change kept only if the
    rules still fit together (so no draw is thrown away)."""
    base = draw(st.sampled_from(list(PRESETS.values())))
    rules = base
    for key in draw(st.lists(st.sampled_from(house_option_names()), max_size=8)):
        with contextlib.suppress(InvalidInput):
            rules = replace(rules, **{key: draw(_values(key))})
    return base, rules


def _typed(key: str, value: Any, style: int) -> str:
    """One option typed in one of the ways `with_options` accepts."""
    if isinstance(value, bool):
        word = [key if value else f"no_{key}", f"{key}={'yes' if value else 'off'}",
                f"{key} = {'TRUE' if value else 'false'}"][style % 3]
    else:
        word = f"{key}={value.value if isinstance(value, Enum) else value}"
    return word.replace("_", "-").upper() if style % 2 else word


@given(house_rules())
@example((ROYALE, replace(ROYALE, natural_quints=False, game_end=GameEnd.ALL_DONE)))
def test_formatted_options_read_back_exactly(drawn: tuple[RuleSet, RuleSet]) -> None:
    base, rules = drawn
    text = format_options(rules, base)
    assert with_options(base, text) == rules
    assert (text == "") == (rules == base)
    assert preset_of(rules) is base


@given(house_rules(), st.lists(st.integers(0, 5), min_size=40, max_size=40),
       st.sampled_from([" ", ", ", ",", "  ,\t"]))
def test_any_spelling_reads_the_same(drawn: tuple[RuleSet, RuleSet], styles: list[int],
                                     separator: str) -> None:
    base, rules = drawn
    changed = [key for key in house_option_names() if getattr(rules, key) != getattr(base, key)]
    text = separator.join(_typed(key, getattr(rules, key), style)
                          for key, style in zip(changed, styles, strict=False))
    assert with_options(base, text) == rules


def test_the_briefs_example() -> None:
    rules = with_options(STANDARD, "quarters_pot pot_ante=50 wall_end=cold wall_end_tiles=16 "
                                   "walls=none dice=0 charleston=none")
    assert rules == replace(STANDARD, quarters_pot=True, pot_ante=50, wall_end=WallEnd.COLD,
                            wall_end_tiles=16, walls=Walls.NONE, dice=0,
                            charleston=Charleston.NONE)
    assert format_options(rules, STANDARD) == ("dice=0 walls=none charleston=none quarters_pot "
                                               "pot_ante=50 wall_end=cold wall_end_tiles=16")
    assert with_options(STANDARD, "Claim-Window=Able_Seats,dead-hands=OFF") == replace(
        STANDARD, claim_window=ClaimWindow.ABLE_SEATS, dead_hands=DeadHands.OFF)
    assert with_options(STANDARD, "  ") == STANDARD
    assert format_options(replace(ROYALE, natural_quints=False), ROYALE) == "no_natural_quints"


@pytest.mark.parametrize(("text", "message"), [
    ("quarter_pot", "There is no house option `quarter_pot`. Did you mean `quarters_pot`?"),
    ("zebra=1", "There is no house option `zebra`. The options are: dealer_tiles, "),
    ("no_zebra", "There is no house option `no_zebra`."),
    ("players=3", "`players` is not a house option: the table's size (players, racks)"),
    ("Name=mine", "`name` is not a house option"),
    ("wall_end=warm", "The house option `wall_end` can't be `warm`; it takes normal, hot, "
                      "cold."),
    ("quarters_pot=maybe", "The house option `quarters_pot` can't be `maybe`; it takes "
                           "`quarters_pot` alone or on, yes, true to turn it on; "
                           "`no_quarters_pot` or off, no, false to turn it off."),
    ("dice=two", "The house option `dice` can't be `two`; it takes a whole number."),
    ("dice", "The house option `dice` needs a value (`dice=…`); it takes a whole number."),
    ("walls", "The house option `walls` needs a value (`walls=…`); it takes built, none."),
    ("blanks=1 blanks=2", "The house option `blanks` is given twice."),
    ("quarters_pot no-quarters-pot", "The house option `quarters_pot` is given twice."),
    ("walls=none dice=2", "These rules don't fit together: without walls there is nothing "
                          "to break: use no dice."),
    ("dice=9", "These rules don't fit together: the wall is broken with 1 to 3 dice, or "
               "none."),
])
def test_every_mistake_says_what_is_wrong_and_what_is_allowed(text: str,
                                                              message: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        with_options(STANDARD, text)
    assert refused.value.message.startswith(message), refused.value.message


def test_no_walls_means_no_dice_unless_dice_are_asked_for() -> None:
    # `walls=none` alone was refused until `dice=0` was added, though no walls means no dice.
    assert with_options(STANDARD, "walls=none").dice == 0
    assert with_options(STANDARD, "dice=0 walls=none") == with_options(STANDARD, "walls=none")


def test_a_combination_the_preset_refuses_keeps_the_rule_sets_message() -> None:
    with pytest.raises(InvalidInput, match="tournament play builds walls"):
        with_options(TOURNAMENT, "walls=none dice=0")
    with pytest.raises(InvalidInput, match="only work in the Royale-style game"):
        with_options(STANDARD, "game_end=all-done")
    assert with_options(ROYALE, "game_end=all-done").game_end.value == "all-done"


def test_a_long_mistake_is_echoed_short() -> None:
    with pytest.raises(InvalidInput) as refused:
        with_options(STANDARD, "x" * 200)
    assert "x" * 60 not in refused.value.message


def test_suggestions_complete_the_last_word() -> None:
    assert suggest_options("quarters_pot wall_end=") == [
        "quarters_pot wall_end=normal", "quarters_pot wall_end=hot", "quarters_pot wall_end=cold"]
    assert "no_quarters_pot" in suggest_options("quart")
    assert suggest_options("dice=0 walls") == ["dice=0 walls=built", "dice=0 walls=none"]
    assert suggest_options("CHARLESTON=N") == ["charleston=none"]
    everything = suggest_options("")
    assert len(everything) == MAX_SUGGESTIONS and everything[0] == "dealer_tiles=14"
    assert suggest_options("dice=0 ")[0] == "dice=0 dealer_tiles=14"
    assert suggest_options("zzz") == []
    for text in everything:  # every suggestion reads; the rule set may refuse a few alone
        try:
            with_options(STANDARD, text)
        except InvalidInput as refused:
            assert refused.message.startswith("These rules don't fit together"), text
