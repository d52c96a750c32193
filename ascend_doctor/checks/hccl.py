"""HCCL environment variables: values in their documented ranges, and names spelled right (pitfall P13).

A wrong HCCL value is rarely rejected loudly: HCCL falls back to a default or times
out at the first collective, so a multi-card job "hangs at start". The table of
names, ranges and defaults is data/hccl_env.json (see ascend_doctor.hccl_env).
"""

from __future__ import annotations

from typing import List

from ..findings import PASS, SKIP, Finding
from ..hccl_env import FAIL, FAMILY_NAMES, EnvIssue, family_name, name_issues, validate_hccl_env, variables_by_name
from ..i18n import N_, _
from ..probes.launch import shown_value
from . import check
from ._node import node_family

VALUES_TITLE = N_("HCCL variables within their documented ranges")
NAMES_TITLE = N_("HCCL / Ascend / MindSpore variable names spelled right")


def _if_ip_not_local(env, local_names) -> List[EnvIssue]:
    """H4: HCCL_IF_IP must be assigned to an interface of this host (known when `hostname -I` answered)."""
    value = (env.get("HCCL_IF_IP") or "").strip()
    if not value:
        return []
    local_ips = [n for n in local_names if _is_ip(n)]
    if not _is_ip(value) or not local_ips or value in local_ips:
        return []
    return [EnvIssue("HCCL_IF_IP", value, FAIL, _("HCCL_IF_IP={value} is not an address of this host ({addresses}); "
                                                  "HCCL cannot bind to it").format(value=value,
                                                                                   addresses=", ".join(local_ips[:6])),
                     "H4", [_("ip -o addr show   # this host's addresses"), f"export HCCL_IF_IP={local_ips[0]}"])]


def _is_ip(text: str) -> bool:
    import ipaddress  # only when HCCL_IF_IP is set

    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return False


@check("hccl.env_values", VALUES_TITLE, pitfalls=["P13"],
       fail="HCCL variable outside its documented range", warn="HCCL variable value questionable",
       skip="No HCCL variable set")
def check_hccl_env_values(ctx) -> List[Finding]:
    env = ctx.facts.env
    family = node_family(ctx.facts)
    issues, checked = validate_hccl_env(env, family)
    issues.extend(_if_ip_not_local(env, ctx.facts.rank_table.local_names))
    fam_text = family_name(family) if family in FAMILY_NAMES else _("unknown (ranges common to all families used)")
    if not issues and not checked:
        return [ctx.finding(SKIP,
                            summary=_("No HCCL_* variable is set; HCCL uses its defaults."))]
    findings = []
    table = variables_by_name()
    for issue in issues:
        spec = table.get(issue.name, {})
        evidence = {issue.name: shown_value(issue.name, issue.value), "device family": fam_text, "rule": issue.rule}
        evidence.update(issue.related)
        if spec.get("default"):
            evidence["documented default"] = spec["default"]
        if spec.get("source"):
            evidence["source"] = spec["source"]
        findings.append(ctx.finding(issue.status, title=_("{title}: {name}").format(title=_(VALUES_TITLE), name=issue.name),  # ": " as findings.py reads it
                                    summary=issue.message, evidence=evidence, fix=issue.fix, pitfall="P13"))
    if not findings:
        findings.append(ctx.finding(PASS,
                                    summary=_("{count} HCCL variable(s) set, all valid").format(count=len(checked)),
                                    evidence=dict({k: shown_value(k, v) for k, v in checked.items()},
                                                  **{"device family": fam_text})))
    return findings


@check("hccl.env_names", NAMES_TITLE, pitfalls=["P13"],
       warn="Variable name not read by HCCL/CANN/MindSpore",
       fail="Variable name not read by HCCL/CANN/MindSpore")
def check_hccl_env_names(ctx) -> List[Finding]:
    issues = name_issues(ctx.facts.env, node_family(ctx.facts))
    if not issues:
        return [ctx.finding(PASS,
                            summary=_("no misspelled or unknown HCCL_*/ASCEND_*/MS_* names"))]
    # An unknown name may well be a credential (HCCL_TLS_PASSWORD): its value never goes in the report.
    return [ctx.finding(i.status, title=_("{title}: {name}").format(title=_(NAMES_TITLE), name=i.name),
                        summary=_without(i.message, i.name, i.value),
                        evidence={i.name: shown_value(i.name, i.value)},
                        fix=[_without(step, i.name, i.value) for step in i.fix], pitfall="P13") for i in issues]


def _without(text: str, name: str, value) -> str:
    shown = shown_value(name, value)
    return text.replace(str(value), shown) if value and shown != str(value) else text
