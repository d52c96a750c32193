"""Probe phrases: English facts that remember their message, shown in the report's language (ascend_doctor/phrases.py)."""

import json
import os
import re
import string

import pytest

from ascend_doctor import i18n, phrases
from ascend_doctor.host import CommandResult
from ascend_doctor.i18n_text import Text, localized
from tests.helpers import REPO

TEMPLATES = sorted(v for k, v in vars(phrases).items() if k.isupper() and isinstance(v, str))


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


def _text(template):
    fields = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    return Text(template, **{f: f"/v{i}/{f}" for i, f in enumerate(dict.fromkeys(fields))})


@pytest.mark.parametrize("template", TEMPLATES)
def test_each_phrase_is_said_in_chinese_with_the_same_values(template, zh):
    text = _text(template)
    said = localized(text)
    assert said != str(text)
    assert all(str(v) in said for v in text.params.values())


def test_a_phrase_inside_a_phrase_is_translated_too(zh):
    text = Text(phrases.BINARY_FILE, path="/usr/local/Ascend/driver/version.info",
                expected=Text(phrases.DRIVER_VERSION_INFO))
    assert str(text) == ("/usr/local/Ascend/driver/version.info: binary or garbled content, expected the driver "
                         "version.info (Version=...)")
    assert localized(text) == "/usr/local/Ascend/driver/version.info：内容为二进制或乱码，应为：驱动的 version.info（Version=...）"


def test_command_results_stay_english_facts(zh):
    timeout = CommandResult(["npu-smi", "info"], None, error="timeout").describe()
    assert (timeout.msgid, timeout.params) == (phrases.COMMAND_TIMEOUT, {"command": "npu-smi info"})
    assert localized(timeout) == "`npu-smi info` 在超时时间内没有结束"


def test_a_probe_problem_is_english_in_the_facts_and_chinese_where_shown(zh):
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks

    with open_bundle(os.path.join(REPO, "tests", "fixtures", "garbled_files")) as host:
        report = run_checks(host, RunOptions(timeout=5.0))
    fact = report.facts["driver"]["errors"][0]
    assert (fact.msgid, fact.params["path"], fact.params["expected"].msgid) == (
        phrases.BINARY_FILE, "/usr/local/Ascend/driver/version.info", phrases.DRIVER_VERSION_INFO)
    assert json.loads(json.dumps(report.to_json()))["facts"]["driver"]["errors"] == [fact]
    shown = next(f for f in report.worded().findings if f.id == "install.driver_present").evidence["problems"]
    assert shown == ["/usr/local/Ascend/driver/version.info：内容为二进制或乱码，应为：驱动的 version.info（Version=...）"]


def test_english_is_the_fact_itself():
    text = Text(phrases.EMPTY_FILE, path="/x", expected=Text(phrases.KEY_VALUE_LINES))
    assert localized(text) == text == "/x: empty, expected key=value lines"


# ---- one mechanism for plain strings: a fact read back from a saved report is matched against the templates ----

def _samples(template):
    """Values for each placeholder of `template`: data (no phrase) except, for a template with little literal text,
    the last one (such a template is only trusted when a value is itself a phrase)."""
    names = list(dict.fromkeys(f for _, f, _, _ in string.Formatter().parse(template) if f))
    values = {f: f"/v{i}/{f}" for i, f in enumerate(names)}
    if phrases._literal_weight(phrases._fields(template)) < phrases.WEAK_LITERAL:
        values[names[-1]] = phrases.MATCH_HOSTNAME
    return values


REGISTERED = phrases.templates()


def test_the_registry_holds_the_probes_and_the_rank_table_phrases():
    assert phrases.MATCHED_BY in REGISTERED and phrases.MS_DIST_NAME_1X in REGISTERED
    assert "is {kind}, expected {what}" in REGISTERED  # rank_table.py, where it is written
    assert "is {value}, a loopback address: other nodes cannot reach it" in REGISTERED  # netrules.py
    assert not any(phrases._fields(t) == [] for t in REGISTERED)


@pytest.mark.parametrize("template", REGISTERED)
def test_every_template_round_trips_from_its_english_text(template, zh):
    values = _samples(template)
    english = template.format(**values)
    expected = i18n._(template).format(**{k: localized(v) if v == phrases.MATCH_HOSTNAME else v
                                          for k, v in values.items()})
    assert expected != english  # the template is translated
    assert localized(english) == expected


def test_the_more_literal_template_wins_and_a_phrase_value_is_worded_too(zh):
    assert localized("distribution name mindspore (major version only)") == \
        i18n._(phrases.MS_DIST_NAME_MAJOR).format(name="mindspore")  # not "distribution name {name}"
    # "is {kind}, expected {what}" and "is {kind} {value}, expected {what}" both match: the split whose values are
    # phrases ("a list of 3", "a string") is the one the validator wrote
    text = Text("is {kind}, expected {what}", kind=Text("a list of {count}", count=3), what=Text("a string"))
    assert localized(str(text)) == localized(text)
    # a placeholder followed by another one after a blank takes the longer text: "a string" is the kind, '"x"' the value
    text = Text("is {kind} {value}, expected {what}", kind=Text("a string"), value='"x"', what=Text("a list of devices"))
    assert localized(str(text)) == localized(text) != str(text)
    # two placeholders side by side: split where the second is a phrase
    # (a message without placeholders that says a brace writes it twice: read back, it is found all the same)
    for hint in ("", " (a missing comma between two entries?)", " (a trailing comma before }} or ], or a missing value?)"):
        text = Text("not valid JSON: {reason}{hint}", reason=Text("Expecting ',' delimiter"), hint=Text(hint) if hint else "")
        assert localized(str(text)) == localized(text)


def test_a_plain_string_no_template_matches_is_shown_as_written(zh):
    for text in ("random text: is here", "[Errno 5] Input/output error: '/x'", "server_id 10.0.0.1 is XDL_IP"):
        assert localized(text) == text


def _broken_rank_table_bundle(tmp_path):
    import shutil

    from tests.helpers import fixture_path

    node = tmp_path / "node"
    shutil.copytree(fixture_path("distributed_910b_node"), node)
    path = node / "root" / "user" / "config" / "hccl.json"
    table = json.loads(path.read_text())
    table["server_count"] = "3"
    table["server_list"][0]["device"][1]["device_ip"] = table["server_list"][0]["device"][0]["device_ip"]
    table["server_list"][1]["device"][0]["rank_id"] = "9"
    table["server_list"][1]["device"][1]["device_id"] = [7]
    table["server_list"][1]["device"][1]["device_ip"] = "127.0.0.1"
    path.write_text(json.dumps(table))
    return str(node)


def test_a_report_read_back_shows_the_parametrised_phrases_in_chinese(tmp_path):
    """check --from-report: the facts are plain strings again; the rank table's problems and a probe's phrases
    read in Chinese as in the live run."""
    from tests.helpers import run_cli

    cjk = re.compile(r"[\u4e00-\u9fff]")
    saved = tmp_path / "r.json"
    for bundle, fid in ((_broken_rank_table_bundle(tmp_path), "rank_table.valid"),
                        (os.path.join(REPO, "tests", "fixtures", "garbled_files"), "install.driver_present")):
        assert run_cli("check", "--bundle", bundle, "--format", "json", "--output", str(saved)).returncode in (0, 1)
        facts = json.loads(saved.read_text())["facts"]
        live = json.loads(run_cli("check", "--bundle", bundle, "--lang", "zh", "--format", "json").stdout)
        again = json.loads(run_cli("check", "--from-report", str(saved), "--lang", "zh", "--format", "json").stdout)
        shown = {f["id"]: f for f in again["findings"]}
        for f in live["findings"]:
            assert (shown[f["id"]]["summary"], shown[f["id"]]["evidence"]) == (f["summary"], f["evidence"]), f["id"]
        problems = shown[fid]["evidence"]["problems"]
        assert len(problems) >= (6 if fid == "rank_table.valid" else 1)
        assert all(cjk.search(p) for p in problems), problems
        assert not any(re.search(r"\b(is also|expected|outside|binary)\b", p) for p in problems), problems
        english = facts["rank_table"]["problems"] if fid == "rank_table.valid" else facts["driver"]["errors"]
        assert any("expected" in (p["message"] if isinstance(p, dict) else p) for p in english)  # facts stay English


def test_phrases_does_not_import_i18n_text():
    """One direction only: i18n_text words a stored English text through phrases (the report/1 reader); phrases
    imports neither i18n_text nor anything that does, so the two never import each other."""
    import ast

    with open(os.path.join(REPO, "ascend_doctor", "phrases.py"), encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported.update(f"{node.module or ''}.{a.name}".lstrip(".") for a in node.names)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    assert imported and not {m for m in imported if "i18n_text" in m}, sorted(imported)
