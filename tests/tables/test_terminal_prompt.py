"""What the terminal's prompt makes of words and numbers (`bot.tables.terminal_prompt`): a
Soap is written `0` everywhere tiles are typed, and a word that has no meaning at the moment
is explained."""

from __future__ import annotations

import io

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
from bot.engine.game.actions import Discard
from bot.engine.tiles import SOAP
from bot.tables.notifier import Table
from bot.tables.terminal_prompt import Choice, Prompter
from tests.tables.test_menu import CARD, play_until

NAMES = ("Ann", "Bo", "Cy", "Di")


def a_soap_at_a_turn() -> View:
    """The view of a seat at its turn with a Soap among the tiles it may discard."""
    def soap_to_discard(state: GameState) -> bool:
        seats = seats_to_act(state)
        return (state.phase is Phase.TURN and bool(seats)
                and Discard(seats[0], SOAP) in (o.action for o in legal_actions(state, seats[0])))

    state = play_until(new_game(STANDARD, CARD, 4, NAMES), soap_to_discard)
    return view(state, seats_to_act(state)[0])


def ask(answers: list[str]) -> tuple[Choice, Discard, str]:
    """A seat's choice at its turn with a Soap to discard, typing `answers` in order; the
    Soap's discard; what the prompt printed."""
    seen = a_soap_at_a_turn()
    users: list[int | None] = [None] * len(NAMES)
    users[seen.seat] = 1
    table = Table(1, 0, 0, None, NAMES, tuple(users), STANDARD, CARD, True)
    out = io.StringIO()
    typed = iter(answers)
    chosen = Prompter(lambda prompt: next(typed), out).choose(table, seen)
    return chosen, Discard(seen.seat, SOAP), out.getvalue()


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
