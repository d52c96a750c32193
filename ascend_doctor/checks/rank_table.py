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
from ..i18n import N_, _, sentences
from ..i18n_text import localized
from . import check
from ._node import node_device_ids, node_family
from .network import net_health_meaning

VALID_TITLE = N_("Rank table is well-formed")
NODE_TITLE = N_("This node's entry in the rank table")
IPS_TITLE = N_("Rank-table device IPs match this node's device NICs")
NICS_TITLE = N_("Device NICs of this node are up and healthy")
SHOWN_PROBLEMS = 12

RULE_FIXES = {  # translated where used: _(RULE_FIXES[rule])
    "R1": N_("delete the // comments and trailing commas; check with: python -m json.tool {path}"),
    "R2": N_("wait until the generator sets \"status\": \"completed\" (MindCluster writes it when all pods are scheduled)"),
    "R3": N_("set \"version\": \"1.0\" (\"1.2\" only for an A3 super-pod table)"),
    "R7": N_("renumber rank_id 0..N-1 server by server; merge_hccl.py does this when given the files in server_id order"),
    "R8": N_("order servers (and their rank blocks) by server_id: merge the per-server tables sorted by server_id"),
    "R9": N_("use each device's address_<device_id> from /etc/hccn.conf on its server (hccn_tool -i <id> -ip -g)"),
    "R13": N_("use 1, 2, 4 devices inside one HCCS group (0-3 or 4-7) or all 8 (910A); whole die pairs on A3"),
}
GENERATE = N_("regenerate instead of editing by hand: python hccl_tools.py --device_num \"[0,8)\" on each server, "
              "then merge the per-server files in server_id order")


def _skip_unless_configured(ctx) -> Optional[Finding]:
    rt = ctx.facts.rank_table
    if not rt.env_var:
        return ctx.finding(SKIP, summary=_("RANK_TABLE_FILE is not set: not a rank-table launch."))
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
                           summary=sentences(_("The rank table cannot be read: {error}.").format(error=rt.read_error),
                                             _("The job will not start.")),
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
    evidence.update({"format": rt.format or _("not a rank table"), "servers": rt.server_count, "ranks": rt.rank_count})
    if not family and rt.format == FORMAT_V10:
        evidence["topology"] = _("not checked: device family unknown")
    errors = [p for p in problems if p["severity"] == FAIL]
    warnings = [p for p in problems if p["severity"] == WARN]
    if not errors and not warnings:
        return ctx.finding(PASS,
                           summary=(_("version {format}, {servers} server(s), {ranks} ranks, status {status}")
                                    if rt.server_count is not None else
                                    _("version {format}, ranks only (no server list), {ranks} ranks, status {status}"))
                           .format(format=rt.format, servers=rt.server_count, ranks=rt.rank_count, status=rt.status),
                           evidence=evidence)
    shown = (errors + warnings)[:SHOWN_PROBLEMS]
    evidence["problems"] = [_("{problem} [{rule}]").format(problem=Problem(
        p["path"], p["severity"], p["rule"], p["message"], p.get("line"), p.get("column")).shown(), rule=p["rule"])
        for p in shown]
    total = counts.get(FAIL, 0) + counts.get(WARN, 0)
    if total > len(shown):
        evidence["more"] = _("{count} more; run: ascend-doctor rank-table {path}").format(
            count=total - len(shown), path=rt.path)
    fixes = []
    for rule in sorted({p["rule"] for p in shown}):
        if rule in RULE_FIXES:
            fixes.append(_(RULE_FIXES[rule]).format(path=rt.path))
    fixes.append(_("ascend-doctor rank-table {path}   # every problem with its JSON path").format(path=rt.path))
    fixes.append(_(GENERATE))
    status = FAIL if errors else WARN
    args = dict(errors=counts.get(FAIL, 0), warnings=counts.get(WARN, 0), first=evidence["problems"][0])
    if counts.get(WARN):
        summary = _("The rank table has {errors} error(s), {warnings} warning(s); HCCL will refuse it or hang at start. "
                    "First: {first}") if errors else \
            _("The rank table has {errors} error(s), {warnings} warning(s); First: {first}")
    else:
        summary = _("The rank table has {errors} error(s); HCCL will refuse it or hang at start. First: {first}") \
            if errors else _("The rank table has {errors} error(s); First: {first}")
    return ctx.finding(status,
                       summary=summary.format(**args),
                       evidence=evidence, fix=fixes, pitfall="P14")


SHOWN_NAMES = 8


def _listed(items, total) -> str:
    """'a, b, c' or 'a, b, ... (12 in all)': enough to compare by eye, never a page."""
    shown = ", ".join(str(x) for x in list(items)[:SHOWN_NAMES]) or _("none")
    return _("{shown}, ... ({total} in all)").format(shown=shown, total=total) if total and total > SHOWN_NAMES \
        else shown


def _local_or_finding(ctx, judges_the_entry: bool = False):
    """(local_server, None) or (None, the finding that says why there is none). `judges_the_entry`: the check
    whose problem a missing entry is (rank_table.this_node); for the others it is a skip."""
    skip = _skip_unless_configured(ctx)
    if skip:
        return None, skip
    rt = ctx.facts.rank_table
    if rt.read_error or not rt.format:
        return None, ctx.finding(SKIP, summary=_("The rank table could not be read as a rank table; see "
                                                 "rank_table.valid."))
    if rt.format == "2.0":
        return None, ctx.finding(SKIP, summary=_("Version 2.0 tables list ranks, not servers; matching this node to "
                                                 "them is not implemented."))
    if rt.local_server is None and not judges_the_entry:
        return None, ctx.finding(SKIP, summary=_("This node's entry in the rank table was not found; see "
                                                 "rank_table.this_node."))
    if rt.local_server is None:
        names = rt.local_names
        if not names:
            return None, ctx.finding(ERROR, summary=_("This node's names and addresses are unknown (no hostname, "
                                                      "`hostname -I` gave nothing), so its entry cannot be found."),
                                 evidence={rt.env_var: rt.path}, fix=["export XDL_IP=<this node's IP as the table's server_id>"])
        servers = _listed(rt.server_ids, rt.server_count)
        return None, ctx.finding(FAIL,
                             summary=sentences(
                                 _("None of this node's names or addresses ({names}) appears as a server_id / host_ip / "
                                   "host_nic_ip in the rank table, whose server_ids are {servers}.").format(
                                       names=_listed(names, len(names)), servers=servers),
                                 _("HCCL then finds no entry for its devices and the job does not start (or the table "
                                   "belongs to another cluster).")),
                             evidence={rt.env_var: rt.path, "this node": names[:SHOWN_NAMES],
                                       "servers": rt.server_count, "server_ids": rt.server_ids[:SHOWN_NAMES]},
                             fix=[_("use this node's host IP as its server_id (hccl_tools.py does), or export "
                                    "XDL_IP=<its server_id>"),
                                  _("grep -o '\"server_id\" *: *\"[^\"]*\"' {path}   # the servers the table lists")
                                  .format(path=rt.path)],
                             pitfall="P14")
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
    evidence: Dict[str, object] = {"server": _("{path} (server_id {server_id}; {matched_by})").format(
                                       path=local["path"], server_id=local["server_id"],
                                       matched_by=localized(local["matched_by"])),
                                   "devices in the table": table_ids,
                                   "devices on this node": sorted(present) if present else _("unknown device count")}
    problems: List[str] = []
    fixes: List[str] = []
    if local.get("also_matched"):
        problems.append(_("this node also matches {entries}: one host must appear once").format(
            entries=", ".join(local["also_matched"][:4])))
    if present is not None:
        absent = [i for i in table_ids if i not in present]
        if absent:
            problems.append(_("the table gives this server device_id {absent}, which this node does not have").format(
                absent=absent))
            fixes.append(_("regenerate this server's part of the table from the devices present (hccl_tools.py)"))
    by_device = {d["device_id"]: d for d in devices if d.get("device_id") is not None}
    dev = env.get("DEVICE_ID")
    rank = env.get("RANK_ID")
    if dev is not None and dev.isdigit():
        entry = by_device.get(int(dev))
        if entry is None:
            problems.append(_("DEVICE_ID={device} is not one of this server's devices in the table ({ids})").format(
                device=dev, ids=table_ids))
            fixes.append("export DEVICE_ID=<a device_id listed for this server>")
        elif rank is not None and rank.isdigit() and entry.get("rank_id") is not None and entry["rank_id"] != int(rank):
            problems.append(_("DEVICE_ID={device} has rank_id {table_rank} in the table, but RANK_ID={rank}").format(
                device=dev, table_rank=entry["rank_id"], rank=rank))
            fixes.append(_("export RANK_ID={rank}   # the rank the table gives device {device}").format(
                rank=entry["rank_id"], device=dev))
    if rank is not None and rank.isdigit():
        ranks = {d.get("rank_id") for d in devices}
        if int(rank) not in ranks:
            problems.append(_("RANK_ID={rank} is not a rank of this server (its ranks: {first}..{last})").format(
                rank=rank,
                first=min(r for r in ranks if r is not None) if any(r is not None for r in ranks) else "?",
                last=max(r for r in ranks if r is not None) if any(r is not None for r in ranks) else "?"))
    if problems:
        return ctx.finding(FAIL, summary=_("{problems}.").format(problems=_("; ").join(problems)), evidence=evidence,
                           fix=fixes or [_("check DEVICE_ID/RANK_ID in the launch script against the rank table")],
                           pitfall="P14")
    if present is None:
        return ctx.finding(ERROR,
                           summary=_("This node is in the table, but its device count is unknown (no npu-smi devices, "
                                     "no /dev/davinciN), so the table's device ids could not be checked."),
                           evidence=evidence, fix=["npu-smi info", "ls /dev/davinci*"])
    return ctx.finding(PASS,
                       summary=_("{server_id}: devices {ids} present").format(  # the ids as a list a reader writes
                           server_id=local["server_id"], ids=", ".join(str(i) for i in table_ids)),
                       evidence=evidence)


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
        return ctx.finding(SKIP, summary=_("The table gives this server no device IPs."))
    if _hccn_unknown(ctx):
        return ctx.finding(ERROR,
                           summary=(_("No /etc/hccn.conf and no answer from `hccn_tool -i N -ip -g`, so the device NIC "
                                      "addresses are unknown. ({error})") if h.tool_error else
                                    _("No /etc/hccn.conf and no answer from `hccn_tool -i N -ip -g`, so the device NIC "
                                      "addresses are unknown.")).format(error=localized(h.tool_error)),
                           evidence={"hccn_tool": h.tool or _("not found")},
                           fix=["ls /etc/hccn.conf /usr/local/Ascend/driver/tools/hccn_tool"])
    problems: List[str] = []
    evidence: Dict[str, object] = {}
    fixes: List[str] = []
    seen: Dict[str, int] = {}
    for d in h.devices:
        addr = d.conf.get("address")
        if addr:
            if addr in seen:
                problems.append(_("/etc/hccn.conf gives address {address} to both device {first} and device "
                                  "{second}").format(address=addr, first=seen[addr], second=d.device_id))
            seen[addr] = d.device_id
    for row in rows:
        i, want = row["device_id"], row["device_ip"]
        nic = h.device(i)
        conf_ip = nic.conf.get("address") if nic else None
        live_ip = nic.ip if nic and nic.ip_queried else None
        evidence[f"device {i}"] = _("table {table}; hccn.conf {conf}; hccn_tool {live}").format(
            table=want, conf=conf_ip or "-",
            live=live_ip or (_("not configured") if nic and nic.ip_queried else "-"))
        if h.conf_path and not conf_ip:
            problems.append(_("device {id}: /etc/hccn.conf has no address_{id} (N1)").format(id=i))
            fixes.append(_("hccn_tool -i {id} -ip -s address {ip} netmask <netmask>   # as root; writes /etc/hccn.conf")
                         .format(id=i, ip=want))
        elif h.conf_path and nic and not nic.conf.get("netmask"):
            problems.append(_("device {id}: /etc/hccn.conf has address_{id} but no netmask_{id} (N1)").format(id=i))
        if conf_ip and conf_ip != want:
            problems.append(_("device {id}: the table says {table}, /etc/hccn.conf says {conf} ({path}.device_ip)").format(
                id=i, table=want, conf=conf_ip, path=row["path"]))
            fixes.append(_("set {path}.device_ip to {ip}, or regenerate the table (hccl_tools.py reads hccn_tool)").format(
                path=row["path"], ip=conf_ip))
        if nic and nic.ip_queried:
            if live_ip is None:
                problems.append(_("device {id}: `hccn_tool -i {id} -ip -g` shows no IP configured").format(id=i))
                fixes.append(f"hccn_tool -i {i} -ip -s address {want} netmask <netmask>")
            elif live_ip != want:
                problems.append(_("device {id}: the table says {table}, the NIC has {live}").format(
                    id=i, table=want, live=live_ip))
                fixes.append(_("hccn_tool -i {id} -ip -g   # then fix the table or the NIC so they agree").format(id=i))
    if problems:
        listed = _("; ").join(problems[:6])
        if len(problems) > 6:
            listed = _("{problems}; and {count} more").format(problems=listed, count=len(problems) - 6)
        return ctx.finding(FAIL,
                           summary=sentences(_("{problems}.").format(problems=listed),
                                             _("HCCL connects to the table's addresses, so peers time out.")),
                           evidence=evidence,
                           fix=list(dict.fromkeys(fixes)) or [_("fix /etc/hccn.conf so each address is unique")],
                           pitfall="P13")
    return ctx.finding(PASS,
                       summary=_("{count} device IP(s) match the NICs").format(count=len(rows)), evidence=evidence)


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
                           summary=_("Device NIC state is unknown: {reason}.").format(
                               reason=localized(h.tool_error) or _("hccn_tool gave no answer")),
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
        evidence[f"device {i}"] = _("link {link}; net health {health}").format(
            link=link or "?", health=health or "?")
        if link is None and health is None:
            unknown.append(i)
            continue
        if link is not None and link != "UP":
            fails.append(_("device {id} link is {link}").format(id=i, link=link))
            fixes.append(_("hccn_tool -i {id} -link -g   # check the cable/optical module and the switch port").format(id=i))
        if health is not None:
            status = net_health_meaning(health)[0]  # one reading of the states: checks/network.py
            if status == PASS:
                pass
            elif health == "Init":
                warns.append(_("device {id} net health is Init (no detect IP set, so health is not tested)").format(id=i))
                fixes.append(f"hccn_tool -i {i} -netdetect -s address <gateway or peer IP>")
            elif status == FAIL:
                fails.append(_("device {id} net health is {health}").format(id=i, health=health))
                fixes.append(_("hccn_tool -i {id} -net_health -g   # then the netdetect/gateway address in /etc/hccn.conf")
                             .format(id=i))
            else:
                warns.append(_("device {id} net health is {health}").format(id=i, health=health))
    if fails or warns:
        status = FAIL if fails else WARN
        return ctx.finding(status,
                           summary=sentences(_("{problems}.").format(problems=_("; ").join(fails + warns)),
                                             _("A rank whose NIC is down or unhealthy makes every peer wait until "
                                               "HCCL_CONNECT_TIMEOUT.")),
                           evidence=evidence, fix=list(dict.fromkeys(fixes)), pitfall="P13")
    if unknown:
        return ctx.finding(ERROR,
                           summary=_("hccn_tool gave no link/health answer for device(s) {ids}.").format(ids=unknown),
                           evidence=evidence,
                           fix=[f"hccn_tool -i {unknown[0]} -link -g"])
    return ctx.finding(PASS, summary=_("{count} NIC(s) up, net health Success").format(count=len(ids)),
                       evidence=evidence)
