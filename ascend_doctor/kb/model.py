"""Pitfalls, signatures and the KnowledgeBase that holds them (loading: `kb/load.py`).

A signature matches a line by a regex (`pattern`, `also`) or by `all_of`: alternatives,
each a list of literals that must all be in the line. Matching a line is
`KnowledgeBase.match_line(str)`; scanning gigabytes is `KnowledgeBase.scanner()`, the matching
engine of `triage/match/` (imported on first use: `check` reads only the pitfalls).
"""

from __future__ import annotations

import re
from ..records import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Set, Tuple

from ..i18n import N_, _


KB_SCHEMA = "ascend-doctor.kb/1"

# A signature's component, class, severity and log sources take the values data/kb_part.schema.json lists (the
# loader checks a user's file against it). Log sources, where a signature's line is read (issue 13): framework
# stdout, CANN host/device logs, NPU device OS, NPU driver logs on the host, NPU black box, host OS, iBMC/NodeD
# dumps, MindX, switch, AMCT.

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


# The knowledge base's `source` also cites where an entry was written up in the project's research notes
# (reference/error_signatures.md, shared/reference/*.md), files users do not have; those citations are left
# out of what is shown, and the reference tool's knowledge base is named by its public repository.
_NOTES_PREFIX = re.compile(r"^reference/error_signatures\.md(?:\s+[A-Z0-9_]+)?:\s*")
_NOTES_CITE = re.compile(r"(?:shared/)?reference/[A-Za-z_]+\.md")
ASCEND_FD_KB = N_("ascend-fd knowledge base (github.com/Ascend/mind-cluster, "
                  "component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json)")
_ASCEND_FD_FILE = "ascend-fd kg-config.json"
# ascend-fd keys a hardware fault by the device's event id (0x80E01801), which the vendor's maintenance guide calls
# an event id (事件 ID), not a fault code; its other ids (AISW_CANN_HCCL_006, Comm_Op_Timeout) are its own.
_EVENT_ID = re.compile(r"0x[0-9A-Fa-f]+$")


def ascend_fd_label(ids: Iterable[str]) -> str:
    """The label before a signature's ascend-fd ids (kb show, triage): "event ids:" when they are all device
    event ids, else "ascend-fd:"."""
    ids = list(ids)
    return _("event ids:") if ids and all(_EVENT_ID.match(x) for x in ids) else _("ascend-fd:")


def public_source(source: str, sig_id: str = "", source_zh: str = "") -> str:
    """A signature's `source` as a user can follow it: the research-notes citations dropped, the rest kept, the
    reference tool's knowledge base named by its repository in the run's language. `source_zh` (the same
    citations in Chinese, written in the data) is used instead of `source` when given."""
    if source_zh:
        text = source_zh.strip()
    else:
        src = _NOTES_PREFIX.sub("", source or "").strip()
        text = "; ".join(p.strip() for p in re.split(r";\s+", src) if p.strip() and not _NOTES_CITE.search(p))
    if _ASCEND_FD_FILE in text:
        named = _(ASCEND_FD_KB)
        if named.endswith("）"):  # Chinese: the ids it cites follow a colon, not a space
            text = text.replace(_ASCEND_FD_FILE + " ", _ASCEND_FD_FILE + "：", 1)
        text = text.replace(_ASCEND_FD_FILE, named, 1)
    return text or (f"ascend-doctor kb show {sig_id}" if sig_id else "")


def _current_lang() -> str:
    from ..i18n import get_lang

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
    # a class entry: names the fault from the error line's own structure (an API's name, a code's documented
    # meaning); on a line that a specific entry also matches it gives way to it, as a wrapper gives way to both
    fallback: bool = False
    # a class entry of last resort (with fallback): it only restates a code and the vendor's sentence for it, so on its
    # line it gives way to any other class entry too (yield_to_specific)
    last_resort: bool = False
    # reads a line of code (a setting written in the script): a Python traceback's source line counts for it, as for
    # no other entry (`triage/match/source.py`)
    code_line: bool = False
    # a traceback frame's entry whose exception decides what the exception means: regexes of the exception line that ends
    # the traceback; where one matches, that line is this entry's alone (triage/scan.py _frame_step) and its named
    # groups fill the entry's placeholders (values)
    exception_under: List[str] = field(default_factory=list)
    # a FAIL only where the matched line is marked as an error report (an error level or form, or a code): the entry
    # also reads a vendor's sentence on its own, which a page or a lower-level line can quote; there it is a warning
    fail_needs_mark: bool = False
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
    source_zh: str = ""  # the citations of `source` in Chinese
    log_sources: List[str] = field(default_factory=list)
    # the faults this one causes: ascend-fd ids (the reference's fault chains) or our own signature ids (a line that is
    # the effect of this fault where both show on one node: triage.result.link_effects)
    leads_to: List[str] = field(default_factory=list)
    derived: bool = False  # no telling line: known only as the effect of another fault
    example_origin: str = ""
    origin: str = ""  # the file it was read from

    @property
    def graded(self) -> bool:
        """Whether a hit's severity depends on its line (severity_on): a FAIL entry that needs a mark, or of last
        resort."""
        return self.severity == "fail" and (self.fail_needs_mark or self.last_resort)

    def low_on(self, line: Optional[str], marked: bool = False) -> bool:
        """Whether a hit on `line` gets less than the entry's severity (a graded entry's warning: severity_on)."""
        return self.graded and self.severity_on(line, marked) != "fail"

    def severity_on(self, line: Optional[str], marked: bool = False) -> str:
        """The severity of a hit on `line`: the entry's own, but a FAIL of a `fail_needs_mark` entry is a warning on a
        line that is not marked as an error report (triage.lines.is_error_report) and is not `marked` as the next line
        of an exception's message (triage.lines.Fold.follows: part of an error report, whatever its words); and a
        FAIL of a `last_resort` entry is a warning on a line its writer logged below the error level
        (triage.lines.logged_below_error), which only restated a number there."""
        if self.severity != "fail" or line is None or marked:
            return self.severity
        if self.fail_needs_mark:
            from ..triage.lines import is_error_report

            if not is_error_report(line):
                return "warn"
        if self.last_resort:  # it only restates a code or an errno: on a line logged as INFO or WARNING, not a FAIL
            from ..triage.lines import logged_below_error

            if logged_below_error(line):
                return "warn"
        return self.severity

    # ---- str matching (smoke classifier, report, `kb match`) ----
    def patterns(self) -> List[str]:
        """The regexes of a pattern signature ([] for an all_of-only or derived signature), named groups made
        plain: the engine matches, only `values` reads what a group captured."""
        if not self.pattern or self.derived:
            return []
        return [unname_groups(p) for p in self.raw_patterns()]

    def raw_patterns(self) -> List[str]:
        """The regexes as written, named groups (`(?P<module>...)`) kept."""
        if not self.pattern or self.derived:
            return []
        main = self.pattern if self.regex else re.escape(self.pattern)
        return [main] + list(self.also)

    def values(self, line: Optional[str]) -> Dict[str, Tuple[str, bool]]:
        """What the named groups of the first pattern matching `line` captured, as {name: (value, quoted)}, plus
        the facts derived from them (DERIVED_VALUES). `line` is the matched line as the report shows it (cut and
        redacted), so a value is redacted as the line is. {} when nothing is named or nothing matches."""
        pats = self.raw_patterns() + self.exception_under
        if not line or "(?P<" not in "".join(pats):
            return {}
        m = _first_match([p for p in pats if "(?P<" in p], line)
        if m is None:
            return {}
        out = {k: (_clean_value(v, k), True) for k, v in m.groupdict().items() if v and _clean_value(v, k)}
        for name, derive in DERIVED_VALUES.items():
            if name in out:  # from the whole value: a long sentence's cut may fall before what names its code
                raw = m.groupdict().get(name)  # a value derived from another (cann_said's cann_code) is whole
                whole = _clean_value(raw, name, cut=False) if raw else out[name][0]
                out.update({k: (v, False) for k, v in derive(whole).items() if k not in out})
        return out

    def span(self, line: str) -> Optional[Tuple[int, int]]:
        """Where in `line` the entry matched: the first of its patterns that matches, or the first all_of alternative
        whose literals the line holds (from its first literal's start to its last one's end); None: not found."""
        m = _first_match(self.raw_patterns(), line)
        if m is not None:
            return m.span()
        for alt in self.all_of:
            at = [line.find(lit) for lit in alt]
            if alt and min(at) >= 0:
                return min(at), max(i + len(lit) for i, lit in zip(at, alt))
        return None

    def split_codes(self) -> Tuple[List[str], List[str], List[List[str]], List[List[str]]]:
        """(phrase patterns, bare-code patterns, phrase all_of alternatives, bare-code alternatives): see
        "Codes count only in an error context" below. Cached."""
        got = self.__dict__.get("_split")
        if got is None:
            from ..triage.match.codes import split_codes

            got = self.__dict__["_split"] = split_codes(self.patterns(), self.all_of)
        return got

    def use_split_codes(self, split) -> None:
        """Take split_codes' answer as a scanner's cached plan kept it (triage/match/finders._scan_plan), so that it is
        not parsed again in this process; an answer already made stays."""
        self.__dict__.setdefault("_split", tuple(split))

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
            self._compiled = re.compile("|".join(f"(?:{p})" for p in pats), LINE_FLAGS) if pats else None
            self._compiled_codes = re.compile("|".join(f"(?:{p})" for p in codes), LINE_FLAGS) if codes else None
            self._phrase_alts, self._code_alts = alts, code_alts
            self._compiled_excl = [re.compile(p, LINE_FLAGS) for p in self.exclude]
        hit = (self._compiled is not None and self._compiled.search(line) is not None) or \
            any(all(lit in line for lit in alt) for alt in self._phrase_alts)
        if not hit and (self._compiled_codes is not None or self._code_alts):
            from ..triage.match.codes import _STR_CONTEXT, _codes_hit

            hit = _codes_hit(line, self._compiled_codes, self._code_alts, _STR_CONTEXT)
        return hit and not any(x.search(line) for x in self._compiled_excl)

    def bytes_matcher(self, prefilter=None):
        """A function line(bytes) -> bool with the same answers as `search` (the scanner's last word).

        `prefilter` (the scanner's plan, for a signature of long patterns): per phrase pattern of split_codes, literals
        one of which is in every line it matches (None: no such literals); a pattern is then compiled only when a line
        holds one of its literals (the CANN catalogue's 30 KB of patterns cost ~120 ms to compile whole)."""
        from ..triage.match.codes import _BYTES_CONTEXT, _codes_hit

        excl = [_re_compile(x.encode("utf-8")) for x in self.exclude]
        if self.derived:
            return lambda line: False
        pats, codes, phrase_alts, code_alts = self.split_codes()
        alts = [tuple(lit.encode("utf-8") for lit in alt) for alt in phrase_alts]
        if codes or code_alts:
            prx = _patterns_search(pats, prefilter)
            crx = _re_compile(("|".join(f"(?:{p})" for p in codes)).encode("utf-8")) if codes else None
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
        rx = _patterns_search(pats, prefilter)
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
        from ..triage.match.literals import required_literals

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
        from ..triage.match.literals import literal_cost

        shared = shared or {}
        return {min(alt, key=lambda lit: (literal_cost(lit) + 1) * max(1, shared.get(lit, 1))).encode("utf-8")
                for alt in self.all_of}

    # ---- where it comes from, as a user can follow it ----
    def public_source(self, lang: Optional[str] = None) -> str:
        """The source as a user can follow it (public_source), in `lang` (default: the run's language): in
        Chinese the `source_zh` written in the data where there is one."""
        zh = self.source_zh if (lang or _current_lang()) == "zh" else ""
        return public_source(self.source, self.id, zh)

    # ---- the texts in a language ----
    def text(self, lang: Optional[str] = None, line: Optional[str] = None) -> Tuple[str, str, List[str]]:
        """(title, cause, fix) in `lang` (default: the language of this run, i18n.get_lang()); "zh" falls back
        to English field by field where not written. With `line` (the matched line as shown), a `{name|generic
        words}` placeholder says what the group `name` captured there (see fill_values); without it, or where the
        group captured nothing, the generic words."""
        if (lang or _current_lang()) == "zh":
            title, cause, fix = self.title_zh or self.title, self.cause_zh or self.cause, list(self.fix_zh or self.fix)
        else:
            title, cause, fix = self.title, self.cause, list(self.fix)
        if "{" not in title + cause + "".join(fix):
            return title, cause, fix
        values = self.values(line)
        return fill_values(title, values), fill_values(cause, values), [fill_values(f, values) for f in fix]


# A value said in a signature's words: `{module|a Python module}` in a title, cause or fix (en and zh) is replaced by
# what the named group `module` of the matching pattern captured, in backticks, or by the words after the first `|`
# where it captured nothing (no line, a line cut before it, another pattern matched): the generic text is the text
# with every placeholder at its words. `{module|words|import %s}` puts the value, unquoted, in place of `%s` in the
# third part (inside a code span, or words that read only with the value). A value is shown as the line is
# (redacted), at most VALUE_MAX characters (SENTENCE_MAX for a group that captures a sentence the line gives as its
# reason: `message`, `reason`, `msg`, `detail`), without backticks or control characters.
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\|([^{}|]*)(?:\|([^{}|]*))?\}")
_NAMED_GROUP = re.compile(r"(?<!\\)\(\?P<([A-Za-z_][A-Za-z0-9_]*)>")
VALUE_MAX = 60
SENTENCE_MAX = 120
SENTENCE_GROUPS = frozenset(("message", "reason", "msg", "detail", "acl_printed", "cann_said"))


class _LazyPatterns:
    """`search(line)` as one compiled alternation of `pats` answers it, each pattern compiled only when the line holds
    one of its literals (`prefilter`: per pattern, literals one of which is in every match, or None: always tried)."""

    def __init__(self, pats: List[str], prefilter) -> None:
        self.pats = [p.encode("utf-8") for p in pats]
        self.lits = [None if lits is None else [x.encode("utf-8") for x in lits] for lits in prefilter]
        self.compiled: List[Optional[re.Pattern]] = [None] * len(pats)

    def search(self, line: bytes):
        for k, lits in enumerate(self.lits):
            if lits is not None and not any(x in line for x in lits):
                continue
            rx = self.compiled[k]
            if rx is None:
                rx = self.compiled[k] = _re_compile(self.pats[k])
            m = rx.search(line)
            if m is not None:
                return m
        return None


def _patterns_search(pats: List[str], prefilter=None):
    """An object whose `search(bytes)` finds any of `pats` (None: no pattern): one compiled alternation, or, with a
    prefilter of one entry per pattern, _LazyPatterns."""
    if not pats:
        return None
    if prefilter is not None and len(prefilter) == len(pats):
        return _LazyPatterns(pats, prefilter)
    return _re_compile(("|".join(f"(?:{p})" for p in pats)).encode("utf-8"))


def _first_match(pats: List[str], line: str) -> Optional["re.Match"]:
    """The match of the first of `pats` that matches `line` (a pattern that does not compile names nothing: the
    shipped ones are checked at load, a user's odd one is skipped)."""
    for p in pats:
        try:
            m = _re_compile(p, LINE_FLAGS).search(line)
        except re.error:
            continue
        if m is not None:
            return m
    return None


# How a signature's pattern reads a line given as text (Signature.search: kb match, explain; the values a title says):
# `\w`, `\d`, `\s`, `\b` and (?i) in ASCII, as the scanner's bytes patterns read them in triage, so that a line is
# matched alike in both: `报错NameError: name 'x'` (a Chinese word glued to the message, as users paste it) is no word
# character before `NameError` in either.
LINE_FLAGS = re.ASCII


def _re_compile(pattern, flags: int = 0) -> "re.Pattern":
    """re.compile, from the program kept between runs for a long pattern (triage/match/recache.py)."""
    from ..triage.match.recache import compile as kept

    return kept(pattern, flags)


def unname_groups(pattern: str) -> str:
    """The pattern with its named groups made non-capturing (the engine and Hyperscan see no names)."""
    return _NAMED_GROUP.sub("(?:", pattern) if "(?P<" in pattern else pattern


def group_names(pattern: str) -> List[str]:
    return _NAMED_GROUP.findall(pattern)


# A name's value with the punctuation of the sentence around it: `Identity.`, `trans_TransData_8,` (a group of `[\w.]+`
# or `\S+` ends where the line's sentence does): one mark after a word, in a value without a space. A sentence keeps
# its own (`Failed to find operator.`), so does an ellipsis (`while...else...`).
_VALUE_TAIL = re.compile(r"(?<=[\w)\]])[.,;:]$")


def _clean_value(v: str, name: str = "", cut: bool = True) -> str:
    v = re.sub(r"[`\x00-\x1f\x7f]", "", v).strip()
    if name not in SENTENCE_GROUPS and " " not in v:
        v = _VALUE_TAIL.sub("", v)
    if not cut:
        return v
    most = SENTENCE_MAX if name in SENTENCE_GROUPS else VALUE_MAX
    return v if len(v) <= most else v[:most - 1] + "…"


def _acl_code_facts(code: str) -> Dict[str, str]:
    """An AscendCL return code's constant and meaning from data/acl_return_codes.json ({} if not listed)."""
    from .lookup import acl_codes, in_run_language

    known = acl_codes()["codes"].get(code)
    return {"acl_name": known["name"], "acl_meaning": in_run_language(known)} if known else {}


def _acl_printed_facts(sentence: str) -> Dict[str, str]:
    """The AscendCL code whose message torch_npu printed after `[Error]: ` (the `printed` sentences of
    data/acl_return_codes.json): its number, constant and meaning where one code has that sentence, the numbers
    alone where several do ("Failed to apply for memory." is 200000, 207001 and 207005); {} if none."""
    from .lookup import acl_codes

    said = sentence.rstrip("…").strip()
    codes = sorted(c for c, v in acl_codes()["codes"].items() if said and v.get("printed", "").startswith(said))
    if len(codes) == 1:
        return dict(_acl_code_facts(codes[0]), acl_code=codes[0])
    return {"acl_code": "/".join(codes)} if codes else {}


def _dcmi_code_facts(code: str) -> Dict[str, str]:
    """A DCMI return code's constant and meaning from data/dcmi_return_codes.json ({} if not listed; no name where
    the vendor's table gives none). The meaning is said without its closing full stop (it sits inside a title)."""
    from .lookup import dcmi_codes, in_run_language

    known = dcmi_codes()["codes"].get(code)
    if not known:
        return {}
    out = {"dcmi_meaning": in_run_language(known).rstrip("。.")}
    if known.get("name"):
        out["dcmi_name"] = known["name"]
    return out


def _named_code_facts(table: str, prefix: str, code: str) -> Dict[str, str]:
    """A code's constant and meaning from a table of data/ whose `codes` give each a `name` and an English `meaning`:
    {prefix_name, prefix_meaning} ({} if not listed)."""
    from ..data import load_data_file

    known = load_data_file(table)["codes"].get(code.strip())
    return {f"{prefix}_name": known["name"], f"{prefix}_meaning": known["meaning"]} if known else {}


def _hccl_code_facts(code: str) -> Dict[str, str]:
    """An HcclResult's constant and meaning from data/hccl_result_codes.json ({} if not listed)."""
    return _named_code_facts("hccl_result_codes.json", "hccl", code)


def _drv_code_facts(code: str) -> Dict[str, str]:
    """A driver return code's (drvError_t) constant and meaning from data/drv_error_codes.json ({} if not listed)."""
    return _named_code_facts("drv_error_codes.json", "drv", code)


def _hccl_errno_facts(value: str) -> Dict[str, str]:
    """An HCCL log errNo's HcclResult (its low 16 bits: HCCL_ERROR_CODE = module 5 << 24 + sub-module << 16 +
    HcclResult), with the result's constant and meaning ({} if not hexadecimal or not listed)."""
    try:
        code = str(int(value, 16) & 0xFFFF)
    except ValueError:
        return {}
    facts = _hccl_code_facts(code)
    return dict(facts, hccl_code=code) if facts else {}


def _serving_codes() -> dict:
    from ..data import load_data_file

    return load_data_file("serving_error_codes.json")


def _atb_status_facts(code: str) -> Dict[str, str]:
    """An ATB operation's status (atb::ErrorType, data/serving_error_codes.json): its constant and meaning in the run's
    language ({} if not listed: 0 is success, and a number ATB does not define says nothing)."""
    from .lookup import in_run_language

    known = _serving_codes()["atb_status"].get(code.strip())
    return {"atb_name": known["name"], "atb_meaning": in_run_language(known)} if known else {}


def _mindie_code_facts(code: str) -> Dict[str, str]:
    """What a MindIE error code says (data/serving_error_codes.json): a server code (MIE04 + level + sub-module +
    feature + error type, src/utils/log/logger_def.h) gives `mindie_meaning` "<sub-module>/<feature>: <error type>"
    (the identifiers as MindIE names them, the type in the run's language); a code of mindie_llm's ErrorCode enum
    (MIE05...) its constant; {} for a code neither lists."""
    table = _serving_codes()
    code = code.strip().upper()
    if code in table["mindie_llm_codes"]:
        return {"mindie_meaning": table["mindie_llm_codes"][code]}
    if len(code) != 12 or not code.startswith("MIE04"):
        return {}
    module = table["mindie_server_modules"].get(code[6:8])
    feature = table["mindie_server_features"].get(code[8:10])
    kind = table["mindie_server_error_types"].get(code[10:12])
    if not (module and feature and kind):
        return {}
    from ..i18n import get_lang
    from .lookup import in_run_language

    return {"mindie_meaning": f"{module}/{feature}{'：' if get_lang() == 'zh' else ': '}{in_run_language(kind)}"}


def _torch_npu_code_facts(code: str) -> Dict[str, str]:
    """A torch_npu error code's parts (ERR<sub-module, 2 digits><code, 3 digits>) from data/torch_npu_error_codes.json:
    the sub-module's printed name and what it covers, the code's meaning, in the run's language ({} if not listed)."""
    from .lookup import torch_npu_code

    known = torch_npu_code(code)
    if known is None:
        return {}
    return {"tnpu_module": known["module"], "tnpu_covers": known["covers"], "tnpu_meaning": known["meaning"]}


def _cann_code_facts(code: str) -> Dict[str, str]:
    """A CANN error code's entry in the vendor's catalogue (data/cann_error_codes.json, lookup.cann_code): its errTitle
    in words, its class, its message template (the printer's %s said `…`: a line that gives the message keeps its own)
    and its possible cause and solution, in the run's language ({} if not listed)."""
    from .lookup import cann_code, cann_text

    known = cann_code(code)
    if known is None:
        return {}
    out = {k: cann_text(known, k) for k in ("words", "cause", "solution") if known.get(k)}
    out = {("cann_" + k): v for k, v in out.items()}
    if known.get("class"):
        out["cann_class"] = known["class"]
    out["message"] = known["message"].replace("%s", "…").strip()
    return out


def _cann_said_facts(said: str) -> Dict[str, str]:
    """The catalogued code(s) whose message template is the sentence a line gives without its code (lookup.
    cann_said_codes): the code, and the sentence as the message; several codes sharing the sentence are named together
    ("E30004/E39008"); {} if none."""
    from .lookup import cann_said_codes

    codes = cann_said_codes(said)
    return {"cann_code": "/".join(codes), "message": said} if codes else {}


def _errno_facts(value: str) -> Dict[str, str]:
    """An operating-system error (lookup.errno_code) named by its strerror text or its number: its constant, number,
    text and cause, the cause in the run's language ({} if neither is listed)."""
    from .lookup import errno_code, in_run_language

    known = errno_code(value)
    if known is None:
        return {}
    return {"errno_name": known["name"], "errno_num": known["num"], "errno_text": known["text"],
            "errno_cause": in_run_language(known, "cause")}


def yield_to_specific(hits, wrappers, yielding, last=frozenset()):
    """The hits of one line that explain it: a specific entry before a class entry (fallback) before a class entry
    of last resort (one that only restates a code: `last`) before a generic wrapper. `hits` are indexes (or
    signatures), `wrappers` the wrappers among them, `yielding` the wrappers and the class entries (those of last
    resort included)."""
    specific = [i for i in hits if i not in yielding]
    if specific:
        return specific
    classes = [i for i in hits if i not in wrappers and i not in last]
    if classes:
        return classes
    return [i for i in hits if i not in wrappers] or list(hits)


# values that follow from a captured one: a group `acl_code` also gives `acl_name` and `acl_meaning` (not quoted),
# a group `acl_printed` (the sentence torch_npu prints for a code after `[Error]: `) the code and those two,
# a group `hccl_code` `hccl_name` and `hccl_meaning`, a group `hccl_errno` (an HCCL log errNo) those three, a group
# `dcmi_code` (a DCMI return code, -8001 ... -8255) `dcmi_name` and `dcmi_meaning`, a group `drv_code` (the NPU
# driver library's drvError_t) `drv_name` and `drv_meaning`, a group
# `tnpu_code` (the five digits of torch_npu's ERR code) `tnpu_module`, `tnpu_covers` and `tnpu_meaning`, a group
# `atb_status` (an ATB operation's status) `atb_name` and `atb_meaning`, a group `mindie_code` (a MindIE error code)
# `mindie_meaning`, a group `cann_code` (a code of CANN's error-code catalogue) `cann_words`, `cann_class`, `cann_cause`,
# `cann_solution` and, where the line gives no message, `message` (the code's template), a group `cann_said` (a catalogued
# message without its code) `cann_code` and `message` (before `cann_code`: the code it names gives the rest), a group
# `errno_text` (an OS error's strerror text) or `errno_num` (its number) `errno_name`, the other of the two and
# `errno_cause` (data/errno_causes.json)
DERIVED_VALUES: Dict[str, Callable[[str], Dict[str, str]]] = {"acl_code": _acl_code_facts,
                                                              "acl_printed": _acl_printed_facts,
                                                              "hccl_code": _hccl_code_facts,
                                                              "hccl_errno": _hccl_errno_facts,
                                                              "dcmi_code": _dcmi_code_facts,
                                                              "drv_code": _drv_code_facts,
                                                              "tnpu_code": _torch_npu_code_facts,
                                                              "atb_status": _atb_status_facts,
                                                              "mindie_code": _mindie_code_facts,
                                                              "cann_said": _cann_said_facts,
                                                              "cann_code": _cann_code_facts,
                                                              "errno_text": _errno_facts,
                                                              "errno_num": _errno_facts}
DERIVED_NAMES = {"acl_code": ("acl_name", "acl_meaning"), "acl_printed": ("acl_code", "acl_name", "acl_meaning"),
                 "hccl_code": ("hccl_name", "hccl_meaning"),
                 "hccl_errno": ("hccl_code", "hccl_name", "hccl_meaning"),
                 "dcmi_code": ("dcmi_name", "dcmi_meaning"),
                 "drv_code": ("drv_name", "drv_meaning"),
                 "tnpu_code": ("tnpu_module", "tnpu_covers", "tnpu_meaning"),
                 "atb_status": ("atb_name", "atb_meaning"), "mindie_code": ("mindie_meaning",),
                 "cann_said": ("cann_code", "message"),
                 "cann_code": ("cann_words", "cann_class", "cann_cause", "cann_solution", "message"),
                 "errno_text": ("errno_name", "errno_num", "errno_cause"),
                 "errno_num": ("errno_name", "errno_text", "errno_cause")}


def fill_values(text: str, values: Dict[str, Tuple[str, bool]]) -> str:
    """The text with its placeholders filled from `values` ({name: (value, quoted)}), the words where a value is
    missing."""
    def one(m) -> str:
        got = values.get(m.group(1))
        if not got:
            return m.group(2)
        if m.group(3) is not None:
            return m.group(3).replace("%s", got[0], 1)
        return f"`{got[0]}`" if got[1] else got[0]

    return PLACEHOLDER.sub(one, text) if "{" in text else text


def placeholders(text: str) -> List[str]:
    return [m.group(1) for m in PLACEHOLDER.finditer(text)]


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
        self._match_digest: Optional[bytes] = None  # set by the loader where its index knows it

    @property
    def match_digest(self) -> bytes:
        """The digest of the signatures' matching fields (triage.match.cache.fields_digest: the scanner cache's name)."""
        if self._match_digest is None:
            from ..triage.match.cache import fields_digest

            self._match_digest = fields_digest(self.signatures)
        return self._match_digest

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

    def by_effect(self, name: str) -> List[Signature]:
        """The signatures a `leads_to` item names: one of ours by its id, else those recognising that ascend-fd id."""
        try:
            return [self.signature(name)]
        except KeyError:
            return self.by_ascend_fd(name)

    def match_line(self, line: str) -> List[Signature]:
        """Every signature matching this line, in knowledge-base order (exact, no prefilter); none on a Python
        traceback's source line (its code names a call, not an event: `triage/match/source.py`)."""
        from ..triage.match.source import is_source_line

        if is_source_line(line):
            return [s for s in self.signatures if s.code_line and s.search(line)]
        if len(self.signatures) < 200:
            return [s for s in self.signatures if s.search(line)]
        # a big KB: only the signatures whose anchors are in the line can match it
        scanner = self.scanner()
        raw = line.encode("utf-8", "surrogateescape")
        cands = scanner.candidates(raw)
        return [self.signatures[i] for i in sorted(cands) if self.signatures[i].search(line)]

    def explaining(self, line: str) -> List[Signature]:
        """The signatures that explain this line as triage reports it: a specific entry before a class entry before
        a generic wrapper (yield_to_specific)."""
        hits = self.match_line(line)
        if len(hits) < 2:
            return hits
        wrappers = {id(s) for s in hits if s.kind == "wrapper"}
        yielding = wrappers | {id(s) for s in hits if s.fallback}
        last = {id(s) for s in hits if s.last_resort}
        keep = set(yield_to_specific([id(s) for s in hits], wrappers, yielding, last))
        return [s for s in hits if id(s) in keep]

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
            from ..triage.match.scanner import Scanner

            self._scanner = Scanner(self.signatures, head=(len(self.signatures), self.match_digest))
        return self._scanner
