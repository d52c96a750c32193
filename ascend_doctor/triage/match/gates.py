"""The two-level scan: a small Hyperscan database over every byte, the whole one only over the lines it marks.

Hyperscan's time on ordinary log lines grows with the size of the literal set it looks for (FDR over every literal
factor of every expression, many of them short), not with a few bad expressions: at 1,000+ signatures it was ~2-3
ns a byte on lines holding no fault. So the database is split in two (decided once per knowledge base, kept in the
scanner cache with the plan):

- level 1 runs over every byte: a few *gate* words (GATE_WORDS, caseless) and *shapes* (SHAPE_GATES: an error code
  before its `:`, glog's level and time, a non-zero `ret=`), the *anchors* of expressions that no gate covers (their
  own required literals, each ANCHOR_MIN_LEN bytes or longer), and, whole, the expressions that have neither
  (`python scripts/bench_kb.py --levels --costly N` names the costliest of them);
- level 2 holds every other expression and literal; it runs only over the lines where a gate word, a shape or an
  anchor fired (joined, one scan per chunk), which on an ordinary log is a tiny fraction of its lines.

An expression goes to level 2 only when that is PROVABLE from its parse: every line it can match holds one of the
gate words (in any case: a case-sensitive `Failed` in the pattern holds the caseless gate `fail`), a shape (each
byte of a run of the pattern among the shape's bytes at that place), or one of its own anchors (`_seq_required`: one
of them is in every match). The hits are then the same on every input, not just on the logs measured. A top-level
alternation is decided branch by branch (each branch is its own expression: a line's hits are the union of its
branches' hits), so one ungated branch does not keep the others at level 1.
"""

from __future__ import annotations

import functools
import re
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from .literals import _seq_required, _sre_c, _sre_parse, regex_structure, split_top_level

# Words an error line carries (caseless). Chosen by measurement on the knowledge base (`bench_kb.py` prints how many
# expressions each level holds): each covers many expressions, and none is in the ordinary lines of the benchmark's
# noise (MindSpore, CANN, HCCL and training-progress INFO/WARNING lines). A gate that no expression needs is left out
# of the database.
GATE_WORDS = ("error", "fail", "exception", "fatal", "critical", "abort", "timeout", "timed out", "killed", "denied",
              "refused", "not found", "cannot", "unable", "invalid", "traceback", "segmentation", "core dump", "errno",
              "unsupported", "not support", "illegal", "panic", "mismatch",
              # CANN's error reports name the function that raised them (`... [FUNC:InferShape][FILE:op_util.cc]`)
              "[func:")
# An expression no gate covers is still at level 2 when each literal of a required set of it is this long (its anchors
# go to level 1): a shorter literal (`.cc:`, `Info`, `1000`) is in nearly every line, and would send them all to level 2.
ANCHOR_MIN_LEN = 8
# ...or this long where it holds letters and digits (an error code: `EL0007`): rarer in ordinary lines than a word.
CODE_ANCHOR_MIN_LEN = 6
# Shapes an error line carries that no word spells, each a run of one-byte classes (case-sensitive; a shape of several
# forms holds where one of them does), and a mark of its own at level 1 (a Hyperscan regex) where an expression needs
# it: a CANN error code before its `:` or `)` (`EZ9999:`, `Inner_Error(EI9999):`, `EL0004)`); glog's level with its
# date and hour (`E1204 10:21:33`, `F20241204 10:21:33`: MindSpore's and torch_npu's C++ logs); a non-zero return code
# after `ret=` (`aclnnMatmul failed, ret = 561103`; `ret=0` is the INFO lines' success). Chosen by measurement
# (docs/performance.md, round 28): kept whole at level 1, the expressions of these forms were a fifth of level 1's work
# on ordinary lines (Hyperscan has no literal of two bytes to start from: `E` is in most upper-case words), the marks
# cost a sixth of that (callgrind: 0.8 against 4.6 instructions a byte).
_DIGIT = frozenset(b"0123456789")
_NONZERO = frozenset(b"123456789")
_CODE_SECOND = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _spelt(text: bytes) -> Tuple[frozenset, ...]:
    return tuple(frozenset((c,)) for c in text)


SHAPE_GATES: Dict[str, Tuple[Tuple[frozenset, ...], ...]] = {
    "<code:>": ((frozenset(b"E"), _CODE_SECOND) + (_DIGIT,) * 4 + (frozenset(b":)"),),),
    "<glog>": ((frozenset(b"EF"),) + (_DIGIT,) * 4 + (frozenset(b" "), _DIGIT, _DIGIT, frozenset(b":")),
               (frozenset(b"EF"),) + (_DIGIT,) * 8 + (frozenset(b" "), _DIGIT, _DIGIT, frozenset(b":"))),
    "<ret=N>": tuple(_spelt(form) + (_NONZERO,) for form in (b"ret=", b"ret =", b"ret= ", b"ret = ")),
}
_SHAPE_MIN = min(len(form) for forms in SHAPE_GATES.values() for form in forms)
# How many branches (alternations, optional parts) a pattern is expanded into when looking for a gate word that runs
# across them (`(?:F|f)ail`, `time(?:d out|out)`); past it the element only breaks the run.
_EXPANSION_BUDGET = 256

# Hyperscan expression kinds in a level (the flags the finder compiles them with)
LITERAL, REGEX, CASELESS = 0, 1, 2


def _lower(byteset) -> frozenset:
    return frozenset(b + 32 if 65 <= b <= 90 else b for b in byteset)


def _charset(op, av) -> Optional[frozenset]:
    """The bytes one element matches (a one-byte element), or None."""
    name = str(op)
    if name == "LITERAL":
        return frozenset((av,))
    if name == "NOT_LITERAL":
        return frozenset(range(256)) - {av}
    if name == "ANY":
        return frozenset(range(256)) - {10}
    if name == "IN":
        got, negate = set(), False
        for o, a in av:
            on = str(o)
            if on == "NEGATE":
                negate = True
            elif on == "LITERAL":
                got.add(a)
            elif on == "RANGE":
                got.update(range(a[0], a[1] + 1))
            else:  # a category (\d, \w): many bytes, never one letter
                return None
        return frozenset(set(range(256)) - got) if negate else frozenset(got)
    return None


def _flatten(items) -> list:
    """A sequence with its groups spliced in and its zero-width assertions left out (they consume nothing: the bytes
    on either side are adjacent in the line)."""
    out = []
    for op, av in items:
        name = str(op)
        if name == "SUBPATTERN":
            out.extend(_flatten(list(av[-1])))
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        else:
            out.append((op, av))
    return out


def _run_gate(run: List[frozenset], gates: Sequence[bytes]) -> Optional[bytes]:
    """The gate word that a run of one-byte elements always spells (each position one letter, in either case), or
    the name of a shape (SHAPE_GATES) the run always holds: at some place, each element's bytes are among the shape's
    there."""
    low = [_lower(cs) for cs in run]
    spelt = bytes(next(iter(cs)) if len(cs) == 1 else 0 for cs in low)  # 0: a position of several bytes
    word = next((g for g in gates if g in spelt), None)
    return word if word is not None else _run_shape(run)


def _run_shape(run: List[frozenset]) -> Optional[bytes]:
    if len(run) < _SHAPE_MIN:
        return None
    for name, forms in SHAPE_GATES.items():
        for shape in forms:
            n, head = len(shape), shape[0]
            for at in range(len(run) - n + 1):
                if run[at] <= head and all(run[at + j] <= shape[j] for j in range(1, n)):
                    return name.encode("latin-1")
    return None


def _gated_seq(items, gates: Sequence[bytes], budget: int) -> Optional[FrozenSet[bytes]]:
    """Gate words one of which every match of the sequence holds (None: not provable): a run of one-byte elements
    spells one, or a required element (a repeat of one or more, an alternation) holds one on every way through it;
    else an alternation, an optional part or a short exact repeat is expanded (each way through it checked with what
    comes before and after it: `(?:F|f)ail`, `time(?:d out|out)`). Ways gated by different words need each word's
    mark (`init (?:failed|error)`: `fail` or `error`)."""
    items = _flatten(items)
    got = _direct_gate(items, gates, budget)
    if got:
        return got
    for k, (op, av) in enumerate(items):
        name = str(op)
        if name == "BRANCH":
            ways = [list(b) for b in av[1]]
        elif name in ("MAX_REPEAT", "MIN_REPEAT") and av[0] == 0 and av[1] == 1:
            ways = [[], list(av[2])]
        elif name in ("MAX_REPEAT", "MIN_REPEAT") and av[0] == av[1] and 1 <= av[0] <= 8:
            ways = [list(av[2]) * av[0]]
        else:
            continue
        if len(ways) <= budget:
            share = budget // len(ways)
            found = []
            for w in ways:
                one = _gated_seq(items[:k] + w + items[k + 1:], gates, share)
                if not one:
                    return None
                found.append(one)
            return frozenset().union(*found)
    return None


def _direct_gate(items, gates: Sequence[bytes], budget: int) -> Optional[FrozenSet[bytes]]:
    """Gate words held without expanding the sequence (see _gated_seq)."""
    run: List[frozenset] = []
    for op, av in items + [(None, None)]:
        cs = _charset(op, av) if op is not None else None
        if cs is not None:
            run.append(cs)
            continue
        first = _first_byte(op, av) if run and op is not None else None
        word = _run_gate(run + [first] if first else run, gates) if run else None
        if word:
            return frozenset((word,))
        run = []
        name = str(op)
        got: Optional[FrozenSet[bytes]] = None
        if name in ("MAX_REPEAT", "MIN_REPEAT") and av[0] >= 1:
            got = _gated_seq(list(av[2]), gates, budget)
        elif name == "BRANCH":
            ways = [_gated_seq(list(b), gates, budget) for b in av[1]]
            got = frozenset().union(*ways) if all(ways) else None  # type: ignore[arg-type]
        if got:
            return got
    return None


def _first_byte(op, av) -> Optional[frozenset]:
    """The bytes an alternation (or a repeat of one or more) can start with, where each of its ways starts with a
    one-byte element (`ret=(?:1000\\d\\d|5070\\d\\d)` is `ret=` and then a non-zero digit); None otherwise."""
    name = str(op)
    if name == "BRANCH":
        ways = [_flatten(list(b)) for b in av[1]]
    elif name in ("MAX_REPEAT", "MIN_REPEAT") and av[0] >= 1:
        ways = [_flatten(list(av[2]))]
    else:
        return None
    got: set = set()
    for way in ways:
        if not way:  # an empty way: the alternation can match nothing, and the run may end there
            return None
        cs = _charset(*way[0])
        if cs is None:  # a nested alternation or repeat: where it starts
            cs = _first_byte(*way[0])
        if cs is None:
            return None
        got |= cs
    return frozenset(got)


def gate_of(expr: str, gates: Iterable[str] = GATE_WORDS) -> Optional[str]:
    """The gate word every line matching `expr` (a Hyperscan expression as translate.py writes it, latin-1) holds,
    in any case; None when that cannot be proved. Where the ways through it hold different words, all of them, joined
    by `|` in GATE_WORDS order (`HCCL init (?:failed|error)`: "error|fail"): each word's mark sends its lines to
    level 2 (gate_words)."""
    gates = tuple(gates)
    memo = _plan_memo("gate_of", gates)
    if memo is None:
        return _gate_of(expr, gates)
    if expr not in memo:
        from . import planmemo

        planmemo.note(memo, expr, _gate_of(expr, gates))
    return memo[expr]


def _plan_memo(name: str, gates: Tuple[str, ...]) -> Optional[dict]:
    """The plan memo (planmemo.py) of `name` for the default gate words (None: not now, or other gates)."""
    if gates != GATE_WORDS:
        return None
    from . import planmemo

    return planmemo.table(name)


@functools.lru_cache(maxsize=4096)  # the plan asks for a confirmed pattern's expression, then the levels for it again
def _gate_of(expr: str, gates: Tuple[str, ...]) -> Optional[str]:
    try:
        parsed = _sre_parse.parse(expr)
    except Exception:  # noqa: BLE001 - not a pattern this parser reads: no proof
        return None
    words = [g.lower().encode("latin-1") for g in gates]
    got = _gated_seq(list(parsed), words, _EXPANSION_BUDGET)
    if not got:  # the part after an unbounded repeat alone: its optional parts are within the budget of expansion
        items = _flatten(list(parsed))
        for k in range(len(items) - 1, 0, -1):
            if str(items[k - 1][0]) in ("MAX_REPEAT", "MIN_REPEAT") and items[k - 1][1][1] == _sre_c.MAXREPEAT:
                got = _gated_seq(items[k:], words, _EXPANSION_BUDGET)
                if got:
                    break
    named = words + [n.encode("latin-1") for n in SHAPE_GATES]
    return "|".join(w.decode("latin-1") for w in named if w in got) if got else None


def gate_words(gate: str) -> List[str]:
    """The words of a gate_of answer (one, or several joined by `|`)."""
    return gate.split("|")


def literal_gate(lit: str, gates: Iterable[str] = GATE_WORDS) -> Optional[str]:
    """The gate word a literal holds, in any case, or the name of a shape it holds (SHAPE_GATES); None: none."""
    low = lit.lower()
    word = next((g for g in gates if g in low), None)
    if word is None and len(lit) >= _SHAPE_MIN:
        text = lit.encode("latin-1", "replace")
        word = next((name for name, rx in _shape_rx().items() if rx.search(text)), None)
    return word


@functools.lru_cache(maxsize=1)
def _shape_rx() -> Dict[str, "re.Pattern[bytes]"]:
    """Each shape as a Python regex (shape_expression's text is one too)."""
    return {name: re.compile(shape_expression(name).encode("latin-1")) for name in SHAPE_GATES}


def _anchor_len(lit: str, gates: Sequence[str]) -> int:
    """How long a literal counts as an anchor: a literal holding a gate word is covered by the gate's mark (counted
    long); a code (letters and digits: `EL0007`) counts from CODE_ANCHOR_MIN_LEN bytes; others by their length (a
    bare number is in ordinary lines as a pid, a size, a step: `507008` does not count)."""
    n = len(lit.encode("latin-1"))
    if literal_gate(lit, gates):
        return 1 << 16
    if n >= CODE_ANCHOR_MIN_LEN and any(c.isdigit() for c in lit) and any(c.isalpha() for c in lit):
        return max(n, ANCHOR_MIN_LEN)
    return n


def own_anchors(expr: str, gates: Sequence[str] = GATE_WORDS) -> Optional[List[str]]:
    """Literals one of which is in every match of `expr`, each ANCHOR_MIN_LEN bytes or longer (a code
    CODE_ANCHOR_MIN_LEN), or holding a gate word (the gate's mark covers it); the longest such set first; None when
    it has none."""
    gates = tuple(gates)
    memo = _plan_memo("own_anchors", gates)
    if memo is None:
        got = _own_anchors(expr, gates)
        return None if got is None else list(got)
    if expr not in memo:
        from . import planmemo

        found = _own_anchors(expr, gates)
        planmemo.note(memo, expr, None if found is None else list(found))
    return None if memo[expr] is None else list(memo[expr])


@functools.lru_cache(maxsize=4096)
def _own_anchors(expr: str, gates: Tuple[str, ...]) -> Optional[Tuple[str, ...]]:
    try:
        parsed = _sre_parse.parse(expr)
    except Exception:  # noqa: BLE001
        return None

    def cost(lits: Sequence[str]) -> float:
        shortest = min(_anchor_len(x, gates) for x in lits)
        return 1e9 if shortest < ANCHOR_MIN_LEN else 1000.0 / shortest + 0.01 * len(lits)

    best = _seq_required(list(parsed), False, cost)
    return tuple(best[1]) if best else None


def _spans_whole(s: str) -> bool:
    """Whether `s` is one group, `(?:...)`, from its first character to its last."""
    return s.startswith("(?:") and next((i for i, c, depth in regex_structure(s) if c == ")" and depth == 1),
                                        -1) == len(s) - 1


def split_alternatives(expr: str) -> List[str]:
    """The top-level alternatives of a Hyperscan expression as translate.py writes it (every byte `\\xHH`, groups
    `(?:`), each an expression of its own; [expr] when it is not an alternation."""
    s = expr
    while _spans_whole(s):
        s = s[3:-1]
    parts = split_top_level(s)
    return parts if len(parts) > 1 and all(parts) else [expr]


def at_level2(expr: bytes) -> bool:
    """Whether every top-level alternative of a Hyperscan expression goes to level 2 (a gate word, or its own
    anchors): then it runs only over the lines level 1 marks."""
    return all(gate_of(part) or own_anchors(part) is not None for part in split_alternatives(expr.decode("latin-1")))


def hs_literal(lit: bytes) -> str:
    """A literal as a Hyperscan expression (every byte as \\xHH), latin-1."""
    return "".join("\\x%02x" % c for c in lit)


def two_levels(hs_lit: Sequence[Tuple[str, Sequence[int]]], hs_re: Sequence[Tuple[str, Sequence[int]]],
               gates: Sequence[str] = GATE_WORDS) -> dict:
    """The two databases, from the plan's literals and expressions (_scan_plan's hs_lit / hs_re tables):
    {"l1": [[expression, kind, ids or None (a mark: the line goes to level 2)]], "l2": [[expression, kind, ids]],
    "gates": {gate word: expressions it covers}, "anchored": expressions at level 2 by their own anchors,
    "level1": expressions kept whole at level 1}. Expressions are latin-1 text; kind LITERAL, REGEX or CASELESS."""
    l1: List[list] = []
    l2: List[list] = []
    used: Dict[str, int] = {}
    anchors: Dict[str, None] = {}
    anchored = whole = 0
    for lit, ids in hs_lit:
        g = literal_gate(lit, gates)
        expr = hs_literal(lit.encode("latin-1"))
        if g:
            used[g] = used.get(g, 0) + 1
            l2.append([expr, LITERAL, sorted(ids)])
        else:
            l1.append([expr, LITERAL, sorted(ids)])
    for e, ids in hs_re:
        for part in split_alternatives(e):
            g = gate_of(part, gates)
            if g:
                for w in gate_words(g):  # each word's mark: a match holds one of them
                    used[w] = used.get(w, 0) + 1
                l2.append([part, REGEX, sorted(ids)])
                continue
            own = own_anchors(part, gates)
            if own is not None:
                anchored += 1
                for x in own:
                    g = literal_gate(x, gates)
                    if g:  # covered by the gate word's mark
                        used[g] = used.get(g, 0) + 1
                    else:
                        anchors[hs_literal(x.encode("latin-1"))] = None
                l2.append([part, REGEX, sorted(ids)])
                continue
            whole += 1
            l1.append([part, REGEX, sorted(ids)])
    if not l2:  # nothing gated: one level
        return {"l1": l1, "l2": [], "gates": {}, "anchored": 0, "level1": whole}
    marks = [[hs_literal(g.encode("latin-1")), CASELESS, None] for g in gates if g in used]
    marks += [[shape_expression(n), REGEX, None] for n in SHAPE_GATES if n in used]
    marks += [[a, LITERAL, None] for a in anchors]
    named = list(gates) + list(SHAPE_GATES)
    return {"l1": marks + l1, "l2": l2, "gates": {g: used[g] for g in named if g in used}, "anchored": anchored,
            "level1": whole}


def shape_expression(name: str) -> str:
    """A shape of SHAPE_GATES as a Hyperscan expression (each position a class of \\xHH bytes), latin-1."""
    forms = ["".join("[" + "".join("\\x%02x" % b for b in sorted(cs)) + "]" for cs in form)
             for form in SHAPE_GATES[name]]
    return forms[0] if len(forms) == 1 else "(?:" + "|".join(forms) + ")"
