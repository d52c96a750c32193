"""Anchor finders: where in a chunk the scanner's literals occur, and the plan of what they look for."""

from __future__ import annotations

import os
import re
import zlib
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from ...kb.model import Signature
from .cache import _CACHE_MIN_SIGNATURES, hs_db_read, hs_db_write
from .codes import code_hs_pattern
from .literals import ANCHOR_MAX_LEN, _starts, _trie_regex, _use_find, digit_blind, plan_passes, required_literals
from .gates import CASELESS, LITERAL, REGEX, at_level2, hs_literal, two_levels
from .translate import hs_expression


# Each finder adds {line start: {signature indexes}} for every line holding one of the
# anchors; the signatures' exact matchers then decide. A finder only narrows the lines
# to look at, so every finder gives the same answers (the tests run them all).
#
# Measured on the 200 MB log of scripts/bench_kb.py with the ~1,300 anchors of the full
# knowledge base (CPython 3.11, one core): Hyperscan 2.4 GB/s, an RE2 set 0.65 GB/s,
# pyahocorasick 0.09 GB/s (it needs a str and yields every hit into Python), the
# pure-Python passes below ~0.05 GB/s. Hyperscan has wheels for x86_64 (CPython 3.8+) and
# aarch64 (3.10+); google-re2 for both on 3.8-3.13: see setup.cfg and README "Performance".

MATCHERS = ("hyperscan", "re2", "python")
MATCHER_ENV = "ASCEND_DOCTOR_MATCHER"  # hyperscan | re2 | python (default: the first that loads)
NO_ACCEL_ENV = "ASCEND_DOCTOR_NO_RE2"  # =1: pure Python (the name predates Hyperscan)


def matcher_order() -> List[str]:
    """The finders to try, best first, as the environment asks (read at each Scanner build)."""
    if os.environ.get(NO_ACCEL_ENV):
        return ["python"]
    want = (os.environ.get(MATCHER_ENV) or "").strip().lower()
    if want in MATCHERS:
        return list(MATCHERS[MATCHERS.index(want):])
    return list(MATCHERS)


def _note_line(lines: Dict[int, Set[int]], ls: int, ids) -> None:
    got = lines.get(ls)
    if got is None:
        lines[ls] = set(ids)
    else:
        got.update(ids)


# Whether this python-hyperscan scans a memoryview without a copy (newer builds do; the cp38 wheels raise
# "a bytes-like object is required"): learnt on the first scan.
_HS_TAKES_VIEWS = [True]


# In a process that only builds the databases to store them (scanner._build_apart's child): each is kept as its
# serialized bytes, not as a compiled database with scratch space, so that the databases compiled before do not add
# to the next one's compile (the first run after an install peaks there)
BUILD_ONLY = [False]
L2_PART = 300  # level 2's expressions per Hyperscan database (see _HyperscanFinder); 800 until round 16, when a
# database of 715 expressions added 55 MB at the first run's peak (400: 28 MB at most) and scans cost the same; 400
# until round 18, when the first run after an install peaked at 116.4 MB with 400 and 110.9 MB with 300 (2,394
# signatures), the 60 MB benchmark log taking 1.39 and 1.41 s of CPU (docs/performance.md)

_MALLOC_TRIM: list = []  # [glibc's malloc_trim, or None where there is none], found on first use


def release_heap() -> None:
    """Give the heap's free pages back to the system (glibc's `malloc_trim`; nothing elsewhere). Hyperscan's compiler
    frees its working memory (20-40 MB a database) but glibc keeps those pages mapped, so without this the next
    level's compile, and then the scan, stack on top of every earlier one: the first run after an install peaked at
    130 MB, over the 128 MB bound (docs/performance.md). Called only where a database was compiled here."""
    if not _MALLOC_TRIM:
        try:
            import ctypes

            _MALLOC_TRIM.append(ctypes.CDLL(None).malloc_trim)
        except (ImportError, OSError, AttributeError):  # not glibc (musl, macOS), or no ctypes: nothing to give back
            _MALLOC_TRIM.append(None)
    if _MALLOC_TRIM[0] is not None:
        _MALLOC_TRIM[0](0)


class _HsLevel:
    """One Hyperscan database: its expressions' signatures (None: a mark, the line goes to level 2) and, per
    expression, the signatures its hit is a match of (see _scan_plan's hs_sure)."""

    def __init__(self, entries: Sequence[Tuple[bytes, int, Optional[Set[int]]]], db: Optional[bytes],
                 sure: Set[int]):
        import hyperscan  # type: ignore[import]

        self.sigs: List[Optional[Set[int]]] = [ids for _, _, ids in entries]
        self.sure = [None if ids is None or kind != REGEX else ((ids & sure) or None) for _, kind, ids in entries]
        self.db = None
        self._dumped: Optional[bytes] = None  # BUILD_ONLY: the database as bytes, instead of `db`
        if db is not None:  # the cached database of these expressions
            self.db = hyperscan.loadb(db, hyperscan.HS_MODE_BLOCK)
        elif entries:
            flags = {LITERAL: 0, REGEX: hyperscan.HS_FLAG_MULTILINE, CASELESS: hyperscan.HS_FLAG_CASELESS}
            exprs, kinds = [e for e, _, _ in entries], [flags[k] for _, k, _ in entries]
            keep = len(entries) >= _CACHE_MIN_SIGNATURES  # a small database compiles faster than it is stored
            stored = hs_db_read(exprs, kinds) if keep else None  # the same expressions compiled for another KB
            if stored is not None and BUILD_ONLY[0]:
                self._dumped = stored  # (as it would be dumped again)
            elif stored is not None:
                try:
                    self.db = hyperscan.loadb(stored, hyperscan.HS_MODE_BLOCK)
                except Exception:  # noqa: BLE001 - another Hyperscan: compiled below
                    self.db = None
            if self.db is None and self._dumped is None:
                self.db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
                self.db.compile(expressions=exprs, ids=list(range(len(entries))), elements=len(entries), flags=kinds)
                if keep or BUILD_ONLY[0]:
                    dumped = hyperscan.dumpb(self.db)
                    if keep:
                        hs_db_write(exprs, kinds, dumped)
                    if BUILD_ONLY[0]:  # kept as bytes only: the compiled database (and its scratch) is not needed
                        self._dumped, self.db = dumped, None
                release_heap()  # the compiler's working memory, before the next database compiles
        if self.db is not None and not BUILD_ONLY[0]:
            self.db.scratch = hyperscan.Scratch(self.db)

    def dump(self) -> bytes:
        import hyperscan  # type: ignore[import]

        if self.db is None:
            return self._dumped or b""
        return hyperscan.dumpb(self.db)

    def scan(self, buf: bytes, start: int, end: int) -> List[Tuple[int, int]]:
        """[(match end, expression)] in buf[start:end], in order of match end (offsets from `start`)."""
        found: List[Tuple[int, int]] = []
        add = found.append
        handler = lambda i, _f, to, _fl, _c: add((to, i))  # noqa: E731
        if _HS_TAKES_VIEWS[0]:
            try:
                self.db.scan(memoryview(buf)[start:end], match_event_handler=handler)
            except TypeError:  # older python-hyperscan builds (the cp38 wheels) take bytes only
                _HS_TAKES_VIEWS[0] = False
                found.clear()
        if not _HS_TAKES_VIEWS[0]:
            self.db.scan(bytes(buf[start:end]) if start or end != len(buf) else bytes(buf), match_event_handler=handler)
        return found


def _entries(rows) -> List[tuple]:
    """A plan's level rows [expression text or None, kind, ids or None] as _HsLevel's entries."""
    return [(e.encode("latin-1") if e is not None else None, kind, None if ids is None else set(ids))
            for e, kind, ids in rows]


def _as_bytes(db) -> Optional[bytes]:
    """A cached database given to _HyperscanFinder (bytes, or a function reading them) as bytes; None for none (an
    empty level); ValueError where it can no longer be read."""
    if callable(db):
        db = db()
        if db is None:
            raise ValueError("a cached database that can no longer be read")
    if db is None:
        return None
    return bytes(db) or None  # (Hyperscan loads bytes only, not a view)


class _HyperscanFinder:
    """Hyperscan, in two levels (gates.py): level 1 (gate words, anchors, the expressions neither covers) over every
    byte, level 2 (every other literal and whole regex, see hs_expression) over the lines level 1 marked; a hit
    belongs to the line holding its last byte (no expression matches a newline, so that line holds the whole match).
    `levels` None: one level of the literals and regexes given."""

    name = "hyperscan"

    def __init__(self, lit_sigs: Dict[bytes, Set[int]], regexes: Sequence[Tuple[bytes, Set[int]]] = (),
                 db: Optional[Sequence] = None,
                 sure: Set[int] = frozenset(),  # type: ignore[assignment]
                 levels: Optional[dict] = None):
        if levels is None:
            one = [(hs_literal(lit).encode("latin-1"), LITERAL, lit_sigs[lit]) for lit in sorted(lit_sigs)]
            one += [(e, REGEX, set(ids)) for e, ids in regexes]
            entries: List[list] = [one, []]
        else:
            # (a cached plan's levels carry no expression texts: its database holds them); level 2's rows are made
            # entries where its databases are loaded (a cached database: where a line is first marked, `level2`)
            entries = [_entries(levels["l1"]), levels["l2"] if db is not None else _entries(levels["l2"])]
        # level 2 in databases of at most L2_PART expressions: Hyperscan's compiler needs memory faster than linearly
        # in a database's size (one of ~2,400 level-2 expressions peaked at 134 MB, three parts at 85 MB), and
        # level 2 reads only the marked lines, so a few scans of them cost little
        sizes = (levels or {}).get("l2_parts") or [min(L2_PART, len(entries[1]) - i)
                                                    for i in range(0, len(entries[1]), L2_PART)]
        parts, at = [], 0
        for n in sizes:
            parts.append(entries[1][at:at + n])
            at += n
        if at != len(entries[1]):
            raise ValueError("a plan whose level-2 parts do not add up")
        dbs: list = [None] * (1 + len(parts))
        if db is not None:  # the cached databases: level 1, then level 2's parts
            dbs = list(db)
            if len(dbs) != 1 + len(parts):
                raise ValueError("a cached database of another partition")
        self.level1 = _HsLevel(entries[0], _as_bytes(dbs[0]), sure)
        self._l2: Optional[List[_HsLevel]] = None
        # a cached level 2 is loaded where a line is first marked for it: a log without one (a healthy node's) never
        # pays for its databases (~20 ms to load and to make their scratch space, ~20 MB: docs/performance.md)
        self._l2_pending: Optional[tuple] = (parts, dbs[1:], sure) if db is not None else None
        # where a cached part cannot be loaded after all: compiles level 2 again (compile_level2) from the plan worked
        # out again, and writes the cache again (Scanner._rebuild_level2)
        self.rebuild_level2: Optional[Callable[[], None]] = None
        if db is None:
            self._l2 = [_HsLevel(part, None, sure) for part in parts]

    @property
    def level2(self) -> List["_HsLevel"]:
        """Level 2's databases (loaded from the cached bytes on first use)."""
        if self._l2 is None:
            parts, dbs, sure = self._l2_pending  # type: ignore[misc]
            try:
                self._l2 = [_HsLevel(_entries(part), _as_bytes(dbs[k]), sure) for k, part in enumerate(parts)]
            except Exception:  # noqa: BLE001 - refused (level 1 of the same file was not): compiled from the plan
                if self.rebuild_level2 is None:
                    raise
                self.rebuild_level2()
            self._l2_pending = None  # (the cached file's bytes go with it)
        return self._l2  # type: ignore[return-value]

    def compile_level2(self, rows: Sequence) -> None:
        """Level 2 compiled from a plan's level-2 rows with their expressions' texts (`_scan_plan(...)["hs_levels"]
        ["l2"]`, the same partition as the cached one)."""
        parts, _dbs, sure = self._l2_pending  # type: ignore[misc]
        self._l2, at = [], 0
        for part in parts:
            self._l2.append(_HsLevel(_entries(rows[at:at + len(part)]), None, sure))
            at += len(part)

    def dump(self) -> List[bytes]:
        """The databases serialized (level 1, then level 2's parts; b"" for an empty one), each kept apart (not
        joined: a copy of ~18 MB at the peak of the first run after a knowledge-base change): what `db` takes."""
        return [level.dump() for level in [self.level1] + self.level2]

    def add_lines(self, buf: bytes, start: int, end: int, lines: Dict[int, Set[int]],
                  sure_lines: Optional[Dict[int, Set[int]]] = None) -> None:
        """`sure_lines` (when given) gets {line start: signatures one of whose regexes matched in it}."""
        if self.level1.db is None or end <= start:
            return
        rfind, find = buf.rfind, buf.find
        sigs, sure = self.level1.sigs, self.level1.sure
        marked: List[Tuple[int, int]] = []  # level 1's marked lines (start, end), in order
        mark_end = -1
        last_p, last_ls = -1, start
        for to, i in self.level1.scan(buf, start, end):  # in order of match end
            p = start + to - 1
            ids = sigs[i]
            if ids is None:  # a gate word or an anchor: the line goes to level 2 (once)
                if p >= mark_end:
                    ls = rfind(b"\n", start, p) + 1 or start
                    le = find(b"\n", p, end)
                    mark_end = end if le < 0 else le
                    if marked and marked[-1][1] + 1 == ls:  # the next line: one range
                        marked[-1] = (marked[-1][0], mark_end)
                    else:
                        marked.append((ls, mark_end))
                continue
            ls = last_ls if p == last_p else (rfind(b"\n", start, p) + 1 or start)
            last_p, last_ls = p, ls
            got = lines.get(ls)
            if got is None:
                lines[ls] = set(ids)
            else:
                got.update(ids)
            if sure_lines is not None and sure[i] is not None:
                _note_line(sure_lines, ls, sure[i])
        if marked and self.level2:
            self._level2(buf, start, marked, lines, sure_lines)

    def _level2(self, buf: bytes, start: int, marked: List[Tuple[int, int]], lines: Dict[int, Set[int]],
                sure_lines: Optional[Dict[int, Set[int]]]) -> None:
        """Level 2 over the marked lines, joined by newlines in one scan; each hit's offset mapped back to buf."""
        joined: Optional[bytes] = None
        if len(marked) == 1:
            at, base = [0], [0]
        else:
            joined = b"\n".join([buf[a:b] for a, b in marked])
            at, base, pos = [], [], 0  # each range's offset in `joined`, and in buf
            for a, b in marked:
                at.append(pos)
                base.append(a)
                pos += b - a + 1
        for level in self.level2:
            if joined is None:
                lo, hi = marked[0]
                found = [(to + lo, i) for to, i in level.scan(buf, lo, hi)]
            else:
                found = level.scan(joined, 0, len(joined))
            self._level2_hits(buf, start, at, base, found, level, lines, sure_lines)

    @staticmethod
    def _level2_hits(buf: bytes, start: int, at: List[int], base: List[int], found: List[Tuple[int, int]],
                     level: "_HsLevel", lines: Dict[int, Set[int]],
                     sure_lines: Optional[Dict[int, Set[int]]]) -> None:
        rfind, sigs, sure = buf.rfind, level.sigs, level.sure
        k, last_p, last_ls = 0, -1, start
        for to, i in found:  # in order of match end: the ranges in order too
            q = to - 1
            while k + 1 < len(at) and at[k + 1] <= q:
                k += 1
            p = base[k] + q - at[k]
            ls = last_ls if p == last_p else (rfind(b"\n", start, p) + 1 or start)
            last_p, last_ls = p, ls
            ids = sigs[i]
            got = lines.get(ls)
            if got is None:
                lines[ls] = set(ids)  # type: ignore[arg-type]
            else:
                got.update(ids)  # type: ignore[arg-type]
            if sure_lines is not None and sure[i] is not None:
                _note_line(sure_lines, ls, sure[i])


class _Re2Finder:
    """An RE2 set of the anchors answers "which anchors are in this block?" in one DFA pass; bytes.find places them."""

    name = "re2"
    BLOCK = 64 << 10

    def __init__(self, lit_sigs: Dict[bytes, Set[int]]):
        import re2 as _re2mod  # type: ignore[import]

        self.lits = sorted(lit_sigs)
        self.sigs = [lit_sigs[lit] for lit in self.lits]
        opts = _re2mod.Options()
        opts.encoding = _re2mod.Options.Encoding.LATIN1  # byte for byte, whatever the log's encoding
        opts.log_errors = False
        opts.max_mem = 64 << 20
        self.set = _re2mod.Set.SearchSet(opts)
        for lit in self.lits:
            self.set.Add(re.escape(lit))
        self.set.Compile()  # raises when the set does not fit max_mem

    def add_lines(self, buf: bytes, start: int, end: int, lines: Dict[int, Set[int]]) -> None:
        if not self.lits:
            return
        match, find, rfind = self.set.Match, buf.find, buf.rfind
        pos = start
        while pos < end:
            be = find(b"\n", min(pos + self.BLOCK, end), end)
            be = end if be < 0 else be
            for i in match(buf[pos:be]) or ():
                lit, ids = self.lits[i], self.sigs[i]
                p = find(lit, pos, be)
                while p >= 0:
                    _note_line(lines, rfind(b"\n", start, p) + 1 or start, ids)
                    p = find(lit, p + 1, be)
            pos = be + 1


class _PythonFinder:
    """A few regex passes over each chunk; each pass a prefix trie of the anchors that start with one byte.

    The regex engine skips to that byte with its fast literal-prefix loop in C. Which bytes: a greedy
    set cover of all the anchors' literals, preferring bytes that are rare in log text.
    """

    name = "python"

    def __init__(self, lit_sigs: Dict[bytes, Set[int]]):
        self.passes: List[Tuple[re.Pattern, Dict[bytes, Set[int]]]] = []
        self._find_bytes: List[Optional[bytes]] = []  # per pass: the byte to memchr for, or None (regex pass)
        for byte, lits in plan_passes(lit_sigs):
            anchors: Dict[bytes, Set[int]] = {}
            for lit in lits:
                at = min((i for i in _starts(lit) if lit[i] == byte), default=0)
                anchor = lit[at:at + ANCHOR_MAX_LEN]
                anchors.setdefault(anchor, set()).update(lit_sigs[lit])
            # the trie stops at the shortest anchor of a chain ("abc" before "abcd"): a hit on the
            # short one must bring the signatures of every anchor it is a prefix of
            for short in list(anchors):
                for long in anchors:
                    if long != short and long.startswith(short):
                        anchors[short] = anchors[short] | anchors[long]
            self.passes.append((re.compile(_trie_regex(sorted(anchors))), anchors))
            self._find_bytes.append(bytes([byte]) if _use_find(byte, len(anchors)) else None)

    def add_lines(self, buf: bytes, start: int, end: int, lines: Dict[int, Set[int]]) -> None:
        rfind, find = buf.rfind, buf.find
        for (rx, anchors), byte in zip(self.passes, self._find_bytes):
            if byte is not None:  # rare byte: memchr to it, then try the trie right there
                match = rx.match
                p = find(byte, start, end)
                while p >= 0:
                    m = match(buf, p, end)
                    if m is not None:
                        ids = anchors.get(m.group(0))
                        if ids:
                            _note_line(lines, rfind(b"\n", start, p) + 1 or start, ids)
                    p = find(byte, p + 1, end)
                continue
            search = rx.search
            m = search(buf, start, end)
            while m is not None:
                ids = anchors.get(m.group(0))
                if ids:
                    _note_line(lines, rfind(b"\n", start, m.start()) + 1 or start, ids)
                m = search(buf, m.start() + 1, end)


_FINDERS = {"hyperscan": _HyperscanFinder, "re2": _Re2Finder, "python": _PythonFinder}


def drop_plan_caches() -> None:
    """Forget what the plan's functions keep for the next plan (their lru caches: literals._starts, gates._gate_of,
    gates._own_anchors). A process that plans once and then compiles (scanner._build_apart's child, BUILD_ONLY) calls
    it before compiling, so that the compile's peak does not stand on them."""
    from . import gates, literals

    for cached in (literals._starts, gates._gate_of, gates._own_anchors):
        cached.cache_clear()


def _scan_plan(signatures: Sequence[Signature], hs_reject: Set[bytes] = frozenset()) -> dict:  # type: ignore[assignment]
    """_work_out_plan, with the answers per expression kept between knowledge bases (planmemo.py)."""
    from . import planmemo

    if len(signatures) < _CACHE_MIN_SIGNATURES:  # a small knowledge base: worked out faster than the memo is read
        return _work_out_plan(signatures, hs_reject)
    with planmemo.active():
        return _work_out_plan(signatures, hs_reject)


def _work_out_plan(signatures: Sequence[Signature], hs_reject: Set[bytes] = frozenset()) -> dict:  # type: ignore[assignment]
    """What the finders look for, worked out from the signatures (cached on disk, see _ScannerCache).

    lit / unanchored: every signature's literal anchors, for the literal finders (RE2 set, Python passes);
    hs_lit / hs_re / hs_exact / hs_unanchored: for Hyperscan, each regex whole where hs_expression can
    write it (`hs_reject`: expressions Hyperscan refused), the literals of the rest; hs_exact: the
    signatures whose Hyperscan hit is a match (no exclude, exact expressions, one-literal alternatives);
    hs_sure: those whose hit on one of their regexes is a match unless an exclude holds (exact expressions): on a
    line where only an all_of anchor fired, their regexes cannot match, so only the alternatives are checked; their
    excludes are checked in Python, their patterns never compiled there.
    hs_levels: the same literals and regexes split into Hyperscan's two databases (gates.two_levels).
    pre: for a signature of long patterns Python confirms, each phrase pattern's required literals (its matcher compiles
    a pattern only where a line holds one of them: Signature.bytes_matcher).
    blind: the signatures that answer alike for lines differing only in their digits (_digit_blind: the
    scanner's memo of a line with its time cut).
    """
    shared: Dict[str, int] = {}
    for sig in signatures:
        for alt in sig.all_of:
            for lit in set(alt):
                shared[lit] = shared.get(lit, 0) + 1
    lit: Dict[bytes, Set[int]] = {}
    unanchored: List[int] = []
    hs_lit: Dict[bytes, Set[int]] = {}
    hs_re: Dict[bytes, Set[int]] = {}
    hs_exact: List[int] = []
    hs_sure: List[int] = []
    hs_unanchored: List[int] = []
    code_sigs: List[int] = []
    all_codes: List[str] = []
    for i, sig in enumerate(signatures):
        lits = sig.scan_literals(shared)
        if lits is None:
            unanchored.append(i)
        else:
            for x in lits:
                lit.setdefault(x, set()).add(i)
        if sig.derived:
            continue
        exprs: Optional[List[Tuple[bytes, bool]]] = []
        pats = sig.patterns()
        # Python confirms its hits anyway (an exclude, a bare code's context): its patterns may be cut to their most
        # selective part (translate._best_segment; every signature's long bounded repeats are widened)
        confirmed = bool(sig.exclude) or sig.has_bare_codes()
        if sig.has_bare_codes():  # its bare codes go into one expression for all (below); its phrases as they are
            phrases, codes, _alts, _code_alts = sig.split_codes()
            pats = phrases
            if codes:
                code_sigs.append(i)
                all_codes.extend(c for c in codes if c not in all_codes)
        for p in pats:
            got = hs_expression(p, widen=confirmed)
            if confirmed and got is not None and not got[1]:
                # cut for Hyperscan's sake: the uncut expression instead, where it is exact (no long repeat, no
                # look-around, no line anchor) and runs at level 2 (only over the lines a gate word or its anchors mark,
                # where its cost hardly counts): a hit is then a match (hs_sure), and Python never compiles the pattern
                plain = hs_expression(p)
                if plain is not None and plain[1] and plain[0] not in hs_reject and at_level2(plain[0]):
                    got = plain
            if got is None or got[0] in hs_reject:
                exprs = None
                break
            exprs.append(got)  # type: ignore[union-attr]
        if exprs is None:  # Hyperscan looks for its literals too; Python confirms
            if lits is None:
                hs_unanchored.append(i)
            for x in lits or ():
                hs_lit.setdefault(x, set()).add(i)
            continue
        for e, _ in exprs:
            hs_re.setdefault(e, set()).add(i)
        for x in sig.all_of_anchors(shared):
            hs_lit.setdefault(x, set()).add(i)
        if all(ok for _, ok in exprs) and not sig.has_bare_codes():  # a code: Python decides
            if not sig.exclude and all(len(alt) == 1 for alt in sig.all_of):
                hs_exact.append(i)
            elif exprs:  # its excludes (and all_of) checked in Python, its patterns never compiled
                hs_sure.append(i)

    if all_codes:  # every bare code of the knowledge base in one expression: a hit is a candidate of each of them
        got = hs_expression(code_hs_pattern("|".join(all_codes)))
        if got is not None and got[0] not in hs_reject:
            hs_re.setdefault(got[0], set()).update(code_sigs)
        else:  # Hyperscan cannot: their literals (every line holding the code is a candidate)
            for i in code_sigs:
                for x in signatures[i].scan_literals(shared) or ():
                    hs_lit.setdefault(x, set()).add(i)

    def table(d: Dict[bytes, Set[int]]) -> list:
        return [[k.decode("latin-1"), sorted(v)] for k, v in sorted(d.items())]

    # a signature's split of its patterns into phrases and bare codes (Signature.split_codes parses each pattern that
    # holds a digit: ~25 ms for the signatures of a log full of faults, in every process): kept with the plan, given
    # to the signature when its exact matcher is first made (Scanner._matcher)
    split = {str(i): list(sig.split_codes()) for i, sig in enumerate(signatures)
             if not sig.derived and any(_HAS_DIGIT.search(p) for p in sig.patterns())}
    # a signature of long patterns that Python confirms: each phrase pattern's required literals, so that a line
    # compiles only the patterns it can match (Signature.bytes_matcher's prefilter)
    pre = {}
    for i, sig in enumerate(signatures):
        if not sig.derived and sum(len(p) for p in sig.patterns()) >= PREFILTER_MIN_CHARS and i not in hs_exact \
                and i not in hs_sure:
            pre[str(i)] = [required_literals(p) for p in sig.split_codes()[0]]
    hs_lit_rows, hs_re_rows = table(hs_lit), table(hs_re)
    levels = _partitioned(two_levels(hs_lit_rows, hs_re_rows), signatures)
    return {"lit": table(lit), "unanchored": unanchored, "hs_lit": hs_lit_rows, "hs_re": hs_re_rows, "split": split,
            "hs_levels": levels, "pre": pre,
            "hs_exact": hs_exact, "hs_sure": hs_sure, "hs_unanchored": hs_unanchored,
            "hs_reject": sorted(x.decode("latin-1") for x in hs_reject),
            "blind": [i for i, sig in enumerate(signatures) if _digit_blind(sig)]}


# Level 2's expressions go into L2_BUCKETS groups by the knowledge-base file of their (first) signature, each group
# compiled as databases of at most L2_PART expressions: a change in one file, or a new file, changes only its group's
# databases, and the others are read from the database store (_HsLevel, cache.hs_db_read) instead of compiled again
# (level 2 is ~90% of the compile time of the first run after a knowledge-base change). Which database looks for an
# expression changes no answer: a line's hits are the union of every database's.
L2_BUCKETS = 6


def _bucket(sig: Signature) -> int:
    return zlib.crc32(os.path.basename(sig.origin or "").encode("utf-8", "surrogatepass")) % L2_BUCKETS


def _partitioned(levels: dict, signatures: Sequence[Signature]) -> dict:
    """two_levels' answer with level 2 ordered by group (see L2_BUCKETS), and "l2_parts": the sizes of its
    databases in that order."""
    l2 = levels.get("l2") or []
    if not l2:
        return levels
    groups: List[list] = [[] for _ in range(L2_BUCKETS)]
    for entry in l2:
        ids = entry[2]
        groups[_bucket(signatures[min(ids)]) if ids else 0].append(entry)
    sizes = [min(L2_PART, len(g) - at) for g in groups for at in range(0, len(g), L2_PART)]
    return dict(levels, l2=[e for g in groups for e in g], l2_parts=sizes)


# Patterns this long (all of a signature's, in characters) are compiled one by one, each only where a line holds one of
# its literals (the plan's "pre"): compiling a 30 KB alternation whole costs ~120 ms in every process that meets it.
PREFILTER_MIN_CHARS = 2000
_HAS_DIGIT = re.compile(r"\\d|[0-9]")  # a pattern split_codes parses (a code needs a digit): its cheap test is wider


def _digit_blind(sig: Signature) -> bool:
    """Whether `sig` answers the same for two lines that differ only in which digits stand where (their times):
    its patterns and excludes digit-blind (literals.digit_blind), no digit in its all_of literals, no bare code
    (codes count in a context: decided in Python). A derived signature matches no line: blind."""
    if sig.derived:
        return True
    if sig.has_bare_codes() or any(c.isdigit() for alt in sig.all_of for lit in alt for c in lit):
        return False
    return all(digit_blind(p) for p in sig.patterns()) and all(digit_blind(x) for x in sig.exclude)


def _untable(rows) -> Dict[bytes, Set[int]]:
    return {k.encode("latin-1"): set(v) for k, v in rows}
