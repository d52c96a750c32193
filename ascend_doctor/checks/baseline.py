"""Drift from a trusted node's report (--baseline): versions, HCCL variables, device counts."""

from __future__ import annotations

from ..findings import PASS, SKIP, WARN
from ..i18n import N_, _, sentences
from . import check

TITLE = N_("Same versions and launch variables as the baseline node")


@check("baseline.drift", TITLE, pitfalls=["P13", "P17"],
       warn="Versions or launch variables differ from the baseline node", skip="No baseline given")
def check_baseline_drift(ctx):
    baseline = ctx.options.get("baseline")
    if baseline is None:
        return ctx.finding(SKIP, summary=_("No --baseline report given."))
    # Only a run with --baseline pays for these imports (node_facts, release_notes, versions).
    from ..baseline import drift_is_mindspore, mindspore_move
    from ..node_facts import comparable
    from ..release_notes import where_to_read

    mine = comparable(ctx.facts)
    drift = baseline.drift_from(mine)
    evidence = {"baseline": _("{source} (node {node})").format(source=baseline.source, node=baseline.node)
                if baseline.node else f"{baseline.source}"}
    if not drift:
        return ctx.finding(PASS, evidence=evidence,
                           summary=_("All {count} compared facts match the baseline.").format(count=len(baseline.facts)))
    fix = []
    pitfall = "P13"
    for item in drift:
        evidence[item["fact"]] = _("baseline {expected}, here {actual}").format(expected=item["expected"],
                                                                               actual=item["actual"])
        if drift_is_mindspore(item):
            pitfall = "P17"
            crossed = mindspore_move(item["expected"], item["actual"]) or []
            for rel in crossed:
                for change in rel["breaking_changes"]:
                    fix.append(_("MindSpore {version} breaking change: {change}").format(version=rel["version"],
                                                                                        change=change["change"]))
            if crossed:
                fix.append(_("read the breaking changes of every release in between before trusting results: "
                             "{where}; likewise for {others}").format(
                                 where=where_to_read(crossed[-1]["version"]),
                                 others=", ".join(r["version"] for r in crossed[:-1]) or _("no other release")))
    names = ", ".join(i["fact"] for i in drift)
    fix.append(_("make this node match the baseline ({facts}), or refresh the baseline on purpose: "
                 "ascend-doctor check --format json -o known-good.json").format(facts=names))
    return ctx.finding(WARN, evidence=evidence, fix=fix, pitfall=pitfall,
                       summary=sentences(_("{count} fact(s) differ from the trusted node: {facts}.").format(
                                             count=len(drift), facts=names),
                                         _("Nodes that differ from the rest of a job hang or diverge; an unplanned "
                                           "MindSpore move changes behaviour.")))
