"""The required literals of a regex (the scanner's anchors) and what an anchor costs to look for."""

from __future__ import annotations

import functools
import re
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

try:  # Python 3.11+ moved the regex parser; 3.8-3.10 name it sre_parse
    import re._parser as _sre_parse  # type: ignore[import]
    import re._constants as _sre_c  # type: ignore[import]
except ImportError:  # pragma: no cover - depends on the interpreter
    import sre_constants as _sre_c  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]


def _regex_chars(pattern: str) -> Iterable[Tuple[int, str, int]]:
    """(index, character, index of the `[` opening the class it belongs to, or -1) of each character of a regex's text
    outside escapes; a class's own `[` and closing `]` belong to it (a `]` right after `[` or `[^` is a member)."""
    i, start = 0, -1
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if start >= 0:
            yield i, c, start
            if c == "]" and i != start + 1 and not (i == start + 2 and pattern[start + 1] == "^"):
                start = -1
        else:
            start = i if c == "[" else -1
            yield i, c, start
        i += 1


def regex_structure(pattern: str) -> Iterable[Tuple[int, str, int]]:
    """(index, character, group depth before it) of each character of a regex's text outside escapes and character
    classes: what finds its top-level `|` and the `)` closing a group."""
    depth = 0
    for i, c, start in _regex_chars(pattern):
        if start < 0:
            yield i, c, depth
            depth += (c == "(") - (c == ")")


def regex_classes(pattern: str) -> List[str]:
    """The text of each character class (`[...]`, escapes included) of a regex, in order."""
    end: dict = {}
    for i, _c, start in _regex_chars(pattern):
        if start >= 0:
            end[start] = i
    return [pattern[a:b + 1] for a, b in end.items()]


def split_top_level(pattern: str) -> List[str]:
    """A regex's text cut at its top-level `|` ([pattern] when it has none)."""
    parts, prev = [], 0
    for i, c, depth in regex_structure(pattern):
        if c == "|" and depth == 0:
            parts.append(pattern[prev:i])
            prev = i + 1
    return parts + [pattern[prev:]]


# An anchor shorter than this matches too much noise for the prefilter to pay off.
MIN_ANCHOR_LEN = 4


_MAX_EXPANSION = 32
# the parser's repeat opcodes (POSSESSIVE_REPEAT, `x*+`, from Python 3.11 on)
_REPEATS = tuple(op for op in (_sre_c.MAX_REPEAT, _sre_c.MIN_REPEAT, getattr(_sre_c, "POSSESSIVE_REPEAT", None))
                 if op is not None)


def required_literals(pattern: str) -> Optional[List[str]]:
    """Literal strings, one of which appears in every match of `pattern` (None: no usable literal).

    Works on the parsed regex. Small alternations of plain literals are expanded
    (`lib(cudart|cublas)` gives "libcudart" and "libcublas"); a sequence keeps its
    most selective literal (or the most selective required set of one of its
    parts); an alternation needs a set from every branch. Letters under (?i) expand
    to both cases (`0x(?i:80e1)` gives "0x80e1" and "0x80E1"), within the same limit.
    """
    from . import planmemo

    memo = planmemo.table("required_literals")
    if memo is None:
        return _required_literals(pattern)
    if pattern not in memo:
        planmemo.note(memo, pattern, _required_literals(pattern))
    got = memo[pattern]
    return None if got is None else list(got)


def _required_literals(pattern: str) -> Optional[List[str]]:
    try:
        parsed = _sre_parse.parse(pattern)
    except re.error:
        return None
    best = _seq_required(list(parsed), bool(parsed.state.flags & re.IGNORECASE))
    return best[1] if best else None


def _group_icase(av, icase: bool) -> bool:
    """Whether letters inside a group match either case: (?i:...) adds it, (?-i:...) takes it away."""
    add, delete = av[1], av[2]
    return (icase or bool(add & re.IGNORECASE)) and not delete & re.IGNORECASE


def _char_cases(ch: str, icase: bool) -> List[str]:
    if icase and ch.lower() != ch.upper():
        return sorted({ch.lower(), ch.upper()})
    return [ch]


def _literal_alternatives(op, av, icase: bool = False) -> Optional[List[str]]:
    """The strings a regex element can match, if it is a small set of plain literals."""
    if op is _sre_c.LITERAL:
        return _char_cases(chr(av), icase)
    if op is _sre_c.IN:
        if all(o is _sre_c.LITERAL for o, _ in av) and len(av) <= 4:
            return sorted({c for _, v in av for c in _char_cases(chr(v), icase)})
        return None
    if op is _sre_c.SUBPATTERN:
        return _sequence_alternatives(list(av[3]), _group_icase(av, icase))
    if op is _sre_c.BRANCH:
        return _each_branch(av[1], lambda branch: _sequence_alternatives(branch, icase))
    if op in (_sre_c.MAX_REPEAT, _sre_c.MIN_REPEAT) and av[0] == 0 and av[1] == 1:
        alts = _sequence_alternatives(list(av[2]), icase)
        return None if alts is None else [""] + alts
    return None


def _sequence_alternatives(items, icase: bool = False) -> Optional[List[str]]:
    out = [""]
    for op, av in items:
        alts = _literal_alternatives(op, av, icase)
        if alts is None:
            return None
        out = [o + a for o in out for a in alts]
        if len(out) > _MAX_EXPANSION:
            return None
    return out


def _each_branch(branches, one) -> Optional[List[str]]:
    """`one(branch)` of every branch of an alternation, together (None: a branch gives none, or there are too many)."""
    out: List[str] = []
    for branch in branches:
        got = one(list(branch))
        if got is None:
            return None
        out.extend(got)
    return out if len(out) <= _MAX_EXPANSION else None


def _repeated_literal(op, av, icase: bool = False) -> Optional[List[str]]:
    """The literals one copy of a repeat can be, for a repeat of at least one copy of a small set of literals (`x+`,
    ` {1,3}`, `[ab]+`); None otherwise."""
    if op not in _REPEATS or av[0] < 1:
        return None
    alts = _sequence_alternatives(list(av[2]), icase)  # at most _MAX_EXPANSION of them
    return alts if alts and all(alts) else None


def _leading_alternatives(op, av, icase: bool = False) -> Optional[List[str]]:
    """The literal each alternative of a group or alternation starts with (None: some alternative starts with none,
    or there are too many): every match of the element starts with one of them."""
    if op is _sre_c.SUBPATTERN:
        return _leading_run(list(av[3]), _group_icase(av, icase))
    if op is _sre_c.BRANCH:
        return _each_branch(av[1], lambda branch: _leading_run(branch, icase))
    return None


def _leading_run(items, icase: bool = False) -> Optional[List[str]]:
    """The literals a sequence starts with: its plain literal elements, then the first literal of a group that follows
    them (None: it starts with no literal in some case)."""
    out = [""]
    for op, av in items:
        alts = _literal_alternatives(op, av, icase)
        if alts is None:
            lead = _leading_alternatives(op, av, icase)
            if lead is not None and len(out) * len(lead) <= _MAX_EXPANSION:
                out = [o + a for o in out for a in lead]
            break
        if len(out) * len(alts) > _MAX_EXPANSION:
            break
        out = [o + a for o in out for a in alts]
    return None if not all(out) else sorted(set(out))


def _set_cost(lits: Sequence[str]) -> float:
    """Lower is better: what the set adds to the prefilter's first-byte test, then its size."""
    return sum(literal_cost(lit) for lit in lits) + 0.01 * len(lits)


def _seq_required(items, icase: bool = False, set_cost=None) -> Optional[Tuple[float, List[str]]]:
    """(cost, literals): the required set of `items` that `set_cost` (default _set_cost: what the set adds to the
    prefilter) finds cheapest; None when no set costs under 1e9."""
    set_cost = set_cost or _set_cost
    best: Optional[Tuple[float, List[str]]] = None
    run: List[str] = [""]

    def consider(cands: Optional[List[str]]):
        nonlocal best
        if not cands:
            return
        cands = sorted(set(cands))
        cost = set_cost(cands)
        if cost < 1e9 and (best is None or cost < best[0]):
            best = (cost, cands)

    def flush():
        nonlocal run
        if any(run):
            consider([r for r in run])
        run = [""]

    for op, av in items:
        alts = _literal_alternatives(op, av, icase)
        if alts is not None and len(run) * len(alts) <= _MAX_EXPANSION:
            run = [r + a for r in run for a in alts]
            continue
        body = _repeated_literal(op, av, icase)
        if body is not None and len(run) * len(body) <= _MAX_EXPANSION:
            # `x+` (`x{m,}`, m >= 1): a match has a copy of x right after what comes before and right before what
            # follows (` +number +of` holds " number " whatever the number of spaces)
            run = [r + a for r in run for a in body]
            flush()
            run = list(body)
            continue
        if any(run) and op in (_sre_c.SUBPATTERN, _sre_c.BRANCH):
            # the literal before a group joined to each alternative's own first literal (`/` then
            # `(libruntime|libge_\w+)` gives "/libruntime", "/libge_"): every match holds one of them
            lead = _leading_alternatives(op, av, icase)
            if lead and len(run) * len(lead) <= _MAX_EXPANSION:
                consider([r + a for r in run for a in lead])
        flush()
        if op is _sre_c.SUBPATTERN:
            sub = _seq_required(list(av[3]), _group_icase(av, icase), set_cost)
            if sub:
                consider(sub[1])
        elif op is _sre_c.BRANCH:
            union: List[str] = []
            for branch in av[1]:
                sub = _seq_required(list(branch), icase, set_cost)
                if not sub:
                    union = []
                    break
                union.extend(sub[1])
            consider(union or None)
        elif op in _REPEATS:
            if av[0] >= 1:
                sub = _seq_required(list(av[2]), icase, set_cost)
                if sub:
                    consider(sub[1])
        elif op is getattr(_sre_c, "ATOMIC_GROUP", None):
            sub = _seq_required(list(av), icase, set_cost)
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
# Words that log noise is full of: an anchor that is just one of them says nothing.
_COMMON_WORDS = frozenset(b"""
version device memory failed error timeout overflow loss mindspore success found module compile rank total
size type value name info warning debug time step epoch data file path line config context count init start
heartbeat send receive node server client group stream task graph kernel
""".split())


_WORD = re.compile(rb"[A-Za-z0-9_]+")


@functools.lru_cache(maxsize=None)
def _starts(raw: bytes) -> List[int]:
    """Where an anchor may start in a literal: keeping enough bytes, and holding 4+ bytes of a word
    that is not a common one.

    Starting on a common word ("version ") or on punctuation only makes an anchor that fires on
    ordinary log lines. A window [i, i+ANCHOR_MAX_LEN) holds 4+ bytes of the word [s, e) when
    s-(ANCHOR_MAX_LEN-4) <= i <= e-4: computed per word, not per position (the KB has thousands
    of literals and this runs at every start).
    """
    need = max(MIN_ANCHOR_LEN, min(GOOD_ANCHOR_LEN, len(raw)))
    last = len(raw) - need
    if last <= 0:
        return [0]
    good: Set[int] = set()
    for m in _WORD.finditer(raw):
        s, e = m.span()
        if e - s >= 4 and m.group(0).lower() not in _COMMON_WORDS:
            good.update(range(max(0, s - (ANCHOR_MAX_LEN - 4)), min(e - 4, last) + 1))
    return sorted(good) if good else list(range(last + 1))


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


# ---- digit-blind regexes (the scanner's memo of a line with its time cut: match/scanner.py) ----
_DIGITS = frozenset(range(ord("0"), ord("9") + 1))


def digit_blind(pattern: str) -> bool:
    """Whether `pattern` answers the same for two lines that differ only in which digits stand where (a log
    line's time): no literal digit, no class that takes some digits but not all, no backreference (which
    compares the text of a group). False when in doubt (an element this does not know)."""
    try:
        parsed = _sre_parse.parse(pattern)
    except re.error:
        return False
    return _blind_seq(list(parsed))


def _blind_class(items) -> bool:
    took = set()
    for op, av in items:
        if op is _sre_c.NEGATE:
            continue
        if op is _sre_c.LITERAL:
            if av in _DIGITS:
                took.add(av)
        elif op is _sre_c.RANGE:
            took.update(c for c in range(av[0], av[1] + 1) if c in _DIGITS)
        elif op is _sre_c.CATEGORY:  # \d \w \S take every digit, \D \W \s none
            if av in (_sre_c.CATEGORY_DIGIT, _sre_c.CATEGORY_WORD, _sre_c.CATEGORY_NOT_SPACE):
                took.update(_DIGITS)
            elif av not in (_sre_c.CATEGORY_NOT_DIGIT, _sre_c.CATEGORY_NOT_WORD, _sre_c.CATEGORY_SPACE):
                return False
        else:
            return False
    return not took or took == _DIGITS


def _blind_seq(items) -> bool:
    c = _sre_c
    for op, av in items:
        if op in (c.LITERAL, c.NOT_LITERAL):
            if av in _DIGITS:
                return False
        elif op is c.IN:
            if not _blind_class(av):
                return False
        elif op in (c.ANY, c.AT, c.CATEGORY):
            continue
        elif op is c.SUBPATTERN:
            if not _blind_seq(list(av[-1])):
                return False
        elif op is c.BRANCH:
            if not all(_blind_seq(list(b)) for b in av[1]):
                return False
        elif op in _REPEATS:
            if not _blind_seq(list(av[2])):
                return False
        elif op in (c.ASSERT, c.ASSERT_NOT):
            if not _blind_seq(list(av[1])):
                return False
        elif op is getattr(c, "ATOMIC_GROUP", None):
            if not _blind_seq(list(av)):
                return False
        else:  # GROUPREF, GROUPREF_EXISTS (the text or the presence of a group), anything new
            return False
    return True
