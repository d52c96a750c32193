"""Merge per-node reports into one verdict for the job: failing nodes, skew, rank-table agreement.

Pure logic, no printing. Streaming-friendly: `Aggregator.add` takes one node's
report at a time and keeps only what the verdict needs (per-check statuses, the
problem findings, the comparable facts, a rank-table digest), so memory grows
linearly with the number of nodes and a report is dropped as soon as it is read.

    agg = Aggregator(fail_on="fail")
    for path in report_paths(["reports/"]):
        agg.add_file(path)
    result = agg.result()          # a dict, schema ascend-doctor.aggregate/1

Words are fixed at the door: the verdict's problems, an unreadable report's error and the nodes' finding texts
are `i18n_text.Text`s (message ids with parameters; a report/1 node's texts `Stored`), worded only by the
renderers (render/aggregate_json.worded_result), which keep their ids beside in the JSON (`i18n.texts`).
"""

from __future__ import annotations

import glob
import json
import multiprocessing
import os
import stat
from collections import Counter, OrderedDict
from typing import Any, Dict, Iterable, List, Optional

from .findings import REPORT_SCHEMA, REPORT_SCHEMAS, SEVERITY, STATUSES
from .i18n import N_, _, deferred, get_lang
from .rank_table import summarise_rank_table
from .facts import LaunchFacts, LaunchRankTable
from .node_facts import (UNSET, NodeFacts, comparable, finding_shape_problem, node_name, port_facts,
                         read_node_facts, report_shape_problem)

try:  # optional: 2-3x faster parsing when installed; the standard library gives the same result
    import orjson as _fast_json
except ImportError:  # pragma: no cover - depends on the environment
    _fast_json = None

AGGREGATE_SCHEMA = "ascend-doctor.aggregate/1"
# Below this many reports a process pool costs more than it saves.
PARALLEL_MIN_REPORTS = 256
PROBLEM_STATUSES = ("fail", "error", "warn")
MAX_UNREACHABLE_LISTED = 200  # unreachable pairs kept with their device and address (the matrix counts them all)
NO_RANK_TABLE = N_("(no rank table)")  # a view's value (JSON): kept in English, translated where shown


class AggregateInputError(Exception):
    """A path given to aggregate that is neither a report file nor a directory of them."""


BUNDLE_SUFFIXES = (".tar.gz", ".tgz", ".tar")


def is_bundle(item: str) -> bool:
    """A collected snapshot (`collect`): an archive, or a directory holding its manifest.json."""
    if os.path.isdir(item):
        return os.path.isfile(os.path.join(item, "manifest.json")) and os.path.isdir(os.path.join(item, "root"))
    return item.endswith(BUNDLE_SUFFIXES)


def bundle_paths(inputs: Iterable[str]) -> List[str]:
    return [item for item in inputs if is_bundle(item)]


def report_paths(inputs: Iterable[str]) -> List[str]:
    """Expand DIR arguments to the *.json files inside (temp files of atomic writes start with '.');
    bundles are read by `add_bundles`."""
    paths: List[str] = []
    for item in inputs:
        if is_bundle(item):
            continue
        if os.path.isdir(item):
            paths.extend(sorted(glob.glob(os.path.join(item, "*.json"))))
        elif os.path.isfile(item):
            paths.append(item)
        else:
            raise AggregateInputError(_("{path}: no such file or directory (expected a report directory or .json "
                                        "files)").format(path=item))
    return paths


def _node_name(facts: NodeFacts, data: Dict[str, Any], source: str) -> str:
    return str(node_name(facts) or (data.get("host") or {}).get("name")
               or os.path.splitext(os.path.basename(source))[0])


class NodeSummary:
    """What the verdict needs from one node's report (the rest of the report is dropped)."""

    __slots__ = ("name", "host", "rank", "world_size", "source", "statuses", "problems", "facts",
                 "rank_table", "addresses", "counts", "worst", "error", "ports", "ports_down", "pings")

    def __init__(self, name: str, source: str):
        self.name, self.source = name, source
        self.host: Optional[str] = None
        self.rank: Optional[int] = None
        self.world_size: Optional[int] = None
        self.statuses: Dict[str, str] = {}
        self.problems: List[Dict[str, Any]] = []
        self.facts: Dict[str, str] = {}
        self.rank_table: Optional[LaunchRankTable] = None
        self.addresses: List[str] = []
        self.counts = dict.fromkeys(STATUSES, 0)
        self.worst = "pass"
        self.error: Optional[str] = None
        self.ports: Dict[str, Dict[str, List[int]]] = {}  # port setting -> value -> the device ids with it
        self.ports_down: tuple = ()
        self.pings: List[Dict[str, Any]] = []  # preflight --net: {device, address, server, peer_device, ok}


_WORST_FIRST = ("fail", "error", "warn", "pass", "skip")
_RANK = {s: i for i, s in enumerate(_WORST_FIRST)}
_FIX_TYPES, _EVIDENCE_TYPES = frozenset({list, type(None)}), frozenset({dict, type(None)})
_PROBLEMS = frozenset(PROBLEM_STATUSES)


def summarise_report(data: Dict[str, Any], source: str) -> NodeSummary:
    if not isinstance(data, dict) or data.get("schema") not in REPORT_SCHEMAS:
        got = data.get("schema") if isinstance(data, dict) else type(data).__name__
        raise ValueError(_("field 'schema' is {got}, expected {expected}").format(got=repr(got),
                                                                                 expected=repr(REPORT_SCHEMA)))
    problem = report_shape_problem(data, findings=False)  # each finding is checked below, as it is read
    if problem:
        raise ValueError(problem)
    facts, present = read_node_facts(data)  # typed: a field of the wrong type is named (FactsError, a ValueError)
    node = NodeSummary(_node_name(facts, data, source), source)
    launch = facts.launch or LaunchFacts()
    node.host = launch.host or (data.get("host") or {}).get("name")
    node.rank, node.world_size = launch.rank, launch.world_size
    node.addresses = launch.addresses
    node.rank_table = launch.rank_table
    node.facts = comparable(facts, present)
    settings, node.ports_down = port_facts(facts)
    for setting, by_device in settings.items():  # value -> the node's devices with it (mostly one value for all)
        grouped: Dict[str, List[int]] = {}
        for device, value in by_device.items():
            grouped.setdefault(value, []).append(device)
        node.ports[setting] = grouped
    node.pings = [{"device": p.device_id, "address": p.address, "server": p.server_id, "peer_device": p.peer_device,
                   "ok": bool(p.received) and not p.error} for p in facts.hccn.pings]
    counts, statuses, problems = node.counts, node.statuses, node.problems
    findings = data.get("findings") or ()
    for f in findings:  # ~40 per report, thousands of reports: the common case first, in as few steps as can be
        get = f.get if type(f) is dict else None
        if get is None or type(get("fix")) not in _FIX_TYPES or type(get("evidence")) not in _EVIDENCE_TYPES:
            problem = finding_shape_problem(f, findings.index(f))  # what is wrong, named
            if problem:
                raise ValueError(problem)
            get = f.get
        fid, status = get("id"), get("status")
        if type(fid) is not str:
            fid = str(fid)
        if type(status) is not str or status not in counts:
            raise ValueError(_("finding {id}: field 'status' is {got}, expected one of {statuses}").format(
                id=fid, got=repr(status), statuses=STATUSES))
        counts[status] += 1
        prev = statuses.setdefault(fid, status)
        if prev is not status and _RANK[status] < _RANK[prev]:
            statuses[fid] = status
        if status in _PROBLEMS:
            problem = {"id": fid, "status": status, "title": get("title") or "",
                       "summary": get("summary") or "", "fix": [str(s) for s in get("fix") or []],
                       "pitfall": get("pitfall"), "evidence": get("evidence") or {}}
            i18n = get("i18n")
            if i18n is not None:  # report/2: its texts' messages, read where a variant first shows them (_worded)
                if type(i18n) is not dict or type(i18n.get("fix", [])) is not list:
                    raise ValueError(_("finding {id}: field 'i18n' is {got}, expected an object with a 'fix' "
                                       "list").format(id=fid, got=type(i18n).__name__))
                problem["i18n"] = i18n
            problems.append(problem)
    node.worst = next((s for s in _WORST_FIRST if node.counts[s]), "pass")
    return node


def _worded(problem: Dict[str, Any]) -> Dict[str, Any]:
    """title, summary, evidence and fix of a node's problem as texts, read as `check --from-report` reads a saved
    finding (findings.Finding.from_json): a report/2's rebuilt from their message ids, exactly; a report/1's (or an
    i18n block that does not fill its messages) `Stored`, worded by the phrase templates where shown (its evidence
    values too), else as the node wrote them."""
    from .findings import Finding

    try:
        if problem.get("i18n") is not None:
            f = Finding.from_json(problem)
            return {"title": f.title, "summary": f.summary, "fix": f.fix, "evidence": f.evidence}
    except (ValueError, TypeError, AttributeError):
        pass
    f = Finding.from_json({k: v for k, v in problem.items() if k != "i18n"})
    return {"title": f.title, "summary": f.summary, "fix": f.fix, "evidence": _stored(f.evidence)}


def _stored(evidence: Dict[str, Any]) -> Dict[str, Any]:
    """A report/1 finding's evidence: its words (strings, and strings in lists) `Stored`, worded where shown."""
    from .i18n_text import Stored

    def one(v: Any) -> Any:
        return Stored(v, report=True) if isinstance(v, str) and v else v
    return {k: [one(x) for x in v] if isinstance(v, list) else one(v) for k, v in evidence.items()}


def _summary(problem: Dict[str, Any]) -> Any:
    """A node's problem's summary for the failing-nodes list: a report/2's Text (its message id), else as written."""
    i18n = problem.get("i18n")
    if i18n is None:
        return problem["summary"]
    from .i18n_text import from_entry

    try:
        return from_entry(i18n.get("summary"), problem["summary"])
    except (ValueError, TypeError, AttributeError):
        return problem["summary"]


def load_node_summary(path: str) -> NodeSummary:
    """Read one report file; an unreadable or torn file becomes a node with `error` set (a Text: worded where shown)."""
    with deferred():  # the reasons are messages (i18n_text.Text), worded by the renderer
        return _load_node_summary(path)


def _load_node_summary(path: str) -> NodeSummary:
    from .i18n_text import Text, error_text
    from .reasons import os_text

    try:
        # O_NONBLOCK and fstat: a FIFO named x.json would block the read for ever (one system call fewer than
        # os.path.isfile then open, which counts at thousands of reports)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(0, _("not a regular file"))
            raw = fh.read()
        if not raw.strip():
            raise ValueError(_("empty file"))
        data = _fast_json.loads(raw) if _fast_json is not None else json.loads(raw)
        return summarise_report(data, path)
    except RecursionError:
        node = NodeSummary(os.path.splitext(os.path.basename(path))[0], path)
        node.error, node.worst = _("{path}: nested too deeply to be a report").format(path=path), "error"
        return node
    except (OSError, ValueError) as exc:
        node = NodeSummary(os.path.splitext(os.path.basename(path))[0], path)
        reason = os_text(exc) if isinstance(exc, OSError) else error_text(exc)
        node.error = Text(N_("{path}: {reason}"), path=path, reason=reason)
        node.worst = "error"
        return node


def _group(values: Dict[str, List[str]]) -> List[Dict[str, Any]]:
    groups = [{"value": v, "count": len(n), "nodes": n} for v, n in values.items()]
    groups.sort(key=lambda g: (-g["count"], g["value"]))
    return groups


class Aggregator:
    def __init__(self, fail_on: str = "fail", expect: Optional[int] = None, baseline=None):
        self.fail_on = fail_on
        self.expect = expect
        self.baseline = baseline  # a baseline.Baseline, or None
        self.nodes: List[NodeSummary] = []
        self.unreadable: List[NodeSummary] = []
        self.fact_values: "OrderedDict[str, Dict[str, List[str]]]" = OrderedDict()
        self.check_titles: Dict[str, str] = {}
        # check id -> problem status -> the nodes whose worst finding of that check has it; (id, status) -> nodes
        self.check_nodes: Dict[str, Dict[str, List[str]]] = {}
        self.status_counts: "Counter[tuple]" = Counter()
        # check id -> (status, fix) -> one variant: the nodes with that fix, and the first such node's words.
        self.check_variants: Dict[str, Dict[tuple, Dict[str, Any]]] = {}
        self.table_views: Dict[str, List[str]] = {}
        self.table_servers: Dict[str, List[Dict[str, Any]]] = {}
        self.table_paths: Dict[str, Optional[str]] = {}
        self.drift: Dict[str, Dict[str, List[str]]] = {}
        # NPU ports: setting -> value -> [(node, [device ids])]; ports not UP; node -> peer server -> [ok, pinged]
        self.port_values: "OrderedDict[str, Dict[str, List[tuple]]]" = OrderedDict()
        self.ports_down: List[str] = []
        self.reach: Dict[str, Dict[str, List[int]]] = {}
        self.unreachable: List[Dict[str, Any]] = []

    # -- input ---------------------------------------------------------------------------------
    def add_file(self, path: str) -> NodeSummary:
        node = load_node_summary(path)
        self.add(node)
        return node

    def add_files(self, paths: List[str], jobs: int = 1) -> None:
        """Read many reports; with jobs > 1, parse them in worker processes (each holds one report at a time)."""
        from .process import fork_is_safe

        if jobs <= 1 or len(paths) < PARALLEL_MIN_REPORTS or not fork_is_safe():
            for path in paths:  # one at a time: also where forking workers could hang on another thread's lock
                self.add_file(path)
            return
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for node in pool.imap(load_node_summary, paths, chunksize=64):
                self.add(node)

    def add(self, node: NodeSummary) -> None:
        if node.error:
            self.unreadable.append(node)
            return
        self.nodes.append(node)
        for key, value in node.facts.items():
            self.fact_values.setdefault(key, {}).setdefault(value, []).append(node.name)
        self.status_counts.update(node.statuses.items())  # counted in C: most checks pass on most nodes
        statuses = node.statuses
        for fid in {p["id"] for p in node.problems}:
            status = statuses[fid]
            if status in PROBLEM_STATUSES:  # pass/skip: only counted, no name lists kept
                self.check_nodes.setdefault(fid, {}).setdefault(status, []).append(node.name)
        for p in node.problems:
            if p["id"] not in self.check_titles:
                self.check_titles[p["id"]] = _worded(p)["title"]
            # Nodes that failed one check can need different fixes (CANN under /usr/local/Ascend on one,
            # under /home/<user>/Ascend on another): group by the fix itself, each group with its own words.
            key = (p["status"], tuple(p["fix"]))
            variant = self.check_variants.setdefault(p["id"], {}).get(key)
            if variant is None:
                texts = _worded(p)  # the first node's words of this variant, the only ones shown
                variant = self.check_variants[p["id"]][key] = {
                    "status": p["status"], "title": texts["title"], "summary": texts["summary"],
                    "evidence": texts["evidence"], "evidence_from": node.name, "fix": texts["fix"],
                    "pitfall": p["pitfall"],
                    "nodes": []}
            if not variant["nodes"] or variant["nodes"][-1] != node.name:
                variant["nodes"].append(node.name)
            # The node keeps only what the failing-nodes list shows; its evidence lives in the variant.
            p["summary"] = _summary(p)
            del p["evidence"], p["fix"]
            p.pop("i18n", None)
        table = node.rank_table
        if table is not None:
            digest = str(table.digest or table.error or "unreadable")
            self.table_views.setdefault(digest, []).append(node.name)
            # Only a complete copy stands for the table (most nodes keep just their own entry).
            if table.complete and digest not in self.table_servers:
                self.table_servers[digest] = table.servers
            self.table_paths.setdefault(digest, table.path)
        for setting, by_value in node.ports.items():  # one entry per node and value, named per device at the end
            values = self.port_values.setdefault(setting, {})
            for value, devices in by_value.items():
                values.setdefault(value, []).append((node.name, devices))
        self.ports_down.extend(f"{node.name} device {d}" for d in node.ports_down)
        for p in node.pings:
            cell = self.reach.setdefault(node.name, {}).setdefault(str(p["server"] or p["address"]), [0, 0])
            cell[0] += p["ok"]
            cell[1] += 1
            if not p["ok"] and len(self.unreachable) < MAX_UNREACHABLE_LISTED:
                self.unreachable.append(dict(p, node=node.name))
        if self.baseline is not None:
            for item in self.baseline.drift_from(node.facts):
                self.drift.setdefault(item["fact"], {}).setdefault(item["actual"], []).append(node.name)
        # Per-check findings and the facts dict are no longer needed beyond what was copied.
        node.facts = {}

    # -- verdict -------------------------------------------------------------------------------
    def _skew(self) -> List[Dict[str, Any]]:
        names = [n.name for n in self.nodes]
        skew = []
        for key, values in self.fact_values.items():
            if key.startswith("HCCL_"):
                seen = sum(len(v) for v in values.values())
                if seen < len(names):  # a variable set on some nodes only: the others have it unset
                    have = {n for v in values.values() for n in v}
                    values = dict(values)
                    values[UNSET] = [n for n in names if n not in have]
            if len(values) > 1:
                groups = _group(values)
                odd = [n for g in groups[1:] for n in g["nodes"]]
                skew.append({"fact": key, "groups": groups, "majority": groups[0]["value"], "odd_nodes": odd})
        return skew

    def _ports(self) -> Optional[Dict[str, Any]]:
        """The NPU RoCE ports of the whole job: devices whose TLS switch, MTU, speed or FEC differ from the rest of
        the cluster (the odd devices out, named), ports down anywhere, and (preflight --net) which node could not
        reach which peer server. None when no report carries port facts."""
        if not self.port_values and not self.ports_down and not self.reach:
            return None
        settings = []
        for setting, values in self.port_values.items():
            if len(values) > 1:
                groups = [{"value": v, "count": sum(len(devices) for _node, devices in holders),
                           # JSON: English, like node names ("node-17 device 5")
                           "nodes": [f"{node} device {d}" for node, devices in holders for d in devices]}
                          for v, holders in values.items()]
                groups.sort(key=lambda g: (-g["count"], g["value"]))
                groups[0]["nodes"] = []  # the majority's devices are counted, not listed (8 per node)
                settings.append({"setting": setting, "groups": groups, "majority": groups[0]["value"],
                                 "odd_devices": [n for g in groups[1:] for n in g["nodes"]]})
        # node -> peer server -> how many of the device pairs pinged answered
        matrix = {node: {server: {"answered": ok, "pinged": total} for server, (ok, total) in sorted(cells.items())}
                  for node, cells in sorted(self.reach.items())}
        pairs = sorted({(n, s) for n, cells in self.reach.items() for s, (ok, total) in cells.items() if ok < total})
        return {"settings": settings, "down": self.ports_down,
                "reachability": {"matrix": matrix, "unreachable_pairs": [{"node": n, "server": s} for n, s in pairs],
                                 "unreachable": self.unreachable} if self.reach else None}

    def _rank_table(self) -> Optional[Dict[str, Any]]:
        if not self.table_views:
            return None
        with_table = {n for v in self.table_views.values() for n in v}
        views = _group(self.table_views)
        without = [n.name for n in self.nodes if n.name not in with_table]
        if without:
            views.append({"value": NO_RANK_TABLE, "count": len(without), "nodes": without})
        problems: List[str] = []
        if len(views) > 1:
            problems.append(_("nodes see {count} different rank tables").format(count=len(views)))
        majority = views[0]["value"]
        if majority not in self.table_servers:
            self._read_table_here(majority)
        servers = self.table_servers.get(majority)
        if servers is None:
            return {"ok": not problems, "problems": problems,
                    "notes": [_("no report holds the whole rank table (rank 0 sent none) and its file is not "
                                "readable here: servers and device IPs were not cross-checked")],
                    "views": views, "servers_in_table": None, "servers_matched_by": None,
                    "hosts_reported": len({n.host or n.name for n in self.nodes}), "servers_missing": [],
                    "duplicate_device_ips": []}
        known = set()
        for n in self.nodes:
            known.update(n.addresses)
            known.update(x for x in (n.host, n.name) if x)
        matched = [s for s in servers if s.get("server_id") in known or (s.get("host_ip") or None) in known]
        hosts = {n.host or n.name for n in self.nodes}
        if matched:
            missing = [s["server_id"] for s in servers if s not in matched]
            if missing:
                problems.append(_("{count} server(s) in the rank table sent no report").format(count=len(missing)))
        else:
            # server_id is often an abstract name (node_0): nothing to match by, so compare counts.
            missing = []
            if len(hosts) < len(servers):
                problems.append(_("the rank table lists {servers} servers but only {hosts} host(s) reported (server "
                                  "ids match no reported host name or address)").format(servers=len(servers),
                                                                                       hosts=len(hosts)))
        ip_users: Dict[str, set] = {}
        for digest_servers in self.table_servers.values():
            for s in digest_servers:
                for d in s.get("devices") or []:
                    if d.get("device_ip"):
                        ip_users.setdefault(str(d["device_ip"]), set()).add(f"{s.get('server_id')}/device {d.get('device_id')}")
        duplicates = [{"device_ip": ip, "used_by": sorted(users)} for ip, users in sorted(ip_users.items()) if len(users) > 1]
        if duplicates:
            problems.append(_("{count} device IP(s) used more than once").format(count=len(duplicates)))
        return {"ok": not problems, "problems": problems, "notes": [], "views": views, "servers_in_table": len(servers),
                "servers_matched_by": "name" if matched else "count", "hosts_reported": len(hosts),
                "servers_missing": missing, "duplicate_device_ips": duplicates}

    def _read_table_here(self, digest: str) -> None:
        """Rank 0's report is missing: the table is usually on shared storage, so read it from there."""
        path = self.table_paths.get(digest)
        if not path or not os.path.isfile(path):
            return
        try:
            with open(path, "r", encoding="utf-8") as fh:
                summary = summarise_rank_table(fh.read(), path, [])
        except (OSError, UnicodeDecodeError):
            return
        if summary and summary.get("digest") == digest:
            self.table_servers[digest] = summary["servers"]

    def _missing_ranks(self) -> Dict[str, Any]:
        ranks = [n.rank for n in self.nodes if n.rank is not None]
        sizes = [n.world_size for n in self.nodes if n.world_size]
        expected = self.expect if self.expect is not None else (max(sizes) if sizes else None)
        out: Dict[str, Any] = {"expected": expected, "reported": len(self.nodes) + len(self.unreadable)}
        if expected is not None and ranks and self.expect is None:
            seen = set(ranks)
            out["missing_ranks"] = [r for r in range(expected) if r not in seen]
        elif expected is not None:
            out["missing_count"] = max(0, expected - out["reported"])
        counts: Dict[str, int] = {}
        for n in self.nodes:
            counts[n.name] = counts.get(n.name, 0) + 1
        out["duplicate_names"] = sorted(k for k, v in counts.items() if v > 1)
        return out

    def result(self) -> Dict[str, Any]:
        """The verdict (schema ascend-doctor.aggregate/1); its words are Texts, worded by the renderers."""
        with deferred():
            return self._result()

    def _result(self) -> Dict[str, Any]:
        level = SEVERITY[self.fail_on]
        failing = [n for n in self.nodes if SEVERITY[n.worst] >= level]
        checks = []
        counted = self.status_counts
        for fid in sorted({fid for fid, _ in counted}):
            by_status = self.check_nodes.get(fid, {})
            entry = {"id": fid, "title": self.check_titles.get(fid, ""),
                     "counts": {s: counted.get((fid, s), 0) for s in STATUSES},
                     "nodes": {s: by_status[s] for s in PROBLEM_STATUSES if s in by_status}}
            variants = list(self.check_variants.get(fid, {}).values())
            if variants:
                # Worst status first, then the fix most nodes share.
                variants.sort(key=lambda v: (PROBLEM_STATUSES.index(v["status"]), -len(v["nodes"])))
                entry["variants"] = [dict(v, count=len(v["nodes"])) for v in variants]
                entry["title"] = variants[0]["title"]
            checks.append(entry)
        skew = self._skew()
        ports = self._ports()
        rank_table = self._rank_table()
        coverage = self._missing_ranks()
        drift = [{"fact": k, "expected": self.baseline.facts.get(k, UNSET), "groups": _group(v)}
                 for k, v in self.drift.items()] if self.baseline is not None else None
        problems = []
        if failing:
            problems.append((_("{count} node(s) with findings at fail level or worse") if self.fail_on == "fail" else
                             _("{count} node(s) with findings at warn level or worse")).format(count=len(failing)))
        if self.unreadable:
            problems.append(_("{count} report(s) unreadable").format(count=len(self.unreadable)))
        if skew:
            problems.append(_("{count} fact(s) differ across nodes").format(count=len(skew)))
        if ports:
            for item in ports["settings"]:
                problems.append(_("{count} NPU port(s) differ from the cluster's {setting}").format(
                    count=len(item["odd_devices"]), setting=_(item["setting"])))
            if ports["down"]:
                problems.append(_("{count} NPU port(s) down").format(count=len(ports["down"])))
            reach = ports["reachability"]
            if reach and reach["unreachable_pairs"]:
                problems.append(_("{count} node/server pair(s) with unreachable NPU addresses").format(
                    count=len(reach["unreachable_pairs"])))
        if rank_table and not rank_table["ok"]:
            problems.extend(rank_table["problems"])
        if coverage.get("missing_ranks") or coverage.get("missing_count"):
            problems.append(_("some ranks sent no report"))
        if coverage["duplicate_names"]:
            problems.append(_("{count} node name(s) reported twice").format(count=len(coverage["duplicate_names"])))
        if drift:
            problems.append(_("{count} fact(s) drifted from the baseline").format(count=len(drift)))
        return {
            "schema": AGGREGATE_SCHEMA,
            "lang": get_lang(),
            "verdict": "problems" if problems else "ok",
            "problems": problems,
            "fail_on": self.fail_on,
            "nodes_total": len(self.nodes) + len(self.unreadable),
            "nodes_failing": [{"name": n.name, "source": n.source, "worst": n.worst,
                               "problems": [{"id": p["id"], "status": p["status"], "summary": p["summary"]}
                                            for p in n.problems if SEVERITY[p["status"]] >= level]}
                              for n in failing],
            "unreadable": [{"source": n.source, "error": n.error} for n in self.unreadable],
            "coverage": coverage,
            "skew": skew,
            "ports": ports,
            "rank_table": rank_table,
            "baseline_drift": drift,
            "checks": checks,
            "nodes": [{"name": n.name, "host": n.host, "rank": n.rank, "worst": n.worst, "counts": n.counts,
                       "statuses": n.statuses, "source": n.source} for n in self.nodes],
        }


def aggregate_paths(inputs: Iterable[str], fail_on: str = "fail", expect: Optional[int] = None,
                    baseline=None, jobs: int = 1) -> Dict[str, Any]:
    agg = Aggregator(fail_on=fail_on, expect=expect, baseline=baseline)
    agg.add_files(report_paths(inputs), jobs=jobs)
    return agg.result()


# ---------------------------------------------------------------------------
# Node log directories: the same root-cause engine as `triage`
# ---------------------------------------------------------------------------

def log_dirs(inputs: Iterable[str]) -> List[str]:
    """The directory inputs that hold logs instead of node reports (no *.json at their top level)."""
    out = []
    for item in inputs:
        if os.path.isdir(item) and not is_bundle(item) and not glob.glob(os.path.join(item, "*.json")):
            if any(files for _, _, files in os.walk(item)):
                out.append(item)
    return out


def add_bundles(agg: "Aggregator", bundles: List[str]) -> "Optional[Any]":
    """Each collected snapshot is one node: its report.json joins the verdict and its logs (collect --logs) the
    same root-cause engine as `triage`. Returns the Triage of the bundles' logs (None when none held logs).
    An unreadable bundle raises AggregateInputError (one line)."""
    from .bundle import open_bundle
    from .host import SnapshotError
    from .triage import Triage

    t, logs = Triage(), 0
    for path in bundles:
        try:
            with open_bundle(path) as host:
                report = os.path.join(host.directory, "report.json")
                if os.path.isfile(report):
                    node = agg.add_file(report)
                    node.source = path
                logs += t.add_bundle(host)
        except SnapshotError as exc:
            raise AggregateInputError(str(exc)) from None
    return t if logs else None


def triage_logs(dirs: List[str], bundles_triage=None) -> Dict[str, Any]:
    """Triage every node's logs together (one sub-directory per node, and the logs of bundles already added to
    `bundles_triage`): root cause and the problems found."""
    from .render.kb_text import kb_refs
    from .render.triage_report import root_cause_headline
    from .triage import Triage
    from .triage.result import root_cause_json

    t = bundles_triage or Triage()
    for d in dirs:
        t.add_path(d)
    res = t.result()
    rc = root_cause_json(res.root_cause)  # worded, its messages beside (i18n), as in a triage JSON
    return {
        "dirs": list(dirs),
        "nodes": res.nodes,
        "files": sum(1 for i in res.inputs if i.scanned),
        "root_cause": rc,
        "headline": root_cause_headline(rc) if rc else None,
        # each problem's words are its signature's, named as a triage JSON names them (render.aggregate_json.reworded)
        "problems": [{"id": p.signature.id, "severity": p.severity, "count": p.count, "title": p.signature.text(line=p.text)[0],
                      "first": p.first.to_json(), "caused_by": p.caused_by, "fix": p.signature.text(line=p.text)[2],
                      "i18n": kb_refs(p.signature.id, ("title", "fix"), line=p.text, sig=p.signature)}
                     for p in res.problems if p.severity != "info"],
        "failed": res.failed("fail"),
    }


# the verdict's line for the logs: {what} is the root-cause headline (said again by render.aggregate_json.reworded)
LOGS_PROBLEM = N_("logs of {count} node(s): {what}")


def add_logs(result: Dict[str, Any], logs: Dict[str, Any]) -> None:
    """Put the logs' verdict into an aggregate result (and its problems into the job's verdict)."""
    result["logs"] = logs
    with deferred():
        _add_logs(result, logs)


def _add_logs(result: Dict[str, Any], logs: Dict[str, Any]) -> None:
    if logs["failed"]:
        # the headline as its message (the root cause's "i18n"), so the verdict's line is said again in any language
        from .i18n_text import unmarked

        ref = ((logs.get("root_cause") or {}).get("i18n") or {}).get("headline")
        what = (unmarked(ref) if ref else logs["headline"]) or _("{count} known problem(s) in the logs").format(
            count=len(logs["problems"]))
        result["problems"].append(_(LOGS_PROBLEM).format(count=len(logs["nodes"]), what=what))
        result["verdict"] = "problems"
