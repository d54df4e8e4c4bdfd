"""`jongg play`: whole games in the terminal through the table service, with no Discord.

The scripted games are typed by a person who gets every kind of question wrong first, in the
ways that fit it (a joker or a tile not held in a pass, numbers not offered, words the game
doesn't know, `pass` on their own turn, backing out of a call and of declaring a hand dead),
then answers it; every game still finishes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.engine.tiles import JOKER, NUM_KINDS, format_tile, format_tiles, parse_tiles

#: A script that has not finished its game after this many answers is stuck.
MOST_ANSWERS = 4000
#: How each kind of question announces itself (the first line of its choices).
KINDS = {
    "pass": "Jokers never pass.",
    "vote": "The first Charleston is done.",
    "offer": "Courtesy pass: how many tiles",
    "claim": "Call it, or let it go?",
    "turn": "Your turn. Discard a tile",
}
ENDED = re.compile(r"^  (Game over|Wall game|The wall ran out).*\.$", re.MULTILINE)


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal wide enough that no line is wrapped: the transcript is read line by line
    (wrapping has its own test, in test_terminal_prompt)."""
    monkeypatch.setenv("COLUMNS", "1000")


@dataclass
class Typist:
    """`input` for `jongg play`: reads what the game printed, answers each new question with
    mistakes first and then a move (see the module docstring), and keeps the transcript."""

    capsys: pytest.CaptureFixture[str]
    transcript: list[str] = field(default_factory=list)
    asked: Counter[str] = field(default_factory=Counter)
    plan: list[str] = field(default_factory=list)
    answers: int = 0
    called: bool = False

    @property
    def text(self) -> str:
        return "".join(self.transcript)

    def __call__(self, prompt: str) -> str:
        shown = self.capsys.readouterr().out
        self.transcript += [shown, prompt]
        self.answers += 1
        assert self.answers < MOST_ANSWERS, "the game keeps asking\n" + self.text[-3000:]
        kind = next((k for k, marker in KINDS.items() if marker in shown), None)
        if kind is not None:
            self.asked[kind] += 1
            self.plan = list(self._plan(kind, shown))
        # Past its plan, a question is answered with its first choice (or `pass`, or `no`
        # to a yes-or-no question: one game is all it plays).
        answer = self.plan.pop(0) if self.plan else (
            "no" if "(yes/no)" in prompt else "pass" if "pass" in prompt else "1")
        self.transcript.append(answer + "\n")
        return answer

    def _rack(self) -> tuple[int, ...]:
        line = next(line for line in reversed(self.text.splitlines())
                    if line.startswith("Your rack: "))
        return parse_tiles(line.removeprefix("Your rack: ").split("  ·")[0])

    def _plan(self, kind: str, shown: str) -> Iterator[str]:
        if kind == "pass":
            rack = self._rack()
            missing = next(k for k in range(NUM_KINDS) if k not in rack)
            yield from ("J J J", f"{format_tile(missing)} " * 3, "zz", "12")
            blind = "may be blind" in shown
            if not blind:
                yield "blind"
            allowed = re.findall(r"Type the (\d+ tiles|tile) to pass", shown)[-1]
            count = int(allowed.split()[0]) if allowed != "tile" else 1
            yield "blind" if blind else format_tiles([k for k in rack if k != JOKER][:count])
        elif kind == "vote":
            yield from ("3", "1")
        elif kind == "offer":
            yield from ("9", "none", "1")
        elif kind == "turn":
            yield from ("99", "zz", "pass", "dead", "")
            if self.asked[kind] == 2:  # discards and exposures are on the table by now
                yield from ("help", "hint", "card", "discards", "exposures", "rack",
                            "joker-calls", "joker-calls offer", "joker-calls skip",
                            "dead", "1", "no")
            yield "1"
        else:
            yield from ("99", "4D")
            if "ways)" in shown:
                yield from ("call", "77")
            # Call the first time a call is offered; let the others go.
            calling = "Call " in shown and not self.called
            self.called |= calling
            yield from (("call", "1") if calling and "ways)" in shown
                        else ("call",) if calling else ("pass",))


@pytest.mark.parametrize(("players", "seed", "kinds"), [
    ("4", 5, {"pass", "vote", "offer", "claim", "turn"}),
    ("3", 2, {"claim", "turn"}),
    ("2", 3, {"claim", "turn"}),
    ("3 --racks 2", 2, {"claim", "turn"}),
    ("4 --racks 2", 2, {"claim", "turn"}),
])
def test_a_game_with_mistakes_at_every_question_finishes(
        players: str, seed: int, kinds: set[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    typist = Typist(capsys)
    monkeypatch.setattr("builtins.input", typist)
    assert main(["play", "--players", *players.split(), "--seed", str(seed)]) == 0
    typist.transcript.append(capsys.readouterr().out)
    text = typist.text
    assert ENDED.search(text), text[-2000:]
    assert set(typist.asked) == kinds
    # Each mistake was answered, and the same question asked again.
    for answer in ("I don't know the tile `zz`.", "There is no choice 99.",
                   "There is no discard to let go: it's your turn",
                   "Nothing declared; your turn goes on.", "That isn't one of the choices.",
                   "No call made."):
        assert answer in text, answer
    # The words that look, not move (a hint for two racks splits the tiles between them).
    two_racks = players == "2" or "--racks 2" in players
    hinted = "Your two racks, " if two_racks else "Nearest hands:"
    for answer in (hinted, "\nYear\n", "Discards (", "Exposures:",
                   "Type a number from the list, or:", "Calls only jokers would fill"):
        assert answer in text, answer
    assert "Declare Bot 1's" in text and "If you're wrong" in text
    # `pass` lets a discard go; on one's own turn it is explained (once per turn typed).
    assert "I don't know the tile `pass`" not in text
    assert text.count("There is no discard to let go") == typist.asked["turn"]
    # The call the typist made shows on its rack line from then on.
    assert re.search(r"^Your (rack|tiles): .*(exposed: |rack 1: [^—])", text, re.MULTILINE)
    if "pass" in kinds:
        for answer in ("Jokers are never passed, in any pass.", "You don't have",
                       "This pass can't be blind", "You can offer 0 to 3 tiles, not 9."):
            assert answer in text, answer
        # The direction is said before the pass, blind passes are explained, and no
        # pass is put forward as a numbered choice.
        said = text.index("First Charleston, pass right: give 3 tiles to Bot 1.")
        assert said < text.index("Done: first Charleston, pass right.")
        assert "This pass may be blind: give fewer than 3" in text
        assert not re.search(r"^ +\d+\. Pass ", text, re.MULTILINE)


def test_a_game_plays_its_house_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--auto", "--seed", "3", "--house", "charleston=none blanks=2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("American Mah Jongg (NMJL) (house options: charleston=none "
                          "blanks=2), card ")
    assert "Charleston" not in out and ENDED.search(out)


@pytest.mark.parametrize("players", ["4", "3", "2", "3 --racks 2", "4 --racks 2"])
def test_auto_play_finishes_a_game(players: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    images = tmp_path / "pictures"
    assert main(["play", "--auto", "--seed", "3", "--players", *players.split(),
                 "--images", str(images)]) == 0
    out = capsys.readouterr().out
    assert "seed 3, Normal bots. You are East." in out
    assert out.startswith("4-player Royale-style" if players == "4 --racks 2" else
                          "3-player Royale-style" if players == "3 --racks 2" else "")
    assert ENDED.search(out)
    names = sorted(p.name for p in images.iterdir())
    assert any(n.endswith("-table.png") for n in names)
    assert names[-1].endswith("-result.png")


def test_end_of_input_stops_cleanly(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    def no_more(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more)
    assert main(["play", "--seed", "1"]) == 0
    assert "Stopped." in capsys.readouterr().out


def test_play_again_rotates_east_to_the_right(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    asked: list[str] = []

    def answer(prompt: str) -> str:
        if prompt.startswith("Play again?"):
            asked.append(prompt)
            return "yes" if len(asked) == 1 else "no"
        return "pass" if "pass" in prompt else "1"

    monkeypatch.setattr("builtins.input", answer)
    assert main(["play", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert len(asked) == 2 and out.count("The deal passes to the right") == 1
    # South (Bot 1) deals the second game; the person who was East sits West, the last seat.
    assert "The deal passes to the right: Bot 1 is East now, and you sit West." in out
    assert re.search(r"^Series after 2 games: Player [+-]\d+, Bot 1 [+-]\d+, Bot 2 [+-]\d+\.$",
                     out, re.MULTILINE)


def test_auto_play_plays_a_series(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--auto", "--seed", "3", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("The deal passes to the right") == 2 and ENDED.search(out)
    assert "Bot 1 is East now, and you sit North." in out
    assert "Bot 2 is East now, and you sit West." in out
    assert "Series after 3 games:" in out


def test_a_seed_replays_the_whole_series(capsys: pytest.CaptureFixture[str]) -> None:
    # `--seed` fixed only the first deal: the later games' seeds were fresh every run.
    seeds = []
    for _ in range(2):
        assert main(["play", "--auto", "--players", "2", "--seed", "4", "--games", "3"]) == 0
        seeds.append(re.findall(r"Seed (\d+)\.", capsys.readouterr().out))
    assert len(seeds[0]) == 2 and seeds[0] == seeds[1]


def test_games_plays_that_many_without_asking(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # `--games 2` without `--auto` was ignored: one game, then "Play again?".
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        return "no" if "(yes/no)" in prompt else "pass" if "pass" in prompt else "1"

    monkeypatch.setattr("builtins.input", answer)
    assert main(["play", "--players", "2", "--seed", "3", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert not [prompt for prompt in asked if prompt.startswith("Play again?")]
    assert "Series after 2 games:" in out
