"""The knowledge base: documented pitfalls (P01..P24) and known log signatures.

`data/knowledge_base.json` (rules in `data/knowledge_base.schema.json`) holds the pitfalls
and our first signatures; `data/kb/*.json` (rules in `data/kb_part.schema.json`) hold the
rest (issue 13: every training fault of ascend-fd, with English and Chinese texts); users
add files in the part format with `--kb FILE` or `$ASCEND_DOCTOR_KB`. One KnowledgeBase
serves the report's advice, `triage`, `kb` and the smoke stage classifier. The parts are
read on first use of `.signatures` (`check` needs only the pitfalls).

A signature matches a line by a regex (`pattern`, `also`) or by `all_of`: alternatives,
each a list of literals that must all be in the line.

Matching a line is `KnowledgeBase.match_line(str)`. Scanning gigabytes is
`KnowledgeBase.scanner()`: every signature is reduced to literal anchors, one of which
MUST appear in any line it matches (an all_of alternative's most selective literal; a
regex's required literals, worked out from the parsed regex, or given by hand in the data).
A finder (Hyperscan, an RE2 set, or pure-Python regex passes, see "Anchor finders") locates
the anchors in multi-megabyte chunks of bytes; only lines holding one reach the signatures'
exact matchers, so noise lines never enter Python code.
"""

from __future__ import annotations

import functools
import os
import re
from .records import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

try:  # Python 3.11+ moved the regex parser; 3.8-3.10 name it sre_parse
    import re._parser as _sre_parse  # type: ignore[import]
    import re._constants as _sre_c  # type: ignore[import]
except ImportError:  # pragma: no cover - depends on the interpreter
    import sre_constants as _sre_c  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

from .data import DataError, data_path, load_json_file
from .i18n import N_, _
from .findings import PROBLEM_SEVERITIES


KB_SCHEMA = "ascend-doctor.kb/1"

COMPONENTS = ("driver", "cann", "hccl", "mindspore", "pytorch", "atc", "cuda", "python", "os", "npu", "server",
              "network", "mindx")
# Where a signature's line is read (issue 13): framework stdout, CANN host/device logs, NPU device OS,
# NPU driver logs on the host, NPU black box, host OS, iBMC/NodeD dumps, MindX, switch, AMCT.
LOG_SOURCES = ("train", "plog", "device", "npu_os", "npu_host", "npu_history", "os", "bmc", "mindx", "switch",
               "amct")
SEVERITIES = PROBLEM_SEVERITIES  # fail | warn | info, as every problem
CLASSES = ("root", "wrapper", "benign")

# A signature's class and the logs it is read from, as words in the reader's language (the JSON keeps the
# English value). Each msgid carries its field ("kb class|root"): the same English word means other things
# elsewhere ("root" user, "train" the verb).
SEVERITY_WORDS = {"fail": N_("fail"), "warn": N_("warn"), "info": N_("info")}
COMPONENT_WORDS = {
    "cann": N_("kb component|cann"), "mindspore": N_("kb component|mindspore"), "driver": N_("kb component|driver"),
    "npu": N_("kb component|npu"), "hccl": N_("kb component|hccl"), "os": N_("kb component|os"),
    "network": N_("kb component|network"), "server": N_("kb component|server"), "pytorch": N_("kb component|pytorch"),
    "python": N_("kb component|python"), "mindx": N_("kb component|mindx"), "cuda": N_("kb component|cuda"),
    "atc": N_("kb component|atc"),
}
CLASS_WORDS = {"root": N_("kb class|root"), "wrapper": N_("kb class|wrapper"), "benign": N_("kb class|benign")}
LOG_SOURCE_WORDS = {
    "train": N_("log source|train"), "plog": N_("log source|plog"), "device": N_("log source|device"),
    "npu_os": N_("log source|npu_os"), "npu_host": N_("log source|npu_host"),
    "npu_history": N_("log source|npu_history"), "os": N_("log source|os"), "bmc": N_("log source|bmc"),
    "mindx": N_("log source|mindx"), "switch": N_("log source|switch"), "amct": N_("log source|amct"),
}


def field_word(table: dict, value: str) -> str:
    """`value` of a field with a word table, in the run's language; the value itself where no word is
    catalogued (English, or a value the table does not know)."""
    msgid = table.get(value)
    shown = _(msgid) if msgid else value
    return value if shown == msgid else shown

# An anchor shorter than this matches too much noise for the prefilter to pay off.
MIN_ANCHOR_LEN = 4


# The knowledge base's `source` also cites where an entry was written up in the project's research notes
# (reference/error_signatures.md, shared/reference/*.md), files users do not have; those citations are left
# out of what is shown, and the reference tool's knowledge base is named by its public repository.
_NOTES_PREFIX = re.compile(r"^reference/error_signatures\.md(?:\s+[A-Z0-9_]+)?:\s*")
_NOTES_CITE = re.compile(r"(?:shared/)?reference/[A-Za-z_]+\.md")
ASCEND_FD_KB = "ascend-fd knowledge base (github.com/Ascend/mind-cluster, " \
               "component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json)"


def public_source(source: str, sig_id: str = "") -> str:
    """A signature's `source` as a user can follow it: the research-notes citations dropped, the rest kept."""
    src = _NOTES_PREFIX.sub("", source or "").strip()
    parts = [p.strip() for p in re.split(r";\s+", src) if p.strip() and not _NOTES_CITE.search(p)]
    text = "; ".join(parts).replace("ascend-fd kg-config.json", ASCEND_FD_KB, 1)
    return text or (f"ascend-doctor kb show {sig_id}" if sig_id else "")


def _current_lang() -> str:
    from .i18n import get_lang

    return get_lang()


@dataclass
class Pitfall:
    id: str
    title: str
    advice: str
    source: str = ""
    title_zh: str = ""
    advice_zh: str = ""

    def text(self, lang: Optional[str] = None) -> Tuple[str, str]:
        """(title, advice) in `lang` (default: the language of this run, i18n.get_lang()); "zh" falls back to
        English field by field where not written."""
        if (lang or _current_lang()) == "zh":
            return self.title_zh or self.title, self.advice_zh or self.advice
        return self.title, self.advice


@dataclass
class Signature:
    id: str
    pattern: str  # "" for an all_of signature
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
    # --- added by the knowledge-base parts (issue 13; all optional in data/knowledge_base.json) ---
    all_of: List[List[str]] = field(default_factory=list)  # alternatives; all literals of one in one line
    ascend_fd: List[str] = field(default_factory=list)  # ids of ascend-fd's kg-config.json this recognises
    title_zh: str = ""
    cause_zh: str = ""
    fix_zh: List[str] = field(default_factory=list)
    log_sources: List[str] = field(default_factory=list)
    leads_to: List[str] = field(default_factory=list)  # ascend-fd ids this fault causes
    derived: bool = False  # no telling line: known only as the effect of another fault
    example_origin: str = ""
    origin: str = ""  # the file it was read from

    # ---- str matching (smoke classifier, report, `kb match`) ----
    def patterns(self) -> List[str]:
        """The regexes of a pattern signature ([] for an all_of-only or derived signature)."""
        if not self.pattern or self.derived:
            return []
        main = self.pattern if self.regex else re.escape(self.pattern)
        return [main] + list(self.also)

    def split_codes(self) -> Tuple[List[str], List[str], List[List[str]], List[List[str]]]:
        """(phrase patterns, bare-code patterns, phrase all_of alternatives, bare-code alternatives): see
        "Codes count only in an error context" below. Cached."""
        got = self.__dict__.get("_split")
        if got is None:
            got = self.__dict__["_split"] = split_codes(self.patterns(), self.all_of)
        return got

    def has_bare_codes(self) -> bool:
        _p, codes, _a, code_alts = self.split_codes()
        return bool(codes or code_alts)

    def search(self, line: str) -> bool:
        """A regex signature matches by its patterns, an all_of one by its alternatives; one of ours
        given all_of alternatives by a part (`existing_all_of`) by either. A bare code (`\\b507010\\b`,
        an all_of alternative that is only a code) counts only in an error context (code_in_context)."""
        if self.derived:
            return False
        if self._compiled_excl is None:
            pats, codes, alts, code_alts = self.split_codes()
            self._compiled = re.compile("|".join(f"(?:{p})" for p in pats)) if pats else None
            self._compiled_codes = re.compile("|".join(f"(?:{p})" for p in codes)) if codes else None
            self._phrase_alts, self._code_alts = alts, code_alts
            self._compiled_excl = [re.compile(p) for p in self.exclude]
        hit = (self._compiled is not None and self._compiled.search(line) is not None) or \
            any(all(lit in line for lit in alt) for alt in self._phrase_alts)
        if not hit and (self._compiled_codes is not None or self._code_alts):
            hit = _codes_hit(line, self._compiled_codes, self._code_alts, _STR_CONTEXT)
        return hit and not any(x.search(line) for x in self._compiled_excl)

    def bytes_matcher(self):
        """A function line(bytes) -> bool with the same answers as `search` (the scanner's last word)."""
        excl = [re.compile(x.encode("utf-8")) for x in self.exclude]
        if self.derived:
            return lambda line: False
        pats, codes, phrase_alts, code_alts = self.split_codes()
        alts = [tuple(lit.encode("utf-8") for lit in alt) for alt in phrase_alts]
        if codes or code_alts:
            prx = re.compile(("|".join(f"(?:{p})" for p in pats)).encode("utf-8")) if pats else None
            crx = re.compile(("|".join(f"(?:{p})" for p in codes)).encode("utf-8")) if codes else None
            calts = [[lit.encode("utf-8") for lit in alt] for alt in code_alts]
            return lambda line: (((prx is not None and prx.search(line) is not None)
                                  or any(all(lit in line for lit in alt) for alt in alts)
                                  or _codes_hit(line, crx, calts, _BYTES_CONTEXT))
                                 and not any(x.search(line) for x in excl))
        if not pats:
            if len(alts) == 1 and not excl:
                only = alts[0]
                return lambda line: all(lit in line for lit in only)
            return lambda line: (any(all(lit in line for lit in alt) for alt in alts)
                                 and not any(x.search(line) for x in excl))
        rx = re.compile(("|".join(f"(?:{p})" for p in pats)).encode("utf-8"))
        if not excl and not alts:
            return lambda line: rx.search(line) is not None
        return lambda line: ((rx.search(line) is not None or any(all(lit in line for lit in alt) for alt in alts))
                             and not any(x.search(line) for x in excl))

    # ---- scanner literals ----
    def scan_literals(self, shared: Optional[Dict[str, int]] = None) -> Optional[List[bytes]]:
        """Byte strings, one of which is in every line this signature matches (None: no usable literal).

        An all_of alternative gives its most selective literal (all of them must be in the line,
        so any one of them will do as the anchor): the rarest by literal_cost, weighed by how many
        alternatives of the knowledge base share it (`shared`: literal -> count; "Sensor Type=0xc0;"
        is in dozens of BMC events, each hit would make all of them candidates; their event ids
        are in one each).
        A derived signature matches no line: [].
        """
        if self.derived:
            return []
        out: Set[bytes] = self.all_of_anchors(shared)
        if self.anchors:  # given by hand in the data (for the patterns)
            return sorted(out | {a.encode("utf-8") for a in self.anchors})
        for p in self.patterns():
            lits = required_literals(p)
            if not lits:
                return None
            out.update(lit.encode("utf-8") for lit in lits)
        return sorted(out)

    def all_of_anchors(self, shared: Optional[Dict[str, int]] = None) -> Set[bytes]:
        """The most selective literal of each all_of alternative (see scan_literals)."""
        shared = shared or {}
        return {min(alt, key=lambda lit: (literal_cost(lit) + 1) * max(1, shared.get(lit, 1))).encode("utf-8")
                for alt in self.all_of}

    # ---- where it comes from, as a user can follow it ----
    def public_source(self) -> str:
        return public_source(self.source, self.id)

    # ---- the texts in a language ----
    def text(self, lang: Optional[str] = None) -> Tuple[str, str, List[str]]:
        """(title, cause, fix) in `lang` (default: the language of this run, i18n.get_lang()); "zh" falls back
        to English field by field where not written."""
        if (lang or _current_lang()) == "zh":
            return (self.title_zh or self.title, self.cause_zh or self.cause, list(self.fix_zh or self.fix))
        return self.title, self.cause, list(self.fix)


# ---------------------------------------------------------------------------
# Codes count only in an error context (issue 21)
# ---------------------------------------------------------------------------
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

_CODE_TOKEN = re.compile(r"(?=[0-9A-Z]*[0-9])[0-9A-Z]{4,}")
_CODE_CONTEXT_BEFORE = 48


def _code_context_res(enc):
    """The context regexes (str or bytes): (keyword before, id slot before, unit after, error line)."""
    def c(p, flags=0):
        return re.compile(enc(p), flags)

    return (
        c(r"(?:\b|(?<=[a-z])(?=[A-Z]))(?i:error[ _-]?code|err[ _-]?code|errcode|err_?no|"
          r"ret(?:urn)?[ _-]?(?:code|val(?:ue)?)?|rt_?ret|result|status|error|err|code|fail(?:ed|ure|s)?)"
          r"(?:\s*(?:is|was|of))?[\s=:\[\(,#]*$"),
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
_CODE_KEYWORD = (r"(?i:error[ _-]?code|err[ _-]?code|errcode|err_?no|ret(?:urn)?[ _-]?(?:code|val(?:ue)?)?|rt_?ret|"
                 r"result|status|error|err|code|fail(?:ed|ure|s)?)(?:\s*(?:is|was|of))?[\s=:\[\(,#]*")
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
    out, depth, i, cur, in_class = [], 0, 0, [], False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            cur.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]" or (cur and cur[-1] == "[")
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(ch)
        i += 1
    out.append("".join(cur))
    return out


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


# ---------------------------------------------------------------------------
# A peer id only where the peer's rule holds (issue 21)
# ---------------------------------------------------------------------------
# A signature's `ascend_fd` ids say which faults of ascend-fd it recognises; a problem carries one of them only
# where that id's own rule (data/ascend_fd_rules.json, from ascend-fd's kg-config.json: all_of strings in one line,
# or its regex) holds on a line the problem matched. A generic code entry (AISW_CANN_ERRCODE_Custom, ascend-fd's
# "[EWI][A-Z0-9][0-9]{4}[):]") is named with the code, as ascend-fd names it: AISW_CANN_ERRCODE_Custom_EE1002.
# An id the table does not hold (a user's part naming a newer ascend-fd) is kept as written: nothing to check.

FD_RULES_FILE = "ascend_fd_rules.json"
_fd_rules: Optional[Dict[str, tuple]] = None


def fd_rules() -> Dict[str, tuple]:
    """{ascend-fd id: (all_of alternatives, compiled regex or None, compiled code regex or None, code group,
    derived)}, read on first use."""
    global _fd_rules
    if _fd_rules is None:
        raw = load_json_file(data_path(FD_RULES_FILE))
        out: Dict[str, tuple] = {}
        for fid, r in (raw.get("rules") or {}).items():
            out[fid] = ([list(a) for a in r.get("all_of") or ()], re.compile(r["regex"]) if r.get("regex") else None,
                        re.compile(r["code"]) if r.get("code") else None, r.get("code_group") or "",
                        bool(r.get("derived")))
        _fd_rules = out
    return _fd_rules


def fd_rule_holds(fd_id: str, line: str) -> Optional[List[str]]:
    """The ids `fd_id` gives this line when its rule holds ([fd_id], or [fd_id_CODE] for a generic code entry),
    [] when it does not, None when the table does not know the id."""
    rule = fd_rules().get(fd_id)
    if rule is None:
        return None
    alts, rx, code, group, derived = rule
    if derived or not (any(all(lit in line for lit in alt) for alt in alts) or (rx is not None and rx.search(line))):
        return []
    if code is None:
        return [fd_id]
    return list(dict.fromkeys(f"{fd_id}_{m.group(group)}" for m in code.finditer(line) if m.group(group)))


def fd_names_code(fd_id: str) -> bool:
    """Whether the id is a generic code entry (named with the code of each line)."""
    rule = fd_rules().get(fd_id)
    return rule is not None and rule[2] is not None


def peer_ids(sig: "Signature", lines: Iterable[str], only: Optional[Sequence[str]] = None) -> List[str]:
    """The ascend-fd ids of `sig` (or those of `only`) that the lines support, in the signature's order (see above)."""
    found: Dict[str, None] = {}
    lines = list(lines)
    for fid in sig.ascend_fd if only is None else only:
        for line in lines:
            got = fd_rule_holds(fid, line)
            if got is None:
                found[fid] = None
                break
            for x in got:
                found[x] = None
    return list(found)


class _GcPaused:
    """The cyclic garbage collector paused while the knowledge base is parsed and its scanner built: tens of
    thousands of fresh lists and dicts, no cycle among them, ~20 collections (~3 ms) for nothing."""

    def __enter__(self):
        import gc

        self.gc, self.was = gc, gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was:
            self.gc.enable()


class KnowledgeBase:
    """Pitfalls and signatures. The signatures of the part files are read on first use
    (`check` only needs pitfalls and must not pay for a thousand signatures)."""

    def __init__(self, pitfalls: Dict[str, Pitfall], signatures: Optional[List[Signature]] = None,
                 loader: Optional[Callable[[], List[Signature]]] = None):
        self.pitfalls = pitfalls
        self._signatures = signatures
        self._loader = loader
        self._scanner: Optional["Scanner"] = None
        self._by_id: Optional[Dict[str, Signature]] = None

    @property
    def signatures(self) -> List[Signature]:
        if self._signatures is None:
            # The loader is kept until it succeeds: a bad part raises KbError at every use, never an empty
            # knowledge base the second time.
            with _GcPaused():
                self._signatures = self._loader() if self._loader else []
            self._loader = None
        return self._signatures

    def pitfall(self, pid: str) -> Pitfall:
        return self.pitfalls[pid]

    def signature(self, sid: str) -> Signature:
        if self._by_id is None:
            self._by_id = {s.id: s for s in self.signatures}
        return self._by_id[sid]

    def by_ascend_fd(self, fd_id: str) -> List[Signature]:
        return [s for s in self.signatures if fd_id in s.ascend_fd]

    def match_line(self, line: str) -> List[Signature]:
        """Every signature matching this line, in knowledge-base order (exact, no prefilter)."""
        if len(self.signatures) < 200:
            return [s for s in self.signatures if s.search(line)]
        # a big KB: only the signatures whose anchors are in the line can match it
        scanner = self.scanner()
        raw = line.encode("utf-8", "surrogateescape")
        cands = scanner.candidates(raw)
        return [self.signatures[i] for i in sorted(cands) if self.signatures[i].search(line)]

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
    parts); an alternation needs a set from every branch. Letters under (?i) expand
    to both cases (`0x(?i:80e1)` gives "0x80e1" and "0x80E1"), within the same limit.
    """
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
        out: List[str] = []
        for branch in av[1]:
            alts = _sequence_alternatives(list(branch), icase)
            if alts is None:
                return None
            out.extend(alts)
        return out if len(out) <= _MAX_EXPANSION else None
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


def _set_cost(lits: Sequence[str]) -> float:
    """Lower is better: what the set adds to the prefilter's first-byte test, then its size."""
    return sum(literal_cost(lit) for lit in lits) + 0.01 * len(lits)


def _seq_required(items, icase: bool = False) -> Optional[Tuple[float, List[str]]]:
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
        alts = _literal_alternatives(op, av, icase)
        if alts is not None and len(run) * len(alts) <= _MAX_EXPANSION:
            run = [r + a for r in run for a in alts]
            continue
        flush()
        if op is _sre_c.SUBPATTERN:
            sub = _seq_required(list(av[3]), _group_icase(av, icase))
            if sub:
                consider(sub[1])
        elif op is _sre_c.BRANCH:
            union: List[str] = []
            for branch in av[1]:
                sub = _seq_required(list(branch), icase)
                if not sub:
                    union = []
                    break
                union.extend(sub[1])
            consider(union or None)
        elif op in (_sre_c.MAX_REPEAT, _sre_c.MIN_REPEAT) or op is getattr(_sre_c, "POSSESSIVE_REPEAT", None):
            if av[0] >= 1:
                sub = _seq_required(list(av[2]), icase)
                if sub:
                    consider(sub[1])
        elif op is getattr(_sre_c, "ATOMIC_GROUP", None):
            sub = _seq_required(list(av), icase)
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


# ---------------------------------------------------------------------------
# A signature's regex as a Hyperscan expression (the whole pattern, not just an anchor)
# ---------------------------------------------------------------------------
# Hyperscan matches the exact regex over a chunk, so a hit is a match and the line needs no
# Python at all. The translation works on Python's own parse of the bytes pattern (what
# Signature.bytes_matcher compiles) and writes every element out explicitly, so no dialect
# difference can creep in: each class is a list of byte ranges (\d, \w, \s as Python's bytes
# mode defines them, (?i) folding ASCII letters as Python's bytes mode does), "." and every
# class leave out the newline (a line holds none, so nothing changes for a line, and no Hyperscan
# match can run across two lines: the line holding a match's end is the line holding it all),
# ^ and $ become line anchors. A look-around is left out (the expression then finds a superset,
# confirmed in Python); anything else (back-references, \A, \Z, atomic groups, a literal newline)
# gives None: that pattern is found by its literals and confirmed in Python.
# A trailing (or leading) repeat is cut to its minimum: the same lines match, and `.*` at the end
# would otherwise report a match at every byte up to the line's end.

HS_EXPRESSION_VERSION = 1
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
        if hi == _sre_c.MAXREPEAT:
            return inner + (b"*" if lo == 0 else b"+" if lo == 1 else b"{%d,}" % lo)
        return inner + (b"{%d}" % lo if lo == hi else b"{%d,%d}" % (lo, hi))
    if name == "AT":
        at = {"AT_BEGINNING": b"^", "AT_BEGINNING_LINE": b"^", "AT_END": b"$", "AT_END_LINE": b"$",
              "AT_BOUNDARY": b"\\b", "AT_NON_BOUNDARY": b"\\B"}.get(str(av))
        if at is None:
            raise _NoHs(str(av))
        return at
    raise _NoHs(name)


def _trim_repeats(items) -> list:
    """Leading and trailing repeats cut to their minimum (the same lines match; fewer reports)."""
    items = list(items)
    for end in (-1, 0):
        while items and str(items[end][0]) in ("MAX_REPEAT", "MIN_REPEAT"):
            lo, hi, sub = items[end][1]
            if lo == 0:
                items.pop(end)
                continue
            if hi != lo:
                items[end] = (items[end][0], (lo, lo, sub))
            break
    return items


def hs_expression(pattern: str) -> Optional[Tuple[bytes, bool]]:
    """`pattern` (a signature's Python regex) as a Hyperscan expression for one line, and whether it is
    exact (a hit is a match) or a superset (a look-around left out: Python confirms); None: not expressible."""
    try:
        parsed = _sre_parse.parse(pattern.encode("utf-8"))
        flags = parsed.state.flags
        if flags & ~(re.IGNORECASE | re.DOTALL | re.MULTILINE | re.ASCII | re.VERBOSE):
            return None
        items = _trim_repeats(list(parsed))
        loose: list = []
        expr = _hs_seq(items, bool(flags & re.IGNORECASE), loose) if items else b""
        return (expr, not loose) if expr else None
    except (_NoHs, re.error, RecursionError, OverflowError):
        return None


# ---------------------------------------------------------------------------
# Anchor finders: where in a chunk the scanner's literals occur
# ---------------------------------------------------------------------------
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


class _HyperscanFinder:
    """One Hyperscan database of literals and whole regexes (see hs_expression); a hit belongs to the line
    holding its last byte (no expression matches a newline, so that line holds the whole match)."""

    name = "hyperscan"

    def __init__(self, lit_sigs: Dict[bytes, Set[int]], regexes: Sequence[Tuple[bytes, Set[int]]] = (),
                 db: Optional[bytes] = None, sure: Set[int] = frozenset()):  # type: ignore[assignment]
        import hyperscan  # type: ignore[import]

        lits = sorted(lit_sigs)
        self.sigs = [lit_sigs[lit] for lit in lits] + [set(ids) for _, ids in regexes]
        # per expression: the signatures its hit is a match of (see _scan_plan's hs_sure)
        self.sure = [None] * len(lits) + [(set(ids) & sure) or None for _, ids in regexes]
        self.db = None
        if db is not None:  # the cached database of these expressions
            self.db = hyperscan.loadb(db, hyperscan.HS_MODE_BLOCK)
            self.db.scratch = hyperscan.Scratch(self.db)
        elif self.sigs:
            # every byte of a literal as \xHH: a literal in any PCRE dialect, whatever bytes it holds
            exprs = [b"".join(b"\\x%02x" % c for c in lit) for lit in lits] + [e for e, _ in regexes]
            flags = [0] * len(lits) + [hyperscan.HS_FLAG_MULTILINE] * len(regexes)
            self.db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
            self.db.compile(expressions=exprs, ids=list(range(len(exprs))), elements=len(exprs), flags=flags)

    def dump(self) -> Optional[bytes]:
        import hyperscan  # type: ignore[import]

        return hyperscan.dumpb(self.db) if self.db is not None else None

    def add_lines(self, buf: bytes, start: int, end: int, lines: Dict[int, Set[int]],
                  sure_lines: Optional[Dict[int, Set[int]]] = None) -> None:
        """`sure_lines` (when given) gets {line start: signatures one of whose regexes matched in it}."""
        if self.db is None or end <= start:
            return
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
        rfind, sigs, sure = buf.rfind, self.sigs, self.sure
        last_p, last_ls = -1, start
        for to, i in found:  # in order of match end
            p = start + to - 1
            ls = last_ls if p == last_p else (rfind(b"\n", start, p) + 1 or start)
            last_p, last_ls = p, ls
            got = lines.get(ls)
            if got is None:
                lines[ls] = set(sigs[i])
            else:
                got.update(sigs[i])
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


def _scan_plan(signatures: Sequence[Signature], hs_reject: Set[bytes] = frozenset()) -> dict:  # type: ignore[assignment]
    """What the finders look for, worked out from the signatures (cached on disk, see _ScannerCache).

    lit / unanchored: every signature's literal anchors, for the literal finders (RE2 set, Python passes);
    hs_lit / hs_re / hs_exact / hs_unanchored: for Hyperscan, each regex whole where hs_expression can
    write it (`hs_reject`: expressions Hyperscan refused), the literals of the rest; hs_exact: the
    signatures whose Hyperscan hit is a match (no exclude, exact expressions, one-literal alternatives);
    hs_sure: those whose hit on one of their regexes is a match (no exclude, exact expressions): on a line
    where only an all_of anchor fired, their regexes cannot match, so only the alternatives are checked.
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
        if sig.has_bare_codes():  # its bare codes go into one expression for all (below); its phrases as they are
            phrases, codes, _alts, _code_alts = sig.split_codes()
            pats = phrases
            if codes:
                code_sigs.append(i)
                all_codes.extend(c for c in codes if c not in all_codes)
        for p in pats:
            got = hs_expression(p)
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
        if not sig.exclude and all(ok for _, ok in exprs) and not sig.has_bare_codes():  # a code: Python decides
            if all(len(alt) == 1 for alt in sig.all_of):
                hs_exact.append(i)
            elif exprs:
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

    return {"lit": table(lit), "unanchored": unanchored, "hs_lit": table(hs_lit), "hs_re": table(hs_re),
            "hs_exact": hs_exact, "hs_sure": hs_sure, "hs_unanchored": hs_unanchored,
            "hs_reject": sorted(x.decode("latin-1") for x in hs_reject)}


def _untable(rows) -> Dict[bytes, Set[int]]:
    return {k.encode("latin-1"): set(v) for k, v in rows}


# ---------------------------------------------------------------------------
# The scanner's cache: the plan and the compiled Hyperscan database, between runs
# ---------------------------------------------------------------------------
# Working out the anchors (parsing ~400 regexes) and compiling Hyperscan's database take longer
# than scanning a hundred megabytes; both depend only on the signatures' matching fields and this
# code. They are kept in $XDG_CACHE_HOME/ascend-doctor/ (~/.cache/ascend-doctor), one file per
# knowledge base, named by a hash of those fields, this file's source, the Python version and the
# machine. A file that is damaged, truncated or from another Hyperscan is rebuilt, never trusted:
# a digest over its bytes is checked first, and Hyperscan checks its own database's version and
# platform. ASCEND_DOCTOR_NO_CACHE=1 turns the cache off; ASCEND_DOCTOR_CACHE_DIR moves it.

CACHE_ENV_OFF = "ASCEND_DOCTOR_NO_CACHE"
CACHE_ENV_DIR = "ASCEND_DOCTOR_CACHE_DIR"
_CACHE_MAGIC = b"ascend-doctor scanner cache 1\n"
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


@functools.lru_cache(maxsize=1)
def _code_digest() -> bytes:
    with open(__file__, "rb") as fh:
        return _blake2b(fh.read()).digest()


def _scanner_key(signatures: Sequence[Signature]) -> str:
    import json
    import sys

    h = _blake2b(digest_size=20)
    h.update(_code_digest())
    h.update(f"{sys.version_info[:2]} {_machine()} {HS_EXPRESSION_VERSION}".encode())
    fields = [[s.derived, s.pattern, s.regex, s.also, s.exclude, s.all_of, s.anchors] for s in signatures]
    h.update(json.dumps(fields, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _cache_read(path: str) -> Optional[Tuple[dict, Optional[bytes]]]:
    import json

    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        if not raw.startswith(_CACHE_MAGIC) or len(raw) < len(_CACHE_MAGIC) + 24:
            return None
        body, digest = raw[:-16], raw[-16:]
        if _blake2b(body).digest() != digest:
            return None
        at = len(_CACHE_MAGIC)
        n_plan, n_db = int.from_bytes(body[at:at + 4], "big"), int.from_bytes(body[at + 4:at + 8], "big")
        plan = json.loads(body[at + 8:at + 8 + n_plan].decode("utf-8"))
        db = body[at + 8 + n_plan:at + 8 + n_plan + n_db] if n_db else None
        return (plan, db) if isinstance(plan, dict) else None
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def _cache_write(path: str, plan: dict, db: Optional[bytes]) -> None:
    import json
    import tempfile

    blob = json.dumps(plan, separators=(",", ":")).encode("utf-8")
    body = _CACHE_MAGIC + len(blob).to_bytes(4, "big") + len(db or b"").to_bytes(4, "big") + blob + (db or b"")
    d = os.path.dirname(path)
    try:
        os.makedirs(d, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".scanner-", dir=d)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(body + _blake2b(body).digest())
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        old = sorted((e for e in os.scandir(d) if e.name.startswith("scanner-") and e.is_file()),
                     key=lambda e: e.stat().st_mtime, reverse=True)
        for e in old[_CACHE_KEEP:]:
            os.unlink(e.path)
    except OSError:  # a read-only home, a full disk: run without the cache
        pass


class Scanner:
    """Finds signature hits in chunks of bytes (complete lines) without touching non-matching lines in Python."""

    def __init__(self, signatures: Sequence[Signature], matchers: Optional[Sequence[str]] = None):
        with _GcPaused():
            self._build(signatures, matchers)

    def _build(self, signatures: Sequence[Signature], matchers: Optional[Sequence[str]]) -> None:
        self.signatures = list(signatures)
        order = list(matchers or matcher_order())
        d = cache_dir() if len(self.signatures) >= _CACHE_MIN_SIGNATURES else None
        path = os.path.join(d, f"scanner-{_scanner_key(self.signatures)}.bin") if d else None
        cached = _cache_read(path) if path else None
        plan, db = cached if cached else (None, None)
        dirty = plan is None
        if plan is None:
            plan = _scan_plan(self.signatures)
        self.lit_sigs = _untable(plan["lit"])
        self.unanchored: List[int] = list(plan["unanchored"])
        self.exact: Set[int] = set()  # the finder's hit is a match: no Python needed
        self.sure: Set[int] = set()  # a hit on one of their regexes is a match; else only all_of can be (hs_sure)
        active_unanchored = self.unanchored
        self.finder = None
        for name in order:
            if name == "hyperscan":
                try:
                    self.finder, plan, db, built = self._hyperscan(plan, db)
                except Exception:  # not installed, no wheel for this CPU: the next one
                    continue
                dirty = dirty or built
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
            _cache_write(path, plan, db)
        self._matchers: List[Optional[Callable[[bytes], bool]]] = [None] * len(self.signatures)
        self._alt_matchers: Dict[int, Callable[[bytes], bool]] = {}
        # a signature no finder can look for: its own regex over the chunk (a leading \b dropped: the regex
        # engine then skips to the first literal byte; the exact matcher still decides)
        self._unanchored_res = [
            (i, re.compile(("|".join(f"(?:{p[2:] if p.startswith(chr(92) + 'b') else p})"
                                     for p in self.signatures[i].patterns())).encode("utf-8"), re.M))
            for i in active_unanchored]

    def _hyperscan(self, plan: dict, db: Optional[bytes]):
        """(finder, plan, database bytes, whether anything was built) for Hyperscan; a cached database is loaded."""
        regexes = [(e.encode("latin-1"), set(ids)) for e, ids in plan["hs_re"]]
        sure = set(plan.get("hs_sure", ()))
        if db is not None:
            try:
                return _HyperscanFinder(_untable(plan["hs_lit"]), regexes, db=db, sure=sure), plan, db, False
            except Exception:  # another Hyperscan or CPU: compile again
                pass
        try:
            finder = _HyperscanFinder(_untable(plan["hs_lit"]), regexes, sure=sure)
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
            finder = _HyperscanFinder(_untable(plan["hs_lit"]),
                                      [(e.encode("latin-1"), set(ids)) for e, ids in plan["hs_re"]],
                                      sure=set(plan["hs_sure"]))
        return finder, plan, finder.dump(), True

    def _matcher(self, i: int) -> Callable[[bytes], bool]:
        m = self._matchers[i]
        if m is None:
            m = self._matchers[i] = self.signatures[i].bytes_matcher()
        return m

    def _alt_matcher(self, i: int) -> Callable[[bytes], bool]:
        """For a signature of self.sure on a line where none of its regexes matched: its all_of alternatives."""
        m = self._alt_matchers.get(i)
        if m is None:
            alts = [tuple(lit.encode("utf-8") for lit in alt) for alt in self.signatures[i].all_of]
            m = self._alt_matchers[i] = lambda line: any(all(lit in line for lit in alt) for alt in alts)
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
                or ((i in sure or self._alt_matcher(i)(line)) if sure is not None and i in sure_sigs
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
        end = len(buf) if end is None else end
        lines: Dict[int, Set[int]] = {}
        sure: Optional[Dict[int, Set[int]]] = None
        if self.sure:
            sure = {}
            self.finder.add_lines(buf, start, end, lines, sure)
        else:
            self.finder.add_lines(buf, start, end, lines)
        find = buf.find
        for i, rx in self._unanchored_res:
            # a signature with no literal to find (`\bE[A-Z0-9][0-9]{4}[):]` where Hyperscan is missing): its own
            # regex over the chunk (in C), noting the line of each match start and going on from the next line,
            # so no line is skipped; a match across lines is only a candidate, the exact matcher decides
            m = rx.search(buf, start, end)
            while m is not None:
                ls = buf.rfind(b"\n", start, m.start()) + 1 or start
                _note_line(lines, ls, (i,))
                le = find(b"\n", m.start(), end)
                if le < 0:
                    break
                m = rx.search(buf, le + 1, end)
        exact, sure_sigs, matcher = self.exact, self.sure, self._matcher
        for ls in sorted(lines):
            le = find(b"\n", ls, end)
            le = end if le < 0 else le
            ids = lines[ls]
            line_sure = sure.get(ls, _NO_SIGS) if sure is not None else None
            if len(ids) == 1:
                i = next(iter(ids))
                if i in exact or (i in line_sure or self._alt_matcher(i)(buf[ls:le]) if i in sure_sigs
                                  else matcher(i)(buf[ls:le])):
                    yield ls, le, [i]
                continue
            hits = self._line_hits(buf[ls:le], ids, line_sure)
            if hits:
                yield ls, le, hits


_NO_SIGS: Set[int] = frozenset()  # type: ignore[assignment]


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------
# data/knowledge_base.json (pitfalls and our first signatures), then every part file
# data/kb/*.json (schema data/kb_part.schema.json), then the user's files (--kb FILE,
# ASCEND_DOCTOR_KB), all in the part format. The parts are read on first use of
# `KnowledgeBase.signatures`: `check` needs only the pitfalls.

PART_SCHEMA = "ascend-doctor.kb-part/1"
KB_ENV = "ASCEND_DOCTOR_KB"  # more part files, separated by os.pathsep
_PART_FIELDS = {
    "id", "ascend_fd", "title", "title_zh", "all_of", "pattern", "regex", "also", "exclude", "resolved_by",
    "anchors", "component", "log_sources", "class", "severity", "priority", "pitfall", "cause", "cause_zh",
    "fix", "fix_zh", "leads_to", "source", "seen_in", "examples", "example_origin", "near_misses", "notes",
    "derived",
}


class KbError(DataError):
    """Bad knowledge-base entries: `errors` holds one line per entry; str() is the first."""

    def __init__(self, errors: Sequence[str]):
        self.errors = list(errors)
        super().__init__(_("{error} (and {count} more)").format(error=self.errors[0], count=len(self.errors) - 1)
                         if len(self.errors) > 1 else self.errors[0])


def kb_parts_dir() -> Optional[str]:
    """data/kb next to the package (wheel) or at the checkout's top level."""
    here = os.path.dirname(os.path.abspath(__file__))
    for base in (os.path.join(here, "data"), os.path.join(os.path.dirname(here), "data")):
        d = os.path.join(base, "kb")
        if os.path.isdir(d):
            return d
    return None


def part_files() -> List[str]:
    d = kb_parts_dir()
    return [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".json")] if d else []


def env_kb_files() -> List[str]:
    return [p for p in (os.environ.get(KB_ENV) or "").split(os.pathsep) if p.strip()]


_cache: Dict[tuple, KnowledgeBase] = {}


def load_knowledge_base(path: Optional[str] = None, extra: Sequence[str] = (),
                        parts: Optional[Sequence[str]] = None) -> KnowledgeBase:
    """The knowledge base: `path` (default data/knowledge_base.json), the part files (default
    data/kb/*.json) and the user's files (`extra`, then $ASCEND_DOCTOR_KB).

    Signatures of parts and user files are read lazily; a bad entry raises KbError (a DataError)
    at that first use, with one line per bad entry. The default load is cached per process.
    """
    user = list(extra) + env_kb_files()
    key = (tuple(user),)
    if path is None and parts is None and key in _cache:
        return _cache[key]
    file = path or data_path("knowledge_base.json")
    with _GcPaused():
        base = parse_knowledge_base(load_json_file(file), file, check_regexes=path is not None)
    builtin = part_files() if parts is None else list(parts)

    def load_rest() -> List[Signature]:
        return merge_parts(base.pitfalls, base.signatures, [(f, False) for f in builtin] + [(f, True) for f in user],
                           trusted=parts is None)

    kb = KnowledgeBase(base.pitfalls, loader=load_rest)
    if path is None and parts is None:
        _cache[key] = kb
    return kb


def merge_parts(pitfalls: Dict[str, Pitfall], base: List[Signature], files: Sequence[Tuple[str, bool]],
                trusted: bool = False) -> List[Signature]:
    """base + the signatures of every part file; `existing` mappings added to our ascend_fd lists.

    files: [(path, from_the_user)]. A user's file has its examples and near misses checked too.
    trusted: the files not from the user are the shipped parts (see parse_part).
    """
    sigs = list(base)
    by_id = {s.id: s for s in sigs}
    errors: List[str] = []
    for file, from_user in files:
        try:
            raw = load_json_file(file, N_("a knowledge-base part (schema ascend-doctor.kb-part/1)"))
        except DataError as exc:
            errors.append(str(exc))
            continue
        new, mapping, errs = parse_part(raw, file, pitfalls, check_examples=from_user, trusted=trusted and not from_user)
        errors += errs
        for i, sig in new:
            other = by_id.get(sig.id)
            if other is not None:
                errors.append(_("{file}: signatures[{index}] ({id}).id: expected a unique id, {id} is already in {other}")
                              .format(file=file, index=i, id=sig.id,
                                      other=os.path.basename(other.origin or "knowledge_base.json")))
                continue
            by_id[sig.id] = sig
            sigs.append(sig)
        for key, our, add in mapping:
            target = by_id.get(our)
            if target is None:
                errors.append(_("{file}: {key}.{id}: expected the id of a signature of the knowledge base")
                              .format(file=file, key=key, id=our))
                continue
            if key == "existing":
                target.ascend_fd = target.ascend_fd + [fd for fd in add if fd not in target.ascend_fd]
            else:  # existing_all_of: the fd's telling strings, as more ways to match one of ours
                target.all_of = target.all_of + [alt for alt in add if alt not in target.all_of]
                target._compiled_excl = None
                target.__dict__.pop("_split", None)
    if errors:
        raise KbError(errors)
    return sigs


def _check_str(s: dict, key: str, errs: List[str], where: str, required: bool = False, min_len: int = 0) -> str:
    val = s.get(key)
    if val is None:
        if required:
            errs.append((_("{where}.{field}: missing, expected a string of {count}+ characters") if min_len else
                         _("{where}.{field}: missing, expected a string")).format(where=where, field=key, count=min_len))
        return ""
    if not isinstance(val, str) or len(val.strip()) < max(min_len, 1 if required else 0):
        errs.append((_("{where}.{field}: expected a string of {count}+ characters, got {value}") if min_len else
                     _("{where}.{field}: expected a string, got {value}")).format(where=where, field=key, count=min_len,
                                                                                 value=f"{val!r:.60}"))
        return ""
    return val


def _check_list(s: dict, key: str, errs: List[str], where: str, required: bool = False) -> List[str]:
    val = s.get(key)
    if val is None:
        if required:
            errs.append(_("{where}.{field}: missing, expected a non-empty list of strings").format(where=where, field=key))
        return []
    if not isinstance(val, list) or not all(isinstance(x, str) and x.strip() for x in val) or (required and not val):
        errs.append((_("{where}.{field}: expected a non-empty list of non-empty strings") if required else
                     _("{where}.{field}: expected a list of non-empty strings")).format(where=where, field=key))
        return []
    return list(val)


def parse_part(raw, file: str, pitfalls: Dict[str, Pitfall], check_examples: bool = False, trusted: bool = False):
    """([(index, Signature)], [("existing"|"existing_all_of", our id, values)], [one-line errors]) of one part file.

    `trusted`: a part shipped in data/kb, checked field by field by the test suite (its schema and
    tests/commands/test_kb.py::test_shipped_parts_read_fast_as_checked), so its entries are built without the
    per-field checks (10 ms of every triage); anything unexpected in it falls back to the checks."""
    if trusted:
        try:
            return _parse_trusted_part(raw, file)
        except (KeyError, TypeError, AttributeError, ValueError):
            pass
    errs: List[str] = []
    if not isinstance(raw, dict) or raw.get("schema") != PART_SCHEMA:
        return [], [], [_("{file}: field 'schema' must be {schema}").format(file=file, schema=repr(PART_SCHEMA))]
    mapping = []
    existing = raw.get("existing") or {}
    if not isinstance(existing, dict):
        errs.append(_("{file}: existing: expected an object {{our signature id: [ascend-fd ids]}}").format(file=file))
        existing = {}
    for our, fds in existing.items():
        if not isinstance(fds, list) or not all(isinstance(x, str) and x for x in fds):
            errs.append(_("{file}: existing.{id}: expected a list of ascend-fd ids").format(file=file, id=our))
            continue
        mapping.append(("existing", our, list(fds)))
    more = raw.get("existing_all_of") or {}
    if not isinstance(more, dict):
        errs.append(_("{file}: existing_all_of: expected an object {{our signature id: all_of alternatives}}")
                    .format(file=file))
        more = {}
    for our, alts in more.items():
        if (not isinstance(alts, list) or not alts
                or not all(isinstance(a, list) and a and all(isinstance(x, str) and x and "\n" not in x for x in a)
                           for a in alts)):
            errs.append(_("{file}: existing_all_of.{id}: expected a list of alternatives, each a non-empty list "
                          "of non-empty one-line strings").format(file=file, id=our))
            continue
        mapping.append(("existing_all_of", our, [list(a) for a in alts]))
    entries = raw.get("signatures")
    if entries is None:
        entries = []
    if not isinstance(entries, list):
        return [], mapping, errs + [_("{file}: signatures: expected a list").format(file=file)]
    out = []
    seen: Dict[str, int] = {}
    for i, s in enumerate(entries):
        sig_errs: List[str] = []
        sig = _parse_part_signature(s, _("{file}: signatures[{index}]").format(file=file, index=i), pitfalls, sig_errs,
                                    check_examples)
        if sig is not None and not sig_errs:
            if sig.id in seen:
                sig_errs.append(_("{file}: signatures[{index}] ({id}).id: expected a unique id, "
                                  "signatures[{other}] has it too").format(file=file, index=i, id=sig.id,
                                                                           other=seen[sig.id]))
            else:
                seen[sig.id] = i
                sig.origin = file
                out.append((i, sig))
        errs += sig_errs[:1]  # one line per bad entry: its first problem
    return out, mapping, errs


def _parse_trusted_part(raw, file: str):
    """parse_part's answer for a shipped part, built without the per-field checks (raises on anything odd)."""
    if raw["schema"] != PART_SCHEMA:
        raise ValueError(file)
    mapping = [("existing", our, list(fds)) for our, fds in (raw.get("existing") or {}).items()]
    mapping += [("existing_all_of", our, [list(a) for a in alts]) for our, alts in (raw.get("existing_all_of") or {}).items()]
    out = []
    seen: Set[str] = set()
    for i, s in enumerate(raw.get("signatures") or ()):
        if s["id"] in seen or not set(s) <= _PART_FIELDS:
            raise ValueError(s["id"])
        seen.add(s["id"])
        get = s.get
        derived, pattern, all_of = get("derived", False), get("pattern"), get("all_of")
        out.append((i, Signature(
            id=s["id"], pattern=pattern if isinstance(pattern, str) else "", regex=bool(get("regex", False)),
            component=s["component"], severity=s["severity"], cause=s["cause"], fix=list(s["fix"]),
            pitfall=get("pitfall"), source=s["source"], examples=list(get("examples") or ()),
            near_misses=list(get("near_misses") or ()), title=s["title"], kind=get("class", "root"),
            also=list(get("also") or ()), exclude=list(get("exclude") or ()), resolved_by=list(get("resolved_by") or ()),
            anchors=list(get("anchors") or ()), notes=str(get("notes") or ""),
            all_of=[list(alt) for alt in all_of] if all_of is not None and not derived else [],
            ascend_fd=list(get("ascend_fd") or ()), title_zh=str(get("title_zh") or ""),
            cause_zh=str(get("cause_zh") or ""), fix_zh=list(get("fix_zh") or ()), log_sources=list(s["log_sources"]),
            leads_to=list(get("leads_to") or ()), derived=derived, example_origin=str(get("example_origin") or ""),
            origin=file)))
    return out, mapping, []


def _parse_part_signature(s, where: str, pitfalls, errs: List[str], check_examples: bool) -> Optional[Signature]:
    if not isinstance(s, dict):
        errs.append(_("{where}: expected an object").format(where=where))
        return None
    sid = s.get("id")
    if not isinstance(sid, str) or not re.fullmatch(r"[A-Z0-9_]+", sid):
        errs.append(_("{where}.id: expected an UPPER_SNAKE id, got {value}").format(where=where, value=f"{sid!r:.60}"))
        return None
    where = f"{where} ({sid})"
    unknown = sorted(set(s) - _PART_FIELDS)
    if unknown:
        errs.append(_("{where}.{field}: unknown field (expected one of the fields of data/kb_part.schema.json)")
                    .format(where=where, field=unknown[0]))
    derived = s.get("derived", False)
    if not isinstance(derived, bool):
        errs.append(_("{where}.{field}: expected true or false").format(where=where, field="derived"))
    title = _check_str(s, "title", errs, where, required=True)
    component, kind, severity = s.get("component"), s.get("class", "root"), s.get("severity")
    for field_name, value, choices in (("component", component, COMPONENTS), ("class", kind, CLASSES),
                                       ("severity", severity, SEVERITIES)):
        if value not in choices:
            errs.append(_("{where}.{field}: expected one of {choices}, got {value}").format(
                where=where, field=field_name, choices=", ".join(choices), value=f"{value!r:.40}"))
    sources = _check_list(s, "log_sources", errs, where, required=True)
    bad_src = [x for x in sources if x not in LOG_SOURCES]
    if bad_src:
        errs.append(_("{where}.{field}: expected values from {choices}, got {value}").format(
            where=where, field="log_sources", choices=", ".join(LOG_SOURCES), value=f"{bad_src[0]!r:.40}"))
    cause = _check_str(s, "cause", errs, where, required=True, min_len=20)
    fix = _check_list(s, "fix", errs, where, required=True)
    fix_zh = _check_list(s, "fix_zh", errs, where)
    if fix_zh and len(fix_zh) != len(fix):
        errs.append(_("{where}.fix_zh: expected as many steps as fix ({count}), got {got}").format(
            where=where, count=len(fix), got=len(fix_zh)))
    source = _check_str(s, "source", errs, where, required=True, min_len=10)
    pitfall = s.get("pitfall")
    if pitfall is not None and pitfall not in pitfalls:
        errs.append(_("{where}.pitfall: expected a pitfall id P01..P{last}, got {value}").format(
            where=where, last=f"{len(pitfalls):02d}", value=f"{pitfall!r:.40}"))
    regex = s.get("regex", False)
    if not isinstance(regex, bool):
        errs.append(_("{where}.{field}: expected true or false").format(where=where, field="regex"))
    all_of_raw, pattern = s.get("all_of"), s.get("pattern")
    all_of: List[List[str]] = []
    if derived:
        if all_of_raw is not None or pattern is not None:
            errs.append(_("{where}.derived: expected no all_of/pattern on a derived signature (it matches no line)")
                        .format(where=where))
    elif (all_of_raw is None) == (pattern is None):
        errs.append(_("{where}.all_of: expected exactly one of all_of / pattern (or \"derived\": true)").format(where=where))
    elif all_of_raw is not None:
        if (not isinstance(all_of_raw, list) or not all_of_raw
                or not all(isinstance(alt, list) and alt and all(isinstance(x, str) and x and "\n" not in x for x in alt)
                           for alt in all_of_raw)):
            errs.append(_("{where}.all_of: expected a list of alternatives, each a non-empty list of "
                          "non-empty one-line strings: [[\"a\", \"b\"], [\"c\"]]").format(where=where))
        else:
            all_of = [list(alt) for alt in all_of_raw]
    elif not isinstance(pattern, str) or not pattern:
        errs.append(_("{where}.pattern: expected a non-empty string").format(where=where))
    also, exclude = _check_list(s, "also", errs, where), _check_list(s, "exclude", errs, where)
    resolved_by = _check_list(s, "resolved_by", errs, where)
    # a user's regexes are compiled here, to name the bad one; the shipped parts' are compiled by the test suite
    # (every example is matched), not at every start
    for key, pats in (("pattern", [pattern] if regex and isinstance(pattern, str) and pattern else []),
                      ("also", also), ("exclude", exclude), ("resolved_by", resolved_by)):
        for p in pats if check_examples else ():
            try:
                re.compile(p)
            except re.error as exc:
                errs.append(_("{where}.{field}: expected a Python regex, {value} is invalid ({reason})").format(
                    where=where, field=key, value=f"{p!r:.60}", reason=exc))
    examples, near = _check_list(s, "examples", errs, where), _check_list(s, "near_misses", errs, where)
    if not derived and (not examples or not near):
        errs.append(_("{where}.{field}: expected at least one line").format(
            where=where, field="examples" if not examples else "near_misses"))
    for key in ("title_zh", "cause_zh", "example_origin", "notes", "seen_in"):
        _check_str(s, key, errs, where)
    if errs:
        return None
    sig = Signature(
        id=sid, pattern=pattern if isinstance(pattern, str) else "", regex=bool(regex), component=component,
        severity=severity, cause=cause, fix=fix, pitfall=pitfall, source=source, examples=examples,
        near_misses=near, title=title, kind=kind, also=also, exclude=exclude, resolved_by=resolved_by,
        anchors=_check_list(s, "anchors", errs, where), notes=str(s.get("notes") or ""), all_of=all_of,
        ascend_fd=_check_list(s, "ascend_fd", errs, where), title_zh=str(s.get("title_zh") or ""),
        cause_zh=str(s.get("cause_zh") or ""), fix_zh=fix_zh, log_sources=sources,
        leads_to=_check_list(s, "leads_to", errs, where), derived=derived,
        example_origin=str(s.get("example_origin") or ""),
    )
    if errs:
        return None
    if check_examples:
        for line in sig.examples:
            if not sig.search(line):
                errs.append(_("{where}.examples: expected every example to match, {line} does not").format(
                    where=where, line=f"{line!r:.80}"))
                return None
        for line in sig.near_misses:
            if sig.search(line):
                errs.append(_("{where}.near_misses: expected no near miss to match, {line} does").format(
                    where=where, line=f"{line!r:.80}"))
                return None
    return sig


def _str_list(s: dict, key: str, where: str) -> List[str]:
    val = s.get(key) or []
    if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
        raise DataError(_("{where}.{field}: expected a list of strings").format(where=where, field=key))
    return list(val)


def parse_knowledge_base(raw, file: str = "knowledge_base.json", check_regexes: bool = True) -> KnowledgeBase:
    """The pitfalls and signatures of a knowledge_base.json; `check_regexes=False` for the shipped file
    (its regexes are compiled by the test suite, not at every start)."""
    if not isinstance(raw, dict) or raw.get("schema") != KB_SCHEMA:
        raise DataError(_("{file}: field 'schema' must be {schema}").format(file=file, schema=repr(KB_SCHEMA)))
    pitfalls = {}
    for pid, p in (raw.get("pitfalls") or {}).items():
        if not re.fullmatch(r"P\d\d", pid) or not isinstance(p, dict):
            raise DataError(_("{file}: pitfalls.{id}: expected an id like P07 with an object value").format(file=file, id=pid))
        for key in ("title", "advice", "source", "title_zh", "advice_zh"):
            if not isinstance(p.get(key, ""), str):
                raise DataError(_("{file}: pitfalls.{id}.{field}: expected a string, got {type}").format(
                    file=file, id=pid, field=key, type=type(p[key]).__name__))
        pitfalls[pid] = Pitfall(pid, p.get("title", ""), p.get("advice", ""), p.get("source", ""),
                                p.get("title_zh", ""), p.get("advice_zh", ""))
    sigs = []
    for i, s in enumerate(raw.get("signatures") or []):
        where = _("{file}: signatures[{index}]").format(file=file, index=i)
        if not isinstance(s, dict):
            raise DataError(_("{where}: expected an object").format(where=where))
        try:
            sig = Signature(
                id=s["id"], pattern=s["pattern"], regex=bool(s.get("regex", False)),
                component=s["component"], severity=s["severity"], cause=s["cause"],
                fix=list(s["fix"]), pitfall=s.get("pitfall"), source=s.get("source", ""),
                examples=_str_list(s, "examples", where), near_misses=_str_list(s, "near_misses", where),
                title=str(s.get("title", "")), kind=str(s.get("class", "root")),
                also=_str_list(s, "also", where), exclude=_str_list(s, "exclude", where),
                resolved_by=_str_list(s, "resolved_by", where), anchors=_str_list(s, "anchors", where),
                notes=str(s.get("notes", "")), ascend_fd=_str_list(s, "ascend_fd", where),
                title_zh=str(s.get("title_zh", "")), cause_zh=str(s.get("cause_zh", "")),
                fix_zh=_str_list(s, "fix_zh", where), log_sources=_str_list(s, "log_sources", where),
                leads_to=_str_list(s, "leads_to", where), example_origin=str(s.get("example_origin", "")),
                origin=file,
            )
        except (KeyError, TypeError) as exc:
            raise DataError(_("{where}: missing or wrong field {field}").format(where=where, field=exc)) from None
        where = _("{file}: signatures[{index}] ({id})").format(file=file, index=i, id=sig.id)
        for field_name, value, choices in (("severity", sig.severity, SEVERITIES), ("component", sig.component, COMPONENTS),
                                           ("class", sig.kind, CLASSES)):
            if value not in choices:
                raise DataError(_("{where}.{field}: {value} is not one of {choices}").format(
                    where=where, field=field_name, value=repr(value), choices=choices))
        if sig.pitfall is not None and sig.pitfall not in pitfalls:
            raise DataError(_("{where}.pitfall: {value} is not a known pitfall id").format(where=where,
                                                                                         value=repr(sig.pitfall)))
        if [x for x in sig.log_sources if x not in LOG_SOURCES]:
            raise DataError(_("{where}.{field}: expected values from {choices}").format(
                where=where, field="log_sources", choices=", ".join(LOG_SOURCES)))
        if sig.fix_zh and len(sig.fix_zh) != len(sig.fix):
            raise DataError(_("{where}.fix_zh: expected as many steps as fix ({count})").format(where=where,
                                                                                              count=len(sig.fix)))
        for key, pats in (("pattern", [sig.pattern] if sig.regex and check_regexes else []),
                          ("also", sig.also if check_regexes else []),
                          ("exclude", sig.exclude), ("resolved_by", sig.resolved_by)):
            for p in pats:
                try:
                    re.compile(p)
                except re.error as exc:
                    raise DataError(_("{where}.{field}: invalid regex {value} ({reason})").format(
                        where=where, field=key, value=repr(p), reason=exc)) from None
        sigs.append(sig)
    return KnowledgeBase(pitfalls, sigs)
