"""Reading a rank table: strict JSON with line and column on errors, `//` comments reported then skipped,
keys given twice and NaN/Infinity remembered for the validator."""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Set, Tuple

from ..findings import FAIL
from ..i18n import N_
from ..i18n_text import Text
from ..json_values import MAX_DIGITS as _MAX_DIGITS
from ..json_values import HugeNumber as _HugeNumber
from ..json_values import NonJsonConstant as _NonJsonConstant
from ..json_values import _clip
from ..reasons import JSON_REASONS
from .model import Problem


def _parse_int(text: str):
    return _HugeNumber(text) if len(text.lstrip("-")) > _MAX_DIGITS else int(text)


def _parse_float(text: str):
    if len(text) > 40:
        return _HugeNumber(text)
    return float(text)


_COMMENT_OR_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)


def _line_col(text: str, pos: int) -> Tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _strip_comments(text: str) -> Tuple[str, List[Tuple[int, int]]]:
    """Blank out // and /* */ comments outside strings (keeping positions); return their line/columns."""
    found: List[Tuple[int, int]] = []

    def repl(m):
        s = m.group(0)
        if s.startswith('"'):
            return s
        found.append(_line_col(text, m.start()))
        return re.sub(r"[^\n]", " ", s)

    return _COMMENT_OR_STRING.sub(repl, text), found


class _Parsed:
    def __init__(self):
        self.duplicates: Dict[int, List[str]] = {}  # id(object) -> keys given twice
        self.constants: List[str] = []


def _loads(text: str, parsed: _Parsed):
    def pairs(items):
        obj = dict(items)
        if len(obj) != len(items):
            seen: Set[str] = set()
            parsed.duplicates[id(obj)] = sorted({k for k, _ in items if k in seen or seen.add(k)})
        return obj

    def constant(name):
        parsed.constants.append(name)
        return _NonJsonConstant(name)

    return json.loads(text, object_pairs_hook=pairs, parse_int=_parse_int, parse_float=_parse_float,
                      parse_constant=constant)


def parse_rank_table_text(text: str) -> Tuple[Any, List[Problem], _Parsed]:
    """Strict JSON with line/column on errors. `//` comments copied from the docs are reported
    (R1) and then skipped, so the rest of the file is still validated in the same run."""
    parsed = _Parsed()
    problems: List[Problem] = []
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        return None, [Problem("", FAIL, "R1", Text(N_("the file is empty; expected a JSON rank table")), 1, 1)], parsed
    try:
        doc = _loads(text, parsed)
    except json.JSONDecodeError as exc:
        stripped, comments = _strip_comments(text)
        if comments:
            for line, col in comments:
                problems.append(Problem("", FAIL, "R1", Text(N_("comment in the file: JSON has no comments (the documentation's samples carry `//` notes that must be deleted)")),
                                        line, col))
            try:
                doc = _loads(stripped, parsed)
            except json.JSONDecodeError as exc2:
                problems.append(_syntax_problem(exc2))
                return None, problems, parsed
            except (ValueError, RecursionError) as exc2:
                problems.append(_value_problem(exc2))
                return None, problems, parsed
        else:
            return None, [_syntax_problem(exc)], parsed
    except RecursionError:
        return None, [Problem("", FAIL, "R1", Text(N_("the JSON is nested too deeply to be a rank table")))], parsed
    except ValueError as exc:
        return None, [_value_problem(exc)], parsed
    if parsed.constants:
        problems.append(Problem("", FAIL, "R1", Text(N_("{constants} is not valid JSON (strict JSON has no NaN/Infinity)"), constants=', '.join(sorted(set(parsed.constants))))))
    return doc, problems, parsed



def _syntax_problem(exc: json.JSONDecodeError) -> Problem:
    hint = ""
    if "Expecting property name" in exc.msg or "Expecting value" in exc.msg:
        hint = Text(N_(" (a trailing comma before }} or ], or a missing value?)"))
    elif "Expecting ',' delimiter" in exc.msg:
        hint = Text(N_(" (a missing comma between two entries?)"))
    elif "Unterminated string" in exc.msg:
        hint = Text(N_(" (a missing closing quote, or the file was cut short?)"))
    reason = Text(exc.msg.replace("{", "{{").replace("}", "}}")) if exc.msg in JSON_REASONS else exc.msg
    return Problem("", FAIL, "R1", Text(N_("not valid JSON: {reason}{hint}"), reason=reason, hint=hint),
                   exc.lineno, exc.colno)


def _value_problem(exc: BaseException) -> Problem:
    if isinstance(exc, RecursionError):
        return Problem("", FAIL, "R1", Text(N_("the JSON is nested too deeply to be a rank table")))
    return Problem("", FAIL, "R1", Text(N_("not valid JSON: {reason}"), reason=_clip(str(exc), 120)))
