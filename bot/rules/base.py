"""The rules knowledge base: the topics from `data/rules/`, their index, and look-ups.

`knowledge_base()` loads and checks every topic file once (a broken file raises `RulesError`
with every problem, so the bot refuses to start rather than answer wrongly later). A look-up
takes what a person typed: a topic id or title picks that topic; anything else is a question
answered by the search ranking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.rules.messages import MESSAGE_LIMIT, full_messages, short_answer, topics_list
from bot.rules.search import RulesIndex, terms
from bot.rules.topics import RulesError, Topic, load_topics

#: Autocomplete shows at most this many choices (Discord's limit).
MAX_CHOICES = 25
#: Other topics named under an answer when they scored at least this share of the best.
ALSO_SHARE = 0.6


@dataclass(frozen=True)
class Answer:
    """The topic chosen for a look-up and other topics that matched nearly as well."""

    topic: Topic
    also: tuple[Topic, ...] = ()


class KnowledgeBase:
    """The topics in file order, by id, with a search index."""

    def __init__(self, topics: Sequence[Topic]) -> None:
        self.topics = tuple(topics)
        self.by_id = {topic.id: topic for topic in self.topics}
        self.index = RulesIndex(self.topics)
        problems = []
        for topic in self.topics:
            for keyword in topic.keywords:
                if not terms(keyword):
                    problems.append(f"{topic.source}: the keyword `{keyword}` is only common "
                                    "words, so no search can use it; make it more specific.")
            if len(short_answer(topic, self.topics[:3])) > MESSAGE_LIMIT:
                problems.append(f"{topic.source}: the short answer is longer than one message; "
                                "shorten `short`, `differs` or `jongg`.")
            if any(len(m) > MESSAGE_LIMIT for m in full_messages(topic)):
                problems.append(f"{topic.source}: the full text can't be split into messages.")
        if len(topics_list(self.topics)) > MESSAGE_LIMIT:
            problems.append("there are too many topics to list in one message.")
        if problems:
            raise RulesError(problems)

    def topic(self, topic_id: str) -> Topic | None:
        """The topic with this id, if any."""
        return self.by_id.get(topic_id.strip().lower())

    def exact(self, text: str) -> Topic | None:
        """The topic whose id or title is exactly `text` (any case), if any."""
        wanted = text.strip().lower()
        found = self.by_id.get(wanted)
        if found is not None:
            return found
        return next((t for t in self.topics if t.title.lower() == wanted), None)

    def lookup(self, text: str) -> Answer | None:
        """The answer to what a person typed: a topic named exactly, else the best match for
        the question, with other close matches; None when nothing matches."""
        found = self.exact(text)
        if found is not None:
            return Answer(found)
        hits = self.index.search(text, limit=3)
        if not hits:
            return None
        best = hits[0]
        also = tuple(h.topic for h in hits[1:] if h.score >= ALSO_SHARE * best.score)
        return Answer(best.topic, also)

    def complete(self, current: str, limit: int = MAX_CHOICES) -> list[Topic]:
        """Autocomplete: every topic while nothing is typed; else topics whose title or id
        holds the text, then the best matches for it read as a half-typed question."""
        wanted = current.strip().lower()
        if not wanted:
            return list(self.topics[:limit])
        chosen: list[Topic] = []

        def add(topic: Topic) -> None:
            if topic not in chosen:
                chosen.append(topic)

        for topic in self.topics:
            if topic.title.lower().startswith(wanted) or topic.id.startswith(wanted):
                add(topic)
        for topic in self.topics:
            if wanted in topic.title.lower() or wanted in topic.id:
                add(topic)
        for hit in self.index.search(current, limit=limit, prefix=True):
            add(hit.topic)
        return chosen[:limit]


def rules_dir() -> Path:
    """Where the rules files are: `data/rules` of a checkout or an installed package."""
    from bot.library import data_dir

    return data_dir() / "rules"


@cache
def knowledge_base() -> KnowledgeBase:
    """The shipped rules, loaded and checked once."""
    return KnowledgeBase(load_topics(rules_dir()))


def load_knowledge_base(folder: Path) -> KnowledgeBase:
    """Rules from another folder (tests, or a server trying edits before shipping them)."""
    return KnowledgeBase(load_topics(folder))


__all__ = ["Answer", "KnowledgeBase", "RulesError", "knowledge_base", "load_knowledge_base",
           "rules_dir"]
