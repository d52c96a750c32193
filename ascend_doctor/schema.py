"""The subset of JSON Schema our data files' schemas use, checked without a jsonschema dependency.

One validator for the runtime (a downloaded matrix, a user's file) and the tests (every shipped
data file against its schema in data/). Keywords: type (incl. integer/number and lists of types),
const, enum, minLength, pattern, minItems, items, required, properties, additionalProperties
(false or a schema), propertyNames.pattern and local `$ref`s ("#/definitions/..."). Anything else
in a schema is ignored, as a full validator would check it: `test_jsonschema_agrees_when_available`
runs the real one when it is installed.

One keyword of our own, which JSON Schema validators ignore (an "x-" name): `"x-ref": "/sources"` says a
string value must be a key of the object at that JSON pointer of the same document (a row's source id
names an entry of the file's `sources`), so cross-references are checked by the schema too.

`max_depth` (schema_errors) stops the walk that many levels below the top: `max_depth=1` checks the top
level's type and required fields and the types and constants of its fields, what a run can afford for a file
shipped with the code (the full walk is for the tests, a download and a user's file).
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .i18n import _

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


class SchemaError(ValueError):
    """The schema itself uses something this validator does not read."""


def _type_ok(value: Any, t: str) -> bool:
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t not in _TYPES:
        raise SchemaError(_("unsupported type {type}").format(type=repr(t)))
    return isinstance(value, _TYPES[t])


class SchemaProblem:
    """One place where data breaks its schema: `path` (the keys and indexes from the root), the `keyword` broken
    (type, const, enum, minLength, pattern, x-ref, minItems, required, propertyNames, additionalProperties), the schema's
    value for it (`expected`: the types, the constant, the choices, the length, the pattern, the count; the field
    name for required / propertyNames / additionalProperties), the `value` found and the schema `node` that says so.
    A caller that words problems its own way (the knowledge-base loader) reads these; schema_errors words them."""

    __slots__ = ("path", "keyword", "expected", "value", "node")

    def __init__(self, path: Tuple[Any, ...], keyword: str, expected: Any, value: Any, node: dict):
        self.path, self.keyword, self.expected, self.value, self.node = path, keyword, expected, value, node

    def __repr__(self) -> str:
        return f"SchemaProblem({self.path!r}, {self.keyword!r}, {self.expected!r}, {self.value!r})"


def schema_problems(data: Any, schema: dict, limit: int = 50, max_depth: Optional[int] = None) -> List[SchemaProblem]:
    """Validate `data` against `schema`: up to `limit` problems, in the order the data is walked (none when valid).
    `max_depth`: how many levels below the top to walk (None: all)."""
    problems: List[SchemaProblem] = []
    root = schema
    targets: Dict[str, Any] = {}

    def ref_target(pointer: str) -> Any:
        """The object an x-ref names in the document (None when it is not an object)."""
        if pointer not in targets:
            node: Any = data
            for part in pointer.strip("/").split("/") if pointer.strip("/") else []:
                node = node.get(part) if isinstance(node, dict) else None
            targets[pointer] = node if isinstance(node, dict) else None
        return targets[pointer]

    def resolve(node: dict) -> dict:
        while "$ref" in node:
            ref = node["$ref"]
            if not ref.startswith("#/"):
                raise SchemaError(_("unsupported $ref {ref}").format(ref=repr(ref)))
            target = root
            for part in ref[2:].split("/"):
                target = target[part]
            node = target
        return node

    def add(path, keyword, expected, value, node) -> None:
        problems.append(SchemaProblem(path, keyword, expected, value, node))

    def walk(value: Any, node: dict, path: Tuple[Any, ...]) -> None:
        if len(problems) >= limit:
            return
        node = resolve(node)
        deeper = max_depth is None or len(path) < max_depth
        t = node.get("type")
        if t is not None:
            types = t if isinstance(t, list) else [t]
            if not any(_type_ok(value, x) for x in types):
                add(path, "type", types, value, node)
                return
        if "const" in node and value != node["const"]:
            add(path, "const", node["const"], value, node)
        if "enum" in node and value not in node["enum"]:
            add(path, "enum", node["enum"], value, node)
        if isinstance(value, str):
            if "minLength" in node and len(value) < node["minLength"]:
                add(path, "minLength", node["minLength"], value, node)
            if "pattern" in node and not re.search(node["pattern"], value):
                add(path, "pattern", node["pattern"], value, node)
            if "x-ref" in node:
                keys = ref_target(node["x-ref"])
                if keys is not None and value not in keys:
                    add(path, "x-ref", node["x-ref"], value, node)
        if isinstance(value, list):
            if "minItems" in node and len(value) < node["minItems"]:
                add(path, "minItems", node["minItems"], value, node)
            if "items" in node and deeper:
                for i, item in enumerate(value):
                    walk(item, node["items"], path + (i,))
        if isinstance(value, dict):
            for key in node.get("required", []):
                if key not in value:
                    add(path, "required", key, value, node)
            names = node.get("propertyNames", {}).get("pattern")
            if names:
                for k in value:
                    if not re.search(names, k):
                        add(path, "propertyNames", k, value, node)
            props = node.get("properties", {})
            extra = node.get("additionalProperties", True)
            for key, item in value.items() if deeper else ():
                if key in props:
                    walk(item, props[key], path + (key,))
                elif extra is False:
                    add(path, "additionalProperties", key, value, node)
                elif isinstance(extra, dict):
                    walk(item, extra, path + (key,))

    walk(data, schema, ())
    return problems[:limit]


def json_path(path: Sequence[Any], where: str = "$") -> str:
    """`$.signatures[3].fix`: a problem's path as schema_errors writes it."""
    return where + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def schema_errors(data: Any, schema: dict, limit: int = 50, where: str = "$",
                  max_depth: Optional[int] = None) -> List[str]:
    """Validate `data` against `schema`; returns up to `limit` 'path: problem' lines (none when valid).
    `max_depth`: how many levels below the top to walk (None: all)."""
    return [problem_text(p, where) for p in schema_problems(data, schema, limit, max_depth)]


def problem_text(p: SchemaProblem, where: str) -> str:
    """A problem as schema_errors words it: `where` (its path) and what is wrong."""
    path, value = json_path(p.path, where), p.value
    if p.keyword == "type":
        return _("{path}: expected {types}, got {type}").format(path=path, types=_either(p.expected),
                                                                type=type(value).__name__)
    if p.keyword == "const":
        return _("{path}: {value}, expected {expected}").format(path=path, value=repr(value), expected=repr(p.expected))
    if p.keyword == "enum":
        return _("{path}: {value} is not one of {choices}").format(path=path, value=repr(value), choices=p.expected)
    if p.keyword == "minLength":
        return (_("{path}: empty string").format(path=path) if p.expected == 1
                else _("{path}: shorter than {count} characters").format(path=path, count=p.expected))
    if p.keyword == "pattern":
        return _("{path}: {value} does not match {pattern}").format(path=path, value=repr(value), pattern=p.expected)
    if p.keyword == "x-ref":
        return _("{path}: {value} is not a key of {target}").format(
            path=path, value=repr(value), target="$" + p.expected.rstrip("/").replace("/", "."))
    if p.keyword == "minItems":
        return _("{path}: needs at least {count} item(s)").format(path=path, count=p.expected)
    if p.keyword == "required":
        return _("{path}: missing field {field}").format(path=path, field=repr(p.expected))
    if p.keyword == "propertyNames":
        return _("{path}: key {key} does not match {pattern}").format(path=path, key=repr(p.expected),
                                                                      pattern=p.node["propertyNames"]["pattern"])
    return _("{path}: unexpected field {field}").format(path=path, field=repr(p.expected))


def _either(types: List[str]) -> str:
    """'object', 'object or null', 'string or number or null': JSON type names, joined in the run's language."""
    text = types[0]
    for t in types[1:]:
        text = _("{first} or {second}").format(first=text, second=t)
    return text
