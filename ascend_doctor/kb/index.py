"""The shipped knowledge base as a small index between runs: the fields that match and relate each signature, with
its words (cause, fix, sources, examples, titles) read from its part file only where something asks for them.

Every `triage` read the whole knowledge base: 11 MB of JSON in ~100 part files and ~2,800 signatures built from it,
~0.18 s of a run whose log holds no error line (docs/performance.md, round 27). A scan needs only what matches a line
and what relates the hits (ids, patterns, literals, classes, `leads_to` ...): ~1.3 MB. So the first run after an
install or a knowledge-base change writes those fields of the merged knowledge base (knowledge_base.json, then the
parts, with the parts' `existing` mappings applied) to the cache directory (triage/match/cache.py: `cache_dir`, a
sealed file), named by the files' paths, sizes and times and the loader's own; later runs read it and make
`LazySignature`s. The first time any of a signature's words is read, its part file is parsed once and every signature
of that file gets its words (`_Words`), so a report pays for the files of the faults it shows, and `kb search`,
`explain` or a test that reads them all pays what a full read costs.

Only the shipped files are indexed: a user's part (--kb, ASCEND_DOCTOR_KB) is read and checked as before, after the
index (kb/load.py: load_knowledge_base). A changed file has another name; a damaged one fails its digest and is built
again. A file changed while a run reads it: the signature is looked up by id, and where it is gone that is one line
naming the file (DataError).
"""

from __future__ import annotations

import json
import os
from typing import Dict, List, Optional, Sequence, Tuple

from ..data import DataError, load_json_file
from ..i18n import _
from .model import Signature

# The fields kept in the index, in this order: what the matcher, the scan and the result read of every signature. The
# rest (_WORDS) are read from the part file on first use.
MATCH_FIELDS = ("id", "pattern", "regex", "component", "severity", "pitfall", "kind", "fallback", "last_resort",
                "code_line", "exception_under", "fail_needs_mark", "also", "exclude", "resolved_by", "anchors",
                "all_of", "ascend_fd", "log_sources", "leads_to", "derived")
_WORDS = ("cause", "fix", "source", "examples", "near_misses", "title", "notes", "title_zh", "cause_zh", "fix_zh",
          "source_zh", "example_origin")
_MAGIC = b"ascend-doctor kb index 1\n"
_PREFIX = "kbindex-"
_KEEP = 4  # index files kept (the newest): a checkout and an install or two
# the loader's code: an index written by another version of these is another file
_CODE = ("index.py", "load.py", "model.py")


def word_fields(s: dict) -> dict:
    """A part entry's words as Signature fields (the shipped parts' shape; kb/load._part_signature uses it too)."""
    get = s.get
    return {"cause": s["cause"], "fix": list(s["fix"]), "source": str(get("source") or ""),
            "examples": list(get("examples") or ()), "near_misses": list(get("near_misses") or ()),
            "title": str(get("title") or ""), "notes": str(get("notes") or ""), "title_zh": str(get("title_zh") or ""),
            "cause_zh": str(get("cause_zh") or ""), "fix_zh": list(get("fix_zh") or ()),
            "source_zh": str(get("source_zh") or ""), "example_origin": str(get("example_origin") or "")}


class _Words:
    """The signatures of one file whose words are not read yet: the first that is asked for reads the file and gives
    every one of them its words."""

    __slots__ = ("file", "members")

    def __init__(self, file: str):
        self.file = file
        self.members: List[Tuple[int, "LazySignature"]] = []

    def fill(self) -> None:
        members, self.members = self.members, []
        if not members:
            return
        raw = load_json_file(self.file)
        entries = raw.get("signatures") if isinstance(raw, dict) else None
        entries = entries if isinstance(entries, list) else []
        by_id: Optional[Dict[str, dict]] = None
        for i, sig in members:
            s = entries[i] if i < len(entries) else None
            if not isinstance(s, dict) or s.get("id") != sig.id:
                if by_id is None:
                    by_id = {e.get("id"): e for e in entries if isinstance(e, dict)}
                s = by_id.get(sig.id)
            if s is None:
                self.members = members  # (a later read says it again)
                raise DataError(_("{file}: signatures: expected an entry with id {id} (the file changed while "
                                  "ascend-doctor ran: run it again)").format(file=self.file, id=sig.id))
            try:
                words = word_fields(s)
            except (KeyError, TypeError):
                self.members = members
                raise DataError(_("{file}: signatures ({id}): expected the fields cause and fix (the file changed "
                                  "while ascend-doctor ran: run it again)").format(file=self.file, id=sig.id)) from None
            d = sig.__dict__
            for k, v in words.items():
                d.setdefault(k, v)  # a word set on the signature since stays
            d.pop("_words", None)


class _Word:
    """A word field of a LazySignature: read from its file on first use (a non-data descriptor: once read, the value
    is the instance's own attribute)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return Signature.__dict__.get(self.name, "")
        words = obj.__dict__.get("_words")
        if words is not None:
            words.fill()
        try:
            return obj.__dict__[self.name]
        except KeyError:
            raise AttributeError(self.name) from None


class LazySignature(Signature):
    """A Signature of the index: its match fields set, its words (_WORDS) read on first use. Equal to a Signature
    with the same fields."""

    def __eq__(self, other):
        if isinstance(other, Signature):
            from ..records import fields

            return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(Signature) if f.compare)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


for _name in _WORDS:
    setattr(LazySignature, _name, _Word(_name))


def _stamps(files: Sequence[str]) -> Optional[list]:
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    try:
        for path in [os.path.join(here, n) for n in _CODE] + list(files):
            st = os.stat(path)
            out.append([path, st.st_size, st.st_mtime_ns])
    except OSError:
        return None
    return out


def _path(stamps: list) -> Optional[str]:
    from ..triage.match.cache import _blake2b, cache_dir

    d = cache_dir()
    if d is None:
        return None
    from .. import __version__

    h = _blake2b(digest_size=20)
    h.update(json.dumps([__version__, stamps]).encode("utf-8", "surrogatepass"))
    return os.path.join(d, f"{_PREFIX}{h.hexdigest()}.json")


def read_index(files: Sequence[str]) -> Optional[Tuple[List[Signature], bytes]]:
    """(the signatures of `files` merged, as LazySignatures; their match digest) from the index, None where there is
    none for these files as they are now (or no cache)."""
    stamps = _stamps(files)
    path = _path(stamps) if stamps is not None else None
    if path is None:
        return None
    from ..triage.match.cache import read_sealed

    body = read_sealed(path, _MAGIC)
    if body is None:
        return None
    try:
        index = json.loads(str(body, "utf-8"))
        if index.get("fields") != list(MATCH_FIELDS) or index.get("files") != stamps[len(_CODE):]:
            return None
        groups = [_Words(f) for f, _, _ in index["files"]]
        sigs: List[Signature] = []
        new = object.__new__
        n = len(MATCH_FIELDS)
        for row in index["signatures"]:
            sig = new(LazySignature)
            d = sig.__dict__
            d.update(zip(MATCH_FIELDS, row[:n]))
            group = groups[row[n]]
            d["_compiled"] = None
            d["_compiled_excl"] = None
            d["origin"] = group.file
            d["_words"] = group
            group.members.append((row[n + 1], sig))
            sigs.append(sig)
        return sigs, bytes.fromhex(index["match_digest"])
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


def write_index(files: Sequence[str], sigs: Sequence[Signature]) -> Optional[bytes]:
    """Write the index of `files` (their signatures merged: `sigs`, each read from one of them, in each file's order);
    its match digest (None where the index cannot be written)."""
    stamps = _stamps(files)
    path = _path(stamps) if stamps is not None else None
    if path is None:
        return None
    from ..triage.match.cache import fields_digest, write_sealed

    where = {f: k for k, f in enumerate(files)}
    counts = [0] * len(files)
    rows = []
    for sig in sigs:
        k = where.get(sig.origin)
        if k is None:
            return None
        rows.append([getattr(sig, name) for name in MATCH_FIELDS] + [k, counts[k]])
        counts[k] += 1
    digest = fields_digest(sigs)
    body = json.dumps({"fields": list(MATCH_FIELDS), "files": stamps[len(_CODE):], "match_digest": digest.hex(),
                       "signatures": rows}, ensure_ascii=False, separators=(",", ":"))
    write_sealed(path, (_MAGIC, body.encode("utf-8", "surrogatepass")), _PREFIX, _KEEP)
    return digest
