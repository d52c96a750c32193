"""The knowledge base: documented pitfalls (P01..P24) and known log signatures.

One data file (`data/knowledge_base.json`, rules in `data/knowledge_base.schema.json`)
serves the report's advice, `triage` and the smoke stage classifier, so a
signature is added in one place.

Matching a line is `KnowledgeBase.match_line(str)`. Scanning gigabytes is
`KnowledgeBase.scanner()`: every signature regex is reduced to the literal
strings one of which MUST appear in any line it matches (worked out from the
parsed regex, or given by hand in the data when the regex has no usable literal).
A set cover groups those literals by a start byte that is rare in log text; each
group becomes one regex pass (a prefix trie led by that byte, which the regex
engine skips to in C) over whole multi-megabyte chunks of bytes. Only lines that
contain an anchor reach the per-signature regexes: noise lines never enter Python code.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

try:  # Python 3.11+ moved the regex parser; 3.8-3.10 name it sre_parse
    import re._parser as _sre_parse  # type: ignore[import]
    import re._constants as _sre_c  # type: ignore[import]
except ImportError:  # pragma: no cover - depends on the interpreter
    import sre_constants as _sre_c  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

from .data import DataError, data_path, load_json_file

try:  # optional accelerator (pip install "ascend-doctor[fast]"): RE2's multi-pattern DFA
    import re2 as _re2  # type: ignore[import]
except ImportError:  # the pure-Python scanner does the same job, slower
    _re2 = None
# Off with ASCEND_DOCTOR_NO_RE2=1 (the benchmark measures both); tests switch it too.
USE_RE2 = not os.environ.get("ASCEND_DOCTOR_NO_RE2")
GATE_BLOCK_BYTES = 64 << 10

KB_SCHEMA = "ascend-doctor.kb/1"

COMPONENTS = ("driver", "cann", "hccl", "mindspore", "atc", "cuda", "python", "os")
SEVERITIES = ("fail", "warn", "info")
CLASSES = ("root", "wrapper", "benign")
# An anchor shorter than this matches too much noise for the prefilter to pay off.
MIN_ANCHOR_LEN = 4


@dataclass
class Pitfall:
    id: str
    title: str
    advice: str
    source: str = ""


@dataclass
class Signature:
    id: str
    pattern: str
    regex: bool
    component: str
    severity: str  # fail | warn | info
    cause: str
    fix: List[str]
    pitfall: Optional[str] = None
    source: str = ""
    examples: List[str] = field(default_factory=list)
    near_misses: List[str] = field(default_factory=list)
    _compiled: Optional[re.Pattern] = None
    # --- added by triage (all optional in the data) ---
    title: str = ""
    kind: str = "root"  # root: names a cause; wrapper: generic envelope; benign: looks bad, is not
    also: List[str] = field(default_factory=list)  # more patterns meaning the same thing
    exclude: List[str] = field(default_factory=list)  # a line matching one of these is not a hit
    resolved_by: List[str] = field(default_factory=list)  # a later line matching one of these clears it
    anchors: List[str] = field(default_factory=list)  # hand-given prefilter literals (when derived ones are too short)
    notes: str = ""
    _compiled_excl: Optional[List[re.Pattern]] = None

    # ---- str matching (smoke classifier, report) ----
    def patterns(self) -> List[str]:
        main = self.pattern if self.regex else re.escape(self.pattern)
        return [main] + list(self.also)

    def search(self, line: str) -> bool:
        if self._compiled is None:
            self._compiled = re.compile("|".join(f"(?:{p})" for p in self.patterns()))
            self._compiled_excl = [re.compile(p) for p in self.exclude]
        if self._compiled.search(line) is None:
            return False
        return not any(x.search(line) for x in self._compiled_excl or ())

    # ---- scanner literals ----
    def scan_literals(self) -> Optional[List[bytes]]:
        """Byte strings, one of which is in every line this signature matches (None: no usable literal)."""
        if self.anchors:  # given by hand in the data
            return sorted({a.encode("utf-8") for a in self.anchors})
        out: Set[bytes] = set()
        for p in self.patterns():
            lits = required_literals(p)
            if not lits:
                return None
            out.update(lit.encode("utf-8") for lit in lits)
        return sorted(out)


@dataclass
class KnowledgeBase:
    pitfalls: Dict[str, Pitfall]
    signatures: List[Signature]
    _scanner: Optional["Scanner"] = None

    def pitfall(self, pid: str) -> Pitfall:
        return self.pitfalls[pid]

    def signature(self, sid: str) -> Signature:
        for s in self.signatures:
            if s.id == sid:
                return s
        raise KeyError(sid)

    def match_line(self, line: str) -> List[Signature]:
        return [s for s in self.signatures if s.search(line)]

    def match_lines(self, lines: Iterable[str]) -> List[tuple]:
        """[(signature, first matching line)] in order of first appearance, each signature once."""
        seen: Dict[str, tuple] = {}
        for line in lines:
            for sig in self.match_line(line):
                if sig.id not in seen:
                    seen[sig.id] = (sig, line.rstrip("\n"))
        return list(seen.values())

    def scanner(self) -> "Scanner":
        if self._scanner is None:
            self._scanner = Scanner(self.signatures)
        return self._scanner


# ---------------------------------------------------------------------------
# Required literals of a regex (for the scanner's anchors)
# ---------------------------------------------------------------------------

_MAX_EXPANSION = 32


def required_literals(pattern: str) -> Optional[List[str]]:
    """Literal strings, one of which appears in every match of `pattern` (None: no usable literal).

    Works on the parsed regex. Small alternations of plain literals are expanded
    (`lib(cudart|cublas)` gives "libcudart" and "libcublas"); a sequence keeps its
    most selective literal (or the most selective required set of one of its
    parts); an alternation needs a set from every branch.
    """
    try:
        parsed = _sre_parse.parse(pattern)
    except re.error:
        return None
    best = _seq_required(list(parsed))
    return best[1] if best else None


def _literal_alternatives(op, av) -> Optional[List[str]]:
    """The strings a regex element can match, if it is a small set of plain literals."""
    if op is _sre_c.LITERAL:
        return [chr(av)]
    if op is _sre_c.IN:
        if all(o is _sre_c.LITERAL for o, _ in av) and len(av) <= 4:
            return [chr(v) for _, v in av]
        return None
    if op is _sre_c.SUBPATTERN:
        return _sequence_alternatives(list(av[3]))
    if op is _sre_c.BRANCH:
        out: List[str] = []
        for branch in av[1]:
            alts = _sequence_alternatives(list(branch))
            if alts is None:
                return None
            out.extend(alts)
        return out if len(out) <= _MAX_EXPANSION else None
    if op in (_sre_c.MAX_REPEAT, _sre_c.MIN_REPEAT) and av[0] == 0 and av[1] == 1:
        alts = _sequence_alternatives(list(av[2]))
        return None if alts is None else [""] + alts
    return None


def _sequence_alternatives(items) -> Optional[List[str]]:
    out = [""]
    for op, av in items:
        alts = _literal_alternatives(op, av)
        if alts is None:
            return None
        out = [o + a for o in out for a in alts]
        if len(out) > _MAX_EXPANSION:
            return None
    return out


def _set_cost(lits: Sequence[str]) -> float:
    """Lower is better: what the set adds to the prefilter's first-byte test, then its size."""
    return sum(literal_cost(lit) for lit in lits) + 0.01 * len(lits)


def _seq_required(items) -> Optional[Tuple[float, List[str]]]:
    best: Optional[Tuple[float, List[str]]] = None
    run: List[str] = [""]

    def consider(cands: Optional[List[str]]):
        nonlocal best
        if not cands:
            return
        cands = sorted(set(cands))
        cost = _set_cost(cands)
        if cost < 1e9 and (best is None or cost < best[0]):
            best = (cost, cands)

    def flush():
        nonlocal run
        if any(run):
            consider([r for r in run])
        run = [""]

    for op, av in items:
        alts = _literal_alternatives(op, av)
        if alts is not None and len(run) * len(alts) <= _MAX_EXPANSION:
            run = [r + a for r in run for a in alts]
            continue
        flush()
        if op is _sre_c.SUBPATTERN:
            sub = _seq_required(list(av[3]))
            if sub:
                consider(sub[1])
        elif op is _sre_c.BRANCH:
            union: List[str] = []
            for branch in av[1]:
                sub = _seq_required(list(branch))
                if not sub:
                    union = []
                    break
                union.extend(sub[1])
            consider(union or None)
        elif op in (_sre_c.MAX_REPEAT, _sre_c.MIN_REPEAT) or op is getattr(_sre_c, "POSSESSIVE_REPEAT", None):
            if av[0] >= 1:
                sub = _seq_required(list(av[2]))
                if sub:
                    consider(sub[1])
        elif op is getattr(_sre_c, "ATOMIC_GROUP", None):
            sub = _seq_required(list(av))
            if sub:
                consider(sub[1])
    flush()
    return best


# The scanner runs a few regex passes over each chunk. Every pass is a prefix trie of
# anchors that all start with the same byte, so the regex engine skips to that byte
# with its fast literal-prefix loop in C. Which bytes: a greedy set cover of all the
# anchors' literals, preferring bytes that are rare in log text, by this table of
# byte frequencies (per 100,000 bytes) measured once on a mix of system logs
# (dpkg, apt) and Python source: common letters cost more, rare ones less.
_FREQ_PER_100K = (
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2570, 0, 0, 101, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    25506, 20, 701, 357, 3, 95, 7, 808, 974, 962, 119, 181, 887, 1187, 1805, 188,
    898, 956, 992, 355, 547, 321, 512, 151, 137, 201, 1189, 18, 95, 689, 167, 13,
    14, 176, 56, 128, 121, 286, 111, 45, 56, 209, 7, 26, 104, 91, 226, 155,
    149, 6, 165, 218, 239, 97, 54, 38, 19, 26, 11, 142, 56, 142, 4, 1429,
    27, 3884, 982, 1846, 2244, 6579, 1792, 1024, 1086, 3519, 150, 447, 2885, 1531, 3609, 3127,
    1598, 63, 3360, 3846, 4422, 1662, 451, 389, 387, 587, 87, 29, 15, 29, 22, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
)
# Cost model, in ns per byte of log, measured with CPython 3.11 on this project's benchmark:
# a regex pass scans to its first byte at ~0.45 ns/byte and pays ~40 ns (+0.7 ns per
# anchor in the trie) at every position holding that byte; a memchr pass (bytes.find on
# the byte, then the trie anchored there) scans at ~0.1 ns/byte but pays ~1 us of Python
# per position, so only truly rare bytes take it.
_REGEX_SCAN, _REGEX_ENTRY, _REGEX_ENTRY_PER_ANCHOR = 0.45, 40.0, 0.7
_FIND_SCAN, _FIND_ENTRY = 0.1, 1000.0


def _pass_cost(b: int, anchors: int = 1) -> float:
    f = _freq(b)
    return min(_REGEX_SCAN + f * (_REGEX_ENTRY + _REGEX_ENTRY_PER_ANCHOR * anchors), _FIND_SCAN + f * _FIND_ENTRY)


def _use_find(b: int, anchors: int = 1) -> bool:
    f = _freq(b)
    return _FIND_SCAN + f * _FIND_ENTRY < _REGEX_SCAN + f * (_REGEX_ENTRY + _REGEX_ENTRY_PER_ANCHOR * anchors)


def _freq(b: int) -> float:
    return max(_FREQ_PER_100K[b], 1) / 100000.0


# An anchor keeps at least this many bytes of its literal (all of a shorter one): short
# anchors made of common letters ("vice", "pore") hit noise on every other line.
GOOD_ANCHOR_LEN = 10


ANCHOR_MAX_LEN = 16
MIDWORD_NEEDS_NEXT_WORD = False  # measured: a 10-byte anchor cut mid-word is specific enough
# Words that log noise is full of: an anchor that is just one of them says nothing.
_COMMON_WORDS = frozenset(b"""
version device memory failed error timeout overflow loss mindspore success found module compile rank total
size type value name info warning debug time step epoch data file path line config context count init start
heartbeat send receive node server client group stream task graph kernel
""".split())
_WORDCHAR = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


@functools.lru_cache(maxsize=None)
def _starts(raw: bytes) -> List[int]:
    """Where an anchor may start in a literal: at a word start, keeping enough bytes, not on a lone common word.

    Starting mid-word ("d memory" out of "shared memory") or on a common word
    ("version ") makes an anchor that fires on ordinary log lines.
    """
    need = max(MIN_ANCHOR_LEN, min(GOOD_ANCHOR_LEN, len(raw)))
    fits = [i for i in range(len(raw) - need + 1)]
    good = []
    for i in fits:
        piece = raw[i:i + ANCHOR_MAX_LEN]
        words = bytes(c if c in _WORDCHAR else 32 for c in piece).split()
        if MIDWORD_NEEDS_NEXT_WORD and i and raw[i - 1] in _WORDCHAR and raw[i] in _WORDCHAR and words:
            words = words[1:]  # the cut word says little; judge by the whole words after it
        if not any(len(w) >= 4 and w.lower() not in _COMMON_WORDS for w in words) and len(raw) > need:
            continue
        good.append(i)
    return good or fits or [0]


def literal_cost(lit: str) -> float:
    """How often this literal's best anchor would fire on log text (lower is better)."""
    raw = lit.encode("utf-8")
    if len(raw) < MIN_ANCHOR_LEN:
        return 1e9
    short = 30.0 if len(raw) < 6 else 10.0 if len(raw) < 10 else 0.0
    return min(_freq(raw[i]) for i in _starts(raw)) * 1000 + short


def plan_passes(literals) -> List[Tuple[int, List[bytes]]]:
    """[(start byte, [literals it covers])]: greedy set cover, cheapest passes first."""
    todo = set(literals)
    by_byte: Dict[int, Set[bytes]] = {}
    for lit in todo:
        for i in _starts(lit):
            by_byte.setdefault(lit[i], set()).add(lit)
    passes: List[Tuple[int, List[bytes]]] = []
    while todo:
        best = None
        for b, lits in by_byte.items():
            n = len(lits & todo)
            if n:
                cost = _pass_cost(b, n) / n
                if best is None or cost < best[0]:
                    best = (cost, b)
        if best is None:
            break
        covered = by_byte[best[1]] & todo
        passes.append((best[1], sorted(covered)))
        todo -= covered
    return passes


def _trie_regex(words: Iterable[bytes]) -> bytes:
    """A regex matching any of `words`, factored as a prefix trie (much faster than a flat alternation)."""
    trie: dict = {}
    for w in words:
        node = trie
        for b in w:
            node = node.setdefault(b, {})
        node[None] = True

    def emit(node) -> bytes:
        branches = [re.escape(bytes([b])) + emit(child) for b, child in sorted((k, v) for k, v in node.items() if k is not None)]
        if not branches or None in node:  # a shorter anchor ends here: it alone is enough
            return b""
        return branches[0] if len(branches) == 1 else b"(?:" + b"|".join(branches) + b")"

    return emit(trie)


class Scanner:
    """Finds signature hits in chunks of bytes (complete lines) without touching non-matching lines in Python."""

    def __init__(self, signatures: Sequence[Signature]):
        self.signatures = list(signatures)
        self.unanchored: List[int] = []
        lit_sigs: Dict[bytes, Set[int]] = {}
        for i, sig in enumerate(self.signatures):
            lits = sig.scan_literals()
            if lits is None:
                self.unanchored.append(i)
                continue
            for lit in lits:
                lit_sigs.setdefault(lit, set()).add(i)
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
        self._bytes_res = [
            (re.compile(("|".join(f"(?:{p})" for p in sig.patterns())).encode("utf-8")),
             [re.compile(x.encode("utf-8")) for x in sig.exclude])
            for sig in self.signatures
        ]
        self.gate = self._build_gate() if (_re2 is not None and USE_RE2 and not self.unanchored) else None

    def _build_gate(self):
        """An RE2 set of every pattern (or, where RE2 lacks the syntax, the pattern's literals).

        It only answers "could this 64 KiB block hold any hit?" in a single DFA pass; blocks that
        could are scanned exactly as without it, so the answers never depend on RE2.
        """
        opts = _re2.Options()
        opts.encoding = _re2.Options.Encoding.LATIN1  # byte for byte, whatever the log's encoding
        opts.log_errors = False
        opts.max_mem = 256 << 20
        gate = _re2.Set.SearchSet(opts)
        try:
            for sig in self.signatures:
                for p in sig.patterns():
                    try:  # (?m): ^ and $ at line ends, as when a line is searched on its own
                        gate.Add(b"(?m)" + p.encode("utf-8"))
                    except Exception:  # lookahead and friends: RE2 has no form of them
                        for lit in sig.scan_literals() or []:
                            gate.Add(re.escape(lit))
            gate.Compile()  # raises when the set does not fit max_mem
            return gate
        except Exception:  # an RE2 too old or out of memory: run without the gate
            return None

    def candidates(self, line: bytes) -> Set[int]:
        """Indexes of the signatures whose anchors occur in `line`."""
        found: Set[int] = set(self.unanchored)
        for rx, anchors in self.passes:
            m = rx.search(line)
            while m is not None:
                found.update(anchors.get(m.group(0), ()))
                m = rx.search(line, m.start() + 1)
        return found

    def _line_hits(self, line: bytes, cands: Iterable[int]) -> List[int]:
        hits = []
        for i in sorted(cands):
            rx, excl = self._bytes_res[i]
            if rx.search(line) is not None and not any(x.search(line) for x in excl):
                hits.append(i)
        return hits

    def match_line(self, line: bytes) -> List[int]:
        return self._line_hits(line, self.candidates(line))

    def scan(self, buf: bytes, start: int = 0, end: Optional[int] = None):
        """Yield (line_start, line_end, [signature indexes]) for every line of buf[start:end] with a hit, in order.

        `buf[start:end]` must hold whole lines (the caller keeps a partial last line for the next chunk).
        """
        end = len(buf) if end is None else end
        if self.gate is not None:
            match = self.gate.Match
            pos = start
            while pos < end:
                be = buf.find(b"\n", min(pos + GATE_BLOCK_BYTES, end), end)
                be = end if be < 0 else be
                if match(buf[pos:be]) is not None:
                    yield from self._scan_passes(buf, pos, be)
                pos = be + 1
            return
        yield from self._scan_passes(buf, start, end)

    def _scan_passes(self, buf: bytes, start: int, end: int):
        if self.unanchored:  # every line must be tried (the KB test forbids this)
            pos = start
            while pos < end:
                nl = buf.find(b"\n", pos, end)
                le = end if nl < 0 else nl
                hits = self.match_line(buf[pos:le])
                if hits:
                    yield pos, le, hits
                pos = le + 1
            return
        lines: Dict[int, Set[int]] = {}
        rfind = buf.rfind
        find = buf.find
        for (rx, anchors), byte in zip(self.passes, self._find_bytes):
            if byte is not None:  # rare byte: memchr to it, then try the trie right there
                match = rx.match
                p = find(byte, start, end)
                while p >= 0:
                    m = match(buf, p, end)
                    if m is not None:
                        ids = anchors.get(m.group(0))
                        if ids:
                            ls = rfind(b"\n", start, p) + 1 or start
                            got = lines.get(ls)
                            if got is None:
                                lines[ls] = set(ids)
                            else:
                                got.update(ids)
                    p = find(byte, p + 1, end)
                continue
            search = rx.search
            m = search(buf, start, end)
            while m is not None:
                ids = anchors.get(m.group(0))
                if ids:
                    ls = rfind(b"\n", start, m.start()) + 1 or start
                    got = lines.get(ls)
                    if got is None:
                        lines[ls] = set(ids)
                    else:
                        got.update(ids)
                m = search(buf, m.start() + 1, end)
        for ls in sorted(lines):
            le = buf.find(b"\n", ls, end)
            le = end if le < 0 else le
            hits = self._line_hits(buf[max(ls, start):le], lines[ls])
            if hits:
                yield max(ls, start), le, hits


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------

_cache: Optional[KnowledgeBase] = None


def load_knowledge_base(path: Optional[str] = None) -> KnowledgeBase:
    global _cache
    if path is None and _cache is not None:
        return _cache
    file = path or data_path("knowledge_base.json")
    raw = load_json_file(file)
    kb = parse_knowledge_base(raw, file)
    if path is None:
        _cache = kb
    return kb


def _str_list(s: dict, key: str, where: str) -> List[str]:
    val = s.get(key) or []
    if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
        raise DataError(f"{where}.{key}: expected a list of strings")
    return list(val)


def parse_knowledge_base(raw, file: str = "knowledge_base.json") -> KnowledgeBase:
    if not isinstance(raw, dict) or raw.get("schema") != KB_SCHEMA:
        raise DataError(f"{file}: field 'schema' must be {KB_SCHEMA!r}")
    pitfalls = {}
    for pid, p in (raw.get("pitfalls") or {}).items():
        if not re.fullmatch(r"P\d\d", pid) or not isinstance(p, dict):
            raise DataError(f"{file}: pitfalls.{pid}: expected an id like P07 with an object value")
        pitfalls[pid] = Pitfall(pid, str(p.get("title", "")), str(p.get("advice", "")), str(p.get("source", "")))
    sigs = []
    for i, s in enumerate(raw.get("signatures") or []):
        where = f"{file}: signatures[{i}]"
        if not isinstance(s, dict):
            raise DataError(f"{where}: expected an object")
        try:
            sig = Signature(
                id=s["id"], pattern=s["pattern"], regex=bool(s.get("regex", False)),
                component=s["component"], severity=s["severity"], cause=s["cause"],
                fix=list(s["fix"]), pitfall=s.get("pitfall"), source=s.get("source", ""),
                examples=_str_list(s, "examples", where), near_misses=_str_list(s, "near_misses", where),
                title=str(s.get("title", "")), kind=str(s.get("class", "root")),
                also=_str_list(s, "also", where), exclude=_str_list(s, "exclude", where),
                resolved_by=_str_list(s, "resolved_by", where), anchors=_str_list(s, "anchors", where),
                notes=str(s.get("notes", "")),
            )
        except (KeyError, TypeError) as exc:
            raise DataError(f"{where}: missing or wrong field {exc}") from None
        where = f"{file}: signatures[{i}] ({sig.id})"
        if sig.severity not in SEVERITIES:
            raise DataError(f"{where}.severity: {sig.severity!r} is not one of {SEVERITIES}")
        if sig.component not in COMPONENTS:
            raise DataError(f"{where}.component: {sig.component!r} is not one of {COMPONENTS}")
        if sig.kind not in CLASSES:
            raise DataError(f"{where}.class: {sig.kind!r} is not one of {CLASSES}")
        if sig.pitfall is not None and sig.pitfall not in pitfalls:
            raise DataError(f"{where}.pitfall: {sig.pitfall!r} is not a known pitfall id")
        for key, pats in (("pattern", [sig.pattern] if sig.regex else []), ("also", sig.also),
                          ("exclude", sig.exclude), ("resolved_by", sig.resolved_by)):
            for p in pats:
                try:
                    re.compile(p)
                except re.error as exc:
                    raise DataError(f"{where}.{key}: invalid regex {p!r} ({exc})") from None
        sigs.append(sig)
    return KnowledgeBase(pitfalls, sigs)
