"""commands/rank_table.py: `ascend-doctor rank-table`: exit codes, text and JSON, a node against the table."""

import json
import os
from tests.helpers import run_cli
from tests.helpers.i18n_asserts import assert_msg, assert_shows
from tests.test_rank_table import RT_DIR, load, v10  # noqa: F401


def test_cli_valid_table_exit_0():
    proc = run_cli("rank-table", os.path.join(RT_DIR, "mindie_a3_16die_v1.2.json"))
    assert proc.returncode == 0, proc.stderr
    assert_shows(proc.stdout, "format {format}: {servers} server(s), {ranks} ranks, status {status}", format="1.2",
                 servers=1, ranks=16)
    assert "Result: valid" in proc.stdout


def test_cli_invalid_table_exit_1_with_paths_and_json(tmp_path):
    doc = v10()
    doc["server_list"][1]["device"][1]["device_ip"] = "127.0.0.1"
    doc["server_list"][0]["device"][0]["rank_id"] = "x"
    f = tmp_path / "t.json"
    f.write_text(json.dumps(doc))
    proc = run_cli("rank-table", str(f))
    assert proc.returncode == 1
    assert "server_list[1].device[1].device_ip" in proc.stdout and "server_list[0].device[0].rank_id" in proc.stdout
    proc = run_cli("rank-table", str(f), "--format", "json")
    data = json.loads(proc.stdout)
    assert data["schema"] == "ascend-doctor.rank-table/2" and data["verdict"] == "invalid"
    assert data["counts"]["fail"] >= 2 and {p["severity"] for p in data["problems"]} <= {"fail", "warn", "info"}
    assert {p["path"] for p in data["problems"]} >= {"server_list[1].device[1].device_ip"}


def test_cli_syntax_error_line_column_and_warn_exit_codes(tmp_path):
    f = tmp_path / "t.json"
    f.write_text('{"version": "1.0",\n "server_list": [}\n')
    proc = run_cli("rank-table", str(f))
    assert proc.returncode == 1 and "(line 2, column" in proc.stdout
    proc = run_cli("rank-table", os.path.join(RT_DIR, "hccl_group_list_template2.json"))
    assert proc.returncode == 0
    proc = run_cli("rank-table", os.path.join(RT_DIR, "hccl_group_list_template2.json"), "--fail-on", "warn")
    assert proc.returncode == 1


def test_cli_missing_file_exit_2_one_line(tmp_path):
    proc = run_cli("rank-table", str(tmp_path / "none.json"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "none.json" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_soc_enables_topology():
    proc = run_cli("rank-table", os.path.join(RT_DIR, "hccl_910_template1_v1.0.json"), "--soc", "910")
    assert proc.returncode == 0  # devices 0,1 sit in one HCCS ring
    doc = load("hccl_910_template1_v1.0.json")
    doc["server_list"][0]["device"][1]["device_id"] = "5"
    proc = run_cli("rank-table", "/dev/stdin", "--soc", "910", input=json.dumps(doc))
    assert "R13" in proc.stdout and "HCCS" in proc.stdout


def test_cli_text_caps_per_rule_but_json_lists_all(tmp_path):
    doc = v10(servers=30, per=1)
    for s in doc["server_list"]:
        s["device"][0]["device_ip"] = "127.0.0.1"
    f = tmp_path / "t.json"
    f.write_text(json.dumps(doc))
    proc = run_cli("rank-table", str(f))
    assert_shows(proc.stdout, "... {count} more {rule} problem(s) not shown (--max-per-rule 0 or --format json lists "
                 "all)", count=10, rule="R9")
    data = json.loads(run_cli("rank-table", str(f), "--format", "json").stdout)
    assert len([p for p in data["problems"] if p["rule"] == "R9"]) == 30


def test_node_not_in_the_table_names_its_addresses_and_the_servers(make_snapshot):
    """The user must see at a glance why: this node is 10.9.8.7 / gpu-07, the table lists node_0 and node_1."""
    snap = make_snapshot(name="gpu-07", commands=[{"argv": ["hostname", "-I"], "rc": 0, "stdout": "10.9.8.7 10.9.8.8\n"}])
    table = os.path.join(RT_DIR, "hccl_910_template1_v1.0.json")
    proc = run_cli("rank-table", table, "--bundle", snap)
    assert proc.returncode == 1, proc.stderr
    line = next(l for l in proc.stdout.splitlines() if "FAIL" in l)
    for word in ("10.9.8.7", "10.9.8.8", "gpu-07", "node_0", "node_1"):
        assert word in line, (word, line)
    doc = json.loads(run_cli("rank-table", table, "--bundle", snap, "--format", "json").stdout)
    evidence = doc["node"]["findings"][0]["evidence"]
    assert evidence["server_ids"] == ["node_0", "node_1"] and "10.9.8.7" in evidence["this node"]
    # report/2's i18n blocks, as `check` writes them: the finding can be worded again in any language
    finding = doc["node"]["findings"][0]
    assert finding["i18n"]["title"]["id"] == "This node's entry in the rank table is missing or wrong"
    assert_msg(finding, "None of this node's names or addresses ({names}) appears as a server_id / host_ip / "
               "host_nic_ip in the rank table, whose server_ids are {servers}.", names="10.9.8.7, 10.9.8.8, gpu-07",
               servers="node_0, node_1")
    zh = json.loads(run_cli("rank-table", table, "--bundle", snap, "--format", "json", "--lang", "zh").stdout)
    [zh_finding] = zh["node"]["findings"][:1]
    assert zh_finding["i18n"] == finding["i18n"] and zh_finding["title"] != finding["title"]


def test_here_says_the_node_check_tags_in_the_run_language():
    """`rank-table --here --lang zh` printed "[ FAIL]" and "title: summary" with an English colon."""
    import re

    table = os.path.join(RT_DIR, "hccl_910_template1_v1.0.json")
    en = run_cli("rank-table", table, "--here").stdout
    zh = run_cli("rank-table", table, "--here", "--lang", "zh").stdout
    tag = re.compile(r"^  \[ *([^\]]+)\] (.*)$", re.M)
    en_tags, zh_tags = tag.findall(en), tag.findall(zh)
    assert en_tags and {t for t, _ in en_tags} <= {"FAIL", "ERROR", "WARN", "PASS", "SKIP"}
    assert len(zh_tags) == len(en_tags)
    for (en_tag, _), (zh_tag, line) in zip(en_tags, zh_tags):
        assert zh_tag == {"FAIL": "失败", "ERROR": "出错", "WARN": "警告", "PASS": "通过", "SKIP": "跳过"}[en_tag]
        assert "：" in line and not re.match(r"[^：]*: ", line), line
