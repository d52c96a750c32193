"""Node summaries: one node's scan, written small (`triage --node-summary`), merged centrally by `triage`.

A 1,000-node job's raw logs are terabytes; what the central step needs of each node is what the scan
accumulated: the problems (count, first/last, per rank/device, the ascend-fd ids their lines support), the
inputs read and skipped, the error lines no signature explains (each distinct one at its first place, with its
count; shown as the node shows them), and each CANN process's folded HCCL evidence (`events.ProcessLog`: identity, first error,
timeout events, wait edges, TLS switch, timeouts, restarts). A summary is exactly that state,
serialised generically (every field of the scan's records, whatever fields they gain), so merging
summaries is the same reduction the scan does over files: `triage` on the summaries of all nodes
gives the report `triage` gives on all their raw logs.

The file is JSON, schema `ascend-doctor.triage-node/1`, the schema key written first so a reader
recognises it from its first bytes. The doctor's own words in it (an input's note: why it was skipped or only
partly read) are kept as message ids with parameters (`{"~": "t", "v": entry}`, i18n_text.to_i18n), so the merge
words them in the language it is asked for, whatever language the node ran in. Its texts are redacted as `collect` redacts logs (secrets of the
environment, tokens, URL credentials; IPs are kept: they are the evidence that ties devices together).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Tuple

from .. import __version__
from ..i18n import N_, _
from ..i18n_text import Text, from_i18n
from ..kb.model import KnowledgeBase, Signature
from ..records import fields
from .lines import blake2b
from .result import InputInfo, Occurrence, Problem

NODE_SCHEMA = "ascend-doctor.triage-node/1"
SCHEMA_PREFIX = b'{"schema":"ascend-doctor.triage-node/'
# Fields of the scan's records that belong to the scanning process, not to its result.
_TRANSIENT = {"InputInfo": {"process", "evidence", "forwarded"}, "ProcessLog": {"_parse"}}
# The signature's fields a merge shows when its own knowledge base does not know the id.
# (not its cause and fix texts: a summary carries one line per problem, not the knowledge base)
_SIG_SHOWN = ("id", "component", "severity", "pitfall", "title", "kind", "ascend_fd", "leads_to")
_SEQ_PER_INPUT = 10 ** 12  # an occurrence's seq: its input's order * this + its line (Triage._occurrence)

UNKNOWN_SIGNATURE = N_("{file}: signature {id} is not in this knowledge base; shown as the node's knowledge "
                       "base described it")
OTHER_KB = N_("{file}: written with another knowledge base ({theirs}, here {ours}): problems are named as that "
              "knowledge base found them")
TORN = N_("not a readable node summary ({reason}): skipped")
FOREIGN = N_("a JSON file that is not a node summary (schema {schema}): skipped")


class SummaryError(ValueError):
    """A file that looks like a node summary but cannot be read as one."""


_KB_VERSIONS: Dict[int, Tuple[KnowledgeBase, str]] = {}


def kb_version(kb: KnowledgeBase) -> str:
    """A short digest of what the knowledge base matches (ids, patterns, severities): two scans with the same
    digest found problems by the same rules."""
    known = _KB_VERSIONS.get(id(kb))
    if known is not None and known[0] is kb:
        return known[1]
    h = blake2b(b"", digest_size=8)
    for s in sorted(kb.signatures, key=lambda s: s.id):
        h.update(json.dumps([s.id, s.pattern, s.regex, list(s.also), [list(a) for a in s.all_of], s.severity,
                             s.kind, list(s.exclude), list(s.resolved_by), s.fail_needs_mark], ensure_ascii=True).encode())
    _KB_VERSIONS[id(kb)] = (kb, h.hexdigest())
    return _KB_VERSIONS[id(kb)][1]


# ---------------------------------------------------------------------------
# A generic codec for the scan's records
# ---------------------------------------------------------------------------

_RECORDS: Dict[str, Tuple[type, frozenset, Dict[str, Any]]] = {}


_RECORD_NAMES = frozenset(("ProcessLog", "TimeoutEvent", "FirstError", "Remote", "InputInfo", "Problem"))


def _describe(cls: type) -> Tuple[type, frozenset, Dict[str, Any]]:
    defaults = {}
    for f in fields(cls):
        if type(f.default).__name__ not in ("_MissingType", "_MISSING_TYPE"):
            defaults[f.name] = f.default
        elif type(f.default_factory).__name__ not in ("_MissingType", "_MISSING_TYPE"):
            defaults[f.name] = f.default_factory()
    got = _RECORDS[cls.__name__] = (cls, frozenset(f.name for f in fields(cls)), defaults)
    return got


def _records() -> Dict[str, Tuple[type, frozenset, Dict[str, Any]]]:
    """The records a summary may hold: name -> (class, its field names, the default of each field that has one)."""
    if len(_RECORDS) < len(_RECORD_NAMES):
        from .events import FirstError, ProcessLog, Remote, TimeoutEvent

        for cls in (ProcessLog, TimeoutEvent, FirstError, Remote, InputInfo, Problem):
            if cls.__name__ not in _RECORDS:
                _describe(cls)
    return _RECORDS


def _record_of(obj: Any) -> Tuple[type, frozenset, Dict[str, Any]]:
    """As _records()[the record's class name], described from the record's own class: writing the summary of a
    node without CANN process logs imports no evidence parser (triage/events.py: ~8 ms of its start-up)."""
    name = type(obj).__name__
    got = _RECORDS.get(name)
    if got is None:
        if name not in _RECORD_NAMES:
            raise KeyError(name)  # anything else: a bug, not input
        got = _describe(type(obj))
    return got


class _Codec:
    """JSON for the scan's values, one summary's: records as {"~": class, field: value}; tuples, sets, bytes,
    dicts with other keys tagged the same way; plain JSON values as they are; occurrences named by their input; every string of 32 characters or more written
    once, in the summary's `strings` table (file names and log lines repeat across a process's records);
    with `redact` set, strings redacted as they are written."""

    def __init__(self, inputs: List[InputInfo], strings: Optional[List[str]] = None):
        self.inputs = inputs
        self.table: Dict[str, int] = {}
        self.strings = strings or []
        self.redact = None
        self._redacted: Dict[str, str] = {}
        # reading: each distinct string of the summary kept once (a process's node, times, ids and addresses
        # recur in its records; JSON makes a new object for every occurrence)
        self.memo: Dict[str, str] = {}

    def encode(self, obj: Any) -> Any:
        encode = self.encode
        if isinstance(obj, str):
            if type(obj) is not str and isinstance(obj, Text):  # the doctor's words: the message, worded where shown
                return {"~": "t", "v": obj.to_i18n()}
            if self.redact is not None and len(obj) >= 8:
                shown = self._redacted.get(obj)
                if shown is None:
                    shown = self._redacted[obj] = self.redact(obj)
                obj = shown
            if len(obj) >= 32:
                return {"~": "s", "v": self.table.setdefault(obj, len(self.table))}
            return obj
        if isinstance(obj, Occurrence):
            short = self._short(obj)
            if short is not None:
                return {"~": "o", "v": short}
        return _encode_one(obj, encode)

    def _short(self, o: Occurrence) -> Optional[list]:
        k, line = divmod(o.seq, _SEQ_PER_INPUT)
        if not 0 <= k < len(self.inputs) or line != o.line or o.device is not None or o.group is not None:
            return None
        info = self.inputs[k]
        pid = info.pid if info.kind in ("plog", "device") else None
        if (o.file, o.rank, o.node) != (info.label, info.rank, info.node) or o.pid not in (None, pid):
            return None
        return [o.seq, o.time, o.pid is not None]

    def occurrence(self, v: list) -> Occurrence:
        seq, time, with_pid = v[0], v[1], v[2]
        k, line = divmod(seq, _SEQ_PER_INPUT)
        if not 0 <= k < len(self.inputs):
            raise SummaryError(_("an occurrence names input {k}, the summary has {n}").format(k=k, n=len(self.inputs)))
        info = self.inputs[k]
        return Occurrence(info.label, line, info.rank, time, seq, node=info.node, pid=info.pid if with_pid else None)


def _encode_one(obj: Any, encode) -> Any:
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, list):
        return [encode(x) for x in obj]
    if isinstance(obj, tuple):
        return {"~": "()", "v": [encode(x) for x in obj]}
    if isinstance(obj, (set, frozenset)):
        items = [encode(x) for x in obj]
        return {"~": "{}", "v": sorted(items, key=lambda x: json.dumps(x, sort_keys=True))}
    if isinstance(obj, bytes):
        return {"~": "b", "v": obj.decode("latin-1")}
    if isinstance(obj, dict):
        if all(isinstance(k, str) for k in obj) and "~" not in obj:
            return {k: encode(v) for k, v in obj.items()}
        return {"~": "{:}", "v": [[encode(k), encode(v)] for k, v in obj.items()]}
    if isinstance(obj, Occurrence):  # the most numerous record: its slots by position
        return {"~": "O", "v": [encode(getattr(obj, n)) for n in Occurrence.__slots__]}
    name = type(obj).__name__
    _cls, names, defaults = _record_of(obj)  # a KeyError for anything else: a bug, not input
    skip = _TRANSIENT.get(name, ())
    out = {"~": name}
    for f in fields(obj):  # a field at its default is left out (most of a process's are)
        value = getattr(obj, f.name)
        if f.name in skip or (f.name in defaults and value == defaults[f.name]):
            continue
        out[f.name] = obj.signature.id if f.name == "signature" else encode(value)
    if isinstance(obj, Problem):
        out["signature_shown"] = {k: encode(getattr(obj.signature, k, None)) for k in _SIG_SHOWN}
    return out


def decode(data: Any, signatures: Dict[str, Signature], unknown: List[str], codec: Optional["_Codec"] = None) -> Any:
    if codec is None:
        codec = _Codec([])
    return _Decoder(signatures, unknown, codec).value(data)


class _Decoder:
    def __init__(self, signatures: Dict[str, Signature], unknown: List[str], codec: "_Codec"):
        self.signatures, self.unknown, self.codec = signatures, unknown, codec
        self.records = _records()
        self.memo = codec.memo.setdefault

    def value(self, data: Any) -> Any:
        t = type(data)
        if t is str:
            return self.memo(data, data)
        if t is list:
            value = self.value
            return [value(x) for x in data]
        if t is not dict:
            return data
        tag = data.get("~")
        if tag is None:
            value = self.value
            return {k: value(v) for k, v in data.items()}
        if tag == "s":
            try:
                return self.codec.strings[data["v"]]
            except (IndexError, TypeError):
                raise SummaryError(_("a string names entry {k} of the table, which has {n}").format(
                    k=data["v"], n=len(self.codec.strings))) from None
        if tag == "o":
            return self.codec.occurrence(data["v"])
        if tag == "t":
            try:
                return from_i18n(data["v"])
            except ValueError as exc:
                raise SummaryError(str(exc)) from None
        if tag == "()":
            return tuple(self.value(x) for x in data["v"])
        if tag == "{}":
            return {_hashable(self.value(x)) for x in data["v"]}
        if tag == "b":
            return data["v"].encode("latin-1")
        if tag == "{:}":
            return {_hashable(self.value(k)): self.value(v) for k, v in data["v"]}
        if tag == "O":
            return Occurrence(*(self.value(x) for x in data["v"][:len(Occurrence.__slots__)]))
        record = self.records.get(tag)
        if record is None:
            raise SummaryError(_("unknown record {name!r}").format(name=tag))
        cls, names, _defaults = record
        kw = {k: self.value(v) for k, v in data.items() if k in names}
        if cls is Problem:
            kw["signature"] = self.signature(data)
        return cls(**kw)

    def signature(self, data: dict) -> Signature:
        sid = data.get("signature")
        sig = self.signatures.get(sid)
        if sig is None:
            shown = data.get("signature_shown") or {}
            sig = Signature(id=str(sid), pattern="", regex=False, component=str(shown.get("component") or ""),
                            severity=shown.get("severity") if shown.get("severity") in ("fail", "warn", "info")
                            else "warn", cause="", fix=[], pitfall=shown.get("pitfall"),
                            title=str(shown.get("title") or sid), kind=str(shown.get("kind") or "root"),
                            ascend_fd=list(shown.get("ascend_fd") or []), leads_to=list(shown.get("leads_to") or []))
            self.signatures[sig.id] = sig
            self.unknown.append(sig.id)
        return sig


def _hashable(x):
    return tuple(_hashable(i) for i in x) if isinstance(x, (list, tuple)) else x


# ---------------------------------------------------------------------------
# Writing one node's summary
# ---------------------------------------------------------------------------

def node_summary(t, node: str) -> dict:
    """The summary of everything `t` (a Triage that scanned one node's logs) accumulated. The processes are
    closed (`finish`) first: their parsing state is then empty and not written."""
    from ..redact import Redactor

    for proc in t.processes.values():
        proc.finish()
    codec = _Codec(t.inputs)
    state = {}
    for name in t.STATE:
        if name == "processes":
            continue
        value = getattr(t, name)
        if hasattr(value, "to_summary"):  # the unexplained lines: their texts shown (redacted) as the node shows them
            value = value.to_summary(t._show)
        state[name] = codec.encode(value)
    # the processes' lines are raw log text (the problems' and error lines' texts were redacted when kept)
    codec.redact = Redactor(env=os.environ).text
    state["processes"] = [codec.encode(p) for p in t.processes.values()]
    return {"schema": NODE_SCHEMA, "node": node, "tool": f"ascend-doctor {__version__}", "kb": kb_version(t.kb),
            "state": state, "strings": list(codec.table)}


def dumps(summary: dict) -> str:
    return json.dumps(summary, ensure_ascii=False, separators=(",", ":")) + "\n"


# ---------------------------------------------------------------------------
# Recognising and reading one
# ---------------------------------------------------------------------------

def sniff(head: bytes) -> Optional[str]:
    """'summary' when a file's first bytes are a node summary's, 'json' for another JSON object, else None."""
    stripped = head.lstrip()
    if stripped.startswith(SCHEMA_PREFIX):
        return "summary"
    if stripped.startswith(b"{"):
        return "json"
    return None


def read(path: str) -> dict:
    """A node summary's JSON (SummaryError when torn: cut short, not JSON, or not this schema's shape)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise SummaryError(exc.strerror or str(exc)) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SummaryError(_("not UTF-8")) from None
    except ValueError as exc:
        raise SummaryError(_("invalid JSON at byte {pos}").format(pos=getattr(exc, "pos", "?"))) from None
    if not isinstance(data, dict):
        raise SummaryError(_("not a JSON object"))
    schema = data.get("schema")
    if schema != NODE_SCHEMA:
        raise SummaryError(_("schema {schema}, expected {expected}").format(schema=schema, expected=NODE_SCHEMA))
    state = data.get("state")
    if not isinstance(state, dict) or not isinstance(state.get("inputs"), list) \
            or not isinstance(state.get("processes"), list):
        raise SummaryError(_("field 'state' lacks 'inputs' or 'processes'"))
    return data


def foreign_schema(path: str) -> Optional[str]:
    """The schema a JSON file names (or '?'), read only when it is small; None when it is not JSON."""
    try:
        if os.path.getsize(path) > (64 << 20):
            return "?"
        with open(path, "rb") as fh:
            data = json.loads(fh.read().decode("utf-8", errors="replace"))
    except (OSError, ValueError):
        return None
    return str(data.get("schema") or "?") if isinstance(data, dict) else "?"


def decode_state(data: dict, signatures: Dict[str, Signature]) -> Tuple[dict, List[str]]:
    """The summary's scan state as records ({attribute: value}), and the signature ids this KB lacked."""
    unknown: List[str] = []
    state: Dict[str, Any] = {}
    name = "inputs"
    strings = data.get("strings") or []
    if not isinstance(strings, list) or not all(isinstance(x, str) for x in strings):
        raise SummaryError(_("field 'strings' is not a list of strings"))
    try:
        codec = _Codec([], strings)
        state["inputs"] = decode(data["state"]["inputs"], signatures, unknown, codec)  # first: occurrences name them
        if not all(isinstance(i, InputInfo) for i in state["inputs"]):
            raise SummaryError(_("field 'state.inputs' is not a list of inputs"))
        codec.inputs = state["inputs"]
        for name, value in data["state"].items():
            if name != "inputs":
                state[name] = decode(value, signatures, unknown, codec)
        from .lines import Unexplained

        name = "_errors"
        state[name] = Unexplained.from_summary(state.get(name), state["inputs"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, SummaryError):
            raise
        raise SummaryError(_("field 'state.{name}' is not what a node summary holds").format(name=name)) from None
    return state, unknown
