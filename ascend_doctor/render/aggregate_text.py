"""Aggregate verdict as plain text: what a job log or a terminal shows."""

from __future__ import annotations

from typing import Any, Dict, List

NAMES_SHOWN = 10
EVIDENCE_SHOWN = 6  # evidence lines per fix group; the JSON has them all


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{k}: {v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def names(items: List[str], limit: int = NAMES_SHOWN) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def skew_line(item: Dict[str, Any]) -> str:
    """'7 nodes on 24.1.rc2, 1 node on 23.0.3: node-17' (the odd nodes out named)."""
    parts = []
    for i, g in enumerate(item["groups"]):
        part = f"{_plural(g['count'], 'node')} on {g['value']}"
        if i > 0:
            part += f": {names(g['nodes'])}"
        parts.append(part)
    return "; ".join(parts)


def render_aggregate_text(result: Dict[str, Any]) -> str:
    out = []
    total = result["nodes_total"]
    verdict = "OK" if result["verdict"] == "ok" else "PROBLEMS"
    out.append(f"ascend-doctor aggregate: {verdict} — {_plural(total, 'node report')}")
    for p in result["problems"]:
        out.append(f"  - {p}")
    logs = result.get("logs")
    if logs:
        out.append(f"\nLogs of {_plural(len(logs['nodes']), 'node')} ({logs['files']} files):")
        rc = logs.get("root_cause")
        if rc:
            out.append(f"  {logs['headline']}")
            out.append(f"    {rc['summary']}")
            for m in rc.get("missing") or []:
                out.append(f"    missing: {m}")
            for step in rc.get("fix") or []:
                out.append(f"    fix: {step}")
        for p in logs["problems"][:NAMES_SHOWN]:
            where = p["first"].get("device") or p["first"].get("node") or p["first"]["file"]
            out.append(f"  {p['severity'].upper()} {p['id']} x{p['count']}, first on {where}"
                       + (f" (caused by {p['caused_by']})" if p.get("caused_by") else ""))
    cov = result["coverage"]
    if cov.get("missing_ranks"):
        out.append(f"\nMissing ranks (world size {cov['expected']}): {names([str(r) for r in cov['missing_ranks']], 20)}")
    elif cov.get("missing_count"):
        out.append(f"\nMissing reports: expected {cov['expected']}, got {cov['reported']}")
    if cov.get("duplicate_names"):
        out.append(f"\nReported twice: {names(cov['duplicate_names'])}")
    if result["skew"]:
        out.append("\nSkew (should be equal on every node):")
        for item in result["skew"]:
            out.append(f"  {item['fact']}: {skew_line(item)}")
    rt = result.get("rank_table")
    if rt:
        out.append(f"\nRank table: {'consistent' if rt['ok'] else 'PROBLEMS'} "
                   f"({rt['servers_in_table'] if rt['servers_in_table'] is not None else 'unknown number of'} servers in the table)")
        for note in rt.get("notes") or []:
            out.append(f"  note: {note}")
        if len(rt["views"]) > 1:
            for v in rt["views"]:
                out.append(f"  table {v['value']}: {_plural(v['count'], 'node')}: {names(v['nodes'])}")
        if rt["servers_missing"]:
            out.append(f"  servers that sent no report: {names(rt['servers_missing'])}")
        for d in rt["duplicate_device_ips"]:
            out.append(f"  device IP {d['device_ip']} used by {', '.join(d['used_by'])}")
    if result.get("baseline_drift"):
        out.append("\nDrift from the baseline:")
        for d in result["baseline_drift"]:
            groups = "; ".join(f"{_plural(g['count'], 'node')} on {g['value']}: {names(g['nodes'])}" for g in d["groups"])
            out.append(f"  {d['fact']}: baseline {d['expected']}; {groups}")
    problem_checks = [c for c in result["checks"] if c.get("nodes")]
    if problem_checks:
        out.append("\nChecks with problems:")
        for c in problem_checks:
            by = ", ".join(f"{s} on {_plural(len(n), 'node')} ({names(n, 5)})" for s, n in c["nodes"].items())
            out.append(f"  {c['id']}: {by}")
            variants = c.get("variants") or []
            for v in variants:
                if len(variants) > 1:  # nodes that need different fixes for one check: each group its own
                    out.append(f"    {v['status']} on {_plural(v['count'], 'node')} ({names(v['nodes'], 5)}): {v['title']}")
                if v.get("summary"):
                    out.append(f"      {v['summary']}")
                evidence = list((v.get("evidence") or {}).items())
                if evidence:
                    out.append(f"      evidence ({v['evidence_from']}):")
                for key, value in evidence[:EVIDENCE_SHOWN]:
                    out.append(f"        {key}: {_shown(value)}")
                for step in v.get("fix") or []:
                    out.append(f"      fix: {step}")
    if result["unreadable"]:
        out.append("\nUnreadable reports (the node's preflight did not finish writing, or the file is not a report):")
        for u in result["unreadable"][:NAMES_SHOWN]:
            out.append(f"  {u['error']}")
    if result["nodes_failing"]:
        out.append(f"\nFailing nodes ({len(result['nodes_failing'])}):")
        for n in result["nodes_failing"][:NAMES_SHOWN * 2]:
            ids = ", ".join(f"{p['id']} ({p['status']})" for p in n["problems"])
            out.append(f"  {n['name']}: {ids}")
        if len(result["nodes_failing"]) > NAMES_SHOWN * 2:
            out.append(f"  ... and {len(result['nodes_failing']) - NAMES_SHOWN * 2} more (see --format json)")
    from .layout import fit_lines, terminal_width

    # fix lines are commands to paste: whole; the rest fits the terminal (breaks at spaces only)
    return "\n".join(fit_lines(out, terminal_width(), keep=lambda line: line.lstrip().startswith("fix: "))) + "\n"
