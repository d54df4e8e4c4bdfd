"""What the terminal game asks the human seat, and every answer it understands.

No answer ends a game: anything that is not a move (a typo, a tile not held, a number not
offered, a word it does not know) is answered with what went wrong and what may be typed,
and the question is asked again. Besides a move (a number from the list, a tile to discard,
the tiles to pass, `pass`, `call`), these words work at any question:

    help        what may be typed
    hint        your nearest hands and what they need (as Hint on Discord)
    card [ID]   the card being played, as printed (or one hand of it in words)
    discards    the discards, by seat and by tile
    exposures   everyone's exposures and laid-out Mah Jonggs
    rack        your rack again
    dead        declare another hand dead (on your turn; asks you to confirm)
    joker-calls skip|offer   whether calls only jokers would fill are offered

Offers follow `bot.tables.menu` as on Discord: two or more calls on a discard sit behind one
"Call…" choice; declaring a hand dead is a word, never a numbered choice, and is confirmed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import groupby
from typing import TextIO

from bot.analysis import format_analysis, hint
from bot.card_reading import printed_card, read_line
from bot.engine.errors import MahjongError, echo
from bot.engine.game import Action, Option, Phase, View
from bot.engine.game.actions import (
    Call,
    CallMahjong,
    DeclareDead,
    Discard,
    Give,
    Mahjong,
    Offer,
    Pass,
    TileChoice,
)
from bot.engine.game.rules import DeadHands
from bot.engine.tiles import JOKER, format_tile, parse_tiles, tile_name
from bot.tables.menu import Layout, calls_choice, calls_heading, dead_question, dead_target, layout
from bot.tables.narrate import action_label, pass_heading
from bot.tables.notifier import Table
from bot.tables.seat_options import JokerCalls, SeatOptions
from bot.terminal.notifier import discards_text, exposures_text, rack_line, wrap

#: Reads one answer after showing a prompt (`input`); raises EOFError at the end of input.
Ask = Callable[[str], str]
#: What the human decided: a move, or new options for their seat.
Choice = Action | SeatOptions
#: A numbered entry: an option's index in `View.legal`, or None for the "Call…" choice.
_Entry = tuple[str, int | None]

HELP = """\
Type a number from the list, or:
  a tile (like 4D, 5 crak, red, soap)   discard it, on your turn
  the tiles to pass (like 2B 5C N)      in a Charleston or courtesy pass
  pass / call / mahjong                 answer a discard by name
  hint        your nearest hands and what they need
  card        the card being played (`card y1`: one hand of it in words)
  discards    the discards, by seat and by tile
  exposures   everyone's exposures and laid-out Mah Jonggs
  rack        your rack again (Enter shows your choices again)
  dead        declare another hand dead, on your turn (you're asked to confirm)
  joker-calls skip|offer   skip (the default) or offer calls only jokers would fill
Tiles: 1-9 with B (Bam), C (Crak), D (Dot); N E W S winds; R G dragons, 0 Soap; F flower; J joker.
Ctrl-D stops the game."""

_YES = frozenset({"yes", "y"})
_NO = frozenset({"no", "n"})
#: Discards shown on one line.
DISCARDS_PER_LINE = 8


class Prompter:
    """Asks the human seat for its moves until it gives one (see the module docstring)."""

    def __init__(self, ask: Ask, out: TextIO) -> None:
        self.ask = ask
        self.out = out
        #: The action count whose choices were last shown, so a re-ask does not repeat them.
        self._shown: int | None = None

    def say(self, text: str) -> None:
        """Print a line (or several) for the human, wrapped to the terminal's width."""
        print(wrap(text), file=self.out)

    # -- asking ----------------------------------------------------------------------------

    def agrees(self, question: str) -> bool:
        """Ask a yes-or-no question until the answer is one (`y` and `n` too): a typo asks
        again rather than being taken for either (EOF raises EOFError)."""
        while True:
            answer = self.ask(question).strip().lower()
            if answer in _YES or answer in _NO:
                return answer in _YES
            self.say(f"Please answer yes or no{f', not `{echo(answer)}`' if answer else ''}.")

    def choose(self, table: Table, view: View) -> Choice:
        """Ask until the answer is a move or new options (EOF raises EOFError). A discard the
        seat has nothing to claim from (as its options see it) never reaches here: the table
        answers it (`bot.tables.auto`)."""
        offered = layout(view, table.options_of(view.seat))
        if self._shown != view.action_count:
            self._shown = view.action_count
            self._show(table, view, offered)
        while True:
            choice = self._answer(table, view, offered, self.ask(_question(view)).strip())
            if choice is not None and self._keeps_last_joker(view, choice):
                continue
            if choice is not None:
                return choice

    def _keeps_last_joker(self, view: View, choice: Choice) -> bool:
        """Whether the seat, about to discard the only joker in its rack, says to keep it: a
        joker is a hand's most precious tile, and once it is discarded nobody may call it
        back, so a slip of a number or a letter costs it for good."""
        if choice != Discard(view.seat, JOKER) or view.concealed.count(JOKER) != 1:
            return False
        if self.agrees("That is your only joker. Discard it? (yes/no) "):
            return False
        self.say(f"You keep your joker. {_allowed(view)}")
        return True

    def refused(self, view: View, message: str) -> None:
        """The table refused the last move: say why and what may be typed."""
        self.say(f"{message} {_allowed(view)}")

    def _show(self, table: Table, view: View, offered: Layout) -> None:
        """The question's headline, its numbered choices and what may be typed. Discards are
        listed by tile code, several to a line, so a 27-tile Siamese rack fits a screen."""
        self.say(_headline(table, view))
        numbered = [(number, label, None if index is None else view.legal[index].action)
                    for number, (label, index)
                    in enumerate(_entries(table, view, offered), start=1)]
        for discards, run in groupby(numbered, key=lambda entry: isinstance(entry[2], Discard)):
            if not discards:
                for number, label, _ in run:
                    self.say(f"{number:>3}. {label}")
                continue
            cells = [f"{number:>3}. {format_tile(action.kind):<3}" for number, _, action in run
                     if isinstance(action, Discard)]
            for start in range(0, len(cells), DISCARDS_PER_LINE):
                self.say(" ".join(cells[start:start + DISCARDS_PER_LINE]).rstrip())
        self.say(_allowed(view))

    # -- answers ---------------------------------------------------------------------------

    def _answer(self, table: Table, view: View, offered: Layout, answer: str) -> Choice | None:
        """The move `answer` makes, or None after saying what it did instead."""
        word, _, rest = answer.partition(" ")
        word = word.lower()
        entries = _entries(table, view, offered)
        choice: Choice | None = None
        if not answer:
            self._show(table, view, offered)
        elif word in ("help", "?"):
            self.say(HELP)
        elif word in ("hint", "card", "discards", "exposures", "rack"):
            self._look(table, view, word, rest.strip())
        elif word == "dead":
            choice = self._declare(table, view, offered)
        elif word in ("joker-calls", "jokers"):
            choice = self._joker_calls(table, view, rest.strip().lower())
        elif word in ("mahjong", "mj") or (word in ("pass", "call") and not _gives(view)):
            choice = self._named(table, view, offered, word)
        elif (number := _typed_number(answer)) is not None:
            choice = self._number(table, view, offered, entries, number)
        elif answer.isascii() and answer.isdigit():  # too many digits for any choice
            self.say((f"There is no choice {echo(answer)}. " if entries else "")
                     + _allowed(view))
        elif word == "blind" and _gives(view):
            choice = self._blind(view)
        else:
            text = rest if word in ("pass", "discard") else answer
            choice = self._tiles(view, text, entries)
        return choice

    def _look(self, table: Table, view: View, word: str, rest: str) -> None:
        """Answer one of the looking words (`rest`: what follows it, a hand's id after
        `card`)."""
        if word == "hint":
            self.say(format_analysis(hint(table.card, table.rules.counts, view))
                     if table.hints else "Hints are off at this table.")
        elif word == "card" and rest:
            try:
                self.say(read_line(table.card, rest).replace("**", ""))  # Discord's bold
            except MahjongError as error:
                self.say(error.message.replace("/rules reading-the-card", "help"))
        elif word == "card":
            self.say("\n".join(printed_card(table.card)))
            self.say("Type `card` and a hand's id (like `card "
                     f"{table.card.hands[0].id}`) to read that hand in words.")
        elif word == "discards":
            self.say(discards_text(view))
        elif word == "exposures":
            self.say(exposures_text(view))
        else:
            self.say(rack_line(view))

    def _number(self, table: Table, view: View, offered: Layout, entries: list[_Entry],
                number: int) -> Choice | None:
        if view.phase is Phase.COURTESY_OFFER and not entries:
            offers = [o.action for o in view.legal if isinstance(o.action, Offer)]
            chosen = next((o for o in offers if o.count == number), None)
            if chosen is None:
                self.say(f"You can offer 0 to {len(offers) - 1} tiles, not {number}.")
            return chosen
        if number == 0:  # choices count from 1, and a Soap is written 0
            return self._tiles(view, "0", entries)
        if not 1 <= number <= len(entries):
            self.say((f"There is no choice {number}. " if entries else "") + _allowed(view))
            return None
        index = entries[number - 1][1]
        if index is None:
            return self._call(table, view, offered)
        return view.legal[index].action

    def _named(self, table: Table, view: View, offered: Layout, word: str) -> Choice | None:
        """`pass`, `call`, `mahjong` at a discard (or `mahjong` on a turn)."""
        direct = [view.legal[i].action for i in offered.direct]
        if word in ("pass", "call") and view.phase is Phase.TURN:
            what = "let go" if word == "pass" else "call"
            self.say(f"There is no discard to {what}: it's your turn, so discard a tile. "
                     + _allowed(view))
            return None
        if word == "pass":
            if Pass(view.seat) in direct:
                return Pass(view.seat)
            self.say("You can't let a tile go now. " + _allowed(view))
            return None
        if word == "call":
            if offered.calls:
                return self._call(table, view, offered)
            calls = [a for a in direct if isinstance(a, Call)]
            if calls:
                return calls[0]
            self.say("You can't call this tile. " + _allowed(view))
            return None
        wins = [a for a in direct if isinstance(a, Mahjong | CallMahjong)]
        if len(wins) == 1:
            return wins[0]
        self.say("Choose which Mah Jongg by its number." if wins
                 else "Your hand isn't Mah Jongg yet. " + _allowed(view))
        return None

    def _call(self, table: Table, view: View, offered: Layout) -> Choice | None:
        """Open the calls on the discard; a call, or None to go back."""
        self.say(calls_heading(view, table.names, offered))
        for number, index in enumerate(offered.calls, start=1):
            self.say(f"  {number:>2}. {_label(table, view.legal[index])}")
        chosen = _typed_number(self.ask("Which call? A number, or Enter to go back: ").strip())
        if chosen is not None and 1 <= chosen <= len(offered.calls):
            return view.legal[offered.calls[chosen - 1]].action
        self.say("No call made. " + _allowed(view))
        return None

    def _declare(self, table: Table, view: View, offered: Layout) -> Choice | None:
        """Declare a hand dead: choose the hand, then confirm with the consequence said."""
        if not offered.dead:
            self.say("Nobody calls hands dead at this table."
                     if table.rules.dead_hands is DeadHands.OFF
                     else "You can declare a hand dead only on your own turn, before you "
                          "discard, while your own hand is live.")
            return None
        targets = [view.legal[i].action for i in offered.dead]
        target = targets[0]
        if len(targets) > 1:
            self.say("Whose hand?")
            for number, action in enumerate(targets, start=1):
                assert isinstance(action, DeclareDead)
                self.say(f"  {number:>2}. {dead_target(view, action, table.names)}")
            chosen = _typed_number(self.ask("The hand's number, or Enter to go back: ").strip())
            if chosen is None or not 1 <= chosen <= len(targets):
                self.say("Nothing declared; your turn goes on.")
                return None
            target = targets[chosen - 1]
        assert isinstance(target, DeclareDead)
        self.say(dead_question(view, target, table.names))
        if self.agrees("Declare it dead? (yes/no) "):
            return target
        self.say("Nothing declared; your turn goes on.")
        return None

    def _joker_calls(self, table: Table, view: View, value: str) -> Choice | None:
        """Show the seat's options, or change whether joker-only calls are offered."""
        try:
            wanted = replace(table.options_of(view.seat), joker_calls=JokerCalls(value))
        except ValueError:
            self.say(f"{_joker_calls_line(table.options_of(view.seat))} Type `joker-calls "
                     "skip` or `joker-calls offer` to change it.")
            return None
        self.say(f"{_joker_calls_line(wanted)} (From the next question on.)")
        return wanted

    def _blind(self, view: View) -> Choice | None:
        give = _give_choice(view)
        if give is None or give.blind_max < give.count:
            self.say("This pass can't be blind: choose the tiles from your rack. "
                     + _allowed(view))
            return None
        return Give(view.seat, (), give.count)

    def _tiles(self, view: View, text: str, entries: list[_Entry]) -> Choice | None:
        """Tiles typed: a discard on a turn, a pass in a pass. Words that are not tiles at a
        numbered menu are the words of a choice (`keep` at the Charleston vote)."""
        try:
            kinds = parse_tiles(text)
        except MahjongError as error:
            return self._worded(view, entries, text, error.message)
        give = _give_choice(view)
        if give is not None and kinds:
            short = give.count - len(kinds)
            return Give(view.seat, kinds, short if 0 < short <= give.blind_max else 0)
        if view.phase is Phase.TURN and len(kinds) == 1:
            if any(o.action == Discard(view.seat, kinds[0]) for o in view.legal):
                return Discard(view.seat, kinds[0])
            self.say(f"You have no {tile_name(kinds[0])} to discard. {_allowed(view)}")
            return None
        if view.phase is Phase.TURN and len(kinds) > 1:
            self.say(f"One tile is discarded at a time, and `{echo(text)}` is {len(kinds)}. "
                     + _allowed(view))
            return None
        self.say(f"That isn't one of the choices. {_allowed(view)}")
        return None

    def _worded(self, view: View, entries: list[_Entry], text: str,
                not_tiles: str) -> Choice | None:
        """The choice whose words `text` names, or None after saying why there is none: the
        choices it could be, or, where tiles are typed, why `text` is not tiles."""
        typed = text.lower().split()
        # "Call…" is opened by `call`, never by the words of its label.
        named = [(number, label, index) for number, (label, index)
                 in enumerate(entries, start=1) if index is not None and _names(typed, label)]
        if len(named) == 1:
            return view.legal[named[0][2]].action
        if named:
            self.say(f"`{echo(text)}` could be " + " or ".join(
                f"{number} ({label})" for number, label, _ in named) + ": type its number.")
        elif view.phase is Phase.TURN or not entries:
            self.say(f"{not_tiles} {_allowed(view)}")
        else:
            self.say(f"`{echo(text)}` isn't one of the choices here: " + ", ".join(
                f"{number} ({label})" for number, (label, _) in enumerate(entries, start=1))
                + f". {_allowed(view)}")
        return None


# -- what is shown -------------------------------------------------------------------------


def _label(table: Table, option: Option) -> str:
    label = action_label(option.action, table.names, racks=table.rules.racks)
    return label + ("  (warning: this would leave no hand possible)" if option.deadens else "")


def _entries(table: Table, view: View, offered: Layout) -> list[_Entry]:
    """The numbered choices: the direct options (tile passes and courtesy offers are typed
    instead), with "Call…" after the last of them when calls are grouped."""
    entries: list[_Entry] = [
        (_label(table, view.legal[i]), i) for i in offered.direct
        if not isinstance(view.legal[i].action, Give | Offer)]
    if offered.calls:
        entries.append((calls_choice(view, offered), None))
    return entries


#: The most digits of a number typed for a choice: more name none (and Python reads no
#: number of over 4,300 digits from text).
_MOST_DIGITS = 6


def _typed_number(answer: str) -> int | None:
    """`answer` as the number of a choice, or None if it is not one: ASCII digits only (`²`
    passes `str.isdigit`, but `int` can't read it), at most `_MOST_DIGITS` of them."""
    if answer.isascii() and answer.isdigit() and len(answer) <= _MOST_DIGITS:
        return int(answer)
    return None


#: The fewest letters of a choice's word that name it (`kee` for Keep passing).
_SHORTEST_WORD = 3


def _names(typed: list[str], label: str) -> bool:
    """Whether the typed words name a choice: each one a word of its label, or the start of
    one, `_SHORTEST_WORD` letters or more."""
    words = label.lower().split()
    return bool(typed) and all(
        any(word == said or (len(said) >= _SHORTEST_WORD and word.startswith(said))
            for word in words) for said in typed)


def _joker_calls_line(options: SeatOptions) -> str:
    """The one seat option the terminal game has, in words (the others are Discord's:
    reminders, quiet hours and the auto-plays set with /mj settings)."""
    return ("Calls only jokers would fill (none of your own tiles of it): "
            + ("skipped." if options.joker_calls is JokerCalls.SKIP else "offered."))


def _give_choice(view: View) -> TileChoice | None:
    """The tiles the seat is to pass now, if it is to pass."""
    return next((o.choice for o in view.legal if isinstance(o.action, Give) and o.choice),
                None)


def _gives(view: View) -> bool:
    return _give_choice(view) is not None


def _headline(table: Table, view: View) -> str:
    names = table.names
    heading = pass_heading(view, names)
    if heading is not None:
        return f"{heading} Jokers never pass."  # on Discord, the menu only holds the others
    if view.phase is Phase.CLAIM and view.claim is not None:
        return (f"{names[view.claim.discarder]} discarded {tile_name(view.claim.kind)}. "
                "Call it, or let it go?")
    if view.phase is Phase.VOTE:
        return ("The first Charleston is done. Keep passing (the second Charleston goes "
                "left, across, right), or stop here? Any one player can stop it.")
    if view.phase is Phase.COURTESY_OFFER:
        across = names[(view.seat + 2) % len(names)]
        return (f"Courtesy pass: how many tiles would you trade with {across}, across? The "
                "smaller of your two offers is traded.")
    return "Your turn. Discard a tile (type it, or its number):"


def _question(view: View) -> str:
    if _gives(view):
        return "Tiles to pass: "
    if view.phase is Phase.COURTESY_OFFER:
        return "How many tiles? "
    return "Your choice: "


def _allowed(view: View) -> str:
    """What may be typed now, in one line."""
    give = _give_choice(view)
    if give is not None:
        blind = " (`blind` passes them all unseen)" if give.blind_max >= give.count else ""
        tiles = f"{give.count} tiles" if give.count != 1 else "tile"
        return f"Type the {tiles} to pass, like `2B 5C N`{blind}; `help` for more."
    if view.phase is Phase.COURTESY_OFFER:
        most = sum(isinstance(o.action, Offer) for o in view.legal) - 1
        return f"Type a number from 0 to {most}; `help` for more."
    if view.phase is Phase.CLAIM:
        return "Type a number, `pass` or `call`; `help` for more."
    if view.phase is Phase.TURN:
        return "Type a number, or the tile to discard (like `4D`); `help` for more."
    return "Type a number from the list; `help` for more."
