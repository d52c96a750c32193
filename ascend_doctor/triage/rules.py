"""The root-cause decision: which device the cluster waited on. One small function per verdict.

`decide(cluster)` tries the rules in the reference tool's order (`shared/reference/hccl_root_cause.md`);
the first that applies gives the verdict. Each rule returns a `Verdict` or None. The codes are ascend-fd's
(101-133), kept for cross-reference; `kind` is our stable name for the same verdict.

Where we differ from the reference on purpose: the timeouts are the values the logs state (the reference
always compares with 120 s / 1800 s); a device's moment of failure is its earliest timeout line of the
family (plain socket lines included), so one late duplicate line does not stretch the interval; ties in
time are broken by device name, so the same logs always give the same chain.
"""

from __future__ import annotations

from collections import Counter
from ..records import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ..i18n import _
from .events import FFTS, NORMAL, NOTIFY, ROOT_INFO, SOCKET, TimeoutEvent, seconds_between
from .identity import Cluster, Device, Group, natural_key

LAG_WINDOW_S = 15 * 60
Node = Union[Device, str]  # a device, or a peer known only by its IP (or a device id without logs)


@dataclass
class Verdict:
    kind: str
    code: Optional[int]
    devices: List[Node]
    chain: List[Node] = field(default_factory=list)
    summary: str = ""
    evidence: Dict[str, Any] = field(default_factory=dict)
    fix: List[str] = field(default_factory=list)
    focus: Optional[Device] = None  # whose own first error the report shows
    peer_devices: List[str] = field(default_factory=list)  # the reference's names, where they differ from ours


def name(n: Node) -> str:
    return n.name if isinstance(n, Device) else str(n)


def names(nodes) -> List[str]:
    return sorted({name(n) for n in nodes}, key=natural_key)


def _by_time(devs) -> List[Device]:
    return sorted(devs, key=lambda d: (d.error_time, natural_key(d.name)))


# ---------------------------------------------------------------------------
# Walking wait edges
# ---------------------------------------------------------------------------

def walk(start: Node, edges: Dict[Node, List[Node]]) -> Tuple[List[Node], Optional[int]]:
    """Follow the first (known-device-preferred) edge from `start`: (path, index where a cycle starts or None).

    A cycle's path repeats its first member at the end.
    """
    path: List[Node] = []
    seen: Dict[int, int] = {}
    cur: Optional[Node] = start
    while cur is not None and len(path) < 100000:
        if id(cur) in seen:
            path.append(cur)
            return path, seen[id(cur)]
        seen[id(cur)] = len(path)
        path.append(cur)
        nxt = edges.get(cur) or []
        known = [n for n in nxt if isinstance(n, Device)]
        cur = (known or nxt or [None])[0]
    return path, None


def chain_verdict(edges: Dict[Node, List[Node]], start: Node) -> Tuple[List[Node], List[Node]]:
    """(roots, chain) of a wait relation walked from `start`: a cycle's members, or the end of the chain."""
    path, cycle_at = walk(start, edges)
    if cycle_at is not None:
        cycle = path[cycle_at:]
        return list(dict.fromkeys(cycle[:-1])), cycle
    return [path[-1]], path


# ---------------------------------------------------------------------------
# Rules with no error at all, or nothing to analyse
# ---------------------------------------------------------------------------

def rule_no_plog(c: Cluster) -> Optional[Verdict]:
    if c.processes:
        return None
    return Verdict("no_plog", 115, [], summary=_("No CANN process log (plog-*.log, device-*.log) among the inputs: "
                                               "the device the cluster waited on cannot be named."))


def rule_no_valid_plog_content(c: Cluster) -> Optional[Verdict]:
    if any(p.groups or p.first_error for p in c.processes):
        return None
    return Verdict("no_valid_plog_content", 127, [], summary=_("The CANN process logs hold no HCCL init line and no "
                                                             "error: they were written at a log level that leaves them "
                                                             "out, or cut before the job ran."))


def rule_no_rank_info(c: Cluster) -> Optional[Verdict]:
    if c.devices:
        return None
    return Verdict("no_rank_info", 114, [], summary=_("No process logged HCCL rank information: a single-card job, or "
                                               "the job failed before HCCL initialised (see the problems below)."),
                   focus=None)


def rule_resumed_without_base_info(c: Cluster) -> Optional[Verdict]:
    lacking = [p for p in c.processes if p.attr_inits > 1 and not p.base_after_resume]
    if not lacking or not c.devices:
        return None
    return Verdict("resumed_without_base_info", 128, [f"{p.node} pid {p.pid}" for p in lacking],
                   peer_devices=[f"{p.node} device-{p.device_id or 'Unknown'}" for p in lacking],
                   summary=_("Training was resumed, but these processes logged no HCCL init line after the "
                                     "restart: their devices and ranks are unknown, so the wait chain cannot be followed."))


def rule_no_errors(c: Cluster) -> Optional[Verdict]:
    if c.error_devices:
        return None
    lags = [d.proc.lag_time for d in c.devices if d.proc.lag_time]
    if lags:
        latest = max(lags)
        behind = [d for d in c.devices if not d.proc.lag_time or seconds_between(d.proc.lag_time, latest) > LAG_WINDOW_S]
        if behind:
            return Verdict("lagging_devices", 130, behind,
                           summary=_("No device logged an error, but these stopped reporting that they were "
                                             "waiting (or never did) while the others went on: a lagging or exited "
                                             "process."),
                           evidence={"latest wait report": latest})
    return Verdict("no_errors", 102, [], summary=_("No device logged an error in these CANN logs."))


# ---------------------------------------------------------------------------
# Rules on explicit evidence: RoCE CQE, HCCL's cluster exception, transport init
# ---------------------------------------------------------------------------

def rule_roce_cqe(c: Cluster) -> Optional[Verdict]:
    links: List[Tuple[Device, Node]] = []
    for d in c.error_devices:
        for ip in d.proc.cqe_peers:
            links.append((d, c.by_ip.get(ip, ip)))
    if not links:
        return None
    srcs = Counter(name(a) for a, _ in links)
    dsts = Counter(name(b) for _, b in links)
    roots: List[Node] = []
    if len(links) > 1 and set(srcs) != set(dsts):
        top = dsts.most_common(1)[0][0]
        others = {name(b) for a, b in links if name(a) != top}
        if others == {top}:
            roots = [b for _, b in links if name(b) == top and isinstance(b, Device)][:1]
    if not roots:
        roots = list({id(x): x for pair in links for x in pair if isinstance(x, Device)}.values())
    return Verdict("roce_retransmission", 116, roots,
                   summary=_("RDMA (RoCE) retransmissions timed out (CQE status 12) between devices: a network "
                             "link or a peer that stopped answering."),
                   evidence={"links": [f"{name(a)} -> {name(b)}" for a, b in links]})


def rule_cluster_exception(c: Cluster) -> Optional[Verdict]:
    found: Dict[str, Tuple[Device, str]] = {}
    for d in c.error_devices:
        for where, cause in d.proc.cluster_exception.items():
            server, _sep, dev = where.partition("/")
            target = c.by_server_id.get((server, dev))
            if target is not None:
                found[target.name] = (target, cause)
    if not found:
        return None
    return Verdict("cluster_exception_location", 126, [t for t, _ in found.values()],
                   summary=_("HCCL itself located the exception on this device."),
                   evidence={"exception type": "; ".join(sorted({cause for _, cause in found.values() if cause}))})


def _relation_verdict(c: Cluster, edges: Dict[Node, List[Node]]) -> Optional[Tuple[List[Node], List[Node]]]:
    if not edges:
        return None
    first = next((d for d in c.error_devices if d in edges), None)
    start = first or _by_time([d for d in edges if isinstance(d, Device)])[0]
    roots, chain = chain_verdict(edges, start)
    return roots, (chain if len(chain) > 1 else [])


def rule_transport_init(c: Cluster) -> Optional[Verdict]:
    edges: Dict[Node, List[Node]] = {}
    for d in c.devices:
        remote = d.proc.transport_remote
        if remote:
            target = c.by_server_id.get(remote)
            if target is not None and target is not d:
                edges[d] = [target]
    got = _relation_verdict(c, edges)
    if got:
        roots, chain = got
        return Verdict("transport_init_wait", 132, roots, chain,
                       summary=_("Transport setup failed while waiting on the device at the end of the chain."))
    if any(d.proc.transport_error for d in c.error_devices):
        return Verdict("transport_init_unresolved", 133, [],
                       summary=_("Transport init failed, but the logs do not say on which remote device it "
                                         "waited."))
    return None


# ---------------------------------------------------------------------------
# Timeout families: who reported, when, and who waited on whom
# ---------------------------------------------------------------------------

@dataclass
class Timeouts:
    kind: str  # socket | notify | ffts | root_info
    group: Optional[Group]
    members: List[Device]  # devices of the group that have logs
    events: Dict[Device, TimeoutEvent]  # each reporter's earliest event of the family
    limit: int
    limit_name: str

    @property
    def reporters(self) -> List[Device]:
        return sorted(self.events, key=lambda d: (self.events[d].time, natural_key(d.name)))

    @property
    def silent(self) -> List[Device]:
        return [d for d in self.members if d not in self.events]

    @property
    def interval(self) -> float:
        r = self.reporters
        return seconds_between(self.events[r[0]].time, self.events[r[-1]].time) if r else 0.0


def _first_event(d: Device) -> Optional[TimeoutEvent]:
    if not d.events:
        return None
    other = [e for e in d.events if e.kind != NORMAL]
    return other[0] if d.events[0].kind == NORMAL and other else d.events[0]


def timeouts_of(c: Cluster, first: TimeoutEvent) -> Timeouts:
    kind = SOCKET if first.kind == NORMAL else first.kind
    group = c.group_of(first.group, first.tag if first.kind == NOTIFY else "")
    kinds = {kind, NORMAL} if kind in (SOCKET, ROOT_INFO) else {kind}
    events: Dict[Device, TimeoutEvent] = {}
    for d in c.devices:
        for e in d.events:
            if e.kind not in kinds or c.group_of(e.group, e.tag if e.kind == NOTIFY else "") is not group:
                continue
            kept = events.get(d)
            # the family's own event describes the wait; a plain-socket line only moves the time earlier
            if kept is None or (kept.kind == NORMAL and e.kind != NORMAL):
                events[d] = _earliest(e, kept)
            elif e.time < kept.time:
                kept.time = e.time
    members = list(group.members.values()) if group else []
    if kind in (SOCKET, ROOT_INFO):
        return Timeouts(kind, group, members, events, c.connect_timeout, "HCCL_CONNECT_TIMEOUT")
    return Timeouts(kind, group, members, events, c.exec_timeout, "HCCL_EXEC_TIMEOUT")


def _earliest(e: TimeoutEvent, kept: Optional[TimeoutEvent]) -> TimeoutEvent:
    if kept is None or kept.time >= e.time:
        return e
    return TimeoutEvent(e.kind, kept.time, e.group, e.tag, e.index, e.remote_rank, e.remotes, e.connected_ranks, e.lines)


# --- socket link setup ---

def socket_tls_differs(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    values = Counter(d.proc.tls for d in c.devices if d.proc.tls)
    if len(values) < 2:
        return None
    minority = sorted(values.items(), key=lambda kv: (kv[1], kv[0]))[0][0]
    return Verdict("tls_switch_differs", 120, [d for d in c.devices if d.proc.tls == minority],
                   summary=_("The TLS switch differs between devices (TLS SWITCH {minority} on these, {others} on "
                             "the others): they cannot connect.").format(
                       minority=minority, others=", ".join(k for k in values if k != minority)),
                   evidence={"TLS SWITCH": dict(values)})


def socket_all_late(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    if t.silent or not t.reporters or t.interval <= t.limit:
        return None
    last = t.reporters[-1]
    return Verdict("socket_timeout_last_reporter", 107, [last],
                   summary=_("Every device timed out setting up links, and {device} reported {interval} s after "
                             "the first, more than {variable} ({limit} s): it arrived late and the others gave up "
                             "waiting for it.").format(device=last.name, interval=f"{t.interval:.0f}",
                                                       variable=t.limit_name, limit=t.limit))


def socket_wait_chain(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    edges: Dict[Node, List[Node]] = {}
    for d, e in t.events.items():
        targets = [_resolve_peer(c, d, r.ip, r.phy) for r in e.remotes]
        if targets:
            edges[d] = targets
    start = t.reporters[0]
    path, cycle_at = walk(start, edges)
    if cycle_at is not None:
        roots, chain = list(dict.fromkeys(path[cycle_at:-1])), path[cycle_at:]
    else:
        known = [n for n in path if isinstance(n, Device)]
        roots = [path[-1]] if isinstance(path[-1], Device) else known[-1:]
        chain = path
    if t.silent:
        summary = _("Link setup timed out on part of the group within {variable} ({limit} s); following who "
                    "waited on whom leads to the device(s) named.")
    else:
        summary = _("Link setup timed out on every device of the group within {variable} ({limit} s); following "
                    "who waited on whom leads to the device(s) named.")
    return Verdict("socket_wait_chain", 108, roots, chain if len(chain) > 1 else [],
                   summary=summary.format(variable=t.limit_name, limit=t.limit))


def _resolve_peer(c: Cluster, d: Device, ip: str, phy: str) -> Node:
    if ip:
        hit = c.by_ip.get(ip)
        if hit is not None:
            return hit
        via_vnic = c.vnic.get((d.node, ip))
        if via_vnic and (d.node, via_vnic) in c.by_node_id:
            return c.by_node_id[(d.node, via_vnic)]
    if phy:
        hit = c.by_node_id.get((d.node, phy))
        return hit if hit is not None else f"{d.node} device-{phy}"
    return ip or _("unknown peer")


# --- notify wait / FFTS+ ---

def notify_silent_members(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    if not t.silent:
        return None
    return Verdict("notify_timeout_silent_members", 112, t.silent,
                   summary=_("Part of the group timed out waiting in a collective; the devices named never "
                             "reported the timeout: they were not in that collective (stopped, hung earlier, or ran "
                             "other code)."))


def notify_interval_above_limit(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    if not t.reporters or not 0 < t.limit < t.interval:
        return None
    last = t.reporters[-1]
    return Verdict("notify_timeout_last_reporter", 110, [last],
                   summary=_("Every device timed out in the collective, {device} {interval} s after the first, "
                             "more than {variable} ({limit} s): it reached the collective late.").format(
                       device=last.name, interval=f"{t.interval:.0f}", variable=t.limit_name, limit=t.limit))


def notify_op_index_differs(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    if t.kind != NOTIFY:
        return None
    by_index: Dict[str, List[Device]] = {}
    for d, e in t.events.items():
        if e.index:
            by_index.setdefault(e.index, []).append(d)
    if len(by_index) < 2:
        return None
    order = sorted(by_index, key=lambda x: (0, int(x), "") if x.isdigit() else (1, 0, x))
    return Verdict("notify_op_index_differs", 122, by_index[order[0]],
                   summary=_("The devices timed out at different op indexes ({indexes}): the one(s) at index "
                             "{index} fell behind the others.").format(indexes=", ".join(order), index=order[0]),
                   evidence={"op index": {k: names(v) for k, v in by_index.items()}})


def notify_op_tag_differs(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    if t.kind != NOTIFY:
        return None
    by_tag: Dict[str, List[Device]] = {}
    for d, e in t.events.items():
        if e.tag:
            by_tag.setdefault(e.tag, []).append(d)
    if len(by_tag) < 2:
        return None
    rare = sorted(by_tag, key=lambda k: (len(by_tag[k]), k))[0]
    return Verdict("notify_op_tag_differs", 123, by_tag[rare],
                   summary=_("The devices waited in different collectives; the one(s) in '{tag}' ran a different "
                             "collective from the rest.").format(tag=rare),
                   evidence={"op tag": {k: names(v) for k, v in by_tag.items()}})


def _notify_edges(t: Timeouts) -> Tuple[Dict[Node, List[Node]], List[Device]]:
    edges: Dict[Node, List[Node]] = {}
    self_wait: List[Device] = []
    members = t.group.members if t.group else {}
    for d, e in t.events.items():
        if e.remote_rank == "local":
            self_wait.append(d)
        elif e.remote_rank in members and members[e.remote_rank] is not d:
            edges[d] = [members[e.remote_rank]]
    return edges, self_wait


def notify_self_wait(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    if t.kind != NOTIFY:
        return None
    edges, self_wait = _notify_edges(t)
    waiters: Dict[Node, List[Device]] = {}
    for src, dsts in edges.items():
        for dst in dsts:
            waiters.setdefault(dst, []).append(src)
    roots = [d for d in _by_time(self_wait) if d in waiters]
    if not roots:
        return None
    # the chain: from the root back through its waiters (the earliest first), then read forwards
    back: List[Device] = [roots[0]]
    while True:
        nxt = [w for w in _by_time(waiters.get(back[-1], [])) if w not in back]
        if not nxt:
            break
        back.append(nxt[0])
    return Verdict("notify_waits_on_itself", 125, roots, list(reversed(back)),
                   summary=_("The others waited on this device, whose main stream waited on its own sub-stream "
                             "(remote rank: local): a task on the device itself never finished."))


def notify_cycle(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    if t.kind != NOTIFY:
        return None
    edges, _self_wait = _notify_edges(t)
    if not edges:
        return None
    indeg = Counter(id(dst) for dsts in edges.values() for dst in dsts)
    # start from the most waited-on device; ties: the one that reported last, then the last by name
    candidates = sorted((d for d in edges if isinstance(d, Device)), key=lambda d: natural_key(d.name), reverse=True)
    candidates.sort(key=lambda d: d.error_time, reverse=True)
    candidates.sort(key=lambda d: indeg[id(d)], reverse=True)
    start = candidates[0]
    path, cycle_at = walk(start, edges)
    if cycle_at is None:
        return None
    return Verdict("notify_deadlock", 124, [], path[cycle_at:],
                   summary=_("The devices wait on each other in a cycle (a deadlock): no single device is the "
                             "cause; the ranks issued their collectives in a different order."))


def notify_unresolved(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    return Verdict("notify_timeout", 111, [],
                   summary=_("Every device timed out in the collective within {variable} ({limit} s), and the logs "
                             "do not say whom they waited on (no remote rank / group line).").format(
                       variable=t.limit_name, limit=t.limit))


# --- root-info exchange (communicator init) ---

def init_unconnected_ranks(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    connected = set()
    for e in t.events.values():
        connected |= e.connected_ranks
    if not connected or not t.group or not t.group.size:
        return None
    lost = [str(r) for r in range(t.group.size) if str(r) not in t.group.members and str(r) not in connected]
    if not lost:
        return None
    return Verdict("init_ranks_never_connected", 121, [f"{t.group.name} rank-{r}" for r in lost],
                   summary=_("Communicator init timed out; these ranks never connected to the root rank and left "
                             "no log here: their processes did not start or could not reach the root."))


def init_silent_members(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    if not t.silent:
        return None
    return Verdict("init_timeout_silent_members", 119, t.silent,
                   summary=_("Communicator init timed out on part of the group; the devices named did not report "
                             "it."))


def init_all_late(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    if not t.reporters or t.interval <= t.limit:
        return None
    last = t.reporters[-1]
    return Verdict("init_timeout_last_reporter", 117, [last],
                   summary=_("Communicator init timed out on every device, {device} {interval} s after the first, "
                             "more than {variable} ({limit} s): it started late.").format(
                       device=last.name, interval=f"{t.interval:.0f}", variable=t.limit_name, limit=t.limit))


def init_root_rank(c: Cluster, t: Timeouts) -> Optional[Verdict]:
    root = t.group.root if t.group else None
    if root:
        summary = _("Communicator init (root-info exchange) failed on every device that logged, within {variable} "
                    "({limit} s): the root rank ({device}) did not serve the others.")
    else:
        summary = _("Communicator init (root-info exchange) failed on every device that logged, within {variable} "
                    "({limit} s): the root rank, which logged nothing here, did not serve the others.")
    return Verdict("init_timeout_root_rank", 118, [root] if root else [],
                   summary=summary.format(variable=t.limit_name, limit=t.limit, device=root.name if root else ""))


FAMILY_RULES: Dict[str, List[Callable[[Cluster, Timeouts], Optional[Verdict]]]] = {
    SOCKET: [socket_tls_differs, socket_all_late, socket_wait_chain],
    NOTIFY: [notify_silent_members, notify_interval_above_limit, notify_op_index_differs, notify_op_tag_differs,
             notify_self_wait, notify_cycle, notify_unresolved],
    FFTS: [notify_silent_members, notify_interval_above_limit, notify_unresolved],
    ROOT_INFO: [init_unconnected_ranks, init_silent_members, init_all_late, init_root_rank],
}


def rule_timeouts(c: Cluster) -> Optional[Verdict]:
    """Judged from the first device that logged an error, by its first timeout event."""
    first_dev = c.error_devices[0]
    first = _first_event(first_dev)
    if first is None:
        return None
    t = timeouts_of(c, first)
    if not t.events:
        return None
    if first.kind == NORMAL and not any(e.kind == SOCKET for e in t.events.values()) and \
            any(d.proc.transport_error for d in c.devices):
        return Verdict("transport_init_unresolved", 133, [],
                       summary=_("Sockets timed out during transport init, and the logs do not say on which "
                                         "device."))
    for rule in FAMILY_RULES[t.kind]:
        v = rule(c, t)
        if v is not None:
            v.evidence.setdefault("group", t.group.name if t.group else None)
            at = _("{device} at {time}")
            v.evidence.setdefault("first reporter", at.format(device=t.reporters[0].name,
                                                              time=t.events[t.reporters[0]].time))
            v.evidence.setdefault("last reporter", at.format(device=t.reporters[-1].name,
                                                             time=t.events[t.reporters[-1]].time))
            stated = c.timeouts_stated["connect" if t.limit_name.endswith("CONNECT_TIMEOUT") else "exec"]
            v.evidence.setdefault(t.limit_name, (_("{seconds} s") if stated else
                                                 _("{seconds} s (default: no log states it)")).format(seconds=t.limit))
            return v
    return None


# ---------------------------------------------------------------------------
# No usable timeout: AI CPU notify waits, or plain errors
# ---------------------------------------------------------------------------

def _timeout_devices(c: Cluster) -> List[Device]:
    return [d for d in c.devices if d.events]


def rule_aicpu_notify(c: Cluster) -> Optional[Verdict]:
    if _timeout_devices(c):
        return None
    edges: Dict[Node, List[Node]] = {}
    for d in c.devices:
        wait = d.proc.aicpu_wait
        if wait:
            grp = c.groups.get(wait[0])
            target = grp.members.get(wait[1]) if grp else None
            if target is not None and target is not d:
                edges[d] = [target]
    got = _relation_verdict(c, edges)
    if not got:
        return None
    roots, chain = got
    return Verdict("aicpu_notify_wait", 109, roots, chain,
                   summary=_("The AI CPU notify waits (device logs) lead to the device named: the others "
                             "waited on it."))


def rule_first_error_not_timeout(c: Cluster) -> Optional[Verdict]:
    timed_out = _timeout_devices(c)
    if not timed_out:
        return None
    roots = [d for d in c.error_devices if not d.events]
    return Verdict("first_error_not_timeout", 113, roots,
                   summary=_("The first error is not a communication timeout: the devices named failed on "
                             "their own and the others timed out waiting for them."))


def rule_errors_without_timeouts(c: Cluster) -> Optional[Verdict]:
    return Verdict("errors_without_timeouts", 101, c.error_devices,
                   summary=_("Devices logged errors but no communication timeout: each one's own first error is "
                             "the place to start."))


RULES: List[Callable[[Cluster], Optional[Verdict]]] = [
    rule_no_plog, rule_no_valid_plog_content, rule_no_rank_info, rule_resumed_without_base_info, rule_no_errors,
    rule_roce_cqe, rule_cluster_exception, rule_transport_init, rule_timeouts, rule_aicpu_notify,
    rule_first_error_not_timeout, rule_errors_without_timeouts,
]


def decide(c: Cluster) -> Verdict:
    for rule in RULES:
        v = rule(c)
        if v is not None:
            if v.focus is None:
                devs = [d for d in v.devices if isinstance(d, Device)]
                v.focus = _by_time(devs)[0] if devs else (c.error_devices[0] if c.error_devices else None)
            return v
    raise AssertionError("the last rule always applies")  # pragma: no cover
