"""Loading the knowledge base: data/knowledge_base.json, the parts in data/kb/, the user's files."""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..data import DataError, data_path, load_json_file
from ..i18n import N_, _
from .model import (CLASSES, COMPONENTS, KB_SCHEMA, LOG_SOURCES, SEVERITIES, KnowledgeBase, Pitfall, Signature,
                    _GcPaused)


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
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
