"""The limits Discord documents that its OpenAPI document cannot state, so a test fails where
Discord would.

Every request body is first checked against Discord's OpenAPI document (`schema.py`: lengths,
counts, enums, required fields, types). What is left here is what a schema of one field cannot
say: totals over several fields (embed text, components in a tree), rules that depend on
another field (the IS_COMPONENTS_V2 flag, a button's style, a select's options), uniqueness of
`custom_id`s and option values, an empty message, the number of files, and command names and
descriptions whose rules depend on the command's type.

Each checker returns a list of `Problem`s (an empty list means Discord would accept it); the
server turns problems into Discord's 400 "Invalid Form Body" (code 50035) answer, with the
nested `errors` object discord.py flattens into its exception text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .models import (
    BUTTON_STYLE_LINK,
    BUTTON_STYLE_PREMIUM,
    JSON,
    SELECT_TYPES,
    ComponentType,
    MessageFlag,
    walk_components,
)

MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_ACTION_ROWS = 5
MAX_V2_COMPONENTS = 40
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


def check_message(payload: JSON, *, file_count: int, creating: bool) -> list[Problem]:
    """A message body (create, edit, interaction response data, follow-up)."""
    problems: list[Problem] = []
    content = payload.get("content")
    embeds = payload.get("embeds") or []
    if sum(embed_length(embed) for embed in embeds) > MAX_EMBED_TOTAL:
        problems.append(Problem("embeds", "Embed size exceeds maximum size of 6000"))
    for i, embed in enumerate(embeds):
        for k, field in enumerate(embed.get("fields") or []):
            if not field.get("name") or not field.get("value"):
                problems.append(Problem(f"embeds.{i}.fields.{k}", "This field is required",
                                        "BASE_TYPE_REQUIRED"))
    if file_count > MAX_FILES:
        problems.append(Problem("files", f"Must be {MAX_FILES} or fewer in length.",
                                "BASE_TYPE_MAX_LENGTH"))
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


def check_components(components: list[JSON], *, v2: bool) -> list[Problem]:
    problems: list[Problem] = []
    if not v2 and len(components) > MAX_ACTION_ROWS:
        problems.append(Problem("components", "Must be 5 or fewer in length.",
                                "BASE_TYPE_MAX_LENGTH"))
    if v2 and sum(1 for _ in walk_components(components)) > MAX_V2_COMPONENTS:
        problems.append(Problem("components", "Must be 40 or fewer in total."))
    seen: set[str] = set()
    for i, row in enumerate(components):
        path = f"components.{i}"
        if not v2 and row.get("type") != ComponentType.ACTION_ROW:
            problems.append(Problem(f"{path}.type", "Top-level components must be action rows"
                                    " without the IS_COMPONENTS_V2 flag", "UNION_TYPE_CHOICES"))
        children = row.get("components") or []
        if (row.get("type") == ComponentType.ACTION_ROW and len(children) > 1
                and {c.get("type") for c in children} & SELECT_TYPES):
            problems.append(Problem(f"{path}.components", "A select menu must be alone "
                                    "in its action row", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"))
    for j, component in enumerate(walk_components(components)):
        path = f"components.{j}"
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                problems.append(Problem(f"{path}.custom_id", "Component custom id cannot be "
                                        "duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED"))
            seen.add(custom_id)
        kind = component.get("type")
        if kind == ComponentType.BUTTON:
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
            options = component.get("options") or []
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                problems.append(Problem(f"{path}.options", "Option values must be unique",
                                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"))
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if low > high or (options and high > len(options)):
                problems.append(Problem(f"{path}.max_values", "Invalid min/max values",
                                        "BASE_TYPE_BAD_INT"))
    return problems


def check_commands(commands: list[JSON]) -> list[Problem]:
    """Application command definitions, as a bulk overwrite sends them."""
    problems: list[Problem] = []
    seen: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        path = f"{i}"
        kind = int(command.get("type") or 1)
        name = str(command.get("name", ""))
        if (name, kind) in seen:
            problems.append(Problem(f"{path}.name", "Application command names must be unique",
                                    "APPLICATION_COMMANDS_DUPLICATE_NAME"))
        seen.add((name, kind))
        if kind == 1:
            # The document lets any command's description be empty; a slash command's may not.
            if not command.get("description"):
                problems.append(Problem(f"{path}.description", "Must be between 1 and 100 in "
                                        "length.", "BASE_TYPE_BAD_LENGTH"))
            problems += _check_chat_input(path, command)
    return problems


def _check_chat_input(path: str, item: JSON) -> list[Problem]:
    """A slash command or one of its options: names are lowercase words, required options
    come first, and an option has either choices or autocomplete."""
    problems: list[Problem] = []
    name = str(item.get("name", ""))
    if not COMMAND_NAME.match(name) or name != name.lower():
        problems.append(Problem(f"{path}.name", "Command name is invalid",
                                "APPLICATION_COMMAND_INVALID_NAME"))
    optional_seen = False
    for k, option in enumerate(item.get("options") or []):
        option_path = f"{path}.options.{k}"
        problems += _check_chat_input(option_path, option)
        if int(option.get("type", 3)) in (1, 2):
            continue
        if option.get("choices") and option.get("autocomplete"):
            problems.append(Problem(f"{option_path}.autocomplete", "Autocomplete cannot be "
                                    "used with choices",
                                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID"))
        if option.get("required"):
            if optional_seen:
                problems.append(Problem(f"{option_path}.required", "Required options must be "
                                        "placed before non-required options",
                                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"))
        else:
            optional_seen = True
    return problems
