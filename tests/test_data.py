"""Every data file follows its schema (data.SCHEMAS), through the one validator the runtime uses."""

import copy
import glob
import json
import os
import subprocess
import sys

import pytest

from ascend_doctor.data import SCHEMAS, DataError, data_file_errors, data_path, load_data_file
from ascend_doctor.schema import SchemaError, schema_errors

PARTS = ["kb/" + os.path.basename(p) for p in sorted(glob.glob(os.path.join(os.path.dirname(data_path("knowledge_base.json")), "kb", "*.json")))]


@pytest.mark.parametrize("name", sorted(SCHEMAS) + PARTS)
def test_shipped_data_file_follows_its_schema(name):
    assert data_file_errors(name, limit=10 ** 6) == []


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_jsonschema_agrees_when_available(name):
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(load_data_file(name), load_data_file(SCHEMAS[name]))


def test_every_json_file_in_data_has_a_schema_or_is_one():
    top = os.path.dirname(data_path("knowledge_base.json"))
    names = {os.path.basename(p) for p in glob.glob(os.path.join(top, "*.json"))}
    schemas = set(SCHEMAS.values()) | {"kb_part.schema.json"}
    assert names - schemas == set(SCHEMAS)


def test_no_json_object_in_data_names_a_key_twice():
    # JSON keeps the last of two equal keys without a word: a merge that leaves two "exclude" lists in one knowledge-base
    # entry silently drops one of them (round 12's merge did)
    top = os.path.dirname(data_path("knowledge_base.json"))
    twice = []

    def pairs(items):
        keys = [k for k, _ in items]
        twice.extend((path, k, dict(items).get("id")) for k in {k for k in keys if keys.count(k) > 1})
        return dict(items)

    for path in sorted(glob.glob(os.path.join(top, "**", "*.json"), recursive=True)):
        with open(path, encoding="utf-8") as fh:
            json.load(fh, object_pairs_hook=pairs)
    assert not twice, twice


def broken(name, change):
    data = copy.deepcopy(load_data_file(name))
    change(data)
    return data_file_errors(name, data)


def test_a_broken_hccl_env_table_is_named_by_path():
    def change(d):
        d["variables"][0]["type"] = "integer"
        del d["variables"][1]["source"]
        d["variables"][2]["range"] = "1-10"
    errs = broken("hccl_env.json", change)
    assert any(e.startswith("$.variables[0].type: 'integer' is not one of") for e in errs), errs
    assert "$.variables[1]: missing field 'source'" in errs
    assert "$.variables[2].range: expected array, got str" in errs


def test_broken_release_notes_and_advice_facts_are_named_by_path():
    def notes(d):
        d["releases"][0]["version"] = "next"
        d["notes_location"]["section"] = "Release Notes"
    errs = broken("release_notes.json", notes)
    assert any(e.startswith("$.releases[0].version: 'next' does not match") for e in errs), errs
    assert any(e.startswith("$.notes_location.section:") for e in errs), errs

    def facts(d):
        d["log_messages"][0]["level"] = "LOUD"
        d["variables"]["not a name"] = "somewhere"
        d["schema"] = "ascend-doctor.advice-facts/2"
    errs = broken("advice_facts.json", facts)
    assert any(e.startswith("$.log_messages[0].level: 'LOUD'") for e in errs), errs
    assert any("key 'not a name' does not match" in e for e in errs), errs
    assert any(e.startswith("$.schema: 'ascend-doctor.advice-facts/2', expected") for e in errs), errs


def test_validator_keywords():
    schema = {"type": "object", "required": ["a"], "additionalProperties": False, "definitions": {"n": {"type": "integer"}},
              "properties": {"a": {"$ref": "#/definitions/n"}, "b": {"type": "array", "minItems": 2, "items": {"minLength": 3}}}}
    assert schema_errors({"a": 1, "b": ["abc", "defg"]}, schema) == []
    assert schema_errors({"a": True, "b": ["ab"], "c": 0}, schema) == [
        "$.a: expected integer, got bool", "$.b: needs at least 2 item(s)", "$.b[0]: shorter than 3 characters",
        "$: unexpected field 'c'"]
    assert schema_errors({}, schema) == ["$: missing field 'a'"]
    assert len(schema_errors(list(range(100)), {"items": {"type": "string"}}, limit=5)) == 5
    with pytest.raises(SchemaError):
        schema_errors(1, {"$ref": "other.json#/x"})


def test_unknown_data_file_has_no_schema():
    with pytest.raises(DataError):
        data_file_errors("nothing.json", {})


def test_data_module_imports_none_of_ours():
    # data <-> matrix was an import cycle; data is the bottom layer now
    code = "import sys, ascend_doctor.data; print(sorted(m for m in sys.modules if m.startswith('ascend_doctor.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out.replace("'", '"')) == ["ascend_doctor.data"]


def test_x_ref_names_an_id_that_is_not_a_key_of_the_object_it_points_into():
    schema = {"type": "object", "properties": {
        "sources": {"type": "object"},
        "rows": {"type": "array", "items": {"type": "object", "properties": {"source": {"x-ref": "/sources"}}}}}}
    ok = {"sources": {"a": "https://a.invalid"}, "rows": [{"source": "a"}]}
    assert schema_errors(ok, schema) == []
    assert schema_errors(dict(ok, rows=[{"source": "a"}, {"source": "b"}]), schema) == [
        "$.rows[1].source: 'b' is not a key of $.sources"]
    assert schema_errors({"rows": [{"source": "b"}]}, schema) == []  # no sources object: its own schema says so


def test_shipped_files_cite_only_the_sources_they_list():
    def facts(d):
        d["variables"]["ASCEND_HOME_PATH"] = "no_such_source"
        d["options"][0]["source"] = "nor_this"
    errs = broken("advice_facts.json", facts)
    assert "$.variables.ASCEND_HOME_PATH: 'no_such_source' is not a key of $.sources" in errs
    assert "$.options[0].source: 'nor_this' is not a key of $.sources" in errs


def test_max_depth_checks_the_top_level_only():
    schema = {"type": "object", "required": ["schema", "rows"], "properties": {
        "schema": {"const": "x/1"}, "rows": {"type": "array", "items": {"type": "integer"}}}}
    assert schema_errors({"schema": "x/1", "rows": ["not checked this deep"]}, schema, max_depth=1) == []
    assert schema_errors({"schema": "x/2", "rows": []}, schema, max_depth=1) == ["$.schema: 'x/2', expected 'x/1'"]
    assert schema_errors({"schema": "x/1", "rows": {}}, schema, max_depth=1) == ["$.rows: expected array, got dict"]
    assert schema_errors({"schema": "x/1"}, schema, max_depth=0) == ["$: missing field 'rows'"]


def test_an_installed_data_file_that_lost_its_shape_is_one_line_naming_file_and_field(tmp_path, monkeypatch):
    from ascend_doctor import data

    broken_file = tmp_path / "hccl_env.json"
    broken_file.write_text(json.dumps({"schema": "ascend-doctor.hccl-env/1", "notes": []}), encoding="utf-8")
    real = data.data_path
    monkeypatch.setattr(data, "data_path", lambda name: str(broken_file) if name == "hccl_env.json" else real(name))
    monkeypatch.setattr(data, "_loaded", {})
    with pytest.raises(DataError) as err:
        load_data_file("hccl_env.json")
    message = str(err.value)
    assert message.startswith(f"{broken_file}: $: missing field ") and "reinstall ascend-doctor" in message
    assert "\n" not in message
    newer = dict(json.load(open(real("hccl_env.json"), encoding="utf-8")), schema="ascend-doctor.hccl-env/2")
    broken_file.write_text(json.dumps(newer), encoding="utf-8")
    with pytest.raises(DataError, match=r"\$\.schema: 'ascend-doctor.hccl-env/2', expected 'ascend-doctor.hccl-env/1'"):
        load_data_file("hccl_env.json")


def test_a_json_file_reads_as_text_mode_read_it_whatever_its_line_ends(tmp_path):
    """load_json_file reads bytes (text mode's newline translation was a third of the knowledge base's load): a file
    with CRLF or CR line ends, a non-ASCII string and a BOM-less UTF-8 body give what text mode gave; bad UTF-8 and a
    broken document are still one line naming the file."""
    from ascend_doctor.data import load_json_file

    doc = {"a": "内存不足 out of memory", "b": [1, 2.5, None, True], "c": {"d": "x\\ny"}}
    body = json.dumps(doc, ensure_ascii=False, indent=1)
    for ends in ("\n", "\r\n", "\r"):
        path = tmp_path / f"doc{len(ends)}{ends == chr(13)}.json"
        path.write_bytes(body.replace("\n", ends).encode("utf-8"))
        with open(path, "r", encoding="utf-8") as fh:
            assert load_json_file(str(path)) == json.load(fh) == doc
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(DataError, match=r"bad\.json: not UTF-8 text"):
        load_json_file(str(bad))
    broken = tmp_path / "broken.json"
    broken.write_bytes(b'{\r\n"a": }')
    with pytest.raises(DataError, match=r"broken\.json: line 2 column 6"):
        load_json_file(str(broken))
