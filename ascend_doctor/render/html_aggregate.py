"""The aggregate verdict as one self-contained HTML file for a support engineer.

No scripts, no fonts, no images, no links to fetch: inline CSS only, so it opens
from a ticket attachment on an offline laptop. Everything from a report is escaped.
Sections: verdict, skew table, node × check grid, rank table, baseline drift, problems with their fixes.
"""

from __future__ import annotations

from typing import Any, Dict, List

from ..i18n import _, lookup
from .aggregate_text import port_lines, skew_line, status_word
from .html_page import BASE_CSS, esc, header_row, page_head
from .layout import evidence_value

# Above this many nodes the grid draws only nodes with a problem (a 4,096-row grid of
# green cells helps nobody and makes the file tens of MB); the counts say what was left out.
GRID_ALL_NODES_MAX = 512
SYMBOL = {"pass": "✓", "warn": "!", "fail": "✗", "error": "?", "skip": "–"}

CSS = BASE_CSS + """table.evidence td{white-space:pre-wrap}
.grid td{padding:0;width:18px;height:18px;text-align:center;font-size:11px}
.grid th.check{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:400;font-size:11px;white-space:nowrap;padding:4px 1px}
.grid th.node{font-weight:400;white-space:nowrap}
.s-pass{background:#c8e6c9} .s-warn{background:#ffe082} .s-fail{background:#ef9a9a;font-weight:700}
.s-error{background:#b0bec5} .s-skip{background:#f5f5f5;color:#999} .s-none{background:#fff}
.odd{color:#b02a37;font-weight:600} .muted{color:#666}
.legend span{display:inline-block;padding:1px 8px;margin-right:6px;border:1px solid #ccc}
"""


_e = esc


def _names(items: List[str], limit: int = 30) -> str:
    shown = ", ".join(_e(x) for x in items[:limit])
    if len(items) > limit:
        return shown + " <span class='muted'>" + _e(_("and {count} more").format(count=len(items) - limit)) + "</span>"
    return shown


_header = header_row


def _skew_table(result: Dict[str, Any]) -> List[str]:
    out = ["<h2 id='skew'>" + _e(_("Skew: facts that differ across nodes")) + "</h2>"]
    if not result["skew"]:
        out.append("<p>" + _e(_("None: driver, firmware, CANN, MindSpore, Python, NPU count and HCCL variables agree "
                                "on every node.")) + "</p>")
        return out
    out.append("<table class='skew'>" + _header(_("fact|most nodes|odd nodes out")))
    for item in result["skew"]:
        major = item["groups"][0]
        odd = "<br>".join(f"<span class='odd'>{_e(lookup(str(g['value'])))}</span> ({g['count']}): {_names(g['nodes'])}"
                          for g in item["groups"][1:])
        most = _("{value} ({count} nodes)").format(
            value=lookup(str(major["value"])), count=major["count"])
        out.append(f"<tr><td>{_e(lookup(item['fact']))}</td><td>{_e(most)}</td><td>{odd}</td></tr>")
    out.append("</table>")
    out.append("<p class='muted'>" + "<br>".join(_e(_("{label}: {value}").format(label=lookup(i["fact"]), value=skew_line(i)))
                                                 for i in result["skew"]) + "</p>")
    return out


def _rank_table(rt: Dict[str, Any]) -> List[str]:
    state = (_("Consistent: {servers} servers in the table.") if rt["ok"] else
             _("Problems: {servers} servers in the table.")).format(servers=rt["servers_in_table"])
    out = ["<h2 id='rank-table'>" + _e(_("Rank table across nodes")) + "</h2>", f"<p>{_e(state)}</p>"]
    items = list(rt["problems"]) + list(rt.get("notes") or [])
    if items:
        out.append("<ul>" + "".join(f"<li>{_e(p)}</li>" for p in items) + "</ul>")
    if len(rt["views"]) > 1:
        out.append("<table>" + _header(_("table digest|nodes")))
        out.extend(f"<tr><td><code>{_e(lookup(v['value']))}</code></td><td>{_names(v['nodes'])}</td></tr>" for v in rt["views"])
        out.append("</table>")
    if rt["servers_missing"]:
        out.append("<p>" + _e(_("Servers in the table that sent no report:")) + f" {_names(rt['servers_missing'])}</p>")
    for d in rt["duplicate_device_ips"]:
        out.append("<p>" + _e(_("Device IP {ip} used by {users}")).format(
            ip=f"<code>{_e(d['device_ip'])}</code>", users=_names(d["used_by"])) + "</p>")
    return out


def _checks(result: Dict[str, Any]) -> List[str]:
    problem_checks = [c for c in result["checks"] if c.get("nodes")]
    out = ["<h2 id='problems'>" + _e(_("Problems and their fixes")) + "</h2>"]
    if not problem_checks:
        out.append("<p>" + _e(_("No check reported a problem on any node.")) + "</p>")
    on = _("{status} on {count}: {names}")
    for c in problem_checks:
        by = "; ".join(_e(on).format(status=f"<span class='s-{_e(s)}'>&nbsp;{_e(status_word(s))}&nbsp;</span>",
                                     count=len(n), names=_names(n, 12))
                       for s, n in c["nodes"].items())
        out.append(f"<h3><code>{_e(c['id'])}</code> {_e(lookup(c.get('title') or ''))}</h3><p>{by}</p>")
        variants = c.get("variants") or []
        for v in variants:  # one group per distinct fix: a node is never shown another node's fix
            if len(variants) > 1:
                status = f"<span class='s-{_e(v['status'])}'>&nbsp;{_e(status_word(v['status']))}&nbsp;</span>"
                out.append("<h4 class='variant'>" + _e(on).format(status=status, count=v["count"],
                                                                  names=_names(v["nodes"], 12))
                           + f" — {_e(lookup(v['title']))}</h4>")
            if v.get("summary"):
                out.append(f"<p>{_e(v['summary'])}</p>")
            if v.get("evidence"):
                out.append("<p class='muted'>" + _e(_("Evidence from {node}:").format(node=v["evidence_from"]))
                           + "</p><table class='evidence'>" + "".join(
                               f"<tr><th>{_e(lookup(k))}</th><td>{_e(evidence_value(val))}</td></tr>"
                               for k, val in v["evidence"].items()) + "</table>")
            if v.get("fix"):
                out.append("<p>" + _e(_("Fix:")) + "</p><pre class='fix'>" + "\n".join(_e(step) for step in v["fix"])
                           + "</pre>")
            if v.get("pitfall"):
                out.append("<p class='muted'>" + _e(_("Pitfall {pitfall}").format(pitfall=v["pitfall"])) + "</p>")
    return out


def _grid(result: Dict[str, Any]) -> List[str]:
    nodes = result["nodes"]
    check_ids = [c["id"] for c in result["checks"]]
    shown = nodes if len(nodes) <= GRID_ALL_NODES_MAX else [n for n in nodes if n["worst"] in ("fail", "error", "warn")]
    out = ["<h2 id='grid'>" + _e(_("Nodes × checks")) + "</h2>",
           "<p class='legend'>" + "".join(f"<span class='s-{s}'>{SYMBOL[s]} {_e(status_word(s))}</span>" for s in SYMBOL)
           + "</p>"]
    if len(shown) < len(nodes):
        out.append("<p>" + _e(_("{hidden} of {total} nodes had no problem and are not drawn (see the JSON report for "
                                "every node).").format(hidden=len(nodes) - len(shown), total=len(nodes))) + "</p>")
    not_run = _e(_("not run"))
    out.append("<table class='grid'><tr><th class='node'>" + _e(_("node")) + "</th>"
               + "".join(f"<th class='check' title='{_e(c)}'>{_e(c)}</th>" for c in check_ids) + "</tr>")
    for n in shown:
        cells = []
        for cid in check_ids:
            s = n["statuses"].get(cid)
            if s is None:
                cells.append(f"<td class='s-none' title='{not_run}'></td>")
            else:
                cells.append(f"<td class='s-{_e(s)}' title='{_e(n['name'])} · {_e(cid)}: {_e(status_word(s))}'>"
                             f"{SYMBOL.get(s, '')}</td>")
        out.append(f"<tr data-node='{_e(n['name'])}'><th class='node'>{_e(n['name'])}</th>{''.join(cells)}</tr>")
    out.append("</table>")
    return out


def render_aggregate_html(result: Dict[str, Any]) -> str:
    from .aggregate_json import worded_result

    result = worded_result(result)
    verdict = result["verdict"]
    total = result["nodes_total"]
    title = (_("ascend-doctor aggregate: ok ({count} nodes)") if verdict == "ok" else
             _("ascend-doctor aggregate: problems ({count} nodes)")).format(count=total)
    out = page_head(title, CSS) + [
           "<h1>" + _e(_("ascend-doctor: job pre-flight across {count} nodes").format(count=total)) + "</h1>",
           f"<p><span class='verdict {_e(verdict)}' id='verdict'>"
           + _e(_("OK") if verdict == "ok" else _("PROBLEMS")) + "</span></p>"]
    if result["problems"]:
        out.append("<ul id='summary'>" + "".join(f"<li>{_e(p)}</li>" for p in result["problems"]) + "</ul>")
    logs = result.get("logs")
    if logs:
        out.append("<h2 id='logs'>" + _e(_("Logs of {count} node(s)").format(count=len(logs["nodes"]))) + "</h2>")
        rc = logs.get("root_cause")
        if rc:
            out.append(f"<p id='root-cause'><b>{_e(logs['headline'])}</b></p><p>{_e(rc['summary'])}</p>")
            if rc.get("fix"):
                out.append("<ol>" + "".join(f"<li>{_e(step)}</li>" for step in rc["fix"]) + "</ol>")
        if logs["problems"]:
            out.append("<ul>" + "".join(f"<li>{_e(status_word(p['severity']))} <code>{_e(p['id'])}</code> x{p['count']}</li>"
                                        for p in logs["problems"][:50]) + "</ul>")
    cov = result["coverage"]
    if cov.get("missing_ranks"):
        out.append("<p>" + _e(_("Ranks that sent no report (world size {size}):").format(size=cov["expected"]))
                   + f" {_names([str(r) for r in cov['missing_ranks']], 60)}</p>")
    if result["nodes_failing"]:
        out.append("<p>" + _e(_("Failing nodes:")) + f" {_names([n['name'] for n in result['nodes_failing']], 60)}</p>")
    if result["unreadable"]:
        out.append("<p>" + _e(_("Unreadable reports:")) + "</p><ul>" + "".join(f"<li><code>{_e(u['error'])}</code></li>"
                                                               for u in result["unreadable"][:50]) + "</ul>")
    out.extend(_skew_table(result))
    if result.get("ports"):
        lines = [line.strip() for line in port_lines(result["ports"]) if line.strip()]
        if lines:
            out.append("<h2 id='ports'>" + _e(_("NPU ports")) + "</h2>")
            out.append("<p>" + "<br>".join(_e(line) for line in lines) + "</p>")
    out.extend(_grid(result))
    if result.get("rank_table"):
        out.extend(_rank_table(result["rank_table"]))
    if result.get("baseline_drift"):
        out.append("<h2 id='drift'>" + _e(_("Drift from the baseline")) + "</h2><table>"
                   + _header(_("fact|baseline|nodes")))
        for d in result["baseline_drift"]:
            groups = "<br>".join(f"{_e(lookup(str(g['value'])))} ({g['count']}): {_names(g['nodes'])}" for g in d["groups"])
            out.append(f"<tr><td>{_e(lookup(d['fact']))}</td><td>{_e(lookup(str(d['expected'])))}</td><td>{groups}</td></tr>")
        out.append("</table>")
    out.extend(_checks(result))
    out.append("</body></html>")
    return "\n".join(out) + "\n"
