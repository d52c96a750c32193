"""Triage, aggregate (text and HTML), rank-table, kb and explain in Chinese: no English left beyond what the
inputs themselves say and the commands, the same problem ids in both languages, English unchanged."""

import html
import json
import os
import re

import pytest

from ascend_doctor import i18n, zh_style
from ascend_doctor.i18n_text import localized
from tests.helpers.cluster_helpers import FULL_DISKS, node_report, write_report
from tests.helpers.i18n_asserts import assert_rewords_both_ways
from tests.helpers import REPO, run_cli
from tests.helpers.i18n_support import WORD, data_words, leftovers

PEER = os.path.join(REPO, "..", "shared", "peer_cases", "ascend_fd_rc")
PEER_CASES = sorted(d for d in os.listdir(PEER) if os.path.isdir(os.path.join(PEER, d))) if os.path.isdir(PEER) else []
# The command's own name in the report's first line ("ascend-doctor triage"): a command, kept as typed.
COMMAND_WORDS = {"triage", "aggregate", "kb", "explain", "show", "search", "match", "check"}
# Terms docs/glossary.md keeps in English in Chinese text (die, rank table) and product names (MindCluster's
# Ascend Operator).
GLOSSARY_WORDS = {"die", "table", "MindCluster", "Operator"}

EI0006 = ("EI0006: [PID: 31337] 2024-07-12-10:25:05.104.998 Getting socket times out. Reason: Remote Rank did not "
          "send the data in time.")
OOM = ("[ERROR] ME(1,1,python):2024-07-12-10:25:01.000.000 [x.cc:1] RuntimeError: NPU out of memory. Tried to "
       "allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 57.31 GiB already allocated)")


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


def _kb_words(result):
    """What the knowledge base's own entries of the problems found say and cite: their Chinese texts (product
    names such as vllm stay as the entry writes them) and their sources (document titles are not translated)."""
    from ascend_doctor.triage.result import shown_source

    words = set()
    for p in result.problems:
        s = p.signature
        for text in [s.title_zh, s.cause_zh, shown_source(s)] + list(s.fix_zh):
            words.update(WORD.findall(text))
    return words


def _triage_tree(tmp_path):
    """Ranks failing together (msrun worker logs): one out of memory first, the others time out waiting; plus a
    file that is not a log and a binary one (their notes)."""
    d = tmp_path / "msrun_log"
    d.mkdir()
    (d / "worker_0.log").write_text(EI0006.replace("10:25:05", "10:35:05") + "\n")
    (d / "worker_3.log").write_text(OOM + "\n")
    (d / "worker_1.log").write_text(EI0006.replace("10:25:05", "10:35:06") + "\n" + EI0006 + "\n")
    (d / "model.ckpt").write_bytes(b"\x00\x01binary")
    (d / "worker_9.log").write_bytes(b"\x00\x00\x00 not text")
    return str(d)


def _triage_inputs(tmp_path):
    return [os.path.join(PEER, c) for c in PEER_CASES] + [_triage_tree(tmp_path)]


def _zh_triage(path, as_json=False):
    from ascend_doctor.triage import triage_paths

    i18n.set_lang("zh")
    try:
        result = triage_paths([path])
        return result.to_json() if as_json else result
    finally:
        i18n.set_lang("en")


def test_zh_triage_has_no_english_left(tmp_path, zh):
    from ascend_doctor.render.triage_report import render_triage
    from ascend_doctor.triage import triage_paths

    problems = {}
    for path in _triage_inputs(tmp_path):
        result = triage_paths([path])
        allowed = data_words(path) | _kb_words(result) | COMMAND_WORDS
        for fmt in ("text", "markdown"):
            words = leftovers(render_triage(result, fmt), allowed)
            if words:
                problems[(os.path.basename(path), fmt)] = sorted(set(words))
        # the result holds the summary as a message (worded by the renderer): its id, Chinese when worded
        assert result.root_cause is None or (result.root_cause["summary"].msgid and re.search(
            r"[\u4e00-\u9fff]", localized(result.root_cause["summary"])))
    assert not problems, f"English left in zh triage reports: {problems}"


def test_the_same_problems_and_root_cause_in_both_languages(tmp_path):
    from ascend_doctor.triage import triage_paths

    for path in _triage_inputs(tmp_path):
        en = triage_paths([path]).to_json()
        zh_json = _zh_triage(path, as_json=True)
        assert (en["lang"], zh_json["lang"]) == ("en", "zh")
        assert sorted(en) == sorted(zh_json)
        assert [(p["id"], p["severity"], p["count"], sorted(p)) for p in en["problems"]] == \
            [(p["id"], p["severity"], p["count"], sorted(p)) for p in zh_json["problems"]]
        assert en["summary"] == zh_json["summary"] and en["first_problem"] == zh_json["first_problem"]
        rc_en, rc_zh = en["root_cause"] or {}, zh_json["root_cause"] or {}
        for key in ("kind", "ascend_fd_code", "severity", "devices", "chain", "problem", "first_error"):
            assert rc_en.get(key) == rc_zh.get(key), (path, key)
        assert sorted(rc_en.get("evidence") or {}) == sorted(rc_zh.get("evidence") or {})  # labels stay JSON keys
        assert [i["scanned"] for i in en["inputs"]] == [i["scanned"] for i in zh_json["inputs"]]


def test_zh_triage_cli_names_the_skipped_file_in_chinese(tmp_path):
    d = _triage_tree(tmp_path)
    proc = run_cli("triage", d, "--lang", "zh")
    assert proc.returncode == 1
    assert "二进制数据，不是文本日志：已跳过" in proc.stderr and "binary data" not in proc.stderr
    assert "最早的失败：TORCH_NPU_OOM" in proc.stdout and "1. 失败 TORCH_NPU_OOM" in proc.stdout and "（rank 3）" in proc.stdout
    proc = run_cli("triage", "--lang", "zh")
    assert proc.returncode == 2 and "请至少给出一个 PATH" in proc.stderr


# ---- aggregate ----

@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Node reports as preflight writes them: a failing node, a missing rank, a skewed driver and variable."""
    tmp = tmp_path_factory.mktemp("agg")
    d = tmp / "reports"
    write_report(d, node_report(tmp, "n0", rank=0, world_size=4))
    write_report(d, node_report(tmp, "n1", rank=1, world_size=4, disks=FULL_DISKS))
    write_report(d, node_report(tmp, "n3", rank=3, world_size=4, env={"HCCL_EXEC_TIMEOUT": "1800"},
                                driver="23.0.3"))
    return str(d)


def _aggregate(args, lang):
    proc = run_cli("aggregate", *args, "--lang", lang)
    assert proc.returncode == 1, proc.stderr
    return proc.stdout


def _html_text(page):
    """What a reader of the page sees: the text and the tooltips, the style sheet left out."""
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    tips = " ".join(re.findall(r"title='([^']*)'", page))
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + tips)


@pytest.mark.skipif(not PEER_CASES, reason="../shared/peer_cases/ascend_fd_rc is not beside the repo")
def test_zh_aggregate_text_and_html_have_no_english_left(reports):
    logs = os.path.join(PEER, "rc_remote_local")
    args = [reports, logs]
    allowed = data_words(reports) | data_words(logs) | COMMAND_WORDS | _kb_words(_zh_triage(logs))
    text = _aggregate(args, "zh")
    assert not sorted(set(leftovers(text, allowed)))
    page = _aggregate(args + ["--format", "html"], "zh")
    assert "<html lang='zh-CN'>" in page
    assert not sorted(set(leftovers(_html_text(page), allowed)))
    assert "<html lang='en'>" in _aggregate(args + ["--format", "html"], "en")


def test_aggregate_json_the_same_in_both_languages_but_its_words(reports):
    en = json.loads(_aggregate([reports, "--format", "json"], "en"))
    zh_json = json.loads(_aggregate([reports, "--format", "json"], "zh"))
    assert (en["lang"], zh_json["lang"]) == ("en", "zh")
    assert sorted(en) == sorted(zh_json) and en["verdict"] == zh_json["verdict"]
    assert len(en["problems"]) == len(zh_json["problems"]) and en["problems"] != zh_json["problems"]
    assert [(c["id"], c["counts"], c.get("nodes")) for c in en["checks"]] == \
        [(c["id"], c["counts"], c.get("nodes")) for c in zh_json["checks"]]
    assert en["skew"] == zh_json["skew"] and en["coverage"] == zh_json["coverage"]


def test_zh_aggregate_names_nodes_and_skew_in_chinese(reports):
    text = _aggregate([reports], "zh")
    assert text.splitlines()[0] == "ascend-doctor aggregate：有问题 — 3 份节点报告"
    assert "缺少的 rank（总数 4）：2" in text
    assert "NPU 驱动：2 个节点为 24.1.rc2" in text
    assert "resources.disk_space: 1 个节点失败（n1-rank1）" in text
    assert "修复：du -sh" in text  # the command stays whole
    assert "resources.disk_space（失败）" in text
    bad = [p for line in text.splitlines() for p in zh_style.problems(line, packages=False)]
    assert not bad, bad


# ---- kb and explain ----

def test_kb_and_explain_frames_in_chinese():
    sig = "HCCL_EI0006_SOCKET_TIMEOUT"
    text = run_cli("kb", "show", sig, "--lang", "zh").stdout
    for label in ("原因：", "修复步骤：", "匹配规则：", "出处："):
        assert label in text
    assert not re.search(r"^\s*(Cause|Fix|Matches|Source):", text, re.M)
    text = run_cli("kb", "search", "EI0006", "--lang", "zh").stdout
    assert re.search(r"共 \d+ 条$", text.strip())
    text = run_cli("explain", "EZ9999", "--lang", "zh").stdout
    assert "有" in text and "条日志特征可识别" in text
    text = " ".join(run_cli("explain", "EI9876", "--lang", "zh").stdout.split())
    assert "知识库中没有它自己的条目" in text and "`ascend-doctor collect --logs <目录>`" in text
    text = run_cli("explain", "P08", "--lang", "zh").stdout
    assert "处理建议：" in text and "What to do" not in text and "Where it comes from" not in text
    text = run_cli("explain", "install.cann_env_sourced", "--lang", "zh").stdout
    for label in ("检查内容：", "通过条件：", "在本机查看：", "出处："):
        assert label in text
    assert "About this area" not in text and "What it checks" not in text
    proc = run_cli("explain", "install.cann_env_sourcd", "--lang", "zh")
    assert proc.returncode == 2 and "是否想查 install.cann_env_sourced" in proc.stderr


def test_english_kb_and_explain_keep_their_words():
    text = run_cli("kb", "show", "HCCL_EI0006_SOCKET_TIMEOUT").stdout
    assert "\n  Cause:\n" in text and "\n  Fix:\n" in text and "  Source: " in text
    text = run_cli("explain", "install.cann_env_sourced").stdout
    assert text.startswith("install.cann_env_sourced  (check, area: ") and "About this area:" in text


# ---- rank tables ----

def _broken_tables():
    """Tables that break most rules at once (v1.0, v1.2 super-pods, v2.0, group_list, syntax)."""
    from tests.test_rank_table import load, v10

    bad = v10(servers=3, per=3, server_count="4")
    s0, s1, s2 = bad["server_list"]
    s0["device"][0].update(device_ip="127.0.0.1", device_port="80", host_port=70000)
    s0["device"][1].update(device_id="0", rank_id="5", backup_device_port="1", device_port="1")
    s0["device"][2] = "not an object"
    s1.update(server_id="node_0", host_ip="10.0.0.x")
    s1["device"][0].update(device_ip="192.168.1.8", rank_id=3, device_id="17")
    s1["device"][1].pop("device_ip")
    s2["server_id"] = "z" * 70
    s2["device"][2]["rank_id"] = "-1"
    del bad["status"]
    a3 = load("hccl_a3_superpod_v1.2.json")
    a3["super_pod_list"] = [{"super_pod_id": "0", "server_list": [{"server_id": "nope"}, 5]}, {"server_list": {}}]
    a3["server_list"][0]["device"][0]["backup_device_ip"] = a3["server_list"][0]["device"][0].get("device_ip")
    v2 = load("hccl_a5_v2.0.json")
    v2["rank_count"] = "9"
    v2["rank_list"][0].update(local_id=99, rank_id=7)
    v2["rank_list"][-1]["level_list"] = [{"net_layer": 9, "rank_addr_list": [{"addr_type": "MAC", "addr": "x"}]}]
    group = load("hccl_group_list_template2.json")
    group["group_count"] = "3"
    texts = [json.dumps(d) for d in (bad, a3, v2, group)]
    texts += ['{"version": "1.0",\n "server_list": [}\n', '{"a": 1,}', "", "[1, 2]", '{"version": 1, "status": "initializing"}',
              '// the doc\n{"version": "1.0", "version": "1.2", "server_list": [], "status": NaN}']
    return texts


def test_zh_rank_table_problems_have_no_english_left():
    from ascend_doctor.rank_table import validate_rank_table_text

    i18n.set_lang("zh")
    try:
        shown, english = [], []
        for text in _broken_tables():
            for soc in (None, "910", "910_93"):
                table = validate_rank_table_text(text, soc_family=soc, env={"RANK_SIZE": "64"})
                shown += [p.shown() for p in table.problems]
                english += [p.message for p in table.problems]
                assert all(type(p.to_json()["message"]) is str for p in table.problems)
    finally:
        i18n.set_lang("en")
    assert len(set(english)) > 40  # the tables break many rules
    allowed = {w for text in _broken_tables() for w in WORD.findall(text)} | GLOSSARY_WORDS
    left = {line: sorted(set(leftovers(line, allowed))) for line in shown if leftovers(line, allowed)}
    assert not left, f"English left in zh rank-table problems: {left}"
    assert not [m for m in english if re.search(r"[\u4e00-\u9fff]", m)]  # facts keep the English message


def test_rank_table_cli_in_chinese_and_json_keeps_its_enums(tmp_path):
    text = _broken_tables()[0]
    f = tmp_path / "t.json"
    f.write_text(text)
    out = run_cli("rank-table", str(f), "--lang", "zh", "--soc", "910")
    assert out.returncode == 1
    assert out.stdout.startswith("rank table：") and "结论：无效" in out.stdout
    # "status": the path of the missing field, as the file would spell it
    assert not leftovers(out.stdout, set(WORD.findall(text)) | GLOSSARY_WORDS | {"status"})
    en = json.loads(run_cli("rank-table", str(f), "--format", "json").stdout)
    zh_json = json.loads(run_cli("rank-table", str(f), "--format", "json", "--lang", "zh").stdout)
    assert (en["lang"], zh_json["lang"], en["verdict"], zh_json["verdict"]) == ("en", "zh", "invalid", "invalid")
    assert [(p["path"], p["rule"], p["severity"]) for p in en["problems"]] == \
        [(p["path"], p["rule"], p["severity"]) for p in zh_json["problems"]]
    assert en["problems"][0]["message"] != zh_json["problems"][0]["message"]


def test_aggregate_errors_in_chinese_one_line(tmp_path):
    d = tmp_path / "r"
    d.mkdir()
    (d / "torn.json").write_text("")
    proc = run_cli("aggregate", str(d), "--lang", "zh")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "空文件" in proc.stderr and "应为节点报告" in proc.stderr and "`ascend-doctor preflight --report-dir`" in proc.stderr
    proc = run_cli("aggregate", str(tmp_path / "none"), "--lang", "zh")
    assert proc.returncode == 2 and "文件或目录不存在" in proc.stderr
    en = run_cli("aggregate", str(d))
    assert "empty file; expected a node report" in en.stderr


def test_a_saved_triage_json_is_worded_again_in_the_other_language_exactly(tmp_path):
    """A triage JSON keeps, per problem, the signature whose title/cause/fix it shows and, for the root cause, its
    messages: reworded() gives, from the English document, exactly the document a Chinese run writes (and back)."""
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.render.triage_report import reworded
    from ascend_doctor.triage import triage_paths

    kb = load_knowledge_base()
    checked = 0
    for path in _triage_inputs(tmp_path):
        en = json.loads(json.dumps(triage_paths([path], kb).to_json()))
        zh = json.loads(json.dumps(_zh_triage(path, as_json=True)))
        assert en != zh
        assert_rewords_both_ways(reworded, en, zh, kb)
        if en["root_cause"] and en["problems"]:
            checked += 1
            assert en["root_cause"]["i18n"]["summary"]["i18n"]["id"]
            assert en["problems"][0]["i18n"]["cause"] == {"kb": en["problems"][0]["signature"], "field": "cause"}
    # the root-cause cases are the peer's (../shared); a checkout without them still checks the tree's problems
    assert checked or not PEER_CASES


def test_a_saved_triage_json_keeps_the_values_its_words_said(tmp_path):
    """Values said in the words (a class entry's API, a code's meaning) come from the problem's line: reworded() reads
    them from the saved "line", so the other language says the same values (without ../shared's peer cases too)."""
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.render.triage_report import reworded
    from ascend_doctor.triage import triage_paths

    log = tmp_path / "worker_0.log"
    log.write_text("RuntimeError: aclnnMatmulGetWorkspaceSize call failed\n"
                   "[ERROR] HCCL(1,python):2025-01-01-00:00:00.000.000 [x.cc:1] [1][Init]errNo[0x0000000005000013] "
                   "ra nic init rdma failed\n", encoding="utf-8")
    kb = load_knowledge_base()
    en = json.loads(json.dumps(triage_paths([str(log)], kb).to_json()))
    zh = json.loads(json.dumps(_zh_triage(str(log), as_json=True)))
    assert "`aclnnMatmul`" in json.dumps(zh, ensure_ascii=False) and "HCCL_E_NETWORK" in json.dumps(zh)
    assert_rewords_both_ways(reworded, en, zh, kb)
