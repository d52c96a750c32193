"""Processes become devices: `<node> device-<id>`, with their ranks in each communication group.

- the device id is the physical id when a log states it, else the logical one; when neither is logged it is
  inferred from another device of the same node in the same group by rank offset; failing that the device
  is named `<group> rank-<r>`;
- a process with no rank information is left out (it did not take part in HCCL);
- two processes on one device (a restarted job): the one that started later is kept;
- errors before the latest restart of the job (`attr init success` a second time, `HcclCommResume`) are
  history and are dropped, on every process;
- the timeouts are the values the logs state (`HCCL_CONNECT_TIMEOUT` / `HCCL_EXEC_TIMEOUT set by ... to
  [N]`), the documented defaults (120 s / 1800 s) only when no log states one.
"""

from __future__ import annotations

import re
from ..records import dataclass, field
from typing import Dict, List, Optional, Tuple

from .events import FirstError, ProcessLog, TimeoutEvent

DEFAULT_CONNECT_TIMEOUT = 120
DEFAULT_EXEC_TIMEOUT = 1800
NEVER = "9999-12-31 23:59:59.999999"


def natural_key(name: str):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


@dataclass(eq=False)
class Device:
    proc: ProcessLog
    name: str
    node: str
    id: str  # '' when not known
    ranks: Dict[str, str]  # group -> rank
    first_error: Optional[FirstError]
    events: List[TimeoutEvent]

    @property
    def error_time(self) -> str:
        return self.first_error.time if self.first_error else NEVER

    def __repr__(self) -> str:
        return self.name


@dataclass
class Group:
    name: str
    size: Optional[int]
    members: Dict[str, Device] = field(default_factory=dict)  # rank -> device
    root: Optional[Device] = None


@dataclass
class Cluster:
    devices: List[Device]
    groups: Dict[str, Group]
    connect_timeout: int
    exec_timeout: int
    timeouts_stated: Dict[str, bool]
    processes: List[ProcessLog]  # every process read (also those left out)
    nodes: List[str]  # every node seen
    nodes_without_plog: List[str]
    by_ip: Dict[str, Device] = field(default_factory=dict)
    by_node_id: Dict[Tuple[str, str], Device] = field(default_factory=dict)
    by_server_id: Dict[Tuple[str, str], Device] = field(default_factory=dict)
    vnic: Dict[Tuple[str, str], str] = field(default_factory=dict)  # (node, vNIC ip) -> physical id
    resume_time: Optional[str] = None

    _error_devices: Optional[List[Device]] = None

    @property
    def error_devices(self) -> List[Device]:
        """Devices that logged an error, the first one first (computed once: the devices do not change)."""
        if self._error_devices is None:
            self._error_devices = sorted((d for d in self.devices if d.first_error),
                                         key=lambda d: (d.error_time, natural_key(d.name)))
        return self._error_devices

    def largest_group(self) -> Optional[Group]:
        if not self.groups:
            return None
        return max(self.groups.values(), key=lambda g: (g.size or len(g.members), len(g.members), g.name))

    def group_of(self, name: Optional[str], tag: str = "") -> Optional[Group]:
        """The group an event belongs to: its own, the one its op tag names, else the largest."""
        if name and name in self.groups:
            return self.groups[name]
        if tag:
            for g in sorted(self.groups, key=len, reverse=True):
                if g and g != "default" and g in tag:
                    return self.groups[g]
        return self.largest_group()


def build_cluster(processes: List[ProcessLog], nodes: List[str], nodes_with_plog: List[str]) -> Cluster:
    for p in processes:
        p.finish()
    resume = max((p.resume_time for p in processes if p.resume_time), default=None)
    with_rank = [p for p in processes if any(g.get("rank") is not None for g in p.groups.values())]
    # two processes on one device: the later start wins
    latest: Dict[Tuple[str, str], ProcessLog] = {}
    keep: List[ProcessLog] = []
    for p in sorted(with_rank, key=lambda p: (p.start or "", p.pid)):
        if p.device_id:
            old = latest.get((p.node, p.device_id))
            if old is not None:
                keep.remove(old)
            latest[(p.node, p.device_id)] = p
        keep.append(p)
    devices = [_device(p, resume) for p in keep]
    groups: Dict[str, Group] = {}
    for d in devices:
        for g, info in d.proc.groups.items():
            size = info.get("size")
            grp = groups.setdefault(g, Group(g, int(size) if size else None))
            if grp.size is None and size:
                grp.size = int(size)
            if info.get("rank") is not None:
                grp.members[info["rank"]] = d
    for d in devices:
        for g in d.proc.roots:
            if g in groups:
                groups[g].root = d
    _infer_ids(devices, groups)
    connect = [p.timeouts["connect"] for p in processes if "connect" in p.timeouts]
    execs = [p.timeouts["exec"] for p in processes if "exec" in p.timeouts]
    with_plog = set(nodes_with_plog)  # once: a set per node made this quadratic in the nodes (4,096: 0.5 s)
    cluster = Cluster(devices, groups, max(connect) if connect else DEFAULT_CONNECT_TIMEOUT,
                      max(execs) if execs else DEFAULT_EXEC_TIMEOUT,
                      {"connect": bool(connect), "exec": bool(execs)}, processes, list(nodes),
                      [n for n in nodes if n not in with_plog], resume_time=resume)
    for d in devices:
        p = d.proc
        if p.device_ip:
            cluster.by_ip[p.device_ip] = d
        if d.id:
            cluster.by_node_id[(d.node, d.id)] = d
            if p.server:
                cluster.by_server_id[(p.server, d.id)] = d
        if p.vnic_ip and p.phy_id:
            cluster.vnic[(d.node, p.vnic_ip)] = p.phy_id
    return cluster


def _device(p: ProcessLog, resume: Optional[str]) -> Device:
    first, events = p.first_error, list(p.events)
    if resume and first and first.time < resume:  # errors from before the job started over are history
        later = [e for e in p.error_lines if e[0] and e[0] >= resume]
        first = FirstError(later[0][0], later[0][3], later[0][1], later[0][2]) if later else None
        events = [e for e in events if e.time >= resume]
    ranks = {g: info["rank"] for g, info in p.groups.items() if info.get("rank") is not None}
    did = p.device_id
    return Device(p, f"{p.node} device-{did}" if did else "", p.node, did, ranks, first, events)


def _infer_ids(devices: List[Device], groups: Dict[str, Group]) -> None:
    for d in devices:
        if d.id:
            continue
        for g, rank in d.ranks.items():
            grp = groups.get(g)
            if not grp:
                continue
            for other_rank, other in grp.members.items():
                if other is d or other.node != d.node or not other.id or not other.id.isdigit():
                    continue
                if rank.isdigit() and other_rank.isdigit():
                    d.id = str(int(other.id) + int(rank) - int(other_rank))
                    break
            if d.id:
                break
        if d.id:
            d.name = f"{d.node} device-{d.id}"
        else:
            g, rank = sorted(d.ranks.items(), key=lambda kv: (-(groups[kv[0]].size or 0), kv[0]))[0]
            d.name = f"{g} rank-{rank}"
