"""Python's compiled regex programs kept between runs: `compile(pattern)` answers as `re.compile(pattern)` does.

CPython's `re` parses and compiles a pattern in Python (`re._parser`, `re._compiler`): ~0.1 ms for a short one,
1.5-3 ms for the CANN catalogue's alternations of 1-2 KB. `triage` compiles the patterns of each distinct fault it
meets (the confirming matchers of the scanner, the named groups of `Signature.values` for the report's titles), in
every process, on every run: ~0.17 s of CPU on the benchmark's log of 1,108 distinct faults (docs/performance.md).
A pattern of LONG_PATTERN+ characters is therefore kept, once compiled, as the program `re` made of it (the list of
integers, group count and names `re._compiler.compile` hands to `_sre.compile`), one file per pattern under the
scanner's cache directory, in a directory named by the interpreter's exact version and its regex engine's magic
(`_sre.MAGIC`, `CODESIZE`): a program is only read back by the interpreter that made it. Each file holds its
pattern (compared with the one asked for) and a digest over its bytes; `_sre` checks a program's consistency
itself; anything odd (another layout of `re`, a damaged file, a refused program) falls back to `re.compile`.
A file is a short JSON head (the pattern, flags, groups) and the program's words as bytes, as `array` holds them
(the directory's name says their size and byte order): a program read as a JSON list of numbers cost ~0.09 ms of
parsing each, ~0.3 s on the benchmark's log of 2,800 distinct faults (round 27).
The files depend on a pattern's text alone, not on the knowledge base: they stay valid across its changes.
`ASCEND_DOCTOR_NO_CACHE=1` turns this off with the scanner's cache.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Dict, Optional, Tuple, Union

from .cache import _blake2b, cache_dir, read_sealed, write_sealed

LONG_PATTERN = 64  # shorter patterns compile in ~0.07 ms, about what reading a file costs
_MAGIC = b"ascend-doctor re program 2\n"
_KEEP = 8192  # files kept (the newest) when the directory grows past it: a few knowledge bases' patterns

Pattern = Union[str, bytes]
_memo: Dict[Tuple[type, Pattern, int], "re.Pattern"] = {}
_where: list = []  # [directory or None], worked out on first use


def _engine():
    """(parse, code) of this interpreter's `re` (3.11+: re._parser/_compiler; 3.8-3.10: sre_parse/sre_compile),
    or None where they are not laid out as `compile` below expects."""
    try:
        from re import _compiler as comp, _parser as parse  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - Python < 3.11
        import sre_compile as comp  # type: ignore[no-redef]
        import sre_parse as parse  # type: ignore[no-redef]
    if not (hasattr(parse, "parse") and hasattr(comp, "_code") and hasattr(comp, "_sre")
            and hasattr(comp._sre, "compile")):
        return None  # pragma: no cover
    return parse.parse, comp._code, comp._sre


def _directory() -> Optional[str]:
    if not _where:
        d = cache_dir()
        sre = _engine()
        if d is None or sre is None:
            _where.append(None)
        else:
            tag = _blake2b(f"{sys.implementation.name} {sys.version} {sre[2].MAGIC} {sre[2].CODESIZE} {sys.byteorder}"
                           .encode(),
                           digest_size=8).hexdigest()
            _where.append(os.path.join(d, f"re-{tag}"))
    return _where[0]


def _file(d: str, pattern: Pattern, flags: int) -> str:
    kind = b"b" if isinstance(pattern, bytes) else b"s"
    raw = pattern if isinstance(pattern, bytes) else pattern.encode("utf-8", "surrogatepass")
    return os.path.join(d, _blake2b(kind + str(flags).encode() + b"\0" + raw, digest_size=20).hexdigest())


def _as_text(pattern: Pattern) -> list:
    return ["b", pattern.decode("latin-1")] if isinstance(pattern, bytes) else ["s", pattern]


def compile(pattern: Pattern, flags: int = 0) -> "re.Pattern":  # noqa: A001 - re.compile's name, on purpose
    """re.compile(pattern, flags), from a kept program where there is one (see the module's docstring)."""
    flags = int(flags)
    key = (type(pattern), pattern, flags)
    got = _memo.get(key)
    if got is not None:
        return got
    d = _directory() if len(pattern) >= LONG_PATTERN and not flags & re.DEBUG else None
    rx = _read(d, pattern, flags) if d is not None else None
    if rx is None:
        rx = _compile_and_keep(d, pattern, flags) if d is not None else re.compile(pattern, flags)
    _memo[key] = rx
    return rx


def _read(d: str, pattern: Pattern, flags: int) -> Optional["re.Pattern"]:
    rest = read_sealed(_file(d, pattern, flags), _MAGIC)
    if rest is None:
        return None
    try:
        size = int.from_bytes(rest[:4], "big")
        doc = json.loads(str(rest[4:4 + size], "utf-8"))
        if doc.get("p") != _as_text(pattern) or doc.get("f") != flags:
            return None
        _parse, _code, sre = _engine()  # type: ignore[misc]
        code = _words(sre)
        code.frombytes(rest[4 + size:])
        groupindex = {str(k): int(v) for k, v in doc["gi"].items()}
        return sre.compile(pattern, int(doc["fl"]), code.tolist(), int(doc["g"]), groupindex, tuple(doc["ig"]))
    except (ValueError, TypeError, KeyError, AttributeError, RuntimeError, UnicodeDecodeError, OverflowError):
        return None


def _words(sre):
    """An empty array of the engine's code words (CODESIZE bytes each, this machine's byte order: the directory's
    name says both)."""
    from array import array

    for kind in "IL":
        if array(kind).itemsize == sre.CODESIZE:
            return array(kind)
    raise ValueError(sre.CODESIZE)  # pragma: no cover - no array type of that size: not kept


def _compile_and_keep(d: str, pattern: Pattern, flags: int) -> "re.Pattern":
    """As re._compiler.compile (3.8-3.13), keeping the program it hands to _sre.compile; re.compile where that
    fails or does not answer as re.compile (a layout of `re` this code does not know)."""
    try:
        parse, code_of, sre = _engine()  # type: ignore[misc]
        p = parse(pattern, flags)
        code = code_of(p, flags)
        groupindex = dict(p.state.groupdict)
        indexgroup = [None] * p.state.groups
        for k, i in groupindex.items():
            indexgroup[i] = k
        final = flags | p.state.flags
        rx = sre.compile(pattern, final, code, p.state.groups - 1, groupindex, tuple(indexgroup))
        if _check[0]:  # the first program made in a process: the one re.compile makes (equality compares programs)
            _check[0] = False
            ref = re.compile(pattern, flags)
            if ref != rx:  # pragma: no cover - a layout of `re` this code does not know: keep nothing, in this process
                _where[:] = [None]
                return ref
    except Exception:  # pragma: no cover - re raises re.error as it always does
        return re.compile(pattern, flags)
    try:
        words = _words(sre)
        words.extend(code)
    except (ValueError, OverflowError):  # pragma: no cover - a word this array cannot hold: nothing kept
        return rx
    _write(d, pattern, flags, {"p": _as_text(pattern), "f": flags, "fl": final, "g": p.state.groups - 1,
                               "gi": groupindex, "ig": indexgroup}, words.tobytes())
    return rx


_check = [True]  # the first program made in a process is compared with re.compile's (a guard, once)
_pruned = [False]


def _write(d: str, pattern: Pattern, flags: int, doc: dict, code: bytes) -> None:
    head = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
    body = b"".join((_MAGIC, len(head).to_bytes(4, "big"), head, code))
    if not write_sealed(_file(d, pattern, flags), body, "re-"):  # a read-only home, a full disk: compiled each time
        return
    if not _pruned[0]:  # once per process: the directory bounded (its files are named by digest: all are counted)
        _pruned[0] = True
        try:
            entries = [e for e in os.scandir(d) if e.is_file()]
            if len(entries) > _KEEP:
                entries.sort(key=lambda e: e.stat().st_mtime, reverse=True)
                for e in entries[_KEEP // 2:]:
                    os.unlink(e.path)
        except OSError:
            pass
        _prune_other_interpreters(d)


_STALE_DAYS = 30  # another interpreter's directory no file was written to for this long: that Python is likely gone
_KEEP_DIRS = 8  # interpreters' directories kept at most (the ones written to last): 3.8-3.13 and a few builds


def _prune_other_interpreters(d: str) -> None:
    """Remove the directories of other interpreters that were not written to for _STALE_DAYS, and past the
    _KEEP_DIRS written to last: an upgraded or removed Python leaves its programs behind, and nothing else would
    ever read them (the name is the interpreter's exact version). A live one that loses its directory compiles
    its patterns again, once."""
    import shutil
    import time

    parent, own = os.path.split(d)
    try:
        dirs = [(e.stat().st_mtime, e.path) for e in os.scandir(parent)
                if e.name.startswith("re-") and e.name != own and e.is_dir(follow_symlinks=False)]
    except OSError:
        return
    dirs.sort(reverse=True)
    cutoff = time.time() - _STALE_DAYS * 86400
    for rank, (mtime, path) in enumerate(dirs, 2):  # rank 1 is this interpreter's own
        if mtime < cutoff or rank > _KEEP_DIRS:
            shutil.rmtree(path, ignore_errors=True)
