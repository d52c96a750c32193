"""render/aggregate_json.py: the aggregate verdict worded at the door, its JSON keeping each text's message id."""

import json
import os

import pytest

from ascend_doctor import i18n
from ascend_doctor.i18n_text import Text
from ascend_doctor.render.aggregate_json import json_document, reworded, worded_result
from tests.helpers import FIXTURES, run_cli
from tests.helpers.i18n_asserts import assert_rewords_both_ways

# report/2 nodes whose findings have words of every kind: summaries, fix steps with comments, evidence phrases, an
# evidence label made of a message ("published with CANN 8.0.RC3"), a GPU node's driver requirements
NODES = ("a2_env_not_sourced", "two_cann_installs", "nonroot_home_install", "gpu_cuda_mismatch", "infer_310p",
         "cann_new_layout")


def _reports(directory, lang):
    """The NODES' JSON reports as `check --lang LANG` writes them, and a torn and an empty file beside them."""
    os.makedirs(directory, exist_ok=True)
    for name in NODES:
        proc = run_cli("check", "--bundle", os.path.join(FIXTURES, name), "--format", "json", "--lang", lang,
                       "--output", os.path.join(directory, name + ".json"))
        assert proc.returncode in (0, 1), proc.stderr
    with open(os.path.join(directory, "torn.json"), "w") as fh:
        fh.write('{"schema": "ascend-doctor.report/2", "fi')
    open(os.path.join(directory, "empty.json"), "w").close()
    return str(directory)


def _aggregate(directory, lang, fmt):
    proc = run_cli("aggregate", directory, "--lang", lang, "--format", fmt)
    assert proc.returncode == 1, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    return _reports(tmp_path_factory.mktemp("en") / "reports", "en")


@pytest.fixture()
def no_phrases(monkeypatch):
    """The regular-expression reader of report/1 texts (phrases.reword*) refuses to be asked."""
    from ascend_doctor import phrases

    def refuse(text):
        raise AssertionError(f"phrases asked to word {text!r}")

    monkeypatch.setattr(phrases, "reword", refuse)
    monkeypatch.setattr(phrases, "reword_stored", refuse)


def test_report2_nodes_are_worded_in_chinese_from_their_ids_alone(english, tmp_path, no_phrases):
    """aggregate --lang zh of English report/2 files words every text from its message id, not by the phrase templates,
    and says exactly what it says of the same nodes' Chinese reports (the node's language does not matter)."""
    from_english = {fmt: _aggregate(english, "zh", fmt) for fmt in ("text", "html", "json")}
    chinese = tmp_path / "reports"
    os.rename(english, chinese)  # the same paths: node sources and unreadable files are named in the output
    try:
        _reports(tmp_path / "zh", "zh")
        for name in os.listdir(tmp_path / "zh"):
            os.replace(tmp_path / "zh" / name, chinese / name)
        os.rename(chinese, english)
        from_chinese = {fmt: _aggregate(english, "zh", fmt) for fmt in ("text", "html", "json")}
    finally:
        if not os.path.isdir(english):
            os.rename(chinese, english)
    assert from_english == from_chinese
    page = from_english["html"]  # every evidence line (the text shows the first few)
    assert "未设置 ASCEND_HOME_PATH" in page and "ASCEND_HOME_PATH is not set" not in page  # an evidence phrase
    assert "/usr/local/Ascend/nnae/latest，CANN 8.0.RC3，编译器 7.5.0.1.129" in page  # a fact's phrase, from its message


def test_the_json_keeps_each_texts_message_and_rewords_into_either_language(english):
    en, zh = (json.loads(_aggregate(english, lang, "json")) for lang in ("en", "zh"))
    texts = en["i18n"]["texts"]
    assert texts["/problems/0"]["id"] == "{count} node(s) with findings at fail level or worse"
    unreadable = {u["source"]: i for i, u in enumerate(en["unreadable"])}
    torn = texts[f"/unreadable/{unreadable[os.path.join(english, 'torn.json')]}/error"]
    assert torn["id"] == "{path}: {reason}" and torn["params"]["path"].endswith("torn.json")
    empty = texts[f"/unreadable/{unreadable[os.path.join(english, 'empty.json')]}/error"]
    assert empty["params"]["reason"] == {"id": "empty file"}
    # every pointer names the worded string its entry words, in both documents
    for doc in (en, zh):
        for pointer in doc["i18n"]["texts"]:
            holder = doc
            for step in pointer.split("/")[1:]:
                holder = holder[int(step)] if isinstance(holder, list) else holder[step.replace("~1", "/")]
            assert isinstance(holder, str), pointer
    assert zh["i18n"] == {"texts": zh["i18n"]["texts"], **({"keys": zh["i18n"]["keys"]} if "keys" in zh["i18n"] else {})}
    assert sorted(en["i18n"]["texts"]) != [] and en["i18n"]["texts"].keys() == zh["i18n"]["texts"].keys()
    assert_rewords_both_ways(reworded, en, zh)
    assert reworded({"schema": "ascend-doctor.aggregate/1", "problems": ["as written"]})["problems"] == ["as written"]


def test_worded_result_words_only_the_texts():
    result = {"lang": "en", "verdict": "problems", "problems": [Text("{count} report(s) unreadable", count=2)],
              "nodes": [{"name": "n0"}], "checks": [{"id": "a.b", "title": Text("NPU driver installed"),
                                                     "variants": [{"evidence": {Text("published with {target}",
                                                                                     target="CANN 8.0.RC3"): "2.4.1"}}]}]}
    i18n.set_lang("zh")
    try:
        worded = worded_result(result)
        doc = json_document(result)
    finally:
        i18n.set_lang("en")
    assert worded["problems"] == ["2 份报告无法读取"] and type(worded["problems"][0]) is str
    assert worded["nodes"] is result["nodes"]
    label = next(iter(worded["checks"][0]["variants"][0]["evidence"]))
    assert label != "published with CANN 8.0.RC3" and "CANN 8.0.RC3" in label
    assert doc["i18n"]["keys"] == {"/checks/0/variants/0/evidence": {label: {"id": "published with {target}",
                                                                             "params": {"target": "CANN 8.0.RC3"}}}}
    assert doc["i18n"]["texts"]["/checks/0/title"] == {"id": "NPU driver installed", "params": {}}


def test_the_logs_block_rewords_its_problems_root_cause_and_verdict_line(tmp_path):
    """The cluster's logs (one directory per node): their problems' titles and fixes are the knowledge base's words,
    named by signature and field as a triage JSON names them; the root cause and its headline, and the verdict's
    line that quotes the headline, are said again in the other language exactly."""
    plog = tmp_path / "logs" / "node-a" / "plog"
    plog.mkdir(parents=True)
    (plog / "plog-4242_20240712102505.log").write_text(
        "[ERROR] HCCL(4242,python):2024-07-12-10:25:05.104.998 [topoinfo_exchange_agent.cc:75]\n"
        "EI0006: [PID: 4242] 2024-07-12-10:25:05.104.998 Getting socket times out. Reason: Remote Rank did not "
        "send the data in time.\n")
    en, zh = (json.loads(run_cli("aggregate", str(tmp_path / "logs"), "--format", "json", "--lang", lang).stdout)
              for lang in ("en", "zh"))
    [problem] = [p for p in en["logs"]["problems"] if p["id"] == "HCCL_EI0006_SOCKET_TIMEOUT"]
    title = problem["i18n"]["title"]
    assert (title["kb"], title["field"]) == ("HCCL_EI0006_SOCKET_TIMEOUT", "title")
    assert en["logs"]["problems"] != zh["logs"]["problems"] and en["logs"]["headline"] != zh["logs"]["headline"]
    assert any(t["id"] == "logs of {count} node(s): {what}" for t in en["i18n"]["texts"].values())
    assert_rewords_both_ways(reworded, en, zh)


def test_a_large_cluster_json_is_written_a_node_at_a_time_with_the_text_of_one_dumps(english, tmp_path, monkeypatch):
    """Past COMPACT_JSON_ABOVE nodes the aggregate JSON is compact and written in pieces (jsonstream): the same text as
    one json.dumps of the document, on stdout and in --output."""
    from ascend_doctor.commands import aggregate as aggregate_cmd
    from ascend_doctor.render import aggregate_json

    monkeypatch.setattr(aggregate_cmd, "COMPACT_JSON_ABOVE", 1)
    made = []
    real = aggregate_json.json_document
    monkeypatch.setattr(aggregate_json, "json_document", lambda result: made.append(real(result)) or made[-1])
    out = _aggregate(english, "en", "json")
    assert out == json.dumps(made[-1], ensure_ascii=False) + "\n" and "\n" not in out[:-1]
    target = tmp_path / "agg.json"
    proc = run_cli("aggregate", english, "--lang", "en", "--format", "json", "--output", str(target))
    assert proc.returncode == 1 and target.read_text(encoding="utf-8") == out
