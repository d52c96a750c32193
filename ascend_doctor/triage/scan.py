"""Read logs (files, directories, .gz, stdin) and name the known problems in them.

Streaming: files are read in fixed-size chunks; only complete lines are scanned
and the partial last line is carried to the next chunk. A line longer than
MAX_LINE_BYTES (a 2 GB line without a newline) is scanned in pieces with an
overlap, so memory stays bounded by CHUNK_BYTES + MAX_LINE_BYTES whatever the input.

Matching uses the knowledge base's scanner (one prefilter over whole chunks,
per-signature regexes only on lines that contain an anchor).

Beside it: `lines` (a line's time and shown text, the unexplained error lines), `parallel` (a big file's byte
ranges on several cores), `summary` and `peer_parse` (node summaries and ascend-fd's parse output, folded in
as if their logs were read here), `events` (a CANN process's HCCL evidence).
"""

from __future__ import annotations

import io
import os
import re
import sys
import zlib
from typing import TYPE_CHECKING, BinaryIO, Callable, Dict, Iterable, List, Optional, Tuple

from ..i18n import N_, _
from ..i18n_text import Text
from ..kb.load import load_knowledge_base
from ..kb.model import KnowledgeBase, Signature, yield_to_specific
from ..kb.peers import fd_names_code, peer_ids
from .match.source import EXCEPTION, is_source_line, line_shape
from . import layout
from .result import (NOT_A_LOG, InputInfo, Occurrence, Problem, TriageResult, attach_root_cause, later,
                     order_key as _order_key, order_problems)
from .lines import (ERROR_LINE, SHOW_LINE_CHARS, UNEXPLAINED_KEEP, Unexplained, _OTHER_LEVEL,  # noqa: F401
                    _forget_redactor, _shown, _text, _timestamp)

if TYPE_CHECKING:  # pragma: no cover
    from .events import ProcessLog

CHUNK_BYTES = 1 << 20  # fits a core's L2 cache: Hyperscan, the newline count and the line slices read it while it is warm
MAX_LINE_BYTES = 1 << 20
LONG_LINE_OVERLAP = 4 << 10  # a signature cut at a piece boundary is still whole in the overlap
# A matched line's plan (Triage._line_plan) is kept for lines up to _PLAN_LINE_MAX bytes, ~_PLAN_BYTES of them.
_PLAN_LINE_MAX = 2048
# a Python traceback's chain line, and how far apart (lines) an exception, its chain line and the next exception may be
CHAIN_LINE = (r"^(?:.{0,200}?\] ?)?(?:The above exception was the direct cause of the following exception:|"
              r"During handling of the above exception, another exception occurred:)\s*$")
_CHAIN_GAP = 400
_PLAN_BYTES = 4 << 20
PEER_LINES = 8  # a problem's ascend-fd ids are read from its first matched lines (each input range's, in parallel)
# a traceback frame's exception (Signature.exception_under) comes within this many lines of the frame: the `raise`
# line of code and Python 3.11+'s `^^^` markers between
_FRAME_GAP = 4

# Where a rank / device / process shows in a log's path (msrun, CANN plog, device logs).
_RANK_FROM_PATH = [
    (re.compile(r"worker_(\d+)\.log"), "rank {}"),
    (re.compile(r"(?:^|[/_.-])rank[_-]?(\d+)(?:$|[/_.-])", re.I), "rank {}"),
    (re.compile(r"(?:^|/)device-(\d+)(?:$|/)"), "device {}"),
    (re.compile(r"plog-(\d+)"), "pid {}"),
]
GZIP_MAGIC = b"\x1f\x8b"


def rank_of(path: str) -> Optional[str]:
    for rx, fmt in _RANK_FROM_PATH:
        found = rx.findall(path)
        if found:
            return fmt.format(int(found[-1]))
    return None


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
        # a Python traceback's chain line (`The above exception was the direct cause ...`) rides in the scanner too:
        # the exception before it became the one after it (_chain)
        self._chain_idx = len(sigs)
        sigs.append(Signature(id="~chain", pattern=CHAIN_LINE, regex=True, component="python", severity="info",
                              cause="", fix=[]))
        self._error_idx = len(sigs)  # the error-line pattern rides in the scanner too
        sigs.append(Signature(id="~error-line", pattern=ERROR_LINE, regex=True, component="os", severity="info",
                              cause="", fix=[]))
        from .match.scanner import Scanner

        self.scanner = Scanner(sigs, head=(len(self.kb.signatures), self.kb.match_digest))
        self.sigs = sigs
        # A generic wrapper (CANN_DRV_ERROR_CODE_REPORTED names any CANN error code) on a line that a specific
        # signature explains is not a problem of its own: the line's cause is the specific one.
        self._wrappers = {i for i, s in enumerate(sigs) if s.kind == "wrapper"}
        # A class entry (fallback: a CANN API or a module-failure code named by the line's structure) gives way,
        # on its line, to a specific entry; a wrapper gives way to both.
        self._yielding = self._wrappers | {i for i, s in enumerate(sigs) if s.fallback}
        # a class entry of last resort (it only restates a code and its sentence) gives way to the other class entries
        self._last = {i for i, s in enumerate(sigs) if s.last_resort}
        # A Python traceback's source line names a call, not an event: only the entries that read code match it
        self._code_readers = {i for i, s in enumerate(sigs) if s.code_line}
        # A frame whose exception it reads (Signature.exception_under): the exception line under it is its alone
        self._frames = {i: [re.compile(p) for p in s.exception_under] for i, s in enumerate(sigs) if s.exception_under}
        self._start(_shown)
        _forget_redactor()

    def _start(self, show: Callable[[str], str]) -> None:
        """The state of a scan, empty: all that a scan changes (a Triage is its compiled signatures, above, and this).
        `show` makes a kept line's text as the report shows it (redacted; a forked worker leaves that to its parent:
        parallel._fresh_like)."""
        self._chain: Optional[tuple] = None  # see _chain_step
        self._frame: Optional[tuple] = None  # see _frame_step
        self._plans: Dict[bytes, Tuple[Tuple[int, ...], int, Optional[str], Optional[tuple]]] = {}  # see _line_plan
        self._plans_bytes = 0
        self._pending: Dict[str, Tuple[Optional[str], int, int]] = {}  # sid -> its last hit not yet made (_record)
        self.problems: Dict[str, Problem] = {}
        self.inputs: List[InputInfo] = []
        self._resolver_last: Dict[str, Occurrence] = {}
        self._errors = Unexplained()
        self.processes: Dict[Tuple[str, str], "ProcessLog"] = {}
        self.nodes: List[str] = []
        self.nodes_with_plog: List[str] = []
        self._node_sets: Dict[str, set] = {"nodes": set(), "nodes_with_plog": set()}  # the lists' members
        self.summaries: List[dict] = []  # the node summaries merged: file, node, tool, kb, warnings
        # called after each file with (files done, files known so far, bytes read): the command's progress line
        self.progress: Optional[Callable[[int, int, int], None]] = None
        self._files = [0, 0, 0]  # done, total, bytes
        self._signatures_by_id: Optional[Dict[str, Signature]] = None  # for merging summaries (made on first use)
        self._kb_version: Optional[str] = None
        self._show = show

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
                self._add_input(InputInfo(label or path, scanned=False, note=Text(N_("empty directory"))))
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
            self._skip(info, Text(N_("no such file")))
            return
        except PermissionError:
            self._skip(info, Text(N_("cannot read: permission denied")))
            return
        except OSError as exc:
            self._skip(info, Text(N_("cannot read: {reason}"), reason=str(exc.strerror or exc)))
            return
        # a node is one the logs read belong to: a missing or unreadable input names none
        self._note_node("nodes", node)
        known = self.processes.get((node, pid)) if pid else None  # read from ascend-fd's parse output: no evidence
        if pid and kind in ("plog", "device") and self.root_cause and not (known and known.peer_parse):
            from .events import ProcessLog  # CANN process logs only (the root-cause analysis): imported when one is read

            info.process = self.processes.setdefault((node, pid), ProcessLog(node, pid))
            info.process.files.append(label)
            self._note_node("nodes_with_plog", node)
        with fh:
            try:
                size = os.fstat(fh.fileno()).st_size
                head = fh.read(2)
                fh.seek(0)
            except OSError:
                size, head = 0, b""
            workers = min(os.cpu_count() or 1, PARALLEL_MAX_WORKERS)
            if size >= PARALLEL_MIN_BYTES and workers > 1 and head != GZIP_MAGIC:
                from . import parallel

                if parallel.fork_ok():
                    parallel.scan_file(self, path, size, info, workers)
                    return
            self._scan_file_object(fh, info)

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
        from . import summary

        if path.endswith(".json"):  # (peer_parse imports the evidence parser: not for every log file's start-up)
            from . import peer_parse

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
                note = (Text(summary.TORN, reason=Text(N_("invalid JSON"))) if schema is None
                        else Text(summary.FOREIGN, schema=schema))
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
            self._skip(InputInfo(label), Text(summary.TORN, reason=str(exc)))
            return
        warnings = []
        ours = self._kb_version = self._kb_version or summary.kb_version(self.kb)
        if data.get("kb") != ours:  # the warnings are messages, worded where shown (stderr, the JSON's "summaries")
            warnings.append(Text(summary.OTHER_KB, file=label, theirs=data.get("kb"), ours=ours))
        warnings += [Text(summary.UNKNOWN_SIGNATURE, file=label, id=sid) for sid in unknown]
        offset = len(self.inputs)
        shift = offset * 10 ** 12  # an occurrence's seq is its input's order * 10**12 + its line (_occurrence)

        def moved(o: Optional[Occurrence]) -> Optional[Occurrence]:
            if o is not None:
                o.seq += shift
            return o

        for info in state.get("inputs", []):
            self._add_input(info)
        for p in state.get("problems", {}).values():
            for o in (p.first, p.last, p.resolved_by, p.at, *p.ranks.values()):
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
                warnings.append(Text(N_("{file}: process {pid} of {node} was already read (another summary or its "
                                        "raw log); this one is skipped"), file=label, pid=proc.pid, node=proc.node))
                continue
            self.processes[key] = proc
        for name in ("nodes", "nodes_with_plog"):
            for n in state.get(name, []):
                self._note_node(name, n)
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
            self._skip(info, Text(N_("not readable as ascend-fd parse output ({reason}): skipped"), reason=str(exc)))
            return
        try:
            info.bytes = os.path.getsize(path)
        except OSError:
            pass
        info.lines = len(data)
        self._add_input(info)
        for name in ("nodes", "nodes_with_plog"):
            self._note_node(name, node)
        if not self.root_cause:
            return
        for proc in peer_parse.processes(data, node, label):
            self.processes.setdefault((node, proc.pid), proc)

    def _note_node(self, which: str, node: str) -> None:
        """`node` added to the list `which` ("nodes", "nodes_with_plog") unless it holds it (a set answers: a list's
        `in` made 4,096 nodes' files quadratic)."""
        seen = self._node_sets[which]
        if node not in seen:
            seen.add(node)
            getattr(self, which).append(node)

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
        q.take(p.first, p.text, p.marked, at=p.at)
        q.became = q.became or p.became
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
            info.scanned, info.note = False, Text(N_("cannot read: {reason}"), reason=str(exc.strerror or exc))
            return
        stream: BinaryIO = raw
        if head.startswith(GZIP_MAGIC):
            import gzip

            stream = gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[assignment]
            try:
                head = stream.peek(8192)[:8192]  # type: ignore[attr-defined]
            except (OSError, EOFError, zlib.error) as exc:
                info.scanned, info.note = False, Text(N_("not a valid gzip file ({reason})"), reason=str(exc))
                return
        if layout.binary_head(head):
            info.scanned, info.note = False, Text(N_("binary data, not a text log: skipped"))
            return
        try:
            self._scan_stream(stream, info)
        except (OSError, EOFError, zlib.error) as exc:
            info.note = Text(N_("read stopped after {bytes} bytes ({reason}); the part before was scanned"),
                             bytes=info.bytes, reason=str(exc))

    # ---- the streaming loop ----
    def _scan_stream(self, stream: BinaryIO, info: InputInfo) -> None:
        try:
            self._scan_lines_of(stream, info)
        finally:  # the last occurrences _record kept as tuples, made Occurrences once per file
            if self._pending:
                self._settle(info)
            self._errors.end_input()  # a traceback the file ends in is listed as such

    def _scan_lines_of(self, stream: BinaryIO, info: InputInfo) -> None:
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
                        info.note = Text(N_("line {line} is longer than {mib} MiB; scanned in pieces"),
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
        plans, plans_get, err_idx, count = self._plans, self._plans.get, self._error_idx, buf.count
        chain_idx = self._chain_idx
        for ls, le, line, hits in self.scanner.scan_lines(buf, start, end):
            if not long_piece:
                line_no += count(b"\n", cursor, ls)
                cursor = ls
            plan = plans_get(line)
            if plan is None:
                plan = self._line_plan(line, hits)
            record, error, time, shape = plan
            if self._frame is not None:
                record, error = self._frame_step(line, info, line_no, time, record, error, shape)
            marked = False
            if error and seen_on_line.get(err_idx) != line_no:
                seen_on_line[err_idx] = line_no
                self._errors.add(line, info, line_no, error == 2, shape)
            elif record and not error and self._errors.fold.pending() and not all(i in self._resolvers for i in record):
                # an exception message's next line explains it, and is part of an error report (Fold.follows)
                marked = self._errors.follows(line, info, line_no)
            new = []  # the problems this line made (their first line), for _chain_step
            for idx in record:
                if seen_on_line.get(idx) == line_no:
                    continue
                seen_on_line[idx] = line_no
                if idx == chain_idx:
                    continue
                if self._record(idx, line, line_no, info, time, marked):
                    new.append(idx)
                any_hit = True
            if self._frames and not self._frame:
                frame = next((i for i in record if i in self._frames), None)
                if frame is not None:
                    self._frame = (info, line_no, frame, frame in new)
            if new and shape is None:  # an exception line the error pattern does not mark (`struct.error: ...`)
                shape = line_shape(line)
            if new or chain_idx in record or (shape is not None and shape[1] == EXCEPTION) or self._chain is not None:
                self._chain_step(info, line_no, record, shape, new)
        reached = (cursor, line_no - 1)
        proc = info.process
        if proc is not None and not long_piece:  # a CANN process log: its HCCL evidence lines, in order
            cursor, line_no = start, lines_before + 1
            from .events import evidence_lines

            count, label = buf.count, info.label
            feed = proc.feed_bytes if info.evidence is None else None  # a forked worker forwards them (_evidence)
            for ls, le in evidence_lines(buf, start, end):
                line_no += count(b"\n", cursor, ls)
                cursor = ls
                if feed is not None:
                    feed(buf[ls:le], label, line_no)
                else:
                    self._evidence(proc, buf[ls:le], line_no, info)
            if cursor > reached[0]:
                reached = (cursor, line_no - 1)
        if any_hit:
            info.hits += 1
        return reached

    def _chain_step(self, info: InputInfo, line_no: int, record, shape, new: List[int]) -> None:
        """A Python exception chain (issue 21): `KeyError: 'RGBA'`, `The above exception was the direct cause of the
        following exception:` (or `During handling of ...`), a traceback, `OSError: cannot write mode RGBA as JPEG`.
        The library caught the first exception and raised its own: where a class entry (fallback) named the first
        exception line and a specific entry the exception it became, the first problem is marked `became` (placed
        after it in the report, result.order_problems); a class entry of last resort (a bare `KeyError: 'x'`) gives way
        so to another class entry too (transformers' `KeyError: 'pangu_ultra_moe'` that became its unknown-model-type
        ValueError), as it does on one line (Signature.last_resort). State: None, or (input, line, stage, the problems
        the exception line made), stage "exc" (an exception line) or "chain" (its chain line seen)."""
        st = self._chain
        if st is not None and (st[0] is not info or line_no - st[1] > _CHAIN_GAP):
            st = None
        if self._chain_idx in record:  # right under the exception line (a blank line between)
            ok = st is not None and st[2] == "exc" and line_no - st[1] <= 3
            self._chain = (info, line_no, "chain", st[3]) if ok else None
            return
        exception = shape is not None and shape[1] == EXCEPTION
        if exception and new and st is not None and st[2] == "chain":
            roots = [self.sigs[i] for i in new if self.sigs[i].kind == "root"]
            specific = [s for s in roots if not s.fallback]
            classed = [s for s in roots if s.fallback and not s.last_resort]
            for i in st[3]:
                sig = self.sigs[i]
                became = specific or (classed if sig.last_resort else [])
                p = self.problems.get(sig.id)
                if became and p is not None and sig.fallback and p.became is None:
                    p.became = became[0].id
        if new:  # the exception a chain line may follow (`_queue.Empty` has no colon: any line that made a problem)
            self._chain = (info, line_no, "exc", new)
        else:
            self._chain = None if exception else st

    def _frame_step(self, line: bytes, info: InputInfo, line_no: int, time: Optional[str], record: Tuple[int, ...],
                    error: int, shape) -> Tuple[Tuple[int, ...], int]:
        """A traceback frame whose exception decides what the exception means (Signature.exception_under: subprocess's
        `_execute_child` frame, where `FileNotFoundError: ... 'nvidia-smi'` is a program not found, not a file): the
        exception line that ends its traceback, within _FRAME_GAP lines, is the frame entry's where one of its
        patterns matches. No other entry makes a problem of it, it counts as explained, and when the frame made the
        problem the problem shows this line (its values fill the title). Returns the line's (record, error).
        State: None, or (input, the frame's line, its signature, whether it made the problem)."""
        got, at, idx, made = self._frame
        if got is not info or line_no - at > _FRAME_GAP:
            self._frame = None
            return record, error
        if shape is None:
            shape = line_shape(line)
        if shape is None or shape[1] != EXCEPTION:  # frames and code between
            return record, error
        self._frame = None
        text = _text(line)
        if not any(rx.search(text) for rx in self._frames[idx]):
            return record, error
        sig = self.sigs[idx]
        p = self.problems.get(sig.id)
        if made and p is not None:
            p.text, p.marked, p.low = self._show(text), False, sig.low_on(text, False)
            p.at = self._occurrence(info, line_no, time)
        return tuple(i for i in record if i in self._resolvers), 2 if error else 0

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

    def _settle(self, info: InputInfo, sid: Optional[str] = None) -> None:
        """The last occurrences _record kept as (time, seq, line) made Occurrences (all, or sid's)."""
        pending = self._pending
        for key in ([sid] if sid is not None else list(pending)):
            got = pending.pop(key, None)
            if got is not None:
                self.problems[key].last = self._occurrence(info, got[2], got[0])

    def _line_plan(self, line: bytes, hits: List[int]) -> Tuple[Tuple[int, ...], int, Optional[str], Optional[tuple]]:
        """What a matched line asks, from its bytes alone: (the signatures to record, whether it is an error-looking
        line (0: no, 1: one no signature explains, 2: one a signature explains: a traceback's tail, for
        lines.Fold), its time, its shape (match.source.line_shape) when error-looking); kept in `_plans` (bounded),
        as a dense log repeats its lines."""
        error = hits[-1] == self._error_idx  # the last: indexes come sorted and the error pattern is the last one
        if error:
            hits = hits[:-1]
        if hits and is_source_line(line):  # a traceback's code line names a call, not an event
            hits = [i for i in hits if i in self._code_readers]
        shape = None
        if error:
            error = 0 if _OTHER_LEVEL.match(line) else 1 if all(i in self._resolvers for i in hits) else 2
            if error:
                shape = line_shape(line)
        chain = self._chain_idx in hits
        if chain:  # the chain line's pseudo-signature is no entry: it takes no part in which entry explains the line
            hits = [i for i in hits if i != self._chain_idx]
        if len(hits) > 1 and self._yielding:
            hits = yield_to_specific(hits, self._wrappers, self._yielding, self._last)
        if chain:
            hits = list(hits) + [self._chain_idx]
        plan = (tuple(hits), error, _timestamp(line), shape)
        if len(line) <= _PLAN_LINE_MAX:
            if self._plans_bytes > _PLAN_BYTES:
                self._plans.clear()
                self._plans_bytes = 0
            self._plans[line] = plan
            self._plans_bytes += len(line) + 128
        return plan

    def _record(self, idx: int, line: bytes, line_no: int, info: InputInfo, time: Optional[str],
                marked: bool = False) -> bool:
        """Record a hit; whether it made a new problem (its signature's first line: _chain_step)."""
        made = False
        if idx not in self._resolvers:  # a problem seen before, this hit neither its first nor its rank's: _merge, short
            sig = self.sigs[idx]
            p = self.problems.get(sig.id)
            made = p is None
            if p is not None and not p.low and not (sig.ascend_fd and p.peer_lines < PEER_LINES):
                # the commonest case of a dense log, without making an Occurrence unless it becomes the last
                seq = info.order * 10 ** 12 + line_no
                k, seen = (time or "9999", seq), p.ranks.get(info.rank or info.label)
                if seen is not None and not k < _order_key(p.first) and not k < _order_key(seen):
                    p.count += 1
                    # later(): this hit becomes the problem's last, made an Occurrence at the file's end (_settle)
                    got = self._pending.get(sig.id)
                    t, q = (got[0], got[1]) if got is not None else (p.last.time, p.last.seq)
                    if time > t if time and t and time != t else seq >= q:
                        self._pending[sig.id] = (time, seq, line_no)
                    return False
            if p is not None and self._pending:
                self._settle(info, sig.id)
            occ = self._occurrence(info, line_no, time)
            if sig.ascend_fd and (p is None or p.peer_lines < PEER_LINES):
                if p is None:
                    self._merge(idx, 1, occ, occ, _text(line, sig), marked=marked)
                    self._peers(self.problems[sig.id], line)
                    return True
                self._peers(p, line)
            if p is not None:
                k, seen = _order_key(occ), p.ranks.get(occ.rank or occ.file)
                if seen is not None and not k < _order_key(p.first) and not k < _order_key(seen) and not p.low:
                    p.count += 1
                    if later(occ, p.last):
                        p.last = occ
                    return False
        else:
            occ = self._occurrence(info, line_no, time)
        sig = self.sigs[idx] if idx not in self._resolvers else None
        self._merge(idx, 1, occ, occ, _text(line, sig), marked=marked)
        return made

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
               ranks: Optional[Dict[str, Occurrence]] = None, marked: bool = False,
               at: Optional[Occurrence] = None) -> None:
        if idx in self._resolvers:
            sid = self._resolvers[idx].id
            if sid not in self._resolver_last or later(last, self._resolver_last[sid]):
                self._resolver_last[sid] = last
            return
        sig = self.sigs[idx]
        p = self.problems.get(sig.id)
        if p is None:
            p = self.problems[sig.id] = Problem(sig, 0, first, last, self._show(text), marked=marked,
                                                at=None if at is None or at == first else at)
            p.low = sig.low_on(text, marked)
        else:
            p.take(first, text, marked, self._show, at)
        p.count += count
        if later(last, p.last):
            p.last = last
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


PARALLEL_MIN_BYTES = 64 << 20  # a file this big is scanned in byte ranges on several cores (parallel.py)
PARALLEL_MAX_WORKERS = 8


def triage_paths(paths: Iterable[str], kb: Optional[KnowledgeBase] = None, node: Optional[str] = None) -> TriageResult:
    t = Triage(kb, node=node)
    for p in paths:
        t.add_path(p)
    return t.result()
