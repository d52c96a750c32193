"""What a fix may name: known environment variables, documented option values, API version ranges.

The facts are data (data/advice_facts.json, each entry with its source; HCCL and launch variables come
from data/hccl_env.json). This module reads a fix line and says what it names that the data does not
back: a variable no component exports or reads, an option value outside its documented set, or an API
used without the version it needs. `applicable_fixes` drops the steps whose API the installed release
does not have, so a report only shows what works on the machine.
"""

from __future__ import annotations

import functools
import re
from typing import Dict, Iterable, List, Mapping, Optional

from .data import load_data_file
from .versions import parse_version

FILE = "advice_facts.json"

# $VAR, ${VAR}, export VAR=..., and VAR=value at the start of a word (ENV=1 cmd)
_VAR_USE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)|\bexport\s+([A-Za-z_][A-Za-z0-9_]*)=|(?<![\w.$/-])([A-Z][A-Z0-9_]{2,})=")
# shell-local names a fix defines itself: `for i in ...`, `VAR=$(...)`
_LOCAL = re.compile(r"\bfor\s+([A-Za-z_]\w*)\s+in\b|(?<![\w$])([a-z_]\w*)=")


def load() -> dict:
    return load_data_file(FILE)


@functools.lru_cache(maxsize=1)
def known_variables() -> Dict[str, str]:
    """Variable name -> where it is documented."""
    from .hccl_env import variables_by_name

    data = load()
    out = {name: data["sources"][sid] for name, sid in data["variables"].items()}
    for name, spec in variables_by_name().items():
        out.setdefault(name, spec.get("source") or "data/hccl_env.json")
    return out


def variables_named(line: str) -> List[str]:
    """The environment variables a fix line reads or sets (shell-local names it defines are left out)."""
    local = {a or b for a, b in _LOCAL.findall(line)}
    names = []
    for m in _VAR_USE.finditer(line):
        name = m.group(1) or m.group(2) or m.group(3)
        if name not in local and name not in names:
            names.append(name)
    return names


def unknown_variables(line: str) -> List[str]:
    known = known_variables()
    return [n for n in variables_named(line) if n not in known]


def bad_option_values(line: str) -> List[str]:
    """'option=value (allowed: ...)' for every option value the line names outside the documented set."""
    out = []
    for opt in load()["options"]:
        for value in re.findall(opt["pattern"], line):
            if value.startswith("<") or value in opt["values"]:
                continue
            out.append(f"{opt['name']}={value} (documented: {', '.join(opt['values'])})")
    return out


def bad_hccl_values(line: str) -> List[str]:
    """`export HCCL_X=v` with a value data/hccl_env.json documents as invalid (placeholders like <MB> are skipped)."""
    from .hccl_env import validate_hccl_env

    out = []
    for name, value in re.findall(r"\bexport\s+([A-Z][A-Z0-9_]*)=([^\s`;'\"]+)", line):
        if value.startswith("<") or value.startswith("$") or not name.startswith("HCCL_"):
            continue
        issues, _ = validate_hccl_env({name: value})
        out += [f"{name}={value}: {i.message}" for i in issues if i.status == "fail"]
    return out


def apis_named(line: str) -> List[dict]:
    return [api for api in load()["apis"] if re.search(api["pattern"], line)]


def unqualified_apis(line: str) -> List[str]:
    """APIs the line names without saying the version they need."""
    return [f"{api['name']} (needs {api['product']} {api['since']}+)" for api in apis_named(line)
            if not re.search(api["qualifier"], line)]


def _in_range(api: dict, version: str) -> Optional[bool]:
    v = parse_version(version)
    if not v.valid:
        return None
    if api.get("since") and v < parse_version(api["since"]):
        return False
    if api.get("until") and v > parse_version(api["until"]):
        return False
    return True


def applicable_fixes(lines: Iterable[str], installed: Mapping[str, Optional[str]]) -> List[str]:
    """The fix lines whose APIs exist in the installed releases ({"mindspore": "2.4.1", ...}); a product whose
    version is unknown keeps every line (the line itself names the version it needs)."""
    out = []
    for line in lines:
        ok = True
        for api in apis_named(line):
            version = installed.get(api["product"])
            if version and _in_range(api, version) is False:
                ok = False
        if ok:
            out.append(line)
    return out
