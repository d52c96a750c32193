"""A signature's regex as a Hyperscan expression (the whole pattern, not just an anchor)."""

from __future__ import annotations

import re
from typing import Optional, Tuple

try:  # Python 3.11+ moved the regex parser; 3.8-3.10 name it sre_parse
    import re._parser as _sre_parse  # type: ignore[import]
    import re._constants as _sre_c  # type: ignore[import]
except ImportError:  # pragma: no cover - depends on the interpreter
    import sre_constants as _sre_c  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

from .literals import _group_icase, _seq_required, literal_cost


# Hyperscan matches the exact regex over a chunk, so a hit is a match and the line needs no
# Python at all. The translation works on Python's own parse of the bytes pattern (what
# Signature.bytes_matcher compiles) and writes every element out explicitly, so no dialect
# difference can creep in: each class is a list of byte ranges (\d, \w, \s as Python's bytes
# mode defines them, (?i) folding ASCII letters as Python's bytes mode does), "." and every
# class leave out the newline (a line holds none, so nothing changes for a line, and no Hyperscan
# match can run across two lines: the line holding a match's end is the line holding it all),
# ^ and $ are left out, as a look-around is (the expression then finds a superset, confirmed in Python): Hyperscan's
# line anchors lose matches (LINE_ANCHORS_LEFT_OUT). Anything else (back-references, \A, \Z, atomic groups, a literal newline)
# gives None: that pattern is found by its literals and confirmed in Python.
# A trailing (or leading) repeat is cut to its minimum: the same lines match, and `.*` at the end
# would otherwise report a match at every byte up to the line's end; a look-around at the end, and the ends of a
# group or of each alternative that ends the pattern, are cut the same way first (a `(?P<message>[^\n]{7,}?)(?=\[FUNC:|$)` tail).

HS_EXPRESSION_VERSION = 6  # 4: level 2 cached as parts (finders.L2_PART); 5: every long bounded repeat widened; 6: ^ and $
# left out
# A line anchor (^, $: a line's start and end under HS_FLAG_MULTILINE) is left out of every expression, a superset
# that Python confirms. Hyperscan 5.4 (python-hyperscan 0.9.1) drops matches of anchored expressions in some databases:
# `^\s*--- Submodule initialization failed` in one database with `^\s*(?:AssertionError: )?Arrays are not equal\s*$`
# and `^\s*Max absolute difference(?: among violations)?: ...$` matched that line alone or after `x`, never after
# ` does not exist.` (tests/kb/test_hyperscan_anchors.py keeps the case). Nothing in the anchors is selective, so
# leaving them out costs a few lines confirmed in Python.
LINE_ANCHORS = frozenset(("AT_BEGINNING", "AT_BEGINNING_LINE", "AT_END", "AT_END_LINE"))
# A bounded repeat this long or longer is written unbounded, for every signature (a superset: Python confirms).
WIDE_REPEAT = 20
# ...and cut to its most selective part between gaps only where that part's every required literal is this long: a
# shorter phrase alone (`out of memory`, without the `error` before it) is in ordinary lines (a MindSpore warning
# says "may lead to Out Of Memory"), each then a line for Python to confirm.
CUT_MIN_LITERAL = 16
_NL = 10
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_CATEGORY_BYTES = {
    "CATEGORY_DIGIT": frozenset(range(48, 58)),
    "CATEGORY_SPACE": frozenset(b" \t\n\r\f\v"),
    "CATEGORY_WORD": _WORD_BYTES,
}


class _NoHs(Exception):
    pass


def _fold(byteset, icase: bool):
    if not icase:
        return set(byteset)
    out = set(byteset)
    for b in byteset:
        if 65 <= b <= 90:
            out.add(b + 32)
        elif 97 <= b <= 122:
            out.add(b - 32)
    return out


def _class_expr(byteset) -> bytes:
    byteset = sorted(set(byteset) - {_NL})
    if not byteset:
        raise _NoHs("a class that matches only a newline")
    if len(byteset) == 1:
        return b"\\x%02x" % byteset[0]
    parts, i = [], 0
    while i < len(byteset):
        j = i
        while j + 1 < len(byteset) and byteset[j + 1] == byteset[j] + 1:
            j += 1
        parts.append(b"\\x%02x" % byteset[i] + (b"-\\x%02x" % byteset[j] if j > i else b""))
        i = j + 1
    return b"[" + b"".join(parts) + b"]"


def _in_bytes(items, icase: bool):
    got, negate = set(), False
    for op, av in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            got |= _fold({av}, icase)
        elif name == "RANGE":
            got |= _fold(set(range(av[0], av[1] + 1)), icase)
        elif name == "CATEGORY":
            cat = str(av)
            base = cat.replace("_NOT_", "_")
            if base not in _CATEGORY_BYTES:
                raise _NoHs(cat)
            got |= (set(range(256)) - _CATEGORY_BYTES[base]) if "_NOT_" in cat else set(_CATEGORY_BYTES[base])
        else:
            raise _NoHs(name)
    return (set(range(256)) - got) if negate else got


def _hs_seq(items, icase: bool, loose: list) -> bytes:
    return b"".join(_hs_item(op, av, icase, loose) for op, av in items)


def _hs_item(op, av, icase: bool, loose: list) -> bytes:
    name = str(op)
    if name in ("ASSERT", "ASSERT_NOT"):  # a look-around only narrows: without it, a superset (confirmed in Python)
        loose.append(name)
        return b""
    if name == "LITERAL":
        return _class_expr(_fold({av}, icase))
    if name == "NOT_LITERAL":
        return _class_expr(set(range(256)) - _fold({av}, icase))
    if name == "ANY":
        return _class_expr(range(256))  # with or without DOTALL: every byte but the newline
    if name == "IN":
        return _class_expr(_in_bytes(av, icase))
    if name == "BRANCH":
        return b"(?:" + b"|".join(_hs_seq(list(b), icase, loose) for b in av[1]) + b")"
    if name == "SUBPATTERN":
        add, delete = av[1], av[2]
        if (add | delete) & ~(re.IGNORECASE | re.DOTALL | re.MULTILINE | re.ASCII):
            raise _NoHs("group flags")
        return b"(?:" + _hs_seq(list(av[3]), _group_icase(av, icase), loose) + b")"
    if name in ("MAX_REPEAT", "MIN_REPEAT"):
        lo, hi, sub = av
        inner = b"(?:" + _hs_seq(list(sub), icase, loose) + b")"
        if lo < hi != _sre_c.MAXREPEAT and hi >= WIDE_REPEAT:  # a superset: Python confirms (see hs_expression)
            loose.append("WIDENED")
            hi = _sre_c.MAXREPEAT
        if hi == _sre_c.MAXREPEAT:
            return inner + (b"*" if lo == 0 else b"+" if lo == 1 else b"{%d,}" % lo)
        return inner + (b"{%d}" % lo if lo == hi else b"{%d,%d}" % (lo, hi))
    if name == "AT":
        if str(av) in LINE_ANCHORS:  # left out: a superset (see LINE_ANCHORS)
            loose.append("LINE_ANCHOR")
            return b""
        at = {"AT_BOUNDARY": b"\\b", "AT_NON_BOUNDARY": b"\\B"}.get(str(av))
        if at is None:
            raise _NoHs(str(av))
        return at
    raise _NoHs(name)


def _trim_end(items, loose: list) -> list:
    """The trailing end of a sequence cut to what a line needs: a look-around there left out (a superset, confirmed
    in Python), a repeat cut to its minimum, a group's own end cut the same way; the same lines match (or a superset),
    and a long repeat at the end would otherwise report a match at every byte up to the line's end."""
    items = list(items)
    while items:
        op, av = items[-1]
        name = str(op)
        if name in ("ASSERT", "ASSERT_NOT") or (name == "AT" and str(av) in LINE_ANCHORS):
            items.pop()
            loose.append("LINE_ANCHOR" if name == "AT" else name)
            continue
        if name in ("MAX_REPEAT", "MIN_REPEAT"):
            lo, hi, sub = av
            if lo == 0:
                items.pop()
                continue
            if hi != lo:
                items[-1] = (op, (lo, lo, sub))
        elif name == "SUBPATTERN" and av[3]:
            inner = _trim_end(list(av[3]), loose)
            if not inner:
                items.pop()
                continue
            items[-1] = (op, (av[0], av[1], av[2], inner))
        elif name == "BRANCH":
            alts = [_trim_end(list(alt), loose) for alt in av[1]]
            if not all(alts):  # one alternative is now empty: the branch asks nothing of the line
                items.pop()
                continue
            items[-1] = (op, (av[0], alts))
        break
    return items


def _trim_repeats(items, loose: list) -> list:
    """Leading and trailing repeats cut to their minimum (the same lines match; fewer reports)."""
    items = _trim_end(items, loose)
    while items and str(items[0][0]) == "AT" and str(items[0][1]) in LINE_ANCHORS:  # (left out: then the repeat after)
        items.pop(0)
        loose.append("LINE_ANCHOR")
    while items and str(items[0][0]) in ("MAX_REPEAT", "MIN_REPEAT"):
        lo, hi, sub = items[0][1]
        if lo == 0:
            items.pop(0)
            continue
        if hi != lo:
            items[0] = (items[0][0], (lo, lo, sub))
        break
    return items


def _is_gap(op, av) -> bool:
    """A repeat a line can stretch far (unbounded, or WIDE_REPEAT or more): what keeps Hyperscan's state alive."""
    return str(op) in ("MAX_REPEAT", "MIN_REPEAT") and (av[1] == _sre_c.MAXREPEAT or av[1] >= WIDE_REPEAT)


def _best_segment(items, icase: bool, loose: list) -> list:
    """For a signature Python confirms: the part of a sequence between its gaps (`Error[^\\n]{0,200}not supported`)
    with the most selective required literal (literals._seq_required), the rest left out. Any part of a sequence is a
    superset of its lines (a line holding a match holds a match of each part, in place, its assertions alike), and
    Hyperscan no longer carries the state of a common start (`Error`) to the line's end. A sequence that is one
    alternation is cut branch by branch."""
    if len(items) == 1 and str(items[0][0]) == "SUBPATTERN" and not (items[0][1][1] | items[0][1][2]):
        inner = list(items[0][1][3])
        if len(inner) == 1 and str(inner[0][0]) == "BRANCH":
            items = inner
    if len(items) == 1 and str(items[0][0]) == "BRANCH":
        op, (x, branches) = items[0]
        return [(op, (x, [_best_segment(list(b), icase, loose) for b in branches]))]
    segments, cur = [], []
    for op, av in items:
        if _is_gap(op, av):
            segments.append(cur)
            cur = []
        else:
            cur.append((op, av))
    segments.append(cur)
    # a part's worth: its required set's shortest literal (a longer one is rarer: Hyperscan starts on it less often),
    # then its commonest first byte (literal_cost), not the set's size
    scored = sorted((-min(len(x) for x in got[1]), max(literal_cost(x) for x in got[1]), k)
                    for k, seg in enumerate(segments) if seg for got in [_seq_required(seg, icase)] if got)
    if len(segments) < 2 or not scored or -scored[0][0] < CUT_MIN_LITERAL:
        return items
    loose.append("CUT")
    return segments[scored[0][-1]]


def hs_expression(pattern: str, widen: bool = False) -> Optional[Tuple[bytes, bool]]:
    """`pattern` (a signature's Python regex) as a Hyperscan expression for one line, and whether it is
    exact (a hit is a match) or a superset (a look-around or a line anchor left out, a long repeat widened: Python
    confirms); None: not expressible.

    A bounded repeat of WIDE_REPEAT or more (`[^\\n]{3,100}?`) is always written unbounded (`{3,}`): a superset of the
    lines, and far cheaper for Hyperscan, which otherwise keeps a counter running from every byte that can start the
    repeat (measured on scripts/bench_kb.py's log: NPU_GRAPH_CAPTURE_CALL_NOT_CAPTURABLE's `[A-Z]\\w+[^\\n]{3,100}?`
    alone was half of Hyperscan's time on the lines of the examples; such repeats written exactly were most of the
    first run's compile, round 23). `widen`: for a signature Python confirms anyway (an exclude, a bare code), also
    only the most selective part between its gaps (_best_segment)."""
    from . import planmemo

    memo = planmemo.table("hs_expression")
    if memo is None:
        return _hs_expression(pattern, widen)
    key = f"{int(widen)}:{pattern}"
    if key in memo:
        got = memo[key]
        return None if got is None else (got[0].encode("latin-1"), bool(got[1]))
    ans = _hs_expression(pattern, widen)
    planmemo.note(memo, key, None if ans is None else [ans[0].decode("latin-1"), ans[1]])
    return ans


def _hs_expression(pattern: str, widen: bool) -> Optional[Tuple[bytes, bool]]:
    try:
        parsed = _sre_parse.parse(pattern.encode("utf-8"))
        flags = parsed.state.flags
        if flags & ~(re.IGNORECASE | re.DOTALL | re.MULTILINE | re.ASCII | re.VERBOSE):
            return None
        loose: list = []
        icase = bool(flags & re.IGNORECASE)
        items = _trim_repeats(_best_segment(list(parsed), icase, loose) if widen else list(parsed), loose)
        expr = _hs_seq(items, icase, loose) if items else b""
        return (expr, not loose) if expr else None
    except (_NoHs, re.error, RecursionError, OverflowError):
        return None
