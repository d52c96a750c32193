"""Parsers for the `key=value` files Ascend installs leave behind.

version.info, *_install.info, /etc/ascend_install.info and version.cfg are all
line-oriented `key=value` text. Real files come indented in docs, with CRLF
endings, BOMs, or shell quoting; every reader here tolerates those.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..lazyre import lazy_compile


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


_BRACKET = lazy_compile(r"\[([^\]]*)\]")


def parse_bracket_list(value: str) -> List[List[str]]:
    """`[a,b],[c]` -> [["a","b"],["c"]] (the form of compatible_version* keys)."""
    return [[p.strip() for p in m.group(1).split(",")] for m in _BRACKET.finditer(value or "")]


def get_ci(values: Dict[str, str], key: str):
    """Value of `key` matched case-insensitively (ascend-deployer greps `-iw`), or None."""
    if key in values:
        return values[key]
    low = key.lower()
    for k, v in values.items():
        if k.lower() == low:
            return v
    return None


def looks_binary(text: str) -> bool:
    """True for text that is not a key=value file: NUL bytes or mostly undecodable bytes."""
    if "\x00" in text:
        return True
    sample = text[:4096]
    if not sample:
        return False
    bad = sample.count("\ufffd") + sum(1 for c in sample if ord(c) < 32 and c not in "\r\n\t\f")
    return bad * 10 > len(sample)


_CFG_ENTRY = lazy_compile(r"\[([^\]:]*):([^\]]*)\]")


def parse_version_cfg(text: str) -> Dict[str, Dict[str, str]]:
    """CANN `version.cfg` -> {component: {"internal": "7.6.0.1.220", "release": "8.0.0"}}.

    Lines look like `compiler_running_version=[7.6.0.1.220:8.0.0]`; only the *running*
    entries describe what is installed now (`installed_version` keeps the history).
    """
    out: Dict[str, Dict[str, str]] = {}
    for key, value in parse_key_values(text).items():
        if not key.endswith("_running_version"):
            continue
        entries = _CFG_ENTRY.findall(value)
        if not entries:
            continue
        internal, release = entries[-1]
        out[key[: -len("_running_version")]] = {"internal": internal.strip(), "release": release.strip()}
    return out


def read_key_value_file(host, path: str, expected: str, errors: List[str]) -> Optional[Dict[str, str]]:
    """The key/values of a file read through `host`, or None when it is absent or unusable.

    An absent file is not an error (the caller decides what absence means); an
    unreadable, empty, binary or key-less one is recorded in `errors` as
    "<path>: <what is wrong>, expected <expected>".
    """
    from .. import phrases
    from ..i18n_text import Text, error_text
    from ..host import FileMissing, HostError

    try:
        text = host.read_text(path)
    except FileMissing:
        return None
    except HostError as exc:
        errors.append(Text(phrases.UNREADABLE_FILE, error=error_text(exc), expected=expected))
        return None
    if not text.strip():
        errors.append(Text(phrases.EMPTY_FILE, path=path, expected=expected))
        return None
    if looks_binary(text):
        errors.append(Text(phrases.BINARY_FILE, path=path, expected=expected))
        return None
    values = parse_key_values(text)
    if not values:
        errors.append(Text(phrases.NO_KEY_VALUES, path=path, expected=expected))
        return None
    return values
