"""What triage returns: problems (one per known signature), their occurrences, the inputs read, the root cause.

Problem severity uses one vocabulary, fail / warn / info. Problems are ordered fail before warn, root
causes before generic wrappers, then by first occurrence; a problem whose signature another found problem
`leads_to` comes right after its cause and says "caused by".
"""

from __future__ import annotations

import re

from ..records import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ..i18n import N_, get_lang, lookup
from ..i18n_text import Text
from ..kb.model import ASCEND_FD_KB, Signature

TRIAGE_SCHEMA = "ascend-doctor.triage/1"
SEVERITY_ORDER = {"fail": 0, "warn": 1, "info": 2}
CLASS_ORDER = {"root": 0, "wrapper": 1, "benign": 2}
# Compared by code (a marker): kept in English, translated where shown (lookup).
NOT_A_LOG = N_("not a log file (by its name or content): skipped")
# Words of the research notes that mean nothing to a reader of a Chinese report: "(telling strings)" and an
# index id. The English source line keeps them as they are; an entry with a `source_zh` says its citations in
# Chinese, the others (the ascend-fd faults) are shown in English without these words.
_INTERNAL = re.compile(r"\s*\(telling strings?\)|\btelling strings?[,;]\s*|,?\s*\(?index id \d+\)?"
                       r"|\s*\(?indexId:? \w+\)?")
# The ascend-fd ids a source cites right after the reference tool's knowledge base (its fault ids, 0x codes).
_FD_IDS = r"[:：]?\s*(?P<ids>[A-Za-z0-9_]+(?:(?:,\s*|、)[A-Za-z0-9_]+)*)(?:\s*\(telling strings?\)|（日志匹配字符串）)?"


def shown_source(sig: Signature, shown_ids: Iterable[str] = ()) -> str:
    """Where the entry comes from, as a user can follow it (kb.model.public_source), in the run's language: in
    Chinese the entry's `source_zh`, else the English without the notes' internal words. `shown_ids`: the
    ascend-fd ids the report prints on a line of their own; the source does not repeat them after the
    knowledge base it cites (when it cites no other id there)."""
    text = sig.public_source()
    if get_lang() == "zh" and not sig.source_zh:
        text = _INTERNAL.sub("", text).strip()
    shown = set(shown_ids)
    if shown:
        kb = re.escape(lookup(ASCEND_FD_KB))
        m = re.search(kb + r"\s*" + _FD_IDS, text)
        if m and set(re.split(r",\s*|、", m.group("ids"))) <= shown:
            text = (text[:m.start("ids")].rstrip(" :：") + text[m.end():]).strip()
    return text


def ascend_fd_ids(sig: Signature) -> List[str]:
    return list(getattr(sig, "ascend_fd", None) or [])


class Occurrence:
    """Where a problem showed. A plain class with slots: one is made per kept hit of a scan (a record's
    checked __init__ was measurable there); compares and prints like the records around it."""

    __slots__ = ("file", "line", "rank", "time", "seq", "node", "pid", "device", "group")

    def __init__(self, file: str, line: int, rank: Optional[str], time: Optional[str], seq: int,
                 node: Optional[str] = None, pid: Optional[str] = None, device: Optional[str] = None,
                 group: Optional[str] = None):
        self.file, self.line, self.rank, self.time, self.seq = file, line, rank, time, seq
        self.node = node
        self.pid = pid  # the process of a CANN log (named as its device once identities are known)
        self.device = device  # "<node> device-<id>"
        self.group = group
        # seq: global order of discovery, the tie-breaker when lines carry no time

    def _fields(self) -> tuple:
        return tuple(getattr(self, n) for n in self.__slots__)

    def __eq__(self, other):
        return self._fields() == other._fields() if other.__class__ is self.__class__ else NotImplemented

    __hash__ = None  # mutable, compared by value: not hashable (as a dataclass with eq)

    def __repr__(self) -> str:
        return "Occurrence(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"

    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def who(self) -> Optional[str]:
        """How the report names where it happened: the device (with its rank), else the rank or node."""
        if self.device:
            return self.device + (f" ({self.rank})" if self.rank else "")
        return self.rank

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "rank": self.rank, "time": self.time, "node": self.node,
                "device": self.device, "group": self.group}


@dataclass
class Problem:
    signature: Signature
    count: int
    first: Occurrence
    last: Occurrence
    text: str  # the first matching line: the most telling one for a root cause
    ranks: Dict[str, Occurrence] = field(default_factory=dict)  # rank/device -> its first occurrence
    resolved_by: Optional[Occurrence] = None
    caused_by: Optional[str] = None  # the id of a found problem whose signature leads to this one
    # the id of the problem its exception became (a class entry's exception that a library caught and raised again as
    # its own, which a specific entry names: triage/scan.py _chain_step); it is placed right after that problem
    became: Optional[str] = None
    # the ascend-fd ids whose own rule holds on a matched line (kb.peers.peer_ids), checked on the first
    # PEER_LINES lines (triage/scan.py): the signature's ids are what it can recognise, these what the log shows;
    # each with the matched line it was first seen on (0-based), so that scans read apart fold as one (_fold_peers)
    peers: Dict[str, int] = field(default_factory=dict)
    peer_lines: int = 0  # matched lines checked for ids so far
    marked: bool = False  # `text` is the next line of an exception's message (triage.lines.Fold.follows)
    # where `text` was read when that is not at `first`: a graded entry (Signature.graded) shows the earliest of its
    # lines that it gives its full severity, so a FAIL later in the log is not hidden behind an INFO line before it
    at: Optional[Occurrence] = None
    low: bool = False  # `text` gets less than the entry's severity (a graded entry's warning)

    def take(self, first: Occurrence, text: str, marked: bool, show=str, at: Optional[Occurrence] = None) -> None:
        """Hits of this problem read elsewhere (one line, or another scan's or worker's hits): the earliest at `first`,
        their line `text` read at `at` (`first` when None), shown as `show` makes it. The problem keeps the earliest
        occurrence as `first` and, as its line, the earliest line of the highest severity its entry gives a line
        (Signature.severity_on), read at `self.at` (None: at `first`). The count and `last` are the caller's."""
        at = at or first
        here = self.at or self.first
        low = self.signature.low_on(text, marked)
        take = (low, order_key(at)) < (self.low, order_key(here))
        if order_key(first) < order_key(self.first):
            self.first = first
        if take:
            self.text, self.marked, self.low = show(text), marked, low
            here = at
        self.at = None if here == self.first else here

    @property
    def since(self) -> Occurrence:
        """The earliest line of the problem's severity: where its line was read (a graded entry's FAIL can come after
        its warnings)."""
        return self.at or self.first

    @property
    def severity(self) -> str:
        return "info" if self.resolved_by else self.signature.severity_on(self.text, self.marked)

    def first_rank(self) -> Optional[str]:
        if not self.ranks:
            return None
        return min(self.ranks.items(), key=lambda kv: order_key(kv[1]))[0]

    def to_json(self) -> dict:
        s = self.signature
        title, cause, fix = s.text(line=self.text)
        return {
            "id": s.id, "signature": s.id, "title": title, "pitfall": s.pitfall, "severity": self.severity,
            "class": s.kind, "component": s.component, "count": self.count,
            "first": self.first.to_json(), "last": self.last.to_json(), "line": self.text,
            "line_at": self.since.to_json(),
            "cause": cause, "fix": fix, "source": shown_source(s), "more": f"ascend-doctor kb show {s.id}",
            "ascend_fd": list(self.peers), "caused_by": self.caused_by, "became": self.became,
            "ranks": {r: o.to_json() for r, o in sorted(self.ranks.items(), key=lambda kv: order_key(kv[1]))},
            "first_rank": self.first_rank(),
            "resolved_by": self.resolved_by.to_json() if self.resolved_by else None,
            # the words above are the knowledge base's (in both languages there; the source without its internal
            # notes in Chinese, shown_source): each is named by the signature and its field, so a saved document is
            # worded again in the other language exactly (render/triage_report.reworded)
            "i18n": {"title": {"kb": s.id, "field": "title"}, "cause": {"kb": s.id, "field": "cause"},
                     "fix": {"kb": s.id, "field": "fix"}, "source": {"kb": s.id, "field": "source"}},
        }


def order_key(o: "Occurrence"):
    return (o.time or "9999", o.seq)


def reading_order(problems: Iterable["Problem"]):
    """The order key of the report (order_problems, the headline): `order_key`, except that a line without a time
    takes the time of the next timed line of its file among the problems' places. It was printed no later than that
    line, so a traceback's exception line sorts before the timed line printed after it (torch_npu's
    `[ERROR] <time> ... ERR00006 PTA memory error` under the `RuntimeError: NPU out of memory` that says why), not
    after every timed line of every file. Only an upper bound is used: a line is never put before a time it may
    have followed. The shown times are the lines' own."""
    import bisect

    timed: Dict[tuple, List[Tuple[int, str]]] = {}
    untimed = False
    for p in problems:
        for o in (p.first, p.at, p.last, *p.ranks.values()):
            if o is None:
                continue
            if o.time:
                timed.setdefault((o.node, o.file), []).append((o.line, o.time))
            else:
                untimed = True
    if not (untimed and timed):
        return order_key
    for places in timed.values():
        places.sort()

    def key(o: "Occurrence"):
        if o.time:
            return (o.time, o.seq)
        places = timed.get((o.node, o.file))
        if places:
            i = bisect.bisect_right(places, (o.line, "\uffff"))
            if i < len(places):
                return (places[i][1], o.seq)
        return ("9999", o.seq)

    return key


def later(a: "Occurrence", b: "Occurrence") -> bool:
    """Whether `a` is later than `b`: by their times when both lines carry one (across files, ranks and devices),
    else by the order they were read in (a line without a time follows the lines before it in its file)."""
    if a.time and b.time and a.time != b.time:
        return a.time > b.time
    return a.seq >= b.seq


def _nodes(p: Problem) -> set:
    return {o.node for o in (p.first, p.at, p.last, *p.ranks.values()) if o is not None and o.node}


def link_effects(problems: List[Problem]) -> Dict[int, List[Problem]]:
    """The knowledge base's `leads_to` edges among found problems: an effect gets `caused_by` (the cause's id) and is
    listed under its cause (by `id()`), in the order given. An edge names the effect by our signature id or by an
    ascend-fd id it recognises (the reference's fault chains), and links two problems that showed on one node (or
    whose node is not known): a port in use on one node is not the effect of another node's NIC. The order of the
    lines does not matter: a library often prints the code it returns before the line that says why."""
    by_name: Dict[str, Problem] = {}
    for p in problems:
        by_name.setdefault(p.signature.id, p)
        for fd in ascend_fd_ids(p.signature):
            by_name.setdefault(fd, p)
    effects: Dict[int, List[Problem]] = {}
    for p in problems:
        for name in getattr(p.signature, "leads_to", None) or []:
            effect = by_name.get(name)
            if effect is None or effect is p or effect.caused_by is not None or p.caused_by == effect.signature.id:
                continue
            here, there = _nodes(p), _nodes(effect)
            if here and there and not here & there:
                continue
            effect.caused_by = p.signature.id
            effects.setdefault(id(p), []).append(effect)
    return effects


def order_problems(problems: Iterable[Problem]) -> List[Problem]:
    """Severity, class, first occurrence; then every effect moved right after its cause (`leads_to`)."""
    problems = list(problems)
    when = reading_order(problems)
    base = sorted(problems, key=lambda p: (SEVERITY_ORDER[p.severity], CLASS_ORDER.get(p.signature.kind, 3),
                                           when(p.since)))
    effects = link_effects(base)
    out: List[Problem] = []
    placed = set()

    def place(p: Problem) -> None:
        if id(p) in placed:
            return
        placed.add(id(p))
        out.append(p)
        for e in effects.get(id(p), []):
            place(e)

    ids = {q.signature.id for q in base}
    # a class entry's exception that became a specific one's (Problem.became) comes right after it, at its level
    after = set()
    for p in base:
        q = next((q for q in base if q.signature.id == p.became), None) if p.became else None
        if q is not None and q.severity == p.severity and p.caused_by is None:
            effects.setdefault(id(q), []).insert(0, p)
            after.add(id(p))
    for p in base:
        if id(p) not in after and (p.caused_by is None or p.caused_by not in ids):
            place(p)
    for p in base:  # effects of a cycle of causes
        place(p)
    return out


@dataclass
class InputInfo:
    label: str
    rank: Optional[str] = None
    bytes: int = 0
    lines: int = 0
    note: Optional[str] = None  # why it was skipped or only partly read
    scanned: bool = True
    node: Optional[str] = None
    kind: Optional[str] = None  # plog | device | train | os | npu_os | npu_host | npu_history | bmc | mindx
    pid: Optional[str] = None
    hits: int = 0  # chunks with a known problem
    process: Any = None  # the ProcessLog its HCCL evidence goes to
    evidence: Optional[List[Tuple[int, bytes]]] = None  # in a forked worker: evidence lines for the parent
    order: int = 0  # its place among the inputs (discovery order of occurrences)
    forwarded: Any = None  # in a forked worker: init lines already passed on

    def to_json(self) -> dict:
        out = {"file": self.label, "rank": self.rank, "bytes": self.bytes, "lines": self.lines,
               "scanned": self.scanned, "note": lookup(self.note), "node": self.node, "kind": self.kind}
        if self.note:  # its message (a note made as a message id alone is one too), for reworded()
            out["i18n"] = {"note": self.note.to_i18n() if isinstance(self.note, Text) else {"id": self.note}}
        return out


@dataclass
class TriageResult:
    problems: List[Problem]
    inputs: List[InputInfo]
    last_error_lines: List[dict]
    # error lines no known signature explains (first, distinct): file, line, text, count, time, traceback (None, or
    # where the traceback the entry stands for starts and what it folds: lines.traceback_dict)
    unexplained: List[dict] = field(default_factory=list)
    root_cause: Optional[Dict[str, Any]] = None
    summaries: List[dict] = field(default_factory=list)  # node summaries merged (triage --node-summary)
    unexplained_total: int = 0  # distinct unexplained error lines, a traceback one (`unexplained` lists the first)
    unexplained_lines: int = 0  # unexplained error lines, repeats included, a traceback one

    def counts(self) -> Dict[str, int]:
        out = {"fail": 0, "warn": 0, "info": 0}
        for p in self.problems:
            out[p.severity] += 1
        return out

    def failed(self, fail_on: str = "fail") -> bool:
        """A problem at `fail_on` or worse; "unexplained": a failure or an error line no signature explains."""
        if fail_on == "unexplained":
            return self.failed("fail") or self.unexplained_total > 0
        limit = SEVERITY_ORDER[fail_on]
        rc = (self.root_cause or {}).get("severity")
        return any(SEVERITY_ORDER[p.severity] <= limit for p in self.problems) or (
            rc is not None and SEVERITY_ORDER[rc] <= limit)

    def lead(self) -> Tuple[Optional[Problem], Optional[Tuple[Problem, str]]]:
        """The headline's problem, and the problem of its level that came before it with why that one does not lead
        (None when the headline's is the earliest, so that the headline says "the earliest" only when it is).

        The headline's is the earliest problem of the most severe level present (a warning never outranks a
        failure), except that an exception a library caught and raised again as its own gives way to the one it became
        ("became": Problem.became), an effect gives way to its cause ("effect": Problem.caused_by, link_effects)
        and a wrapper (a call failed, not why: torch_npu's ERR envelope, a bare error code;
        "wrapper") is the headline only when nothing else of that level was found: its line often carries a time to
        the second while the line that says why carries milliseconds, and a time to the second sorts first within its
        second."""
        real = [p for p in self.problems if p.severity != "info"]
        if not real:
            return None, None
        worst = min(SEVERITY_ORDER[p.severity] for p in real)
        level = [p for p in real if SEVERITY_ORDER[p.severity] == worst]
        when = reading_order(self.problems)
        ids = {p.signature.id for p in level}
        found = {p.signature.id for p in self.problems}
        # the exception it became leads, and so does the cause of an effect (link_effects)
        leading = [p for p in level if p.became not in ids and p.caused_by not in found] or level
        first = min([p for p in leading if p.signature.kind != "wrapper"] or leading, key=lambda p: when(p.since))
        earliest = min(level, key=lambda p: when(p.since))
        if when(earliest.since) >= when(first.since):
            return first, None
        why = ("became" if earliest.became is not None else "effect" if earliest.caused_by in found else "wrapper")
        return first, (earliest, why)

    def first_problem(self) -> Optional[Problem]:
        """The headline's problem (lead)."""
        return self.lead()[0]

    def passed_over(self) -> Optional[Tuple[Problem, str]]:
        """The problem of the headline's level that came before the headline's, and why it does not lead (lead)."""
        return self.lead()[1]

    @property
    def nodes(self) -> List[str]:
        return list(dict.fromkeys(i.node for i in self.inputs if i.node and i.scanned))

    def to_json(self, streamed: bool = False) -> dict:
        """The JSON document. `streamed`: its problems are a jsonstream.Rows, each made only when jsonstream.pieces
        writes it (a report of thousands of problems held them all as dicts, then all as text: render_triage)."""
        first, over = self.lead()
        chains = fault_chains(self.problems)
        from ..i18n import get_lang

        def problem(p: Problem) -> dict:
            return dict(p.to_json(), fault_chains=chains.get(p.signature.id, []))

        if streamed:
            from ..jsonstream import Rows

            problems: Any = Rows(self.problems, problem)
        else:
            problems = [problem(p) for p in self.problems]
        return {
            "schema": TRIAGE_SCHEMA,
            "lang": get_lang(),
            "root_cause": root_cause_json(self.root_cause),
            "problems": problems,
            "first_problem": None if first is None else dict(
                {"id": first.signature.id, **first.since.to_json()},
                # the earlier problem of its level it leads over, and why (lead)
                **({} if over is None else {"leads_over": {"id": over[0].signature.id, "why": over[1],
                                                           **over[0].since.to_json()}})),
            "summary": self.counts(),
            "nodes": self.nodes,
            "inputs": [i.to_json() for i in self.inputs],
            "last_error_lines": self.last_error_lines,
            "unexplained_errors": self.unexplained,
            "unexplained_total": self.unexplained_total,
            "unexplained_lines": self.unexplained_lines,
            "summaries": [summary_json(m) for m in self.summaries],
        }


def summary_json(merged: Dict[str, Any]) -> Dict[str, Any]:
    """A merged node summary's entry of the JSON document: its warnings worded in the current language and, under
    "i18n", each warning's message (for reworded())."""
    from ..i18n_text import to_i18n, worded

    warnings = merged.get("warnings") or []
    out = dict(merged, warnings=[worded(w) for w in warnings])
    if warnings:
        out["i18n"] = {"warnings": [to_i18n(w) for w in warnings]}
    return out


def root_cause_json(rc: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The root cause for a JSON document: its texts worded in the current language (its `headline` too: the
    line the text report starts with), and under "i18n" the fields that hold words with each text as {"i18n": its
    message entry} (i18n_text.marked), for reworded()."""
    from ..i18n import deferred
    from ..i18n_text import has_text, marked, worded
    from ..render.triage_report import root_cause_headline

    if rc is None:
        return None
    with deferred():  # the headline line is one message of the root cause's values: kept as its id and parameters
        rc = dict(rc, headline=root_cause_headline(rc))
    out = worded(rc)
    texts = {k: marked(v) for k, v in rc.items() if has_text(v)}
    if texts:
        out["i18n"] = texts
    return out


def fault_chains(problems: List[Problem]) -> Dict[str, List[dict]]:
    """Per root problem, its chains of effects (`caused_by`), as the reference's `fault_chains`: each chain
    "A -> B -> C" with the devices (or ranks, files) where every problem of it showed, most devices first."""
    ids = {p.signature.id for p in problems}
    effects: Dict[str, List[Problem]] = {}
    for p in problems:
        if p.caused_by in ids:
            effects.setdefault(p.caused_by, []).append(p)
    out: Dict[str, List[dict]] = {}
    for p in problems:
        if p.caused_by in ids or p.signature.id not in effects:
            continue
        found: Dict[str, List[str]] = {}

        def walk(path: List[Problem]) -> None:
            nxt = [e for e in effects.get(path[-1].signature.id, []) if e not in path]
            if not nxt or len(path) >= 16:
                where = set(path[0].ranks)
                for q in path[1:]:
                    where &= set(q.ranks)
                found[" -> ".join(q.signature.id for q in path)] = sorted(where or set(path[0].ranks))
                return
            for e in nxt:
                walk(path + [e])

        walk([p])
        out[p.signature.id] = [{"worker": w, "chains": c} for c, w in
                               sorted(found.items(), key=lambda kv: (-len(kv[1]), -kv[0].count(" -> "), kv[0]))]
    return out


def attach_root_cause(result: TriageResult, processes, nodes: List[str], nodes_with_plog: List[str]) -> None:
    """Name the device the cluster waited on, and name every CANN-log occurrence by its device."""
    from .rootcause import analyse, best_rank, device_of, root_cause_json

    from ..i18n import deferred

    with deferred():  # the root cause's words (summary, fix, missing, evidence) are messages the renderer words
        cluster, verdict = analyse(processes, nodes, nodes_with_plog)
    devices = device_of(cluster)

    def name_occurrence(o: Optional[Occurrence]) -> None:
        if o is None or o.pid is None:
            return
        d = devices.get((o.node, o.pid))
        if d is not None:
            o.device = d.name
            rank = best_rank(d, cluster)
            if rank is not None:
                o.rank = f"rank {rank}"
                o.group = max(d.ranks, key=lambda g: (cluster.groups[g].size or 0, g))

    by_device: Dict[str, List[Problem]] = {}
    for p in result.problems:
        for o in [p.first, p.last, p.resolved_by, p.at, *p.ranks.values()]:
            name_occurrence(o)
        renamed = {}
        for key, o in p.ranks.items():
            renamed[o.device or key] = o
        p.ranks = renamed
        for o in p.ranks.values():
            if o.device and p.severity != "info" and p.signature.kind != "benign":
                by_device.setdefault(o.device, []).append(p)

    def problem_of_device(d) -> Optional[str]:
        found = by_device.get(d.name) or []
        if not found:
            return None
        best = min(found, key=lambda p: (CLASS_ORDER.get(p.signature.kind, 3), order_key(p.ranks[d.name])))
        return best.signature.id

    from .scan import _shown

    with deferred():
        rc = root_cause_json(cluster, verdict, problem_of_device)
    if rc["first_error"]:
        rc["first_error"]["line"] = _shown(rc["first_error"]["line"][:400])
    result.root_cause = rc
