"""`check --format html` (and preflight, matrix check, smoke): the report as one self-contained page.

The verdict first (what failed, in one box), then the node's plan when the report has one, the version table,
every area's findings with their evidence and fixes (problems in full, passes condensed, skips in one line),
and the verdict line again at the end. The same words as the text report (render/text.py).
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Finding, Report
from ..i18n import N_, _
from .common import (
    ORDER, area_title, facts_summary, joined, matrix_summary, shown_areas, shown_in_full, status_label, verdict_scope,
)
from .html_page import esc, header_row, report_page
from .layout import evidence_value, label

# The plan's levels as words (the JSON keeps the English enum value), least disruptive first.
PLAN_LEVELS = {"shell": N_("shell"), "config": N_("configuration"), "python": N_("Python packages"),
               "cann": N_("CANN install"), "driver": N_("driver / firmware"), "hardware": N_("hardware")}
_CLASS = {FAIL: "fail", ERROR: "error", WARN: "warn", PASS: "pass", SKIP: "skip"}


def _badge(status: str) -> str:
    return f"<span class='sev {_CLASS[status]}'>{esc(status_label(status))}</span>"


def _heading(report: Report) -> str:
    host, version = report.host, report.tool.get("version")
    if host.get("kind") == "planned":
        return _("ascend-doctor {version} — a planned install (versions from the command line)").format(version=version)
    heading = {"live": _("ascend-doctor {version} — this machine ({name})"),
               "report": _("ascend-doctor {version} — saved report {report}, judged again ({name})")}\
        .get(host.get("kind"), _("ascend-doctor {version} — snapshot of {name}"))
    return heading.format(version=version, name=host.get("name"), report=host.get("report"))


def _verdict_line(report: Report) -> Tuple[str, str]:
    """(css class, the summary line of the text report)."""
    s = report.summary
    verdict = _("problems found") if s[FAIL] else (_("warnings") if s[WARN] or s[ERROR] else _("healthy"))
    scope = verdict_scope(report.host)
    counts = {"fail": s[FAIL], "warn": s[WARN], "error": s[ERROR], "passed": s[PASS], "skipped": s[SKIP],
              "verdict": verdict, "scope": scope}
    line = (_("Summary: {fail} fail, {warn} warn, {error} could not check, {passed} pass, {skipped} skipped "
              "— {verdict} ({scope}).") if scope else
            _("Summary: {fail} fail, {warn} warn, {error} could not check, {passed} pass, {skipped} skipped "
              "— {verdict}.")).format(**counts)
    return ("fail" if s[FAIL] else "warn" if s[WARN] or s[ERROR] else "ok"), line


def _anchor(f: Finding) -> str:
    return "f-" + f.id


def _finding(f: Finding) -> List[str]:
    out = [f"<article class='finding' id='{esc(_anchor(f))}' data-finding='{esc(f.id)}'>",
           f"<h3>{_badge(f.status)} {esc(f.title)} <code class='muted'>{esc(f.id)}</code></h3>"]
    if f.summary:
        out.append(f"<p>{esc(f.summary)}</p>")
    if f.evidence:
        out.append("<table class='evidence'>" + "".join(
            f"<tr><th>{esc(label(k))}</th><td><pre class='line'>{esc(evidence_value(v))}</pre></td></tr>"
            for k, v in f.evidence.items()) + "</table>")
    if f.fix:
        out.append("<p>" + esc(_("fix:")) + "</p>" + _fix_html(f.fix))
    if f.pitfall:
        out.append("<p class='muted small'>" + esc(_("pitfall: {pitfall}").format(pitfall=f.pitfall)) + "</p>")
    out.append("</article>")
    return out


def _fix_html(steps: List[str]) -> str:
    """Fix steps in order: runs of commands and code in a <pre> block to copy as they are; a step written in
    words as a paragraph of its own, never inside the block (as in the Markdown report)."""
    from ..fix_script import is_prose

    out, block = [], []
    for step in steps:
        if is_prose(step):
            if block:
                out.append("<pre class='fix'>" + esc("\n".join(block)) + "</pre>")
                block = []
            out.append("<p class='fix'>" + esc(_("by hand: {step}").format(step=step.strip())) + "</p>")
        else:
            block.append(step)
    if block:
        out.append("<pre class='fix'>" + esc("\n".join(block)) + "</pre>")
    return "".join(out)


def _plan(plan: Dict[str, Any], titles: Dict[str, str]) -> List[str]:
    """The node's plan (steps in order, alternatives, what no step clears)."""
    def steps_table(steps: List[dict]) -> str:
        rows = []
        for n, s in enumerate(steps, 1):
            level = s.get("level") or ""
            marks = [m for m, on in ((_("needs root"), s.get("needs_root")), (_("reboot"), s.get("reboot"))) if on]
            resolves = ", ".join(f"<a href='#{esc('f-' + r)}'><code>{esc(r)}</code></a>" for r in s.get("resolves") or [])
            rows.append(f"<tr><td class='num'>{n}</td><td><pre class='line'>{esc(s.get('do') or '')}</pre></td>"
                        f"<td>{esc(_(PLAN_LEVELS[level]) if level in PLAN_LEVELS else level)}</td>"
                        f"<td>{esc(', '.join(marks))}</td><td>{resolves}</td></tr>")
        return ("<table class='wide plan'>" + header_row(_("#|do|level|needs|clears")) + "".join(rows) + "</table>")

    out = ["<h2 id='plan'>" + esc(_("The plan for this node")) + "</h2>"]
    steps = plan.get("steps") or []
    if steps:
        out.append("<p>" + esc(_("The least disruptive steps that clear the failures, in order:")) + "</p>")
        out.append(steps_table(steps))
    for alt in plan.get("alternatives") or []:
        out.append("<h3>" + esc(_("Alternative: {why}").format(why=alt.get("why") or "")) + "</h3>")
        out.append(steps_table(alt.get("steps") or []))
    unresolved = plan.get("unresolved") or []
    if unresolved:
        out.append("<p class='box fail'>" + esc(_("No published pairing clears these; collect the report and ask "
                                                  "support:")) + " "
                   + ", ".join(f"<a href='#{esc('f-' + i)}'><code>{esc(i)}</code></a> {esc(titles.get(i, ''))}"
                               for i in unresolved) + "</p>")
    return out


def render(report: Report, color: bool = False) -> str:
    report = report.worded()  # the door: message ids become words in the current language
    cls, line = _verdict_line(report)
    problems = sorted((f for f in report.findings if f.status in (FAIL, ERROR, WARN)), key=lambda f: ORDER[f.status])
    body = ["<h1>" + esc(_heading(report)) + "</h1>",
            f"<section class='box {cls}' id='verdict'><p><span class='verdict {cls}'>"
            + esc({"fail": _("problems found"), "warn": _("warnings"), "ok": _("healthy")}[cls]) + "</span></p>"
            f"<p id='verdict-line'><b>{esc(line)}</b></p>"]
    if problems:
        body.append("<ul class='problems'>" + "".join(
            f"<li>{_badge(f.status)} <a href='#{esc(_anchor(f))}'>{esc(f.title)}</a> <code class='muted'>{esc(f.id)}"
            "</code></li>" for f in problems) + "</ul>")
    body.append("</section>")
    plan = report.to_json().get("plan")
    if isinstance(plan, dict):
        body += _plan(plan, {f.id: f.title for f in report.findings})
    body.append("<h2 id='versions'>" + esc(_("What is installed")) + "</h2><table class='versions'>"
                + header_row(_("component|found")) + "".join(
                    f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>"
                    for k, v in facts_summary(report.facts) + matrix_summary(report.tool)) + "</table>")
    areas, all_skipped = shown_areas(report)
    for area, items in areas:
        full = shown_in_full(area)
        body.append(f"<h2 id='area-{esc(area)}'>{esc(area_title(area))}</h2>")
        for f in items:
            if f.status in full:
                body += _finding(f)
        passed = [f for f in items if f.status == PASS and f.status not in full]
        if passed:
            body.append("<ul class='passed'>" + "".join(
                f"<li id='{esc(_anchor(f))}' data-finding='{esc(f.id)}'>{_badge(PASS)} {esc(f.title)}"
                + (f" — <span class='muted'>{esc(f.summary)}</span>" if f.summary else "") + "</li>"
                for f in passed) + "</ul>")
        skipped = [f for f in items if f.status == SKIP]
        if skipped:
            body.append(f"<p class='muted small'>{_badge(SKIP)} " + esc(_("not applicable here: {ids}").format(
                ids=", ".join(f.id for f in skipped))) + "</p>")
    if all_skipped:
        body.append("<p class='muted small'>" + esc(_("Not applicable here (every check skipped; ids in --format "
                                                      "json): {areas}.").format(areas=joined(all_skipped))) + "</p>")
    body.append(f"<p class='box {cls}' id='verdict-end'><b>{esc(line)}</b></p>")
    return report_page(_heading(report), body)
