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
from typing import Any, Dict, List, Optional

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


def schema_errors(data: Any, schema: dict, limit: int = 50, where: str = "$",
                  max_depth: Optional[int] = None) -> List[str]:
    """Validate `data` against `schema`; returns up to `limit` 'path: problem' lines (none when valid).
    `max_depth`: how many levels below the top to walk (None: all)."""
    errors: List[str] = []
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

    def walk(value: Any, node: dict, path: str, depth: int = 0) -> None:
        if len(errors) >= limit:
            return
        node = resolve(node)
        deeper = max_depth is None or depth < max_depth
        t = node.get("type")
        if t is not None:
            types = t if isinstance(t, list) else [t]
            if not any(_type_ok(value, x) for x in types):
                errors.append(_("{path}: expected {types}, got {type}").format(path=path, types=_either(types),
                                                                               type=type(value).__name__))
                return
        if "const" in node and value != node["const"]:
            errors.append(_("{path}: {value}, expected {expected}").format(path=path, value=repr(value),
                                                                         expected=repr(node["const"])))
        if "enum" in node and value not in node["enum"]:
            errors.append(_("{path}: {value} is not one of {choices}").format(path=path, value=repr(value),
                                                                            choices=node["enum"]))
        if isinstance(value, str):
            if "minLength" in node and len(value) < node["minLength"]:
                errors.append(_("{path}: empty string").format(path=path) if node["minLength"] == 1
                              else _("{path}: shorter than {count} characters").format(path=path,
                                                                                     count=node["minLength"]))
            if "pattern" in node and not re.search(node["pattern"], value):
                errors.append(_("{path}: {value} does not match {pattern}").format(path=path, value=repr(value),
                                                                                 pattern=node["pattern"]))
            if "x-ref" in node:
                keys = ref_target(node["x-ref"])
                if keys is not None and value not in keys:
                    errors.append(_("{path}: {value} is not a key of {target}").format(
                        path=path, value=repr(value), target="$" + node["x-ref"].rstrip("/").replace("/", ".")))
        if isinstance(value, list):
            if "minItems" in node and len(value) < node["minItems"]:
                errors.append(_("{path}: needs at least {count} item(s)").format(path=path, count=node["minItems"]))
            if "items" in node and deeper:
                for i, item in enumerate(value):
                    walk(item, node["items"], f"{path}[{i}]", depth + 1)
        if isinstance(value, dict):
            for key in node.get("required", []):
                if key not in value:
                    errors.append(_("{path}: missing field {field}").format(path=path, field=repr(key)))
            names = node.get("propertyNames", {}).get("pattern")
            if names:
                errors.extend(_("{path}: key {key} does not match {pattern}").format(path=path, key=repr(k), pattern=names)
                              for k in value if not re.search(names, k))
            props = node.get("properties", {})
            extra = node.get("additionalProperties", True)
            for key, item in value.items() if deeper else ():
                if key in props:
                    walk(item, props[key], f"{path}.{key}", depth + 1)
                elif extra is False:
                    errors.append(_("{path}: unexpected field {field}").format(path=path, field=repr(key)))
                elif isinstance(extra, dict):
                    walk(item, extra, f"{path}.{key}", depth + 1)

    walk(data, schema, where)
    return errors[:limit]


def _either(types: List[str]) -> str:
    """'object', 'object or null', 'string or number or null': JSON type names, joined in the run's language."""
    text = types[0]
    for t in types[1:]:
        text = _("{first} or {second}").format(first=text, second=t)
    return text
