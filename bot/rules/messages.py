"""Rules topics as chat messages: the short answer, the full section in pieces that fit a
message, and the list of topics.

Plain text with light Markdown (bold, lists), so it reads the same in Discord and in a
terminal. Every function here returns messages no longer than `limit` characters (Discord's
2000 by default); `split_text` cuts at paragraph, then line, then word boundaries.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules.topics import Kind, Topic

MESSAGE_LIMIT = 2000
DIFFERS_LABEL = "Official vs. house rules"
JONGG_LABEL = "On Jongg"


def heading(topic: Topic) -> str:
    """The topic's title with where its rule comes from."""
    return f"**{topic.title}** · *{topic.kind.label}*"


def short_answer(topic: Topic, also: Sequence[Topic] = ()) -> str:
    """The short answer: a few sentences, how tables differ, what Jongg does, and (for a
    free-text question) other topics that matched too."""
    parts = [heading(topic), topic.short, f"**{DIFFERS_LABEL}:** {topic.differs}"]
    if topic.jongg:
        parts.append(f"**{JONGG_LABEL}:** {topic.jongg}")
    if also:
        parts.append("Also about this: " + ", ".join(f"`{t.id}`" for t in also)
                     + " (ask `/rules` with one of these).")
    return "\n".join(parts)


def full_text(topic: Topic) -> str:
    """The whole section, with the house-rule and Jongg notes at the end."""
    parts = [heading(topic), topic.body, f"**{DIFFERS_LABEL}:** {topic.differs}"]
    if topic.jongg:
        parts.append(f"**{JONGG_LABEL}:** {topic.jongg}")
    return "\n\n".join(parts)


def _hard_split(text: str, limit: int) -> list[str]:
    """Cut a too-long line at spaces (or anywhere, for a word longer than `limit`)."""
    pieces: list[str] = []
    while len(text) > limit:
        cut = text.rfind(" ", 0, limit + 1)
        if cut <= 0:
            cut = limit
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    if text:
        pieces.append(text)
    return pieces


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut between paragraphs when possible,
    else between lines, else between words."""
    if limit < 20:
        raise ValueError("a message limit below 20 characters can't hold a sentence")
    units: list[tuple[str, str]] = []  # (text, the separator that followed it)
    for paragraph in text.strip().split("\n\n"):
        lines = paragraph.split("\n")
        for index, line in enumerate(lines):
            glue = "\n" if index < len(lines) - 1 else "\n\n"
            units.extend((piece, glue) for piece in _hard_split(line, limit))
    chunks: list[str] = []
    current = ""
    pending = ""
    for piece, glue in units:
        candidate = current + pending + piece if current else piece
        if len(candidate) <= limit:
            current = candidate
        else:
            chunks.append(current)
            current = piece
        pending = glue
    if current:
        chunks.append(current)
    return chunks


def full_messages(topic: Topic, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The full section as messages of at most `limit` characters; pieces after the first
    say which topic they continue."""
    more = f"{heading(topic)} (continued)\n"
    first, *rest = split_text(full_text(topic), limit)
    if not rest:
        return [first]
    rest = split_text("\n\n".join(rest), limit - len(more))
    return [first, *(more + piece for piece in rest)]


def topics_list(topics: Sequence[Topic]) -> str:
    """The list of topics by kind, with how to ask."""
    lines = ["**Rules topics.** Pick one with `/rules topic:`, or ask in your own words, "
             "like `/rules how many jokers in a pair`."]
    for kind, label in ((Kind.OFFICIAL, "The standard game"), (Kind.VARIANT, "Variants"),
                        (Kind.HOUSE, "House rules")):
        chosen = [f"`{t.id}`" for t in topics if t.kind is kind]
        if chosen:
            lines.append(f"**{label}:** " + ", ".join(chosen))
    return "\n".join(lines)
