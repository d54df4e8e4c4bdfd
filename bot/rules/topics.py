"""Rules topics: one Markdown file per topic under `data/rules/`, read and checked here.

A topic file is a small header of `field: value` lines, a line holding only `---`, then the
full section in Markdown. A value may run on over the next lines if they are indented, so long
answers stay readable in an editor:

    id: jokers
    title: Jokers
    kind: official
    keywords: joker, wild, natural, pair
    related: joker-exchange, calling
    short: Jokers fill only groups of three or more identical tiles …
      (an indented line continues the field above)
    differs: Where the official standard and common house rules part ways.
    jongg: What Jongg does, when it has a choice (optional).
    ---
    The full section, in Markdown.

Files are people's work, so every problem is collected (with its file and line) and reported
at once by `RulesError`, the way card files are checked: a broken file stops the bot at start
instead of failing one look-up later.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

#: File names (and so topic ids): lower-case words joined by hyphens. Short, because a topic id
#: travels inside a button's custom id (at most 100 characters).
TOPIC_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_ID = 40
SUFFIX = ".md"
SEPARATOR = "---"

#: The longest value each field may hold, so every short answer fits one chat message.
LIMITS = {
    "id": MAX_ID,
    "title": 60,
    "kind": 10,
    "keywords": 600,
    "related": 200,
    "short": 650,
    "differs": 550,
    "jongg": 450,
}
REQUIRED = ("id", "title", "kind", "keywords", "short", "differs")
MAX_BODY = 12_000
MAX_KEYWORD = 40


class Kind(Enum):
    """Where a topic's rule comes from, shown beside its title."""

    OFFICIAL = "official"
    VARIANT = "variant"
    HOUSE = "house"

    @property
    def label(self) -> str:
        """How the kind is shown to players."""
        return {"official": "official rule", "variant": "variant",
                "house": "house rule"}[self.value]


@dataclass(frozen=True)
class Topic:
    """One rules topic. `short` answers the usual question in a few sentences, `differs` says
    where the official standard and common house rules differ, `jongg` (may be empty) what the
    bot does, and `body` is the full section."""

    id: str
    title: str
    kind: Kind
    keywords: tuple[str, ...]
    related: tuple[str, ...]
    short: str
    differs: str
    jongg: str
    body: str
    source: str


class RulesError(Exception):
    """Rules files with problems; `problems` holds one `file:line: message` per problem."""

    def __init__(self, problems: list[str]) -> None:
        count = len(problems)
        super().__init__(f"The rules files have {count} problem{'s' if count != 1 else ''}:\n"
                         + "\n".join(f"  {p}" for p in problems))
        self.problems = tuple(problems)


def _split_list(value: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in value.split(",") if item.strip())


def parse_topic(text: str, source: str) -> tuple[Topic | None, list[str]]:
    """Read one topic file. Returns the topic (None if it cannot be built) and the problems
    found, each as `source:line: message`."""
    problems: list[str] = []

    def problem(line: int, message: str) -> None:
        problems.append(f"{source}:{line}: {message}" if line else f"{source}: {message}")

    lines = text.replace("\r\n", "\n").split("\n")
    fields: dict[str, str] = {}
    field_lines: dict[str, int] = {}
    current: str | None = None
    body_start: int | None = None
    for number, line in enumerate(lines, start=1):
        if line.strip() == SEPARATOR:
            body_start = number
            break
        if not line.strip() or line.lstrip().startswith("#"):
            current = None if not line.strip() else current
            continue
        if line[0] in " \t":
            if current is None:
                problem(number, "an indented line must continue a field; start it with "
                                "`name:` or indent it under one.")
            else:
                fields[current] += " " + line.strip()
            continue
        name, colon, value = line.partition(":")
        name = name.strip().lower()
        if not colon or name not in LIMITS:
            known = ", ".join(LIMITS)
            problem(number, f"`{line.strip()[:40]}` is not a header field; the fields are "
                            f"{known}, then a line `---` before the text.")
            current = None
            continue
        if name in fields:
            problem(number, f"the field `{name}` is given twice.")
        fields[name] = value.strip()
        field_lines[name] = number
        current = name
    if body_start is None:
        problem(0, "there is no `---` line between the header and the text.")
        return None, problems
    body = "\n".join(lines[body_start:]).strip()

    for name in REQUIRED:
        if not fields.get(name):
            problem(0, f"the field `{name}` is missing or empty.")
    for name, value in fields.items():
        if len(value) > LIMITS[name]:
            problem(field_lines[name], f"`{name}` is {len(value)} characters; keep it to "
                                       f"{LIMITS[name]} so the answer fits one message.")
    if not body:
        problem(body_start, "the text after `---` is empty; write the full section there.")
    elif len(body) > MAX_BODY:
        problem(body_start, f"the text is {len(body)} characters; keep it to {MAX_BODY} "
                            "(split the topic in two).")

    topic_id = fields.get("id", "")
    stem = Path(source).name.removesuffix(SUFFIX)
    if topic_id and not TOPIC_ID.match(topic_id):
        problem(field_lines["id"], f"the id `{topic_id}` must be lower-case words joined by "
                                   "hyphens, like `joker-exchange`.")
    elif topic_id and topic_id != stem:
        problem(field_lines["id"], f"the id `{topic_id}` must match the file name "
                                   f"(`{topic_id}{SUFFIX}`).")
    kind = None
    if fields.get("kind"):
        try:
            kind = Kind(fields["kind"].lower())
        except ValueError:
            problem(field_lines["kind"], f"the kind `{fields['kind']}` must be one of: "
                                         + ", ".join(k.value for k in Kind) + ".")
    keywords = _split_list(fields.get("keywords", ""))
    for keyword in keywords:
        if len(keyword) > MAX_KEYWORD:
            problem(field_lines["keywords"], f"the keyword `{keyword[:20]}…` is too long; "
                                             "separate keywords with commas.")
    related = _split_list(fields.get("related", ""))
    for other in related:
        if not TOPIC_ID.match(other):
            problem(field_lines["related"], f"`{other}` in `related` is not a topic id.")
    if problems or kind is None:
        return None, problems
    return Topic(id=topic_id, title=fields["title"], kind=kind, keywords=keywords,
                 related=related, short=fields["short"], differs=fields["differs"],
                 jongg=fields.get("jongg", ""), body=body, source=source), problems


def load_topics(folder: Path) -> tuple[Topic, ...]:
    """Every topic file in `folder`, in file-name order, checked one by one and together
    (unique ids, `related` naming topics that exist). Raises `RulesError` listing every
    problem."""
    paths = sorted(folder.glob(f"*{SUFFIX}"))
    problems: list[str] = []
    if not paths:
        problems.append(f"{folder}: there are no `*{SUFFIX}` rules files here.")
    topics: list[Topic] = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{path.name}: can't read it as UTF-8 text ({exc}).")
            continue
        topic, found = parse_topic(text, path.name)
        problems.extend(found)
        if topic is not None:
            topics.append(topic)
    ids = {topic.id for topic in topics}
    for topic in topics:
        for other in topic.related:
            if other not in ids:
                problems.append(f"{topic.source}: `related` names `{other}`, which is not a "
                                "topic.")
            elif other == topic.id:
                problems.append(f"{topic.source}: a topic can't be related to itself.")
    if problems:
        raise RulesError(problems)
    return tuple(topics)
