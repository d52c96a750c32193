"""`Scanner`: every signature's hits in chunks of bytes, without touching non-matching lines in Python."""

from __future__ import annotations

import os
import re
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from ...kb.model import Signature, _GcPaused
from .cache import _CACHE_MIN_SIGNATURES, _cache_read, _cache_write, _scanner_key, cache_dir, undeferred
from . import recache
from .finders import (BUILD_ONLY, _FINDERS, _HyperscanFinder, _PythonFinder, _note_line, _scan_plan, _untable,
                      drop_plan_caches, matcher_order, release_heap)


def _build_apart(scanner: "Scanner", order: List[str], path: str) -> None:
    """Work out the plan and compile the databases in a forked child, which stores them in the cache; this process then
    reads them as any later run does. The plan's and the compiler's working memory (tens of MB, kept by the heap in
    pieces that cannot all be given back) is then never in the process that scans, so the first run after an install
    peaks no higher than its build, not at its build's leftovers plus the scan (docs/performance.md). Where the
    child fails (killed, out of memory, a fork refused), or a fork is not safe, this process builds as before."""
    from ...process import fork_is_safe

    folder = os.path.dirname(path)
    if not fork_is_safe() or (os.path.isdir(folder) and not os.access(folder, os.W_OK)):  # (nothing to hand over)
        return
    try:
        pid = os.fork()
    except OSError:
        return
    if pid == 0:  # the child: build, store, leave without running this process's exit handlers or flushing its output
        code = 1
        try:
            BUILD_ONLY[0] = True  # (this child's own copy: it builds and stores, it never scans)
            with _GcPaused():
                scanner._build(order, path)
            code = 0
        except BaseException:  # noqa: BLE001 - the parent builds for itself
            pass
        finally:
            os._exit(code)
    try:
        os.waitpid(pid, 0)
    except BaseException:  # interrupted: the child goes too
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except OSError:
            pass
        raise


# Where this run builds the matcher (the first run after an install or a knowledge-base change: tens of seconds of
# CPU, the plan and the Hyperscan compile): a function of the cache directory that tells the user, set by the command
# that runs the scan (commands.triage) and called once before the build; None: nothing said.
BUILD_NOTICE: List[Optional[Callable[[str], None]]] = [None]


def _store(path: str, plan: dict, parts) -> None:
    """Write the scanner cache: the plan and the databases (`parts`: the finder's dump, or None without Hyperscan).
    The two levels hold every expression: the one-level tables are not kept (a plan without them is worked out again
    only where the cached database cannot be used: Scanner._hyperscan), nor the levels' expression texts (the database
    holds them; what a hit means is each one's kind and ids)."""
    kept = plan
    if plan.get("hs_levels") and parts is not None:
        kept = {k: v for k, v in plan.items() if k not in ("hs_lit", "hs_re")}
        levels = plan["hs_levels"]
        kept["hs_levels"] = dict(levels, **{k: [[None, kind, ids] for _, kind, ids in levels[k]] for k in ("l1", "l2")})
    _cache_write(path, kept, parts or ())


class Scanner:
    """Finds signature hits in chunks of bytes (complete lines) without touching non-matching lines in Python."""

    def __init__(self, signatures: Sequence[Signature], matchers: Optional[Sequence[str]] = None,
                 head: Optional[Tuple[int, bytes]] = None):
        """`head`: (n, cache.fields_digest of the first n signatures) where the caller knows it (the cache's name)."""
        self.signatures = list(signatures)
        order = list(matchers or matcher_order())
        d = cache_dir() if len(self.signatures) >= _CACHE_MIN_SIGNATURES else None
        path = os.path.join(d, f"scanner-{_scanner_key(self.signatures, head)}.bin") if d else None
        if path and order[0] == "hyperscan" and not os.path.exists(path):
            if BUILD_NOTICE[0] is not None:
                BUILD_NOTICE[0](os.path.dirname(path))
            _build_apart(self, order, path)
        with _GcPaused():
            compiled = self._build(order, path)
        if compiled:  # the plan's tables and the compilers' leftovers are garbage now: give their pages back
            release_heap()

    def _build(self, order: List[str], path: Optional[str]) -> bool:
        """Whether a plan was made or a database compiled here (not all read from the cache)."""
        cached = _cache_read(path) if path else None
        plan, cached_db = cached if cached else (None, None)  # the cached databases (level 1, level 2 read lazily)
        dirty = plan is None
        parts = None  # the database's bytes, as parts, where it was built here (to be cached)
        if plan is None:
            plan = _scan_plan(self.signatures)
            if BUILD_ONLY[0]:  # a process that builds once: what the plan's functions kept for the next plan goes
                drop_plan_caches()
            release_heap()  # the plan's working memory (its answers per expression, parse trees), before compiling
        self._lit_rows = plan.get("lit")  # the literal finders' anchors (lit_sigs), made only where one is used
        self._lit_sigs: Optional[Dict[bytes, Set[int]]] = None
        self.unanchored: List[int] = list(plan["unanchored"])
        self.exact: Set[int] = set()  # the finder's hit is a match: no Python needed
        self.sure: Set[int] = set()  # a hit on one of their regexes is a match; else only all_of can be (hs_sure)
        active_unanchored = self.unanchored
        self.finder = None
        for name in order:
            if name == "hyperscan":
                try:
                    self.finder, plan, parts = self._hyperscan(plan, cached_db, dump=path is not None)
                except Exception:  # not installed, no wheel for this CPU: the next one
                    continue
                dirty = dirty or parts is not None
                self.exact = set(plan["hs_exact"])
                self.sure = set(plan.get("hs_sure", ()))
                active_unanchored = list(plan["hs_unanchored"])
                break
            try:
                self.finder = _FINDERS[name](self.lit_sigs)
                break
            except Exception:  # not installed, or out of memory: the next one
                continue
        if self.finder is None:
            self.finder = _PythonFinder(self.lit_sigs)
        self.matcher = self.finder.name
        if dirty and path:
            _store(path, plan, parts)
        elif path and isinstance(self.finder, _HyperscanFinder) and cached_db is not None:
            self.finder.rebuild_level2 = lambda: self._rebuild_level2(path)
        self._matchers: List[Optional[Callable[[bytes], bool]]] = [None] * len(self.signatures)
        self._sure_matchers: Dict[int, Callable[[bytes, bool], bool]] = {}
        self._memo: Dict[bytes, List[int]] = {}  # a line's bytes -> its hits (scan_lines)
        self._memo_timeless: Dict[bytes, List[int]] = {}  # a line with its time's digits zeroed -> its blind hits
        self._memo_bytes = 0
        self._split = plan.get("split")  # Signature.split_codes of those that parse, as cached (read where needed)
        self._pre: Dict[str, list] = plan.get("pre") or {}  # per long signature: its patterns' literals (bytes_matcher)
        self._blind = frozenset(plan.get("blind", ()))  # (a plan without it: no line is answered by its time-cut key)
        # a signature no finder can look for: over each chunk, its own (_chunk_finders)
        self._unanchored_res = [(i, _chunk_finders(self.signatures[i])) for i in active_unanchored]
        return dirty or (self.matcher == "hyperscan" and cached_db is None)

    def _rebuild_level2(self, path: str) -> None:
        """For the finder, where a cached level-2 database can no longer be read (the file damaged or pruned since it
        was opened): level 2 compiled from the plan worked out again, then the cache written again whole, so that the
        next run reads it instead of compiling too."""
        plan = _scan_plan(self.signatures)
        self.finder.compile_level2(plan["hs_levels"]["l2"])  # type: ignore[union-attr]
        _store(path, plan, self.finder.dump())  # type: ignore[union-attr]

    @property
    def lit_sigs(self) -> Dict[bytes, Set[int]]:
        """{literal anchor: signature indexes} for the literal finders (RE2, Python); Hyperscan has its own table."""
        if self._lit_sigs is None:
            rows = undeferred(self._lit_rows)
            if rows is None:  # the cached table could not be read since: worked out again
                rows = _scan_plan(self.signatures)["lit"]
            self._lit_sigs = _untable(rows)
        return self._lit_sigs

    def _hyperscan(self, plan: dict, db: Optional[memoryview], dump: bool = True):
        """(finder, plan, the database as parts to cache where it was built here and `dump`, else None) for Hyperscan;
        a cached database (`db`) is loaded."""
        sure = set(plan.get("hs_sure", ()))
        levels = plan.get("hs_levels")
        if db is not None:
            try:
                if levels is not None:  # the two levels name every expression: the tables are not read
                    return _HyperscanFinder({}, (), db=db, sure=sure, levels=levels), plan, None
                regexes = [(e.encode("latin-1"), set(ids)) for e, ids in plan["hs_re"]]
                return _HyperscanFinder(_untable(plan["hs_lit"]), regexes, db=db, sure=sure), plan, None
            except Exception:  # another Hyperscan or CPU: compile again
                pass
        if "hs_re" not in plan:  # a cached plan keeps only the two levels, without their expressions' texts
            plan = _scan_plan(self.signatures, {x.encode("latin-1") for x in plan.get("hs_reject", [])})
        regexes = [(e.encode("latin-1"), set(ids)) for e, ids in plan["hs_re"]]
        try:
            finder = _HyperscanFinder(_untable(plan["hs_lit"]), regexes, sure=sure, levels=levels)
        except ImportError:
            raise
        except Exception:  # an expression Hyperscan refuses (too large...): find which, look for its literals
            import hyperscan  # type: ignore[import]

            reject = {x.encode("latin-1") for x in plan.get("hs_reject", [])}
            for e, _ in regexes:
                one = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
                try:
                    one.compile(expressions=[e], ids=[0], elements=1, flags=[hyperscan.HS_FLAG_MULTILINE])
                except Exception:
                    reject.add(e)
            plan = _scan_plan(self.signatures, reject)
            regexes = [(e.encode("latin-1"), set(ids)) for e, ids in plan["hs_re"]]
            try:
                finder = _HyperscanFinder(_untable(plan["hs_lit"]), regexes, sure=set(plan["hs_sure"]),
                                          levels=plan["hs_levels"])
            except Exception:  # a branch or an anchor of the two levels refused: one level, as the plan's tables
                plan["hs_levels"] = None
                finder = _HyperscanFinder(_untable(plan["hs_lit"]), regexes, sure=set(plan["hs_sure"]))
        return finder, plan, finder.dump() if dump else None

    def _matcher(self, i: int) -> Callable[[bytes], bool]:
        m = self._matchers[i]
        if m is None:
            sig = self.signatures[i]
            if not isinstance(self._split, dict):
                self._split = undeferred(self._split) or {}  # (unreadable since: each signature splits its own)
            split = self._split.get(str(i))
            if split is not None:  # the plan's split_codes, not parsed again
                sig.use_split_codes(split)
            m = self._matchers[i] = sig.bytes_matcher(self._pre.get(str(i)))
        return m

    def _sure_matcher(self, i: int) -> Callable[[bytes, bool], bool]:
        """For a signature of self.sure: (line, whether one of its regexes matched there) -> a match? Where none
        matched, its all_of alternatives; then its excludes (compiled alone: its patterns never are)."""
        m = self._sure_matchers.get(i)
        if m is None:
            sig = self.signatures[i]
            alts = [tuple(lit.encode("utf-8") for lit in alt) for alt in sig.all_of]
            if sig.exclude:
                excl = [recache.compile(x.encode("utf-8")) for x in sig.exclude]
                m = lambda line, hit: ((hit or any(all(lit in line for lit in alt) for alt in alts))  # noqa: E731
                                       and not any(x.search(line) for x in excl))
            else:
                m = lambda line, hit: hit or any(all(lit in line for lit in alt) for alt in alts)  # noqa: E731
            self._sure_matchers[i] = m
        return m

    def _found(self, line: bytes) -> Tuple[Dict[int, Set[int]], Optional[Dict[int, Set[int]]]]:
        lines: Dict[int, Set[int]] = {}
        if self.sure:
            sure: Dict[int, Set[int]] = {}
            self.finder.add_lines(line, 0, len(line), lines, sure)
            return lines, sure
        self.finder.add_lines(line, 0, len(line), lines)
        return lines, None

    def candidates(self, line: bytes) -> Set[int]:
        """Indexes of the signatures whose anchors occur in `line` (one line, no newline), and those with none."""
        found: Set[int] = {i for i, _ in self._unanchored_res}
        for ids in self._found(line)[0].values():
            found |= ids
        return found

    def _line_hits(self, line: bytes, cands: Iterable[int], sure: Optional[Set[int]] = None) -> List[int]:
        exact, sure_sigs = self.exact, self.sure
        return [i for i in sorted(cands) if i in exact
                or (self._sure_matcher(i)(line, i in sure) if sure is not None and i in sure_sigs
                    else self._matcher(i)(line))]

    def match_line(self, line: bytes) -> List[int]:
        lines, sure = self._found(line)
        cands: Set[int] = {i for i, _ in self._unanchored_res}
        for ids in lines.values():
            cands |= ids
        return self._line_hits(line, cands, set().union(*sure.values()) if sure is not None else None)

    def scan(self, buf: bytes, start: int = 0, end: Optional[int] = None):
        """Yield (line_start, line_end, [signature indexes]) for every line of buf[start:end] with a hit, in order.

        `buf[start:end]` must hold whole lines (the caller keeps a partial last line for the next chunk).
        """
        for ls, le, _line, hits in self.scan_lines(buf, start, end):
            yield ls, le, hits

    def scan_lines(self, buf: bytes, start: int = 0, end: Optional[int] = None):
        """As `scan`, with each line's bytes: (line_start, line_end, line, [signature indexes]).

        A line's hits depend on its bytes alone (every finder names every line a signature can match; the exact
        matchers decide on the line), so a line seen before is answered from `_memo` without confirming again: a
        dense log repeats its messages. The lists given out are shared: callers must not change them.
        """
        end = len(buf) if end is None else end
        lines: Dict[int, Set[int]] = {}
        sure: Optional[Dict[int, Set[int]]] = None
        if self.sure:
            sure = {}
            self.finder.add_lines(buf, start, end, lines, sure)
        else:
            self.finder.add_lines(buf, start, end, lines)
        find, rfind = buf.find, buf.rfind
        for i, (lits, rx) in self._unanchored_res:
            # a signature with no literal to find (`\bE[A-Z0-9][0-9]{4}[):]` where Hyperscan is missing): the
            # literals of its patterns that have one, then the regex of the others, over the chunk (in C), noting the
            # line of each hit and going on from the next line, so no line is skipped; a match across lines is only a
            # candidate, the exact matcher decides
            for lit in lits:
                at = find(lit, start, end)
                while at >= 0:
                    _note_line(lines, rfind(b"\n", start, at) + 1 or start, (i,))
                    le = find(b"\n", at, end)
                    if le < 0:
                        break
                    at = find(lit, le + 1, end)
            m = rx.search(buf, start, end) if rx is not None else None
            while m is not None:
                ls = rfind(b"\n", start, m.start()) + 1 or start
                _note_line(lines, ls, (i,))
                le = find(b"\n", m.start(), end)
                if le < 0:
                    break
                m = rx.search(buf, le + 1, end)
        exact, sure_sigs, matcher = self.exact, self.sure, self._matcher
        memo, memo_get, blind = self._memo, self._memo.get, self._blind
        timeless, timeless_get = self._memo_timeless, self._memo_timeless.get
        for ls in sorted(lines):
            le = find(b"\n", ls, end)
            le = end if le < 0 else le
            line = buf[ls:le]
            hits = memo_get(line)
            key = None
            if hits is None:
                ids = lines[ls]
                line_sure = sure.get(ls, _NO_SIGS) if sure is not None else None
                # a dense log repeats its messages with other times: the signatures that answer alike whatever
                # digits a line holds (blind) answer as for the line with its time's digits zeroed; the others
                # (a bare code, a digit in a pattern) are confirmed on the line
                m = _TIME.search(line, 0, _TIME_WITHIN) if blind else None
                if m is not None:
                    key = line[:m.start()] + m.group().translate(_ZERO_DIGITS) + line[m.end():]
                    part = timeless_get(key)
                    if part is not None:
                        rest = ids - blind
                        hits = sorted(part + self._line_hits(line, rest, line_sure)) if rest else part
            if hits is None:
                if len(ids) == 1:
                    i = next(iter(ids))
                    ok = (i in exact or (self._sure_matcher(i)(line, i in line_sure) if i in sure_sigs
                                         else matcher(i)(line)))
                    hits = [i] if ok else _NO_HITS
                else:
                    hits = self._line_hits(line, ids, line_sure) or _NO_HITS
                if len(line) <= _MEMO_LINE_MAX:
                    if self._memo_bytes > _MEMO_BYTES:
                        memo.clear()
                        timeless.clear()
                        self._memo_bytes = 0
                    memo[line] = hits
                    self._memo_bytes += len(line) + 64
                    if key is not None:
                        timeless[key] = [i for i in hits if i in blind] or _NO_HITS
                        self._memo_bytes += len(key) + 64
            if hits:
                yield ls, le, line, hits


def _chunk_finders(sig: Signature) -> Tuple[List[bytes], Optional["re.Pattern[bytes]"]]:
    """What finds, over a chunk, the lines a signature can match that no finder looks for (one of its patterns has no
    literal to find): the literals of its patterns that have some and of its all_of alternatives (bytes.find), and one
    regex of the patterns that have none (a leading \\b dropped: the regex engine then skips to the first literal
    byte). Each pattern alone: a union of one pattern without a literal and two with (TRAIN_METRIC_NAN_INF) ran at
    25 MB/s, where the lone pattern runs at 240 MB/s and the literals at memory speed."""
    from .literals import required_literals

    lits: Set[bytes] = set(sig.all_of_anchors()) if sig.all_of else set()
    rest = []
    for p in sig.patterns():
        got = required_literals(p)
        if got:
            lits.update(x.encode("utf-8") for x in got)
        else:
            rest.append(p[2:] if p.startswith("\\b") else p)
    rx = re.compile("|".join(f"(?:{p})" for p in rest).encode("utf-8"), re.M) if rest else None
    return sorted(lits), rx


# The line memo: lines up to _MEMO_LINE_MAX bytes, ~_MEMO_BYTES of them at most (then it starts again).
_MEMO_LINE_MAX = 2048
_MEMO_BYTES = 4 << 20
_NO_HITS: List[int] = []  # shared, never changed
# A line's time (CANN's 2024-07-12-10:21:33.512.118, ISO forms), looked for in its first _TIME_WITHIN bytes (its
# header); its digits zeroed make the line's time-cut key (digit-blind signatures only: finders._digit_blind).
_TIME = re.compile(rb"\d{4}-\d\d-\d\d[- T]\d\d:\d\d:\d\d(?:[.,:]\d{1,9})*")
_TIME_WITHIN = 96
_ZERO_DIGITS = bytes.maketrans(b"0123456789", b"0000000000")
_NO_SIGS: Set[int] = frozenset()  # type: ignore[assignment]
