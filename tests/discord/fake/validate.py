"""The limits Discord enforces on what a bot sends, so a test fails where Discord would.

Each checker returns a list of `Problem`s (an empty list means Discord would accept it); the
server turns problems into Discord's 400 "Invalid Form Body" (code 50035) answer, with the
nested `errors` object discord.py flattens into its exception text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .models import (
    BUTTON_STYLE_LINK,
    BUTTON_STYLE_PREMIUM,
    JSON,
    SELECT_TYPES,
    ComponentType,
    MessageFlag,
    walk_components,
)

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_ACTION_ROWS = 5
MAX_V2_COMPONENTS = 40
MAX_CHOICES = 25
MAX_OPTIONS = 25
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


@dataclass(frozen=True)
class Problem:
    path: str
    message: str
    code: str = "BASE_TYPE_INVALID"


def error_body(problems: list[Problem]) -> JSON:
    """Discord's 50035 body: `errors` nests by path segment, leaves hold `_errors` (a problem
    with the whole body, path "", sits at the top)."""
    errors: JSON = {}
    for problem in problems:
        node = errors
        for part in problem.path.split(".") if problem.path else ():
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return {"message": "Invalid Form Body", "code": 50035, "errors": errors}


def _too_long(path: str, value: Any, limit: int) -> list[Problem]:
    if isinstance(value, str) and len(value) > limit:
        return [Problem(path, f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH")]
    return []


def check_message(payload: JSON, *, file_count: int, creating: bool) -> list[Problem]:
    """A message body (create, edit, interaction response data, follow-up)."""
    problems: list[Problem] = []
    content = payload.get("content")
    problems += _too_long("content", content, MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        problems.append(Problem("embeds", f"Must be {MAX_EMBEDS} or fewer in length."))
    total = 0
    for i, embed in enumerate(embeds):
        problems += check_embed(f"embeds.{i}", embed)
        total += embed_length(embed)
    if total > MAX_EMBED_TOTAL:
        problems.append(Problem("embeds", "Embed size exceeds maximum size of 6000"))
    if file_count > MAX_FILES:
        problems.append(Problem("files", f"Must be {MAX_FILES} or fewer in length."))
    flags = int(payload.get("flags") or 0)
    components = payload.get("components") or []
    problems += check_components(components, v2=bool(flags & MessageFlag.IS_COMPONENTS_V2))
    if flags & MessageFlag.IS_COMPONENTS_V2 and (content or embeds):
        problems.append(Problem("content", "The 'content' and 'embeds' fields cannot be used "
                                "when using the IS_COMPONENTS_V2 flag", "MESSAGE_CANNOT_USE"))
    if creating and not (content or embeds or components or file_count
                         or payload.get("sticker_ids") or payload.get("poll")):
        problems.append(Problem("content", "Cannot send an empty message", "EMPTY"))
    return problems


def embed_length(embed: JSON) -> int:
    total = len(str(embed.get("title") or "")) + len(str(embed.get("description") or ""))
    total += len(str((embed.get("footer") or {}).get("text") or ""))
    total += len(str((embed.get("author") or {}).get("name") or ""))
    for field in embed.get("fields") or []:
        total += len(str(field.get("name") or "")) + len(str(field.get("value") or ""))
    return total


def check_embed(path: str, embed: JSON) -> list[Problem]:
    problems = _too_long(f"{path}.title", embed.get("title"), 256)
    problems += _too_long(f"{path}.description", embed.get("description"), 4096)
    problems += _too_long(f"{path}.footer.text", (embed.get("footer") or {}).get("text"), 2048)
    problems += _too_long(f"{path}.author.name", (embed.get("author") or {}).get("name"), 256)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        problems.append(Problem(f"{path}.fields", "Must be 25 or fewer in length."))
    for i, field in enumerate(fields):
        name, value = field.get("name"), field.get("value")
        if not name or not value:
            problems.append(Problem(f"{path}.fields.{i}", "This field is required",
                                    "BASE_TYPE_REQUIRED"))
        problems += _too_long(f"{path}.fields.{i}.name", name, 256)
        problems += _too_long(f"{path}.fields.{i}.value", value, 1024)
    return problems


def check_components(components: list[JSON], *, v2: bool) -> list[Problem]:
    problems: list[Problem] = []
    if not v2 and len(components) > MAX_ACTION_ROWS:
        problems.append(Problem("components", "Must be 5 or fewer in length."))
    if v2 and sum(1 for _ in walk_components(components)) > MAX_V2_COMPONENTS:
        problems.append(Problem("components", "Must be 40 or fewer in total."))
    seen: set[str] = set()
    for i, row in enumerate(components):
        path = f"components.{i}"
        if not v2 and row.get("type") != ComponentType.ACTION_ROW:
            problems.append(Problem(f"{path}.type", "Top-level components must be action rows"
                                    " without the IS_COMPONENTS_V2 flag", "UNION_TYPE_CHOICES"))
        children = row.get("components") or []
        if row.get("type") == ComponentType.ACTION_ROW:
            kinds = {c.get("type") for c in children}
            if not children:
                problems.append(Problem(f"{path}.components", "Must be 1 or more in length."))
            if kinds & SELECT_TYPES and len(children) > 1:
                problems.append(Problem(f"{path}.components", "A select menu must be alone "
                                        "in its action row", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"))
            if len(children) > 5:
                problems.append(Problem(f"{path}.components", "Must be 5 or fewer in length."))
    for j, component in enumerate(walk_components(components)):
        path = f"components.{j}"
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= 100:
                problems.append(Problem(f"{path}.custom_id", "Must be between 1 and 100 in "
                                        "length.", "BASE_TYPE_BAD_LENGTH"))
            if custom_id in seen:
                problems.append(Problem(f"{path}.custom_id", "Component custom id cannot be "
                                        "duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED"))
            seen.add(custom_id)
        kind = component.get("type")
        if kind == ComponentType.BUTTON:
            problems += _too_long(f"{path}.label", component.get("label"), 80)
            style = component.get("style")
            if style == BUTTON_STYLE_LINK:
                if not component.get("url") or custom_id is not None:
                    problems.append(Problem(f"{path}.url", "Link buttons need a url and no "
                                            "custom_id", "BUTTON_COMPONENT_INVALID"))
            elif style != BUTTON_STYLE_PREMIUM and custom_id is None:
                problems.append(Problem(f"{path}.custom_id", "This field is required",
                                        "BASE_TYPE_REQUIRED"))
            if not component.get("label") and not component.get("emoji") and style != 6:
                problems.append(Problem(f"{path}.label", "A button needs a label or an emoji",
                                        "BUTTON_COMPONENT_INVALID"))
        elif kind in SELECT_TYPES:
            problems += _too_long(f"{path}.placeholder", component.get("placeholder"), 150)
            options = component.get("options") or []
            if kind == ComponentType.STRING_SELECT and not 1 <= len(options) <= 25:
                problems.append(Problem(f"{path}.options", "Must be between 1 and 25 in length.",
                                        "BASE_TYPE_BAD_LENGTH"))
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                problems.append(Problem(f"{path}.options", "Option values must be unique",
                                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"))
            for k, option in enumerate(options):
                problems += _too_long(f"{path}.options.{k}.label", option.get("label"), 100)
                problems += _too_long(f"{path}.options.{k}.value", option.get("value"), 100)
                problems += _too_long(f"{path}.options.{k}.description",
                                      option.get("description"), 100)
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if low > high or high > 25 or (options and high > len(options)):
                problems.append(Problem(f"{path}.max_values", "Invalid min/max values",
                                        "BASE_TYPE_BAD_INT"))
        elif kind == ComponentType.TEXT_DISPLAY:
            problems += _too_long(f"{path}.content", component.get("content"), 4000)
    return problems


def check_choices(choices: list[JSON]) -> list[Problem]:
    problems: list[Problem] = []
    if len(choices) > MAX_CHOICES:
        problems.append(Problem("data.choices", "Must be 25 or fewer in length."))
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(Problem(f"data.choices.{i}.name", "Must be between 1 and 100 in "
                                    "length.", "BASE_TYPE_BAD_LENGTH"))
        problems += _too_long(f"data.choices.{i}.value", choice.get("value"), 100)
    return problems


def check_modal(data: JSON) -> list[Problem]:
    problems = _too_long("data.title", data.get("title"), 45)
    if not data.get("title"):
        problems.append(Problem("data.title", "This field is required", "BASE_TYPE_REQUIRED"))
    custom_id = data.get("custom_id") or ""
    if not 1 <= len(custom_id) <= 100:
        problems.append(Problem("data.custom_id", "Must be between 1 and 100 in length.",
                                "BASE_TYPE_BAD_LENGTH"))
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        problems.append(Problem("data.components", "Must be between 1 and 5 in length.",
                                "BASE_TYPE_BAD_LENGTH"))
    for i, component in enumerate(walk_components(components)):
        if component.get("type") == ComponentType.TEXT_INPUT:
            problems += _too_long(f"data.components.{i}.label", component.get("label"), 45)
    return problems


def check_commands(commands: list[JSON]) -> list[Problem]:
    """Application command definitions, as a bulk overwrite sends them."""
    problems: list[Problem] = []
    seen: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        path = f"{i}"
        kind = int(command.get("type", 1))
        name = str(command.get("name", ""))
        if (name, kind) in seen:
            problems.append(Problem(f"{path}.name", "Application command names must be unique",
                                    "APPLICATION_COMMANDS_DUPLICATE_NAME"))
        seen.add((name, kind))
        if kind == 1:
            problems += _check_chat_input(path, command)
        elif not 1 <= len(name) <= 32:
            problems.append(Problem(f"{path}.name", "Must be between 1 and 32 in length.",
                                    "BASE_TYPE_BAD_LENGTH"))
    return problems


def _check_chat_input(path: str, item: JSON) -> list[Problem]:
    problems: list[Problem] = []
    name = str(item.get("name", ""))
    if not COMMAND_NAME.match(name) or name != name.lower():
        problems.append(Problem(f"{path}.name", "Command name is invalid",
                                "APPLICATION_COMMAND_INVALID_NAME"))
    description = str(item.get("description", ""))
    if not 1 <= len(description) <= 100:
        problems.append(Problem(f"{path}.description", "Must be between 1 and 100 in length.",
                                "BASE_TYPE_BAD_LENGTH"))
    options = item.get("options") or []
    if len(options) > MAX_OPTIONS:
        problems.append(Problem(f"{path}.options", "Must be 25 or fewer in length."))
    optional_seen = False
    for k, option in enumerate(options):
        option_path = f"{path}.options.{k}"
        if int(option.get("type", 3)) in (1, 2):
            problems += _check_chat_input(option_path, option)
            continue
        problems += _check_chat_input_leaf(option_path, option)
        if option.get("required"):
            if optional_seen:
                problems.append(Problem(f"{option_path}.required", "Required options must be "
                                        "placed before non-required options",
                                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"))
        else:
            optional_seen = True
    return problems


def _check_chat_input_leaf(path: str, option: JSON) -> list[Problem]:
    problems: list[Problem] = []
    name = str(option.get("name", ""))
    if not COMMAND_NAME.match(name) or name != name.lower():
        problems.append(Problem(f"{path}.name", "Option name is invalid",
                                "APPLICATION_COMMAND_INVALID_NAME"))
    if not 1 <= len(str(option.get("description", ""))) <= 100:
        problems.append(Problem(f"{path}.description", "Must be between 1 and 100 in length.",
                                "BASE_TYPE_BAD_LENGTH"))
    choices = option.get("choices") or []
    if len(choices) > MAX_CHOICES:
        problems.append(Problem(f"{path}.choices", "Must be 25 or fewer in length."))
    if choices and option.get("autocomplete"):
        problems.append(Problem(f"{path}.autocomplete", "Autocomplete cannot be used with "
                                "choices", "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID"))
    return problems
