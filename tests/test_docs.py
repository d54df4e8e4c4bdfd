"""The README stays a landing page and the guides behind it stay reachable: the README is at
most 300 lines and keeps the two commands people copy (install and run; run the tests), it
links every guide in docs/, each guide opens with a table of contents of its sections, and
every pointer in these documents leads somewhere real: a relative link to a file that exists
(and its #anchor to a heading of that file), and a repository path written in backticks
(`bot/tables/service.py`, `tests/discord/fake/`) to a file or folder that exists."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
DOCUMENTS = [README, *DOCS]

#: The two commands the README must show exactly as they are (issue #31): the one that installs
#: and runs Jongg on a fresh machine, and the one that installs and runs the tests.
INSTALL_AND_RUN = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/jongg"
RUN_THE_TESTS = "bash scripts/test.sh"

#: The guides written for one kind of reader, each opening with whom it is for and its contents.
GUIDES = ["playing.md", "server.md", "league.md", "operating.md", "rules-notes.md",
          "performance.md", "contributing.md"]

#: Names in backticks that are the reader's own files, not the repository's.
READERS_FILES = {"my-card.jongg"}

#: Folders that a checkout makes or a tool caches, never written about as the repository's.
NOT_THE_REPOSITORY = {".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache",
                      ".ruff_cache", ".hypothesis"}

FENCE = re.compile(r"^```.*?^```[^\n]*$", re.M | re.S)
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE = re.compile(r"`([^`\n]+)`")
PATHLIKE = re.compile(r"^\.?[\w.-]+(?:/[\w.*-]+)*/?$")
FILENAME = re.compile(r"^[\w.-]+\.(?:py|md|toml|jongg|sh|json|txt|cfg|ini|example)$")


def prose(path: Path) -> str:
    """The document without its fenced code blocks (shell sessions and card lines, not prose)."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text, lower case, punctuation dropped, spaces as
    hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file (a repeated heading gets -1, -2 …, as GitHub's)."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, text in HEADING.findall(prose(path)):
        base = slug(text)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    """The targets of the document's Markdown links and images outside code."""
    return list(LINK.findall(CODE.sub("", prose(path))))


def repository_files() -> set[str]:
    """The names of the repository's files, wherever they are (not the checkout's caches)."""
    names: set[str] = set()
    for _folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in NOT_THE_REPOSITORY]
        names.update(files)
    return names


def top_level() -> set[str]:
    return {p.name for p in ROOT.iterdir()} - NOT_THE_REPOSITORY


def written_paths(path: Path) -> list[str]:
    """The repository paths the document writes in backticks: a path under one of the
    repository's top-level folders or files (`bot/tables/service.py`, `.ci/run`), or a file's
    bare name (`timekeeping.py`, `.env.example`)."""
    top = top_level()
    found = []
    for span in CODE.findall(prose(path)):
        if not PATHLIKE.match(span):
            continue
        if ("/" in span and span.split("/")[0] in top) or FILENAME.match(span):
            found.append(span)
    return found


def broken_links(path: Path) -> list[str]:
    problems = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            problems.append(f"{target}: no file {linked}")
        elif not linked.is_relative_to(ROOT):
            problems.append(f"{target}: outside the repository")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            problems.append(f"{target}: no heading #{anchor} in {linked.name}")
    return problems


def missing_paths(path: Path) -> list[str]:
    names = repository_files()
    problems = []
    for written in written_paths(path):
        if "/" in written:
            if not list(ROOT.glob(written.rstrip("/"))):
                problems.append(written)
        elif written not in READERS_FILES and written not in names:
            problems.append(written)
    return problems


def sh_lines(path: Path) -> list[str]:
    """The lines of the document's ```sh blocks."""
    text = path.read_text(encoding="utf-8")
    return [line.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)
            for line in block.splitlines()]


def test_the_readme_is_a_landing_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move detail into docs/"


def test_the_readme_keeps_its_two_commands() -> None:
    commands = sh_lines(README)
    assert INSTALL_AND_RUN in commands
    assert RUN_THE_TESTS in commands


def test_the_readme_links_every_guide() -> None:
    linked = {(README.parent / t.partition("#")[0]).resolve() for t in links(README)}
    unlinked = [doc.name for doc in DOCS if doc.resolve() not in linked]
    assert not unlinked, f"README.md links no {unlinked}"
    assert set(GUIDES) <= {doc.name for doc in DOCS}


@pytest.mark.parametrize("name", GUIDES)
def test_a_guide_opens_with_its_contents(name: str) -> None:
    """Each guide says whom it is for and lists its sections before the first of them."""
    guide = ROOT / "docs" / name
    text = prose(guide)
    opening = text.split("\n## ", 1)[0]
    assert re.match(r"For\b", opening.split("\n\n", 2)[1]), f"{name}: for whom?"
    sections = {slug(h) for level, h in HEADING.findall(text) if level == "##"}
    listed = {t[1:] for t in LINK.findall(opening) if t.startswith("#")}
    assert sections and sections == listed, f"{name}: contents {listed} != sections {sections}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_link_leads_somewhere(path: Path) -> None:
    assert links(path) or path.name in ("card-language.md", "architecture.md")
    assert not broken_links(path)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_path_written_exists(path: Path) -> None:
    assert not missing_paths(path)


def test_the_checks_see_what_they_check() -> None:
    """The checks find the pointers they are meant to: headings in code blocks are no anchors,
    a linked heading's anchor is GitHub's, and paths are told from zone names and commands."""
    assert slug("Your games (`/mj games`)") == "your-games-mj-games"
    assert slug("Clocks, quiet hours and vacations") == "clocks-quiet-hours-and-vacations"
    card_language = ROOT / "docs" / "card-language.md"
    assert "lines-starting-with--are-comments" not in anchors(card_language)
    readme_paths = {p for doc in DOCUMENTS for p in written_paths(doc)}
    assert {"bot/tables/timekeeping.py", "tests/discord/fake"} <= readme_paths
    assert not {"Etc/GMT-9", "America/New_York", "/mj games"} & readme_paths
