"""Errors and the host layer in Chinese (issue 16): a bad bundle, data file, --kb file or --output is one line,
exit 2, naming the file, its frame in Chinese; field names, paths and values kept; English unchanged."""

import json
import os
import re
import tarfile

import pytest

from ascend_doctor import i18n
from tests.helpers import fixture_path

CJK = re.compile(r"[\u4e00-\u9fff]")
# Words of the English frames of these errors: none may be left in the Chinese line.
FRAME_WORDS = re.compile(r"\b(expected|refused|cannot|missing|not a|no such|empty file|line \d+ column)\b")


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


def _cli(capsys, argv, lang="zh"):
    from ascend_doctor.cli import main
    from ascend_doctor.kb import load

    # the knowledge base is cached per process, and a user file that failed to load is not read again
    load._cache.clear()
    try:
        code = main(argv + ["--lang", lang])
    except SystemExit as exc:  # argparse's errors (an argument's type= such as --baseline) exit from parse_args
        code = exc.code
    finally:
        i18n.set_lang("en")
    return code, capsys.readouterr().err


def _one_chinese_line(code, err, name):
    assert code == 2, err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert name in err, err
    assert CJK.search(err), err
    assert "Traceback" not in err


# ---- bundles and snapshots ----

def _bundles(tmp):
    """name -> (path, the English line before this change, byte for byte; None where it names a temp path)"""
    (tmp / "not_a_bundle.tar.gz").write_bytes(b"garbage, not an archive\n")
    (tmp / "empty.tgz").write_bytes(b"")
    with tarfile.open(tmp / "whole.tar.gz", "w:gz") as tf:
        tf.add(fixture_path("a2_env_not_sourced"), arcname="snap")
    data = (tmp / "whole.tar.gz").read_bytes()
    (tmp / "truncated.tar.gz").write_bytes(data[: len(data) // 2])
    bad_format = tmp / "bad_format"
    bad_format.mkdir()
    (bad_format / "manifest.json").write_text('{"format": "x"}')
    bad_json = tmp / "bad_json"
    bad_json.mkdir()
    (bad_json / "manifest.json").write_text('{"format": ')
    no_manifest = tmp / "no_manifest"
    no_manifest.mkdir()
    expected = "expected a .tar.gz from `ascend-doctor collect` or a snapshot directory"
    return {
        "not_a_bundle.tar.gz": (f"not a readable tar archive (neither gzip, bzip2, xz nor tar data); {expected}"),
        "empty.tgz": f"empty file, not a readable tar archive; {expected}",
        "truncated.tar.gz": None,
        "absent.tgz": "no such file or directory, expected a snapshot directory or .tar.gz",
        "bad_format": None,
        "bad_json": None,
        "no_manifest": None,
    }


@pytest.mark.parametrize("name", ["not_a_bundle.tar.gz", "empty.tgz", "truncated.tar.gz", "absent.tgz", "bad_format",
                                  "bad_json", "no_manifest"])
def test_a_bad_bundle_is_one_chinese_line(tmp_path, capsys, name):
    english = _bundles(tmp_path)[name]
    path = str(tmp_path / name)
    code, err = _cli(capsys, ["check", "--bundle", path])
    _one_chinese_line(code, err, name)
    assert not FRAME_WORDS.search(err.replace(path, "")), err
    code, err = _cli(capsys, ["check", "--bundle", path], lang="en")
    assert code == 2 and not CJK.search(err)
    if english:
        assert err == f"ascend-doctor: error: {path}: {english}\n"


def test_snapshot_manifest_errors_keep_field_and_values(tmp_path, capsys):
    (tmp_path / "manifest.json").write_text('{"format": "ascend-doctor-snapshot/1", "machine": {"disks": []}}')
    code, err = _cli(capsys, ["check", "--bundle", str(tmp_path)])
    _one_chinese_line(code, err, "manifest.json")
    assert "'machine.disks'" in err and "{mount: {total_mb, free_mb}}" in err and "list" in err
    code, err = _cli(capsys, ["check", "--bundle", str(tmp_path)], lang="en")
    assert err.endswith("manifest.json: field 'machine.disks' is list, expected an object of "
                        "{mount: {total_mb, free_mb}}\n")


# ---- data files and their schemas ----

def test_a_bad_data_file_is_one_chinese_line(tmp_path, zh):
    from ascend_doctor.data import DataError, load_json_file

    cases = {"broken.json": b'{"a": 1,\n "b": }', "latin1.json": "{\"a\": \"\xe9\"}".encode("latin-1")}
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(DataError) as info:
            load_json_file(str(tmp_path / name), "a JSON report")
        text = str(info.value)
        assert "\n" not in text and name in text and CJK.search(text) and not FRAME_WORDS.search(text), text
    with pytest.raises(DataError, match="第 2 行第 7 列：此处缺少值，应为 JSON 报告$"):
        load_json_file(str(tmp_path / "broken.json"), "a JSON report")
    with pytest.raises(DataError, match=r"：无法读取（不是普通文件）$"):
        load_json_file(str(tmp_path))


def test_data_file_errors_are_unchanged_in_english(tmp_path):
    from ascend_doctor.data import DataError, load_json_file

    (tmp_path / "broken.json").write_bytes(b'{"a": 1,\n "b": }')
    with pytest.raises(DataError) as info:
        load_json_file(str(tmp_path / "broken.json"), "a JSON report")
    assert str(info.value) == f"{tmp_path}/broken.json: line 2 column 7: Expecting value, expected a JSON report"
    with pytest.raises(DataError) as info:
        load_json_file(str(tmp_path))
    assert str(info.value) == f"{tmp_path}: cannot read (not a regular file)"


SCHEMA = {"type": "object", "required": ["version"], "additionalProperties": False,
          "properties": {"version": {"type": "string", "pattern": "^[0-9]"}, "note": {"type": ["string", "null"]},
                         "kind": {"enum": ["bundled", "cached"]}, "rows": {"type": "array", "minItems": 1},
                         "id": {"type": "string", "minLength": 1}}}
BAD = {"note": 3, "kind": "other", "rows": [], "id": "", "extra": True}


def test_schema_errors_translate_the_frame_and_keep_fields_and_values(zh):
    from ascend_doctor.schema import schema_errors

    assert sorted(schema_errors(BAD, SCHEMA)) == sorted([
        "$：缺少字段 'version'", "$.note：应为 string 或 null，实际为 int", "$.kind：'other' 不是 ['bundled', 'cached'] 之一",
        "$.rows：至少需要 1 项", "$.id：空字符串", "$：多余的字段 'extra'"])


def test_schema_errors_are_unchanged_in_english():
    from ascend_doctor.schema import schema_errors

    assert sorted(schema_errors(BAD, SCHEMA)) == sorted([
        "$: missing field 'version'", "$.note: expected string or null, got int",
        "$.kind: 'other' is not one of ['bundled', 'cached']", "$.rows: needs at least 1 item(s)", "$.id: empty string",
        "$: unexpected field 'extra'"])


def test_a_bad_matrix_file_names_file_and_field_in_chinese(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    bad = tmp_path / "compat_matrix.json"
    bad.write_text(json.dumps({"schema": "x"}))
    code, err = _cli(capsys, ["matrix", "update", "--file", str(bad)])
    _one_chinese_line(code, err, "compat_matrix.json")
    assert "不符合版本配套表的 schema" in err and "'matrix_version'" in err
    code, err = _cli(capsys, ["matrix", "update", "--file", str(tmp_path / "absent.json")])
    _one_chinese_line(code, err, "absent.json")
    assert not os.path.exists(tmp_path / "cache")


def test_a_bad_baseline_report_in_chinese(tmp_path, zh):
    from ascend_doctor.baseline import Baseline, BaselineError

    path = tmp_path / "known-good.json"
    path.write_text(json.dumps({"schema": "ascend-doctor.report/1", "facts": []}))
    with pytest.raises(BaselineError) as info:
        Baseline.load(str(path))
    text = str(info.value)
    assert text.startswith(str(path) + "：字段 'facts' 是 list，应为对象（") and "\n" not in text
    assert "`ascend-doctor check --format json`" in text


def test_a_bad_baseline_on_the_command_line_in_chinese(tmp_path, capsys):
    path = tmp_path / "known-good.json"
    path.write_text("{\n")
    code, err = _cli(capsys, ["check", "--bundle", fixture_path("a2_env_not_sourced"), "--baseline", str(path)])
    _one_chinese_line(code, err, "known-good.json")
    assert "第 2 行第 1 列" in err and "JSON 报告" in err


# ---- the user's knowledge-base files (--kb FILE, $ASCEND_DOCTOR_KB) ----

PART = "ascend-doctor.kb-part/1"
KB_CASES = {
    "broken.json": "{\n",
    "wrong_schema.json": json.dumps({"schema": "kb/0", "signatures": []}),
    "bad_field.json": json.dumps({"schema": PART, "signatures": [{"id": "MY_SIG", "title": "A title"}]}),
    "bad_id.json": json.dumps({"schema": PART, "signatures": [{"id": "lower case"}]}),
}


@pytest.mark.parametrize("name", sorted(KB_CASES))
def test_a_bad_kb_file_is_one_chinese_line(tmp_path, capsys, name):
    path = tmp_path / name
    path.write_text(KB_CASES[name])
    code, err = _cli(capsys, ["kb", "search", "hccl", "--kb", str(path)])
    _one_chinese_line(code, err, name)
    assert not FRAME_WORDS.search(err.replace(str(path), "")), err
    code, err = _cli(capsys, ["kb", "search", "hccl", "--kb", str(path)], lang="en")
    assert code == 2 and name in err and not CJK.search(err)


def test_a_kb_entry_error_keeps_where_field_and_value(tmp_path, capsys, monkeypatch):
    path = tmp_path / "mine.json"
    path.write_text(KB_CASES["bad_field.json"])
    monkeypatch.setenv("ASCEND_DOCTOR_KB", str(path))
    code, err = _cli(capsys, ["kb", "search", "hccl"])
    _one_chinese_line(code, err, "mine.json")
    assert f"{path}：signatures[0] (MY_SIG).component：应为 driver, " in err and "实际为 None" in err
    code, err = _cli(capsys, ["kb", "search", "hccl"], lang="en")
    assert f"{path}: signatures[0] (MY_SIG).component: expected one of driver, " in err and ", got None" in err


def test_kb_error_count_and_string_variants_in_both_languages(zh):
    """The loader words its schema's problems (kb_part.schema.json through schema.py) as one line each: where,
    field, what was expected and what was found."""
    from ascend_doctor.kb.load import KbError, parse_part

    def first_errors(file, *changes):
        entries = []
        for change in changes:
            entry = {"id": "X", "title": "t", "component": "cann", "log_sources": ["plog"], "severity": "fail",
                     "cause": "A cause long enough to pass.", "fix": ["f"], "source": "a source of ten",
                     "pattern": "p", "examples": ["p"], "near_misses": ["q"]}
            entry.update(change)
            entries.append({k: v for k, v in entry.items() if v is not None})
        errs = parse_part({"schema": "ascend-doctor.kb-part/1", "signatures": entries}, file, {})[2]
        return [re.sub(r"signatures\[\d+\]", "signatures[0]", e) for e in errs]

    assert str(KbError(["a.json：x", "b.json：y", "c.json：z"])) == "a.json：x（另有 2 处）"
    assert first_errors("f.json", {"cause": "short"}, {"fix": []}) == [
        "f.json：signatures[0] (X).cause：应为至少 20 个字符的字符串，实际为 'short'",
        "f.json：signatures[0] (X).fix：应为非空的列表，其元素为非空字符串"]
    i18n.set_lang("en")
    assert str(KbError(["x", "y", "z"])) == "x (and 2 more)"
    assert first_errors("w", {"cause": "short"}, {"title": None}, {"fix": []}, {"also": [""]}) == [
        "w: signatures[0] (X).cause: expected a string of 20+ characters, got 'short'",
        "w: signatures[0] (X).title: missing, expected a string",
        "w: signatures[0] (X).fix: expected a non-empty list of non-empty strings",
        "w: signatures[0] (X).also: expected a list of non-empty strings"]


# ---- --output ----

def test_a_bad_output_is_one_chinese_line(tmp_path, capsys):
    target = str(tmp_path / "absent" / "report.txt")
    code, err = _cli(capsys, ["check", "--bundle", fixture_path("a2_env_not_sourced"), "--output", target])
    _one_chinese_line(code, err, target)
    assert "没有那个文件或目录" in err and not FRAME_WORDS.search(err.replace(target, "")), err
    code, err = _cli(capsys, ["check", "--bundle", fixture_path("a2_env_not_sourced"), "--output", target], lang="en")
    assert code == 2 and "(No such file or directory)" in err and not CJK.search(err)


def test_write_atomic_keeps_the_error_class_and_errno(tmp_path, zh):
    import errno

    from ascend_doctor.atomic import write_atomic

    with pytest.raises(FileNotFoundError) as info:
        write_atomic(str(tmp_path / "absent" / "x"), "text")
    assert info.value.errno == errno.ENOENT and info.value.strerror == "没有那个文件或目录"


# ---- the host layer's phrases (facts: English, worded where shown) ----

def test_host_errors_are_english_facts_shown_in_chinese(tmp_path):
    from ascend_doctor import phrases
    from ascend_doctor.host import FileMissing, FileUnreadable, LiveHost, SnapshotHost, ask_python
    from ascend_doctor.i18n_text import error_text, localized
    from ascend_doctor.snapshot import write_snapshot

    live = LiveHost()
    snap = SnapshotHost(write_snapshot(str(tmp_path / "snap"), hostname="n1", unreadable=["/etc/npu.info"]))

    def fact(call, exc_type):
        with pytest.raises(exc_type) as info:
            call()
        return error_text(info.value)

    def facts():
        return [fact(lambda: live.read_text(str(tmp_path / "version.info")), FileMissing),
                fact(lambda: live.listdir(str(tmp_path / "absent")), FileMissing),
                fact(lambda: snap.read_text("/etc/npu.info"), FileUnreadable),
                fact(lambda: snap.read_text("/etc/other.info"), FileMissing),
                ask_python(str(tmp_path), "--python").error]

    english = [f"{tmp_path}/version.info: no such file", f"{tmp_path}/absent: no such directory",
               "/etc/npu.info: permission denied (on the collected machine)", "/etc/other.info: no such file in the snapshot",
               f"{tmp_path}: is a directory, expected a Python interpreter (e.g. {tmp_path}/bin/python)"]
    assert [str(f) for f in facts()] == english
    assert [localized(f) for f in facts()] == english
    i18n.set_lang("zh")
    try:
        made_in_zh = facts()
        assert [str(f) for f in made_in_zh] == english  # facts stay English in a Chinese run
        assert [localized(f) for f in made_in_zh] == [
            f"{tmp_path}/version.info：文件不存在", f"{tmp_path}/absent：目录不存在",
            "/etc/npu.info：没有读取权限（在收集信息的机器上）", "/etc/other.info：快照中没有该文件",
            f"{tmp_path}：是目录，应为 Python 解释器（例如 {tmp_path}/bin/python）"]
    finally:
        i18n.set_lang("en")


def test_an_os_reason_kept_in_a_fact_is_shown_in_chinese(zh):
    from ascend_doctor import phrases
    from ascend_doctor.i18n_text import Text, localized
    from ascend_doctor.reasons import os_text

    text = Text(phrases.FILE_OS_ERROR, path="/x", reason=os_text(PermissionError(13, "Permission denied")))
    assert str(text) == "/x: Permission denied" and localized(text) == "/x：权限不足"
    odd = Text(phrases.FILE_OS_ERROR, path="/x", reason=os_text(OSError(99, "Something new")))
    assert localized(odd) == "/x：Something new"  # a reason not in the catalog: as the OS said it


def test_node_facts_names_and_values_have_chinese_for_display(zh):
    from ascend_doctor import node_facts
    from ascend_doctor.i18n import lookup

    for text in (node_facts.DRIVER, node_facts.FIRMWARE, node_facts.NPU_COUNT, node_facts.NPU_MODEL,
                 node_facts.UNKNOWN, node_facts.UNSET, node_facts.NOT_INSTALLED, node_facts.NONE_FOUND):
        assert CJK.search(lookup(text)), text
    assert node_facts.UNSET == "(unset)" and node_facts.DRIVER == "NPU driver"  # the facts themselves: English
    assert node_facts.report_shape_problem([]) == "顶层是 list，应为对象"


def test_release_notes_pointer_in_both_languages(zh):
    from ascend_doctor.release_notes import where_to_read

    notes = {"notes_location": {"repo": "https://gitee.com/mindspore/mindspore", "paths": ["RELEASE.md"],
                                "section": "MindSpore {version}", "headings_to_read": ["Major Features", "API Change"]}}
    assert where_to_read("2.3.0", notes) == ("参见 2.3.0 版本的 RELEASE.md：https://gitee.com/mindspore/mindspore "
                                             "RELEASE.md，'MindSpore 2.3.0' 一节（Major Features, API Change）")
    i18n.set_lang("en")
    assert where_to_read("2.3.0", notes) == ("see RELEASE.md of release 2.3.0: https://gitee.com/mindspore/mindspore "
                                             "RELEASE.md, section 'MindSpore 2.3.0' (Major Features, API Change)")


# ---- rank-table FILE ----

@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_an_unreadable_rank_table_file_is_one_chinese_line(tmp_path, capsys, kind):
    """The host's read error is a phrase (phrases.py): said in the run's language, the path as written."""
    path = str(tmp_path / "absent.json") if kind == "missing" else str(tmp_path)
    code, err = _cli(capsys, ["rank-table", path])
    _one_chinese_line(code, err, path)
    assert not FRAME_WORDS.search(err.replace(path, "")), err
    code, err = _cli(capsys, ["rank-table", path], lang="en")
    assert code == 2 and path in err and not CJK.search(err)
