"""Validating a rank table: one pass over the ranks with dict/set bookkeeping (rules R1..R15, L2 of
ascend_formats.md §7.4/§7.5), so a 32k-rank table validates in well under a second."""

from __future__ import annotations

import gc
from typing import Any, Dict, List, Optional, Set

from ..findings import FAIL, INFO, WARN
from ..i18n import N_
from ..i18n_text import Text
from ..json_values import HugeNumber as _HugeNumber
from ..json_values import NonJsonConstant as _NonJsonConstant
from ..json_values import MAX_DIGITS as _MAX_DIGITS
from ..json_values import as_int, show
from ..json_values import kind as _kind
from ..netrules import ip_problem, port_problem
from .model import (DEVICES_PER_SERVER, FORMAT_GROUP_LIST, FORMAT_V10, FORMAT_V12, FORMAT_V20, KNOWN_VERSIONS,
                    MAX_DEVICES_PER_SERVER, MAX_SERVER_ID, Problem, RankTable, ServerEntry)
from .parse import _Parsed, parse_rank_table_text


class _DeviceRules:
    """What a format that lists devices per server asks of one device, and the words its problems use:
    server_list (1.0 / 1.2) and the legacy group_list share one per-device validator (_Validator.device)."""

    __slots__ = ("shape", "shape_rule", "id_range", "id_twice", "ip_twice", "ip_missing", "ip_missing_params",
                 "ranks", "ports")

    def __init__(self, shape: str, shape_rule: str, id_range: str, id_twice: str, ip_twice: str,
                 ip_missing: Optional[str], ip_missing_params: Dict[str, Any], ranks: bool, ports: bool):
        self.shape, self.shape_rule = shape, shape_rule  # not an object: the message ({kind}) and its rule
        self.id_range, self.id_twice = id_range, id_twice  # device_id over 15; device_id twice on a server
        self.ip_twice = ip_twice  # device_ip twice in the table
        self.ip_missing, self.ip_missing_params = ip_missing, ip_missing_params  # None: device_ip may be left out
        self.ranks = ranks  # each device carries its rank_id (server_list); group_list ranks are the file's order
        self.ports = ports  # device/host ports, backup NIC and super_device_id are read (server_list)


def _server_list_device(ip_reason: Any) -> _DeviceRules:
    """A 1.0 / 1.2 device; `ip_reason` says why device_ip is required (None: it is optional here)."""
    return _DeviceRules(
        N_("is {kind}, expected an object with device_id, device_ip, rank_id"), "R6",
        N_("is {value}; device ids on one server run 0-{highest} (the physical id, as in /dev/davinciN)"),
        N_("{value} is also used by {other} on the same server"),
        N_("{value} is also the device_ip of {other}; device IPs must be unique"),
        N_("missing; required with {reason} (the address_<device_id> of /etc/hccn.conf on that server)")
        if ip_reason is not None else None, {"reason": ip_reason}, ranks=True, ports=True)


_GROUP_LIST_DEVICE = _DeviceRules(
    N_("is {kind}, expected an object with device_id and device_ip"), "R14",
    N_("is {value}; device ids on one server run 0-{highest}"),
    N_("{value} is also used by {other} in the same instance"),
    N_("{value} is also the device_ip of {other}"),
    N_("missing; expected the device NIC address"), {}, ranks=False, ports=False)


class _Validator:
    def __init__(self, parsed: _Parsed, soc_family: Optional[str], env: Optional[Dict[str, str]]):
        self.parsed = parsed
        self.soc = soc_family
        self.env = env or {}
        self.table = RankTable()
        self.problems = self.table.problems
        self.reported_dups: Set[int] = set()

    # -- reporting helpers
    # msg: a message id marked with N_() and its parameters, or a Text made elsewhere (netrules, json_values)
    def err(self, path, msg, rule, **params):
        self.problems.append(Problem(path, FAIL, rule, msg if isinstance(msg, Text) else Text(msg, **params)))

    def warn(self, path, msg, rule, **params):
        self.problems.append(Problem(path, WARN, rule, msg if isinstance(msg, Text) else Text(msg, **params)))

    def info(self, path, msg, rule, **params):
        self.problems.append(Problem(path, INFO, rule, msg if isinstance(msg, Text) else Text(msg, **params)))

    def dups(self, obj: dict, path: str) -> None:
        if not self.parsed.duplicates:
            return
        keys = self.parsed.duplicates.get(id(obj))
        if keys:
            self.reported_dups.add(id(obj))
            self.err(path, N_("key {keys} appears twice in this object; JSON readers keep only the last one, so the first value is silently lost"), "R1", keys=', '.join(show(k) for k in keys))

    def obj(self, parent: dict, key: str, path: str, required: bool, rule: str, expect: type, what: str):
        """Fetch parent[key] with a type check. Returns the value or None (problem recorded). `what` is a
        message id (N_) naming what was expected."""
        if key not in parent:
            if required:
                self.err(path, N_("missing; expected {what}"), rule, what=Text(what))
            return None
        value = parent[key]
        if not isinstance(value, expect) or isinstance(value, (_HugeNumber, _NonJsonConstant)) and expect is str:
            if isinstance(value, (dict, list)):
                self.err(path, N_("is {kind}, expected {what}"), rule, kind=_kind(value), what=Text(what))
            else:
                self.err(path, N_("is {kind} {value}, expected {what}"), rule, kind=_kind(value), value=show(value),
                         what=Text(what))
            return None
        return value

    def number(self, parent: dict, key: str, path: str, required: bool, rule: str,
               allow_string=True, allow_number=True) -> Optional[int]:
        value = parent.get(key)
        if type(value) is str and allow_string and len(value) <= _MAX_DIGITS and value.isdigit() and value.isascii():
            return int(value)
        if key not in parent:
            if required:
                self.err(path, N_("missing; expected a whole number as a string, e.g. \"0\"") if allow_string and not allow_number
                         else N_("missing; expected a whole number"), rule)
            return None
        n, why = as_int(parent[key], allow_string, allow_number)
        if why:
            self.err(path, why, rule)
        return n

    # -- document
    def run(self, doc: Any) -> RankTable:
        t = self.table
        if not isinstance(doc, dict):
            self.err("", N_('the top level is {kind}, expected a JSON object with "version" and "server_list"'), "R3", kind=_kind(doc))
            return t
        self.dups(doc, "")
        version = doc.get("version")
        if "version" in doc:
            if not isinstance(version, str) or isinstance(version, (_HugeNumber, _NonJsonConstant)):
                self.err("version", N_('is {kind} {value}, expected a string such as "1.0"'), "R3", kind=_kind(version), value=show(version))
                version = str(version) if isinstance(version, (int, float)) and not isinstance(version, bool) else None
                if version is not None and version not in KNOWN_VERSIONS:
                    version = {"1": "1.0", "2": "2.0"}.get(version, version)
            t.version = version
        status = doc.get("status")
        self.check_status(doc)
        if version in (FORMAT_V10, FORMAT_V12):
            t.format = version
            self.v1(doc, version)
        elif version == FORMAT_V20:
            t.format = FORMAT_V20
            self.v2(doc)
        elif "version" in doc and version is not None:
            self.err("version", N_('is {value}, expected one of "1.0", "1.2", "2.0"'), "R3", value=show(version))
            if "server_list" in doc:
                t.format = FORMAT_V10
                self.v1(doc, FORMAT_V10)
        elif "group_list" in doc:
            t.format = FORMAT_GROUP_LIST
            self.warn("group_list", N_('legacy group_list template (no "version"): HCCL still reads it but calls it "not recommended"; prefer a version 1.0 table with server_list'), "R3")
            self.group_list(doc)
        elif "server_list" in doc:
            if "version" not in doc:
                self.err("version", N_('missing; expected "1.0" (or "1.2" for an A3 super-pod)'), "R3")
            t.format = FORMAT_V10
            self.v1(doc, FORMAT_V10)
        elif "rank_list" in doc:
            if "version" not in doc:
                self.err("version", N_('missing; a table with rank_list is version "2.0"'), "R3")
            t.format = FORMAT_V20
            self.v2(doc)
        else:
            if "version" not in doc:
                self.err("", N_('not a rank table: none of "version", "server_list", "group_list", "rank_list" is present'), "R3")
        t.status = status if isinstance(status, str) else None
        leftovers = [k for k in self.parsed.duplicates if k not in self.reported_dups]
        if leftovers:
            self.err("", N_("{count} object(s) elsewhere in the file repeat a key; JSON readers keep only the last value"), "R1", count=len(leftovers))
        self.check_rank_size()
        return t

    def check_status(self, doc: dict) -> None:
        if "status" not in doc:
            self.err("status", N_('missing; expected "completed"'), "R2")
            return
        status = doc["status"]
        if status == "completed":
            return
        if status == "initializing":
            self.err("status", N_('is "initializing": the table is still being written (MindCluster\'s Ascend Operator sets "completed" when it is ready); HCCL will not use it'), "R2")
        else:
            self.err("status", N_('is {value}, expected "completed"'), "R2", value=show(status))

    def check_rank_size(self) -> None:
        raw = self.env.get("RANK_SIZE")
        if raw is None or self.table.rank_count is None:
            return
        if not (raw.isascii() and raw.isdigit()):
            return  # the launch-environment check reports a non-numeric RANK_SIZE
        if int(raw) != self.table.rank_count:
            self.err("", N_("RANK_SIZE={value} in the environment, but the table describes {ranks} ranks"), "L2", value=raw, ranks=self.table.rank_count)

    # -- version 1.0 / 1.2
    def v1(self, doc: dict, version: str) -> None:
        servers = self.obj(doc, "server_list", "server_list", True, "R4", list, N_("a list of servers"))
        count = None
        if "server_count" in doc:
            count = self.number(doc, "server_count", "server_count", False, "R4")
        elif version == FORMAT_V10:
            self.err("server_count", N_("missing; version 1.0 requires it (the number of servers, as a string)"), "R4")
        if servers is None:
            return
        if not servers:
            self.err("server_list", N_("is empty; expected at least one server"), "R4")
            return
        if count is not None and count != len(servers):
            self.err("server_count", N_("says {count} but server_list has {listed} servers"), "R4", count=count, listed=len(servers))

        ids_seen: Dict[str, str] = {}
        # device_ip, rank_id and super_device_id are unique across the table
        seen: Dict[str, Dict[Any, str]] = {"device_ip": {}, "rank_id": {}, "super_device_id": {}}
        multi = len(servers) > 1
        super_pods = doc.get("super_pod_list")
        hccs_disabled = str(self.env.get("HCCL_INTER_HCCS_DISABLE", "")).upper() == "TRUE"
        many_pods = isinstance(super_pods, list) and len(super_pods) > 1
        if version == FORMAT_V10:
            ip_required = multi
            ip_reason = Text(N_("more than one server"))
        else:
            ip_required = many_pods or hccs_disabled
            ip_reason = Text(N_("more than one super-pod")) if many_pods else "HCCL_INTER_HCCS_DISABLE=TRUE"
        rules = _server_list_device(ip_reason if ip_required else None)
        total = 0
        for si, server in enumerate(servers):
            sp = f"server_list[{si}]"
            if not isinstance(server, dict):
                self.err(sp, N_("is {kind}, expected an object with server_id and device"), "R5", kind=_kind(server))
                continue
            self.dups(server, sp)
            sid = self.obj(server, "server_id", f"{sp}.server_id", True, "R5", str, N_("a string (the node's name or host IP)"))
            entry = ServerEntry(index=si, path=sp, server_id=sid)
            if sid is not None:
                if not sid.strip():
                    self.err(f"{sp}.server_id", N_("is empty"), "R5")
                elif len(sid) > MAX_SERVER_ID:
                    self.err(f"{sp}.server_id", N_("is {length} characters long, at most {limit} allowed"), "R5", length=len(sid), limit=MAX_SERVER_ID)
                if sid in ids_seen:
                    self.err(f"{sp}.server_id", N_("{value} is also the server_id of {other}; server_id must be unique"), "R5", value=show(sid), other=ids_seen[sid])
                else:
                    ids_seen[sid] = sp
            for key in ("host_ip", "host_nic_ip", "container_ip", "server_ip", "pod_ip"):
                val = server.get(key)
                if isinstance(val, str) and not isinstance(val, (_HugeNumber, _NonJsonConstant)):
                    entry.addresses[key] = val
            if "host_ip" in server:
                why = ip_problem(server["host_ip"], v4_only=True)
                if why:
                    self.err(f"{sp}.host_ip", why, "R9")
            devices = self.obj(server, "device", f"{sp}.device", True, "R6", list, N_("a list of devices"))
            self.table.servers.append(entry)
            if devices is None:
                continue
            if not devices:
                self.err(f"{sp}.device", N_("is empty; expected the devices this server uses"), "R6")
                continue
            if len(devices) > MAX_DEVICES_PER_SERVER:
                self.err(f"{sp}.device", N_("lists {count} devices; no Ascend server has more than {limit}"), "R6", count=len(devices), limit=MAX_DEVICES_PER_SERVER)
            on_server: Dict[str, Dict[Any, str]] = {"device_id": {}, "host_port": {}}
            for di, dev in enumerate(devices):
                if self.device(dev, f"{sp}.device[{di}]", rules, entry, on_server, seen):
                    total += 1
            self.backup_pairs(entry)
        self.table.rank_count = total
        self.rank_order(total, seen["rank_id"])
        if self.soc:
            for p in topology_problems(self.table.device_sets(), self.soc, [s.path for s in self.table.servers]):
                self.problems.append(p)
        if "super_pod_list" in doc:
            self.super_pods(doc["super_pod_list"], ids_seen)

    # -- one device of a server (1.0 / 1.2 server_list) or of an instance (legacy group_list)
    def device(self, dev: Any, dp: str, rules: "_DeviceRules", entry: ServerEntry,
               on_server: Dict[str, Dict[Any, str]], seen: Dict[str, Dict[Any, str]]) -> bool:
        """Check one device entry at path `dp` and add it to `entry`; False when it is not an object (not counted).
        `on_server` holds the device ids (and host ports) seen on this server, `seen` what must be unique across
        the table (device_ip, and with server_list rank_id and super_device_id); `rules` what the format asks."""
        if not isinstance(dev, dict):
            self.err(dp, rules.shape, rules.shape_rule, kind=_kind(dev))
            return False
        self.dups(dev, dp)
        rec = {"device_id": None, "device_ip": None, "rank_id": None, "path": dp}
        did = self.number(dev, "device_id", f"{dp}.device_id", True, "R6")
        if did is not None:
            dev_ids = on_server["device_id"]
            if did >= MAX_DEVICES_PER_SERVER:
                self.err(f"{dp}.device_id", rules.id_range, "R6", value=did, highest=MAX_DEVICES_PER_SERVER - 1)
            elif did in dev_ids:
                self.err(f"{dp}.device_id", rules.id_twice, "R6", value=did, other=dev_ids[did])
            else:
                dev_ids[did] = dp
            rec["device_id"] = did
        if rules.ranks:
            rid = self.number(dev, "rank_id", f"{dp}.rank_id", True, "R7")
            if rid is not None:
                ranks_seen = seen["rank_id"]
                if rid in ranks_seen:
                    self.err(f"{dp}.rank_id", N_("{value} is also the rank_id of {other}; rank_id must be unique"), "R7", value=rid, other=ranks_seen[rid])
                else:
                    ranks_seen[rid] = dp
                rec["rank_id"] = rid
        if "device_ip" in dev:
            ip = dev["device_ip"]
            ips_seen = seen["device_ip"]
            why = ip_problem(ip)
            if why:
                self.err(f"{dp}.device_ip", why, "R9")
            elif ip in ips_seen:
                self.err(f"{dp}.device_ip", rules.ip_twice, "R9", value=show(ip), other=ips_seen[ip])
            else:
                ips_seen[ip] = dp
                rec["device_ip"] = ip
        elif rules.ip_missing:
            self.err(f"{dp}.device_ip", rules.ip_missing, "R9", **rules.ip_missing_params)
        if rules.ports:
            self.device_ports(dev, dp, rec, on_server["host_port"], seen["super_device_id"])
        entry.devices.append(rec)
        return True

    def device_ports(self, dev: dict, dp: str, rec: Dict[str, Any], host_ports: Dict[Any, str],
                     sdids_seen: Dict[Any, str]) -> None:
        """What a server_list device may add: its ports, backup NIC and super-pod id (R10-R12)."""
        for key in ("device_port", "backup_device_port"):
            if key in dev:
                _, why, warn = port_problem(dev[key])
                if why:
                    self.err(f"{dp}.{key}", why, "R10")
                elif warn:
                    self.warn(f"{dp}.{key}", warn, "R10")
        if "backup_device_port" in dev and "device_port" in dev and dev["backup_device_port"] == dev["device_port"]:
            self.err(f"{dp}.backup_device_port", N_("equals device_port; the backup port of a NIC must differ from its primary port"), "R10")
        if "host_port" in dev:
            hp, why, warn = port_problem(dev["host_port"])
            if why:
                self.err(f"{dp}.host_port", why, "R10")
            elif hp in host_ports:
                self.err(f"{dp}.host_port", N_("{value} is also the host_port of {other}; host ports must be unique within a server"), "R10", value=hp, other=host_ports[hp])
            else:
                host_ports[hp] = dp
                if warn:
                    self.warn(f"{dp}.host_port", warn, "R10")
        if "backup_device_ip" in dev:
            why = ip_problem(dev["backup_device_ip"])
            if why:
                self.err(f"{dp}.backup_device_ip", why, "R12")
            else:
                rec["backup_device_ip"] = dev["backup_device_ip"]
        if "super_device_id" in dev:
            sdid, why = as_int(dev["super_device_id"])
            if why:
                self.err(f"{dp}.super_device_id", why, "R11")
            elif sdid in sdids_seen:
                self.err(f"{dp}.super_device_id", N_("{value} is also the super_device_id of {other}; it must be unique in the super-pod"), "R11", value=sdid, other=sdids_seen[sdid])
            else:
                sdids_seen[sdid] = dp

    def backup_pairs(self, entry: ServerEntry) -> None:
        """R12: a die's backup NIC is the other die of the same NPU (devices 2k and 2k+1 on A3)."""
        ips = {d["device_id"]: d.get("device_ip") for d in entry.devices if d.get("device_id") is not None}
        for d in entry.devices:
            backup = d.get("backup_device_ip")
            did = d.get("device_id")
            if backup is None or did is None:
                continue
            partner = did ^ 1
            if partner in ips and ips[partner] is not None and ips[partner] != backup:
                self.warn(f"{d['path']}.backup_device_ip",
                          N_("is {value}, but the other die of the same NPU (device_id {partner}) has device_ip {partner_ip}; the backup NIC must be that die's"), "R12", value=show(backup), partner=partner, partner_ip=show(ips[partner]))
            elif backup == d.get("device_ip"):
                self.warn(f"{d['path']}.backup_device_ip", N_("equals this device's own device_ip; the backup must be the other die of the NPU"), "R12")

    def rank_order(self, total: int, ranks_seen: Dict[int, str]) -> None:
        """R7 (0..N-1, no interleaving across servers) and R8 (blocks follow server_id order)."""
        out_of_range = sorted(r for r in ranks_seen if r >= total)
        for r in out_of_range:
            self.err(f"{ranks_seen[r]}.rank_id", N_("is {value}, outside 0..{highest} (the table has {total} devices)"), "R7", value=r, highest=total - 1, total=total)
        missing_count = total - sum(1 for r in ranks_seen if r < total)
        if missing_count:
            missing = [r for r in range(total) if r not in ranks_seen][:20]
            if missing:
                more = Text(N_(" and {count} more"), count=missing_count - len(missing)) \
                    if missing_count > len(missing) else ""
                self.err("", N_("rank_id {ranks}{more} missing: rank ids must be exactly 0..{highest}"), "R7",
                         ranks=", ".join(map(str, missing)), more=more, highest=total - 1)
        # Blocks use in-range ranks only: an out-of-range or missing rank is reported above, not again
        # as interleaving. Interleaving = a gap in one server's ranks that another server fills.
        owner: Dict[int, int] = {}
        per_server = []
        for s in self.table.servers:
            own = {d["rank_id"] for d in s.devices if d.get("rank_id") is not None and d["rank_id"] < total}
            for r in own:
                owner.setdefault(r, s.index)
            if own:
                per_server.append((min(own), max(own), own, s))
        blocks = []
        for lo, hi, own, s in per_server:
            if hi - lo + 1 != len(own):
                span = hi - lo + 1
                if span > 4 * len(own) + 64:
                    filled = True  # a wide spread over few ranks: interleaved, no need to scan the gap
                else:
                    filled = any(owner.get(r, s.index) != s.index for r in range(lo, hi + 1) if r not in own)
                if filled:
                    shown = ",".join(map(str, sorted(own)[:16])) + (",..." if len(own) > 16 else "")
                    self.err(f"{s.path}.device", N_("rank ids {{{ranks}}} are not one contiguous block: ranks must not interleave across servers (OK: {{0,1,2,3}}/{{4,5,6,7}}; wrong: {{0,1,2,7}}/{{3,4,5,6}})"), "R7", ranks=shown)
            blocks.append((lo, hi, s))
        blocks.sort(key=lambda b: b[0])
        for (plo, phi, ps), (lo, hi, s) in zip(blocks, blocks[1:]):
            if lo <= phi:
                self.err(f"{s.path}.device", N_("rank ids {lo}..{hi} fall inside the range {plo}..{phi} of {other}: ranks must not interleave across servers"), "R7", lo=lo, hi=hi, plo=plo, phi=phi, other=ps.path)
        ordered = [s for _, _, s in blocks if s.server_id is not None]
        for prev, cur in zip(ordered, ordered[1:]):
            if cur.server_id < prev.server_id:
                self.warn(f"{cur.path}.server_id",
                          N_("{server} holds higher rank ids than {previous} but sorts before it; MindSpore requires rank_id order to follow the dictionary order of server_id (merge per-server tables sorted by server_id)"), "R8", server=show(cur.server_id), previous=show(prev.server_id))
                break

    def super_pods(self, pods: Any, ids_seen: Dict[str, str]) -> None:
        """R11: every listed server exists, belongs to one super-pod, pods contiguous in server_list."""
        if not isinstance(pods, list):
            self.err("super_pod_list", N_("is {kind}, expected a list of super-pods"), "R11", kind=_kind(pods))
            return
        pod_ids: Dict[str, str] = {}
        member_of: Dict[str, str] = {}
        server_pod: Dict[str, int] = {}
        for pi, pod in enumerate(pods):
            pp = f"super_pod_list[{pi}]"
            if not isinstance(pod, dict):
                self.err(pp, N_("is {kind}, expected an object with super_pod_id and server_list"), "R11", kind=_kind(pod))
                continue
            self.dups(pod, pp)
            pid = pod.get("super_pod_id")
            if "super_pod_id" not in pod:
                self.err(f"{pp}.super_pod_id", N_("missing; required in every super-pod"), "R11")
            elif not isinstance(pid, (str, int)) or isinstance(pid, bool):
                self.err(f"{pp}.super_pod_id", N_("is {kind}, expected a string"), "R11", kind=_kind(pid))
            else:
                key = str(pid)
                if key in pod_ids:
                    self.err(f"{pp}.super_pod_id", N_("{value} is also the id of {other}; super_pod_id must be unique"), "R11", value=show(key), other=pod_ids[key])
                else:
                    pod_ids[key] = pp
            members = self.obj(pod, "server_list", f"{pp}.server_list", True, "R11", list, N_("a list of {{\"server_id\": ...}}"))
            for mi, m in enumerate(members or []):
                mp = f"{pp}.server_list[{mi}]"
                if not isinstance(m, dict):
                    self.err(mp, N_('is {kind}, expected {{"server_id": ...}}'), "R11", kind=_kind(m))
                    continue
                sid = self.obj(m, "server_id", f"{mp}.server_id", True, "R11", str, N_("a server_id from server_list"))
                if sid is None:
                    continue
                if sid not in ids_seen:
                    self.err(f"{mp}.server_id", N_("{value} is not a server_id in server_list"), "R11", value=show(sid))
                elif sid in member_of:
                    self.err(f"{mp}.server_id", N_("{value} is already a member of {other}; a server belongs to one super-pod"), "R11", value=show(sid), other=member_of[sid])
                else:
                    member_of[sid] = pp
                    server_pod[sid] = pi
        # Servers of one super-pod must be configured contiguously in server_list.
        seq = [server_pod[s.server_id] for s in self.table.servers if s.server_id in server_pod]
        closed: Set[int] = set()
        for prev, cur in zip(seq, seq[1:]):
            if cur != prev:
                closed.add(prev)
                if cur in closed:
                    self.err("server_list", N_("servers of super_pod_list[{index}] are not contiguous in server_list; interleaving servers of different super-pods is not supported"), "R11", index=cur)
                    break

    # -- legacy group_list
    def group_list(self, doc: dict) -> None:
        groups = self.obj(doc, "group_list", "group_list", True, "R14", list, N_("a list of groups"))
        if "group_count" in doc:
            gc = self.number(doc, "group_count", "group_count", False, "R14")
            if gc is not None and groups is not None and gc != len(groups):
                self.err("group_count", N_("says {count} but group_list has {listed} groups"), "R14", count=gc,
                         listed=len(groups))
        else:
            self.err("group_count", N_('missing; expected the number of groups ("1")'), "R14")
        if not groups:
            if groups is not None:
                self.err("group_list", N_("is empty; expected one group"), "R14")
            return
        if len(groups) > 1:
            self.info("group_list", N_("{count} groups: HCCL merges them all into hccl_world_group; one is recommended"), "R14", count=len(groups))
        seen: Dict[str, Dict[Any, str]] = {"device_ip": {}}
        total = 0
        for gi, group in enumerate(groups):
            gp = f"group_list[{gi}]"
            if not isinstance(group, dict):
                self.err(gp, N_("is {kind}, expected an object with instance_list"), "R14", kind=_kind(group))
                continue
            self.dups(group, gp)
            instances = self.obj(group, "instance_list", f"{gp}.instance_list", True, "R14", list, N_("a list of instances"))
            ic = self.number(group, "instance_count", f"{gp}.instance_count", True, "R14")
            dc = self.number(group, "device_count", f"{gp}.device_count", True, "R14")
            if instances is None:
                continue
            if ic is not None and ic != len(instances):
                self.err(f"{gp}.instance_count", N_("says {count} but instance_list has {listed} entries"), "R14", count=ic, listed=len(instances))
            pods: Dict[str, str] = {}
            group_devices = 0
            for ii, inst in enumerate(instances):
                ip_ = f"{gp}.instance_list[{ii}]"
                if not isinstance(inst, dict):
                    self.err(ip_, N_("is {kind}, expected an object with pod_name, server_id, devices"), "R14", kind=_kind(inst))
                    continue
                self.dups(inst, ip_)
                pod = self.obj(inst, "pod_name", f"{ip_}.pod_name", True, "R14", str, N_("a string"))
                if pod is not None:
                    if pod in pods:
                        self.err(f"{ip_}.pod_name", N_("{value} is also the pod_name of {other}; it must be unique"), "R14", value=show(pod), other=pods[pod])
                    else:
                        pods[pod] = ip_
                sid = self.obj(inst, "server_id", f"{ip_}.server_id", True, "R5", str, N_("a string"))
                if sid is not None and len(sid) > MAX_SERVER_ID:
                    self.err(f"{ip_}.server_id", N_("is {length} characters long, at most {limit} allowed"), "R5", length=len(sid), limit=MAX_SERVER_ID)
                entry = ServerEntry(index=len(self.table.servers), path=ip_, server_id=sid)
                self.table.servers.append(entry)
                devs = self.obj(inst, "devices", f"{ip_}.devices", True, "R14", list, N_("a list of devices"))
                on_server: Dict[str, Dict[Any, str]] = {"device_id": {}, "host_port": {}}
                for di, dev in enumerate(devs or []):
                    if self.device(dev, f"{ip_}.devices[{di}]", _GROUP_LIST_DEVICE, entry, on_server, seen):
                        group_devices += 1
            if dc is not None and dc != group_devices:
                self.err(f"{gp}.device_count", N_("says {count} but the instances list {devices} devices"), "R14", count=dc, devices=group_devices)
            total += group_devices
        # Ranks are implicit: the order of devices in the file.
        rank = 0
        for s in self.table.servers:
            for d in s.devices:
                d["rank_id"] = rank
                rank += 1
        self.table.rank_count = total

    # -- version 2.0
    def v2(self, doc: dict) -> None:
        ranks = self.obj(doc, "rank_list", "rank_list", True, "R15", list, N_("a list of ranks"))
        count = self.number(doc, "rank_count", "rank_count", True, "R15", allow_string=False)
        if ranks is None:
            return
        if count is not None and count != len(ranks):
            self.err("rank_count", N_("says {count} but rank_list has {listed} ranks"), "R15", count=count, listed=len(ranks))
        seen: Dict[int, str] = {}
        n = 0
        for ri, rank in enumerate(ranks):
            rp = f"rank_list[{ri}]"
            if not isinstance(rank, dict):
                self.err(rp, N_("is {kind}, expected an object with rank_id, device_id, level_list"), "R15", kind=_kind(rank))
                continue
            self.dups(rank, rp)
            n += 1
            rid = self.number(rank, "rank_id", f"{rp}.rank_id", True, "R15", allow_string=False)
            if rid is not None:
                if rid in seen:
                    self.err(f"{rp}.rank_id", N_("{value} is also the rank_id of {other}; rank_id must be unique"), "R15", value=rid, other=seen[rid])
                else:
                    seen[rid] = rp
            self.number(rank, "device_id", f"{rp}.device_id", True, "R15", allow_string=False)
            lid = self.number(rank, "local_id", f"{rp}.local_id", False, "R15", allow_string=False)
            if lid is not None and lid > 64:
                self.err(f"{rp}.local_id", N_("is {value}, expected 0-64 (the topology file's local_id range)"), "R15", value=lid)
            for key in ("device_port", "host_port"):
                if key in rank:
                    _, why, warn = port_problem(rank[key], allow_string=False)
                    if why:
                        self.err(f"{rp}.{key}", why, "R10")
                    elif warn:
                        self.warn(f"{rp}.{key}", warn, "R10")
            levels = self.obj(rank, "level_list", f"{rp}.level_list", True, "R15", list, N_("a list of network levels"))
            for li, level in enumerate(levels or []):
                lp = f"{rp}.level_list[{li}]"
                if not isinstance(level, dict):
                    self.err(lp, N_("is {kind}, expected an object with net_layer and rank_addr_list"), "R15", kind=_kind(level))
                    continue
                layer = self.number(level, "net_layer", f"{lp}.net_layer", True, "R15", allow_string=False)
                if layer is not None and layer > 7:
                    self.err(f"{lp}.net_layer", N_("is {value}, expected 0-7"), "R15", value=layer)
                addrs = self.obj(level, "rank_addr_list", f"{lp}.rank_addr_list", False, "R15", list, N_("a list of addresses"))
                for ai, addr in enumerate(addrs or []):
                    ap = f"{lp}.rank_addr_list[{ai}]"
                    if not isinstance(addr, dict):
                        self.err(ap, N_("is {kind}, expected an object with addr_type and addr"), "R15", kind=_kind(addr))
                        continue
                    kind = addr.get("addr_type")
                    if kind not in ("IPV4", "IPV6", "EID"):
                        self.err(f"{ap}.addr_type", N_('is {value}, expected "IPV4", "IPV6" or "EID"'), "R15", value=show(kind))
                    if "addr" not in addr:
                        self.err(f"{ap}.addr", N_("missing"), "R15")
                    elif kind in ("IPV4", "IPV6"):
                        why = ip_problem(addr["addr"], v4_only=kind == "IPV4")
                        if why:
                            self.err(f"{ap}.addr", why, "R9")
        for r in sorted(r for r in seen if r >= n):
            self.err(f"{seen[r]}.rank_id", N_("is {value}, outside 0..{highest}"), "R15", value=r, highest=n - 1)
        missing = [r for r in range(n) if r not in seen]
        if missing and seen:
            self.err("rank_list", N_("rank_id {ranks} missing: rank ids must be exactly 0..{highest}"), "R15",
                     ranks=", ".join(map(str, missing[:20])) + (" ..." if len(missing) > 20 else ""), highest=n - 1)
        self.table.rank_count = n


def topology_problems(device_sets: Dict[str, List[int]], soc_family: str,
                      server_paths: Optional[List[str]] = None) -> List[Problem]:
    """R13/R6: per-server device sets allowed on this family (910A HCCS rings 0-3/4-7; A3 whole die pairs)."""
    out: List[Problem] = []
    limit = DEVICES_PER_SERVER.get(soc_family)
    for key, servers in device_sets.items():
        ids = [int(x) for x in key.split(",") if x]
        if not ids:
            continue
        where = (server_paths[servers[0]] if server_paths and servers[0] < len(server_paths) else f"server {servers[0]}") + ".device"
        also = Text(N_(" (and {count} more servers with the same devices)"), count=len(servers) - 1) \
            if len(servers) > 1 else ""
        if limit and max(ids) >= limit:
            out.append(Problem(where, FAIL, "R6", Text(N_("device_id {device} does not exist on a {family} server (ids 0-{highest}){also}"), device=max(ids), family=soc_family, highest=limit - 1, also=also)))
            continue
        n = len(ids)
        if soc_family == "910":
            if n == 8:
                continue
            if n not in (1, 2, 4):
                out.append(Problem(where, WARN, "R13", Text(N_("{count} devices {ids}: on Atlas training (910A) a server uses 1, 2, 4 or all 8 devices{also}"), count=n, ids=ids, also=also)))
            elif not (max(ids) <= 3 or min(ids) >= 4):
                out.append(Problem(where, WARN, "R13", Text(N_("devices {ids} span both HCCS rings (0-3 and 4-7); with fewer than 8 devices they must sit in one ring{also}"), ids=ids, also=also)))
        elif soc_family == "910_93":
            if n == 1:
                continue
            if n % 2:
                out.append(Problem(where, WARN, "R13", Text(N_("{count} dies {ids}: on Atlas A3 use 1 die or an even number of whole NPUs (die pairs 0/1, 2/3, ...){also}"), count=n, ids=ids, also=also)))
            elif any((i ^ 1) not in ids for i in ids):
                out.append(Problem(where, WARN, "R13", Text(N_("dies {ids} split an NPU: even requests must take whole die pairs (0/1, 2/3, ...){also}"), ids=ids, also=also)))
    return out


def validate_rank_table_text(text: str, soc_family: Optional[str] = None,
                             env: Optional[Dict[str, str]] = None) -> RankTable:
    """Parse and validate. `soc_family` ("910", "910B", "910_93", "310P") enables topology rules;
    for a 1.2 table with no family given, A3 is assumed (1.2 exists only there). `env` supplies
    RANK_SIZE and HCCL_INTER_HCCS_DISABLE."""
    # A big table allocates ~10 objects per rank and none of them form cycles: pausing the cyclic
    # collector keeps it from re-scanning the growing heap (it made 32k ranks ~1.5x slower).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        doc, problems, parsed = parse_rank_table_text(text)
        if doc is None and not problems:  # the file is the JSON literal `null`: valid JSON, no table
            problems.append(Problem("", FAIL, "R3", Text(N_('the top level is null, expected a JSON object with "version" and "server_list"'))))
        if doc is None:
            return RankTable(problems=problems)
        soc = soc_family
        if soc is None and isinstance(doc, dict) and doc.get("version") == FORMAT_V12:
            soc = "910_93"
        table = _Validator(parsed, soc, env).run(doc)
        table.problems[:0] = problems
        return table
    finally:
        if was_enabled:
            gc.enable()
