"""`triage --format html`: the result as one self-contained page to attach to a ticket.

Read top-down it answers what a support engineer is asked: which device the cluster waited on (the verdict,
first), what happened first and where (the wait graph and the timeline), and what to do (the root's own
problem with its cause and fix, then every problem). A pure function of the triage JSON document
(`TriageResult.to_json()`), so fields a newer triage adds are shown when present and never required.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from ..i18n import _, lookup
from .common import severity_tag
from .html_graph import (
    TIMELINE_ROWS_MAX, parse_time, split_device, time_range_words, timeline_svg, wait_graph_svg,
)
from .html_page import esc, header_row, report_page
from .triage_report import evidence_label, root_cause_headline, traceback_note

UNEXPLAINED_SHOWN_MAX = 50
# Problems shown with their cause, fix and line; the rest (a log set matching hundreds of signatures) get a
# one-line row naming where to read them (`kb show ID`), so a 1,024-node page stays a few hundred KB.
PROBLEMS_IN_FULL = 40
CHAIN_WORDS_KEPT = 12  # a chain in words keeps this many devices at each end (the graph draws more)
NODES_WITHOUT_PLOG_ROWS = 10  # timeline rows; root_cause.missing names them all
INPUT_NOTES_SHOWN_MAX = 100
SEVERITY_RANK = {"fail": 0, "warn": 1, "info": 2}


_BACKTICKED = re.compile(r"`([^`\n]+)`")


def prose(text: Any) -> str:
    """A knowledge-base or verdict text, escaped, its `backticked` commands and names shown as code."""
    return _BACKTICKED.sub(r"<code>\1</code>", esc(text or ""))


def shortened_chain(chain: List[str], keep: int = CHAIN_WORDS_KEPT) -> List[str]:
    """A chain as words: whole up to 2 × keep devices, else its first and last `keep` with the count between."""
    if len(chain) <= 2 * keep:
        return list(chain)
    return chain[:keep] + [_("… {count} more …").format(count=len(chain) - 2 * keep)] + chain[-keep:]


def _sev(severity: str) -> str:
    return f"<span class='sev {esc(severity)}'>{esc(severity_tag(severity))}</span>"


def _where(o: Optional[dict]) -> str:
    """'plog-1.log:12 · worker-0 device-3 (rank 3) · 2024-05-01 10:00:30.000'"""
    if not o:
        return ""
    who = o.get("device") or o.get("rank") or ""
    if o.get("device") and o.get("rank"):
        who = f"{o['device']} ({o['rank']})"
    parts = [f"<code>{esc(o.get('file'))}:{esc(o.get('line'))}</code>"]
    parts += [esc(x) for x in (who, o.get("time")) if x]
    return " · ".join(parts)


def _value(v: Any) -> str:
    """A root-cause evidence value as one line of text (the text report's wording)."""
    if isinstance(v, dict):
        return "; ".join(f"{a}: {', '.join(map(str, b)) if isinstance(b, list) else b}" for a, b in v.items())
    if isinstance(v, list):
        return ", ".join(map(str, v))
    return str(v)


def _peer_value(v: Any) -> str:
    """A field the peer reports (first/last error device, fault chains), in whatever shape triage gives it."""
    if isinstance(v, dict):
        name = v.get("device") or v.get("name")
        if name and v.get("time"):
            return _("{device} at {time}").format(device=name, time=v["time"])
        return _value(v)
    if isinstance(v, list):
        return "; ".join(" → ".join(map(str, c)) if isinstance(c, list) else _peer_value(c) for c in v)
    return str(v)


# ---------------------------------------------------------------------------------------------------------------
# Per device: its first and last error, from the problems' occurrences
# ---------------------------------------------------------------------------------------------------------------

def device_errors(problems: List[dict]) -> Dict[str, Dict[str, Any]]:
    """device (else rank, else file) -> {"first": occurrence, "last": occurrence}: the earliest and the latest
    occurrence the report holds for it among the problems that are not harmless."""
    out: Dict[str, Dict[str, Any]] = {}

    def add(key: Optional[str], o: Optional[dict]) -> None:
        if not key or not o:
            return
        t = parse_time(o.get("time"))
        seen = out.get(key)
        if seen is None:
            out[key] = {"first": o, "last": o, "tf": t, "tl": t}
            return
        if t is not None and (seen["tf"] is None or t < seen["tf"]):
            seen["first"], seen["tf"] = o, t
        if t is not None and (seen["tl"] is None or t > seen["tl"]):
            seen["last"], seen["tl"] = o, t

    for p in problems:
        if p.get("severity") == "info":
            continue
        for key, o in (p.get("ranks") or {}).items():
            add(key, o)
        for o in (p.get("first"), p.get("last")):
            if o:
                add(o.get("device") or o.get("rank") or o.get("file"), o)
    return out


# ---------------------------------------------------------------------------------------------------------------
# Sections
# ---------------------------------------------------------------------------------------------------------------

def _problem_by_id(problems: List[dict], pid: Optional[str]) -> Optional[dict]:
    return next((p for p in problems if p.get("id") == pid), None) if pid else None


def _cause_and_fix(p: dict) -> List[str]:
    out = ["<p>" + prose(_("Cause: {cause}").format(cause=p.get("cause") or "")) + "</p>"]
    if p.get("fix"):
        out.append("<p>" + esc(_("Fix:")) + "</p><ol class='fix'>"
                   + "".join(f"<li>{prose(step)}</li>" for step in p["fix"]) + "</ol>")
    return out


def _verdict(data: dict, real: List[dict]) -> List[str]:
    rc = data.get("root_cause")
    problems = data.get("problems") or []
    out: List[str] = []
    if rc:
        sev = rc.get("severity") or "info"
        out.append(f"<section class='box {esc(sev)}' id='verdict'>")
        out.append(f"<p><span class='verdict {esc(sev)}'>{esc(severity_tag(sev))}</span></p>")
        short = dict(rc, chain=shortened_chain(list(rc.get("chain") or []), 4))
        out.append(f"<h2 id='root-cause'>{esc(root_cause_headline(short))}</h2>")
        out.append(f"<p class='summary'>{prose(rc.get('summary'))}</p>")
        out.append("<dl class='facts'>")
        if rc.get("devices"):
            out.append(f"<dt>{esc(_('Look at'))}</dt><dd><b>" + esc(", ".join(rc["devices"])) + "</b></dd>")
        if rc.get("chain"):
            out.append(f"<dt>{esc(_('Wait chain'))}</dt><dd>" + esc(" → ".join(shortened_chain(rc["chain"]))) + "</dd>")
        for key, label in (("first_error_device", _("First error device")), ("last_error_device", _("Last error device")),
                           ("fault_chains", _("Fault chains"))):
            if rc.get(key):
                out.append(f"<dt>{esc(label)}</dt><dd>{esc(_peer_value(rc[key]))}</dd>")
        fe = rc.get("first_error")
        if fe:
            out.append(f"<dt>{esc(_('Its first error'))}</dt><dd>" + _where(
                {"file": fe.get("file"), "line": fe.get("line_no"), "device": fe.get("device"), "time": fe.get("time")})
                + f"<pre class='line'>{esc(fe.get('line') or '')}</pre></dd>")
        out.append("</dl>")
        own = _problem_by_id(problems, rc.get("problem"))
        if own:
            out.append("<h3>" + esc(_("Its own problem: {problem}").format(problem=own["id"]))
                       + f" <span class='muted'>{esc(own.get('title') or '')}</span></h3>")
            out.extend(_cause_and_fix(own))
        if rc.get("fix"):
            out.append("<h3>" + esc(_("What to do:")) + "</h3><ol id='what-to-do'>"
                       + "".join(f"<li>{prose(s)}</li>" for s in rc["fix"]) + "</ol>")
        if rc.get("missing"):
            out.append("<ul class='missing'>" + "".join(
                f"<li>{esc(_('missing: {what}').format(what=m))}</li>" for m in rc["missing"]) + "</ul>")
        out.append("</section>")
        return out
    first = _first_problem(data, real)
    if first is not None:
        sev = first["severity"]
        out.append(f"<section class='box {esc(sev)}' id='verdict'>")
        out.append(f"<p><span class='verdict {esc(sev)}'>{esc(severity_tag(sev))}</span></p>")
        over = (data.get("first_problem") or {}).get("leads_over")
        heading = _("The leading {label}: {problem}") if over else _("The earliest {label}: {problem}")
        out.append("<h2>" + esc(heading.format(label=severity_tag(sev), problem=first["id"]))
                   + f" <span class='muted'>{esc(first.get('title') or '')}</span></h2>")
        out.append("<p>" + esc(_("First seen at:")) + " " + _where(first.get("first")) + "</p>")
        out.append(f"<pre class='line'>{esc(first.get('line') or '')}</pre>")
        if over:  # an earlier problem of its level does not lead (TriageResult.passed_over): say which, and why
            why = over.get("why")
            note = (_("{earlier} came before it, at {place}, and was raised again as it.") if why == "became"
                    else _("{earlier} came before it, at {place}, but follows from {cause}.") if why == "effect"
                    else _("{earlier} came before it, at {place}, but says only that a call failed."))
            cause = next((p.get("caused_by") for p in data.get("problems") or () if p.get("id") == over.get("id")), "")
            out.append("<p class='muted'>" + _where(over).join(
                esc(part.replace("{earlier}", str(over.get("id"))).replace("{cause}", str(cause or "")))
                for part in note.split("{place}")) + "</p>")
        elif sev == "fail":
            out.append("<p class='muted'>" + esc(_("When ranks fail together, the first failure is usually the cause; "
                                                    "the others often follow from it.")) + "</p>")
        out.extend(_cause_and_fix(first))
        out.append("</section>")
        return out
    out.append("<section class='box ok' id='verdict'>")
    out.append(f"<p><span class='verdict ok'>{esc(_('OK'))}</span></p>")
    out.append("<h2>" + esc(_("No known problem found in these logs.")) + "</h2>")
    last = data.get("last_error_lines") or []
    if last:
        out.append("<p>" + esc(_("The last error-looking lines were:")) + "</p><pre class='line'>"
                   + "\n".join(esc(f"{e.get('file')}:{e.get('line')}: {e.get('text')}") for e in last) + "</pre>")
    else:
        out.append("<p>" + esc(_("No error-looking lines either.")) + "</p>")
    out.append("</section>")
    return out


def _first_problem(data: dict, real: List[dict]) -> Optional[dict]:
    fp = data.get("first_problem") or {}
    return _problem_by_id(real, fp.get("id")) or (real[0] if real else None)


def drawn_roots(rc: dict) -> List[str]:
    """The root devices to draw: devices and addresses; a phrase in a device's place ("Unknown Device", as
    ascend-fd writes where no device can be named) is said in the verdict, not drawn as a device."""
    return [d for d in rc.get("devices") or [] if split_device(d)[0] is not None or " " not in d]


def _graph(rc: dict, errors: Dict[str, Dict[str, Any]]) -> List[str]:
    chain, roots = list(rc.get("chain") or []), drawn_roots(rc)
    devices = {k: True for k in errors if split_device(k)[0] is not None}
    if not chain and not roots and len(devices) < 2:
        return []
    total = (rc.get("evidence") or {}).get("devices")
    svg, notes = wait_graph_svg(chain, roots, devices, total if isinstance(total, int) else None)
    out = ["<h2 id='wait-graph-title'>" + esc(_("Who waited on whom")) + "</h2>", "<figure>", svg, "<figcaption>"]
    out.append(esc(_("One box per node. ★ root: the device the others waited on (thick border); ✗ logged an error; "
                     "dashed: no log of it here. An arrow goes from a device to the device it waited on, numbered in "
                     "the order of the chain.")))
    out += [f"<br>{esc(n)}" for n in notes]
    out.append("</figcaption></figure>")
    return out


def _timeline(rc: Optional[dict], errors: Dict[str, Dict[str, Any]], data: dict) -> List[str]:
    rc = rc or {}
    roots, chain = drawn_roots(rc), list(rc.get("chain") or [])
    fe = rc.get("first_error") or {}
    timed = sorted(((k, v) for k, v in errors.items() if v["tf"] is not None), key=lambda kv: (kv[1]["tf"], kv[0]))
    untimed = [k for k, v in errors.items() if v["tf"] is None]
    # the devices the verdict names (roots, the root's first error, the chain), at most 3/4 of the rows
    wanted = [d for d in dict.fromkeys(roots + [fe.get("device")] + chain) if d][: TIMELINE_ROWS_MAX * 3 // 4]
    if len(timed) + len(untimed) <= TIMELINE_ROWS_MAX:
        keys = [k for k, _v in timed] + untimed
    else:  # the devices the verdict names, then the earliest and the latest, up to TIMELINE_ROWS_MAX rows
        keys = [k for k in wanted if k in errors]
        room = max(0, TIMELINE_ROWS_MAX - len(keys))
        early = [k for k, _v in timed if k not in keys][: room - room // 4]
        late = [k for k, _v in timed if k not in keys and k not in early][-(room // 4):] if room // 4 else []
        keys = sorted(set(keys + early + late), key=lambda k: (errors[k]["tf"] is None, errors[k]["tf"] or 0, k))
    rows = [{"name": k, "first": errors[k]["first"].get("time"), "last": errors[k]["last"].get("time"),
             "root": k in roots} for k in keys]
    no_log = _("no log of this device here")
    for d in wanted:
        if d not in errors:
            rows.append({"name": d, "first": None, "last": None, "root": d in roots, "missing": no_log})
    for node in _nodes_without_plog(data)[:NODES_WITHOUT_PLOG_ROWS]:
        rows.append({"name": node, "first": None, "last": None, "root": False,
                     "missing": _("no CANN process log (plog) from this node")})
    if not any(r.get("first") for r in rows):
        return []
    histogram = [v["tf"] for _k, v in timed] if len(timed) > len(rows) else []
    root_time = fe.get("time")
    root_label = _("▼ root's first error {time}").format(time=root_time or "")
    svg = timeline_svg(rows, root_time, root_label, histogram)
    if not svg:
        return []
    out = ["<h2 id='timeline-title'>" + esc(_("What happened first: each device's first and last error")) + "</h2>",
           "<figure>", svg, "<figcaption>"]
    span = time_range_words(rows)
    if span:
        out.append(esc(_("From {start} to {end}, as the logs wrote the times (their clocks may differ).").format(
            start=span[0], end=span[1])) + "<br>")
    out.append(esc(_("● first error; □ the last error the report holds for the device; ★ root cause; the dashed line "
                     "is the root's first error. Hatched rows: devices or nodes whose log is not here.")))
    if histogram:
        out.append("<br>" + esc(_("{shown} of {total} devices are drawn (the ones the verdict names, the earliest and "
                                  "the latest); the grey bars count every device's first error.").format(
            shown=len(keys), total=len(timed) + len(untimed))))
    out.append("</figcaption></figure>")
    return out


def _nodes_without_plog(data: dict) -> List[str]:
    """Nodes the inputs name that gave no CANN process log, when some node did: their devices are missing."""
    inputs = data.get("inputs") or []
    with_plog = {i.get("node") for i in inputs if i.get("kind") == "plog" and i.get("scanned")}
    if not with_plog:
        return []
    return [n for n in (data.get("nodes") or []) if n not in with_plog]


def _problems_table(real: List[dict]) -> List[str]:
    out = ["<h2 id='problems'>" + esc(_("Problems ({count})").format(count=len(real))) + "</h2>"]
    if not real:
        out.append("<p>" + esc(_("No known problem found in these logs.")) + "</p>")
        return out
    out.append("<table class='wide problems'><colgroup><col class='c-sev'><col class='c-id'><col class='c-n'>"
               "<col class='c-where'><col class='c-cause'><col class='c-fix'><col class='c-fd'></colgroup>"
               + header_row(_("severity|problem|count|first / last|cause|fix|ascend-fd")))
    for n, p in enumerate(real):
        ranks = p.get("ranks") or {}
        seen = ("<br><span class='muted'>" + esc(_("on {count} devices/ranks/files").format(count=len(ranks)))
                + "</span>") if len(ranks) > 1 else ""
        caused = ("<br><span class='small'>" + esc(_("caused by {problem} (above)").format(problem=p["caused_by"]))
                  + "</span>") if p.get("caused_by") else ""
        pitfall = ("<br><span class='muted small'>" + esc(_("pitfall {pitfall}").format(pitfall=p["pitfall"]))
                   + "</span>" if p.get("pitfall") else "")
        last = ("<br>" + esc(_("last:")) + " " + _where(p.get("last"))) if p.get("count", 1) > 1 else ""
        if n >= PROBLEMS_IN_FULL:
            out.append(f"<tr id='p-{esc(p['id'])}' data-problem='{esc(p['id'])}'><td>{_sev(p['severity'])}</td>"
                       f"<td><code class='id'>{esc(p['id'])}</code><br>{esc(p.get('title') or '')}</td>"
                       f"<td class='num'>{esc(p.get('count'))}</td><td class='small'>{_where(p.get('first'))}</td>"
                       f"<td colspan='3' class='small'>" + esc(_("cause and fix: {command}").format(
                           command=p.get("more") or f"ascend-doctor kb show {p['id']}")) + "</td></tr>")
            continue
        fix = "<ol class='fix'>" + "".join(f"<li>{prose(s)}</li>" for s in p.get("fix") or []) + "</ol>"
        out.append(f"<tr id='p-{esc(p['id'])}' data-problem='{esc(p['id'])}'><td>{_sev(p['severity'])}</td>"
                   f"<td><code class='id'>{esc(p['id'])}</code>{pitfall}<br>{esc(p.get('title') or '')}{caused}</td>"
                   f"<td class='num'>{esc(p.get('count'))}</td>"
                   f"<td class='small'>{esc(_('first:'))} {_where(p.get('first'))}{last}{seen}</td>"
                   f"<td>{prose(p.get('cause'))}<br><span class='muted small'>"
                   + esc(_("Source: {source}").format(source=p.get("source") or "")) + "</span></td>"
                   f"<td>{fix}</td><td class='small'>{esc(', '.join(p.get('ascend_fd') or []))}</td></tr>")
        at, first = p.get("line_at") or {}, p.get("first") or {}
        shown = p.get("line") or ""
        if at and (at.get("file"), at.get("line")) != (first.get("file"), first.get("line")):  # a line not at `first`
            shown = f"{at.get('file')}:{at.get('line')}: {shown}"
        out.append(f"<tr class='quote'><td colspan='7'><pre class='line'>{esc(shown)}</pre></td></tr>")
    out.append("</table>")
    return out


def _unexplained(data: dict) -> List[str]:
    items = data.get("unexplained_errors") or []
    if not items:
        return []
    out = ["<h2 id='unexplained'>" + esc(_("Errors no known signature explains (read them too)")) + "</h2>",
           "<table class='wide'>" + header_row(_("where|device|time|line"))]
    for e in items[:UNEXPLAINED_SHOWN_MAX]:
        count = f" ×{esc(e['count'])}" if isinstance(e.get("count"), int) and e["count"] > 1 else ""
        note = traceback_note(e.get("traceback"))
        note = f"<div class='small'>{esc(note)}</div>" if note else ""
        out.append(f"<tr><td><code>{esc(e.get('file'))}:{esc(e.get('line'))}</code>{count}</td>"
                   f"<td>{esc(e.get('device') or e.get('rank') or e.get('node') or '')}</td>"
                   f"<td>{esc(e.get('time') or '')}</td><td><pre class='line'>{esc(e.get('text') or '')}</pre>{note}</td></tr>")
    out.append("</table>")
    return out + _more_tail(len(items), UNEXPLAINED_SHOWN_MAX)


def _more_tail(total: int, shown: int) -> List[str]:
    """The line under a table cut at `shown` rows: how many more the JSON report holds ([] when none were cut)."""
    if total <= shown:
        return []
    return ["<p class='muted'>" + esc(_("and {count} more (see --format json)").format(count=total - shown)) + "</p>"]


def _harmless(problems: List[dict]) -> List[str]:
    items = [p for p in problems if p.get("severity") == "info"]
    if not items:
        return []
    out = ["<h2 id='harmless'>" + esc(_("Harmless or cleared (no action needed)")) + "</h2>", "<ul>"]
    for p in items:
        rb = p.get("resolved_by")
        why = _("cleared later at {where}").format(where=f"{rb.get('file')}:{rb.get('line')}") if rb else p.get("title")
        out.append(f"<li data-problem='{esc(p['id'])}'>{_sev('info')} <code>{esc(p['id'])}</code> ×{esc(p.get('count'))}"
                   f" — {esc(why or '')}</li>")
    out.append("</ul>")
    return out


def _inputs(data: dict) -> List[str]:
    inputs = data.get("inputs") or []
    scanned = [i for i in inputs if i.get("scanned")]
    out = ["<h2 id='inputs'>" + esc(_("Inputs read and skipped")) + "</h2>",
           "<p>" + esc(_("Read {files} file(s), {mb} MB, {lines} lines.").format(
               files=len(scanned), mb=f"{sum(i.get('bytes') or 0 for i in scanned) / 1e6:.1f}",
               lines=sum(i.get("lines") or 0 for i in scanned))) + " "
           + esc(_("Nodes: {count}.").format(count=len(data.get("nodes") or []))) + "</p>"]
    kinds: Dict[str, Tuple[int, int]] = {}
    for i in scanned:
        n, b = kinds.get(i.get("kind") or "", (0, 0))
        kinds[i.get("kind") or ""] = (n + 1, b + (i.get("bytes") or 0))
    if len(kinds) > 1 or (kinds and "" not in kinds):
        out.append("<table>" + header_row(_("kind of log|files|MB")) + "".join(
            f"<tr><td>{esc(k or _('other'))}</td><td class='num'>{n}</td><td class='num'>{b / 1e6:.1f}</td></tr>"
            for k, (n, b) in sorted(kinds.items())) + "</table>")
    noted = [i for i in inputs if i.get("note") or not i.get("scanned")]
    if noted:
        out.append("<table class='wide'>" + header_row(_("file|read|note")))
        for i in noted[:INPUT_NOTES_SHOWN_MAX]:
            read = _("yes") if i.get("scanned") else _("skipped")
            out.append(f"<tr><td><code>{esc(i.get('file'))}</code></td><td>{esc(read)}</td>"
                       f"<td>{esc(lookup(i.get('note') or ''))}</td></tr>")
        out.append("</table>")
        out += _more_tail(len(noted), INPUT_NOTES_SHOWN_MAX)
    return out


def render_triage_html(data: dict) -> str:
    """The page of one triage result (its JSON document)."""
    problems = data.get("problems") or []
    real = [p for p in problems if p.get("severity") != "info"]
    real.sort(key=lambda p: SEVERITY_RANK.get(p.get("severity"), 3))  # stable: keeps triage's cause-first order
    rc = data.get("root_cause")
    errors = device_errors(problems)
    counts = data.get("summary") or {}
    title = _("ascend-doctor triage: {fail} fail, {warn} warn").format(fail=counts.get("fail", 0),
                                                                       warn=counts.get("warn", 0))
    body = ["<h1>" + esc(_("ascend-doctor triage")) + "</h1>"]
    body += _verdict(data, real)
    if rc:
        body += _graph(rc, errors)
    body += _timeline(rc, errors, data)
    body += _problems_table(real)
    body += _unexplained(data)
    body += _harmless(problems)
    body += _inputs(data)
    if rc and rc.get("evidence"):
        body.append("<h2 id='evidence'>" + esc(_("Evidence of the root cause")) + "</h2><table>"
                    + "".join(f"<tr><th>{esc(evidence_label(k))}</th><td>{esc(_value(v))}</td></tr>"
                              for k, v in rc["evidence"].items()) + "</table>")
        if rc.get("ascend_fd_code"):
            body.append("<p class='muted small'>" + esc(_("Verdict {kind}, ascend-fd code {code}.").format(
                kind=rc.get("kind"), code=rc["ascend_fd_code"])) + "</p>")
    body.append("<p class='muted small'>" + esc(_("Summary: {fail} fail, {warn} warn, {info} info").format(
        fail=counts.get("fail", 0), warn=counts.get("warn", 0), info=counts.get("info", 0))) + "</p>")
    return report_page(title, body)
