"""Parsers for the `key=value` files Ascend installs leave behind.

version.info, *_install.info, /etc/ascend_install.info and version.cfg are all
line-oriented `key=value` text. Real files come indented in docs, with CRLF
endings, BOMs, or shell quoting; every reader here tolerates those.
"""

from __future__ import annotations

import re
from typing import Dict, List


def parse_key_values(text: str, lower_keys: bool = False) -> Dict[str, str]:
    """First occurrence of each key wins (MindSpore and ascend-deployer read the first `Version=`)."""
    out: Dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip()
        if not key or " " in key:
            continue
        if lower_keys:
            key = key.lower()
        value = value.strip().strip('"').strip("'")
        out.setdefault(key, value)
    return out


_BRACKET = re.compile(r"\[([^\]]*)\]")


def parse_bracket_list(value: str) -> List[List[str]]:
    """`[a,b],[c]` -> [["a","b"],["c"]] (the form of compatible_version* keys)."""
    return [[p.strip() for p in m.group(1).split(",")] for m in _BRACKET.finditer(value or "")]
