"""Reading Jongg's controls off a message the fake Discord recorded, as a person reads them:
which buttons and menus it has, and which one is the first option.

Kept apart from `jongg_table` (which imports it) so that the simulated people of
`jongg bench discord` (`people.py`) load quickly in their own process.
"""

from __future__ import annotations

import re
from typing import Any

from fake import FakeInteraction, Message, walk_components

#: What a person sees after an action went through, per kind of control.
DONE = re.compile(r"^(You chose: \*\*.+\*\*\.|You passed\.)$")


def moved_on(handle: FakeInteraction, answer: Message) -> bool:
    """Whether the answer to a click is the clicked message itself, moved on: the table post
    under which Pass was pressed, showing the next picture with other buttons (the pass led
    straight to it, `bot.discord.answers`)."""
    clicked = str(handle.payload["data"].get("custom_id", ""))
    controls = answer.custom_ids()
    return answer is handle.source and bool(controls) and clicked not in controls


def went_through(handle: FakeInteraction, answer: Message) -> bool:
    """Whether the answer to a move's click says it went through: the prompt turned into
    what was done, a private "You passed.", or the table post moved on."""
    return bool(DONE.match(answer.content)) or moved_on(handle, answer)


def components(message: Message) -> list[dict[str, Any]]:
    return list(walk_components(message.components))


def custom_ids(message: Message, prefix: str) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith(prefix)]


def first_choice(prompt: Message) -> tuple[str, list[str] | None]:
    """Option 0 on a prompt, as a person picks it: its button (values None), its
    discard-menu entry, or the first tiles of its pass menu (the menu and the values)."""
    for item in components(prompt):
        custom_id = str(item.get("custom_id", ""))
        if custom_id.startswith("jg:a:") and custom_id.endswith(":0"):
            return custom_id, None
    for item in components(prompt):
        custom_id = str(item.get("custom_id", ""))
        values = [str(o["value"]) for o in item.get("options") or []]
        if custom_id.startswith("jg:d:") and "0" in values:
            return custom_id, ["0"]
        if custom_id.startswith("jg:g:"):
            return custom_id, values[:int(item.get("max_values", 1))]
    raise AssertionError(f"the prompt offers no first option: {prompt.text!r} "
                         f"{prompt.components}")
