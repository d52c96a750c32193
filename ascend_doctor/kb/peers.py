"""A peer id only where the peer's rule holds (issue 21): which ascend-fd ids a matched line supports."""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Sequence

from ..data import data_path, load_json_file
from .model import Signature


# A signature's `ascend_fd` ids say which faults of ascend-fd it recognises; a problem carries one of them only
# where that id's own rule (data/ascend_fd_rules.json, from ascend-fd's kg-config.json: all_of strings in one line,
# or its regex) holds on a line the problem matched. A generic code entry (AISW_CANN_ERRCODE_Custom, ascend-fd's
# "[EWI][A-Z0-9][0-9]{4}[):]") is named with the code, as ascend-fd names it: AISW_CANN_ERRCODE_Custom_EE1002.
# An id the table does not hold (a user's part naming a newer ascend-fd) is kept as written: nothing to check.

FD_RULES_FILE = "ascend_fd_rules.json"
_fd_rules: Optional[Dict[str, tuple]] = None


def fd_rules() -> Dict[str, tuple]:
    """{ascend-fd id: (all_of alternatives, compiled regex or None, compiled code regex or None, code group,
    derived)}, read on first use."""
    global _fd_rules
    if _fd_rules is None:
        raw = load_json_file(data_path(FD_RULES_FILE))
        out: Dict[str, tuple] = {}
        for fid, r in (raw.get("rules") or {}).items():
            out[fid] = ([list(a) for a in r.get("all_of") or ()], re.compile(r["regex"]) if r.get("regex") else None,
                        re.compile(r["code"]) if r.get("code") else None, r.get("code_group") or "",
                        bool(r.get("derived")))
        _fd_rules = out
    return _fd_rules


def fd_rule_holds(fd_id: str, line: str) -> Optional[List[str]]:
    """The ids `fd_id` gives this line when its rule holds ([fd_id], or [fd_id_CODE] for a generic code entry),
    [] when it does not, None when the table does not know the id."""
    rule = fd_rules().get(fd_id)
    if rule is None:
        return None
    alts, rx, code, group, derived = rule
    if derived or not (any(all(lit in line for lit in alt) for alt in alts) or (rx is not None and rx.search(line))):
        return []
    if code is None:
        return [fd_id]
    return list(dict.fromkeys(f"{fd_id}_{m.group(group)}" for m in code.finditer(line) if m.group(group)))


def fd_names_code(fd_id: str) -> bool:
    """Whether the id is a generic code entry (named with the code of each line)."""
    rule = fd_rules().get(fd_id)
    return rule is not None and rule[2] is not None


def peer_ids(sig: "Signature", lines: Iterable[str], only: Optional[Sequence[str]] = None) -> List[str]:
    """The ascend-fd ids of `sig` (or those of `only`) that the lines support, in the signature's order (see above)."""
    found: Dict[str, None] = {}
    lines = list(lines)
    for fid in sig.ascend_fd if only is None else only:
        for line in lines:
            got = fd_rule_holds(fid, line)
            if got is None:
                found[fid] = None
                break
            for x in got:
                found[x] = None
    return list(found)
