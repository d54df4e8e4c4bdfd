"""Finding the rules topic a question is about: a small, deterministic BM25F ranking.

Each topic is indexed by field (title, keywords, short answer, house-rule note, Jongg note,
full text), and a query term scores by BM25 over a weighted sum of its per-field counts, so a
word in a title counts more than the same word deep in the text. Words go through the same
normalizer on both sides:

1. lower-case words and numbers (`2-player` gives `2`, `player`; single digits become words);
2. synonyms people use at the table map to one word (`wild` to joker, `throw` to discard,
   `steal` to blind, `pong` to pung, `owe` to pay, …);
3. a light suffix stemmer (`passes`, `passed`, `passing` all give `pass`);
4. a few phrases become one term (`wall game`, `two player`, `self pick`);
5. common English words are dropped.

A query word the index has never seen is corrected to a known word one or two edits away
(`charlston`), and while typing, the last word also matches known words it begins
(autocomplete). No network, no models, and ties break by the topics' order, so the same query
always gives the same answer.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.topics import Topic

_WORD = re.compile(r"[a-z0-9]+")

_NUMBER_WORDS = {"1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
                 "7": "seven", "8": "eight", "9": "nine"}

_SYNONYM_GROUPS: dict[str, tuple[str, ...]] = {
    "mahjong": ("mahjongg", "mahj", "mj", "mah", "jongg", "majong", "mahjongs", "mahjonng"),
    "joker": ("wild", "wilds", "wildcard", "wildcards"),
    "exchange": ("swap", "swaps", "swapped", "swapping", "redeem", "redeemed", "redeeming"),
    "discard": ("throw", "throws", "threw", "thrown", "throwing", "toss", "tossed", "tosses"),
    "call": ("claim", "claims", "claimed", "claiming"),
    "pung": ("pong", "pongs", "triplet", "triplets", "trio"),
    "kong": ("quad", "quads"),
    "blind": ("steal", "steals", "stealing", "stole", "stolen"),
    "pay": ("money", "owe", "owes", "owed", "pays", "paid", "paying", "payment", "payments",
            "payout", "payouts", "cost", "costs", "collect", "collects", "cents", "quarters"),
    "score": ("points", "point", "scores", "scoring", "scored"),
    "east": ("dealer", "dealers"),
    "twoplayer": ("siamese", "2p", "twohanded"),
    "threeplayer": ("3p", "threehanded"),
    "soap": ("white",),
    "flower": ("season", "seasons", "flowers"),
    "expose": ("exposure", "exposures", "exposed", "exposing", "meld", "melds", "melded"),
    "concealed": ("hidden", "closed", "conceal"),
    "draw": ("draws", "drew", "drawn", "drawing", "pick", "picks", "picked", "picking"),
    "player": ("people", "person", "persons", "players", "seat", "seats"),
    "color": ("colour", "colours", "colors", "colored", "coloured"),
    "stop": ("veto", "vetoes", "vetoed", "stops", "stopping", "stopped"),
    "win": ("wins", "won", "winning", "winner", "winners"),
    "wind": ("news",),
    "double": ("twice", "doubles", "doubled", "doubling"),
    "blank": ("blanks", "zombie"),
    "misname": ("misnamed", "misnames", "misnaming", "misnamer"),
}
SYNONYMS: dict[str, str] = {word: canon for canon, words in _SYNONYM_GROUPS.items()
                            for word in words}

_PHRASES_RAW = (
    ("wall game", "wallgame"), ("no win", "wallgame"), ("run out", "wallgame"),
    ("two player", "twoplayer"), ("two hand", "twoplayer"), ("three player", "threeplayer"),
    ("three hand", "threeplayer"), ("self draw", "selfpick"), ("house rule", "houserule"),
)

_STOPWORDS_RAW = (
    "a about after again also am an and any are as at be been being but by can could did do "
    "does doing done for from get gets got had has have having how i if in into is it its "
    "just let lets me mean means might many much must my of on or our out please rule rules "
    "should so some than that the their them then there these they this those to tell us "
    "was we were what whats when where which while who why will with would you your happen "
    "happens happened know want"
)

_DOUBLED = re.compile(r"([bcdfgkmnprt])\1$")


def stem(word: str) -> str:
    """A light English suffix stemmer: plurals, -ing, -ed, -ly and a final -e."""
    if len(word) <= 3 or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            if _DOUBLED.search(word):
                word = word[:-1]
            break
    if word.endswith("ly") and len(word) > 5:
        word = word[:-2]
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


def _words(text: str) -> list[str]:
    """Raw lower-case words, with single digits spelled out and synonyms mapped."""
    words = []
    for word in _WORD.findall(text.lower().replace("'", "").replace("\u2019", "")):
        word = _NUMBER_WORDS.get(word, word)
        words.append(SYNONYMS.get(word, word))
    return words


def _stemmed(text: str) -> list[str]:
    out: list[str] = []
    for word in _words(text):
        term = stem(word)
        if not out or out[-1] != term:  # "mah jongg" is one word, not two
            out.append(term)
    return out


PHRASES: dict[tuple[str, ...], str] = {tuple(_stemmed(raw)): term for raw, term in _PHRASES_RAW}
STOPWORDS = frozenset(stem(w) for w in _STOPWORDS_RAW.split()) - {
    stem(canon) for canon in _SYNONYM_GROUPS}
_LONGEST_PHRASE = max(len(p) for p in PHRASES)


def terms(text: str) -> list[str]:
    """The index terms of a text, in order (repeats kept)."""
    stems = _stemmed(text)
    out: list[str] = []
    index = 0
    while index < len(stems):
        for size in range(_LONGEST_PHRASE, 1, -1):
            phrase = PHRASES.get(tuple(stems[index:index + size]))
            if phrase is not None:
                out.append(phrase)
                index += size
                break
        else:
            if stems[index] not in STOPWORDS:
                out.append(stems[index])
            index += 1
    return out


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or `limit + 1` as soon as it must exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (char_a != char_b)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


#: Field weights and length normalization (b): titles and keywords are short and curated, so
#: they weigh most and are barely length-normalized.
FIELDS: tuple[tuple[str, float, float], ...] = (
    ("title", 4.0, 0.3),
    ("keywords", 3.0, 0.3),
    ("short", 2.0, 0.6),
    ("differs", 1.0, 0.6),
    ("jongg", 0.5, 0.6),
    ("body", 1.0, 0.75),
)
K1 = 1.2
#: Each query term that completes one of a topic's keywords (or its title) as a whole adds
#: this share of its idf: curated keywords such as "joker in a pair" then decide between
#: topics that share single words.
KEYWORD_BONUS = 1.5


@dataclass(frozen=True)
class Hit:
    """A topic that matched a query, with its score (higher is better)."""

    topic: Topic
    score: float


def _field_text(topic: Topic, name: str) -> str:
    if name == "keywords":
        return " ".join((*topic.keywords, topic.id.replace("-", " ")))
    value: str = getattr(topic, name)
    return value


class RulesIndex:
    """A BM25F index over topics. Build once; `search` and `complete` are read-only."""

    def __init__(self, topics: Sequence[Topic]) -> None:
        self.topics = tuple(topics)
        self._tf: list[dict[str, float]] = []
        per_field = [[terms(_field_text(topic, name)) for name, _, _ in FIELDS]
                     for topic in self.topics]
        count = max(len(self.topics), 1)
        averages = [max(sum(len(doc[f]) for doc in per_field) / count, 1.0)
                    for f in range(len(FIELDS))]
        document_frequency: Counter[str] = Counter()
        for doc in per_field:
            weighted: dict[str, float] = {}
            for f, (_, weight, b) in enumerate(FIELDS):
                norm = 1.0 - b + b * len(doc[f]) / averages[f]
                for term, tf in Counter(doc[f]).items():
                    weighted[term] = weighted.get(term, 0.0) + weight * tf / norm
            self._tf.append(weighted)
            document_frequency.update(weighted.keys())
        self._keysets = [
            tuple(found for found in (frozenset(terms(text)) for text in
                                      (*topic.keywords, topic.title, topic.id.replace("-", " ")))
                  if found)
            for topic in self.topics]
        self._idf = {term: math.log(1.0 + (len(self.topics) - df + 0.5) / (df + 0.5))
                     for term, df in document_frequency.items()}
        self.vocabulary = tuple(sorted(self._idf))
        self._df = document_frequency
        # Raw words of titles and keywords, for completing a half-typed last word.
        raw: dict[str, set[str]] = {}
        for topic in self.topics:
            for text in (topic.title, *topic.keywords, topic.short, topic.body):
                for word in _words(text):
                    for term in terms(word):
                        raw.setdefault(word, set()).add(term)
        self._raw = {word: tuple(sorted(found)) for word, found in sorted(raw.items())}

    def correct(self, term: str) -> str | None:
        """A known term for an unknown one: one edit away (two for long words), the most
        common such term first; None when nothing is close."""
        if term in self._idf:
            return term
        if len(term) < 4:
            return None
        limit = 1 if len(term) < 8 else 2
        best: tuple[int, int, str] | None = None
        for known in self.vocabulary:
            distance = edit_distance(term, known, limit)
            if distance <= limit:
                key = (distance, -self._df[known], known)
                if best is None or key < best:
                    best = key
        return None if best is None else best[2]

    def _query_terms(self, query: str, *, prefix: bool) -> dict[str, float]:
        found: dict[str, float] = {}
        for term in terms(query):
            known = self.correct(term)
            if known is not None:
                found[known] = 1.0
        if prefix:
            words = _WORD.findall(query.lower())
            last = words[-1] if words and not query[-1:].isspace() else ""
            if len(last) >= 2:
                # The shortest word it begins is the likeliest ("jok" is "joker"); a few
                # longer ones count a little.
                completions = sorted((w for w in self._raw if w.startswith(last)),
                                     key=lambda w: (len(w), w))
                for rank, word in enumerate(completions[:6]):
                    for term in self._raw[word]:
                        found[term] = max(found.get(term, 0.0), 1.0 if rank == 0 else 0.1)
        return found

    def search(self, query: str, limit: int = 5, *, prefix: bool = False) -> list[Hit]:
        """The best topics for a question, best first (only topics sharing a term with it).
        With `prefix`, the last word may be unfinished (as while typing)."""
        wanted = self._query_terms(query, prefix=prefix)
        if not wanted:
            return []
        exact = {term for term, boost in wanted.items() if boost == 1.0}
        scored = []
        for order, (topic, tf) in enumerate(zip(self.topics, self._tf, strict=True)):
            score = 0.0
            for term, boost in wanted.items():
                weight = tf.get(term)
                if weight:
                    score += boost * self._idf[term] * weight * (K1 + 1) / (K1 + weight)
            covered: set[str] = set()
            for keyset in self._keysets[order]:
                if keyset <= exact:
                    covered |= keyset
            score += KEYWORD_BONUS * sum(self._idf[term] for term in covered)
            if score > 0:
                scored.append((-score, order, topic))
        scored.sort(key=lambda item: (item[0], item[1]))
        return [Hit(topic, -negative) for negative, _, topic in scored[:limit]]
