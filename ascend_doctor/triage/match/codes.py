"""Codes count only in an error context (issue 21): a signature branch that is only a code."""

from __future__ import annotations

import re
from typing import List, Sequence

try:  # Python 3.11+ moved the regex parser; 3.8-3.10 name it sre_parse
    import re._parser as _sre_parse  # type: ignore[import]
    import re._constants as _sre_c  # type: ignore[import]
except ImportError:  # pragma: no cover - depends on the interpreter
    import sre_constants as _sre_c  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

from ...lazyre import lazy_compile
from .literals import _sequence_alternatives, split_top_level


# A signature branch that is nothing but a code (`\b507010\b`, `\bEI0006\b`, an all_of alternative ["507008"])
# would name a fault from any number: process ids (`HCCL(507010,python)`), thread ids, step counts, sizes. Such a
# branch matches only where the code is reported as an error:
#   1. it follows an error-code word: `error code is 507018`, `ret=107010`, `ret[507033]`, `retCode: `, `errno `,
#      `result = `, `status `, `failed, `, `error `; or a lettered code is followed by `:` or `)`, the form CANN
#      reports it in (`EI0006: ...`, `..._Device_Memory(EI0011): ...`; ascend-fd's own code rule `[EWI][A-Z0-9][0-9]{4}[):]`);
#   2. or the line is an error line (level ERROR/FATAL/CRITICAL or glog E, a Python `...Error:`/`...Exception:`, a
#      CANN `EZ9999:` report) and the code does not
#      sit where an id does: after pid/tid/step/epoch/size/count/id/rank/port/line words, inside `MODULE(pid,`,
#      in the `[tid]` / `]tid` slots of CANN and HCCL headers, after a timestamp (glog's thread id), or
#      followed by a unit (bytes, MB, ms, samples, ...).
# A branch that names the code in its documented phrase (`error code is ?507033`, `Error 106001`) is unchanged.

# The words a code is reported after (`error code is 507018`, `ret=107010`, `errno 2`, `status: `, `failed, `), with
# what may stand between them and the code: one list, for the context rule (code_in_context, rule 1) and for
# Hyperscan's superset of it (code_hs_pattern)
_CODE_KEYWORD = (r"(?i:error[ _-]?code|err[ _-]?code|errcode|err_?no|ret(?:urn)?[ _-]?(?:code|val(?:ue)?)?|rt_?ret|"
                 r"result|status|error|err|code|fail(?:ed|ure|s)?)(?:\s*(?:is|was|of))?[\s=:\[\(,#]*")

# A line that reports an error code by itself (triage.lines.is_error_report, for entries whose sentence is also quoted
# in ordinary text: `fail_needs_mark`): a lettered CANN code (`E13023`, `EE1001`), the error printer's `ErrorCode=`,
# or a non-zero number right after a return-code word (`ret=507014`, `error code is 107002`, `Code = 507014`). Stricter
# than the context rule above on purpose: `failed, 3` or `result 1` in a quoted sentence do not make it a report.
ERROR_CODE_MARK = lazy_compile(r"\bE[0-9A-Z]\d{4}\b|ErrorCode=|(?i:\b(?:ret(?:urn)?[ _]?code|error[ _]?code|ret|code|errno|"
                               r"status)\s*(?:is\s*)?[=:\[(]?\s*-?[1-9]\d*)")

_CODE_TOKEN = re.compile(r"(?=[0-9A-Z]*[0-9])[0-9A-Z]{4,}")
_CODE_CONTEXT_BEFORE = 48


def _code_context_res(enc):
    """The context regexes (str or bytes): (keyword before, id slot before, unit after, error line)."""
    def c(p, flags=0):
        return re.compile(enc(p), flags)

    return (
        c(r"(?:\b|(?<=[a-z])(?=[A-Z]))" + _CODE_KEYWORD + "$"),
        c(r"(?:(?i:pid|tid|thread|process|proc|step|epoch|iter(?:ation)?|size|len(?:gth)?|count|num|total|id|idx|"
          r"index|rank|port|addr(?:ess)?|line|bytes|seq|time|cost|took|batch|samples?|tokens?|offset)[\s=:\[\(#]*"
          r"|\w\(|\]\[?|\d\d:\d\d:\d\d[.,]\d+\s+|\.\w{1,4}:)$"),
        c(r"(?:\s*(?i:bytes?|[kmgt]i?b|ms|us|ns|s|sec|%|samples?|tokens?|steps?|lines?|items?|iters?)(?!\w)|[,:]\w|\.\d)"),
        c(r"\[(?:ERROR|FATAL|CRITICAL|ERR|E)\]|\b(?:ERROR|FATAL|CRITICAL)\b|^\s*[EF]\d{4} \d\d:\d\d|"
          r"\[[EF]\d{3,4} \d\d:\d\d|(?:Error|Exception)(?::|$)|\bE[A-Z0-9]\d{4}:"),
    )


class _CodeContext:
    """The context regexes for str or bytes, compiled on first use."""

    def __init__(self, enc):
        self.enc, self._res = enc, None

    def res(self):
        if self._res is None:
            self._res = _code_context_res(self.enc)
        return self._res


_STR_CONTEXT = _CodeContext(lambda p: p)
_BYTES_CONTEXT = _CodeContext(lambda p: p.encode("ascii"))


def code_in_context(line, start: int, end: int, ctx=None) -> bool:
    """Whether the code at line[start:end] (str or bytes) is reported as an error (see above)."""
    if ctx is None:
        ctx = _BYTES_CONTEXT if isinstance(line, (bytes, bytearray)) else _STR_CONTEXT
    keyword, id_slot, unit, error_line = ctx.res()
    lo = max(0, start - _CODE_CONTEXT_BEFORE)
    if keyword.search(line, lo, start):
        return True
    code = line[start:end]
    nxt = line[end:end + 1]
    if not code[:1].isdigit() and nxt in (":", ")", b":", b")"):  # `EI0006: ...`, `..._Memory(EI0011): ...`
        return True
    if not error_line.search(line):
        return False
    return not id_slot.search(line, lo, start) and not unit.match(line, end)


# What Hyperscan looks for in place of a bare code, a superset of code_in_context: the code right after an
# error-code word (the keyword rule, written out), or on a line holding an error-line word anywhere (the error-line
# rule), or a lettered code followed by `:`/`)`. Only such lines reach Python: the INFO lines of a process whose
# pid is 507010 never do.
_ERROR_LINE_WORDS = (r"\[(?:ERROR|ERR|E|FATAL|CRITICAL)\]|\b(?:ERROR|FATAL|CRITICAL)\b|Error|Exception|"
                     r"E[A-Z0-9]\d{4}:|\b[EF]\d{3,4} \d\d:")  # no ^ inside: Hyperscan refuses an embedded anchor


def code_hs_pattern(code: str) -> str:
    return (f"{_CODE_KEYWORD}(?:{code})|(?:{_ERROR_LINE_WORDS}).*(?:{code})|(?:{code}).*(?:{_ERROR_LINE_WORDS})|"
            f"(?:{code})[:)]")


def _codes_hit(line, rx, alts, ctx) -> bool:
    """A bare-code branch or alternative holds on the line: some occurrence of it is in an error context."""
    if rx is not None:
        for m in rx.finditer(line):
            if code_in_context(line, m.start(), m.end(), ctx):
                return True
    for alt in alts:
        if all(lit in line for lit in alt):
            for lit in alt:
                at = line.find(lit)
                while at >= 0:
                    if code_in_context(line, at, at + len(lit), ctx):
                        return True
                    at = line.find(lit, at + 1)
    return False


def _top_branches(pattern: str) -> List[str]:
    """The top-level alternatives of a regex, as strings ([pattern] when it has none or sets global flags)."""
    if pattern.startswith("(?") and re.match(r"\(\?[aiLmsux]+\)", pattern):
        return [pattern]
    return split_top_level(pattern)


def _only_code(items) -> bool:
    """Whether a parsed regex matches nothing but a code: digits and capitals (4+, one digit at least), word
    boundaries, groups and alternations of those."""
    strings = _sequence_alternatives([(op, av) for op, av in items if op is not _sre_c.AT])
    if strings is None:  # classes (`\d{6}`, `[0-9A-Z]`): every element a digit/capital class or literal
        def plain(seq) -> bool:
            for op, av in seq:
                if op is _sre_c.AT:
                    continue
                if op is _sre_c.LITERAL:
                    if not (48 <= av <= 57 or 65 <= av <= 90):
                        return False
                elif op is _sre_c.IN:
                    for o, v in av:
                        if o is _sre_c.LITERAL and (48 <= v <= 57 or 65 <= v <= 90):
                            continue
                        if o is _sre_c.RANGE and (48 <= v[0] and v[1] <= 57 or 65 <= v[0] and v[1] <= 90):
                            continue
                        if o is _sre_c.CATEGORY and str(v) == "CATEGORY_DIGIT":
                            continue
                        return False
                elif op in (_sre_c.MAX_REPEAT, _sre_c.MIN_REPEAT):
                    if av[1] == _sre_c.MAXREPEAT or not plain(list(av[2])):
                        return False
                elif op is _sre_c.SUBPATTERN:
                    if not plain(list(av[3])):
                        return False
                elif op is _sre_c.BRANCH:
                    if not all(plain(list(b)) for b in av[1]):
                        return False
                else:
                    return False
            return True

        return plain(items) and any(op is _sre_c.LITERAL and 48 <= av <= 57 or op is _sre_c.IN for op, av in items
                                    if op is not _sre_c.AT) and _min_width(items) >= 4
    return bool(strings) and all(_CODE_TOKEN.fullmatch(x) for x in strings)


def _min_width(items) -> int:
    try:
        return _sre_parse.SubPattern(_sre_parse.State(), list(items)).getwidth()[0]
    except Exception:  # an odd parse: not a code
        return 0


def split_codes(patterns: Sequence[str], all_of: Sequence[Sequence[str]]):
    """(phrase patterns, bare-code patterns, phrase alternatives, bare-code alternatives) of a signature."""
    phrases: List[str] = []
    codes: List[str] = []
    for p in patterns:
        if not re.search(r"\d{4}|\\d", p):  # cheap: no code in it
            phrases.append(p)
            continue
        try:
            parsed = [(b, list(_sre_parse.parse(b))) for b in _top_branches(p)]
        except re.error:  # not split: the pattern as it is
            phrases.append(p)
            continue
        kept = [b for b, items in parsed if not _only_code(items)]
        codes += [b for b, items in parsed if _only_code(items)]
        if kept:
            phrases.append("|".join(kept))
    alts = [list(a) for a in all_of if not all(_CODE_TOKEN.fullmatch(lit) for lit in a)]
    code_alts = [list(a) for a in all_of if all(_CODE_TOKEN.fullmatch(lit) for lit in a)]
    return phrases, codes, alts, code_alts
