"""The knowledge base: documented pitfalls (P01..P24) and known log signatures.

One data file (`data/knowledge_base.json`, rules in `data/knowledge_base.schema.json`)
serves the report's advice, `triage` and the smoke stage classifier, so a
signature is added in one place.

Matching a line is `KnowledgeBase.match_line(str)`. Scanning gigabytes is
`KnowledgeBase.scanner()`: every signature regex is reduced to the literal
strings one of which MUST appear in any line it matches (its anchors, worked
out from the parsed regex, or given by hand in the data when the regex has no
usable literal). One combined alternation of all anchors, compiled as a prefix
trie, runs over whole multi-megabyte chunks of bytes; only lines that contain an
anchor reach the per-signature regexes. Noise lines never enter Python code.
"""

from __future__ import annotations

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

    # ---- scanner anchors ----
    def scan_anchors(self) -> Optional[List[bytes]]:
        """Byte strings, one of which is in every line this signature matches (None: no usable literal)."""
        if self.anchors:  # given by hand in the data
            return sorted({a.encode("utf-8") for a in self.anchors})
        out: Set[bytes] = set()
        for p in self.patterns():
            lits = required_literals(p)
            if not lits:
                return None
            out.update(anchor_of(lit) for lit in lits)
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
        if alts is not None and "" not in alts and len(run) * len(alts) <= _MAX_EXPANSION:
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


# The scanner's prefilter is ONE regex: all anchors, each started at its rarest
# byte, factored into a prefix trie. The regex engine rejects a position by its
# first byte in C, so the fewer common bytes anchors start with, the faster it runs.
# Rough share of each byte in log text (English words, numbers, paths, timestamps):
_LOWER = dict(zip("etaoinsrhldcumfpgwybvkxjqz",
                  [12.7, 9.1, 8.2, 7.5, 7.0, 6.7, 6.3, 6.0, 4.0, 4.0, 4.3, 2.8, 2.8, 2.4, 2.2, 1.9, 2.0, 1.5,
                   2.0, 1.0, 1.0, 0.8, 0.15, 0.15, 0.1, 0.07]))
_UPPER_COMMON = dict(zip("EIRONSATDGCLMPUFWHB", [3.0, 2.5, 2.5, 2.0, 2.5, 2.0, 2.0, 1.5, 1.5, 1.2, 1.0, 1.0, 1.0, 1.0,
                                                 0.8, 0.8, 0.6, 0.5, 0.5]))


def _byte_weight(b: int) -> float:
    c = chr(b)
    if c in _LOWER:
        return _LOWER[c] * 0.6
    if c in _UPPER_COMMON:
        return _UPPER_COMMON[c] * 0.3
    if c.isupper():
        return 0.08
    if c.isdigit():
        return 2.5
    if c == " ":
        return 14.0
    if c in ".:_-/[]=(),\t":
        return 2.0
    if b >= 0x80:
        return 0.05
    return 0.2  # other punctuation


def _rare_start(raw: bytes) -> int:
    if len(raw) <= MIN_ANCHOR_LEN:
        return 0
    return min(range(len(raw) - MIN_ANCHOR_LEN + 1), key=lambda i: (_byte_weight(raw[i]), i))


def literal_cost(lit: str) -> float:
    """How common the byte this literal's anchor starts with is in log text (lower is better)."""
    raw = lit.encode("utf-8")
    if len(raw) < MIN_ANCHOR_LEN:
        return 1e9
    return _byte_weight(raw[_rare_start(raw)])


def anchor_of(lit: str, max_len: int = 12) -> bytes:
    raw = lit.encode("utf-8")
    i = _rare_start(raw)
    return raw[i:i + max_len]


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
        by_anchor: Dict[bytes, Set[int]] = {}
        for i, sig in enumerate(self.signatures):
            anchors = sig.scan_anchors()
            if anchors is None:
                self.unanchored.append(i)
                continue
            for a in anchors:
                by_anchor.setdefault(a, set()).add(i)
        # The trie stops at the shortest anchor of a chain ("abc" before "abcd"), so a hit on
        # the short one must also bring the signatures of every anchor it is a prefix of.
        for short in by_anchor:
            for long in by_anchor:
                if long != short and long.startswith(short):
                    by_anchor[short] = by_anchor[short] | by_anchor[long]
        self._by_anchor = by_anchor
        self.prefilter = re.compile(_trie_regex(sorted(by_anchor))) if by_anchor else None
        self._bytes_res = [
            (re.compile(("|".join(f"(?:{p})" for p in sig.patterns())).encode("utf-8")),
             [re.compile(x.encode("utf-8")) for x in sig.exclude])
            for sig in self.signatures
        ]

    def candidates(self, line: bytes) -> Set[int]:
        """Indexes of the signatures whose anchors occur in `line`."""
        found: Set[int] = set(self.unanchored)
        if self.prefilter is None:
            return found
        search = self.prefilter.search
        m = search(line)
        while m is not None:
            found.update(self._by_anchor.get(m.group(0), ()))
            m = search(line, m.start() + 1)
        return found

    def match_line(self, line: bytes) -> List[int]:
        hits = []
        for i in sorted(self.candidates(line)):
            rx, excl = self._bytes_res[i]
            if rx.search(line) is not None and not any(x.search(line) for x in excl):
                hits.append(i)
        return hits

    def scan(self, buf: bytes, start: int = 0, end: Optional[int] = None):
        """Yield (line_start, line_end, [signature indexes]) for every line of buf[start:end] with a hit, in order.

        `buf[start:end]` must hold whole lines (the caller keeps a partial last line for the next chunk).
        """
        end = len(buf) if end is None else end
        if self.unanchored or self.prefilter is None:  # every line must be tried (the KB test forbids this)
            pos = start
            while pos < end:
                nl = buf.find(b"\n", pos, end)
                le = end if nl < 0 else nl
                hits = self.match_line(buf[pos:le])
                if hits:
                    yield pos, le, hits
                pos = le + 1
            return
        search = self.prefilter.search
        pos = start
        while pos < end:
            m = search(buf, pos, end)
            if m is None:
                return
            ls = buf.rfind(b"\n", start, m.start()) + 1
            le = buf.find(b"\n", m.end(), end)
            if le < 0:
                le = end
            hits = self.match_line(buf[ls:le])
            if hits:
                yield ls, le, hits
            pos = le + 1


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
