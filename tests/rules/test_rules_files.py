"""The rules files: every file parses, every answer fits Discord, the text agrees with the
engine's rules, and the loader reports broken files line by line."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from bot.engine.game.rules import ROYALE, SIAMESE, STANDARD, THREE_PLAYER
from bot.engine.game.scoring import (
    DEAD_HANDS_MULTIPLE,
    JOKERLESS_BONUS,
    SECOND_MAHJONG_PENALTY,
    SELF_PICK_BONUS,
    WALL_BONUS,
    tournament_throw_penalty,
)
from bot.engine.tiles import FLOWER, JOKER, STANDARD_COUNTS
from bot.rules import (
    MESSAGE_LIMIT,
    Kind,
    RulesError,
    full_messages,
    knowledge_base,
    load_knowledge_base,
    load_topics,
    parse_topic,
    rules_dir,
    short_answer,
    topics_list,
)

#: The topics the issue asks for (and a few more), by id.
REQUIRED_TOPICS = {
    "deal", "charleston", "blind-pass", "courtesy-pass", "calling", "claim-window", "jokers",
    "joker-exchange", "concealed-hands", "dead-hands", "mah-jongg", "payments", "wall-game",
    "tournament-scoring", "siamese", "three-player", "house-rules", "blanks",
    "house-payments", "hot-and-cold-wall", "royale", "bettor",
}

SOURCES = Path(__file__).resolve().parents[3] / "shared" / "rules-sources"

GOOD = """\
id: sample
title: A sample
kind: official
keywords: sample, example
short: A short answer that
  runs on to a second line.
differs: Tables agree.
---
The full text.
"""


def test_every_shipped_rules_file_parses() -> None:
    folder = rules_dir()
    files = sorted(folder.glob("*.md"))
    topics = load_topics(folder)
    assert [t.id + ".md" for t in topics] == [f.name for f in files]
    assert {t.id for t in topics} >= REQUIRED_TOPICS


def test_house_rules_are_marked_as_house_rules() -> None:
    kb = knowledge_base()
    assert kb.by_id["house-rules"].kind is Kind.HOUSE
    assert kb.by_id["blanks"].kind is Kind.HOUSE
    assert kb.by_id["jokers"].kind is Kind.OFFICIAL
    assert "house rule" in short_answer(kb.by_id["blanks"])


def test_every_answer_fits_discord_and_says_how_tables_differ() -> None:
    kb = knowledge_base()
    assert len(topics_list(kb.topics)) <= MESSAGE_LIMIT
    for topic in kb.topics:
        short = short_answer(topic, kb.topics[:3])
        assert len(short) <= MESSAGE_LIMIT, topic.id
        assert "Official vs. house rules:" in short and topic.differs in short
        pieces = full_messages(topic)
        assert all(len(piece) <= MESSAGE_LIMIT for piece in pieces), topic.id
        assert topic.title in pieces[0]
        assert len(topic.body) > len(topic.short), f"{topic.id}: the full text is the longer one"


def test_the_full_section_is_split_when_it_is_long() -> None:
    topic = knowledge_base().by_id["jokers"]
    pieces = full_messages(topic, limit=400)
    assert len(pieces) > 2 and all(len(p) <= 400 for p in pieces)
    assert all("(continued)" in p for p in pieces[1:])


def _mentions(topic_id: str, *numbers: int) -> None:
    topic = knowledge_base().by_id[topic_id]
    text = " ".join((topic.short, topic.body, topic.jongg))
    for number in numbers:
        assert re.search(rf"(?<![\d-]){number}(?!\d)", text), f"{topic_id} should say {number}"


def test_rules_text_agrees_with_the_engine() -> None:
    _mentions("tiles", sum(STANDARD_COUNTS), STANDARD_COUNTS[JOKER], STANDARD_COUNTS[FLOWER])
    _mentions("deal", STANDARD.dealer_tiles, STANDARD.other_tiles)
    _mentions("three-player", THREE_PLAYER.dealer_tiles, THREE_PLAYER.other_tiles)
    _mentions("siamese", SIAMESE.dealer_tiles, SECOND_MAHJONG_PENALTY, WALL_BONUS)
    _mentions("royale", ROYALE.dealer_tiles, ROYALE.other_tiles, ROYALE.wall_size(),
              ROYALE.ante, SECOND_MAHJONG_PENALTY, WALL_BONUS)
    _mentions("tournament-scoring", SELF_PICK_BONUS, JOKERLESS_BONUS, WALL_BONUS,
              *(tournament_throw_penalty(n) for n in (0, 2, 3)))
    _mentions("house-payments", STANDARD.pot_ante)
    _mentions("hot-and-cold-wall", STANDARD.wall_end_tiles)
    siamese = knowledge_base().by_id["siamese"]
    assert DEAD_HANDS_MULTIPLE == 4 and "four times" in siamese.body
    assert "no Charleston" in siamese.short
    assert "fewest" in knowledge_base().by_id["blind-pass"].jongg  # rules notes: fewest first


@pytest.mark.skipif(not SOURCES.is_dir(), reason="the rules sources are not beside the repo")
def test_no_sentence_is_copied_from_the_source_documents() -> None:
    def runs(text: str, size: int = 7) -> set[tuple[str, ...]]:
        words = re.findall(r"[a-z0-9]+", text.lower())
        return {tuple(words[i:i + size]) for i in range(len(words) - size + 1)}

    source = set().union(*(runs(p.read_text()) for p in SOURCES.glob("*.txt")))
    for path in sorted(rules_dir().glob("*.md")):
        copied = runs(path.read_text()) & source
        assert not copied, f"{path.name} repeats the sources: {[' '.join(c) for c in copied]}"


def test_a_good_file_parses_with_continuation_lines() -> None:
    topic, problems = parse_topic(GOOD, "sample.md")
    assert problems == [] and topic is not None
    assert topic.short == "A short answer that runs on to a second line."
    assert topic.keywords == ("sample", "example") and topic.jongg == ""
    assert topic.body == "The full text."


@pytest.mark.parametrize(("change", "expected"), [
    (lambda t: t.replace("---\n", ""), "sample.md: there is no `---` line"),
    (lambda t: t.replace("kind: official", "kind: rumour"), "sample.md:3: the kind `rumour`"),
    (lambda t: t.replace("id: sample", "id: other"), "sample.md:1: the id `other` must match"),
    (lambda t: t.replace("id: sample", "id: Bad_Id"), "sample.md:1: the id `Bad_Id` must be"),
    (lambda t: t.replace("differs: Tables agree.\n", ""), "the field `differs` is missing"),
    (lambda t: t.replace("title: A sample", "title: A sample\ntitle: Again"),
     "sample.md:3: the field `title` is given twice"),
    (lambda t: t.replace("keywords:", "colour: red\nkeywords:"),
     "sample.md:4: `colour: red` is not a header field"),
    (lambda t: t.replace("short: A short", "short: " + "x" * 700 + " A short"),
     "sample.md:5: `short` is"),
    (lambda t: t.replace("The full text.", ""), "the text after `---` is empty"),
    (lambda t: "  stray\n" + t, "sample.md:1: an indented line must continue a field"),
])
def test_problems_name_the_file_and_line(change: object, expected: str) -> None:
    assert callable(change)
    _, problems = parse_topic(change(GOOD), "sample.md")
    assert any(expected in p for p in problems), problems


def test_loading_a_folder_reports_every_problem_at_once(tmp_path: Path) -> None:
    (tmp_path / "sample.md").write_text(GOOD.replace("differs:", "related: nowhere\ndiffers:"))
    (tmp_path / "broken.md").write_text("id: broken\n")
    with pytest.raises(RulesError) as caught:
        load_topics(tmp_path)
    problems = caught.value.problems
    assert any("broken.md: there is no `---` line" in p for p in problems)
    assert any("sample.md: `related` names `nowhere`" in p for p in problems)


def test_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match=r"no `\*\.md` rules files"):
        load_topics(tmp_path)


def test_a_knowledge_base_can_be_loaded_from_another_folder(tmp_path: Path) -> None:
    (tmp_path / "sample.md").write_text(GOOD)
    kb = load_knowledge_base(tmp_path)
    assert [t.id for t in kb.topics] == ["sample"]
    answer = kb.lookup("example")
    assert answer is not None and answer.topic.id == "sample"


def test_the_rules_package_is_pure_python() -> None:
    import ast

    allowed_bot = {"bot.rules", "bot.library"}
    folder = Path(__file__).resolve().parents[2] / "bot" / "rules"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top == "bot":
                    assert any(name.startswith(a) for a in allowed_bot), (path.name, name)
                else:
                    assert top in sys.stdlib_module_names and top not in {
                        "asyncio", "sqlite3", "socket", "urllib", "http"}, (path.name, name)
