from __future__ import annotations

import json

from ..findings import Report


def render(report: Report, color: bool = False) -> str:
    """report.to_json(), indented, each `i18n` block (report/2's message ids) on one line: they are for programs,
    and indented they would double the file a node writes and `aggregate` reads."""
    data = report.to_json()
    blocks = []

    def hold(holder: dict) -> None:
        if isinstance(holder, dict) and "i18n" in holder:
            blocks.append(json.dumps(holder["i18n"], ensure_ascii=False, separators=(",", ":")))
            holder["i18n"] = f"\0i18n{len(blocks) - 1}\0"

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
    for i, block in enumerate(blocks):  # the placeholder is a JSON string: "\u0000i18n<i>\u0000"
        text = text.replace(json.dumps(f"\0i18n{i}\0"), block, 1)
    return text
