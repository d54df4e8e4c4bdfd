"""Every `jongg` command the README and the guides in docs/ show, every example in a command's
`--help`, and every command `jongg`'s overview suggests runs as written and succeeds, so the
examples people copy stay true. An `analyze` example must be a real hand on our card: 13 or 14
tiles a set can hold, and a hand the card can still make."""

from __future__ import annotations

import argparse
import io
import re
import shlex
from pathlib import Path

import pytest

from bot.cli.main import build_parser, main
from bot.library import shipped_card_paths

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md"))]


def readme_commands() -> list[str]:
    """The `jongg` commands in the shell blocks of the README and the guides, without the
    `.venv/bin/` prefix."""
    commands: list[str] = []
    text = "\n".join(doc.read_text(encoding="utf-8") for doc in DOCUMENTS)
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            while words:
                command = words[:words.index("&&")] if "&&" in words else words
                words = words[len(command) + 1:]
                if command[0] == ".venv/bin/jongg":
                    commands.append(shlex.join(["jongg", *command[1:]]))
    return commands


def help_examples(parser: argparse.ArgumentParser) -> list[str]:
    """The example lines in this parser's help and in its subcommands', recursively."""
    found = re.findall(r"^  (jongg .+)$", parser.format_help(), re.M)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += help_examples(sub)
    return found


README_COMMANDS = readme_commands()
HELP_EXAMPLES = help_examples(build_parser())


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder to run examples in, holding the `my-card.jongg` they check (a card a person
    wrote; here, our teaching card), with no terminal input (`play` stops at its first
    prompt)."""
    teaching = next(p for p in shipped_card_paths() if p.stem == "jongg-teaching")
    (tmp_path / "my-card.jongg").write_text(teaching.read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    return tmp_path


def run_example(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    """Run one example command line; return what it printed, after checking it succeeded."""
    words = shlex.split(command)
    assert words[0] == "jongg"
    try:
        code = main(words[1:])
    except SystemExit as stopped:  # --help
        code = int(stopped.code or 0)
    out, err = capsys.readouterr()
    assert code == 0, f"{command} exited {code}: {err}"
    assert "jongg:" not in err, err
    assert out.strip(), f"{command} printed nothing"
    if words[1:2] == ["analyze"]:
        assert re.search(r"^Hand: .*\((13|14) tiles", out, re.M), out
        assert "No hand on this card can be made" not in out
    return out


def test_the_readme_and_the_help_have_examples() -> None:
    assert len(README_COMMANDS) >= 10
    assert sum(c.startswith("jongg analyze ") for c in README_COMMANDS) == 2
    assert sum(c.startswith("jongg analyze ") for c in HELP_EXAMPLES) == 2


@pytest.mark.parametrize("command", README_COMMANDS)
def test_readme_example(command: str, workdir: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
    run_example(command, capsys)


@pytest.mark.parametrize("command", HELP_EXAMPLES)
def test_help_example(command: str, workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # An example may chain commands with && (one writes a file the next reads), as in a shell.
    for part in command.split(" && "):
        run_example(part, capsys)


def test_the_overviews_suggestions(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overview = run_example("jongg", capsys)
    suggestions = re.findall(r"^  (jongg.*?)(?:\s{2,}|$)", overview.split("\nTry:\n")[1], re.M)
    assert len(suggestions) >= 4
    for command in suggestions:
        run_example(command, capsys)
