"""What the terminal's prompt makes of words and numbers (`bot.terminal.prompt`): a
Soap is written `0` everywhere tiles are typed, and a word that has no meaning at the moment
is explained."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from bot.engine.game import (
    STANDARD,
    GameState,
    Phase,
    View,
    legal_actions,
    new_game,
    seats_to_act,
    view,
)
from bot.engine.game.actions import Discard, Vote
from bot.engine.tiles import JOKER, SOAP
from bot.tables.notifier import Table
from bot.terminal.prompt import HELP, Choice, Prompter
from tests.tables.test_menu import CARD, play_until

NAMES = ("Ann", "Bo", "Cy", "Di")


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal wide enough that no line here is wrapped (but where a test says)."""
    monkeypatch.setenv("COLUMNS", "1000")


def a_turn_discarding(kind: int, state: GameState) -> bool:
    """Whether a seat is at its turn with `kind` among the tiles it may discard."""
    seats = seats_to_act(state)
    return (state.phase is Phase.TURN and bool(seats)
            and Discard(seats[0], kind) in (o.action for o in legal_actions(state, seats[0])))


def a_view(wanted: Callable[[GameState], bool]) -> View:
    """The view of the first seat to act once `wanted` holds."""
    state = play_until(new_game(STANDARD, CARD, 4, NAMES), wanted)
    return view(state, seats_to_act(state)[0])


def ask_at(seen: View, answers: list[str]) -> tuple[Choice, str, list[str]]:
    """A seat's choice at `seen`, typing `answers` in order; what the prompt printed; the
    questions it asked."""
    users: list[int | None] = [None] * len(NAMES)
    users[seen.seat] = 1
    table = Table(1, 0, 0, None, NAMES, tuple(users), STANDARD, CARD, True)
    out = io.StringIO()
    typed = iter(answers)
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        return next(typed)

    chosen = Prompter(answer, out).choose(table, seen)
    return chosen, out.getvalue(), asked


def ask(answers: list[str]) -> tuple[Choice, Discard, str]:
    """A seat's choice at its turn with a Soap to discard, typing `answers` in order; the
    Soap's discard; what the prompt printed."""
    seen = a_view(lambda state: a_turn_discarding(SOAP, state))
    chosen, shown, _ = ask_at(seen, answers)
    return chosen, Discard(seen.seat, SOAP), shown


def test_0_discards_a_soap_as_it_passes_one() -> None:
    chosen, soap, _ = ask(["0"])
    assert chosen == soap


def test_call_on_your_own_turn_says_there_is_no_discard_to_call() -> None:
    chosen, soap, shown = ask(["call", "0"])
    assert chosen == soap
    assert "There is no discard to call: it's your turn, so discard a tile." in shown
    assert "You can't call this tile" not in shown


def test_a_typo_at_a_yes_or_no_question_asks_again() -> None:
    # "Play again? (yes/no)" ended the program on a typo, though a typo never ends a game.
    out = io.StringIO()
    typed = iter(["yse", "", "n"])
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        return next(typed)

    assert not Prompter(answer, out).agrees("Play again? (yes/no) ")
    assert len(asked) == 3
    assert out.getvalue() == "Please answer yes or no, not `yse`.\nPlease answer yes or no.\n"
    assert Prompter(lambda prompt: "Y", out).agrees("Declare it dead? (yes/no) ")


def at_the_vote() -> View:
    return a_view(lambda state: state.phase is Phase.VOTE)


def test_words_at_a_numbered_menu_name_its_choices() -> None:
    # `keep` at the Charleston vote was answered "I don't know the tile `keep`".
    seen = at_the_vote()
    assert ask_at(seen, ["keep"])[0] == Vote(seen.seat, stop=False)
    assert ask_at(seen, ["Stop"])[0] == Vote(seen.seat, stop=True)
    chosen, shown, _ = ask_at(seen, ["maybe", "keep passing"])
    assert chosen == Vote(seen.seat, stop=False)
    assert "`maybe` isn't one of the choices here: 1 (Keep passing), 2 (Stop the Charleston)." \
        in shown
    assert "tile" not in shown.split("Stop the Charleston")[-1]


def test_several_tiles_at_a_discard_say_one_is_discarded_at_a_time() -> None:
    # `1B 5B` said only "That isn't one of the choices".
    chosen, soap, shown = ask(["1B 5B", "0"])
    assert chosen == soap
    assert "One tile is discarded at a time, and `1B 5B` is 2." in shown


def only_joker(state: GameState) -> bool:
    seats = seats_to_act(state)
    return (a_turn_discarding(JOKER, state)
            and state.seats[seats[0]].concealed.count(JOKER) == 1)


def test_the_only_joker_is_discarded_only_when_the_player_says_yes() -> None:
    # Throwing the only joker in the rack happened at once, with no "are you sure".
    seen = a_view(only_joker)
    chosen, shown, asked = ask_at(seen, ["J", "no", "J", "yes"])
    assert chosen == Discard(seen.seat, JOKER)
    assert asked.count("That is your only joker. Discard it? (yes/no) ") == 2
    assert "You keep your joker." in shown


def test_text_is_wrapped_between_words_to_the_terminals_width(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Long lines ran on and the terminal cut them mid-word at its edge.
    monkeypatch.setenv("COLUMNS", "40")
    _, _, shown = ask(["zz", "help", "0"])
    assert "I don't know the tile" in shown
    lines = shown.splitlines()
    assert all(len(line) <= 40 for line in lines), [line for line in lines if len(line) > 40]
    words = {word for line in lines for word in line.split()}
    assert set(HELP.split()) <= words


def test_card_shows_the_card_as_people_read_it() -> None:
    # `card` printed the card language's marks (`0000!`, `=9999b`).
    _, _, shown = ask(["card", "card l3", "card zz", "0"])
    card = shown.split("Type `card` and a hand's id")[0]
    assert "0000!" not in card and "=9999b" not in card
    assert "  l3   11a 11b 11c 0000 FFFF" in card
    assert "all four Soaps, with no jokers in them" in shown
    assert "l3 `11a 11b 11c 0000! FFFF`: Any Like Numbers, worth 30" in shown
    assert "There is no hand `zz` on Jongg Original." in shown


def test_joker_calls_names_only_the_terminals_setting() -> None:
    # `joker-calls` listed Discord's settings too (time zone, reminders, quiet hours).
    _, _, shown = ask(["joker-calls", "0"])
    assert "Time zone" not in shown and "Reminders" not in shown
    assert ("Calls only jokers would fill (none of your own tiles of it): skipped. Type "
            "`joker-calls skip` or `joker-calls offer` to change it.") in shown
