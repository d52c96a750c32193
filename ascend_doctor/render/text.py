"""The terminal report: what was found, problems first, each with evidence and fix."""

from __future__ import annotations

from typing import List, Optional

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Report
from ..i18n import _
from .common import (
    TIP_LABEL, TRY_LABEL, alternative_label, area_title, facts_summary, is_tip, joined, matrix_summary,
    plan_lines, shown_areas, shown_in_full, status_label, verdict_scope,
)
from .layout import display_width, evidence_lines, pad, terminal_width, wrap

_COLORS = {FAIL: "\033[31;1m", ERROR: "\033[35;1m", WARN: "\033[33;1m", PASS: "\033[32m", SKIP: "\033[2m"}
_RESET = "\033[0m"
# Areas whose passing findings carry measurements (times, ratios) worth reading even when all is well.
MEASURED_AREAS = ("smoke",)


def _badge(status: str, color: bool, tip: bool = False) -> str:
    label = f"[{pad(_(TIP_LABEL) if tip else status_label(status), 5, '>')}]"  # 7 columns in every language
    return f"{_COLORS[status]}{label}{_RESET}" if color else label


def _evidence_lines(evidence: dict, width: int, indent: str) -> List[str]:
    out = []
    for depth, text in evidence_lines(evidence):
        pad = indent + "  " * depth
        out.extend(wrap(text, width, pad, pad + "    "))
    return out


def _titled(badge: str, title: str, width: int) -> List[str]:
    """A finding's first line: the badge (7 terminal columns), then the title wrapped under itself."""
    first, *rest = wrap(title, width, " " * 8, " " * 8)
    return [badge + " " + first[8:]] + rest


def render(report: Report, color: bool = False, width: Optional[int] = None) -> str:
    """The report for a terminal `width` columns wide (default: COLUMNS, else the terminal's, else 80)."""
    report = report.worded()  # the door: message ids become words in the current language
    width = width or terminal_width()
    lines: List[str] = []
    host = report.host
    version = report.tool.get("version")
    if host.get("kind") == "planned":
        lines.append(_("ascend-doctor {version} — a planned install (versions from the command line)")
                     .format(version=version))
    else:
        heading = {"live": _("ascend-doctor {version} — this machine ({name})"),
                   "report": _("ascend-doctor {version} — saved report {report}, judged again ({name})")}\
            .get(host.get("kind"), _("ascend-doctor {version} — snapshot of {name}"))
        lines.append(heading.format(version=version, name=host.get("name"), report=host.get("report")))
    lines.append("")
    rows = facts_summary(report.facts) + matrix_summary(report.tool)
    key_width = max(display_width(k) for k, _v in rows)
    for key, value in rows:  # one line each, whatever the width: a fact is looked for (and grepped) whole
        lines.append(f"  {pad(key, key_width)}  {value}")
    lines.append("")

    areas, all_skipped = shown_areas(report)
    for area, items in areas:
        full = shown_in_full(area)
        problems = [f for f in items if f.status in full]
        quiet = [f for f in items if f.status not in full]
        lines.append(f"== {area_title(area)} ==")
        for f in problems:
            lines.extend(_titled(_badge(f.status, color, is_tip(f)), _("{title}  ({id})").format(title=f.title, id=f.id),
                                 width))
            if f.summary:
                lines.extend(wrap(f.summary, width, " " * 8))
            if f.evidence:
                lines.append("        " + _("evidence:"))
                lines.extend(_evidence_lines(f.evidence, width, " " * 10))
            if f.fix:
                lines.append("        " + (_(TRY_LABEL) if is_tip(f) else _("fix:")))
                for i, step in enumerate(f.fix, 1):
                    first, *rest = step.splitlines() or [""]
                    lines.append(f"          {i}. {first}")
                    lines.extend(f"             {r}" for r in rest)
            for alt in f.alternatives:  # another way, labelled as such: not a further step
                lines.append("        " + alternative_label(alt.get("why") or ""))
                for i, step in enumerate(alt.get("steps") or [], 1):
                    first, *rest = step.splitlines() or [""]
                    lines.append(f"          {i}. {first}")
                    lines.extend(f"             {r}" for r in rest)
            if f.pitfall:
                lines.append("        " + _("pitfall: {pitfall}").format(pitfall=f.pitfall))
        passed = [f for f in quiet if f.status == PASS]
        skipped = [f for f in quiet if f.status == SKIP]
        for f in passed:
            if area in MEASURED_AREAS and f.summary:  # the numbers are the point of these passes
                lines.extend(_titled(_badge(PASS, color), f.title, width))
                lines.extend(wrap(f.summary, width, " " * 8))
                continue
            short = f.summary and display_width(f.summary) < 70
            line = _("{title} — {summary}").format(title=f.title, summary=f.summary) if short else f.title
            lines.extend(_titled(_badge(PASS, color), line, width))
        if skipped:
            names = joined(f.id for f in skipped)
            lines.extend(_titled(_badge(SKIP, color), _("not applicable here: {ids}").format(ids=names), width))
        lines.append("")

    if all_skipped:
        lines.extend(wrap(_("Not applicable here (every check skipped; ids in --format json): {areas}.")
                          .format(areas=joined(all_skipped)), width))
        lines.append("")
    plan = report.node_plan()
    if plan.steps or plan.unresolved:  # the node's one plan, numbered, before the verdict
        lines.append("== " + _("Plan: the least disruptive steps that clear the failures") + " ==")
        indent = {"step": "  ", "resolves": "       ", "unresolved": "  ", "alternative": "  ", "alt_step": "    "}
        for kind, text in plan_lines(plan):
            ind = indent[kind]
            if kind in ("step", "alt_step"):  # a command is never broken; the number hangs
                first, *rest = text.splitlines()
                lines.append(ind + first)
                lines.extend(ind + "   " + r for r in rest)
            else:
                lines.extend(wrap(text, width, ind, ind + "  "))
        lines.append("")
    s = report.summary
    verdict = _("problems found") if s[FAIL] else (_("warnings") if s[WARN] or s[ERROR] else _("healthy"))
    # The verdict says what it covers: "healthy" on a host without an Ascend stack is not a verdict on Ascend.
    scope = verdict_scope(host)
    counts = {"fail": s[FAIL], "warn": s[WARN], "error": s[ERROR], "passed": s[PASS], "skipped": s[SKIP],
              "verdict": verdict, "scope": scope}
    summary = _("Summary: {fail} fail, {warn} warn, {error} could not check, {passed} pass, {skipped} skipped "
                "— {verdict} ({scope}).") if scope else \
        _("Summary: {fail} fail, {warn} warn, {error} could not check, {passed} pass, {skipped} skipped "
          "— {verdict}.")
    lines.extend(wrap(summary.format(**counts), width, "", "  "))
    return "\n".join(lines) + "\n"
