"""Finding topics: normalization, the ranking on real questions, autocomplete, and splitting
long text into messages."""

from __future__ import annotations

import pytest

from bot.rules import KnowledgeBase, RulesIndex, knowledge_base, split_text
from bot.rules.search import edit_distance, stem, terms
from bot.rules.topics import Kind, Topic

#: Questions people ask, and the topic that should answer each.
QUESTIONS = [
    ("can the bot pass for me automatically", "auto-play"),
    ("how do I turn on auto discard", "auto-play"),
    ("quiet hours", "clocks"),
    ("can my clock pause at night", "clocks"),
    ("I'm going on vacation", "clocks"),
    ("remind me by DM", "clocks"),
    ("skip calls that would kill my hand", "auto-play"),
    ("a bot took my seat, how do I get it back", "stand-ins"),
    ("reclaim", "stand-ins"),
    ("can someone substitute for me", "stand-ins"),
    ("how many jokers in a pair", "jokers"),
    ("can a joker be in a single", "jokers"),
    ("can I pass a joker", "jokers"),
    ("can I swap a joker", "joker-exchange"),
    ("can I refuse a joker exchange", "joker-exchange"),
    ("who pays double when someone wins off a discard", "payments"),
    ("jokerless bonus", "payments"),
    ("self picked payment", "payments"),
    ("what happens when the tiles run out", "wall-game"),
    ("pot", "house-payments"),
    ("quarters pot ante", "house-payments"),
    ("who pays for the table", "house-payments"),
    ("hot wall", "hot-and-cold-wall"),
    ("cold wall", "hot-and-cold-wall"),
    ("can we play without walls", "deal"),
    ("no dice", "deal"),
    ("skip the charleston", "charleston"),
    ("can I call a tile for a pair", "calling"),
    ("do I need a natural tile to call", "calling"),
    ("exposure", "calling"),
    ("how long can I claim a discard", "claim-window"),
    ("is it too late to call after they racked", "claim-window"),
    ("stealing tiles on the last pass", "blind-pass"),
    ("how many tiles does east get", "deal"),
    ("dealer", "deal"),
    ("who goes first", "turns"),
    ("what is a concealed hand", "concealed-hands"),
    ("what does X and C mean on the card", "reading-the-card"),
    ("what do the colors on the card mean", "reading-the-card"),
    ("can I declare my own hand dead", "dead-hands"),
    ("tournament points for self pick", "tournament-scoring"),
    ("discard penalty tournament", "tournament-scoring"),
    ("two player mahjong", "siamese"),
    ("2-player rules", "siamese"),
    ("royale", "royale"),
    ("four players with two racks each", "royale"),
    ("playing with three people", "three-player"),
    ("3 player", "three-player"),
    ("blanks", "blanks"),
    ("can we stop the second charleston", "charleston"),
    ("courtesy pass across", "courtesy-pass"),
    ("seven pairs no jokers", "singles-and-pairs"),
    ("wrong tile name", "table-faults"),
    ("picked too many tiles", "table-faults"),
    ("how do I win", "mah-jongg"),
    ("heavenly hand", "mah-jongg"),
    ("what tiles are in the set", "tiles"),
    ("how many flowers", "tiles"),
    ("house rules", "house-rules"),
    ("bettor", "bettor"),
    ("can a fifth player bet on a hand", "bettor"),
]


@pytest.mark.parametrize(("word", "expected"), [
    ("jokers", "joker"), ("passes", "pass"), ("passed", "pass"), ("passing", "pass"),
    ("exchange", "exchang"), ("exchanging", "exchang"), ("concealed", "conceal"),
    ("tiles", "tile"), ("tile", "tile"), ("stopped", "stop"), ("red", "red"), ("2026", "2026"),
    ("pairs", "pair"), ("kongs", "kong"),
])
def test_stemming(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_normalization_maps_synonyms_phrases_numbers_and_drops_common_words() -> None:
    assert terms("How many WILDS can I throw?") == ["joker", "discard"]
    assert terms("a wall game") == ["wallgame"]
    assert terms("2-player Siamese") == ["twoplayer", "twoplayer"]
    assert terms("Mah-Jongg") == ["mahjong"]
    assert terms("self-picked") == ["selfpick"]
    assert terms("East's pong") == ["east", "pung"]
    assert terms("the and of") == []


def test_edit_distance_stops_early() -> None:
    assert edit_distance("charlston", "charleston", 1) == 1
    assert edit_distance("abc", "xyz", 1) == 2


@pytest.mark.parametrize(("question", "expected"), QUESTIONS)
def test_questions_find_their_topic(question: str, expected: str) -> None:
    kb = knowledge_base()
    answer = kb.lookup(question)
    ranking = [(h.topic.id, round(h.score, 2)) for h in kb.index.search(question)]
    assert answer is not None and answer.topic.id == expected, (question, ranking)


def test_every_topic_is_found_by_its_id_title_and_keywords() -> None:
    kb = knowledge_base()
    for topic in kb.topics:
        for text in (topic.id, topic.title, topic.title.upper()):
            answer = kb.lookup(text)
            assert answer is not None and answer.topic is topic, text
        assert kb.index.search(topic.title)[0].topic is topic, topic.title
        assert kb.index.search(" ".join(topic.keywords))[0].topic is topic, topic.id
        for keyword in topic.keywords:
            assert topic in [h.topic for h in kb.index.search(keyword, limit=25)], keyword


def test_every_topic_is_reachable_by_autocomplete() -> None:
    kb = knowledge_base()
    # The menus under the topic list hold one kind of rule each, at most 25 (Discord's limit).
    for kind in Kind:
        assert sum(t.kind is kind for t in kb.topics) <= 25, kind
    assert kb.complete("") == list(kb.topics[:25])
    for topic in kb.topics:
        assert kb.complete(topic.title)[0] is topic
        assert topic in kb.complete(topic.title[:4]), topic.title[:4]
        assert topic in kb.complete(topic.keywords[0]), topic.keywords[0]


def test_autocomplete_reads_half_typed_words() -> None:
    kb = knowledge_base()
    assert kb.complete("char")[0].id == "charleston"
    assert kb.complete("how many jok")[0].id == "jokers"
    assert kb.complete("two pl")[0].id == "siamese"
    assert kb.complete("zzzz") == []
    assert len(kb.complete("the")) <= 25


def test_typos_are_corrected_and_nonsense_finds_nothing() -> None:
    kb = knowledge_base()
    answer = kb.lookup("charlston")
    assert answer is not None and answer.topic.id == "charleston"
    assert kb.lookup("pizza delivery") is None
    assert kb.lookup("the of and") is None


def test_close_matches_are_offered_too() -> None:
    answer = knowledge_base().lookup("courtesy pass across")
    assert answer is not None and answer.topic.id == "courtesy-pass"
    assert "charleston" in [t.id for t in answer.also]


def _topic(topic_id: str, title: str, order_text: str = "same words") -> Topic:
    return Topic(topic_id, title, Kind.OFFICIAL, ("shared",), (), order_text, "none", "",
                 order_text + " body", f"{topic_id}.md")


def test_ranking_is_deterministic_and_ties_keep_file_order() -> None:
    topics = [_topic("zeta", "Zeta"), _topic("alpha", "Alpha")]
    first = RulesIndex(topics).search("shared words")
    again = RulesIndex(topics).search("shared words")
    assert [h.topic.id for h in first] == [h.topic.id for h in again] == ["zeta", "alpha"]
    assert first[0].score == pytest.approx(first[1].score)
    assert KnowledgeBase(topics).complete("") == topics


def test_split_text_cuts_between_paragraphs_then_lines_then_words() -> None:
    text = "\n\n".join(["alpha " * 30, "beta line\n" * 20, "gamma"])
    pieces = split_text(text, 200)
    assert all(len(p) <= 200 for p in pieces)
    assert " ".join(" ".join(pieces).split()) == " ".join(text.split())
    assert split_text("short") == ["short"]
    assert split_text("x" * 450, 200) == ["x" * 200, "x" * 200, "x" * 50]
    with pytest.raises(ValueError):
        split_text("text", 5)
