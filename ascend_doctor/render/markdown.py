"""Markdown report: for pasting into a ticket or a pull request."""

from __future__ import annotations

import json
from typing import List

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Report
from ..i18n import _, lookup
from .common import (
    TIP_LABEL, TRY_LABEL, alternative_label, area_title, facts_summary, grouped, is_tip, plan_lines, status_label,
    verdict_scope,
)
from .layout import keyed


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(report: Report, color: bool = False) -> str:
    report = report.worded()  # the door: message ids become words in the current language
    out: List[str] = [_("# ascend-doctor report: {name}").format(name=report.host.get("name")), ""]
    out += [_("| component | found |"), "|---|---|"]
    out += [f"| {_cell(k)} | {_cell(v)} |" for k, v in facts_summary(report.facts)]
    out.append("")
    s = report.summary
    scope = verdict_scope(report.host)
    counts = {"fail": s[FAIL], "warn": s[WARN], "error": s[ERROR], "passed": s[PASS], "skipped": s[SKIP],
              "scope": scope}
    out.append((_("**{fail} fail, {warn} warn, {error} could not check, {passed} pass, {skipped} skipped** "
                  "({scope})") if scope else
                _("**{fail} fail, {warn} warn, {error} could not check, {passed} pass, {skipped} skipped**"))
               .format(**counts))
    out.append("")
    for area, items in grouped(report):
        out.append(f"## {area_title(area)}")
        out.append("")
        for f in items:
            if f.status == SKIP:
                continue
            item = {"status": _(TIP_LABEL) if is_tip(f) else status_label(f.status), "title": f.title, "id": f.id,
                    "summary": f.summary}
            out.append((_("- **{status}** {title} (`{id}`) — {summary}") if f.summary else
                        _("- **{status}** {title} (`{id}`)")).format(**item))
            if f.status in (FAIL, ERROR, WARN) or is_tip(f):
                for k, v in f.evidence.items():
                    if isinstance(v, (dict, list)):
                        v = json.dumps(v, ensure_ascii=False)
                    elif isinstance(v, str):
                        v = lookup(v)  # a fixed phrase ("not found") in the reader's language
                    out.append("  - " + keyed(lookup(str(k)), f"`{_cell(v)}`"))
                if f.fix:
                    out.append("  - " + (_(TRY_LABEL) if is_tip(f) else _("fix:")))
                    out.append("    ```")
                    for step in f.fix:
                        out.extend("    " + l for l in step.splitlines())
                    out.append("    ```")
                for alt in f.alternatives:  # another way, labelled: not a further step
                    out.append("  - " + alternative_label(alt.get("why") or ""))
                    out.append("    ```")
                    for step in alt.get("steps") or []:
                        out.extend("    " + l for l in step.splitlines())
                    out.append("    ```")
                if f.pitfall:
                    out.append("  - " + _("pitfall: {pitfall}").format(pitfall=f.pitfall))
        out.append("")
    plan = report.node_plan()
    if plan.steps or plan.unresolved:
        out += ["## " + _("Plan: the least disruptive steps that clear the failures"), ""]
        for kind, text in plan_lines(plan):
            if kind == "step":
                out.append(text.replace("\n", " "))
            elif kind == "alt_step":
                out.append("   " + text.replace("\n", " "))
            elif kind == "alternative":
                out += ["", "- " + text]
            else:
                out.append(("   - " if kind == "resolves" else "- ") + text)
        out.append("")
    return "\n".join(out) + "\n"
