"""Aggregate verdict as plain text: what a job log or a terminal shows."""

from __future__ import annotations

from typing import Any, Dict, List

from ..i18n import N_, _, lookup, ngettext
from .layout import has_wide

NAMES_SHOWN = 10
EVIDENCE_SHOWN = 6  # evidence lines per fix group; the JSON has them all
# A status as a word in a sentence ("fail on 3 nodes"); the JSON keeps the status itself.
STATUS_WORD = {"fail": N_("fail"), "warn": N_("warn"), "error": N_("error"), "pass": N_("pass"), "skip": N_("skip")}


def status_word(status: str) -> str:
    return _(STATUS_WORD[status]) if status in STATUS_WORD else status


def _shown(value: Any) -> str:
    """An evidence value of a node's finding, already worded (aggregate_json.worded_result)."""
    if isinstance(value, dict):
        return "; ".join(_("{label}: {value}").format(label=lookup(k), value=v) for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return lookup(str(value))


def names(items: List[str], limit: int = NAMES_SHOWN) -> str:
    shown = ", ".join(items[:limit])
    if len(items) > limit:
        return _("{names} and {count} more").format(names=shown, count=len(items) - limit)
    return shown


def nodes_count(n: int) -> str:
    """'1 node', '7 nodes'."""
    return ngettext("{count} node", "{count} nodes", n).format(count=n)


def nodes_on(n: int, value: Any) -> str:
    """'7 nodes on 24.1.rc2'."""
    return ngettext("{count} node on {value}", "{count} nodes on {value}", n).format(count=n, value=lookup(str(value)))


def skew_line(item: Dict[str, Any]) -> str:
    """'7 nodes on 24.1.rc2, 1 node on 23.0.3: node-17' (the odd nodes out named)."""
    parts = []
    for i, g in enumerate(item["groups"]):
        part = nodes_on(g["count"], g["value"])
        if i > 0:
            part = _("{label}: {value}").format(label=part, value=names(g["nodes"]))
        parts.append(part)
    return _("; ").join(parts)


def devices_on(n: int, value: Any) -> str:
    """'63 devices on 0'."""
    return ngettext("{count} device on {value}", "{count} devices on {value}", n).format(count=n,
                                                                                      value=lookup(str(value)))


def port_lines(ports: Dict[str, Any]) -> List[str]:
    """The NPU RoCE ports of the job: the odd devices out per setting, ports down, the reachability matrix (text and
    HTML show the same lines)."""
    out: List[str] = []
    if ports["settings"] or ports["down"]:
        out.append("\n" + _("NPU ports (should be equal on every device of the job):"))
    for item in ports["settings"]:
        parts = [devices_on(g["count"], g["value"]) if i == 0 else
                 _("{label}: {value}").format(label=devices_on(g["count"], g["value"]), value=names(g["nodes"]))
                 for i, g in enumerate(item["groups"])]
        out.append("  " + _("{label}: {value}").format(label=lookup(item["setting"]), value=_("; ").join(parts)))
    if ports["down"]:
        out.append("  " + _("ports down: {names}").format(names=names(ports["down"])))
    reach = ports.get("reachability")
    if reach:
        matrix = reach["matrix"]
        bad = {node for node, cells in matrix.items() if any(c["answered"] < c["pinged"] for c in cells.values())}
        out.append("\n" + _("NPU reachability (preflight --net): {bad} of {count} node(s) could not reach every peer "
                             "server pinged").format(bad=len(bad), count=len(matrix)))
        for node in sorted(bad)[:NAMES_SHOWN * 2]:  # the rows of the matrix with a gap: peer server answered/pinged
            cells = matrix[node]
            out.append("  " + _("{label}: {value}").format(label=node, value=", ".join(
                f"{server} {c['answered']}/{c['pinged']}" for server, c in cells.items())))
    return out


def render_aggregate_text(result: Dict[str, Any]) -> str:
    from .aggregate_json import worded_result
    from .common import severity_tag

    result = worded_result(result)
    out = []
    total = result["nodes_total"]
    unreadable = len(result.get("unreadable") or [])
    if unreadable:  # "9 node reports" would count the 5 files that could not be read as reports
        head = ngettext("ascend-doctor aggregate: PROBLEMS — {count} node report read, {unreadable} unreadable",
                        "ascend-doctor aggregate: PROBLEMS — {count} node reports read, {unreadable} unreadable",
                        total - unreadable)
    elif result["verdict"] == "ok":
        head = ngettext("ascend-doctor aggregate: OK — {count} node report",
                        "ascend-doctor aggregate: OK — {count} node reports", total)
    else:
        head = ngettext("ascend-doctor aggregate: PROBLEMS — {count} node report",
                        "ascend-doctor aggregate: PROBLEMS — {count} node reports", total)
    out.append(head.format(count=total - unreadable, unreadable=unreadable))
    for p in result["problems"]:
        out.append(f"  - {p}")
    fix_label = _("fix: {step}")
    logs = result.get("logs")
    if logs:
        out.append("\n" + ngettext("Logs of {count} node ({files} files):", "Logs of {count} nodes ({files} files):",
                                   len(logs["nodes"])).format(count=len(logs["nodes"]), files=logs["files"]))
        rc = logs.get("root_cause")
        if rc:
            out.append(f"  {logs['headline']}")
            out.append(f"    {rc['summary']}")
            for m in rc.get("missing") or []:
                out.append("    " + _("missing: {what}").format(what=m))
            for step in rc.get("fix") or []:
                out.append("    " + fix_label.format(step=step))
        for p in logs["problems"][:NAMES_SHOWN]:
            where = p["first"].get("device") or p["first"].get("node") or p["first"]["file"]
            line = (_("{severity} {problem} x{count}, first on {where} (caused by {cause})") if p.get("caused_by")
                    else _("{severity} {problem} x{count}, first on {where}"))
            out.append("  " + line.format(severity=severity_tag(p["severity"]), problem=p["id"], count=p["count"],
                                          where=where, cause=p.get("caused_by")))
    cov = result["coverage"]
    if cov.get("missing_ranks"):
        out.append("\n" + _("Missing ranks (world size {size}): {ranks}").format(
            size=cov["expected"], ranks=names([str(r) for r in cov["missing_ranks"]], 20)))
    elif cov.get("missing_count"):
        out.append("\n" + _("Missing reports: expected {expected}, got {reported}").format(
            expected=cov["expected"], reported=cov["reported"]))
    if cov.get("duplicate_names"):
        out.append("\n" + _("Reported twice: {names}").format(names=names(cov["duplicate_names"])))
    if result["skew"]:
        out.append("\n" + _("Skew (should be equal on every node):"))
        for item in result["skew"]:
            out.append("  " + _("{label}: {value}").format(label=lookup(item["fact"]), value=skew_line(item)))
    ports = result.get("ports")
    if ports:
        out.extend(port_lines(ports))
    rt = result.get("rank_table")
    if rt:
        if rt["servers_in_table"] is None:
            head = (_("Rank table: consistent (unknown number of servers in the table)") if rt["ok"] else
                    _("Rank table: PROBLEMS (unknown number of servers in the table)"))
        else:
            head = (_("Rank table: consistent ({servers} servers in the table)") if rt["ok"] else
                    _("Rank table: PROBLEMS ({servers} servers in the table)"))
        out.append("\n" + head.format(servers=rt["servers_in_table"]))
        for note in rt.get("notes") or []:
            out.append("  " + _("note: {note}").format(note=note))
        if len(rt["views"]) > 1:
            for v in rt["views"]:
                out.append("  " + _("table {digest}: {nodes}: {names}").format(
                    digest=lookup(v["value"]), nodes=nodes_count(v["count"]), names=names(v["nodes"])))
        if rt["servers_missing"]:
            out.append("  " + _("servers that sent no report: {names}").format(names=names(rt["servers_missing"])))
        for d in rt["duplicate_device_ips"]:
            out.append("  " + _("device IP {ip} used by {users}").format(ip=d["device_ip"], users=", ".join(d["used_by"])))
    if result.get("baseline_drift"):
        out.append("\n" + _("Drift from the baseline:"))
        for d in result["baseline_drift"]:
            groups = _("; ").join(_("{label}: {value}").format(label=nodes_on(g["count"], g["value"]), value=names(g["nodes"]))
                                  for g in d["groups"])
            out.append("  " + _("{fact}: baseline {expected}; {groups}").format(
                fact=lookup(d["fact"]), expected=lookup(str(d["expected"])), groups=groups))
    problem_checks = [c for c in result["checks"] if c.get("nodes")]
    if problem_checks:
        out.append("\n" + _("Checks with problems:"))
        for c in problem_checks:
            by = ", ".join(_("{status} on {nodes} ({names})").format(status=status_word(s), nodes=nodes_count(len(n)),
                                                                 names=names(n, 5))
                           for s, n in c["nodes"].items())
            out.append(f"  {c['id']}: {by}")
            variants = c.get("variants") or []
            for v in variants:
                if len(variants) > 1:  # nodes that need different fixes for one check: each group its own
                    out.append("    " + _("{status} on {nodes} ({names}): {title}").format(
                        status=status_word(v["status"]), nodes=nodes_count(v["count"]), names=names(v["nodes"], 5),
                        title=lookup(v["title"])))
                if v.get("summary"):
                    out.append(f"      {v['summary']}")
                evidence = list((v.get("evidence") or {}).items())
                if evidence:
                    out.append("      " + _("evidence ({node}):").format(node=v["evidence_from"]))
                for key, value in evidence[:EVIDENCE_SHOWN]:
                    out.append("        " + _("{label}: {value}").format(label=lookup(key), value=_shown(value)))
                for step in v.get("fix") or []:
                    out.append("      " + fix_label.format(step=step))
    if result["unreadable"]:
        out.append("\n" + _("Unreadable reports (the node's preflight did not finish writing, or the file is not a "
                            "report):"))
        for u in result["unreadable"][:NAMES_SHOWN]:
            out.append(f"  {u['error']}")
    if result["nodes_failing"]:
        out.append("\n" + _("Failing nodes ({count}):").format(count=len(result["nodes_failing"])))
        for n in result["nodes_failing"][:NAMES_SHOWN * 2]:
            ids = ", ".join(f"{p['id']}（{word}）" if has_wide(word) else f"{p['id']} ({word})"
                            for p in n["problems"] for word in [status_word(p["status"])])
            out.append(f"  {n['name']}: {ids}")
        if len(result["nodes_failing"]) > NAMES_SHOWN * 2:
            out.append("  " + _("... and {count} more (see --format json)").format(
                count=len(result["nodes_failing"]) - NAMES_SHOWN * 2))
    from .layout import fit_lines, terminal_width

    # fix lines are commands to paste: whole; the rest fits the terminal (breaks at spaces only)
    fix_start = fix_label.split("{step}", 1)[0]
    return "\n".join(fit_lines(out, terminal_width(), keep=lambda line: line.lstrip().startswith(fix_start))) + "\n"
