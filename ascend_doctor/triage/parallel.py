"""Big files on several cores: a file of `scan.PARALLEL_MIN_BYTES` or more is split at line boundaries; this process
scans the first range while forked children (os.fork and a pipe each: no process pool to start, the compiled
scanner inherited) scan the others and send their results as JSON; the parts are merged in range order, so the
result is the one a single pass gives."""

from __future__ import annotations

import io
import os
from typing import Iterable, Iterator, Optional

from ..i18n import N_, _
from ..i18n_text import Text
from .lines import Unexplained
from .result import InputInfo, later, order_key as _order_key
from .scan import CHUNK_BYTES, Triage, _fold_peers  # scan imports this module only when a file is this big

def fork_ok() -> bool:
    from ..process import fork_is_safe

    return fork_is_safe()

def scan_file(t: Triage, path: str, size: int, info: InputInfo, workers: int) -> None:
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
            t._add_input(info)
            info.scanned, info.note = False, Text(N_("binary data, not a text log: skipped"))
            return
    t._add_input(info)
    ranges = [(bounds[k], bounds[k + 1]) for k in range(workers) if bounds[k + 1] > bounds[k]]
    jobs = [(path, a, b, info.label, info.rank, info.process is not None) for a, b in ranges]
    global _WORKER_TRIAGE
    _WORKER_TRIAGE = t
    children: list = []
    try:
        children = _fork_scans(jobs[1:])
        reader = _RangeReader(path, *ranges[0])  # the first range here, straight into this Triage
        try:
            t._scan_stream(io.BufferedReader(reader, CHUNK_BYTES), info)
        finally:
            reader.close()
        _merge_parts(t, _child_results(children), info)
    finally:
        _WORKER_TRIAGE = None
        _stop(children)

def _merge_parts(t: Triage, parts: Iterable[dict], info: InputInfo) -> None:
    """The other ranges' results, in range order, after the first range's."""
    lines_before = info.lines
    base = info.order * 10 ** 12  # an occurrence's seq is base + its line (see _occurrence)
    for part in parts:
        def shift(o):
            return t._occurrence(info, o[0] + lines_before, o[1])

        for idx, count, first, last, text, ranks, peers, peer_lines, marked, at, became in part["hits"]:
            p = t.problems.get(t.sigs[idx].id) if idx not in t._resolvers and ranks else None
            if p is None:
                t._merge(idx, count, shift(first), shift(last), text, {k: shift(v) for k, v in ranks.items()}, marked,
                         shift(at) if at else None)
                p = t.problems.get(t.sigs[idx].id) if idx not in t._resolvers else None
                if p is not None:
                    _fold_peers(p, peers, peer_lines)
                    p.became = p.became or became
                continue
            _fold_peers(p, peers, peer_lines)
            p.became = p.became or became
            # _merge for a problem seen before, an Occurrence made only where one is kept
            p.count += count
            occ = shift(last)
            if later(occ, p.last):
                p.last = occ
            if p.low or (first[1] or "9999", base + lines_before + first[0]) < _order_key(p.first):
                p.take(shift(first), text, marked, t._show, shift(at) if at else None)
            for key, o in ranks.items():
                seen = p.ranks.get(key)
                if seen is None or (o[1] or "9999", base + lines_before + o[0]) < _order_key(seen):
                    p.ranks[key] = shift(o)
        if info.process is not None:
            for n, line in part["evidence"]:
                info.process.feed_bytes(line, info.label, n + lines_before)
        info.hits += part["hits_lines"]
        t._errors.merge(part["errors"], info, lines_before)
        if part["note"] and not info.note:
            info.note = part["note"]
        lines_before += part["lines"]
        info.bytes += part["bytes"]
    info.lines = lines_before


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
                     {k: (o.line, o.time) for k, o in p.ranks.items()}, list(p.peers.items()), p.peer_lines, p.marked,
                     (p.at.line, p.at.time) if p.at else None, p.became))
    for sid, occ in t._resolver_last.items():
        idx = next(i for i in t._resolvers if t._resolvers[i].id == sid)
        hits.append((idx, 1, (occ.line, occ.time), (occ.line, occ.time), "", {}, [], 0, False, None, None))
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
    t.__dict__.update(parent.__dict__)  # the compiled signatures and settings ...
    t._start(str)  # ... and a scan's state, empty; the parent redacts the texts it keeps (_merge), once
    return t
