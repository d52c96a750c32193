"""The knowledge-base parts (issue 13): loading and merging data/kb/*.json and the user's --kb files,
all_of matching, one-line errors, `ascend-doctor kb show|search|match`, and the coverage of the
reference's 917 training faults."""

import json
import os
import re

import pytest

from ascend_doctor.render.kb_text import width as _width, wrap_lines as _wrap
from ascend_doctor.render.layout import hold_spans


def _fits(line: str, width: int = 80) -> bool:
    """At most `width` columns, or one token longer than that alone on its line (a URL, a path, a backticked
    command: never cut, so it can be copied back whole), after its list marker or label."""
    if _width(line) <= width:
        return True
    words = hold_spans(line).split()
    return len(words) <= 2 and any(_width(w) > width - 12 for w in words)
from ascend_doctor.data import data_path
from ascend_doctor.kb.load import KbError, load_knowledge_base, part_files
from ascend_doctor.triage.match.scanner import Scanner

from tests.helpers import REFERENCE, run_cli
from tests.helpers.i18n_asserts import assert_shows
from tests.kb.test_model import MATCHERS, _check_value

PART_SCHEMA = json.load(open(data_path("kb_part.schema.json"), encoding="utf-8"))


def _sig(sid, **kw):
    s = {"id": sid, "ascend_fd": ["FD_TEST_01"], "title": "Test fault", "title_zh": "测试故障",
         "all_of": [["rtStreamSynchronize failed", "ERROR"], ["TEST_FAULT_CODE_77"]],
         "component": "cann", "log_sources": ["plog"], "class": "root", "severity": "fail",
         "cause": "A test cause that is long enough to pass.", "cause_zh": "测试原因：流同步失败，用于单元测试。",
         "fix": ["Run `npu-smi info`.", "Collect with `ascend-doctor collect --logs DIR`."],
         "fix_zh": ["执行 `npu-smi info`。", "用 `ascend-doctor collect --logs DIR` 收集日志。"],
         "source": "tests/commands/test_kb.py (made up)", "example_origin": "composed",
         "examples": ["[ERROR] RUNTIME(1,python):2024 rtStreamSynchronize failed, ret=507011"],
         "near_misses": ["[INFO] RUNTIME(1,python):2024 rtStreamSynchronize failed once, retried"]}
    s.update(kw)
    return {k: v for k, v in s.items() if v is not None}


def _part(tmp_path, sigs, name="user.json", existing=None):
    path = tmp_path / name
    doc = {"schema": "ascend-doctor.kb-part/1", "part": "test", "signatures": sigs}
    if existing is not None:
        doc["existing"] = existing
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return str(path)


def _kb(tmp_path, sigs, existing=None, **kw):
    return load_knowledge_base(parts=[], extra=[_part(tmp_path, sigs, existing=existing)], **kw)


# ---- loader ----

def test_part_merges_with_ours_and_maps_existing_fd_ids(tmp_path):
    kb = _kb(tmp_path, [_sig("TEST_STREAM_SYNC")], existing={"CANN_ENV_LIB_NOT_FOUND": ["FD_LIB_1", "FD_LIB_2"]})
    sig = kb.signature("TEST_STREAM_SYNC")
    assert sig.ascend_fd == ["FD_TEST_01"] and sig.title_zh == "测试故障" and len(sig.fix_zh) == 2
    ours = kb.signature("CANN_ENV_LIB_NOT_FOUND")
    assert {"FD_LIB_1", "FD_LIB_2"} <= set(ours.ascend_fd)
    assert kb.by_ascend_fd("FD_LIB_2") == [ours]
    assert len(kb.signatures) == len(load_knowledge_base(parts=[]).signatures) + 1


def test_all_of_needs_every_literal_of_one_alternative_in_one_line(tmp_path):
    kb = _kb(tmp_path, [_sig("TEST_STREAM_SYNC")])
    sig = kb.signature("TEST_STREAM_SYNC")
    assert sig.search("x ERROR y rtStreamSynchronize failed z")  # any order
    assert sig.search("only TEST_FAULT_CODE_77 here")  # the second alternative alone
    assert not sig.search("rtStreamSynchronize failed without the level")
    assert not sig.search("ERROR alone")
    # the scanner's anchor of an alternative is its most selective literal, not "ERROR"
    assert sig.scan_literals() == [b"TEST_FAULT_CODE_77", b"rtStreamSynchronize failed"]
    for matcher in MATCHERS:
        scanner = Scanner(kb.signatures, matchers=[matcher])
        idx = kb.signatures.index(sig)
        buf = b"noise ERROR line\nERROR: rtStreamSynchronize failed\nrtStreamSynchronize failed\n"
        assert [(ls, hits) for ls, _, hits in scanner.scan(buf) if idx in hits] == [(17, [idx])], matcher


def test_derived_signature_matches_no_line_and_needs_no_pattern(tmp_path):
    derived = _sig("TEST_DERIVED", all_of=None, examples=None, near_misses=None, derived=True, ascend_fd=["FD_D"])
    cause = _sig("TEST_CAUSE", leads_to=["FD_D"])
    kb = _kb(tmp_path, [cause, derived])
    d = kb.signature("TEST_DERIVED")
    assert d.derived and not d.search("anything at all") and d.scan_literals() == []
    assert Scanner(kb.signatures).unanchored == []


def _errors(tmp_path, sigs, **kw):
    with pytest.raises(KbError) as exc:
        _kb(tmp_path, sigs, **kw).signatures
    return exc.value.errors


def test_bad_entries_give_one_line_each_naming_file_entry_field_and_expectation(tmp_path):
    bad = [
        _sig("TEST_OK"),
        _sig("TEST_BAD_COMPONENT", component="gpu"),
        _sig("TEST_BAD_SOURCE", log_sources=["syslog"]),
        _sig("TEST_BAD_ALL_OF", all_of=["flat", "list"]),
        _sig("TEST_BOTH", pattern="x"),
        _sig("TEST_FIX_ZH", fix_zh=["只有一步"]),
        _sig("TEST_SHORT_CAUSE", cause="short"),
        _sig("TEST_BAD_REGEX", all_of=None, pattern="(unclosed", regex=True),
        _sig("TEST_EXAMPLE", examples=["this line does not match"]),
        _sig("TEST_TYPO", all_off=[["x"]]),
        _sig("lower_case_id"),
        _sig("TEST_OK"),
    ]
    errors = _errors(tmp_path, bad)
    assert len(errors) == len(bad) - 1, errors  # one line per bad entry, none for the good one
    for line in errors:
        assert "\n" not in line and "user.json: signatures[" in line and "expected" in line, line
    fields = [re.search(r"\)\.(\w+)|\]\.(\w+)", e).group(1) or re.search(r"\]\.(\w+)", e).group(1) for e in errors]
    assert fields == ["component", "log_sources", "all_of", "all_of", "fix_zh", "cause", "pattern", "examples",
                      "all_off", "id", "id"]
    assert "signatures[11] (TEST_OK).id: expected a unique id" in errors[-1]


def test_duplicate_of_our_id_and_unknown_existing_target(tmp_path):
    errors = _errors(tmp_path, [_sig("CANN_ENV_LIB_NOT_FOUND")], existing={"NO_SUCH_SIGNATURE": ["FD_X"]})
    assert any("(CANN_ENV_LIB_NOT_FOUND).id: expected a unique id" in e and "knowledge_base.json" in e
               for e in errors), errors
    assert any("existing.NO_SUCH_SIGNATURE: expected the id of a signature" in e for e in errors), errors


def test_broken_file_is_one_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"schema": "ascend-doctor.kb-part/1", "signatures": [', encoding="utf-8")
    with pytest.raises(KbError) as exc:
        load_knowledge_base(parts=[], extra=[str(path)]).signatures
    assert len(exc.value.errors) == 1 and "broken.json: line 1" in exc.value.errors[0]
    path.write_text('{"schema": "ascend-doctor.kb/1"}', encoding="utf-8")
    with pytest.raises(KbError, match="field 'schema' must be 'ascend-doctor.kb-part/1'"):
        load_knowledge_base(parts=[], extra=[str(path)]).signatures


def test_parts_are_read_only_when_signatures_are_used(tmp_path):
    """`check` needs the pitfalls only: a part is not even parsed until .signatures."""
    path = tmp_path / "broken.json"
    path.write_text("not json", encoding="utf-8")
    kb = load_knowledge_base(parts=[str(path)])
    assert kb.pitfall("P08").title  # fine
    with pytest.raises(KbError):
        kb.signatures


def test_check_does_not_read_the_users_kb_files(tmp_path):
    proc = run_cli("check", "--bundle", "tests/fixtures/a2_healthy", "--format", "json",
                   env={"ASCEND_DOCTOR_KB": str(tmp_path / "missing.json")})
    assert proc.returncode in (0, 1), proc.stderr


# ---- --kb and ASCEND_DOCTOR_KB ----

def test_triage_with_kb_file_and_env(tmp_path):
    part = _part(tmp_path, [_sig("TEST_STREAM_SYNC")])
    log = tmp_path / "plog-1.log"
    log.write_text("[INFO] fine\n[ERROR] RUNTIME(1,python):2024 rtStreamSynchronize failed, ret=507011\n")
    plain = json.loads(run_cli("triage", str(log), "--format", "json").stdout)
    assert "TEST_STREAM_SYNC" not in {p["id"] for p in plain["problems"]}
    proc = run_cli("triage", str(log), "--format", "json", "--kb", part)
    assert proc.returncode == 1 and "TEST_STREAM_SYNC" in {p["id"] for p in json.loads(proc.stdout)["problems"]}
    other = _part(tmp_path, [_sig("TEST_OTHER", all_of=[["ret=507011"]], examples=["x ret=507011"],
                                  near_misses=["ret=5070"])], name="other.json")
    proc = run_cli("triage", str(log), "--format", "json", "--kb", part,
                   env={"ASCEND_DOCTOR_KB": os.pathsep.join([other, ""])})
    assert {"TEST_STREAM_SYNC", "TEST_OTHER"} <= {p["id"] for p in json.loads(proc.stdout)["problems"]}


def test_bad_kb_file_exits_2_with_one_line_per_bad_entry(tmp_path):
    part = _part(tmp_path, [_sig("TEST_A", severity="fatal"), _sig("TEST_B"), _sig("TEST_C", component="gpu")])
    for argv in (["triage", "-", "--kb", part], ["kb", "search", "x", "--kb", part]):
        proc = run_cli(*argv, input="")
        assert proc.returncode == 2
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert "signatures[0] (TEST_A).severity: expected one of fail, warn, info" in lines[0]
        assert "signatures[2] (TEST_C).component: expected one of" in lines[1]
    proc = run_cli("kb", "show", "P08", env={"ASCEND_DOCTOR_KB": str(tmp_path / "nope.json")})
    assert proc.returncode == 2 and "nope.json: cannot read" in proc.stderr


# ---- kb show / search / match ----

def test_kb_show_our_id_pitfall_and_ascend_fd_id(tmp_path):
    part = _part(tmp_path, [_sig("TEST_STREAM_SYNC", ascend_fd=["AISW_TEST_FD_9"], pitfall="P13")])
    proc = run_cli("kb", "show", "TEST_STREAM_SYNC", "--kb", part)
    assert proc.returncode == 0 and "TEST_STREAM_SYNC" in proc.stdout and "Run `npu-smi info`." in proc.stdout
    assert all(len(line) <= 80 for line in proc.stdout.splitlines()), proc.stdout
    zh = run_cli("kb", "show", "AISW_TEST_FD_9", "--kb", part, "--lang", "zh")
    assert "测试原因" in zh.stdout and "执行 `npu-smi info`。" in zh.stdout and "修复步骤：" in zh.stdout
    data = json.loads(run_cli("kb", "show", "aisw_test_fd_9", "--kb", part, "--format", "json").stdout)
    assert [s["id"] for s in data["signatures"]] == ["TEST_STREAM_SYNC"]
    data = json.loads(run_cli("kb", "show", "P13", "--kb", part, "--format", "json").stdout)
    assert data["pitfall"]["id"] == "P13" and "TEST_STREAM_SYNC" in [s["id"] for s in data["signatures"]]
    # a signature with no Chinese text falls back to English
    en_only = _part(tmp_path, [_sig("TEST_EN_ONLY", title_zh=None, cause_zh=None, fix_zh=None)], name="en.json")
    zh = run_cli("kb", "show", "TEST_EN_ONLY", "--kb", en_only, "--lang", "zh")
    assert "A test cause" in zh.stdout
    proc = run_cli("kb", "show", "NOT_AN_ID_ANYWHERE")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_kb_search_en_and_zh(tmp_path):
    part = _part(tmp_path, [_sig("TEST_STREAM_SYNC")])
    proc = run_cli("kb", "search", "hccl", "timeout")
    assert proc.returncode == 0 and "HCCL_EI0006_SOCKET_TIMEOUT" in proc.stdout
    assert all(len(line) <= 80 for line in proc.stdout.splitlines())
    data = json.loads(run_cli("kb", "search", "测试原因", "--kb", part, "--format", "json").stdout)
    assert [r["id"] for r in data["results"]] == ["TEST_STREAM_SYNC"]
    assert run_cli("kb", "search", "zzzz-no-such-word").returncode == 1


def test_kb_match_json_shape_and_zh(tmp_path):
    part = _part(tmp_path, [_sig("TEST_STREAM_SYNC")])
    text = ("[INFO] all good\n"
            "ImportError: libascendcl.so: cannot open shared object file: No such file or directory\n"
            "[ERROR] RUNTIME(1,python):2024 rtStreamSynchronize failed\n")
    proc = run_cli("kb", "match", "-", "--format", "json", "--kb", part, input=text)
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert list(data) == ["lines"] and [row["line"] for row in data["lines"]] == [1, 2, 3]
    assert data["lines"][0]["matches"] == []
    for row in data["lines"]:
        assert list(row) == ["line", "matches"]
        for m in row["matches"]:
            assert list(m) == ["id", "ascend_fd", "severity", "cause", "fix", "i18n"]  # i18n: where the words come from
            assert isinstance(m["ascend_fd"], list) and isinstance(m["fix"], list)
    assert [m["id"] for m in data["lines"][1]["matches"]] == ["CANN_ENV_LIB_NOT_FOUND"]
    assert data["lines"][2]["matches"][0]["ascend_fd"] == ["FD_TEST_01"]
    zh = json.loads(run_cli("kb", "match", "-", "--format", "json", "--kb", part, "--lang", "zh", input=text).stdout)
    assert zh["lines"][2]["matches"][0]["cause"].startswith("测试原因")
    log = tmp_path / "excerpt.log"
    log.write_text(text)
    out = run_cli("kb", "match", str(log), "--kb", part).stdout
    assert "line 2:" in out and "line 3:" in out and "line 1:" not in out
    assert all(len(line) <= 80 for line in out.splitlines()), out
    assert run_cli("kb", "match", "-", input="nothing here\n").returncode == 0
    assert run_cli("kb", "match", str(tmp_path / "nope.log")).returncode == 2


# ---- the shipped parts ----

SHIPPED = part_files()


@pytest.mark.parametrize("path", SHIPPED or [pytest.param(None, marks=pytest.mark.skip(reason="no data/kb part yet"))])
def test_shipped_part_follows_the_schema_and_its_examples(path):
    raw = json.load(open(path, encoding="utf-8"))
    assert _check_value(raw, PART_SCHEMA, os.path.basename(path)) == []
    kb = load_knowledge_base()
    han = re.compile(r"[\u4e00-\u9fff]")
    problems = []
    scanner = kb.scanner()
    for entry in raw["signatures"]:
        sig = kb.signature(entry["id"])
        # ascend-fd's faults carry its ids; field_cases.json and the families_*.json parts hold our own signatures,
        # which carry an id only where that id's own rule holds on their lines (none so far)
        if not sig.ascend_fd and raw.get("part") != "field_cases" and not raw.get("part", "").startswith("families_"):
            problems.append(f"{sig.id}: no ascend_fd id")
        if not (han.search(sig.title_zh) and han.search(sig.cause_zh) and any(han.search(x) for x in sig.fix_zh)):
            problems.append(f"{sig.id}: title_zh/cause_zh/fix_zh not written in Chinese")
        if len(sig.fix_zh) != len(sig.fix):
            problems.append(f"{sig.id}: fix and fix_zh differ in length")
        if sig.derived:
            continue
        idx = kb.signatures.index(sig)
        for ex in sig.examples:
            if not sig.search(ex) or idx not in scanner.match_line(ex.encode("utf-8")):
                problems.append(f"{sig.id}: example does not match: {ex[:100]}")
        for nm in sig.near_misses:
            if sig.search(nm):
                problems.append(f"{sig.id}: near miss matches: {nm[:100]}")
    assert not problems, "\n".join(problems[:50])


def test_every_anchor_of_the_parts_is_usable():
    kb = load_knowledge_base()
    scanner = kb.scanner()
    # a regex with no literal (an error-code shape) gets its own regex pass; an all_of one always has a literal
    assert [kb.signatures[i].id for i in scanner.unanchored if kb.signatures[i].all_of] == []
    assert len(scanner.unanchored) <= 5, [kb.signatures[i].id for i in scanner.unanchored]
    ours = {s.id for s in load_knowledge_base(parts=[]).signatures}
    short = sorted({(kb.signatures[i].id, lit) for lit, ids in scanner.lit_sigs.items() for i in ids
                    if len(lit) < 4 and kb.signatures[i].id not in ours})
    assert not short, f"all_of alternatives with no literal of 4+ bytes fire on most lines: {short[:20]}"


def test_new_signatures_stay_quiet_on_the_healthy_fixture_logs():
    """Many ascend-fd strings are loose: the parts (new signatures, and fd strings added to ours) must not
    make anything fire on the files of healthy fixtures that did not fire without them."""
    kb = load_knowledge_base()
    base = load_knowledge_base(parts=[])
    hits = []
    root = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")
    for fixture in ("a2_healthy", "cpu_only", "gpu_node", "distributed_910b_node", "a3_node", "infer_310p"):
        for dirpath, _, files in os.walk(os.path.join(root, fixture)):
            for name in files:
                path = os.path.join(dirpath, name)
                try:
                    text = open(path, encoding="utf-8").read()
                except (UnicodeDecodeError, OSError):
                    continue
                for n, line in enumerate(text.splitlines(), 1):
                    before = {s.id for s in base.match_line(line)}
                    for sig in kb.match_line(line):
                        if sig.id not in before and sig.severity != "info":
                            hits.append(f"{sig.id} on {os.path.relpath(path, root)}:{n}: {line[:120]}")
    assert not hits, "\n".join(hits[:40])


# ---- coverage of the reference's 917 training faults ----

def _facts():
    for base in (REFERENCE, os.path.join(os.path.dirname(os.path.dirname(REFERENCE)), "..", "shared", "reference"),
                 "/work/shared/reference"):
        path = os.path.join(base, "ascend_fd_kb_facts.json")
        if os.path.isfile(path):
            return json.load(open(path, encoding="utf-8"))["entries"]
    pytest.skip("reference/ascend_fd_kb_facts.json is not next to this checkout")


def _alternatives(entry):
    a = entry.get("all_of") or []
    return [a] if a and isinstance(a[0], str) else [list(x) for x in a]


def example_from_regex(pattern):
    """A short string the regex matches (None when this simple walker cannot build one)."""
    try:
        import re._parser as sre  # type: ignore[import]
        import re._constants as c  # type: ignore[import]
    except ImportError:  # Python < 3.11
        import sre_constants as c  # type: ignore[no-redef]
        import sre_parse as sre  # type: ignore[no-redef]

    def one_of(items):
        for op, av in items:
            if op is c.LITERAL:
                return chr(av)
            if op is c.RANGE:
                return chr(av[0])
            if op is c.CATEGORY:
                return {c.CATEGORY_DIGIT: "0", c.CATEGORY_SPACE: " "}.get(av, "a")
        return "a"

    def walk(items):
        out = ""
        for op, av in items:
            if op is c.LITERAL:
                out += chr(av)
            elif op is c.NOT_LITERAL:
                out += "x" if chr(av) != "x" else "y"
            elif op is c.ANY:
                out += "x"
            elif op is c.IN:
                if av and av[0][0] is c.NEGATE:
                    excluded = {chr(v) for o, v in av[1:] if o is c.LITERAL}
                    out += next(ch for ch in "x0 #" if ch not in excluded)
                else:
                    out += one_of(av)
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
                out += walk(list(av[2])) * av[0]
            elif op is c.SUBPATTERN:
                out += walk(list(av[3]))
            elif op is c.BRANCH:
                out += walk(list(av[1][0]))
        return out

    try:
        text = walk(list(sre.parse(pattern)))
    except Exception:
        return None
    return text if re.search(pattern, text) else None


def _best_alternative_line(kb, fd, alts):
    """The first alternative whose joined strings a signature carrying `fd` matches (None: none does)."""
    carriers = kb.by_ascend_fd(fd)
    for alt in alts:
        text = " ".join(alt)
        if any(sig.search(text) for sig in carriers):
            return text
        # an alternative tightened in our all_of (strings added to a too-loose fd one): ours, with the fd's
        for sig in carriers:
            for ours in sig.all_of:
                if set(alt) < set(ours):
                    longer = " ".join(alt + [x for x in ours if x not in alt])
                    if sig.search(longer):
                        return longer
    return None


def _full_form_line(kb, fd, alts):
    """(line, signature): an example line of a signature carrying `fd` that contains every string of one fd
    alternative - the message in full, for a signature whose regex asks for more than the fd's strings
    (a word boundary, the asserted state, the real punctuation). The signature's notes must say it tightened."""
    for sig in kb.by_ascend_fd(fd):
        if "tighten" not in (sig.notes or "").lower():
            continue
        for line in sig.examples:
            if any(all(x in line for x in alt) for alt in alts) and sig.search(line):
                return line, sig
    return None


def coverage_report(kb_args=()):
    """{fd id: (status, why)} for every reference entry, by driving one line per entry through `kb match`."""
    facts = _facts()
    kb = load_knowledge_base()
    lines, owner = [], []
    status = {}
    for e in facts:
        alts = _alternatives(e)
        if alts:
            # one line per alternative (the reference's own equivalent telling forms): any may be recognised
            text = _best_alternative_line(kb, e["id"], alts)
            if text is None:  # ours needs more than the fd strings: a real line of the message carries them
                full = _full_form_line(kb, e["id"], alts)
                if full is not None:
                    text, sig = full
                    status[e["id"]] = ("tightened", f"{sig.id} needs the message's full form (its notes say why)")
                else:
                    text = " ".join(alts[0])
        elif e.get("regex"):
            text = example_from_regex(e["regex"])
            if text is None:
                status[e["id"]] = ("missing", "no line could be built from its regex")
                continue
        else:
            derived = [s.id for s in kb.by_ascend_fd(e["id"]) if s.derived]
            status[e["id"]] = ("derived", f"no telling strings; carried by {derived[0]}" if derived
                               else "no telling strings and no derived signature carries it")
            continue
        lines.append(text)
        owner.append(e)
    proc = run_cli("kb", "match", "-", "--format", "json", *kb_args, input="\n".join(lines) + "\n", timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    rows = json.loads(proc.stdout)["lines"]
    assert len(rows) == len(lines)
    for e, row in zip(owner, rows):
        fd = e["id"]
        if any(fd in m["ascend_fd"] for m in row["matches"]):
            status.setdefault(fd, ("matched", ""))
        else:
            got = ", ".join(m["id"] for m in row["matches"]) or "nothing"
            carried = [s.id for s in kb.by_ascend_fd(fd)]
            why = (f"its line matches {got}; {', '.join(carried)} carries the id but does not match it" if carried
                   else f"no signature carries it (its line matches {got})")
            status[fd] = ("missing", why)
    return facts, status


def test_kb_recognises_the_reference_training_faults():
    facts, status = coverage_report()
    by = {}
    for fd, (st, _) in status.items():
        by.setdefault(st, []).append(fd)
    covered = len(by.get("matched", [])) + len(by.get("tightened", []))
    total = len(facts)
    comp = {e["id"]: e["component"] for e in facts}
    missing = sorted(by.get("missing", []), key=lambda fd: (comp[fd], fd))
    per_comp = {}
    for fd in missing:
        per_comp[comp[fd]] = per_comp.get(comp[fd], 0) + 1
    report = [f"coverage {covered}/{total} = {covered / total:.1%} (target >= 95%): "
              f"{len(by.get('matched', []))} matched by the fd strings, {len(by.get('tightened', []))} after our "
              f"tightening, {len(by.get('derived', []))} derived (no telling strings), {len(missing)} missing "
              f"(by component: {per_comp})"]
    report += [f"  derived {fd}: {status[fd][1]}" for fd in sorted(by.get("derived", []))]
    report += [f"  MISSING {comp[fd]} {fd}: {status[fd][1]}" for fd in missing[:60]]
    if len(missing) > 60:
        report.append(f"  ... and {len(missing) - 60} more")
    print("\n".join(report))
    assert covered >= 0.95 * total, "\n".join(report)


def test_kb_show_in_chinese_prints_our_pitfall_and_signature_texts():
    raw = json.load(open(data_path("knowledge_base.json"), encoding="utf-8"))
    p08 = raw["pitfalls"]["P08"]
    proc = run_cli("kb", "show", "P08", "--lang", "zh")
    assert proc.returncode == 0 and p08["title_zh"] in proc.stdout
    assert "".join(p08["advice_zh"].split()) in "".join(proc.stdout.split())
    assert p08["title"] not in proc.stdout and p08["advice"] not in proc.stdout
    assert all(_fits(line) for line in proc.stdout.splitlines()), proc.stdout
    data = json.loads(run_cli("kb", "show", "P08", "--lang", "zh", "--format", "json").stdout)
    assert data["pitfall"] == {"id": "P08", "title": p08["title_zh"], "advice": p08["advice_zh"],
                               "i18n": {"title": {"kb": "P08", "field": "title"},
                                        "advice": {"kb": "P08", "field": "advice"}}}
    assert json.loads(run_cli("kb", "show", "P08", "--format", "json").stdout)["pitfall"]["title"] == p08["title"]
    sig = next(s for s in raw["signatures"] if s.get("pitfall") == "P08" and s.get("cause_zh"))
    data = json.loads(run_cli("kb", "show", sig["id"], "--lang", "zh", "--format", "json").stdout)
    assert data["signatures"][0]["cause"] == sig["cause_zh"] and data["signatures"][0]["fix"] == sig["fix_zh"]
    text = run_cli("kb", "show", sig["id"], "--lang", "zh").stdout
    from ascend_doctor.kb.load import load_knowledge_base

    title_zh = load_knowledge_base().signature(sig["id"]).text("zh")[0]  # its `{lib||...}` placeholder, with no line
    assert "常见问题：P08 " + p08["title_zh"] in text and title_zh in text and "{" not in title_zh


def test_chinese_text_wraps_at_80_terminal_columns_and_keeps_every_character():
    """A wide (CJK) character takes two columns and Chinese has no spaces to break at: `_wrap` breaks
    between characters, never before closing punctuation, and loses nothing."""
    kb = load_knowledge_base()
    texts = [t for s in kb.signatures for t in [s.title_zh, s.cause_zh, *s.fix_zh] if t]
    texts += [t for p in kb.pitfalls.values() for t in (p.title_zh, p.advice_zh) if t]
    assert len(texts) > 1000
    problems = []
    for text in texts:
        lines = _wrap(text, "       ", "    1. ")
        if not all(_fits(line) for line in lines):
            problems.append(f"too wide: {text[:60]}")
        if any(line.strip()[:1] in set("，。；：、）") for line in lines[1:]):
            problems.append(f"line starts with closing punctuation: {text[:60]}")
        if "".join("".join(lines).split()) != "1." + "".join(text.split()):
            problems.append(f"characters lost or changed: {text[:60]}")
    assert not problems, "\n".join(problems[:20])
    assert _wrap("中" * 100, "  ") == ["  " + "中" * 39, "  " + "中" * 39, "  " + "中" * 22]
    assert _wrap("a b", "  ") == ["  a b"]  # English goes through textwrap as before


def test_sources_shown_to_users_never_cite_files_they_do_not_have():
    """Issue 11: a problem cited reference/error_signatures.md, a file not in the package. Every signature's shown
    source names what a user can open (a doc, a repository file, a URL), never the research notes."""
    kb = load_knowledge_base()
    # (a URL's own path may hold `/reference/`, e.g. Docker's CLI reference; the notes are cited without a host)
    bad = [(s.id, s.public_source()) for s in kb.signatures if re.search(r"(?<![/\w.-])reference/", s.public_source())]
    assert not bad, bad[:5]
    fd = next(s for s in kb.signatures if s.ascend_fd and "kg-config.json" in s.source)
    assert "github.com/Ascend/mind-cluster" in fd.public_source()


@pytest.mark.parametrize("path", SHIPPED or [pytest.param(None, marks=pytest.mark.skip(reason="no data/kb part yet"))])
def test_shipped_parts_read_fast_as_checked(path):
    """A shipped part is read without the per-field checks (parse_part(trusted=True)): it must give exactly what
    the checks give, and pass them."""
    from ascend_doctor.kb.load import parse_part

    raw = json.load(open(path, encoding="utf-8"))
    pitfalls = load_knowledge_base(parts=[]).pitfalls
    checked = parse_part(raw, path, pitfalls, check_examples=True)
    fast = parse_part(raw, path, pitfalls, trusted=True)
    assert checked[2] == [] and fast[2] == []
    assert [i for i, _ in fast[0]] == [i for i, _ in checked[0]] and fast[1] == checked[1]
    for (_, a), (_, b) in zip(fast[0], checked[0]):
        b._compiled, b._compiled_excl = None, None  # the check compiled b's regexes to match its examples
        assert a == b, a.id


def test_a_part_the_fast_read_cannot_take_gets_the_checks(tmp_path):
    from ascend_doctor.kb.load import parse_part

    raw = {"schema": "ascend-doctor.kb-part/1", "signatures": [{"id": "X_ONE", "title": "t"}]}
    sigs, _, errs = parse_part(raw, "x.json", {}, trusted=True)
    assert sigs == [] and errs and "X_ONE" in errs[0]


def test_kb_match_names_no_fault_from_a_pid_and_only_the_peer_ids_the_line_supports(tmp_path):
    """issue 21: a code-like pid on an INFO line matches nothing (exit 0); a peer id only where its rule holds."""
    info = tmp_path / "info.log"
    info.write_text("[INFO] HCCL(507010,python):2024-07-12-10:21:33.512.118 [op_base.cc:1540][507010]"
                    "[Entry-HcclCommInitRootInfo]rootInfo[...]\nepoch: 1 step: 507008, loss is 0.532\n")
    proc = run_cli("kb", "match", str(info))
    assert proc.returncode == 0
    assert_shows(proc.stdout, "no line matches a known signature")
    errors = tmp_path / "errors.log"
    errors.write_text("EZ9999: Inner Error!\nE19999: Inner Error!\n")
    rows = json.loads(run_cli("kb", "match", str(errors), "--format", "json").stdout)["lines"]
    fd = [{m["id"]: m["ascend_fd"] for m in r["matches"]} for r in rows]
    assert fd[0]["CANN_INNER_ERROR_X9999"] == [] and fd[1]["CANN_INNER_ERROR_X9999"] == ["AISW_MindSpore_Frontend_07"]
    assert fd[0]["CANN_DRV_ERROR_CODE_REPORTED"] == ["AISW_CANN_ERRCODE_Custom_EZ9999"]


@pytest.mark.parametrize("zh, en", [
    (["超时"], ["timeout"]), (["链路"], ["link"]), (["内存"], ["memory"]), (["未", "source"], ["not", "sourced"]),
    (["版本不匹配"], ["version", "mismatch"]),
])
def test_kb_search_in_chinese_finds_what_its_english_twin_finds(zh, en):
    """The common faults (issue 27): a support engineer searching in Chinese gets the same entries."""
    zh_ids = [r["id"] for r in json.loads(run_cli("kb", "search", *zh, "--format", "json", "--lang", "zh").stdout)["results"]]
    en_ids = [r["id"] for r in json.loads(run_cli("kb", "search", *en, "--format", "json").stdout)["results"]]
    assert en_ids and zh_ids == en_ids


def test_kb_search_timeout_in_chinese_names_the_notify_wait_timeout_in_its_title():
    out = run_cli("kb", "search", "超时", "--lang", "zh").stdout
    assert "HCCL_EI0002_NOTIFY_WAIT_TIMEOUT" in out
    data = json.loads(run_cli("kb", "show", "HCCL_EI0002_NOTIFY_WAIT_TIMEOUT", "--lang", "zh", "--format", "json").stdout)
    assert "超时" in data["signatures"][0]["title"]
