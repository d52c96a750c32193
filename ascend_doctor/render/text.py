"""The terminal report: what was found, problems first, each with evidence and fix."""

from __future__ import annotations

from typing import List, Optional

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Report
from .common import LABEL, area_title, facts_summary, grouped, matrix_summary
from .layout import evidence_lines, terminal_width, wrap

_COLORS = {FAIL: "\033[31;1m", ERROR: "\033[35;1m", WARN: "\033[33;1m", PASS: "\033[32m", SKIP: "\033[2m"}
_RESET = "\033[0m"
# Areas whose passing findings carry measurements (times, ratios) worth reading even when all is well.
MEASURED_AREAS = ("smoke",)


def _badge(status: str, color: bool) -> str:
    label = f"[{LABEL[status]:>5}]"
    return f"{_COLORS[status]}{label}{_RESET}" if color else label


def _evidence_lines(evidence: dict, width: int, indent: str) -> List[str]:
    out = []
    for depth, text in evidence_lines(evidence):
        pad = indent + "  " * depth
        out.extend(wrap(text, width, pad, pad + "    "))
    return out


def _titled(badge: str, title: str, width: int) -> List[str]:
    """A finding's first line: the badge (7 visible characters), then the title wrapped under itself."""
    first, *rest = wrap(title, width, " " * 8, " " * 8)
    return [badge + " " + first[8:]] + rest


def render(report: Report, color: bool = False, width: Optional[int] = None) -> str:
    """The report for a terminal `width` columns wide (default: COLUMNS, else the terminal's, else 80)."""
    width = width or terminal_width()
    lines: List[str] = []
    host = report.host
    if host.get("kind") == "planned":
        lines.append(f"ascend-doctor {report.tool.get('version')} — a planned install (versions from the command line)")
    else:
        where = {"live": "this machine", "report": f"saved report {host.get('report')}, judged again"}\
            .get(host.get("kind"), f"snapshot of {host.get('name')}")
        lines.append(f"ascend-doctor {report.tool.get('version')} — {where} ({host.get('name')})")
    lines.append("")
    rows = facts_summary(report.facts) + matrix_summary(report.tool)
    key_width = max(len(k) for k, _ in rows)
    for key, value in rows:  # one line each, whatever the width: a fact is looked for (and grepped) whole
        lines.append(f"  {key:<{key_width}}  {value}")
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
            lines.extend(_titled(_badge(f.status, color), f"{f.title}  ({f.id})", width))
            if f.summary:
                lines.extend(wrap(f.summary, width, " " * 8))
            if f.evidence:
                lines.append("        evidence:")
                lines.extend(_evidence_lines(f.evidence, width, " " * 10))
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
                lines.extend(_titled(_badge(PASS, color), f.title, width))
                lines.extend(wrap(f.summary, width, " " * 8))
                continue
            detail = f" — {f.summary}" if f.summary and len(f.summary) < 70 else ""
            lines.extend(_titled(_badge(PASS, color), f"{f.title}{detail}", width))
        if skipped:
            names = ", ".join(f.id for f in skipped)
            lines.extend(_titled(_badge(SKIP, color), f"not applicable here: {names}", width))
        lines.append("")

    if all_skipped:
        lines.extend(wrap("Not applicable here (every check skipped; ids in --format json): "
                          + ", ".join(all_skipped) + ".", width))
        lines.append("")
    s = report.summary
    verdict = "problems found" if s[FAIL] else ("warnings" if s[WARN] or s[ERROR] else "healthy")
    # The verdict says what it covers: "healthy" on a host without an Ascend stack is not a verdict on Ascend.
    scope = f" ({host['checked_as']})" if host.get("checked_as") else ""
    lines.extend(wrap(f"Summary: {s[FAIL]} fail, {s[WARN]} warn, {s[ERROR]} could not check, "
                      f"{s[PASS]} pass, {s[SKIP]} skipped — {verdict}{scope}.", width, "", "  "))
    return "\n".join(lines) + "\n"
