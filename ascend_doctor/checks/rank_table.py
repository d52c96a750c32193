"""The rank table (RANK_TABLE_FILE) and this node's place in it (pitfalls P14, P13).

rank_table.valid      the file itself (rules R1-R15, ascend_formats.md §7.4)
rank_table.this_node  this host is a server of the table; its devices exist; RANK_ID/DEVICE_ID belong here (R6, L3)
rank_table.device_ips the table's device IPs for this server are the NICs' addresses (hccn.conf / hccn_tool; R9, N1, N2)
rank_table.device_nics those NICs are up and healthy (N3, N4)
All skip when RANK_TABLE_FILE is not set.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Finding
from . import check
from ._node import node_device_ids, node_family

VALID_TITLE = "Rank table is well-formed"
NODE_TITLE = "This node's entry in the rank table"
IPS_TITLE = "Rank-table device IPs match this node's device NICs"
NICS_TITLE = "Device NICs of this node are up and healthy"
SHOWN_PROBLEMS = 12

RULE_FIXES = {
    "R1": "delete the // comments and trailing commas; check with: python -m json.tool {path}",
    "R2": "wait until the generator sets \"status\": \"completed\" (MindCluster writes it when all pods are scheduled)",
    "R3": "set \"version\": \"1.0\" (\"1.2\" only for an A3 super-pod table)",
    "R7": "renumber rank_id 0..N-1 server by server; merge_hccl.py does this when given the files in server_id order",
    "R8": "order servers (and their rank blocks) by server_id: merge the per-server tables sorted by server_id",
    "R9": "use each device's address_<device_id> from /etc/hccn.conf on its server (hccn_tool -i <id> -ip -g)",
    "R13": "use 1, 2, 4 devices inside one HCCS group (0-3 or 4-7) or all 8 (910A); whole die pairs on A3",
}
GENERATE = ("regenerate instead of editing by hand: python hccl_tools.py --device_num \"[0,8)\" on each server, "
            "then merge the per-server files in server_id order")


def _skip_unless_configured(ctx) -> Optional[Finding]:
    rt = ctx.facts.rank_table
    if not rt.env_var:
        return ctx.finding(SKIP, summary="RANK_TABLE_FILE is not set: not a rank-table launch.")
    return None


@check("rank_table.valid", VALID_TITLE, pitfalls=["P14"],
       fail="Rank table is malformed", warn="Rank table has problems",
       skip="No rank table (not a rank-table launch)")
def check_rank_table_valid(ctx):
    skip = _skip_unless_configured(ctx)
    if skip:
        return skip
    from ..rank_table import FORMAT_V10, Problem, problem_severity, topology_problems  # only with a rank table

    rt = ctx.facts.rank_table
    evidence: Dict[str, object] = {rt.env_var: rt.path}
    if rt.read_error:
        return ctx.finding(FAIL,
                           summary=f"The rank table cannot be read: {rt.read_error}. The job will not start.",
                           evidence=evidence, fix=[f"ls -l {rt.path}", f"export {rt.env_var}=<absolute path of the rank table>"],
                           pitfall="P14")
    # problem_severity: a report saved before "fail/warn" was the one vocabulary still says "error/warning"
    problems = [dict(p, severity=problem_severity(p.get("severity"))) for p in rt.problems]
    counts: Dict[str, int] = {}
    for severity, n in rt.problem_counts.items():
        counts[problem_severity(severity)] = counts.get(problem_severity(severity), 0) + n
    family = node_family(ctx.facts)
    if family and rt.format == FORMAT_V10:
        for p in topology_problems(rt.device_sets, family, rt.server_paths):
            problems.append(p.to_json())
            counts[p.severity] = counts.get(p.severity, 0) + 1
    evidence.update({"format": rt.format or "not a rank table", "servers": rt.server_count, "ranks": rt.rank_count})
    if not family and rt.format == FORMAT_V10:
        evidence["topology"] = "not checked: device family unknown"
    errors = [p for p in problems if p["severity"] == FAIL]
    warnings = [p for p in problems if p["severity"] == WARN]
    if not errors and not warnings:
        return ctx.finding(PASS,
                           summary=f"version {rt.format}, " + (f"{rt.server_count} server(s), " if rt.server_count is not None
                                                                 else "ranks only (no server list), ")
                                   + f"{rt.rank_count} ranks, status {rt.status}",
                           evidence=evidence)
    shown = (errors + warnings)[:SHOWN_PROBLEMS]
    evidence["problems"] = [Problem(p["path"], p["severity"], p["rule"], p["message"], p.get("line"), p.get("column")).describe()
                            + f" [{p['rule']}]" for p in shown]
    total = counts.get(FAIL, 0) + counts.get(WARN, 0)
    if total > len(shown):
        evidence["more"] = f"{total - len(shown)} more; run: ascend-doctor rank-table {rt.path}"
    fixes = []
    for rule in sorted({p["rule"] for p in shown}):
        if rule in RULE_FIXES:
            fixes.append(RULE_FIXES[rule].format(path=rt.path))
    fixes.append(f"ascend-doctor rank-table {rt.path}   # every problem with its JSON path")
    fixes.append(GENERATE)
    status = FAIL if errors else WARN
    what = f"{counts.get(FAIL, 0)} error(s)" + (f", {counts.get(WARN, 0)} warning(s)" if counts.get(WARN) else "")
    return ctx.finding(status,
                       summary=f"The rank table has {what}; " + ("HCCL will refuse it or hang at start. " if errors else "")
                               + "First: " + evidence["problems"][0],
                       evidence=evidence, fix=fixes, pitfall="P14")


SHOWN_NAMES = 8


def _listed(items, total) -> str:
    """'a, b, c' or 'a, b, ... (12 in all)': enough to compare by eye, never a page."""
    shown = ", ".join(str(x) for x in list(items)[:SHOWN_NAMES]) or "none"
    return shown + (f", ... ({total} in all)" if total and total > SHOWN_NAMES else "")


def _local_or_finding(ctx, judges_the_entry: bool = False):
    """(local_server, None) or (None, the finding that says why there is none). `judges_the_entry`: the check
    whose problem a missing entry is (rank_table.this_node); for the others it is a skip."""
    skip = _skip_unless_configured(ctx)
    if skip:
        return None, skip
    rt = ctx.facts.rank_table
    if rt.read_error or not rt.format:
        return None, ctx.finding(SKIP, summary="The rank table could not be read as a rank table; see rank_table.valid.")
    if rt.format == "2.0":
        return None, ctx.finding(SKIP, summary="Version 2.0 tables list ranks, not servers; matching this node to "
                                                      "them is not implemented.")
    if rt.local_server is None and not judges_the_entry:
        return None, ctx.finding(SKIP, summary="This node's entry in the rank table was not found; see rank_table.this_node.")
    if rt.local_server is None:
        names = rt.local_names
        if not names:
            return None, ctx.finding(ERROR, summary="This node's names and addresses are unknown (no hostname, "
                                                            "`hostname -I` gave nothing), so its entry cannot be found.",
                                 evidence={rt.env_var: rt.path}, fix=["export XDL_IP=<this node's IP as the table's server_id>"])
        servers = _listed(rt.server_ids, rt.server_count)
        return None, ctx.finding(FAIL,
                             summary=f"None of this node's names or addresses ({_listed(names, len(names))}) appears as a "
                                     f"server_id / host_ip / host_nic_ip in the rank table, whose server_ids are {servers}. "
                                     "HCCL then finds no entry for its devices and the job does not start "
                                     "(or the table belongs to another cluster).",
                             evidence={rt.env_var: rt.path, "this node": names[:SHOWN_NAMES],
                                       "servers": rt.server_count, "server_ids": rt.server_ids[:SHOWN_NAMES]},
                             fix=["use this node's host IP as its server_id (hccl_tools.py does), or export XDL_IP=<its server_id>",
                                  f"ascend-doctor rank-table {rt.path}   # list the servers"], pitfall="P14")
    return rt.local_server, None


@check("rank_table.this_node", NODE_TITLE, pitfalls=["P14", "P13"],
       fail="This node's entry in the rank table is missing or wrong",
       error="Could not match this node to the rank table", skip="This node's rank-table entry not checked")
def check_rank_table_this_node(ctx):
    local, finding = _local_or_finding(ctx, judges_the_entry=True)
    if finding:
        return finding
    env = ctx.facts.env
    devices = local["devices"]
    table_ids = sorted(d["device_id"] for d in devices if d.get("device_id") is not None)
    present = node_device_ids(ctx.facts)
    evidence: Dict[str, object] = {"server": f"{local['path']} (server_id {local['server_id']}; {local['matched_by']})",
                                   "devices in the table": table_ids,
                                   "devices on this node": sorted(present) if present else "unknown device count"}
    problems: List[str] = []
    fixes: List[str] = []
    if local.get("also_matched"):
        problems.append(f"this node also matches {', '.join(local['also_matched'][:4])}: one host must appear once")
    if present is not None:
        absent = [i for i in table_ids if i not in present]
        if absent:
            problems.append(f"the table gives this server device_id {absent}, which this node does not have")
            fixes.append("regenerate this server's part of the table from the devices present (hccl_tools.py)")
    by_device = {d["device_id"]: d for d in devices if d.get("device_id") is not None}
    dev = env.get("DEVICE_ID")
    rank = env.get("RANK_ID")
    if dev is not None and dev.isdigit():
        entry = by_device.get(int(dev))
        if entry is None:
            problems.append(f"DEVICE_ID={dev} is not one of this server's devices in the table ({table_ids})")
            fixes.append("export DEVICE_ID=<a device_id listed for this server>")
        elif rank is not None and rank.isdigit() and entry.get("rank_id") is not None and entry["rank_id"] != int(rank):
            problems.append(f"DEVICE_ID={dev} has rank_id {entry['rank_id']} in the table, but RANK_ID={rank}")
            fixes.append(f"export RANK_ID={entry['rank_id']}   # the rank the table gives device {dev}")
    if rank is not None and rank.isdigit():
        ranks = {d.get("rank_id") for d in devices}
        if int(rank) not in ranks:
            problems.append(f"RANK_ID={rank} is not a rank of this server (its ranks: "
                            f"{min(r for r in ranks if r is not None) if any(r is not None for r in ranks) else '?'}.."
                            f"{max(r for r in ranks if r is not None) if any(r is not None for r in ranks) else '?'})")
    if problems:
        return ctx.finding(FAIL, summary="; ".join(problems) + ".", evidence=evidence,
                           fix=fixes or ["check DEVICE_ID/RANK_ID in the launch script against the rank table"], pitfall="P14")
    if present is None:
        return ctx.finding(ERROR,
                           summary="This node is in the table, but its device count is unknown (no npu-smi devices, no "
                                   "/dev/davinciN), so the table's device ids could not be checked.",
                           evidence=evidence, fix=["npu-smi info", "ls /dev/davinci*"])
    return ctx.finding(PASS,
                       summary=f"{local['server_id']}: devices {table_ids} present", evidence=evidence)


def _hccn_unknown(ctx) -> bool:
    h = ctx.facts.hccn
    return not h.conf_path and not any(d.ip_queried for d in h.devices)


@check("rank_table.device_ips", IPS_TITLE, pitfalls=["P13"],
       fail="Rank-table device IPs do not match this node's device NICs",
       error="Could not compare the rank-table device IPs with the NICs", skip="Rank-table device IPs not checked")
def check_rank_table_device_ips(ctx):
    local, finding = _local_or_finding(ctx)
    if finding:
        return finding
    h = ctx.facts.hccn
    rows = [d for d in local["devices"] if d.get("device_id") is not None and d.get("device_ip")]
    if not rows:
        return ctx.finding(SKIP, summary="The table gives this server no device IPs.")
    if _hccn_unknown(ctx):
        return ctx.finding(ERROR,
                           summary="No /etc/hccn.conf and no answer from `hccn_tool -i N -ip -g`, so the device NIC addresses "
                                   "are unknown." + (f" ({h.tool_error})" if h.tool_error else ""),
                           evidence={"hccn_tool": h.tool or "not found"},
                           fix=["ls /etc/hccn.conf /usr/local/Ascend/driver/tools/hccn_tool"])
    problems: List[str] = []
    evidence: Dict[str, object] = {}
    fixes: List[str] = []
    seen: Dict[str, int] = {}
    for d in h.devices:
        addr = d.conf.get("address")
        if addr:
            if addr in seen:
                problems.append(f"/etc/hccn.conf gives address {addr} to both device {seen[addr]} and device {d.device_id}")
            seen[addr] = d.device_id
    for row in rows:
        i, want = row["device_id"], row["device_ip"]
        nic = h.device(i)
        conf_ip = nic.conf.get("address") if nic else None
        live_ip = nic.ip if nic and nic.ip_queried else None
        evidence[f"device {i}"] = f"table {want}; hccn.conf {conf_ip or '-'}; hccn_tool {live_ip or ('not configured' if nic and nic.ip_queried else '-')}"
        if h.conf_path and not conf_ip:
            problems.append(f"device {i}: /etc/hccn.conf has no address_{i} (N1)")
            fixes.append(f"hccn_tool -i {i} -ip -s address {want} netmask <netmask>   # as root; writes /etc/hccn.conf")
        elif h.conf_path and nic and not nic.conf.get("netmask"):
            problems.append(f"device {i}: /etc/hccn.conf has address_{i} but no netmask_{i} (N1)")
        if conf_ip and conf_ip != want:
            problems.append(f"device {i}: the table says {want}, /etc/hccn.conf says {conf_ip} ({row['path']}.device_ip)")
            fixes.append(f"set {row['path']}.device_ip to {conf_ip}, or regenerate the table (hccl_tools.py reads hccn_tool)")
        if nic and nic.ip_queried:
            if live_ip is None:
                problems.append(f"device {i}: `hccn_tool -i {i} -ip -g` shows no IP configured")
                fixes.append(f"hccn_tool -i {i} -ip -s address {want} netmask <netmask>")
            elif live_ip != want:
                problems.append(f"device {i}: the table says {want}, the NIC has {live_ip}")
                fixes.append(f"hccn_tool -i {i} -ip -g   # then fix the table or the NIC so they agree")
    if problems:
        return ctx.finding(FAIL,
                           summary="; ".join(problems[:6]) + (f"; and {len(problems) - 6} more" if len(problems) > 6 else "")
                                   + ". HCCL connects to the table's addresses, so peers time out.",
                           evidence=evidence, fix=list(dict.fromkeys(fixes)) or ["fix /etc/hccn.conf so each address is unique"],
                           pitfall="P13")
    return ctx.finding(PASS,
                       summary=f"{len(rows)} device IP(s) match the NICs", evidence=evidence)


# faultdiag treats these as faults (ascend_formats.md §3.3); "Init" means no detect IP was set.
HEALTH_FAULTS = ("Fault", "Socket failed", "Receive timeout", "Unreachable", "Detect ip set")


@check("rank_table.device_nics", NICS_TITLE, pitfalls=["P13"],
       fail="A device NIC of this node is down or unhealthy", warn="A device NIC of this node looks unhealthy",
       error="Could not read the device NICs of this node", skip="Device NICs not checked")
def check_rank_table_device_nics(ctx):
    local, finding = _local_or_finding(ctx)
    if finding:
        return finding
    h = ctx.facts.hccn
    ids = sorted(d["device_id"] for d in local["devices"] if d.get("device_id") is not None)
    if h.tool is None or h.tool_error:
        return ctx.finding(ERROR,
                           summary=f"Device NIC state is unknown: {h.tool_error or 'hccn_tool gave no answer'}.",
                           evidence={"devices": ids}, fix=["/usr/local/Ascend/driver/tools/hccn_tool -i 0 -link -g"])
    fails: List[str] = []
    warns: List[str] = []
    unknown: List[int] = []
    fixes: List[str] = []
    evidence: Dict[str, object] = {}
    for i in ids:
        nic = h.device(i)
        link = nic.link if nic else None
        health = nic.net_health if nic else None
        evidence[f"device {i}"] = f"link {link or '?'}; net health {health or '?'}"
        if link is None and health is None:
            unknown.append(i)
            continue
        if link is not None and link != "UP":
            fails.append(f"device {i} link is {link}")
            fixes.append(f"hccn_tool -i {i} -link -g   # check the cable/optical module and the switch port")
        if health is not None:
            if health == "Success":
                pass
            elif health == "Init":
                warns.append(f"device {i} net health is Init (no detect IP set, so health is not tested)")
                fixes.append(f"hccn_tool -i {i} -netdetect -s address <gateway or peer IP>")
            elif any(health.startswith(f) for f in HEALTH_FAULTS):
                fails.append(f"device {i} net health is {health}")
                fixes.append(f"hccn_tool -i {i} -net_health -g   # then the netdetect/gateway address in /etc/hccn.conf")
            else:
                warns.append(f"device {i} net health is {health}")
    if fails or warns:
        status = FAIL if fails else WARN
        return ctx.finding(status,
                           summary="; ".join(fails + warns) + ". A rank whose NIC is down or unhealthy makes every peer wait "
                                                              "until HCCL_CONNECT_TIMEOUT.",
                           evidence=evidence, fix=list(dict.fromkeys(fixes)), pitfall="P13")
    if unknown:
        return ctx.finding(ERROR,
                           summary=f"hccn_tool gave no link/health answer for device(s) {unknown}.", evidence=evidence,
                           fix=[f"hccn_tool -i {unknown[0]} -link -g"])
    return ctx.finding(PASS, summary=f"{len(ids)} NIC(s) up, net health Success",
                       evidence=evidence)
