"""Which check, log signature or advice addresses each documented pitfall (P01..P24).

The "Pitfall coverage" table in docs/pitfalls.md is generated from this (scripts/pitfall_table.py)
and a test keeps the two equal, so the table cannot claim what the code does not do.
"""

from __future__ import annotations

from typing import Dict, List

from ascend_doctor.checks import all_checks
from ascend_doctor.kb.load import load_knowledge_base


def pitfall_coverage() -> Dict[str, Dict[str, List[str]]]:
    """{P-id: {"title": str, "checks": [ids], "advice": [ids], "signatures": [ids]}}"""
    kb = load_knowledge_base()
    table = {pid: {"title": p.title, "checks": [], "advice": [], "signatures": []}
             for pid, p in sorted(kb.pitfalls.items())}
    for spec in all_checks():
        for pid in spec.pitfalls:
            if pid not in table:
                raise ValueError(f"check {spec.id} names unknown pitfall {pid}")
            table[pid]["advice" if spec.id.startswith("advice.") else "checks"].append(spec.id)
    for sig in kb.signatures:
        if sig.pitfall:
            if sig.pitfall not in table:
                raise ValueError(f"signature {sig.id} names unknown pitfall {sig.pitfall}")
            table[sig.pitfall]["signatures"].append(sig.id)
    return table


def coverage_markdown(max_signatures: int = 4) -> str:
    lines = ["| id | pitfall | checks | advice (shown only when it applies) | log signatures (`triage`, smoke) |",
             "|---|---|---|---|---|"]
    for pid, row in pitfall_coverage().items():
        sigs = row["signatures"]
        shown = ", ".join(f"`{s}`" for s in sigs[:max_signatures])
        if len(sigs) > max_signatures:
            shown += f" +{len(sigs) - max_signatures} more"
        lines.append("| {} | {} | {} | {} | {} |".format(
            pid, row["title"],
            ", ".join(f"`{c}`" for c in row["checks"]) or "—",
            ", ".join(f"`{a}`" for a in row["advice"]) or "—",
            shown or "—"))
    return "\n".join(lines) + "\n"
