"""Request bodies and query strings judged by Discord's own OpenAPI document.

The document (`discord-api-spec/openapi.json`, with its licence and source commit) describes
every route's request body: lengths, counts, enums, required fields. `RequestSchema.of(method,
route)` finds the operation for one of the fake's route templates (placeholders may be named
differently: `/webhooks/{application_id}/{token}` is `/webhooks/{webhook_id}/{webhook_token}`),
builds its validators once (JSON Schema Draft 2020-12, `$ref`s resolved in the document) and
turns each violation into a `Problem`, which the REST layer answers as Discord does: 400, code
50035 "Invalid Form Body", the errors nested by field path.

The document is a preview; where it disagrees with Discord's written documentation the
documentation wins, and each such place is an entry of `OVERRIDES`. Limits the document cannot
state (a total over several fields, a rule that depends on another field or on the channel)
stay hand-written in `validate.py`.

Error codes and messages follow Discord's: `BASE_TYPE_REQUIRED`, `BASE_TYPE_CHOICES`, the
`BASE_TYPE_*_LENGTH` family and `UNION_TYPE_CHOICES` as Discord answers them; type errors in
the style of Discord's `*_TYPE_COERCE` / `*_TYPE_CONVERT` codes.
"""

from __future__ import annotations

import copy
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from .validate import Problem

SPEC = Path(__file__).with_name("discord-api-spec") / "openapi.json"
SNOWFLAKE = "^(0|[1-9][0-9]*)$"


@dataclass(frozen=True)
class Override:
    """One place where the fake follows Discord's documentation instead of the document: the
    value at `pointer` (a JSON pointer into the document) was `spec_says` and becomes `value`.
    Loading fails if the document no longer says `spec_says`, so an update is reviewed."""

    pointer: str
    spec_says: Any
    value: Any
    why: str


_SCHEMAS = "/components/schemas"

#: Where the schema disagrees with Discord's documented behaviour, the documentation wins.
OVERRIDES: tuple[Override, ...] = (
    # Create Message / Edit Message: "content: Message contents (up to 2000 characters)".
    # The document's 4000 is the limit for Nitro users' own messages, not for bots.
    Override(f"{_SCHEMAS}/MessageCreateRequest/properties/content/maxLength", 4000, 2000,
             "Create Message: content is up to 2000 characters"),
    Override(f"{_SCHEMAS}/MessageEditRequestPartial/properties/content/maxLength", 4000, 2000,
             "Edit Message: content is up to 2000 characters"),
    # Application command option choice: "value: ... up to 100 characters if string" (the same
    # object answers autocomplete). The document allows 6000.
    Override(f"{_SCHEMAS}/ApplicationCommandOptionStringChoice/properties/value/maxLength",
             6000, 100, "a string choice's value is up to 100 characters"),
    # Modal: "components: Between 1 and 5 (inclusive) components that make up the modal".
    Override(f"{_SCHEMAS}/ModalInteractionCallbackRequestData/properties/components/maxItems",
             40, 5, "a modal has between 1 and 5 components"),
    # Snowflakes: the document accepts only decimal strings, yet the documentation's own
    # examples send integers (an upload's `"attachments": [{"id": 0, ...}]` in "Uploading
    # Files"), and Discord reads a snowflake from either. discord.py sends integers (message
    # references, DM recipients, attachment indexes).
    Override(f"{_SCHEMAS}/SnowflakeType",
             {"type": "string", "pattern": SNOWFLAKE, "format": "snowflake"},
             {"type": ["string", "integer"], "pattern": SNOWFLAKE, "minimum": 0,
              "format": "snowflake"},
             "a snowflake may be sent as a decimal string or an integer"),
)


def _pointer_parts(pointer: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


def apply(spec: dict[str, Any], override: Override) -> None:
    """Put `override` into `spec`, refusing if the document no longer says what it replaces."""
    *parents, last = _pointer_parts(override.pointer)
    node: Any = spec
    for part in parents:
        node = node[part]
    if node.get(last) != override.spec_says:
        raise RuntimeError(f"Discord's OpenAPI document changed under an override: "
                           f"{override.pointer} is {node.get(last)!r}, not "
                           f"{override.spec_says!r} ({override.why}); review OVERRIDES")
    node[last] = copy.deepcopy(override.value)


@cache
def _document() -> dict[str, Any]:
    """The document with `OVERRIDES` applied, loaded once per process (about 1 MB of JSON)."""
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    for override in OVERRIDES:
        apply(spec, override)
    return spec


def _at(spec: Any, pointer: str) -> Any:
    for part in _pointer_parts(pointer):
        spec = spec[part]
    return spec


def _shape(template: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", template)


class _Compiler:
    """The document's schemas rewritten to check fast, accepting and refusing exactly what they
    did: each `$ref` is replaced by the schema it names (one shared object per name, so a
    recursive schema stays recursive); an enum written as a `oneOf` of constants becomes an
    `enum`; a nullable `oneOf: [null, X]` becomes `x-nullable: X`; a union whose members are
    told apart by their required `type` field (components, interaction callbacks) becomes
    `x-union-by-type`, which checks only the member the `type` names. jsonschema tries every
    member of every union: without these a message of 25 buttons took about 20 ms to check,
    with them about 2 ms."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.named: dict[str, dict[str, Any]] = {}

    def schema(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self.schema(item) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = self.named.get(ref)
            if target is None:
                target = self.named[ref] = {}
                target.update(self.schema(_at(self.spec, ref.removeprefix("#"))))
            if len(node) == 1:
                return target
            return _simplify({"allOf": [target], **{k: self.schema(v) for k, v in node.items()
                                                    if k != "$ref"}})
        return _simplify({key: self.schema(value) for key, value in node.items()})


def _simplify(schema: dict[str, Any]) -> dict[str, Any]:
    if _narrows(schema):
        # `"enum": [2], "allOf": [<every component type>]`: the enum alone says it all.
        del schema["allOf"]
    for key in ("oneOf", "anyOf"):
        members = schema.get(key)
        if not isinstance(members, list):
            continue
        other = [m for m in members if m != {"type": "null"}]
        if "enum" not in schema and _constants(members):
            schema["enum"] = [m["const"] for m in members]
        elif len(other) == 1 < len(members) and (key == "anyOf" or _never_null(other[0])):
            schema["x-nullable"] = other[0]
        elif (kinds := _kinds(members)) is not None:
            schema["x-union-by-type"] = kinds
        else:
            continue
        del schema[key]
    return schema


def _narrows(schema: dict[str, Any]) -> bool:
    """Whether `schema` is an enum of the same type within the one enum its `allOf` holds."""
    whole = schema.get("allOf")
    if not (isinstance(whole, list) and len(whole) == 1 and isinstance(whole[0], dict)):
        return False
    inner = whole[0]
    return ("enum" in schema and "enum" in inner and set(inner) <= {"type", "enum", "format"}
            and inner.get("type") == schema.get("type")
            and all(value in inner["enum"] for value in schema["enum"]))


def _constants(members: list[Any]) -> bool:
    """Whether `members` are distinct constants (a `oneOf` of them is an `enum`)."""
    if not all(isinstance(m, dict) and "const" in m and set(m) <= {"const", "title",
                                                                     "description"}
               for m in members):
        return False
    values = [json.dumps(m["const"]) for m in members]
    return len(set(values)) == len(values)


def _never_null(schema: Any) -> bool:
    """Whether `schema` refuses null, so `oneOf: [null, schema]` is "null or schema"."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    return kind is not None and "null" not in _as_list(kind)


def _kinds(members: list[Any]) -> dict[Any, Any] | None:
    """`type` value -> member, if every member is an object that requires a `type` field of
    values no other member has."""
    kinds: dict[Any, Any] = {}
    for member in members:
        if not isinstance(member, dict) or member.get("type") != "object":
            return None
        field = member.get("properties", {}).get("type", {})
        values = field.get("enum") or ([field["const"]] if "const" in field else None)
        if not values or "type" not in member.get("required", []) or kinds.keys() & set(values):
            return None
        kinds.update(dict.fromkeys(values, member))
    return kinds


def _nullable(validator: Any, schema: Any, instance: Any, _parent: Any
              ) -> Iterator[ValidationError]:
    if instance is not None:
        yield from validator.descend(instance, schema)


def _union_by_type(validator: Any, kinds: dict[Any, Any], instance: Any, _parent: Any
                   ) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        yield from validator.descend(instance, {"type": "object"})
    elif "type" not in instance:
        yield from validator.descend(instance, {"required": ["type"]})
    elif isinstance(instance["type"], bool) or instance["type"] not in kinds:
        yield from validator.descend(instance["type"], {"enum": list(kinds), "x-union": True},
                                     path="type")
    else:
        yield from validator.descend(instance, kinds[instance["type"]])


_Validator = validators.extend(Draft202012Validator, {
    "x-nullable": _nullable, "x-union-by-type": _union_by_type})


@cache
def _compiler() -> _Compiler:
    return _Compiler(_document())


def _validator(schema: Any) -> Any:
    """A validator for a schema of the document (its `$ref`s point into the document)."""
    return _Validator(_compiler().schema(schema))


@dataclass(frozen=True)
class RequestSchema:
    """What Discord accepts on one route and method: a validator for the JSON body (also used
    for `payload_json` of a multipart request, as Discord does) and one for the query."""

    method: str
    path: str
    body: Any
    #: Whether the operation needs a body: a request without one is checked as `{}`.
    body_required: bool
    query: Any
    #: The type each query parameter is read as (query strings are text on the wire).
    query_types: Mapping[str, str]

    @staticmethod
    @cache
    def of(method: str, route: str) -> RequestSchema:
        """The schema for `method route` (a fake route template). Raises `LookupError` for a
        route the document does not describe: a fake route Discord does not have."""
        spec = _document()
        by_shape = {_shape(p): p for p in spec["paths"]}
        path = by_shape.get(_shape(route))
        operation = spec["paths"].get(path, {}).get(method.lower()) if path else None
        if path is None or operation is None:
            raise LookupError(f"{method} {route} is not in Discord's OpenAPI document")
        request_body = operation.get("requestBody", {})
        content = request_body.get("content", {})
        body = (_validator(content["application/json"]["schema"])
                if "application/json" in content else None)
        parameters = [p for p in operation.get("parameters", []) if p["in"] == "query"]
        query = _validator({
            "type": "object",
            "properties": {p["name"]: p["schema"] for p in parameters},
            "required": [p["name"] for p in parameters if p.get("required")],
        }) if parameters else None
        types = {p["name"]: str(p["schema"].get("type", "string")) for p in parameters}
        return RequestSchema(method, path, body, bool(request_body.get("required")), query,
                             types)

    def problems(self, body: Any, query: Mapping[str, str]) -> list[Problem]:
        """Everything Discord would refuse in this body (parsed JSON or `payload_json`; `None`
        for none) and query string, at most one problem per field."""
        errors: list[ValidationError] = []
        if body is None and self.body_required:
            body = {}
        if self.body is not None and body is not None:
            errors += self.body.iter_errors(body)
        if self.query is not None and query:
            errors += self.query.iter_errors(
                {name: _read_query(value, self.query_types.get(name, "string"))
                 for name, value in query.items()})
        found: dict[str, Problem] = {}
        for error in errors:
            for problem in _problems(error):
                found.setdefault(problem.path, problem)
        return list(found.values())


def _read_query(value: str, kind: str) -> Any:
    """A query value as the type its parameter declares; left as text when it is not one, so
    the validator refuses it."""
    if kind == "integer" and re.fullmatch(r"-?\d+", value):
        return int(value)
    if kind == "boolean" and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    return value


# -- violations as Discord words them -------------------------------------------------------


def _join(path: str, *more: Any) -> str:
    return ".".join(str(p) for p in (path, *more) if str(p) != "")


def _path(error: ValidationError) -> str:
    return _join("", *error.absolute_path)


def _problems(error: ValidationError) -> Iterator[Problem]:
    if error.validator in ("oneOf", "anyOf") and error.context:
        yield from _union(error)
    elif error.validator == "required":
        for name in error.validator_value:
            if name not in error.instance:
                yield Problem(_join(_path(error), name), "This field is required",
                              "BASE_TYPE_REQUIRED")
    else:
        yield _leaf(_path(error), error)


def _misfit(errors: Iterable[ValidationError]) -> bool:
    """Whether a union's member cannot be the one meant: the value is of another JSON type or
    is another constant."""
    return any(not error.relative_path and error.validator in ("type", "const", "enum")
               for error in errors)


def _type_errors(errors: Iterable[ValidationError]) -> int:
    return sum(1 for error in errors for e in (error, *(error.context or ()))
               if e.validator == "type")


def _union(error: ValidationError) -> Iterator[Problem]:
    """A value that fits no member of a `oneOf`/`anyOf` (the ones told apart by `type` are
    `x-union-by-type`): report the errors of the member most likely meant (the value's JSON
    type fits, fewest type errors inside, then fewest errors, then the first); if the value
    fits no member's JSON type or constant, say which would do."""
    members: dict[int, list[ValidationError]] = defaultdict(list)
    for sub in error.context or ():
        members[int(sub.relative_schema_path[0])].append(sub)
    meant = [i for i, errors in members.items() if not _misfit(errors)]
    if meant:
        best = min(meant, key=lambda i: (_type_errors(members[i]), len(members[i]), i))
        for sub in members[best]:
            yield from _problems(sub)
        return
    path = _path(error)
    constants = [_as_list(e.validator_value) for errors in members.values() for e in errors
                 if not e.relative_path and e.validator in ("const", "enum")]
    if constants:
        yield _choices(path, constants)
        return
    types = [t for errors in members.values() for e in errors
             if not e.relative_path and e.validator == "type"
             for t in _as_list(e.validator_value)]
    yield _type_problem(path, [t for t in types if t != "null"] or types, error.instance)


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _values(groups: Iterable[list[Any]]) -> str:
    seen: list[Any] = []
    for group in groups:
        for value in group:
            if value not in seen:
                seen.append(value)
    return str(tuple(seen))


def _choices(path: str, groups: Iterable[list[Any]]) -> Problem:
    return Problem(path, f"Value must be one of {_values(groups)}.", "BASE_TYPE_CHOICES")


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


_TYPE_PROBLEMS = {
    "integer": ("NUMBER_TYPE_COERCE", 'Value "{}" is not int.'),
    "number": ("NUMBER_TYPE_COERCE", 'Value "{}" is not a number.'),
    "boolean": ("BOOLEAN_TYPE_COERCE", 'Value "{}" is not bool.'),
    "string": ("STRING_TYPE_CONVERT", 'Could not interpret "{}" as string.'),
    "object": ("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"),
    "array": ("LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"),
}


def _type_problem(path: str, types: list[Any], instance: Any) -> Problem:
    wanted = next((t for t in types if t in _TYPE_PROBLEMS), "object")
    code, message = _TYPE_PROBLEMS[wanted]
    return Problem(path, message.format(_shown(instance)), code)


def _length(path: str, schema: Mapping[str, Any], kind: str) -> Problem:
    low = int(schema.get(f"min{kind}", 0))
    high = schema.get(f"max{kind}")
    if low and high is not None:
        return Problem(path, f"Must be between {low} and {high} in length.",
                       "BASE_TYPE_BAD_LENGTH")
    if high is not None:
        return Problem(path, f"Must be {high} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    return Problem(path, f"Must be {low} or more in length.", "BASE_TYPE_MIN_LENGTH")


def _leaf(path: str, error: ValidationError) -> Problem:
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    match error.validator:
        case "type":
            if schema.get("format") == "snowflake":
                return Problem(path, f'Value "{_shown(error.instance)}" is not snowflake.',
                               "NUMBER_TYPE_COERCE")
            return _type_problem(path, _as_list(error.validator_value), error.instance)
        case "minLength" | "maxLength":
            return _length(path, schema, "Length")
        case "minItems" | "maxItems":
            return _length(path, schema, "Items")
        case "enum" if schema.get("x-union"):
            return Problem(path, f'Value of field "type" must be one of '
                           f'{_values([error.validator_value])}.', "UNION_TYPE_CHOICES")
        case "enum":
            return _choices(path, [list(error.validator_value)])
        case "const":
            return _choices(path, [[error.validator_value]])
        case "minimum":
            return Problem(path, f"int value should be greater than or equal to "
                           f"{error.validator_value}.", "NUMBER_TYPE_MIN")
        case "maximum":
            return Problem(path, f"int value should be less than or equal to "
                           f"{error.validator_value}.", "NUMBER_TYPE_MAX")
        case "pattern" if schema.get("format") == "snowflake":
            return Problem(path, f'Value "{_shown(error.instance)}" is not snowflake.',
                           "NUMBER_TYPE_COERCE")
        case _:
            return Problem(path, error.message, "BASE_TYPE_INVALID")
