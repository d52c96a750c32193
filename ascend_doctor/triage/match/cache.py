"""The scanner's cache: the plan and the compiled Hyperscan database, between runs."""

from __future__ import annotations

import functools
import os
from typing import Callable, Optional, Sequence, Tuple, Union

from ...kb.model import Signature
from .translate import HS_EXPRESSION_VERSION


# Working out the anchors (parsing ~400 regexes) and compiling Hyperscan's two databases take longer
# than scanning a hundred megabytes; both depend only on the signatures' matching fields and this
# code. They are kept in $XDG_CACHE_HOME/ascend-doctor/ (~/.cache/ascend-doctor), one file per
# knowledge base, named by a hash of those fields, the matching code's source (_CODE_FILES), the
# Python version and the machine. A file that is damaged, truncated or from another Hyperscan is rebuilt, never trusted:
# a digest over its bytes is checked first, and Hyperscan checks its own database's version and
# platform. ASCEND_DOCTOR_NO_CACHE=1 turns the cache off; ASCEND_DOCTOR_CACHE_DIR moves it.

CACHE_ENV_OFF = "ASCEND_DOCTOR_NO_CACHE"
CACHE_ENV_DIR = "ASCEND_DOCTOR_CACHE_DIR"
_CACHE_MAGIC = b"ascend-doctor scanner cache 2\n"
_CACHE_KEEP = 8  # files kept (the newest): a few knowledge bases (--kb, tests) without growing forever
_CACHE_MIN_SIGNATURES = 50  # a small knowledge base builds faster than it is worth writing down


def cache_dir() -> Optional[str]:
    if os.environ.get(CACHE_ENV_OFF):
        return None
    d = os.environ.get(CACHE_ENV_DIR)
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "ascend-doctor")
    return d


def _blake2b(data: bytes = b"", digest_size: int = 16):
    """hashlib.blake2b without importing hashlib (which loads OpenSSL: ~3 ms of every triage start)."""
    try:
        from _blake2 import blake2b  # type: ignore[import]
    except ImportError:  # pragma: no cover - an interpreter built without it
        from hashlib import blake2b
    return blake2b(data, digest_size=digest_size)


def _machine() -> str:
    if hasattr(os, "uname"):
        return os.uname().machine  # what platform.machine() answers on POSIX, without importing platform
    import platform  # pragma: no cover - Windows

    return platform.machine()


# Every file this package keeps (the scanner cache, the database store, the plan memo, recache's programs) is
# "sealed": a magic line, the body, and a digest over both; written to a temporary file and renamed, so a reader sees
# a whole file or none; a file whose magic or digest does not hold is not read (worked out again).
def read_sealed(path: str, magic: bytes) -> Optional[memoryview]:
    """The body after `magic` of a file write_sealed wrote (None: missing, foreign or damaged), as a view of the
    file's bytes (not copied: the scanner cache's body is ~10 MB)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    view = memoryview(raw)
    if len(raw) < len(magic) + 16 or not raw.startswith(magic) or _blake2b(view[:-16]).digest() != raw[-16:]:
        return None
    return view[len(magic):-16]


def write_sealed(path: str, body: Union[bytes, Sequence[bytes]], name_prefix: str, keep: Optional[int] = None) -> bool:
    """Write `body` (its magic first; bytes, or its parts in order, written one after another, not joined) and its
    digest to `path`, whole or not at all; with `keep`, only the newest `keep` files of the directory whose names start
    with `name_prefix` stay. False where nothing could be written (a read-only home, a full disk: the caller works
    without the file)."""
    import tempfile

    parts = (body,) if isinstance(body, (bytes, bytearray, memoryview)) else body
    d = os.path.dirname(path)
    try:
        os.makedirs(d, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix="." + name_prefix, dir=d)
        try:
            h = _blake2b()
            with os.fdopen(fd, "wb") as fh:
                for part in parts:
                    h.update(part)
                    fh.write(part)
                fh.write(h.digest())
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        if keep is not None:
            old = sorted((e for e in os.scandir(d) if e.name.startswith(name_prefix) and e.is_file()),
                         key=lambda e: e.stat().st_mtime, reverse=True)
            for e in old[keep:]:
                os.unlink(e.path)
    except OSError:
        return False
    return True


# The code the plan and the database are worked out by: this package (the anchors, the translation, the plan, the
# finders) and the signatures' own matching (kb/model.py: scan literals, bare codes).
_CODE_FILES = ("codes.py", "literals.py", "translate.py", "gates.py", "finders.py", "cache.py", "scanner.py", "source.py",
               "recache.py", "planmemo.py",
               os.path.join(os.pardir, os.pardir, "kb", "model.py"))


@functools.lru_cache(maxsize=1)
def _code_digest() -> bytes:
    h = _blake2b()
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _CODE_FILES:
        with open(os.path.join(here, name), "rb") as fh:
            h.update(fh.read())
    return h.digest()


def fields_digest(signatures: Sequence[Signature]) -> bytes:
    """A digest of the signatures' matching fields (what the plan and the databases are worked out from)."""
    import json

    fields = [[s.derived, s.pattern, s.regex, s.also, s.exclude, s.all_of, s.anchors] for s in signatures]
    return _blake2b(json.dumps(fields, ensure_ascii=False).encode("utf-8", "surrogatepass"), 20).digest()


def _scanner_key(signatures: Sequence[Signature], head: Optional[Tuple[int, bytes]] = None) -> str:
    """The scanner cache's name for these signatures. `head`: (n, fields_digest of the first n), where the caller
    knows it (KnowledgeBase.match_digest: the knowledge base's index keeps it), so that only the rest is worked out
    here (~30 ms for the whole knowledge base)."""
    import sys

    n, first = head if head is not None else (0, b"")
    h = _blake2b(digest_size=20)
    h.update(_code_digest())
    h.update(f"{sys.version_info[:2]} {_machine()} {HS_EXPRESSION_VERSION}".encode())
    h.update(first or fields_digest(signatures[:n]))
    h.update(fields_digest(signatures[n:]))
    return h.hexdigest()


# The scanner cache is a sealed file (write_sealed) of sections, each with its own digest in a table at its head: the
# plan, level 1's database, then each of level 2's. A run reads and checks the table, the plan and level 1 only; a
# level-2 database is read and checked where the finder first needs it (finders._HyperscanFinder.level2), so a log with
# no error line does not read, hash or hold the ~18 MB of level 2 (docs/performance.md). A section that is missing or
# damaged by then (the file pruned or rebuilt meanwhile) is answered None: the finder compiles level 2 again.
_SECTION_ROW = 24  # a section's length (8 bytes) and digest (16)
_SECTIONS_MAX = 4096


def _cache_read(path: str) -> Optional[Tuple[dict, Optional[list]]]:
    """(plan, databases): level 1's database as bytes, then level 2's as functions that read and check each (None:
    gone or damaged); None where the file is missing, foreign or damaged."""
    import json

    try:
        with open(path, "rb") as fh:
            head = fh.read(len(_CACHE_MAGIC) + 4)
            if len(head) < len(_CACHE_MAGIC) + 4 or not head.startswith(_CACHE_MAGIC):
                return None
            n = int.from_bytes(head[-4:], "big")
            if not 1 <= n <= _SECTIONS_MAX:
                return None
            table = fh.read(n * _SECTION_ROW + 16)
            if len(table) != n * _SECTION_ROW + 16 or _blake2b(head + table[:-16]).digest() != table[-16:]:
                return None
            rows, at = [], len(head) + len(table)
            for k in range(n):
                size = int.from_bytes(table[k * _SECTION_ROW:k * _SECTION_ROW + 8], "big")
                rows.append((at, size, table[k * _SECTION_ROW + 8:(k + 1) * _SECTION_ROW]))
                at += size
            if os.fstat(fh.fileno()).st_size != at + 16:  # cut short, or grown (write_sealed's digest ends it)
                return None
            plan_bytes = _section(fh, *rows[0])
            if plan_bytes is None:
                return None
            try:
                plan = json.loads(str(plan_bytes, "utf-8"))
            except (ValueError, UnicodeDecodeError):
                return None
            if not isinstance(plan, dict) or not isinstance(plan.get("deferred", []), list):
                return None
            deferred = plan.pop("deferred", [])  # the plan's parts kept as sections of their own, after the databases
            if len(deferred) >= n:
                return None
            dbs = rows[1:n - len(deferred)]
            level1 = _section(fh, *dbs[0]) if dbs else None  # level 1's database, where there is one
            if dbs and level1 is None:
                return None
    except OSError:
        return None
    for name, row in zip(deferred, rows[n - len(deferred):]):
        plan[name] = Deferred(functools.partial(_section_of, path, *row))
    if not dbs:
        return plan, None
    return plan, [level1] + [functools.partial(_section_of, path, *row) for row in dbs[1:]]


# Parts of the plan that a run seldom needs, kept as sections of their own and read where first asked for: the literal
# finders' table (RE2 and pure Python only) and each signature's split codes (a signature whose confirming matcher is
# made): ~1.3 of the plan's ~1.6 MB of JSON, ~18 ms of every run (docs/performance.md, round 27).
DEFERRED = ("lit", "split")


class Deferred:
    """A part of a cached plan, read and parsed on first `value()` (None: the file changed or went since)."""

    def __init__(self, read: Callable[[], Optional[bytes]]):
        self._read = read

    def value(self):
        import json

        data = self._read()
        if data is None:
            return None
        try:
            return json.loads(str(data, "utf-8"))
        except (ValueError, UnicodeDecodeError):
            return None


def undeferred(value):
    """A plan's value as it is, or read where it was deferred (None: it could not be read)."""
    return value.value() if isinstance(value, Deferred) else value


def _section(fh, at: int, size: int, digest: bytes) -> Optional[bytes]:
    fh.seek(at)
    data = fh.read(size)
    return data if len(data) == size and _blake2b(data).digest() == digest else None


def _section_of(path: str, at: int, size: int, digest: bytes) -> Optional[bytes]:
    """A section of the cache file at `path`, read when asked for (None: the file is gone, or holds other bytes)."""
    try:
        with open(path, "rb") as fh:
            return _section(fh, at, size, digest)
    except OSError:
        return None


def json_pieces(obj, ensure_ascii: bool = True, errors: str = "strict") -> list:
    """`obj` as compact JSON (what json.dumps(obj, separators=(",", ":")) gives), UTF-8, in pieces
    (jsonstream.pieces): json.dumps of a whole plan or plan memo (5-8 MB of JSON) held ~4x the text at once, the
    peak of the first run after an install (docs/performance.md)."""
    from ...jsonstream import encoded, pieces

    return encoded(pieces(obj, ensure_ascii, separators=(",", ":")), errors)


def _cache_write(path: str, plan: dict, dbs: Sequence[bytes]) -> None:
    """The plan and the databases (level 1, then level 2's, as the finder dumps them), as sections (_cache_read)."""
    kept = {k: undeferred(plan.get(k)) for k in DEFERRED}
    later = [k for k in DEFERRED if kept[k] is not None]
    core = {k: v for k, v in plan.items() if k not in DEFERRED}
    core["deferred"] = later
    sections = [json_pieces(core)] + [[db] for db in dbs] + [json_pieces(kept[k]) for k in later]
    table = []
    for parts in sections:
        h = _blake2b()
        for p in parts:
            h.update(p)
        table.append(sum(len(p) for p in parts).to_bytes(8, "big") + h.digest())
    head = _CACHE_MAGIC + len(sections).to_bytes(4, "big") + b"".join(table)
    head += _blake2b(head).digest()
    write_sealed(path, [head] + [p for parts in sections for p in parts], "scanner-", _CACHE_KEEP)  # else: no cache


# The database store: each Hyperscan database the scanner compiles, kept by what it was compiled from (its
# expressions and flags, in order, with python-hyperscan's version and the machine), so that the first run after a
# knowledge-base change compiles only the databases whose expressions changed (finders.L2_BUCKETS groups level 2 by
# knowledge-base file for that). Files as the scanner cache's: a digest over their bytes is checked first, and
# Hyperscan checks its own database's version and platform when loading it (a refusal: compiled again).
_DB_MAGIC = b"ascend-doctor hyperscan database 1\n"
_DB_KEEP = 24  # files kept (the newest): a few knowledge bases' databases


def _hs_db_path(exprs: Sequence[bytes], flags: Sequence[int]) -> Optional[str]:
    d = cache_dir()
    if d is None:
        return None
    try:
        import hyperscan  # type: ignore[import]

        version = getattr(hyperscan, "__version__", "?")
    except ImportError:  # pragma: no cover - the finder is not Hyperscan then
        return None
    h = _blake2b(digest_size=20)
    h.update(f"{version} {_machine()} block {len(exprs)}\n".encode())
    for e, f in zip(exprs, flags):
        h.update(b"%d %d " % (f, len(e)) + e)
    return os.path.join(d, f"hsdb-{h.hexdigest()}.bin")


def hs_db_read(exprs: Sequence[bytes], flags: Sequence[int]) -> Optional[bytes]:
    """The serialized database compiled from these expressions and flags (None: not stored, or damaged)."""
    path = _hs_db_path(exprs, flags)
    body = read_sealed(path, _DB_MAGIC) if path is not None else None
    return bytes(body) if body else None


def hs_db_write(exprs: Sequence[bytes], flags: Sequence[int], db: bytes) -> None:
    path = _hs_db_path(exprs, flags)
    if path is not None:
        write_sealed(path, (_DB_MAGIC, db), "hsdb-", _DB_KEEP)  # not written: compiled each time
