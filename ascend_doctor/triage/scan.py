"""Read logs (files, directories, .gz, stdin) and name the known problems in them.

Streaming: files are read in fixed-size chunks; only complete lines are scanned
and the partial last line is carried to the next chunk. A line longer than
MAX_LINE_BYTES (a 2 GB line without a newline) is scanned in pieces with an
overlap, so memory stays bounded by CHUNK_BYTES + MAX_LINE_BYTES whatever the input.

Matching uses the knowledge base's scanner (one prefilter over whole chunks,
per-signature regexes only on lines that contain an anchor).
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import sys
import zlib
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from ..i18n import _
from ..kb.load import load_knowledge_base
from ..kb.model import KnowledgeBase, Signature
from ..kb.peers import fd_names_code, peer_ids
from . import layout
from .result import (NOT_A_LOG, InputInfo, Occurrence, Problem, TriageResult, attach_root_cause, later,
                     order_key as _order_key, order_problems)

if TYPE_CHECKING:  # pragma: no cover
    from .events import ProcessLog

CHUNK_BYTES = 1 << 20  # fits a core's L2 cache: Hyperscan, the newline count and the line slices read it while it is warm
MAX_LINE_BYTES = 1 << 20
LONG_LINE_OVERLAP = 4 << 10  # a signature cut at a piece boundary is still whole in the overlap
SHOW_LINE_CHARS = 400  # the "most telling line" is cut to this in reports
PEER_LINES = 8  # a problem's ascend-fd ids are read from its first matched lines (each input range's, in parallel)

# Where a rank / device / process shows in a log's path (msrun, CANN plog, device logs).
_RANK_FROM_PATH = [
    (re.compile(r"worker_(\d+)\.log"), "rank {}"),
    (re.compile(r"(?:^|[/_.-])rank[_-]?(\d+)(?:$|[/_.-])", re.I), "rank {}"),
    (re.compile(r"(?:^|/)device-(\d+)(?:$|/)"), "device {}"),
    (re.compile(r"plog-(\d+)"), "pid {}"),
]
# Timestamps in CANN / MindSpore (2024-07-12-10:21:33.512.118) and ISO-like forms.
_TS = re.compile(rb"(\d{4})-(\d\d)-(\d\d)[- T](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,6}))?")
# An error-looking line (issue 21: none is dropped): an ERROR/FATAL/CRITICAL level (`[ERROR]`, `- ERROR -`, glog
# `E0712 10:21:33`, torch's c10 header `[rank1]:[E324 13:00:25.428 ...]`), a Python `...Error:`/`...Exception:` (a
# traceback's tail), a CANN error report (`EZ9999: ...`), a crash (`Segmentation fault`, `core dumped`, `Killed`).
# Scanned with the signatures (one pass): a line it holds that no signature explains is listed in
# `unexplained_errors`.
ERROR_LINE = (r"\[(?:ERROR|FATAL|CRITICAL|E)\]|\b(?:ERROR|FATAL|CRITICAL)\b|^\s*[EF]\d{4} \d\d:\d\d:\d\d|"
              r"\[[EF]\d{3,4} \d\d:\d\d:\d\d|"
              r"(?:Error|Exception)(?::|$)|^\s*E[A-Z0-9]\d{4}: |Segmentation fault|core dumped|\bKilled\b")
# ...unless the line says it is of another level (an INFO line that mentions `lastError:`)
_OTHER_LEVEL = re.compile(rb"\s*(?:\[(?:INFO|DEBUG|TRACE|EVENT|WARNING|WARN)\]|[IWD]\d{4} \d\d:|"
                          rb"(?:\[rank\d+\]:)?\[[IWD]\d{3,4} \d\d:)")
UNEXPLAINED_KEEP = 50  # distinct unexplained error lines listed (JSON; the text shows the first 20)
_UNEXPLAINED_DISTINCT = 5000  # distinct lines remembered at most (the count goes on)
_VARYING = re.compile(rb"[0-9A-Fa-fx]*[0-9][0-9A-Fa-fx]*")  # numbers, hex ids and addresses: left out of the dedup key
GZIP_MAGIC = b"\x1f\x8b"


def rank_of(path: str) -> Optional[str]:
    for rx, fmt in _RANK_FROM_PATH:
        found = rx.findall(path)
        if found:
            return fmt.format(int(found[-1]))
    return None


def _timestamp(line: bytes) -> Optional[str]:
    m = _TS.search(line)
    if not m:
        return None
    y, mo, d, h, mi, s, frac = m.groups()
    return (b"%s-%s-%s %s:%s:%s.%s" % (y, mo, d, h, mi, s, (frac or b"0")[:3].ljust(3, b"0"))).decode()


def _text(line: bytes) -> str:
    text = line.decode("utf-8", errors="replace").rstrip("\r")
    return text if len(text) <= SHOW_LINE_CHARS else text[:SHOW_LINE_CHARS] + " …"


_redactor = None


def _forget_redactor() -> None:
    """A new triage redacts with the environment it runs in (an in-process caller may run several, each with its
    own secrets): the redactor is made again on its first use."""
    global _redactor
    _redactor = None


def _shown(text: str) -> str:
    """A log line as the result shows it: secrets scrubbed (logs carry tokens, passwords, URL
    credentials, and the values of this process's secret variables). Called only for the lines
    kept for display, not for every match: the redactor runs a dozen patterns."""
    global _redactor
    if _redactor is None:
        import os

        from ..redact import Redactor

        _redactor = Redactor(env=os.environ)
    return _redactor.text(text)


def _error_key(line: bytes) -> bytes:
    """What makes two unexplained lines the same (numbers, hex ids and addresses aside), as a digest."""
    return hashlib.blake2b(_VARYING.sub(b"", line[:300]), digest_size=12).digest()


def _shown_text(text, show) -> str:
    """A kept line as reports show it: read here (bytes), cut and redacted; from a node summary (str), as it is."""
    return show(_text(text)) if isinstance(text, bytes) else text


class Unexplained:
    """The error-looking lines no signature explains: each distinct line (numbers and hex aside: pids, thread ids,
    times, addresses) once, at its first occurrence, with how often it came; the last few lines for the "no known
    problem" case.

    A line's text is kept as read (bytes, shown with the redaction when the result is made) or, from a node
    summary, as that node showed it (str, already redacted); a line is known by a digest of its text without
    numbers and hex, so a summary carries no raw text and its lines still fold into the same entries."""

    __slots__ = ("seen", "overflow", "lines", "recent")

    def __init__(self):
        self.seen: Dict[bytes, list] = {}  # key -> [input, line number, text (bytes, or str shown), count, time]
        self.overflow = 0  # lines of new kinds past _UNEXPLAINED_DISTINCT (counted, not kept: the total is at least)
        self.lines = 0
        self.recent: List[tuple] = []  # (input, line number, text), the last 5

    def add(self, line: bytes, info: InputInfo, line_no: int, count: int = 1, merged: bool = False) -> None:
        """One unexplained line (`merged`: a distinct line of a worker's part, `count` its repeats there)."""
        self._fold(_error_key(line), [info, line_no, line[:2 * SHOW_LINE_CHARS], count, _timestamp(line)])
        if merged:
            return
        self.lines += 1
        self.recent.append((info, line_no, line[:2 * SHOW_LINE_CHARS]))
        if len(self.recent) > 10:
            del self.recent[:5]

    def _fold(self, key: bytes, entry: list) -> None:
        got = self.seen.get(key)
        if got is not None:
            got[3] += entry[3]
        elif len(self.seen) < _UNEXPLAINED_DISTINCT:
            self.seen[key] = entry
        else:
            self.overflow += entry[3]  # each of its lines, as when read one by one

    def to_part(self) -> dict:
        """For a forked worker's pipe (JSON): latin-1 text, byte for byte."""
        return {"seen": [[v[1], v[2].decode("latin-1"), v[3]] for v in self.seen.values()], "overflow": self.overflow,
                "lines": self.lines, "recent": [[n, t.decode("latin-1")] for _i, n, t in self.recent[-5:]]}

    def merge(self, part: dict, info: InputInfo, lines_before: int) -> None:
        """A later range's part (its line numbers shifted by the lines before it)."""
        for n, text, count in part["seen"]:
            self.add(text.encode("latin-1"), info, n + lines_before, count, merged=True)
        self.lines += part["lines"]
        self.overflow += part["overflow"]
        self.recent = (self.recent + [(info, n + lines_before, t.encode("latin-1")) for n, t in part["recent"]])[-5:]

    def absorb(self, other: "Unexplained") -> None:
        """Another scan's lines (a node summary's), read after these: the same entries, counts and totals as if its
        lines had been read here."""
        for key, entry in other.seen.items():
            self._fold(key, entry)
        self.overflow += other.overflow
        self.lines += other.lines
        self.recent = (self.recent + other.recent)[-5:]

    def to_summary(self, show) -> dict:
        """For a node summary: inputs by their place in the scan's list, texts shown (redacted), keys as digests."""
        return {"seen": [[v[0].order, v[1], _shown_text(v[2], show), v[3], v[4], k.hex()] for k, v in self.seen.items()],
                "overflow": self.overflow, "lines": self.lines,
                "recent": [[i.order, n, _shown_text(t, show)] for i, n, t in self.recent[-5:]]}

    @classmethod
    def from_summary(cls, data: Any, inputs: List[InputInfo]) -> "Unexplained":
        """`to_summary`'s dict back, its inputs those of the summary (ValueError, TypeError, IndexError when it is
        not that shape)."""
        out = cls()
        if data is None:
            return out

        def line(k, n, text) -> tuple:
            if not (isinstance(k, int) and 0 <= k < len(inputs) and isinstance(n, int) and isinstance(text, str)):
                raise TypeError("not an unexplained line")
            return inputs[k], n, text

        for k, n, text, count, time, key in data["seen"]:
            if not isinstance(count, int) or not (time is None or isinstance(time, str)):
                raise TypeError("not an unexplained line")
            out.seen[bytes.fromhex(key)] = [*line(k, n, text), count, time]
        out.overflow, out.lines = int(data["overflow"]), int(data["lines"])
        out.recent = [line(k, n, text) for k, n, text in data["recent"]]
        return out

    @staticmethod
    def _entry(info: InputInfo, line_no: int, text, show) -> dict:
        return {"file": info.label, "line": line_no, "text": _shown_text(text, show)}

    def listed(self, show) -> List[dict]:
        """The first UNEXPLAINED_KEEP distinct lines, in the order of the inputs and their lines."""
        order = sorted(self.seen.values(), key=lambda v: (v[0].order, v[1]))[:UNEXPLAINED_KEEP]
        return [dict(self._entry(v[0], v[1], v[2], show), count=v[3], time=v[4]) for v in order]

    def last(self, show) -> List[dict]:
        return [self._entry(i, n, t, show) for i, n, t in self.recent[-5:]]


class Triage:
    """Accumulates hits over any number of inputs; `result()` orders them and names the root cause.

    `node` names the node every input belongs to (default: from the layout, see `layout`).
    """

    # What a scan accumulates (its result before `result()` orders and names it): written by a node summary
    # (`summary.node_summary`) and folded back by `add_summary`, the same reduction as over files.
    STATE = ("inputs", "problems", "_resolver_last", "_errors", "processes", "nodes", "nodes_with_plog")

    def __init__(self, kb: Optional[KnowledgeBase] = None, node: Optional[str] = None,
                 root_cause: Optional[bool] = None):
        self.kb = kb or load_knowledge_base()
        self.node = node
        self.root_cause = (not os.environ.get("ASCEND_DOCTOR_NO_ROOT_CAUSE")) if root_cause is None else root_cause
        # "resolved_by" patterns ride in the same scanner as pseudo-signatures
        self._resolvers: Dict[int, Signature] = {}
        sigs = list(self.kb.signatures)
        for sig in self.kb.signatures:
            for pat in sig.resolved_by:
                self._resolvers[len(sigs)] = sig
                sigs.append(Signature(id=f"~resolves:{sig.id}", pattern=pat, regex=True, component=sig.component,
                                      severity="info", cause="", fix=[]))
        self._error_idx = len(sigs)  # the error-line pattern rides in the scanner too
        sigs.append(Signature(id="~error-line", pattern=ERROR_LINE, regex=True, component="os", severity="info",
                              cause="", fix=[]))
        from .match.scanner import Scanner

        self.scanner = Scanner(sigs)
        self.sigs = sigs
        # A generic wrapper (CANN_DRV_ERROR_CODE_REPORTED names any CANN error code) on a line that a specific
        # signature explains is not a problem of its own: the line's cause is the specific one.
        self._wrappers = {i for i, s in enumerate(sigs) if s.kind == "wrapper"}
        self.problems: Dict[str, Problem] = {}
        self.inputs: List[InputInfo] = []
        self._resolver_last: Dict[str, Occurrence] = {}
        self._errors = Unexplained()
        self.processes: Dict[Tuple[str, str], "ProcessLog"] = {}
        self.nodes: List[str] = []
        self.nodes_with_plog: List[str] = []
        self.summaries: List[dict] = []  # the node summaries merged: file, node, tool, kb, warnings
        # called after each file with (files done, files known so far, bytes read): the command's progress line
        self.progress: Optional[Callable[[int, int, int], None]] = None
        self._files = [0, 0, 0]  # done, total, bytes
        self._signatures_by_id: Optional[Dict[str, Signature]] = None  # for merging summaries (made on first use)
        self._kb_version: Optional[str] = None
        self._show = _shown  # a forked worker leaves the redaction to the parent, which shows the text
        _forget_redactor()


    def add_unread(self, label: str, note: str) -> None:
        """An input with nothing to read (an empty directory, a bundle without logs): reported, not scanned."""
        self._add_input(InputInfo(label, scanned=False, note=note))

    def _add_input(self, info: InputInfo) -> None:
        info.order = len(self.inputs)
        self.inputs.append(info)

    # ---- inputs ----
    def add_path(self, path: str, label: Optional[str] = None) -> None:
        if path == "-":
            self.add_stream(sys.stdin.buffer, "<stdin>", None)
            return
        if os.path.isdir(path):
            found = False
            entries = layout.walk(path, self.node)
            if self.progress is not None:  # the total first, for "files read / total"
                entries = list(entries)
                self._files[1] += len(entries)
            # each file is shown as it can be opened from here (the path given, joined with its place under it);
            # its kind, rank and pid are read from its place under the directory's parent (layout.walk's label)
            for full, inner, node, is_log in entries:
                found = True
                before = len(self.inputs)
                shown = os.path.join(label, os.path.relpath(full, path)) if label is not None else full
                if not is_log:
                    if not self._add_json(full, shown, node, explicit=False):
                        self._add_input(InputInfo(shown, scanned=False, note=NOT_A_LOG, node=node))
                else:
                    self.add_file(full, shown, node, inner)
                self._tick(before)
            if not found:
                self._add_input(InputInfo(label or path, scanned=False, note=_("empty directory")))
            return
        before = len(self.inputs)
        if self.progress is not None:
            self._files[1] += 1
        self.add_file(path, label or path)
        self._tick(before)

    def _tick(self, before: int) -> None:
        if self.progress is None:
            return
        self._files[0] += 1
        self._files[2] += sum(i.bytes for i in self.inputs[before:])
        self.progress(*self._files)

    def add_file(self, path: str, label: str, node: Optional[str] = None, place: Optional[str] = None) -> None:
        """`label`: how the report names the file; `place`: the path its kind, rank and pid are read from (default
        the label). A node summary or ascend-fd's parse output given as a file is merged (`_add_json`)."""
        place = place or label
        kind, pid = layout.classify(place)
        if kind not in ("plog", "device") and self._add_json(path, label, node, explicit=True):
            return
        node = self.node or node or layout.node_of_file(path)
        info = InputInfo(label, rank_of(place), node=node, kind=kind, pid=pid)
        try:
            fh = open(path, "rb")
        except FileNotFoundError:
            self._skip(info, _("no such file"))
            return
        except PermissionError:
            self._skip(info, _("cannot read: permission denied"))
            return
        except OSError as exc:
            self._skip(info, _("cannot read: {reason}").format(reason=exc.strerror or exc))
            return
        # a node is one the logs read belong to: a missing or unreadable input names none
        if node not in self.nodes:
            self.nodes.append(node)
        known = self.processes.get((node, pid)) if pid else None  # read from ascend-fd's parse output: no evidence
        if pid and kind in ("plog", "device") and self.root_cause and not (known and known.peer_parse):
            from .events import ProcessLog  # CANN process logs only (the root-cause analysis): imported when one is read

            info.process = self.processes.setdefault((node, pid), ProcessLog(node, pid))
            info.process.files.append(label)
            if node not in self.nodes_with_plog:
                self.nodes_with_plog.append(node)
        with fh:
            try:
                size = os.fstat(fh.fileno()).st_size
                head = fh.read(2)
                fh.seek(0)
            except OSError:
                size, head = 0, b""
            workers = min(os.cpu_count() or 1, PARALLEL_MAX_WORKERS)
            if size >= PARALLEL_MIN_BYTES and workers > 1 and head != GZIP_MAGIC and self._parallel_ok():
                self._scan_file_parallel(path, size, info, workers)
                return
            self._scan_file_object(fh, info)

    # ---- big files: byte ranges on several cores ----
    @staticmethod
    def _parallel_ok() -> bool:
        from ..process import fork_is_safe

        return fork_is_safe()

    def _scan_file_parallel(self, path: str, size: int, info: InputInfo, workers: int) -> None:
        """Split at line boundaries; this process scans the first range while forked children scan the others
        (os.fork and a pipe each: no process pool to start, the scanner inherited); merge in range order."""
        bounds = [0]
        with open(path, "rb") as fh:
            for k in range(1, workers):
                fh.seek(size * k // workers)
                fh.readline()  # finish the line the cut fell into
                bounds.append(max(fh.tell(), bounds[-1]))
        bounds.append(size)
        with fh_head(path) as head:
            if b"\x00" in head:
                self._add_input(info)
                info.scanned, info.note = False, _("binary data, not a text log: skipped")
                return
        self._add_input(info)
        ranges = [(bounds[k], bounds[k + 1]) for k in range(workers) if bounds[k + 1] > bounds[k]]
        jobs = [(path, a, b, info.label, info.rank, info.process is not None) for a, b in ranges]
        global _WORKER_TRIAGE
        _WORKER_TRIAGE = self
        children: list = []
        try:
            children = _fork_scans(jobs[1:])
            reader = _RangeReader(path, *ranges[0])  # the first range here, straight into this Triage
            try:
                self._scan_stream(io.BufferedReader(reader, CHUNK_BYTES), info)
            finally:
                reader.close()
            self._merge_parts(_child_results(children), info)
        finally:
            _WORKER_TRIAGE = None
            _stop(children)

    def _merge_parts(self, parts: Iterable[dict], info: InputInfo) -> None:
        """The other ranges' results, in range order, after the first range's."""
        lines_before = info.lines
        base = info.order * 10 ** 12  # an occurrence's seq is base + its line (see _occurrence)
        for part in parts:
            def shift(o):
                return self._occurrence(info, o[0] + lines_before, o[1])

            for idx, count, first, last, text, ranks, peers, peer_lines in part["hits"]:
                p = self.problems.get(self.sigs[idx].id) if idx not in self._resolvers and ranks else None
                if p is None:
                    self._merge(idx, count, shift(first), shift(last), text, {k: shift(v) for k, v in ranks.items()})
                    p = self.problems.get(self.sigs[idx].id) if idx not in self._resolvers else None
                    if p is not None:
                        _fold_peers(p, peers, peer_lines)
                    continue
                _fold_peers(p, peers, peer_lines)
                # _merge for a problem seen before, an Occurrence made only where one is kept
                p.count += count
                occ = shift(last)
                if later(occ, p.last):
                    p.last = occ
                if (first[1] or "9999", base + lines_before + first[0]) < _order_key(p.first):
                    p.first, p.text = shift(first), self._show(text)
                for key, o in ranks.items():
                    seen = p.ranks.get(key)
                    if seen is None or (o[1] or "9999", base + lines_before + o[0]) < _order_key(seen):
                        p.ranks[key] = shift(o)
            if info.process is not None:
                for n, line in part["evidence"]:
                    info.process.feed_bytes(line, info.label, n + lines_before)
            info.hits += part["hits_lines"]
            self._errors.merge(part["errors"], info, lines_before)
            if part["note"] and not info.note:
                info.note = part["note"]
            lines_before += part["lines"]
            info.bytes += part["bytes"]
        info.lines = lines_before

    def add_bundle(self, host, node: Optional[str] = None) -> int:
        """The logs a collected snapshot holds (collect --logs), read as `triage DIR` reads the directory they were
        collected from (DIR: the directory holding them all): the same files in the same order, each named by its
        path on the machine it was collected on, its kind and rank read from its place under DIR, its node named as
        `triage DIR` names it (the host the bundle was collected on where no directory tells), or `node`.
        Returns how many logs it held."""
        logs = [e for e in host.manifest.get("logs") or [] if isinstance(e, dict) and e.get("path")]
        if not logs:
            return 0
        # named by the file it was read from (`source`: a .gz was stored unpacked under `path`)
        stored = {str(e.get("source") or e["path"]): str(e["path"]) for e in logs}
        entries = list(stored)
        top = os.path.commonpath([os.path.dirname(p) for p in entries]) if len(entries) > 1 \
            else os.path.dirname(entries[0])
        # named as `triage DIR` names it (layout.walk: DIR's name, or the first telling directory above it); where
        # no directory tells (it would say "localhost"), the host the bundle was collected on
        named = os.path.basename(top) if top and not layout.is_structural(os.path.basename(top)) else \
            layout.node_of_file(os.path.join(top, "-"))
        name = node or self.node or (named if named != "localhost" else
                                     str(host.manifest.get("hostname") or "localhost"))
        base = os.path.dirname(top) or "/"
        rels = [os.path.relpath(p, top) for p in entries]
        own = [r for r in rels if os.sep not in r]
        firsts = sorted({r.split(os.sep)[0] for r in rels if os.sep in r})
        nodes = None if any(layout.name_says_log(r) is not False for r in own) or node or self.node else \
            [d for d in firsts if not layout.is_structural(d)] or None

        def walk_order(rel: str):  # os.walk's order: a directory's files, then its sub-directories, by name
            parts = rel.split(os.sep)
            return [(1, d) for d in parts[:-1]] + [(0, parts[-1])]

        for original, rel in sorted(zip(entries, rels), key=lambda pr: walk_order(pr[1])):
            local = host.local_path(stored[original])
            if local is None:
                continue
            first = rel.split(os.sep)[0]
            owner = first if nodes and first in nodes else name
            says = layout.name_says_log(os.path.basename(original))
            if not (says if says is not None else layout.content_says_log(local)):  # as add_path's walk does
                if not self._add_json(local, original, owner, explicit=False):
                    self._add_input(InputInfo(original, scanned=False, note=NOT_A_LOG, node=owner))
                continue
            self.add_file(local, original, owner, os.path.relpath(original, base))
        return len(entries)

    # ---- node summaries (and other JSON) ----
    def _add_json(self, path: str, label: str, node: Optional[str], explicit: bool) -> bool:
        """A node summary (recognised by its first bytes) is merged; another JSON file given by name is named
        and skipped. False: not JSON (or, found in a directory, not ours): the caller goes on."""
        from . import peer_parse, summary

        if peer_parse.is_rc_parser(os.path.basename(path)):
            self.add_peer_parse(path, label, node)
            return True
        try:
            with open(path, "rb") as fh:
                head = fh.read(64)
        except OSError:
            return False
        kind = summary.sniff(head)
        if kind is None:
            return False
        if kind == "json":  # recognised in a directory by its first bytes only; a JSON file named is read whole
            if not explicit or not path.endswith(".json"):  # (JSON-lines logs start with '{' too)
                return False
            schema = summary.foreign_schema(path)
            if schema != summary.NODE_SCHEMA:
                note = (_(summary.TORN).format(reason=_("invalid JSON")) if schema is None
                        else _(summary.FOREIGN).format(schema=schema))
                self._skip(InputInfo(label, node=self.node or node), note)
                return True
        self.add_summary(path, label)
        return True

    def add_summary(self, path: str, label: Optional[str] = None) -> None:
        """Fold a node summary in, as if that node's logs were read here, after the inputs read so far."""
        from . import summary

        label = label or path
        if self._signatures_by_id is None:
            self._signatures_by_id = {s.id: s for s in self.sigs}
        try:
            data = summary.read(path)
            state, unknown = summary.decode_state(data, self._signatures_by_id)
        except summary.SummaryError as exc:
            self._skip(InputInfo(label), _(summary.TORN).format(reason=exc))
            return
        warnings = []
        ours = self._kb_version = self._kb_version or summary.kb_version(self.kb)
        if data.get("kb") != ours:
            warnings.append(_(summary.OTHER_KB).format(file=label, theirs=data.get("kb"), ours=ours))
        warnings += [_(summary.UNKNOWN_SIGNATURE).format(file=label, id=sid) for sid in unknown]
        offset = len(self.inputs)
        shift = offset * 10 ** 12  # an occurrence's seq is its input's order * 10**12 + its line (_occurrence)

        def moved(o: Optional[Occurrence]) -> Optional[Occurrence]:
            if o is not None:
                o.seq += shift
            return o

        for info in state.get("inputs", []):
            self._add_input(info)
        for p in state.get("problems", {}).values():
            for o in (p.first, p.last, p.resolved_by, *p.ranks.values()):
                moved(o)
            self._merge_problem(p)
        for sid, occ in state.get("_resolver_last", {}).items():
            moved(occ)
            if sid not in self._resolver_last or later(occ, self._resolver_last[sid]):
                self._resolver_last[sid] = occ
        self._errors.absorb(state["_errors"])
        for proc in state.get("processes", []):
            key = (proc.node, proc.pid)
            if key in self.processes:
                warnings.append(_("{file}: process {pid} of {node} was already read (another summary or its raw "
                                  "log); this one is skipped").format(file=label, pid=proc.pid, node=proc.node))
                continue
            self.processes[key] = proc
        for name in ("nodes", "nodes_with_plog"):
            mine = getattr(self, name)
            seen = set(mine)
            mine += [n for n in state.get(name, []) if n not in seen]
        self.summaries.append({"file": label, "node": data.get("node"), "tool": data.get("tool"),
                               "kb": data.get("kb"), "warnings": warnings})

    def add_peer_parse(self, path: str, label: str, node: Optional[str] = None) -> None:
        """ascend-fd's root-cluster parse output of one node (`ascend-rc-parser.json`): its processes as evidence
        (a plog of the same process read after it adds its problems, not its evidence a second time)."""
        from . import peer_parse

        node = self.node or node or layout.node_of_file(path)
        info = InputInfo(label, node=node, kind="plog")
        try:
            data = peer_parse.read(path)
        except peer_parse.PeerParseError as exc:
            self._skip(info, _("not readable as ascend-fd parse output ({reason}): skipped").format(reason=exc))
            return
        try:
            info.bytes = os.path.getsize(path)
        except OSError:
            pass
        info.lines = len(data)
        self._add_input(info)
        for name in ("nodes", "nodes_with_plog"):
            if node not in getattr(self, name):
                getattr(self, name).append(node)
        if not self.root_cause:
            return
        for proc in peer_parse.processes(data, node, label):
            self.processes.setdefault((node, proc.pid), proc)

    def _merge_problem(self, p: Problem) -> None:
        """A problem another scan accumulated (its occurrences already in this scan's order), as _merge folds
        a hit."""
        q = self.problems.get(p.signature.id)
        if q is None:
            self.problems[p.signature.id] = p
            return
        q.count += p.count
        if later(p.last, q.last):
            q.last = p.last
        if _order_key(p.first) < _order_key(q.first):
            q.first, q.text = p.first, p.text
        _fold_peers(q, p.peers.items(), p.peer_lines)
        for key, occ in p.ranks.items():
            if key not in q.ranks or _order_key(occ) < _order_key(q.ranks[key]):
                q.ranks[key] = occ

    def add_stream(self, fh: BinaryIO, label: str, rank: Optional[str]) -> None:
        self._scan_file_object(fh, InputInfo(label, rank, node=self.node))

    def _skip(self, info: InputInfo, why: str) -> None:
        info.scanned = False
        info.note = why
        self._add_input(info)

    def _scan_file_object(self, fh: BinaryIO, info: InputInfo) -> None:
        self._add_input(info)
        raw = fh if isinstance(fh, io.BufferedReader) else io.BufferedReader(fh)  # type: ignore[arg-type]
        try:
            head = raw.peek(8192)[:8192]
        except OSError as exc:
            info.scanned, info.note = False, _("cannot read: {reason}").format(reason=exc.strerror or exc)
            return
        stream: BinaryIO = raw
        if head.startswith(GZIP_MAGIC):
            import gzip

            stream = gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[assignment]
            try:
                head = stream.peek(8192)[:8192]  # type: ignore[attr-defined]
            except (OSError, EOFError, zlib.error) as exc:
                info.scanned, info.note = False, _("not a valid gzip file ({reason})").format(reason=exc)
                return
        if b"\x00" in head:
            info.scanned, info.note = False, _("binary data, not a text log: skipped")
            return
        try:
            self._scan_stream(stream, info)
        except (OSError, EOFError, zlib.error) as exc:
            info.note = _("read stopped after {bytes} bytes ({reason}); the part before was scanned").format(
                bytes=info.bytes, reason=exc)

    # ---- the streaming loop ----
    def _scan_stream(self, stream: BinaryIO, info: InputInfo) -> None:
        carry = b""
        lines_done = 0  # complete lines before `carry`
        long_line_reported = False
        seen_on_line: Dict[int, int] = {}  # signature index -> line number already counted (long-line pieces)
        while True:
            data = stream.read(CHUNK_BYTES)
            if not data:
                break
            info.bytes += len(data)
            buf, start = data, 0
            if carry:
                nl = data.find(b"\n")
                if nl >= 0:  # the line cut at the last chunk's end, joined on its own (no copy of the chunk)
                    line = carry + data[:nl]
                    self._scan_region(line, 0, len(line), lines_done, info, seen_on_line)
                    lines_done += 1
                    carry, start = b"", nl + 1
                    seen_on_line = {k: v for k, v in seen_on_line.items() if v > lines_done}
                else:
                    buf = carry + data
            last_nl = buf.rfind(b"\n", start)
            if last_nl < 0:
                buf = buf[start:] if start else buf
                # no newline yet: a very long line; scan it in pieces, keep an overlap
                if len(buf) > MAX_LINE_BYTES:
                    if not long_line_reported:
                        info.note = _("line {line} is longer than {mib} MiB; scanned in pieces").format(
                            line=lines_done + 1, mib=MAX_LINE_BYTES >> 20)
                        long_line_reported = True
                    self._scan_region(buf, 0, len(buf), lines_done, info, seen_on_line, long_piece=True)
                    carry = buf[-LONG_LINE_OVERLAP:]
                else:
                    carry = buf
                continue
            cursor, lines_done = self._scan_region(buf, start, last_nl, lines_done, info, seen_on_line)
            lines_done += buf.count(b"\n", cursor, last_nl + 1)  # the newlines after the last hit
            carry = buf[last_nl + 1:]
            seen_on_line = {k: v for k, v in seen_on_line.items() if v > lines_done}
        if carry:
            self._scan_region(carry, 0, len(carry), lines_done, info, seen_on_line)
            lines_done += 1
        info.lines = lines_done

    def _scan_region(self, buf: bytes, start: int, end: int, lines_before: int, info: InputInfo,
                     seen_on_line: Dict[int, int], long_piece: bool = False) -> Tuple[int, int]:
        """Record the hits of buf[start:end]; returns (offset, complete lines before it): how far the line
        count got (the last hit's line start), so the caller counts only the newlines after it."""
        cursor, line_no = start, lines_before + 1
        any_hit = False
        for ls, le, hits in self.scanner.scan(buf, start, end):
            if not long_piece:
                line_no += buf.count(b"\n", cursor, ls)
                cursor = ls
            line = buf[ls:le]
            if hits[-1] == self._error_idx:  # the last: indexes come sorted and the error pattern is the last one
                hits = hits[:-1]
                if (not hits or all(i in self._resolvers for i in hits)) and not _OTHER_LEVEL.match(line):
                    if not seen_on_line.get(self._error_idx) == line_no:
                        seen_on_line[self._error_idx] = line_no
                        self._errors.add(line, info, line_no)
                    if not hits:
                        continue
            if len(hits) > 1 and self._wrappers:
                hits = [i for i in hits if i not in self._wrappers] or hits
            for idx in hits:
                if seen_on_line.get(idx) == line_no:
                    continue
                seen_on_line[idx] = line_no
                self._record(idx, line, line_no, info)
                any_hit = True
        reached = (cursor, line_no - 1)
        proc = info.process
        if proc is not None and not long_piece:  # a CANN process log: its HCCL evidence lines, in order
            cursor, line_no = start, lines_before + 1
            from .events import evidence_lines

            for ls, le in evidence_lines(buf, start, end):
                line_no += buf.count(b"\n", cursor, ls)
                cursor = ls
                self._evidence(proc, buf[ls:le], line_no, info)
            if cursor > reached[0]:
                reached = (cursor, line_no - 1)
        if any_hit:
            info.hits += 1
        return reached

    def _evidence(self, proc: "ProcessLog", line: bytes, line_no: int, info: InputInfo) -> None:
        if info.evidence is not None:  # a forked worker: the parent feeds the lines, in order
            from .events import worth_forwarding

            if worth_forwarding(line, info.forwarded):
                info.evidence.append((line_no, line))
            return
        proc.feed_bytes(line, info.label, line_no)

    def _occurrence(self, info: InputInfo, line_no: int, time: Optional[str]) -> Occurrence:
        # discovery order = input order, then line order (also right when ranges were scanned in parallel)
        return Occurrence(info.label, line_no, info.rank, time, info.order * 10 ** 12 + line_no,
                          node=info.node, pid=info.pid if info.process is not None else None)

    def _record(self, idx: int, line: bytes, line_no: int, info: InputInfo) -> None:
        occ = self._occurrence(info, line_no, _timestamp(line))
        if idx not in self._resolvers:  # a problem seen before, this hit neither its first nor its rank's: _merge, short
            sig = self.sigs[idx]
            p = self.problems.get(sig.id)
            if sig.ascend_fd and (p is None or p.peer_lines < PEER_LINES):
                if p is None:
                    self._merge(idx, 1, occ, occ, _text(line))
                    self._peers(self.problems[sig.id], line)
                    return
                self._peers(p, line)
            if p is not None:
                k, seen = _order_key(occ), p.ranks.get(occ.rank or occ.file)
                if seen is not None and not k < _order_key(p.first) and not k < _order_key(seen):
                    p.count += 1
                    if later(occ, p.last):
                        p.last = occ
                    return
        self._merge(idx, 1, occ, occ, _text(line))

    @staticmethod
    def _peers(p: Problem, line: bytes) -> None:
        """The ascend-fd ids this matched line supports (kb.peers.peer_ids), on a problem's first PEER_LINES lines."""
        p.peer_lines += 1
        todo = [f for f in p.signature.ascend_fd if f not in p.peers or fd_names_code(f)]
        if not todo:  # every id seen, none names a code that could differ on a later line
            p.peer_lines = PEER_LINES
            return
        for fid in peer_ids(p.signature, [line.decode("utf-8", "replace")], todo):
            p.peers.setdefault(fid, p.peer_lines - 1)

    def _merge(self, idx: int, count: int, first: Occurrence, last: Occurrence, text: str,
               ranks: Optional[Dict[str, Occurrence]] = None) -> None:
        if idx in self._resolvers:
            sid = self._resolvers[idx].id
            if sid not in self._resolver_last or later(last, self._resolver_last[sid]):
                self._resolver_last[sid] = last
            return
        sig = self.sigs[idx]
        p = self.problems.get(sig.id)
        if p is None:
            p = self.problems[sig.id] = Problem(sig, 0, first, last, self._show(text))
        p.count += count
        if later(last, p.last):
            p.last = last
        if _order_key(first) < _order_key(p.first):
            p.first, p.text = first, self._show(text)
        for key, occ in (ranks or {first.rank or first.file: first}).items():
            if key not in p.ranks or _order_key(occ) < _order_key(p.ranks[key]):
                p.ranks[key] = occ

    # ---- result ----
    def result(self) -> TriageResult:
        for sid, occ in self._resolver_last.items():
            p = self.problems.get(sid)
            if p is not None:
                p.resolved_by = occ if occ.seq != p.last.seq and later(occ, p.last) else None
        problems = order_problems(self.problems.values())
        unexplained = self._errors.listed(self._show)
        last = self._errors.last(self._show)
        result = TriageResult(problems, self.inputs, [] if problems else last, unexplained=unexplained,
                              unexplained_total=len(self._errors.seen) + self._errors.overflow,
                              unexplained_lines=self._errors.lines, summaries=self.summaries)
        if self.root_cause and self.processes:
            attach_root_cause(result, self.processes, self.nodes, self.nodes_with_plog)
        elif self.root_cause and len(self.nodes) > 1:
            attach_root_cause(result, {}, self.nodes, self.nodes_with_plog)
        return result


def _fold_peers(q: Problem, peers: Iterable[Tuple[str, int]], lines: int) -> None:
    """Another scan's ascend-fd ids of q's signature (a later range of a big file, a node summary: (id, the matched
    line it was first seen on), and how many matched lines it checked), read after q's lines: an id counts when
    it was seen within the first PEER_LINES matched lines of them all, as when one scan reads them in order."""
    room = PEER_LINES - q.peer_lines
    if room <= 0:
        return
    for fid, at in peers:
        if at < room:
            q.peers.setdefault(fid, q.peer_lines + at)
    q.peer_lines = min(PEER_LINES, q.peer_lines + lines)


PARALLEL_MIN_BYTES = 64 << 20
PARALLEL_MAX_WORKERS = 8
_WORKER_TRIAGE: Optional[Triage] = None  # the parent's Triage, inherited by forked workers


class fh_head:
    def __init__(self, path: str):
        self.path = path

    def __enter__(self) -> bytes:
        with open(self.path, "rb") as fh:
            return fh.read(8192)

    def __exit__(self, *exc) -> None:
        return None


class _RangeReader(io.RawIOBase):
    """A file seen only between two offsets (a worker's share)."""

    def __init__(self, path: str, start: int, end: int):
        self.fh = open(path, "rb")
        self.fh.seek(start)
        self.left = end - start

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        if self.left <= 0:
            return 0
        n = self.fh.readinto(memoryview(b)[: min(len(b), self.left)])
        self.left -= n or 0
        return n or 0

    def close(self) -> None:
        self.fh.close()
        super().close()


def _scan_range_worker(job) -> dict:
    path, start, end, label, rank, evidence = job
    parent = _WORKER_TRIAGE
    t = Triage(parent.kb) if parent is None else _fresh_like(parent)
    info = InputInfo(label, rank)
    if evidence:  # collect the evidence lines for the parent, which feeds them in file order
        from .events import ProcessLog

        info.process = ProcessLog("", "")
        info.evidence, info.forwarded = [], set()
    t.inputs.append(info)
    reader = _RangeReader(path, start, end)
    try:
        t._scan_stream(io.BufferedReader(reader, CHUNK_BYTES), info)
    finally:
        reader.close()
    hits = []
    index = {s.id: i for i, s in enumerate(t.sigs)}
    for sid, p in t.problems.items():
        idx = index[sid]
        hits.append((idx, p.count, (p.first.line, p.first.time), (p.last.line, p.last.time), p.text,
                     {k: (o.line, o.time) for k, o in p.ranks.items()}, list(p.peers.items()), p.peer_lines))
    for sid, occ in t._resolver_last.items():
        idx = next(i for i in t._resolvers if t._resolvers[i].id == sid)
        hits.append((idx, 1, (occ.line, occ.time), (occ.line, occ.time), "", {}, [], 0))
    return {"hits": hits, "lines": info.lines, "bytes": info.bytes, "note": info.note,
            "errors": t._errors.to_part(), "evidence": info.evidence or [], "hits_lines": info.hits}


def _fork_scans(jobs: list) -> list:
    """A forked child per job, scanning it (_scan_range_worker) and sending the result as JSON through a
    pipe: [(pid, read end, job)]."""
    children = []
    try:
        for job in jobs:
            r, w = os.pipe()
            code = 1  # bound before the fork: the child's `finally` must reach os._exit whatever interrupts it
            pid = os.fork()
            if pid == 0:  # the child: scan, send, leave without running the parent's exit handlers or flushing its buffers
                try:
                    os.close(r)
                    data = memoryview(_part_to_json(_scan_range_worker(job)))
                    while data:
                        data = data[os.write(w, data):]
                    os.close(w)  # the parent reads the end now, not once this process is torn down
                    code = 0
                finally:
                    os._exit(code)
            os.close(w)
            children.append((pid, r, job))
    except BaseException:
        _stop(children)
        raise
    return children


def _child_results(children: list) -> Iterator[dict]:
    """Each child's result in order (each taken off the list as it is read); a child that failed (killed, out
    of memory: its result missing or cut short) has its range scanned here. The children are reaped at the
    end: a child closes its pipe before exiting, so its exit (unmapping its memory) is not waited for."""
    sent = []
    try:
        while children:
            pid, r, job = children.pop(0)
            try:
                with os.fdopen(r, "rb") as fh:
                    data = b"".join(iter(lambda: fh.read(1 << 20), b""))
            except BaseException:  # interrupted while reading: stop that child too
                _stop([(pid, -1, job)])
                raise
            sent.append(pid)
            part = None
            try:
                part = _part_from_json(data) if data else None  # a result cut short does not load
            except (ValueError, TypeError, KeyError):
                part = None
            yield part if isinstance(part, dict) else _scan_range_worker(job)
    finally:
        for pid in sent:
            try:
                os.waitpid(pid, 0)
            except OSError:
                pass


def _part_to_json(part: dict) -> bytes:
    """A range's result for the pipe (JSON: nothing that can run code is deserialised; tuples come back as lists,
    which the merge reads alike; the evidence lines' bytes travel as latin-1, byte for byte)."""
    import json

    part = dict(part, evidence=[(n, line.decode("latin-1")) for n, line in part["evidence"]])
    return json.dumps(part, check_circular=False, separators=(",", ":")).encode("ascii")  # \u escapes: any str


def _part_from_json(data: bytes) -> dict:
    import json

    part = json.loads(data.decode("ascii"))
    part["evidence"] = [(n, line.encode("latin-1")) for n, line in part["evidence"]]
    return part


def _stop(children: list) -> None:
    """Stop and reap the children left (an interruption, an error): only ours, by pid."""
    for pid, r, _job in children:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except OSError:
            pass
        if r >= 0:
            try:
                os.close(r)
            except OSError:
                pass
    children.clear()


def _fresh_like(parent: Triage) -> Triage:
    """A Triage sharing the parent's compiled scanner (inherited through fork, nothing recompiled)."""
    t = Triage.__new__(Triage)
    t.kb, t.scanner, t.sigs, t._resolvers = parent.kb, parent.scanner, parent.sigs, parent._resolvers
    t._wrappers = parent._wrappers
    t.node, t.root_cause = parent.node, parent.root_cause
    t._error_idx = parent._error_idx
    t.problems, t.inputs, t._resolver_last, t._errors = {}, [], {}, Unexplained()
    t.processes, t.nodes, t.nodes_with_plog, t.summaries = {}, [], [], []
    t.progress, t._files, t._signatures_by_id, t._kb_version = None, [0, 0, 0], None, None
    t._show = str  # the parent redacts the texts it keeps (_merge), once
    return t


def triage_paths(paths: Iterable[str], kb: Optional[KnowledgeBase] = None, node: Optional[str] = None) -> TriageResult:
    t = Triage(kb, node=node)
    for p in paths:
        t.add_path(p)
    return t.result()
