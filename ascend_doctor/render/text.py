"""The terminal report: what was found, problems first, each with evidence and fix."""

from __future__ import annotations

import json
import textwrap
from typing import List

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Report
from .common import LABEL, area_title, facts_summary, grouped, matrix_summary

_COLORS = {FAIL: "\033[31;1m", ERROR: "\033[35;1m", WARN: "\033[33;1m", PASS: "\033[32m", SKIP: "\033[2m"}
_RESET = "\033[0m"
WIDTH = 100
# Areas whose passing findings carry measurements (times, ratios) worth reading even when all is well.
MEASURED_AREAS = ("smoke",)


def _badge(status: str, color: bool) -> str:
    label = f"[{LABEL[status]:>5}]"
    return f"{_COLORS[status]}{label}{_RESET}" if color else label


def _evidence_lines(evidence: dict) -> List[str]:
    out = []
    for key, value in evidence.items():
        if isinstance(value, (dict, list)):
            value = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        text = f"{key}: {value}"
        out.extend(textwrap.wrap(text, WIDTH - 12, subsequent_indent="  ") or [text])
    return out


def render(report: Report, color: bool = False) -> str:
    lines: List[str] = []
    host = report.host
    where = "this machine" if host.get("kind") == "live" else f"snapshot of {host.get('name')}"
    lines.append(f"ascend-doctor {report.tool.get('version')} — {where} ({host.get('name')})")
    lines.append("")
    rows = facts_summary(report.facts) + matrix_summary(report.tool)
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        lines.append(f"  {key:<{width}}  {value}")
    lines.append("")

    all_skipped = []
    for area, items in grouped(report):
        if all(f.status == SKIP for f in items):
            all_skipped.append(f"{area_title(area)} ({len(items)})")
            continue
        # Advice is only emitted when it applies, so it is shown in full like a problem.
        shown_in_full = (FAIL, ERROR, WARN, PASS) if area == "advice" else (FAIL, ERROR, WARN)
        problems = [f for f in items if f.status in shown_in_full]
        quiet = [f for f in items if f.status not in shown_in_full]
        lines.append(f"== {area_title(area)} ==")
        for f in problems:
            lines.append(f"{_badge(f.status, color)} {f.title}  ({f.id})")
            if f.summary:
                lines.extend("        " + l for l in textwrap.wrap(f.summary, WIDTH - 8))
            if f.evidence:
                lines.append("        evidence:")
                lines.extend("          " + l for l in _evidence_lines(f.evidence))
            if f.fix:
                lines.append("        fix:")
                for i, step in enumerate(f.fix, 1):
                    first, *rest = step.splitlines() or [""]
                    lines.append(f"          {i}. {first}")
                    lines.extend(f"             {r}" for r in rest)
            if f.pitfall:
                lines.append(f"        pitfall: {f.pitfall}")
        passed = [f for f in quiet if f.status == PASS]
        skipped = [f for f in quiet if f.status == SKIP]
        for f in passed:
            if area in MEASURED_AREAS and f.summary:  # the numbers are the point of these passes
                lines.append(f"{_badge(PASS, color)} {f.title}")
                lines.extend("        " + l for l in textwrap.wrap(f.summary, WIDTH - 8))
                continue
            detail = f" — {f.summary}" if f.summary and len(f.summary) < 70 else ""
            lines.append(f"{_badge(PASS, color)} {f.title}{detail}")
        if skipped:
            names = ", ".join(f.id for f in skipped)
            lines.extend(textwrap.wrap(f"{_badge(SKIP, color)} not applicable here: {names}", WIDTH,
                                       subsequent_indent="        "))
        lines.append("")

    if all_skipped:
        lines.extend(textwrap.wrap("Not applicable here (every check skipped; ids in --format json): "
                                   + ", ".join(all_skipped) + ".", WIDTH))
        lines.append("")
    s = report.summary
    verdict = "problems found" if s[FAIL] else ("warnings" if s[WARN] or s[ERROR] else "healthy")
    lines.append(f"Summary: {s[FAIL]} fail, {s[WARN]} warn, {s[ERROR]} could not check, "
                 f"{s[PASS]} pass, {s[SKIP]} skipped — {verdict}.")
    return "\n".join(lines) + "\n"
