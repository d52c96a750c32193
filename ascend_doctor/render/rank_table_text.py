"""`rank-table` as text: the table's format and problems (one line each, --max-per-rule), the node checks, the verdict."""

from __future__ import annotations

from typing import Dict, List, Optional

from ..findings import ERROR, FAIL, INFO, PASS, SKIP, WARN, Finding
from ..i18n import N_, _
from ..rank_table.model import FORMAT_V20
from .aggregate_text import status_word
from .common import severity_tag
from .layout import pad

# The status tag of a node check line ("[ PASS]": upper case, unlike a report's "[   ok]"), in the run's language.
NODE_TAGS = {FAIL: N_("FAIL"), ERROR: N_("ERROR"), WARN: N_("WARN"), PASS: N_("PASS"), SKIP: N_("SKIP")}
VERDICT_WORDS = {"invalid": N_("invalid"), "valid, with warnings": N_("valid, with warnings"), "valid": N_("valid")}


def render_rank_table(args, table, counts: Dict[str, int], verdict: str, findings: List[Finding], node: Optional[dict]) -> str:
    lines = [_("rank table: {file}").format(file=args.file)]
    status = _("None") if table.status is None else table.status  # no "status" field (printed as Python's None)
    if table.format == FORMAT_V20:  # no server_list: ranks only (servers come from the topology file)
        lines.append(_("format {format}: {ranks} ranks (a 2.0 table lists ranks, not servers), status {status}").format(
            format=table.format, ranks=table.rank_count, status=status))
    elif table.format:
        lines.append(_("format {format}: {servers} server(s), {ranks} ranks, status {status}").format(
            format=table.format, servers=len(table.servers), ranks=table.rank_count, status=status))
    else:
        lines.append(_("format: not recognised as a rank table"))
    if table.problems:
        lines.append(_("{fail} fail, {warn} warn, {info} info:").format(fail=counts[FAIL], warn=counts[WARN],
                                                                        info=counts[INFO]))
        shown: Dict[str, int] = {}
        hidden: Dict[str, int] = {}
        for p in table.problems:
            n = shown.get(p.rule, 0)
            if args.max_per_rule and n >= args.max_per_rule:
                hidden[p.rule] = hidden.get(p.rule, 0) + 1
                continue
            shown[p.rule] = n + 1
            lines.append(f"  {pad(severity_tag(p.severity), 5)} {p.rule:<4} {p.shown()}")
        for rule, n in hidden.items():
            lines.append("  " + _("... {count} more {rule} problem(s) not shown (--max-per-rule 0 or --format json lists "
                                  "all)").format(count=n, rule=rule))
    if node is not None:
        lines.append(_("against this machine:") if node["kind"] == "live" else
                     _("against snapshot of {name}:").format(name=node["name"]))
        for f in findings:
            line = _("{label}: {value}").format(label=f.title, value=f.summary)
            lines.append(f"  [{pad(_(NODE_TAGS[f.status]), 5, '>')}] {line}")
            for step in f.fix if f.is_problem else []:
                lines.append("          " + _("fix: {step}").format(step=step))
    shown_verdict = _(VERDICT_WORDS[verdict])
    if findings:
        lines.append(_("Result: {verdict}, node checks: {statuses}").format(
            verdict=shown_verdict, statuses=", ".join(status_word(s) for s in sorted({f.status for f in findings}))))
    else:
        lines.append(_("Result: {verdict}").format(verdict=shown_verdict))
    return "\n".join(lines) + "\n"
