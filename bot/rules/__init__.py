"""The rules knowledge base: topics written in our own words (`data/rules/*.md`), checked
when loaded, ranked for free-text questions, and shaped into chat-sized messages.

    kb = knowledge_base()
    answer = kb.lookup("how many jokers in a pair")     # Answer(topic=<jokers>, also=(...))
    text = short_answer(answer.topic, answer.also)      # fits one Discord message
    pieces = full_messages(answer.topic)                # the full section, split to fit

Pure Python: no Discord, no network. `topics` reads files, `search` ranks, `messages`
formats, `base` ties them together.
"""

from bot.rules.base import Answer, KnowledgeBase, knowledge_base, load_knowledge_base, rules_dir
from bot.rules.messages import MESSAGE_LIMIT, full_messages, short_answer, split_text, topics_list
from bot.rules.search import Hit, RulesIndex
from bot.rules.topics import Kind, RulesError, Topic, load_topics, parse_topic

__all__ = [
    "MESSAGE_LIMIT",
    "Answer",
    "Hit",
    "Kind",
    "KnowledgeBase",
    "RulesError",
    "RulesIndex",
    "Topic",
    "full_messages",
    "knowledge_base",
    "load_knowledge_base",
    "load_topics",
    "parse_topic",
    "rules_dir",
    "short_answer",
    "split_text",
    "topics_list",
]
