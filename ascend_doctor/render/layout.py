"""Terminal layout for the human-readable renderers: the width, wrapping that never breaks a path or a
command, and evidence as `key: value` lines.

Wrapping breaks only at whitespace, and inside a colon-separated path list (PATH, LD_LIBRARY_PATH) after a
':' that is followed by '/': never at '-' or inside a path, so what the report shows can be copied back
into a shell. A word longer than the line keeps its own (longer) line.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, Iterator, List, Optional, Tuple

DEFAULT_WIDTH = 80
MIN_WIDTH = 40  # a narrower terminal still gets readable (longer) lines rather than one word per line
_WORD = re.compile(r"\S+")
_PATH_LIST_BREAK = re.compile(r"(?<=:)(?=/)")


def terminal_width(stream=None) -> int:
    """COLUMNS when it is a positive number, else the terminal's width (stdout, then stderr), else 80."""
    value = os.environ.get("COLUMNS", "").strip()
    if value.isdigit() and int(value) > 0:
        return max(MIN_WIDTH, int(value))
    for s in ((stream,) if stream is not None else (sys.stdout, sys.stderr)):
        try:
            cols = os.get_terminal_size(s.fileno()).columns
        except (AttributeError, OSError, ValueError):
            continue
        if cols > 0:
            return max(MIN_WIDTH, cols)
    return DEFAULT_WIDTH


def _pieces(text: str) -> Iterator[Tuple[str, str]]:
    """(joiner, piece): the places a line may end. joiner is ' ' between words, '' inside a path list."""
    for m in _WORD.finditer(text):
        for i, part in enumerate(_PATH_LIST_BREAK.split(m.group(0))):
            yield ("" if i else " "), part


def wrap(text: str, width: int, indent: str = "", subsequent: Optional[str] = None) -> List[str]:
    """Greedy fill of `text` into lines of at most `width` characters (each line's paragraphs kept apart)."""
    subsequent = indent if subsequent is None else subsequent
    out: List[str] = []
    for paragraph in str(text).splitlines() or [""]:
        line, empty = indent, True
        for joiner, piece in _pieces(paragraph):
            if empty:
                line, empty = line + piece, False
            elif len(line) + len(joiner) + len(piece) <= width:
                line += joiner + piece
            else:
                out.append(line)
                line = subsequent + piece
        out.append(line if not empty else indent.rstrip())
        indent = subsequent
    return out


def scalar(value: Any) -> str:
    """A value as a reader writes it: yes/no, none, numbers and text as they are (never a Python repr)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list, tuple))


def evidence_lines(evidence: Any, depth: int = 0) -> List[Tuple[int, str]]:
    """Evidence as (depth, "key: value") lines: nested dicts indent, lists of plain values join with ', ',
    lists of dicts become '- key: value' items. Never JSON, never a repr."""
    out: List[Tuple[int, str]] = []
    items = evidence.items() if isinstance(evidence, dict) else enumerate(evidence or [])
    for key, value in items:
        if _is_scalar(value):
            out.append((depth, f"{key}: {scalar(value)}"))
        elif not value:
            out.append((depth, f"{key}: none"))
        elif isinstance(value, dict):
            out.append((depth, f"{key}:"))
            out.extend(evidence_lines(value, depth + 1))
        elif all(_is_scalar(v) for v in value):
            out.append((depth, f"{key}: " + ", ".join(scalar(v) for v in value)))
        else:
            out.append((depth, f"{key}:"))
            for item in value:
                if _is_scalar(item):
                    out.append((depth + 1, f"- {scalar(item)}"))
                    continue
                inner = evidence_lines(item, depth + 2) or [(depth + 2, "none")]
                first_depth, first = inner[0]
                out.append((depth + 1, "- " + first))
                out.extend(inner[1:])
    return out
