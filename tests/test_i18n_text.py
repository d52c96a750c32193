"""Message ids to the door (issue 23 item 1): a finding's texts travel as messages with parameters from the check
to the renderer, a JSON report (report/2) keeps them, and a saved report is worded again exactly in any language."""

import json

import pytest

from ascend_doctor import i18n
from ascend_doctor.findings import REPORT_SCHEMA, Finding, Report
from ascend_doctor.i18n import N_, _
from ascend_doctor.i18n_text import Joined, Stored, Text, from_i18n, to_i18n, worded
from tests.helpers import SNAPSHOTS, fixture_path


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


def _run(name):
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks

    with open_bundle(fixture_path(name)) as host:
        return run_checks(host, RunOptions(timeout=5.0))


# ---- the vehicle ----

def test_deferred_wording_keeps_the_message_and_its_parameters():
    with i18n.deferred():
        text = _("NPU {npu} chip {chip} (device {device})").format(npu=3, chip=0, device=7)
        bare = _("healthy")
        several = i18n.ngettext("{count} node", "{count} nodes", 2).format(count=2)
        listed = _("; ").join([_("hostname"), "10.0.0.1"])
        said = i18n.sentences(_("healthy"), _("warnings"))
    assert text == "NPU 3 chip 0 (device 7)" and text.msgid == "NPU {npu} chip {chip} (device {device})"
    assert text.params == {"npu": 3, "chip": 0, "device": 7}
    assert bare == "healthy" and bare.raw and not isinstance(_("healthy"), Text)  # outside: a plain str
    assert several == "2 nodes" and several.to_i18n() == {"id": "{count} node", "params": {"count": 2},
                                                         "plural": "{count} nodes", "n": 2}
    assert isinstance(listed, Joined) and listed == "hostname; 10.0.0.1"
    assert isinstance(said, Joined) and said == "healthy warnings"


def test_a_text_is_worded_in_the_language_current_when_shown(zh):
    with i18n.deferred():
        listed = _("; ").join([_("hostname"), "10.0.0.1"])
        said = i18n.sentences(_("healthy"), _("warnings"))
    assert listed == "hostname; 10.0.0.1"  # English as made, whatever the language
    assert worded(listed) == "主机名；10.0.0.1" and worded(said) == _("healthy") + _("warnings")


@pytest.mark.parametrize("text", [
    Text(N_("{path}: empty, expected {expected}"), path="/etc/x", expected=Text(N_("key=value lines"))),
    Joined([Text(N_("hostname")), "data"], Text._make("; ", {}, raw=True)),
    Joined([Text(N_("hostname")), Text(N_("MTU"))]),
    Text._make("{count} node", {"count": 1}, "{count} nodes", 1),
    Stored("an English sentence of report/1", report=True),
])
def test_an_i18n_entry_is_json_and_gives_the_same_text_back(text, zh):
    entry = json.loads(json.dumps(to_i18n(text)))
    back = from_i18n(entry)
    assert back == text and type(back) is type(text) and worded(back) == worded(text)


def test_a_plain_string_is_shown_as_written():
    assert to_i18n("pip install mindspore==2.7.2") == {"text": "pip install mindspore==2.7.2"}
    assert from_i18n({"text": "pip install mindspore==2.7.2"}) == "pip install mindspore==2.7.2"


@pytest.mark.parametrize("entry", [{"id": "{path}: no such file", "params": {}}, {"id": 3, "params": {}},
                                   {"id": "x", "params": []}])
def test_a_broken_entry_is_a_value_error(entry):
    with pytest.raises(ValueError):
        from_i18n(entry)


# ---- what the checks give (ids and parameters, not sentences) ----

def test_a_finding_of_a_snapshot_carries_its_message_ids():
    report = _run("two_cann_installs")
    f = report.find("install.cann_multiple")
    assert f.title.msgid == "The environment mixes CANN installs"
    data = f.to_json()["i18n"]
    assert data["title"]["id"] == "The environment mixes CANN installs"
    assert "join" in data["summary"] and all("id" in p or "join" in p for p in data["summary"]["join"])
    sourced = report.find("install.cann_env_sourced").to_json()["i18n"]
    assert [s.get("id", s.get("text")) for s in sourced["fix"]][0].startswith("grep -n set_env.sh")


def test_an_alternative_is_labelled_in_words_and_its_step_stays_a_command():
    """Issue 27 item 1: "or: ..." glued to a command could not be pasted; the label is the alternative's `why`."""
    report = _run("gpu_driver_mismatch")
    f = report.find("gpu.driver_module_match")
    [alt] = f.alternatives
    assert alt["why"].msgid == "with no process on the GPUs"
    assert alt["steps"] == ["sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia"]
    assert not any(str(s).startswith("or") for s in f.fix)


# ---- report/2 round trip ----

def _words(report, lang):
    from ascend_doctor.render import render

    i18n.set_lang(lang)
    try:
        return render(report, "text"), render(report, "markdown")
    finally:
        i18n.set_lang("en")


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_a_saved_report_is_worded_again_exactly_in_either_language(name):
    report = _run(name)
    i18n.set_lang("zh")
    try:
        data = json.loads(json.dumps(report.to_json(), ensure_ascii=False))  # a Chinese run's file
    finally:
        i18n.set_lang("en")
    assert data["schema"] == REPORT_SCHEMA == "ascend-doctor.report/2" and data["lang"] == "zh"
    back = Report.from_json(data)
    for lang in ("en", "zh"):
        assert _words(back, lang) == _words(report, lang), (name, lang)


def test_a_report_1_file_is_still_read_and_its_english_worded_by_the_phrases(zh):
    data = {"id": "install.cann_multiple", "status": "warn", "title": "The environment mixes CANN installs",
            "summary": "", "fix": ["ls /usr/local/Ascend"]}
    f = Finding.from_json(data)
    assert isinstance(f.title, Stored) and f.title == "The environment mixes CANN installs"
    assert worded(f.title) == _("The environment mixes CANN installs") != f.title  # a message of the catalog
    assert worded(f.fix) == ["ls /usr/local/Ascend"]  # a command: as written


def test_aggregate_words_a_report_2_from_its_ids(tmp_path):
    from tests.helpers import run_cli

    report = _run("two_cann_installs")
    (tmp_path / "n1.json").write_text(json.dumps(report.to_json()))
    zh_text = run_cli("aggregate", str(tmp_path), "--lang", "zh").stdout
    i18n.set_lang("zh")
    try:
        summary = worded(report.find("compat.cann_driver").summary)
    finally:
        i18n.set_lang("en")
    assert summary != str(report.find("compat.cann_driver").summary)
    assert "".join(summary.split()) in "".join(zh_text.split())  # the node's English, said in Chinese


def test_aggregate_and_baseline_read_report_1_and_report_2_side_by_side(tmp_path):
    from tests.helpers import run_cli

    data = _run("two_cann_installs").to_json()
    (tmp_path / "n2.json").write_text(json.dumps(data))
    old = json.loads(json.dumps(data))
    old["schema"] = "ascend-doctor.report/1"  # what a node with an older doctor wrote: no ids
    for f in old["findings"]:
        f.pop("i18n")
    (tmp_path / "n1.json").write_text(json.dumps(dict(old, host=dict(old["host"], name="older"))))
    proc = run_cli("aggregate", str(tmp_path), "--format", "json", "--baseline", str(tmp_path / "n1.json"))
    result = json.loads(proc.stdout)
    assert proc.returncode in (0, 1) and not result["unreadable"] and len(result["nodes"]) == 2, proc.stderr


def test_texts_at_and_with_texts_put_a_facts_messages_back_where_they_were():
    from ascend_doctor.i18n_text import texts_at, with_texts

    problem = Text(N_("{path}: no such file"), path="/a/b")
    facts = {"cann": {"installs": [{"errors": ["plain", problem]}]}, "extra": {"a/b~c": problem}}
    texts = texts_at(facts)
    assert texts == {"/cann/installs/0/errors/1": {"id": "{path}: no such file", "params": {"path": "/a/b"}},
                     "/extra/a~1b~0c": {"id": "{path}: no such file", "params": {"path": "/a/b"}}}
    saved = json.loads(json.dumps(facts))
    back = with_texts(saved, texts)
    assert back == facts and back["cann"]["installs"][0]["errors"][1].msgid == "{path}: no such file"
    assert isinstance(back["extra"]["a/b~c"], Text) and not isinstance(saved["extra"]["a/b~c"], Text)
    saved["extra"]["a/b~c"] = "/a/b: edited by hand"  # not the text the message made: kept as written
    assert type(with_texts(saved, texts)["extra"]["a/b~c"]) is str
    assert with_texts(saved, {"/nothing/here": {"id": "x"}}) == saved


def test_a_token_list_in_chinese_takes_the_enumeration_comma():
    from ascend_doctor import i18n
    from ascend_doctor.i18n_text import token_list

    assert token_list("7.8, 8.2, 8.3") == "7.8、8.2、8.3"
    assert token_list("ASCEND_OPP_PATH, LD_LIBRARY_PATH") == "ASCEND_OPP_PATH、LD_LIBRARY_PATH"
    for kept in ("8.0.RC3", "a b, c d", "not set", "[7.0.0,7.5.99]", "x, y z"):
        assert token_list(kept) == kept  # a phrase, one token or a machine value: as it is
    with i18n.deferred():
        text = i18n._("MindSpore {version} needs compiler {compilers}").format(version="2.7.1", compilers="7.8, 8.2")
    assert str(text.localized()).endswith("7.8, 8.2")  # English (no catalog) keeps ', '
