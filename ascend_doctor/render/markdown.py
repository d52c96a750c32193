"""Markdown report: for pasting into a ticket or a pull request."""

from __future__ import annotations

import json
from typing import List

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Report
from .common import LABEL, area_title, facts_summary, grouped


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(report: Report, color: bool = False) -> str:
    out: List[str] = [f"# ascend-doctor report: {report.host.get('name')}", ""]
    out += ["| component | found |", "|---|---|"]
    out += [f"| {_cell(k)} | {_cell(v)} |" for k, v in facts_summary(report.facts)]
    out.append("")
    s = report.summary
    scope = f" ({report.host['checked_as']})" if report.host.get("checked_as") else ""
    out.append(f"**{s[FAIL]} fail, {s[WARN]} warn, {s[ERROR]} could not check, {s[PASS]} pass, {s[SKIP]} skipped**{scope}")
    out.append("")
    for area, items in grouped(report):
        out.append(f"## {area_title(area)}")
        out.append("")
        for f in items:
            if f.status == SKIP:
                continue
            out.append(f"- **{LABEL[f.status]}** {f.title} (`{f.id}`)" + (f" — {f.summary}" if f.summary else ""))
            if f.status in (FAIL, ERROR, WARN):
                for k, v in f.evidence.items():
                    if isinstance(v, (dict, list)):
                        v = json.dumps(v, ensure_ascii=False)
                    out.append(f"  - {k}: `{_cell(v)}`")
                if f.fix:
                    out.append("  - fix:")
                    out.append("    ```")
                    for step in f.fix:
                        out.extend("    " + l for l in step.splitlines())
                    out.append("    ```")
                if f.pitfall:
                    out.append(f"  - pitfall: {f.pitfall}")
        out.append("")
    return "\n".join(out) + "\n"
