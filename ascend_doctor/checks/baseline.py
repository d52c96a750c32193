"""Drift from a trusted node's report (--baseline): versions, HCCL variables, device counts."""

from __future__ import annotations

from ..findings import PASS, SKIP, WARN
from . import check

TITLE = "Same versions and launch variables as the baseline node"


@check("baseline.drift", TITLE, pitfalls=["P13", "P17"],
       warn="Versions or launch variables differ from the baseline node", skip="No baseline given")
def check_baseline_drift(ctx):
    baseline = ctx.options.get("baseline")
    if baseline is None:
        return ctx.finding(SKIP, summary="No --baseline report given.")
    # Only a run with --baseline pays for these imports (node_facts, release_notes, versions).
    from ..baseline import drift_is_mindspore, mindspore_move
    from ..node_facts import comparable_facts
    from ..release_notes import where_to_read

    mine = comparable_facts({"facts": ctx.facts.to_json()})
    drift = baseline.drift_from(mine)
    evidence = {"baseline": f"{baseline.source}" + (f" (node {baseline.node})" if baseline.node else "")}
    if not drift:
        return ctx.finding(PASS, evidence=evidence,
                           summary=f"All {len(baseline.facts)} compared facts match the baseline.")
    fix = []
    pitfall = "P13"
    for item in drift:
        evidence[item["fact"]] = f"baseline {item['expected']}, here {item['actual']}"
        if drift_is_mindspore(item):
            pitfall = "P17"
            crossed = mindspore_move(item["expected"], item["actual"]) or []
            for rel in crossed:
                for change in rel["breaking_changes"]:
                    fix.append(f"MindSpore {rel['version']} breaking change: {change['change']}")
            if crossed:
                fix.append("read the breaking changes of every release in between before trusting results: "
                           f"{where_to_read(crossed[-1]['version'])}; likewise for "
                           + (", ".join(r["version"] for r in crossed[:-1]) or "no other release"))
    names = ", ".join(i["fact"] for i in drift)
    fix.append(f"make this node match the baseline ({names}), or refresh the baseline on purpose: "
               "ascend-doctor check --format json -o known-good.json")
    return ctx.finding(WARN, evidence=evidence, fix=fix, pitfall=pitfall,
                       summary=f"{len(drift)} fact(s) differ from the trusted node: {names}. Nodes that differ from the "
                               "rest of a job hang or diverge; an unplanned MindSpore move changes behaviour.")
