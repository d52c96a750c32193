"""Renderers for `ascend-doctor triage`: text, json, markdown. Pure functions of a TriageResult."""

from __future__ import annotations

import re

import json
from typing import List

from ..triage.result import Problem, TriageResult, shown_source

FORMATS = ("text", "json", "markdown")
_LABEL = {"fail": "FAIL", "warn": "WARN", "info": "info"}
_COLOR = {"fail": "\033[31;1m", "warn": "\033[33;1m", "info": "\033[2m"}


def render_triage(result: TriageResult, fmt: str, color: bool = False) -> str:
    if fmt == "json":
        data = result.to_json()
        # Indented for reading when small; one line when large: the indenting encoder is pure Python (~0.1 s for
        # 700 problems, a quarter of a 200 MB triage), the compact one is C (`jq .` indents it for reading).
        indent = 2 if len(data.get("problems") or []) <= COMPACT_JSON_ABOVE else None
        return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return _markdown(result)
    return _text(result, color)


def _where(p: Problem) -> str:
    first, last = p.first, p.last
    who = first.who()
    s = f"first {first.where()}" + (f" ({who})" if who else "") + (f" at {first.time}" if first.time else "")
    if p.count > 1:
        s += f", last {last.where()}" + (f" ({last.device})" if last.device else "")
    return s


def root_cause_headline(rc: dict) -> str:
    """'Root cause: worker-1 device-1 (all others waited on it: a → b → worker-1 device-1)'."""
    devices, chain = rc.get("devices") or [], rc.get("chain") or []
    code = rc.get("ascend_fd_code")
    tail = f"  [{rc['kind']}" + (f", ascend-fd {code}" if code else "") + "]"
    arrow = " → ".join(chain)
    if devices and chain:
        return f"Root cause: {', '.join(devices)} (the others waited on it: {arrow})" + tail
    if devices:
        return f"Root cause: {', '.join(devices)}" + tail
    if chain:
        return f"Root cause: no single device; they wait on each other: {arrow}" + tail
    return "Root cause: not determined from these logs" + tail


def _root_cause_lines(rc: dict) -> List[str]:
    out = [root_cause_headline(rc), f"  {rc['summary']}"]
    fe = rc.get("first_error")
    if fe:
        out.append(f"  {fe['device']}'s first error ({fe['file']}:{fe['line_no']}, {fe['time']}):")
        out.append(f"    > {fe['line']}")
    if rc.get("problem"):
        out.append(f"  matches known problem {rc['problem']} (below)")
    for k, v in (rc.get("evidence") or {}).items():
        if isinstance(v, dict):
            v = "; ".join(f"{a}: {', '.join(b) if isinstance(b, list) else b}" for a, b in v.items())
        elif isinstance(v, list):
            v = ", ".join(map(str, v))
        out.append(f"  {k}: {v}")
    for m in rc.get("missing") or []:
        out.append(f"  missing: {m}")
    if rc.get("fix"):
        out.append("  What to do:")
        out += [f"    {i}. {step}" for i, step in enumerate(rc["fix"], 1)]
    return out


def _ranks_line(p: Problem) -> str:
    if len(p.ranks) < 2:
        return ""
    order = sorted(p.ranks.items(), key=lambda kv: (kv[1].time or "9999", kv[1].seq))
    head = order[0]
    return (f"seen on {len(order)} devices/ranks/files; first on {head[0]} ({head[1].where()})"
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
    if result.root_cause:
        lines += _root_cause_lines(result.root_cause)
        lines.append("")
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
        who = first.first.who()
        lines.append(f"{len(real)} known problem(s). The earliest {_LABEL[first.severity]}: {first.signature.id} at "
                     f"{first.first.where()}" + (f" ({who})" if who else "")
                     + (f", {first.first.time}" if first.first.time else "")
                     + (" — when ranks fail together, the first failure is usually the cause; the others often "
                        "follow from it." if first.severity == "fail" else "."))
        for n, p in enumerate(real, 1):
            s = p.signature
            lines.append("")
            lines.append(c(p.severity, f"{n}. {_LABEL[p.severity]} {s.id}") + f"  [{s.component}"
                         + (f", pitfall {s.pitfall}" if s.pitfall else "") + (", generic wrapper" if s.kind == "wrapper" else "")
                         + f"]  ×{p.count}")
            lines.append(f"   {s.title}")
            if p.caused_by:
                lines.append(f"   caused by {p.caused_by} (above)")
            lines.append(f"   {_where(p)}")
            rl = _ranks_line(p)
            if rl:
                lines.append(f"   {rl}")
            lines.append(f"   > {p.text}")
            lines.append(f"   Cause: {s.cause}")
            lines.append("   Fix:")
            for i, step in enumerate(s.fix, 1):
                lines.append(f"     {i}. {step}")
            lines.append(f"   Source: {shown_source(s)}")
            fd = getattr(s, "ascend_fd", None)
            if fd:
                lines.append(f"   ascend-fd: {', '.join(fd)}")
    if real and result.unexplained:
        lines.append("")
        lines.append("Errors no known signature explains (read them too):")
        for e in result.unexplained:
            lines.append(f"  {e['file']}:{e['line']}: {e['text']}")
    if harmless:
        lines.append("")
        lines.append("Harmless or cleared (no action needed):")
        for p in harmless:
            why = f"cleared later at {p.resolved_by.where()}" if p.resolved_by else p.signature.title
            lines.append(f"  - {p.signature.id} ×{p.count} ({p.first.where()}): {why}")
    counts = result.counts()
    lines.append("")
    lines.append(f"Summary: {counts['fail']} fail, {counts['warn']} warn, {counts['info']} info")
    return "\n".join(_fit(lines)) + "\n"


COMPACT_JSON_ABOVE = 100  # problems

_QUOTED = re.compile(r"^\s*(?:> |\S+:\d+: )")  # a quoted log line: shown whole, as it is in the file


def _fit(lines: List[str]) -> List[str]:
    """Every line to the terminal width (render.layout: breaks at spaces only), quoted log lines whole."""
    from .layout import fit_lines, terminal_width

    return fit_lines(lines, terminal_width(), keep=_QUOTED.match)


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def _markdown(result: TriageResult) -> str:
    out = ["# ascend-doctor triage", ""]
    out += [l.strip() for l in _inputs_summary(result)]
    out.append("")
    real = [p for p in result.problems if p.severity != "info"]
    rc = result.root_cause
    if rc:
        out += [f"## {_md_escape(root_cause_headline(rc))}", "", _md_escape(rc["summary"]), ""]
        fe = rc.get("first_error")
        if fe:
            out += [f"{fe['device']}'s first error ({_md_escape(fe['file'])}:{fe['line_no']}, {fe['time']}):", "",
                    "```", fe["line"], "```", ""]
        for m in rc.get("missing") or []:
            out.append(f"- missing: {_md_escape(m)}")
        if rc.get("fix"):
            out += ["", "**What to do.**", ""] + [f"{i}. {step}" for i, step in enumerate(rc["fix"], 1)]
        out.append("")
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
                       f"{_md_escape(p.first.where())} {p.first.who() or ''} | {_md_escape(p.last.where())} |")
        for n, p in enumerate(real, 1):
            s = p.signature
            out += ["", f"## {n}. {s.id}: {_md_escape(s.title)}", "", "```", p.text, "```", "",
                    f"**Cause.** {s.cause}", "", "**Fix.**", ""]
            out += [f"{i}. {step}" for i, step in enumerate(s.fix, 1)]
            rl = _ranks_line(p)
            if rl:
                out += ["", f"*{rl}*"]
            if p.caused_by:
                out += ["", f"Caused by `{p.caused_by}`."]
            out += ["", f"Source: {_md_escape(shown_source(s))}"]
        if result.unexplained:
            out += ["", "## Errors no known signature explains", "", "```"]
            out += [f"{e['file']}:{e['line']}: {e['text']}" for e in result.unexplained]
            out.append("```")
    harmless = [p for p in result.problems if p.severity == "info"]
    if harmless:
        out += ["", "## Harmless or cleared", ""]
        out += [f"- `{p.signature.id}` ×{p.count}: {_md_escape(p.signature.title)}" for p in harmless]
    return "\n".join(out) + "\n"
