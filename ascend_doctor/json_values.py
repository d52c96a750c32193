"""JSON values as the strict rank-table reader gives them, and how messages name them.

The reader (rank_table.parse_rank_table_text) keeps numbers too long to be ids, and NaN/Infinity, as text
marked by their own str subclasses, so no int() can blow up and messages can say what the file holds.
`show` quotes a value for a message, `kind` names its JSON type, `as_int` reads an id or port field.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Tuple

from .i18n import N_
from .i18n_text import Text

# Numbers longer than this are not ids or ports; kept as text so int() cannot blow up.
MAX_DIGITS = 18


class HugeNumber(str):
    """A JSON number too long to be an id; kept as its text."""


class NonJsonConstant(str):
    """NaN / Infinity: Python's json accepts them, strict JSON (and HCCL) do not."""


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def show(value: Any) -> str:
    if isinstance(value, HugeNumber):
        return _clip(str(value), 24) + f" ({len(value)} digits)"
    if isinstance(value, NonJsonConstant):
        return str(value)
    if isinstance(value, dict):
        return Text(N_("an object {{...}}"))
    if isinstance(value, list):
        return Text(N_("a list of {count}"), count=len(value))
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _clip(json.dumps(value, ensure_ascii=True), 60)
    return _clip(repr(value), 40)


_KIND = {"object": Text(N_("an object")), "list": Text(N_("a list")), "bool": Text(N_("true/false")),
         "number": Text(N_("a number")), "string": Text(N_("a string"))}


def kind(value: Any) -> str:
    if isinstance(value, dict):
        return _KIND["object"]
    if isinstance(value, list):
        return _KIND["list"]
    if isinstance(value, bool):
        return _KIND["bool"]
    if value is None:
        return "null"
    if isinstance(value, (HugeNumber, NonJsonConstant)):
        return _KIND["number"]
    if isinstance(value, str):
        return _KIND["string"]
    return _KIND["number"]


def as_int(value: Any, allow_string: bool = True, allow_number: bool = True) -> Tuple[Optional[int], Optional[str]]:
    """A whole number >= 0 given as a JSON number or a digit string. Returns (value, why-not)."""
    if type(value) is str and allow_string and len(value) <= MAX_DIGITS and value.isdigit() and value.isascii():
        return int(value), None  # the common case, first: 32k ranks pass through here twice
    if isinstance(value, HugeNumber):
        return None, Text(N_("is {value}, far too large"), value=show(value))
    if isinstance(value, NonJsonConstant):
        return None, Text(N_("is {value}, expected a whole number"), value=str(value))
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return None, Text(N_("is {value}, expected a whole number"), value=kind(value))
    if type(value) is int:
        if not allow_number:
            return None, Text(N_("is the number {value}, expected a string such as \"{value}\""), value=value)
        if value < 0:
            return None, Text(N_("is {value}, expected a whole number >= 0"), value=value)
        return value, None
    if isinstance(value, float):
        return None, Text(N_("is {value}, expected a whole number"), value=show(value))
    if isinstance(value, str):
        if not allow_string:
            return None, Text(N_("is the string {value}, expected a JSON number (no quotes)"), value=show(value))
        if value.isascii() and value.isdigit():
            if len(value) > MAX_DIGITS:
                return None, Text(N_("is {value}, far too large"), value=show(value))
            return int(value), None
        if value.strip() != value and value.strip().isdigit():
            return None, Text(N_("is {value}, which has spaces around the number"), value=show(value))
        if value.startswith("-") and value[1:].isdigit():
            return None, Text(N_("is {value}, expected a whole number >= 0"), value=show(value))
        return None, Text(N_("is {value}, expected a whole number such as \"0\""), value=show(value))
    return None, Text(N_("is {value}, expected a whole number"), value=show(value))
