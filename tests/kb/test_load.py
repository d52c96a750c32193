"""kb/load.py: a file that is not shipped is checked against its schema in data/ (through schema.py, the one schema
engine) and each problem is one line naming the file, the entry, the field and what was expected."""

import copy
import json

import pytest

from ascend_doctor import data
from ascend_doctor.data import DataError, data_path, load_data_file
from ascend_doctor.kb.load import KbError, load_knowledge_base, parse_knowledge_base, parse_part

PART = "ascend-doctor.kb-part/1"
RAW = json.load(open(data_path("knowledge_base.json"), encoding="utf-8"))
PITFALLS = load_knowledge_base(parts=[]).pitfalls


def _entry(**kw):
    s = {"id": "MY_SIG", "title": "A title", "component": "cann", "log_sources": ["plog"], "severity": "fail",
         "cause": "A test cause that is long enough to pass.", "fix": ["Run it."], "source": "made up source",
         "all_of": [["foo bar"]], "examples": ["x foo bar"], "near_misses": ["foo"]}
    s.update(kw)
    return {k: v for k, v in s.items() if v is not None}


def _errors(*entries, **top):
    raw = dict({"schema": PART, "signatures": list(entries)}, **top)
    return parse_part(raw, "mine.json", PITFALLS, check_examples=True)[2]


def test_a_good_entry_passes_and_class_defaults_to_root():
    sigs, _, errs = parse_part({"schema": PART, "signatures": [_entry()]}, "mine.json", PITFALLS, check_examples=True)
    assert errs == [] and sigs[0][1].kind == "root" and sigs[0][1].origin == "mine.json"


def test_a_file_of_mappings_only_needs_no_signatures():
    raw = {"schema": PART, "existing": {"CANN_ENV_LIB_NOT_FOUND": ["FD_X"]}}
    assert parse_part(raw, "m.json", PITFALLS) == ([], [("existing", "CANN_ENV_LIB_NOT_FOUND", ["FD_X"])], [])


@pytest.mark.parametrize("change,line", [
    ({"priority": "P9"}, "mine.json: signatures[0] (MY_SIG).priority: expected one of P1, P2, P3, got 'P9'"),
    ({"anchors": ["a"]}, "mine.json: signatures[0] (MY_SIG).anchors: expected a list of strings of 2+ characters, "
                         "got 'a'"),
    ({"examples": []}, "mine.json: signatures[0] (MY_SIG).examples: expected at least one line"),
    ({"component": None}, "mine.json: signatures[0] (MY_SIG).component: expected one of driver, cann, hccl, "
                          "mindspore, pytorch, atc, cuda, python, os, npu, server, network, mindx, got None"),
    ({"log_sources": ["syslog"]}, "mine.json: signatures[0] (MY_SIG).log_sources: expected values from train, "
                                  "plog, device, npu_os, npu_host, npu_history, os, bmc, mindx, switch, amct, "
                                  "got 'syslog'"),
])
def test_each_schema_problem_is_one_line_with_file_entry_field_and_expectation(change, line):
    assert _errors(_entry(**change)) == [line]


def test_a_field_outside_the_entries_is_named_too():
    assert _errors(_entry(), notes="x") == [
        "mine.json: notes: unknown field (expected one of the fields of data/kb_part.schema.json)"]
    assert _errors(_entry(), existing={"lower": ["FD"]}) == [
        "mine.json: existing.lower: expected the id of a signature of the knowledge base"]


def test_the_checks_are_the_schema_files(monkeypatch):
    """The schema in data/ decides: a component the schema gains is accepted without a change to the loader."""
    assert _errors(_entry(component="gpu"))
    schema = copy.deepcopy(load_data_file("kb_part.schema.json"))
    schema["properties"]["signatures"]["items"]["properties"]["component"]["enum"].append("gpu")
    monkeypatch.setitem(data._loaded, "kb_part.schema.json", schema)
    assert _errors(_entry(component="gpu")) == []


def test_a_checked_knowledge_base_gives_what_the_trusted_read_gives():
    checked, trusted = parse_knowledge_base(RAW, "kb.json"), parse_knowledge_base(RAW, "kb.json", trusted=True)
    assert checked.pitfalls == trusted.pitfalls
    for a, b in zip(checked.signatures, trusted.signatures):
        a._compiled, a._compiled_excl = None, None
        assert a == b, a.id
    assert len(checked.signatures) == len(trusted.signatures) == len(RAW["signatures"])


def test_a_bad_knowledge_base_raises_its_first_problem_as_one_line():
    bad = copy.deepcopy(RAW)
    del bad["signatures"][1]["fix"]
    bad["signatures"][4]["severity"] = "fatal"
    sid = bad["signatures"][1]["id"]
    with pytest.raises(DataError, match=rf"^kb.json: signatures\[1\] \({sid}\)\.fix: missing, expected a non-empty "
                                        r"list of strings$"):
        parse_knowledge_base(bad, "kb.json")
    with pytest.raises(DataError, match="^kb.json: field 'schema' must be 'ascend-doctor.kb/1'$"):
        parse_knowledge_base(dict(bad, schema="kb/0"), "kb.json")


def test_a_users_kb_file_is_checked_when_its_signatures_are_read(tmp_path):
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"schema": PART, "signatures": [_entry(priority="P9")]}))
    with pytest.raises(KbError, match=r"priority: expected one of P1, P2, P3"):
        load_knowledge_base(parts=[], extra=[str(mine)]).signatures


def test_a_placeholder_must_name_a_group_of_the_entry_patterns():
    ok = _entry(all_of=None, pattern="No module named '(?P<module>\\w+)'", regex=True,
                examples=["No module named 'x'"], title="Module{module|| (`%s`)} missing",
                fix=["import {module|<module>|%s}"])
    assert _errors(ok) == []
    bad = dict(ok, cause="The {tool|tool} is missing from the node.")
    assert _errors(bad) == ["mine.json: signatures[0] (MY_SIG).cause: the placeholder {tool|...} names no named "
                            "group of the entry's patterns (expected one of: module)"]
    derived = _entry(all_of=None, pattern="ret=(?P<acl_code>107000)", regex=True, examples=["ret=107000"],
                     title="code {acl_code|N}{acl_meaning|| (%s)}")
    assert _errors(derived) == []  # acl_code gives acl_name and acl_meaning


def test_a_frames_exception_patterns_are_checked_and_may_fill_placeholders():
    frame = _entry(all_of=None, pattern="in _spawn\\s*$", regex=True, examples=["  in _spawn"],
                   title="Could not start{prog|| `%s`}", exception_under=["^OSError: .*'(?P<prog>[^']+)'$"])
    assert _errors(frame) == []  # a group of exception_under names a value of the title
    assert _errors(dict(frame, exception_under=["^OSError: (?P<prog>[^']+"])) == [
        "mine.json: signatures[0] (MY_SIG).exception_under: expected a Python regex, \"^OSError: (?P<prog>[^']+\" is "
        "invalid (missing ), unterminated subpattern at position 10)"]
    assert _errors(dict(frame, title="Could not start", exception_under=[])) == [
        "mine.json: signatures[0] (MY_SIG).exception_under: expected a non-empty list of non-empty strings"]


def test_a_part_may_extend_an_entry_of_a_part_read_after_it(tmp_path):
    # existing_all_of names an entry by id; the parts are read in order, and the mappings applied once all are read
    from ascend_doctor.kb.load import merge_parts

    first = tmp_path / "a_first.json"
    first.write_text(json.dumps({"schema": PART, "existing_all_of": {"MY_SIG": [["baz qux"]]}}), encoding="utf-8")
    second = tmp_path / "b_second.json"
    second.write_text(json.dumps({"schema": PART, "signatures": [_entry()]}), encoding="utf-8")
    sigs = merge_parts(PITFALLS, [], [(str(first), False), (str(second), False)])
    mine = next(s for s in sigs if s.id == "MY_SIG")
    assert mine.all_of == [["foo bar"], ["baz qux"]] and mine.search("a baz qux line")
    # an id no part defines is still one line naming the file and the mapping
    with pytest.raises(KbError) as err:
        merge_parts(PITFALLS, [], [(str(first), False)])
    assert "a_first.json: existing_all_of.MY_SIG: expected the id of a signature of the knowledge base" in str(err.value)
