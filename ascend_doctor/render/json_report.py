from __future__ import annotations

import json
import os

from ..findings import Report


def render(report: Report, color: bool = False) -> str:
    """report.to_json(), indented, each `i18n` block (report/2's message ids) on one line: they are for programs,
    and indented they would double the file a node writes and `aggregate` reads."""
    data = report.to_json()
    blocks = []
    tag = os.urandom(6).hex()  # the placeholders' mark: no text of the report can hold it

    def hold(holder: dict) -> None:
        if isinstance(holder, dict) and "i18n" in holder:
            blocks.append(json.dumps(holder["i18n"], ensure_ascii=False, separators=(",", ":")))
            holder["i18n"] = f"\0{tag}{len(blocks) - 1}\0"

    hold(data)  # the facts' message ids
    for f in data.get("findings") or []:
        hold(f)
    plan = data.get("plan") or {}
    for s in plan.get("steps") or []:
        hold(s)
    for a in plan.get("alternatives") or []:
        hold(a)
        for s in a.get("steps") or []:
            hold(s)
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    if not blocks:
        return text
    import re  # the placeholders are JSON strings "\u0000<tag><i>\u0000"

    return re.sub(r'"\\u0000' + tag + r'(\d+)\\u0000"', lambda m: blocks[int(m.group(1))], text)
