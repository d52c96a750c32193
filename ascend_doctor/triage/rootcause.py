"""From per-process evidence to the report's `root_cause`: the verdict, its chain, the root's own first error,
the knowledge-base problem it matches, what to do, and which logs are missing."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..i18n import N_, _
from .events import ProcessLog
from .identity import Cluster, Device, build_cluster, natural_key
from .rules import Verdict, decide, name, names

COLLECT_PLOGS = N_("collect every node's CANN process logs: `$HOME/ascend/log/debug/plog/`, "
                   "`$HOME/ascend/log/run/plog/` and the `device-<n>/` directories beside them (or the directory "
                   "ASCEND_PROCESS_LOG_PATH names), e.g. `ascend-doctor collect --logs $HOME/ascend/log` on each node")

# What to do, per verdict kind (commands only where they are documented tools of the stack). Marked here,
# translated where used (fix_steps); "{collect}" stands for COLLECT_PLOGS.
FIX: Dict[str, List[str]] = {
    "no_plog": [N_("{collect}, and run triage on all of them together (one directory per node)")],
    "no_valid_plog_content": [N_("keep the CANN log level at the default or lower (ASCEND_GLOBAL_LOG_LEVEL=1 logs "
                                 "INFO, which holds the HCCL init lines), reproduce, and {collect}")],
    "no_rank_info": [N_("read the problems below: the job failed before HCCL initialised (or ran on one card)")],
    "resumed_without_base_info": [N_("collect the logs of the run before the restart as well: {collect}")],
    "lagging_devices": [N_("look at what the named processes were doing when the others were waiting: their last "
                           "lines, `dmesg -T` on their node (OOM killer, segfault), the training log of that rank")],
    "no_errors": [N_("if the job hung, collect the logs while it hangs (or after it is killed by HCCL_EXEC_TIMEOUT) "
                     "and triage them again")],
    "roce_retransmission": [N_("check the RoCE links of the devices named: `hccn_tool -i <id> -link -g` (UP) and "
                               "`hccn_tool -i <id> -net_health -g` (Success) on both ends, and the switch ports "
                               "between them"),
                            N_("if a peer is only an IP, it is a device of a node whose logs are not here: collect "
                               "them")],
    "cluster_exception_location": [N_("check the device named first: `npu-smi info -t health -i <id>` on its node, "
                                      "and its own first error below")],
    "transport_init_wait": [N_("check that the process of the device at the end of the chain was running and "
                               "reachable: its own log, `hccn_tool -i <id> -link -g` on its node")],
    "transport_init_unresolved": [N_("collect the plogs of every node (the waited-on device is not in these logs): "
                                     "{collect}")],
    "tls_switch_differs": [N_("compare `hccn_tool -i <id> -tls -g` on every device and make the TLS switch the same "
                              "on all of them (all on or all off), then restart the job")],
    "socket_timeout_last_reporter": [N_("find out why the device named started late (its own log: a slow data "
                                        "load, a compile, an earlier error)"),
                                     N_("if it is legitimately slow, raise HCCL_CONNECT_TIMEOUT on every node "
                                        "(documented range 120-7200 s)")],
    "socket_wait_chain": [N_("check the device at the end of the chain: was its process running (its own log, "
                             "`dmesg -T` on its node), and is its link up: `hccn_tool -i <id> -link -g`, "
                             "`hccn_tool -i <id> -net_health -g`"),
                          N_("a firewall between the nodes also stops HCCL's sockets: HCCL_IF_BASE_PORT and the "
                             "ports after it must be open"),
                          N_("if the chain ends at an IP, no log of that device is here: collect its node's logs")],
    "notify_timeout_silent_members": [N_("read the named devices' own logs for an error before the timeout (they "
                                         "never reached the collective); if their process died, `dmesg -T` on "
                                         "their node")],
    "notify_timeout_last_reporter": [N_("find out why the named device reached the collective late (its own log)"),
                                     N_("if the step is legitimately long, raise HCCL_EXEC_TIMEOUT on every node")],
    "notify_op_index_differs": [N_("the named device ran fewer collectives than the others: look in its log for an "
                                   "earlier error, and in the model for collectives that only some ranks run "
                                   "(rank-dependent branches, uneven data)")],
    "notify_op_tag_differs": [N_("the named device ran a different collective: check the model for rank-dependent "
                                 "communication (a collective in a branch, a different order of collectives)")],
    "notify_waits_on_itself": [N_("read the named device's own device log (`device-<pid>_*.log`) and plog for the "
                                  "task that did not finish (an AI Core/AI CPU exception, a hung operator)")],
    "notify_deadlock": [N_("the ranks wait on each other: check the order of send/receive and collectives in the "
                           "model (every rank must issue them in the same order)")],
    "notify_timeout": [N_("collect the plogs at INFO level (the group and remote-rank lines) and triage again: "
                          "{collect}")],
    "init_ranks_never_connected": [N_("start (or find) the processes of the ranks named: their nodes' logs are not "
                                      "here and they never connected to the root rank; check the launch on those "
                                      "nodes")],
    "init_timeout_silent_members": [N_("read the named devices' own logs: they did not reach communicator init")],
    "init_timeout_last_reporter": [N_("find out why the named device started late; if it is legitimately slow, "
                                      "raise HCCL_CONNECT_TIMEOUT on every node (documented range 120-7200 s)")],
    "init_timeout_root_rank": [N_("check the root rank's node (the rank that ran HcclGetRootInfo): that its process "
                                  "started, that the others can reach its host IP and port (firewall), and its own "
                                  "log"),
                               N_("if the root rank's logs are not here, collect them: {collect}")],
    "aicpu_notify_wait": [N_("read the named device's own plog and device log: the others' AI CPU waited on it")],
    "first_error_not_timeout": [N_("fix the named device's own error first (below): the other devices only timed "
                                   "out waiting for it")],
    "errors_without_timeouts": [N_("read each named device's first error (below) and its knowledge-base match")],
}


def fix_steps(kind: str) -> List[str]:
    """The verdict's fix steps in the current language."""
    collect = _(COLLECT_PLOGS)
    return [_(step).format(collect=collect) if "{collect}" in step else _(step) for step in FIX.get(kind, [])]


def analyse(processes: Dict[Any, ProcessLog], nodes: List[str], nodes_with_plog: List[str]):
    """(cluster, verdict) of the processes read."""
    cluster = build_cluster(list(processes.values()), nodes, nodes_with_plog)
    verdict = decide(cluster)
    return cluster, verdict


def root_cause_json(cluster: Cluster, v: Verdict, problem_of_device) -> Dict[str, Any]:
    focus = v.focus
    first_error = None
    if focus is not None and focus.first_error is not None:
        fe = focus.first_error
        first_error = {"device": focus.name, "time": _shown_time(fe.time), "file": fe.file, "line_no": fe.line,
                       "line": fe.text.rstrip("\n")}
    problem = problem_of_device(focus) if focus is not None else None
    fix = fix_steps(v.kind)
    if problem:
        fix.insert(0, _("start with {device}'s own error: {problem} (listed below, with its fix)").format(
            device=focus.name, problem=problem))
    missing = _missing(cluster)
    evidence = dict(v.evidence)
    if cluster.nodes:
        evidence.setdefault("nodes", len(cluster.nodes))
    evidence.setdefault("devices", len(cluster.devices))
    errors = cluster.error_devices
    return {
        "kind": v.kind,
        "ascend_fd_code": v.code,
        "severity": severity_of(v, cluster),
        "devices": names(v.devices),
        "chain": [name(n) for n in v.chain],
        "first_error": first_error,
        "problem": problem,
        "summary": v.summary,
        "evidence": evidence,
        "fix": fix,
        "missing": missing,
        # the reference's fields: its device list ("Unknown Device", "ALL Device"), the first and last device
        # that logged an error, and each root device's own event (file, time, key line)
        "peer_devices": peer_devices(cluster, v),
        "first_error_device": _at(errors[0]) if errors else None,
        "last_error_device": _at(errors[-1]) if errors else None,
        "device_events": {d.name: _event_of(d) for d in _by_error_time(v.devices) if d.first_error is not None},
    }


PEER_UNKNOWN, PEER_ALL = "Unknown Device", "ALL Device"


def _by_error_time(nodes) -> List[Device]:
    return sorted((d for d in nodes if isinstance(d, Device)), key=lambda d: (d.error_time, natural_key(d.name)))


def peer_devices(cluster: Cluster, v: Verdict) -> List[str]:
    """The root devices as the reference writes them: by first error time; "ALL Device" when they are as many
    as the largest group's ranks; "Unknown Device" when it names none."""
    if v.peer_devices:
        return list(v.peer_devices)
    devs = _by_error_time(v.devices)
    others = sorted((name(n) for n in v.devices if not isinstance(n, Device)), key=natural_key)
    if not devs and not others:
        return [PEER_UNKNOWN]
    biggest = max((g.size or 0 for g in cluster.groups.values()), default=0)
    if biggest and len(devs) + len(others) == biggest:
        return [PEER_ALL]
    return [d.name for d in devs] + others


def _at(d: Device) -> Dict[str, Any]:
    return {"device": d.name, "time": _shown_time(d.error_time)}


def _event_of(d: Device) -> Dict[str, Any]:
    from .scan import SHOW_LINE_CHARS, _shown

    fe = d.first_error
    return {"file": fe.file, "time": _shown_time(fe.time), "line_no": fe.line,
            "line": _shown(fe.text.rstrip("\n")[:SHOW_LINE_CHARS])}


def severity_of(v: Verdict, c: Cluster) -> str:
    """fail when devices logged errors (the job broke), warn for a suspected lag, info when nothing is known."""
    if v.code == 130:
        return "warn"
    return "fail" if c.error_devices else "info"


def _missing(c: Cluster) -> List[str]:
    out = [_("no CANN process log (plog) from {node}: collect it").format(node=n) for n in c.nodes_without_plog]
    for g in sorted(c.groups.values(), key=lambda g: natural_key(g.name)):
        if g.size and len(g.members) < g.size and g.name != "default":
            lost = [r for r in range(g.size) if str(r) not in g.members]
            shown = ", ".join(map(str, lost[:16])) + (" ..." if len(lost) > 16 else "")
            out.append(_("group {group}: {size} ranks, logs of {logged}; no log of rank(s) {ranks}: collect the "
                         "plogs of the nodes that ran them").format(group=g.name, size=g.size, logged=len(g.members),
                                                                    ranks=shown))
        if len(out) >= 20:
            break
    return out


def _shown_time(t: str) -> str:
    return t[:23] if t else t


def device_of(cluster: Cluster):
    """(node, pid) -> Device, for naming occurrences in the problem list."""
    return {(d.node, d.proc.pid): d for d in cluster.devices}


def best_rank(d: Device, cluster: Cluster) -> Optional[str]:
    if not d.ranks:
        return None
    g = max(d.ranks, key=lambda g: ((cluster.groups[g].size or 0) if g in cluster.groups else 0, g))
    return d.ranks[g]
