"""Loading the knowledge base: data/knowledge_base.json, the parts in data/kb/, the user's files."""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..data import KB_PART_SCHEMA, SCHEMAS, DataError, data_path, load_data_file, load_json_file
from ..i18n import N_, _
from .index import word_fields
from .model import DERIVED_NAMES, KB_SCHEMA, KnowledgeBase, Pitfall, Signature, _GcPaused, group_names, placeholders


# data/knowledge_base.json (pitfalls and our first signatures), then every part file
# data/kb/*.json (schema data/kb_part.schema.json), then the user's files (--kb FILE,
# ASCEND_DOCTOR_KB), all in the part format. The parts are read on first use of
# `KnowledgeBase.signatures`: `check` needs only the pitfalls.

PART_SCHEMA = "ascend-doctor.kb-part/1"
KB_ENV = "ASCEND_DOCTOR_KB"  # more part files, separated by os.pathsep
# Where a user's file (or a part given by path) is checked: against its schema in data/ by the one schema engine
# (ascend_doctor/schema.py), then for what a schema cannot say (see "Checking a file" below).
BASE_SCHEMA_FILE = SCHEMAS["knowledge_base.json"]


def _entry_schema(schema_file: str) -> dict:
    """The schema of one signature of a knowledge-base file (kb_part.schema.json or knowledge_base.schema.json)."""
    return load_data_file(schema_file)["properties"]["signatures"]["items"]


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
        base = parse_knowledge_base(load_json_file(file), file, trusted=path is None)
    builtin = part_files() if parts is None else list(parts)

    def load_rest() -> List[Signature]:
        if path is not None or parts is not None:
            return merge_parts(base.pitfalls, base.signatures, [(f, False) for f in builtin] + [(f, True) for f in user],
                               trusted=parts is None)
        # the shipped files from their index (kb/index.py), else read whole and indexed; then the user's files
        from .index import read_index, write_index

        shipped = [file] + builtin
        indexed = read_index(shipped)
        if indexed is None:
            sigs = merge_parts(base.pitfalls, base.signatures, [(f, False) for f in builtin], trusted=True)
            digest = write_index(shipped, sigs)
        else:
            sigs, digest = indexed
        if user:
            return merge_parts(base.pitfalls, sigs, [(f, True) for f in user])
        kb._match_digest = digest  # (the user's files may change what matches: worked out again where they are read)
        return sigs

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
    mappings = []  # applied once every part is read: a part may extend an entry of a part read after it
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
        mappings += [(file, key, our, add) for key, our, add in mapping]
    for file, key, our, add in mappings:
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


def parse_part(raw, file: str, pitfalls: Dict[str, Pitfall], check_examples: bool = False, trusted: bool = False):
    """([(index, Signature)], [("existing"|"existing_all_of", our id, values)], [one-line errors]) of one part file.

    `trusted`: a part shipped in data/kb, checked against its schema and field by field by the test suite
    (tests/test_data.py, tests/commands/test_kb.py::test_shipped_parts_read_fast_as_checked), so its entries are
    built without the checks (10 ms of every triage); anything unexpected in it falls back to the checks."""
    if trusted:
        try:
            return _parse_trusted_part(raw, file)
        except (KeyError, TypeError, AttributeError, ValueError):
            pass
    if not isinstance(raw, dict) or raw.get("schema") != PART_SCHEMA:
        return [], [], [_("{file}: field 'schema' must be {schema}").format(file=file, schema=repr(PART_SCHEMA))]
    from ..schema import schema_problems

    top: List[str] = []
    maps: List[str] = []
    bad_maps: Set[Tuple[str, str]] = set()
    entry_problems: Dict[int, list] = {}
    for p in schema_problems(raw, load_data_file(KB_PART_SCHEMA), limit=10 ** 6):
        head = p.path[0] if p.path else None
        if head == "signatures" and len(p.path) >= 2:
            entry_problems.setdefault(p.path[1], []).append(p)
        elif head in ("existing", "existing_all_of"):
            our = p.path[1] if len(p.path) >= 2 else p.expected if p.keyword == "propertyNames" else ""
            if (head, our) in bad_maps:
                continue
            bad_maps.add((head, our))
            maps.append(_map_problem(file, head, our, p))
        else:
            top.append(_file_problem(file, p))
    mapping = []
    for key in ("existing", "existing_all_of"):
        if (key, "") in bad_maps:
            continue
        for our, values in (raw.get(key) or {}).items():
            if (key, our) in bad_maps:
                continue
            if key == "existing_all_of" and any("\n" in lit for alt in values for lit in alt):
                maps.append(_map_problem(file, key, our, None))
                continue
            mapping.append((key, our, [list(a) for a in values] if key == "existing_all_of" else list(values)))
    errs = top + maps
    entries = raw.get("signatures")
    if not isinstance(entries, list):  # absent (a file of mappings only), or not a list (said above)
        return [], mapping, errs
    node = _entry_schema(KB_PART_SCHEMA)
    out = []
    seen: Dict[str, int] = {}
    for i, s in enumerate(entries):
        where = _("{file}: signatures[{index}]").format(file=file, index=i)
        line = _entry_problem(s, where, entry_problems.get(i, ()), node, pitfalls, check_examples, part=True)
        sig = None
        if line is None:
            sig = _part_signature(s, file)
            where = f"{where} ({sig.id})"
            line = _example_problem(sig, where) if check_examples else None
        if line is None and sig.id in seen:
            line = _("{file}: signatures[{index}] ({id}).id: expected a unique id, signatures[{other}] has it too").format(
                file=file, index=i, id=sig.id, other=seen[sig.id])
        if line is not None:
            errs.append(line)  # one line per bad entry: its first problem
            continue
        seen[sig.id] = i
        out.append((i, sig))
    return out, mapping, errs


def _parse_trusted_part(raw, file: str):
    """parse_part's answer for a shipped part, built without the checks (raises on anything odd)."""
    if raw["schema"] != PART_SCHEMA:
        raise ValueError(file)
    mapping = [("existing", our, list(fds)) for our, fds in (raw.get("existing") or {}).items()]
    mapping += [("existing_all_of", our, [list(a) for a in alts]) for our, alts in (raw.get("existing_all_of") or {}).items()]
    fields = set(_entry_schema(KB_PART_SCHEMA)["properties"])
    out = []
    seen: Set[str] = set()
    for i, s in enumerate(raw.get("signatures") or ()):
        if s["id"] in seen or not set(s) <= fields:
            raise ValueError(s["id"])
        seen.add(s["id"])
        out.append((i, _part_signature(s, file)))
    return out, mapping, []


def _part_signature(s: dict, file: str) -> Signature:
    """The Signature of an entry of a part or of knowledge_base.json (checked, or shipped: the fields both schemas
    require are read as required, so a shipped file without them falls back to the checks)."""
    get = s.get
    derived, pattern, all_of = get("derived", False), get("pattern"), get("all_of")
    return Signature(
        id=s["id"], pattern=pattern if isinstance(pattern, str) else "", regex=bool(get("regex", False)),
        component=s["component"], severity=s["severity"], pitfall=get("pitfall"), kind=str(get("class", "root")),
        also=list(get("also") or ()), exclude=list(get("exclude") or ()), resolved_by=list(get("resolved_by") or ()),
        anchors=list(get("anchors") or ()), all_of=[list(alt) for alt in all_of] if all_of is not None and not derived
        else [], ascend_fd=list(get("ascend_fd") or ()), log_sources=list(get("log_sources") or ()),
        leads_to=list(get("leads_to") or ()), derived=derived, fallback=bool(get("fallback", False)),
        last_resort=bool(get("last_resort", False)), code_line=bool(get("code_line", False)),
        fail_needs_mark=bool(get("fail_needs_mark", False)), origin=file,
        exception_under=list(get("exception_under") or ()), **word_fields(s))


def parse_knowledge_base(raw, file: str = "knowledge_base.json", trusted: bool = False) -> KnowledgeBase:
    """The pitfalls and signatures of a knowledge_base.json. `trusted`: the shipped file, checked against its schema
    by the test suite, built without the checks (anything unexpected falls back to them); any other is checked
    against data/knowledge_base.schema.json and its regexes compiled, and its first problem raised as one line."""
    if not isinstance(raw, dict) or raw.get("schema") != KB_SCHEMA:
        raise DataError(_("{file}: field 'schema' must be {schema}").format(file=file, schema=repr(KB_SCHEMA)))
    if trusted:
        try:
            return _build_base(raw, file)
        except (KeyError, TypeError, AttributeError, ValueError):
            pass
    from ..schema import schema_problems

    lines: List[str] = []
    entry_problems: Dict[int, list] = {}
    for p in schema_problems(raw, load_data_file(BASE_SCHEMA_FILE), limit=10 ** 6):
        if p.path[:1] == ("signatures",) and len(p.path) >= 2:
            entry_problems.setdefault(p.path[1], []).append(p)
        elif p.path[:1] == ("pitfalls",) and (len(p.path) == 2 and p.keyword == "type" or p.keyword == "propertyNames"):
            lines.append(_("{file}: pitfalls.{id}: expected an id like P07 with an object value").format(
                file=file, id=p.path[1] if len(p.path) == 2 else p.expected))
        elif p.path[:1] == ("pitfalls",) and len(p.path) == 3 and p.keyword == "type":
            lines.append(_("{file}: pitfalls.{id}.{field}: expected a string, got {type}").format(
                file=file, id=p.path[1], field=p.path[2], type=type(p.value).__name__))
        else:
            lines.append(_file_problem(file, p))
    if lines:
        raise DataError(lines[0])
    pitfalls = _pitfalls(raw)
    node = _entry_schema(BASE_SCHEMA_FILE)
    for i, s in enumerate(raw.get("signatures") or []):
        where = _("{file}: signatures[{index}]").format(file=file, index=i)
        line = _entry_problem(s, where, entry_problems.get(i, ()), node, pitfalls, True, part=False)
        if line is not None:
            raise DataError(line)
    return _build_base(raw, file)


def _pitfalls(raw: dict) -> Dict[str, Pitfall]:
    return {pid: Pitfall(pid, p.get("title", ""), p.get("advice", ""), p.get("source", ""), p.get("title_zh", ""),
                         p.get("advice_zh", "")) for pid, p in (raw.get("pitfalls") or {}).items()}


def _build_base(raw: dict, file: str) -> KnowledgeBase:
    """The KnowledgeBase of a knowledge_base.json (checked, or shipped); its entries are read as a part's are."""
    if any(not isinstance(s.get("pattern"), str) for s in raw.get("signatures") or []):
        raise KeyError("pattern")  # the base's entries have one (a shipped file without it falls back to the checks)
    return KnowledgeBase(_pitfalls(raw), [_part_signature(s, file) for s in raw.get("signatures") or []])


# ---------------------------------------------------------------------------
# Checking a file
# ---------------------------------------------------------------------------
# A file that is not shipped is walked against its schema in data/ (schema.schema_problems, the one schema engine)
# and each problem worded as one line naming the file, the entry, the field and what was expected
# (_field_problem); then come the checks a schema cannot say: exactly one of all_of / pattern unless derived,
# literals on one line, as many fix_zh steps as fix, a known pitfall, regexes that compile, examples that match and
# near misses that do not, unique ids. One line per bad entry: its first problem, in the order of _FIELD_ORDER.

_FIELD_ORDER = ("id", "", "derived", "title", "component", "class", "severity", "log_sources", "cause", "fix", "fix_zh",
                "source", "pitfall", "regex", "all_of", "pattern", "also", "exclude", "resolved_by", "examples",
                "near_misses", "title_zh", "cause_zh", "source_zh", "example_origin", "notes", "seen_in", "anchors",
                "ascend_fd", "leads_to", "priority", "fallback", "last_resort", "code_line", "exception_under",
                "fail_needs_mark")  # "": a field the schema does not know
_ALL_OF_EXPECTED = N_("{where}.all_of: expected a list of alternatives, each a non-empty list of "
                      "non-empty one-line strings: [[\"a\", \"b\"], [\"c\"]]")


def _rank(field: str) -> int:
    return _FIELD_ORDER.index(field) if field in _FIELD_ORDER else len(_FIELD_ORDER)


def _entry_problem(s, where: str, problems, node: dict, pitfalls: Dict[str, Pitfall], check_regexes: bool,
                   part: bool) -> Optional[str]:
    """The first problem of one entry as one line (None: none), schema problems and the checks a schema cannot say."""
    if not isinstance(s, dict):
        return _("{where}: expected an object").format(where=where)
    fields = [p.expected if p.keyword in ("required", "additionalProperties") else p.path[2] for p in problems]
    if "id" in fields:
        return _("{where}.id: expected an UPPER_SNAKE id, got {value}").format(where=where, value=f"{s.get('id')!r:.60}")
    where = f"{where} ({s['id']})"
    found: List[Tuple[int, str]] = []
    bad: Set[str] = set(fields)
    props = node.get("properties", {})
    for p, field in zip(problems, fields):
        found.append((_rank("" if p.keyword == "additionalProperties" else field),
                      _field_problem(where, field, s, props.get(field, {}), p, pitfalls)))
    derived, all_of, pattern = s.get("derived") is True, s.get("all_of"), s.get("pattern")
    if part and "all_of" not in bad and "pattern" not in bad and "derived" not in bad:
        if derived and (all_of is not None or pattern is not None):
            found.append((_rank("all_of"), _("{where}.derived: expected no all_of/pattern on a derived signature "
                                              "(it matches no line)").format(where=where)))
        elif not derived and (all_of is None) == (pattern is None):
            found.append((_rank("all_of"), _("{where}.all_of: expected exactly one of all_of / pattern (or "
                                              "\"derived\": true)").format(where=where)))
        elif all_of is not None and any("\n" in lit for alt in all_of for lit in alt):
            found.append((_rank("all_of"), _(_ALL_OF_EXPECTED).format(where=where)))
    if part and not derived:
        for field in ("examples", "near_misses"):
            if field not in bad and not s.get(field):
                found.append((_rank(field), _("{where}.{field}: expected at least one line").format(where=where,
                                                                                                 field=field)))
    fix, fix_zh = s.get("fix"), s.get("fix_zh")
    if fix_zh and "fix" not in bad and "fix_zh" not in bad and len(fix_zh) != len(fix):
        found.append((_rank("fix_zh"), _("{where}.fix_zh: expected as many steps as fix ({count}), got {got}").format(
            where=where, count=len(fix), got=len(fix_zh))))
    problem = _placeholder_problem(s, where, bad)
    if problem:
        found.append(problem)
    pitfall = s.get("pitfall")
    if pitfall is not None and "pitfall" not in bad and pitfall not in pitfalls:
        found.append((_rank("pitfall"), _("{where}.pitfall: expected a pitfall id P01..P{last}, got {value}").format(
            where=where, last=f"{len(pitfalls):02d}", value=f"{pitfall!r:.40}")))
    # a user's regexes are compiled here, to name the bad one; the shipped files' are compiled by the test suite
    # (every example is matched), not at every start
    for field, pats in (("pattern", [pattern] if s.get("regex") is True and pattern else []),
                        ("also", s.get("also") or []), ("exclude", s.get("exclude") or []),
                        ("resolved_by", s.get("resolved_by") or []),
                        ("exception_under", s.get("exception_under") or [])):
        for p in pats if check_regexes and field not in bad else ():
            try:
                re.compile(p)
            except re.error as exc:
                found.append((_rank(field), _("{where}.{field}: expected a Python regex, {value} is invalid "
                                              "({reason})").format(where=where, field=field, value=f"{p!r:.60}",
                                                                   reason=exc)))
                break
            wide = non_ascii_class(p)
            if wide:
                found.append((_rank(field), _("{where}.{field}: expected no non-ASCII character inside a [...] class "
                                              "(the log is matched as UTF-8 bytes), got {value}; write alternatives "
                                              "such as (?:'|’)").format(where=where, field=field, value=wide)))
                break
    return min(found, key=lambda x: x[0])[1] if found else None


def non_ascii_class(pattern: str) -> Optional[str]:
    """The first `[...]` class of a regex's source that holds a character outside ASCII (None: none).

    Logs are matched as UTF-8 bytes (Hyperscan, and Python's bytes confirmation), where such a class is a set of
    single bytes: `[‘']` holds the three bytes of `‘`, each alone, and never matches `‘` or `’`. The source is read,
    not Python's parse, which turns an alternation of single characters such as `(?:'|‘)` into a class too."""
    from ..triage.match.literals import regex_classes

    return next((k for k in regex_classes(pattern) if any(ord(ch) > 127 for ch in k)), None)


def _placeholder_problem(s: dict, where: str, bad: Set[str]) -> Optional[Tuple[int, str]]:
    """A `{name|words}` in a text whose name no named group of the entry's patterns captures (nor derives)."""
    pats = ([s.get("pattern")] + list(s.get("also") or []) + list(s.get("exception_under") or [])
            if not bad & {"also", "pattern", "exception_under"} else [])
    names: Set[str] = set()
    for p in pats:
        if isinstance(p, str):
            names.update(group_names(p))
    for n in list(names):
        names.update(DERIVED_NAMES.get(n, ()))
    for field in ("title", "title_zh", "cause", "cause_zh", "fix", "fix_zh"):
        value = s.get(field) if field not in bad else None
        for text in value if isinstance(value, list) else [value]:
            for name in placeholders(text) if isinstance(text, str) else ():
                if name not in names:
                    return (_rank(field), _("{where}.{field}: the placeholder {{{name}|...}} names no named group of "
                                            "the entry's patterns (expected one of: {names})").format(
                        where=where, field=field, name=name, names=", ".join(sorted(names)) or "-"))
    return None


def _field_problem(where: str, field: str, s: dict, node: dict, p, pitfalls: Dict[str, Pitfall]) -> str:
    """One schema problem of an entry's field as one line: where, field, what was expected (and what was found)."""
    if p.keyword == "additionalProperties":
        return _("{where}.{field}: unknown field (expected one of the fields of data/kb_part.schema.json)").format(
            where=where, field=field)
    missing = p.keyword == "required"
    value = None if missing else s.get(field)
    kind = node.get("type")
    if field == "pitfall":
        return _("{where}.pitfall: expected a pitfall id P01..P{last}, got {value}").format(
            where=where, last=f"{len(pitfalls):02d}", value=f"{value!r:.40}")
    if field == "all_of":
        return _(_ALL_OF_EXPECTED).format(where=where)
    if "enum" in node:
        return _("{where}.{field}: expected one of {choices}, got {value}").format(
            where=where, field=field, choices=", ".join(node["enum"]), value=f"{value!r:.40}")
    if kind == "boolean":
        return _("{where}.{field}: expected true or false").format(where=where, field=field)
    if kind == "string":
        count = node.get("minLength", 0)
        if missing:
            return (_("{where}.{field}: missing, expected a string of {count}+ characters") if count > 1 else
                    _("{where}.{field}: missing, expected a string")).format(where=where, field=field, count=count)
        return (_("{where}.{field}: expected a string of {count}+ characters, got {value}") if count > 1 else
                _("{where}.{field}: expected a string, got {value}")).format(where=where, field=field, count=count,
                                                                            value=f"{value!r:.60}")
    if kind == "array":
        items = node.get("items") or {}
        if missing:
            return _("{where}.{field}: missing, expected a non-empty list of strings").format(where=where, field=field)
        if p.keyword == "enum" and "enum" in items:
            return _("{where}.{field}: expected values from {choices}, got {value}").format(
                where=where, field=field, choices=", ".join(items["enum"]), value=f"{p.value!r:.40}")
        if p.keyword == "minItems" and field in ("examples", "near_misses"):
            return _("{where}.{field}: expected at least one line").format(where=where, field=field)
        if p.keyword == "minLength" and p.expected > 1:
            return _("{where}.{field}: expected a list of strings of {count}+ characters, got {value}").format(
                where=where, field=field, count=p.expected, value=f"{p.value!r:.60}")
        return (_("{where}.{field}: expected a non-empty list of non-empty strings") if node.get("minItems") else
                _("{where}.{field}: expected a list of non-empty strings")).format(where=where, field=field)
    from ..schema import json_path, problem_text

    return problem_text(p, json_path(p.path[3:], f"{where}.{field}"))


def _file_problem(file: str, p) -> str:
    """A problem outside the entries, as one line naming the file and the field."""
    from ..schema import json_path, problem_text

    if p.keyword == "additionalProperties" and not p.path:
        return _("{file}: {field}: unknown field (expected one of the fields of data/kb_part.schema.json)").format(
            file=file, field=p.expected)
    if p.path == ("signatures",) and p.keyword == "type":
        return _("{file}: signatures: expected a list").format(file=file)
    return problem_text(p, f"{file}: {json_path(p.path[1:], p.path[0])}" if p.path else file)


def _map_problem(file: str, key: str, our: str, p) -> str:
    """A problem of `existing` / `existing_all_of` ({our signature id: ...}) as one line."""
    if our == "":
        return (_("{file}: existing: expected an object {{our signature id: [ascend-fd ids]}}") if key == "existing" else
                _("{file}: existing_all_of: expected an object {{our signature id: all_of alternatives}}")).format(
                    file=file)
    if p is not None and p.keyword == "propertyNames":
        return _("{file}: {key}.{id}: expected the id of a signature of the knowledge base").format(file=file, key=key,
                                                                                                   id=our)
    if key == "existing":
        return _("{file}: existing.{id}: expected a list of ascend-fd ids").format(file=file, id=our)
    return _("{file}: existing_all_of.{id}: expected a list of alternatives, each a non-empty list "
             "of non-empty one-line strings").format(file=file, id=our)


def _example_problem(sig: Signature, where: str) -> Optional[str]:
    """A user's signature must match each of its examples and none of its near misses."""
    for line in sig.examples:
        if not sig.search(line):
            return _("{where}.examples: expected every example to match, {line} does not").format(
                where=where, line=f"{line!r:.80}")
    for line in sig.near_misses:
        if sig.search(line):
            return _("{where}.near_misses: expected no near miss to match, {line} does").format(
                where=where, line=f"{line!r:.80}")
    return None
