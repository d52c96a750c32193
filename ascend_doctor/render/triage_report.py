"""Renderers for `ascend-doctor triage`: text, json, markdown. Pure functions of a TriageResult."""

from __future__ import annotations

import json
from typing import List

from ..triage.result import Problem, TriageResult

FORMATS = ("text", "json", "markdown")
_LABEL = {"fail": "FAIL", "warn": "WARN", "info": "info"}
_COLOR = {"fail": "\033[31;1m", "warn": "\033[33;1m", "info": "\033[2m"}


def render_triage(result: TriageResult, fmt: str, color: bool = False) -> str:
    if fmt == "json":
        return json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return _markdown(result)
    return _text(result, color)


def _where(p: Problem) -> str:
    first, last = p.first, p.last
    s = f"first {first.where()}" + (f" ({first.rank})" if first.rank else "") + (f" at {first.time}" if first.time else "")
    if p.count > 1:
        s += f", last {last.where()}"
    return s


def _ranks_line(p: Problem) -> str:
    if len(p.ranks) < 2:
        return ""
    order = sorted(p.ranks.items(), key=lambda kv: (kv[1].time or "9999", kv[1].seq))
    head = order[0]
    return (f"seen on {len(order)} ranks/files; first on {head[0]} ({head[1].where()})"
            + (f" at {head[1].time}" if head[1].time else "") + ", then " + ", ".join(k for k, _ in order[1:6])
            + (" …" if len(order) > 6 else ""))


def _inputs_summary(result: TriageResult) -> List[str]:
    scanned = [i for i in result.inputs if i.scanned]
    out = [f"Read {len(scanned)} file(s), {sum(i.bytes for i in scanned) / 1e6:.1f} MB, "
           f"{sum(i.lines for i in scanned)} lines."]
    for i in result.inputs:
        if i.note:
            out.append(f"  note: {i.label}: {i.note}")
    return out


def _text(result: TriageResult, color: bool) -> str:
    def c(sev, s):
        return f"{_COLOR[sev]}{s}\033[0m" if color else s

    lines = ["ascend-doctor triage", ""]
    lines += _inputs_summary(result)
    lines.append("")
    real = [p for p in result.problems if p.severity != "info"]
    harmless = [p for p in result.problems if p.severity == "info"]
    if not real:
        lines.append("No known problem found in these logs.")
        if result.last_error_lines:
            lines.append("The last error-looking lines were:")
            for e in result.last_error_lines:
                lines.append(f"  {e['file']}:{e['line']}: {e['text']}")
        elif not harmless:
            lines.append("No error-looking lines either.")
    else:
        first = result.first_problem()
        lines.append(f"{len(real)} known problem(s). The earliest: {first.signature.id} at {first.first.where()}"
                     + (f" ({first.first.rank})" if first.first.rank else "")
                     + (f", {first.first.time}" if first.first.time else "")
                     + " — the first error is usually the root cause; the others often follow from it.")
        for n, p in enumerate(real, 1):
            s = p.signature
            lines.append("")
            lines.append(c(p.severity, f"{n}. {_LABEL[p.severity]} {s.id}") + f"  [{s.component}"
                         + (f", pitfall {s.pitfall}" if s.pitfall else "") + (", generic wrapper" if s.kind == "wrapper" else "")
                         + f"]  ×{p.count}")
            lines.append(f"   {s.title}")
            lines.append(f"   {_where(p)}")
            rl = _ranks_line(p)
            if rl:
                lines.append(f"   {rl}")
            lines.append(f"   > {p.text}")
            lines.append(f"   Cause: {s.cause}")
            lines.append("   Fix:")
            for i, step in enumerate(s.fix, 1):
                lines.append(f"     {i}. {step}")
            lines.append(f"   Source: {s.source}")
    if harmless:
        lines.append("")
        lines.append("Harmless or cleared (no action needed):")
        for p in harmless:
            why = f"cleared later at {p.resolved_by.where()}" if p.resolved_by else p.signature.title
            lines.append(f"  - {p.signature.id} ×{p.count} ({p.first.where()}): {why}")
    counts = result.counts()
    lines.append("")
    lines.append(f"Summary: {counts['fail']} fail, {counts['warn']} warn, {counts['info']} info")
    return "\n".join(lines) + "\n"


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def _markdown(result: TriageResult) -> str:
    out = ["# ascend-doctor triage", ""]
    out += [l.strip() for l in _inputs_summary(result)]
    out.append("")
    real = [p for p in result.problems if p.severity != "info"]
    if not real:
        out.append("**No known problem found in these logs.**")
        if result.last_error_lines:
            out += ["", "Last error-looking lines:", "", "```"]
            out += [f"{e['file']}:{e['line']}: {e['text']}" for e in result.last_error_lines]
            out.append("```")
    else:
        out += ["| # | severity | signature | pitfall | count | first | last |", "|---|---|---|---|---|---|---|"]
        for n, p in enumerate(real, 1):
            out.append(f"| {n} | {p.severity} | `{p.signature.id}` | {p.signature.pitfall or ''} | {p.count} | "
                       f"{_md_escape(p.first.where())} {p.first.rank or ''} | {_md_escape(p.last.where())} |")
        for n, p in enumerate(real, 1):
            s = p.signature
            out += ["", f"## {n}. {s.id}: {_md_escape(s.title)}", "", "```", p.text, "```", "",
                    f"**Cause.** {s.cause}", "", "**Fix.**", ""]
            out += [f"{i}. {step}" for i, step in enumerate(s.fix, 1)]
            rl = _ranks_line(p)
            if rl:
                out += ["", f"*{rl}*"]
            out += ["", f"Source: {s.source}"]
    harmless = [p for p in result.problems if p.severity == "info"]
    if harmless:
        out += ["", "## Harmless or cleared", ""]
        out += [f"- `{p.signature.id}` ×{p.count}: {_md_escape(p.signature.title)}" for p in harmless]
    return "\n".join(out) + "\n"
